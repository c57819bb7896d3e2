/*-------------------------------------------------------------------------
 *
 * shmem.h
 *	  Shared generator state: keyed states in shared memory, their floors
 *	  and the persisted floor file.  See shmem.c for the design, the locking
 *	  protocol, reclaiming and the restart guarantee.
 *
 * A generator that orders its ids across backends (gen_monotonic_ulid(),
 * snowflake_next()) uses three things from here:
 *
 *	 - a state, found or created by (kind, key) with ulid_state_get(): a
 *	   spinlock and a few words that only that generator interprets.  A
 *	   state nobody has used for a while may be reclaimed for another key:
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
 *	   base_ms; after a restart or a reclaim base_ms lies beyond every tick
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
 *			ulid_floor_reserve(st, ms, own, chk == ULID_FLOOR_BLOCKED);
 *			if (chk == ULID_FLOOR_REFRESH)
 *				break;
 *		}
 *
 * Nothing between SpinLockAcquire and SpinLockRelease may allocate, raise
 * an error or call anything that can.
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_SHMEM_H
#define ULID_SHMEM_H

#include "ulid.h"

#include "port/atomics.h"
#include "storage/spin.h"

/* Every kind of shared state.  The number is part of the state's key. */
typedef enum UlidStateKind
{
	ULID_STATE_MONOTONIC_ULID = 1,	/* gen_monotonic_ulid(): one state */
	ULID_STATE_SNOWFLAKE = 2,	/* snowflake_next(): one per bits + node */
	ULID_STATE_COSID80 = 3,		/* cosid80_next(): one per node */
	ULID_STATE_KINDS			/* one past the last kind */
} UlidStateKind;

/* a key: the kind's own fixed-size blob (zero-padded) */
#define ULID_STATE_KEY_BYTES	32
/* a state's payload: words only its generator interprets, zero at creation */
#define ULID_STATE_WORDS		2

typedef struct UlidGenState
{
	/*
	 * What every call touches comes first, in one cache line (slots are
	 * cache-line aligned): the lock, the generator's words and what the
	 * issuing loop reads and bumps.  The rest follows in the next line.
	 * Everything but the key's fields is protected by mutex.
	 */
	slock_t		mutex;
	bool		valid;			/* an id is stored in word[] */
	bool		advanced;		/* own_floor is in force (an advance) */
	bool		ahead;			/* its last tick came from a floor or an
								 * advance, not the clock (gen_snowflake.c) */
	uint32		incarnation;	/* changes when the slot is reclaimed */
	uint64		word[ULID_STATE_WORDS];	/* the generator's state */
	int64		last_ms;		/* the last ms of the last id issued (or the
								 * creation time before any) */
	int64		base_ms;		/* a fresh start lies at or above it */
	int64		own_floor;		/* advanced: the floor persisted for this
								 * state alone, above its ids */
	uint64		issued;			/* ids issued */
	uint64		borrows;		/* ids issued on a time ahead of the clock */
	/* second cache line */
	uint64		waits;			/* calls that waited (clock or floor write) */
	uint64		failures;		/* calls that failed inside the generator */
	int64		pre_advance_ms;	/* base_ms again once an advance is reset */
	/* the key: constant while the slot holds it (changed under the table lock) */
	uint32		kind;
	uint32		hash;			/* of kind and key, for the index */
	Oid			owner;			/* the role that created it (quota) */
	uint8		key[ULID_STATE_KEY_BYTES];
} UlidGenState;

/*
 * The state of (kind, key), created if it does not exist yet (word[] and
 * counters zero, base_ms above every id the key issued before).  *incarnation
 * receives the slot's incarnation, for ulid_state_stale().  Errors: 55000
 * when there is no shared state (not preloaded, no DSM registry), 53400 when
 * the calling role holds ulid.max_states_per_role states or the table is
 * full, and no idle state can be reclaimed.
 */
extern UlidGenState *ulid_state_get(UlidStateKind kind,
									const uint8 key[ULID_STATE_KEY_BYTES],
									uint32 *incarnation);

/* Under st->mutex: was the slot reclaimed since ulid_state_get()? */
static inline bool
ulid_state_stale(const UlidGenState *st, uint32 incarnation)
{
	return unlikely(st->incarnation != incarnation);
}

/* Under st->mutex: count an id issued on ms (its last millisecond). */
static inline void
ulid_state_issued(UlidGenState *st, int64 ms)
{
	st->valid = true;
	st->last_ms = ms;
	st->issued++;
}

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
 * only WARN if the write fails.  With own, st becomes advanced.
 */
extern void ulid_floor_reserve(UlidGenState *st, int64 ms, bool own, bool wait);

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

/* A row of the ulid_generator_state view; the kind's describe fills it. */
typedef struct UlidStateRow
{
	char	   *layout;			/* NULL: none */
	bool		has_node;
	int64		node;
	bool		has_last;		/* false: nothing issued yet */
	int64		last_tick;		/* in the state's own units */
	int64		last_unix_ms;	/* when that tick starts */
	bool		has_sequence;
	int64		sequence;
	char	   *last_id;		/* text of the last id; NULL: none */
} UlidStateRow;

/* Fill row (zeroed by the caller) from a copy of a state; may palloc. */
typedef void (*UlidStateDescribe) (const UlidGenState *copy, UlidStateRow *row);

/* From _PG_init: the name the view shows for a kind, and its describe. */
extern void ulid_state_register_kind(UlidStateKind kind, const char *name,
									 UlidStateDescribe describe);

/* ERROR 42501 unless the user is a superuser; what: "read the state" etc. */
extern void ulid_require_superuser(const char *what);

/* From _PG_init: the capacity settings and the preload hooks. */
extern void ulid_shmem_init(void);

#endif							/* ULID_SHMEM_H */
