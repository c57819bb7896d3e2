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
 *	   ulid_floor_reserve() after releasing it.  ms is where the id's tick
 *	   starts: for a tick of several milliseconds (Snowflake's 10 ms, 256 ms,
 *	   1 s units), its first one.  A fresh start (a new tick or millisecond)
 *	   lies on the first tick that starts at or after the state's base_ms;
 *	   after a restart or giving way base_ms lies beyond the start of every
 *	   tick the key issued before.
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
 *			chk = ulid_floor_check(st, ms, now, ref, &own);
 *			if (chk != ULID_FLOOR_BLOCKED)
 *				(store the id in st->word[], ulid_state_issued(st, ms))
 *			SpinLockRelease(&st->mutex);
 *			if (chk == ULID_FLOOR_OK)
 *				break;
 *			ulid_floor_reserve(st, inc, ms, ref, own, chk == ULID_FLOOR_BLOCKED);
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
 * Under st->mutex: may an id of st on Unix millisecond ms (its tick's
 * start) be issued now (the clock reading now; ref the clock the state
 * follows: now, or ahead of it by the lead a floor gave it)?  *own tells
 * which floor must move: the state's own (an advanced state issuing ahead
 * of the clock) or the server-wide one.  One atomic read on the common
 * path.
 */
extern UlidFloorCheck ulid_floor_check(const UlidGenState *st, int64 ms,
									   int64 now, int64 ref, bool *own);

/*
 * Outside any spinlock: make the floor (st's own when own, else the
 * server-wide one) exceed ms, by writing the floor file if nobody else is.
 * ref is the clock the state follows (the clock, plus st->lead_ms read
 * under its mutex): the server-wide floor is reserved a reservation ahead
 * of ref, not of ms, so an id borrowed ahead of the clock moves it only
 * past itself.  With wait, return only once it does (ERROR if the file
 * cannot be written or is damaged); without, do nothing when another
 * backend is writing, and only WARN if the write fails.  With own, st's
 * own floor rises (if it is still advanced: a reset may have dropped it).
 */
extern void ulid_floor_reserve(UlidGenState *st, uint32 incarnation, int64 ms,
							   int64 ref, bool own, bool wait);

/*
 * An advance of one state (snowflake_advance(), cosid80_advance(),
 * ulid_monotonic_advance(), ulid_advance_from_tables()): the state of
 * (kind, key) moves to word[] (its generator's words for the id advanced
 * to: the next id lies above it), which lies on Unix millisecond ms (its
 * tick's start), unless it is there or beyond already.
 */
typedef struct UlidAdvance
{
	UlidStateKind kind;
	uint8		key[ULID_STATE_KEY_BYTES];
	uint64		word[ULID_STATE_WORDS];
	int64		ms;
} UlidAdvance;

/*
 * Make every advance of adv[] (n of them; reordered) at once: one floor
 * file write and the WAL records of their own floors, then each state
 * issues from its id, ahead of the clock if that is where it lies (SPEC
 * section 5, the advance rule).  All or nothing: ERROR 53400 (nothing
 * advanced) when the states it would newly advance exceed
 * ulid_advanced_max(); any other error (the file cannot be written, it is
 * damaged) advances none.  The caller checks for a superuser.
 */
extern void ulid_advance_states(UlidAdvance *adv, int n);

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

/*
 * The floor writer waiting for the synchronous standbys to confirm its
 * floor record (floors.c, "THE WRITER'S LOCK"): its pid, and in *since the
 * time its wait began; 0 when no backend waits (or there is no shared
 * state in this process).  Every other backend that needs a floor to move
 * meanwhile sleeps (wait event UlidFloorWrite on 17+, Extension before).
 * Reads two words of shared memory, takes no lock.
 */
extern int	ulid_floor_sync_waiter(TimestampTz *since);

/* Initialise the writer's lock of a new shared structure (state_table.c). */
extern void ulid_floor_writer_init(UlidSharedHeader *hdr);

#endif							/* ULID_FLOORS_H */
