/*-------------------------------------------------------------------------
 *
 * state_table.h
 *	  The shared table of generator states: keyed states in shared memory,
 *	  found or created by (kind, key).  A full table never refuses a role
 *	  within its quota, nor a superuser: its least recently used state gives
 *	  way (a clock sweep), folding its high-water mark into a floor that
 *	  every state of its key starts above; states a superuser advanced never
 *	  give way.  The protocol ("GIVING WAY"), the memory and the locking:
 *	  state_table.c.  Floors: floors.h; the view: state_view.h.
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_STATE_TABLE_H
#define ULID_STATE_TABLE_H

#include "ulid.h"

#include "port/atomics.h"
#include "storage/condition_variable.h"
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
	uint32		incarnation;	/* changes when the state gives way */
	uint64		word[ULID_STATE_WORDS];	/* the generator's state */
	int64		last_ms;		/* the last ms of the last id issued (or the
								 * creation time before any) */
	int64		base_ms;		/* a fresh start lies at or above it */
	int64		own_floor;		/* advanced: the floor persisted for this
								 * state alone, above its ids */
	int64		trusted_ms;		/* the part of base_ms that a floor gave
								 * (restart, replay, repair, an advance),
								 * not a gone floor (state_table.c) */
	int64		lead_ms;		/* how far ahead of the clock a floor or an
								 * advance put the state's last fresh start:
								 * it may run that far ahead (gen_snowflake.c) */
	uint64		issued;			/* ids issued */
	uint64		borrows;		/* ids issued on a time ahead of the clock */
	/* second cache line */
	uint64		waits;			/* calls that waited (clock or floor write) */
	uint64		failures;		/* calls that failed inside the generator */
	int64		pre_advance_ms;	/* base_ms again once an advance is reset */
	uint64		swept;			/* issued when the sweep last passed (the
								 * sweep's hint: read and written without
								 * the mutex) */
	bool		ahead_logged;	/* ahead: the LOG line about it was written */
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
 * the calling role, not a superuser, holds ulid.max_states_per_role states
 * and none of them is idle, or when every state is advanced.  A full table
 * otherwise gives way (state_table.c, "GIVING WAY").
 */
extern UlidGenState *ulid_state_get(UlidStateKind kind,
									const uint8 key[ULID_STATE_KEY_BYTES],
									uint32 *incarnation);

/* Under st->mutex: did the state give way since ulid_state_get()? */
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

/* ERROR 42501 unless the user is a superuser; what: "read the state" etc. */
extern void ulid_require_superuser(const char *what);

/*
 * ---- the shared structure, for the modules built on the table ----------
 * (floors.c and state_view.c; a generator uses only what is above)
 */

#define ULID_FLOOR_DAMAGE_MAX	256

typedef struct UlidSharedHeader
{
	uint32		magic;
	uint32		version;
	uint64		size;			/* of the whole structure */
	uint32		capacity;		/* slots */
	uint32		index_size;		/* entries of the index and the role table */
	uint64		seed;			/* of the index's hash */
	slock_t		table_lock;
	uint32		nused;			/* slots ever handed out */
	int64		start_ms;		/* base of a state created now */
	uint32		gone_size;		/* entries of the floors of states that gave way */
	uint32		nadvanced;		/* states advanced (under the writer's lock) */
	pg_atomic_uint32 hand;		/* where the next sweep starts */
	pg_atomic_uint64 reclaims;	/* states that gave way since start */
	pg_atomic_uint64 durable_ms;	/* the server-wide floor last persisted */
	/* the floor writer (floors.c, "THE WRITER'S LOCK") */
	pg_atomic_uint32 writer;	/* its pid, 0: none */
	ConditionVariable writer_cv;	/* broadcast when it leaves */
	pg_atomic_uint32 sync_waiter;	/* its pid while it waits for a sync standby */
	pg_atomic_uint64 sync_since;	/* since when (TimestampTz) */
	pg_atomic_uint32 lowerings;	/* bumped when a repair lowers the floors */
	bool		damaged;		/* the file was damaged: refuse to issue */
	char		damage[ULID_FLOOR_DAMAGE_MAX];	/* what was wrong with it */
} UlidSharedHeader;

/*
 * The most states that may be advanced at once: a quarter of the table.
 * An advance beyond it refuses (53400); so advanced states, which never
 * give way, can never make an ordinary call or a superuser's fail for
 * want of a state (SPEC section 5, "Capacity never refuses").
 */
static inline uint32
ulid_advanced_max(const UlidSharedHeader *hdr)
{
	return hdr->capacity / 4;
}

/* a slot: one state, padded to whole cache lines */
typedef union UlidSlot
{
	UlidGenState state;
	char		pad[TYPEALIGN(PG_CACHE_LINE_SIZE, sizeof(UlidGenState))];
} UlidSlot;

#define ULID_SHARED_HEADER_SIZE	CACHELINEALIGN(sizeof(UlidSharedHeader))
#define ULID_SLOT(hdr, i) \
	(&((UlidSlot *) ((char *) (hdr) + ULID_SHARED_HEADER_SIZE))[i].state)

/* this process's view of the shared structure; NULL until found */
extern ULID_HIDDEN UlidSharedHeader *ulid_shared;

/* The shared structure: the preloaded one, the DSM segment, or ERROR 55000. */
extern UlidSharedHeader *ulid_shared_get(void);

/*
 * Whether ulid_shared_get() fails here: the library was not preloaded, and
 * before PostgreSQL 17 (no DSM registry) nothing else holds the state.
 */
extern bool ulid_shared_unavailable(void);

/*
 * The state of (kind, key) for a floor learnt from elsewhere (WAL replay):
 * found, or created with no owner.  With the table full, NULL, and the
 * key's state, when created later, starts above floor instead (its gone
 * floor).  Takes table_lock.
 */
extern UlidGenState *ulid_state_restore(UlidSharedHeader *hdr, uint32 kind,
										const uint8 *key, int64 floor);

/*
 * Every floor of the table lowered to floor (ulid_floor_repair(lower =>
 * true), or its WAL record replayed): each state forgets its words, its
 * advance and its gone floor, and starts at floor; so does every state
 * created later.  The caller holds the floor writer's lock.
 */
extern void ulid_state_table_lower(UlidSharedHeader *hdr, int64 floor);

#endif							/* ULID_STATE_TABLE_H */
