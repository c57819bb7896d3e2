/*-------------------------------------------------------------------------
 *
 * stable_bound.h
 *	  The stable bound of a generator state (ulid_stable_bound(),
 *	  snowflake_stable_bound(), cosid80_stable_bound()): what the generators
 *	  record per transaction so that a reader paging by id never skips a row
 *	  that commits late.  The protocol and its proof: stable_bound.c.
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_STABLE_BOUND_H
#define ULID_STABLE_BOUND_H

#include "layout.h"
#include "state_table.h"

#include "utils/timestamp.h"

/* a live entry's ms while no transaction holds it */
#define ULID_BOUND_INACTIVE PG_INT64_MAX

/*
 * A live entry of a backend's slot (stable_bound.c).  seq guards kind, key
 * and owner (odd while they change: a claim, a recycling, a release); w0,
 * w1 and ms are written by the owner alone, ms last: ULID_BOUND_INACTIVE
 * while the owner's current transaction does not hold the entry.
 */
typedef struct UlidBoundEntry
{
	pg_atomic_uint32 seq;		/* even: kind, key, owner stable */
	uint32		kind;			/* UlidStateKind; 0: free */
	int32		owner;			/* pid of the process that claimed it */
	uint64		w0;
	uint64		w1;
	int64		ms;				/* first id's ms; ULID_BOUND_INACTIVE */
	uint8		key[ULID_STATE_KEY_BYTES];
} UlidBoundEntry;

/*
 * The state this backend last recorded a first id for in its current
 * transaction (NULL: none).  Reset at every transaction end and whenever a
 * generator looks a state up afresh (a slot that gave way to another key is
 * found again only through ulid_state_get()).
 */
extern ULID_HIDDEN const UlidGenState *ulid_bound_noted;

/*
 * The state and entry of the last first id this backend recorded, kept
 * across transactions (NULL: none).  Invariant: ulid_bound_noted is NULL or
 * ulid_bound_last_st, and st == ulid_bound_last_st != ulid_bound_noted means
 * ulid_bound_last is this backend's inactive entry for st.
 */
extern ULID_HIDDEN const UlidGenState *ulid_bound_last_st;
extern ULID_HIDDEN UlidBoundEntry *ulid_bound_last;

/* The out-of-line part of ulid_bound_note(): see stable_bound.c. */
extern void ulid_bound_note_first(const UlidGenState *st, uint64 w0, uint64 w1,
								  int64 ms);

/*
 * The transaction's first id of st, on the state this backend minted on
 * last: its entry reactivated inline (two stores, a write barrier: a
 * compiler barrier on x86, the active marker, the pointer).  False, having
 * done nothing, for another state: then ulid_bound_note_first().
 */
static inline bool
ulid_bound_note_last(const UlidGenState *st, uint64 w0, uint64 w1, int64 ms)
{
	if (likely(st == ulid_bound_last_st))
	{
		UlidBoundEntry *e = ulid_bound_last;

		e->w0 = w0;
		e->w1 = w1;
		pg_write_barrier();
		*(volatile int64 *) &e->ms = ms;	/* active: the marker last */
		ulid_bound_noted = st;
		return true;
	}
	return false;
}

/* ulid_bound_note() once st != ulid_bound_noted is known. */
static inline void
ulid_bound_note_new(const UlidGenState *st, uint64 w0, uint64 w1, int64 ms)
{
#ifndef ULID_NO_STABLE_BOUND
	if (!ulid_bound_note_last(st, w0, w1, ms))
		ulid_bound_note_first(st, w0, w1, ms);
#endif
}

/*
 * Under st->mutex, right after an id is stored in st: the id's position
 * (w0, w1: the ULID's two halves, or a Snowflake state's tick and sequence)
 * and its millisecond.  Two instructions (compare and branch) unless this
 * is the transaction's first id of st.  Never fails.  ULID_NO_STABLE_BOUND
 * (a build for measuring the cost only: its bounds are wrong) records
 * nothing.
 */
static inline void
ulid_bound_note(const UlidGenState *st, uint64 w0, uint64 w1, int64 ms)
{
#ifndef ULID_NO_STABLE_BOUND
	/* no unlikely(): the first id's stores fall through, no jump back */
	if (st != ulid_bound_noted)
		ulid_bound_note_new(st, w0, w1, ms);
#endif
}

/* Whether st's next id is a later id of this transaction (no note). */
static inline bool
ulid_bound_is_noted(const UlidGenState *st)
{
#ifndef ULID_NO_STABLE_BOUND
	return st == ulid_bound_noted;
#else
	return true;
#endif
}

/*
 * Before a generator's first id in this process, outside any spinlock:
 * attach to the shared slots (ERROR 55000 where there is no shared state)
 * and register the transaction callback.  Also forgets ulid_bound_noted
 * and ulid_bound_last_st (the state may be a slot that gave way to another
 * key), keeping the transaction's "minted".
 */
extern void ulid_bound_attach(void);

/*
 * The stable bound of a Snowflake-kind state (ULID_STATE_SNOWFLAKE,
 * ULID_STATE_COSID80) of layout l and node: its tick and sequence.  fn names
 * the SQL function for the refusal on a hot standby (0A000).
 */
extern void ulid_sf_stable_bound(const sfl_layout *l, UlidStateKind kind, int64 node,
								 const char *fn, int64 *tick, uint64 *seq);

/* From _PG_init: the shared memory request (while preloading). */
extern void ulid_stable_bound_init(void);

/*
 * For ulid_health(): the transaction that holds a stable bound back the
 * longest, live or prepared.  False when none does.
 */
typedef struct UlidBoundHolder
{
	int			pid;			/* the backend (its leader); 0: prepared */
	TransactionId xid;			/* prepared: its xid; else 0 */
	TimestampTz since;			/* its first id's ms */
	uint32		kind;			/* UlidStateKind; 0: several states */
	uint8		key[ULID_STATE_KEY_BYTES];
} UlidBoundHolder;

extern bool ulid_bound_oldest_holder(UlidBoundHolder *out);

#endif							/* ULID_STABLE_BOUND_H */
