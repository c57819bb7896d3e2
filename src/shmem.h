/*-------------------------------------------------------------------------
 *
 * shmem.h
 *	  Shared generator state: keyed states in shared memory and the
 *	  persisted server-wide floor.  See shmem.c for the design, the locking
 *	  protocol and the restart guarantee.
 *
 * A generator that orders its ids across backends (gen_monotonic_ulid(),
 * snowflake_next()) uses three things from here:
 *
 *	 - a state, found or created by (kind, key) with ulid_state_get(): a
 *	   spinlock and a few words that only that generator interprets;
 *	 - the clock, ulid_clock_now_ms() (clock.c);
 *	 - the floor: before it issues an id on Unix millisecond ms it asks
 *	   ulid_floor_check(ms) inside its spinlock, and when told so calls
 *	   ulid_floor_reserve() after releasing it.  ms is the last millisecond
 *	   the id's time can stand for: for a tick of several milliseconds
 *	   (Snowflake's 10 ms, 256 ms, 1 s units), the tick's last one.  After a
 *	   restart every state's min_ms then lies beyond every tick issued
 *	   before, and a generator starts at the tick holding
 *	   max(clock, min_ms).
 *
 * The issuing loop, for every generator:
 *
 *		for (;;)
 *		{
 *			now = ulid_clock_now_ms();		(randomness, too, is drawn here)
 *			SpinLockAcquire(&st->mutex);
 *			(compute the next id from st->word[] and now; ms = its last ms)
 *			chk = ulid_floor_check(ms);
 *			if (chk != ULID_FLOOR_BLOCKED)
 *				(store the id in st->word[], count it)
 *			SpinLockRelease(&st->mutex);
 *			if (chk == ULID_FLOOR_OK)
 *				break;
 *			ulid_floor_reserve(ms, chk == ULID_FLOOR_BLOCKED);
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

#include "storage/spin.h"

/* Every kind of shared state.  The number is part of the state's key. */
typedef enum UlidStateKind
{
	ULID_STATE_MONOTONIC_ULID = 1,	/* gen_monotonic_ulid(): one state */
	ULID_STATE_SNOWFLAKE = 2,	/* snowflake_next(): one per bits + node */
	ULID_STATE_KINDS			/* one past the last kind */
} UlidStateKind;

/* a key: the kind's own fixed-size blob (zero-padded) */
#define ULID_STATE_KEY_BYTES	32
/* a state's payload: words only its generator interprets, zero at creation */
#define ULID_STATE_WORDS		4

typedef struct UlidGenState
{
	/*
	 * What every call touches comes first, in one cache line (slots are
	 * cache-line aligned): the lock, the generator's words and the counters
	 * it bumps.  The key and min_ms, read-only once the state is visible,
	 * follow in the next line, so they stay cached in every core.
	 */
	slock_t		mutex;			/* protects word[] and the counters */
	uint64		word[ULID_STATE_WORDS];	/* the generator's state */
	uint64		issued;			/* ids issued */
	uint64		borrows;		/* ids issued on a time ahead of the clock */
	uint64		waits;			/* calls that waited (clock or floor write) */
	uint64		failures;		/* calls that failed inside the generator */
	uint32		kind;			/* constant once the state is visible */
	uint8		key[ULID_STATE_KEY_BYTES];	/* likewise */
	int64		min_ms;			/* constant: the earliest Unix ms the state
								 * may issue on (the floor read at startup) */
} UlidGenState;

/*
 * The state of (kind, key), created (word[] and counters zero) if it does
 * not exist yet.  States are never removed, so the pointer stays valid for
 * the life of the backend and callers may cache it.  Errors: 55000 when
 * there is no shared state (not preloaded, no DSM registry), 53400 when the
 * table is full.
 */
extern UlidGenState *ulid_state_get(UlidStateKind kind,
									const uint8 key[ULID_STATE_KEY_BYTES]);

/* What ulid_floor_check() tells a generator about the time it wants. */
typedef enum UlidFloorCheck
{
	ULID_FLOOR_OK,				/* issue it */
	ULID_FLOOR_REFRESH,			/* issue it, then ulid_floor_reserve(ms, false) */
	ULID_FLOOR_BLOCKED			/* do not issue: ulid_floor_reserve(ms, true),
								 * then compute again */
} UlidFloorCheck;

/*
 * May an id whose time reaches Unix millisecond ms be issued now?  One
 * atomic read; safe under a spinlock.  Call only after ulid_state_get().
 */
extern UlidFloorCheck ulid_floor_check(int64 ms);

/*
 * Outside any spinlock: make the persisted floor exceed ms, by writing the
 * floor file if nobody else is.  With wait, return only once it does
 * (ERROR if the file cannot be written); without, do nothing when another
 * backend is writing, and only WARN if the write fails.
 */
extern void ulid_floor_reserve(int64 ms, bool wait);

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

/* From _PG_init: the capacity setting and the preload hooks. */
extern void ulid_shmem_init(void);

#endif							/* ULID_SHMEM_H */
