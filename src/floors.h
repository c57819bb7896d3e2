/*-------------------------------------------------------------------------
 *
 * floors.h
 *	  The floors of the shared generator states: the server-wide floor, each
 *	  advanced state's own floor, and the persisted floor file that makes
 *	  restarts safe.  See floors.c for the design and the restart guarantee.
 *
 * A generator that orders its ids across backends (gen_monotonic_ulid(),
 * snowflake_next()) uses three things from here:
 *
 *	 - a state, found or created by (kind, key) with ulid_state_get(): a
 *	   spinlock and a few words that only that generator interprets.  In a
 *	   full table the least recently used state gives way to another key:
 *	   ulid_state_get() returns the slot's incarnation, and the generator
 *	   checks it under the spinlock (ulid_state_stale()), looking the state
 *	   up again when it changed;
 *	 - the clock, ulid_clock_now_ms() (clock.c);
 *	 - the floor: before it issues an id on Unix millisecond ms it asks
 *	   ulid_floor_check() inside its spinlock, and when told so calls
 *	   ulid_floor_reserve() after releasing it.  ms is the last millisecond
 *	   the id's time can stand for: for a tick of several milliseconds
 *	   (Snowflake's 10 ms, 256 ms, 1 s units), the tick's last one.  A fresh
 *	   start (a new tick or millisecond) never lies below the state's
 *	   base_ms; after a restart or giving way base_ms lies beyond every tick
 *	   the key issued before.
 *
 * The issuing loop, for every generator:
 *
 *		for (;;)
 *		{
 *			now = ulid_clock_now_ms();		(randomness, too, is drawn here)
 *			SpinLockAcquire(&st->mutex);
 *			if (ulid_state_stale(st, inc))
 *				(release, look the state up again, continue)
 *			(compute the next id from st->word[], now and st->base_ms;
 *			 ms = its last ms)
 *			chk = ulid_floor_check(st, ms, now, &own);
 *			if (chk != ULID_FLOOR_BLOCKED)
 *				(store the id in st->word[], ulid_state_issued(st, ms))
 *			SpinLockRelease(&st->mutex);
 *			if (chk == ULID_FLOOR_OK)
 *				break;
 *			ulid_floor_reserve(st, inc, ms, own, chk == ULID_FLOOR_BLOCKED);
 *			if (chk == ULID_FLOOR_REFRESH)
 *				break;
 *		}
 *
 * ulid_floor_reserve() runs after the mutex is released, so the state may
 * change meanwhile: a superuser may reset an advanced state, and a state
 * that is not advanced may give way to another key.  It therefore takes
 * the incarnation the loop found (inc) and checks it under the mutex
 * wherever it reads or marks the state: a state that gave way is never
 * marked advanced (its new key would keep a floor it never asked for, and
 * never give way), nor named in the file or the WAL.  A BLOCKED call then
 * finds the state stale on its next pass and looks it up again.
 *
 * Nothing between SpinLockAcquire and SpinLockRelease may allocate, raise
 * an error or call anything that can.
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_FLOORS_H
#define ULID_FLOORS_H

#include "state_table.h"

/* What ulid_floor_check() tells a generator about the time it wants. */
typedef enum UlidFloorCheck
{
	ULID_FLOOR_OK,				/* issue it */
	ULID_FLOOR_REFRESH,			/* issue it, then ulid_floor_reserve(.., false) */
	ULID_FLOOR_BLOCKED			/* do not issue: ulid_floor_reserve(.., true),
								 * then compute again */
} UlidFloorCheck;

/* how far ahead of the last issued millisecond a floor is written */
#define ULID_FLOOR_RESERVE_MS	1000

/* the server-wide durable floor (ERROR 55000 when there is no shared state) */
extern pg_atomic_uint64 *ulid_floor_durable(void);

/*
 * ulid_floor_check()'s common case, inline: ms lies far enough below
 * durable, the value read from ulid_floor_durable(), that the check says
 * ULID_FLOOR_OK with own false, whatever st is.  When false, ask
 * ulid_floor_check().
 */
static inline bool
ulid_floor_clear(int64 ms, int64 durable)
{
	return likely(ms < durable - ULID_FLOOR_RESERVE_MS / 2);
}

/*
 * Under st->mutex: may an id of st whose time reaches Unix millisecond ms
 * be issued now (the clock reading now)?  *own tells which floor must move:
 * the state's own (an advanced state issuing ahead of the clock) or the
 * server-wide one.  One atomic read on the common path.
 */
extern UlidFloorCheck ulid_floor_check(const UlidGenState *st, int64 ms,
									   int64 now, bool *own);

/*
 * Outside any spinlock: make the floor (st's own when own, else the
 * server-wide one) exceed ms, by writing the floor file if nobody else is.
 * With wait, return only once it does (ERROR if the file cannot be written
 * or is damaged); without, do nothing when another backend is writing, and
 * only WARN if the write fails.  With own, st becomes advanced, unless it
 * gave way since the caller found it with incarnation (then nothing is
 * done for it: the caller sees the state stale under its mutex next).
 */
extern void ulid_floor_reserve(UlidGenState *st, uint32 incarnation, int64 ms,
							   bool own, bool wait);

/*
 * Undo an advance of st: it forgets its own floor and its words, and goes
 * on from the clock above base_ms as before the advance; the floor file is
 * rewritten without it.  Returns false (changing nothing) when st is not
 * advanced; *own_floor receives the floor it had.
 */
extern bool ulid_state_reset(UlidGenState *st, uint32 incarnation,
							 int64 *own_floor);

/* An advanced state's error detail ("... advanced past the clock ..."). */
extern char *ulid_advance_detail(int64 own_floor, const char *reset_call);

#endif							/* ULID_FLOORS_H */
