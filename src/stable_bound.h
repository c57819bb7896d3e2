/*-------------------------------------------------------------------------
 *
 * stable_bound.h
 *	  The stable bound of a generator state (ulid_stable_bound(),
 *	  snowflake_stable_bound()): what the generators record per transaction
 *	  so that a reader paging by id never skips a row that commits late.
 *	  The protocol and its proof: stable_bound.c.
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_STABLE_BOUND_H
#define ULID_STABLE_BOUND_H

#include "state_table.h"

#include "utils/timestamp.h"

/*
 * The state this backend last recorded a first id for in its current
 * transaction (NULL: none).  Reset at every transaction end and whenever a
 * generator looks a state up afresh (a slot that gave way to another key is
 * found again only through ulid_state_get()).
 */
extern ULID_HIDDEN const UlidGenState *ulid_bound_noted;

/* The out-of-line part of ulid_bound_note(): see stable_bound.c. */
extern void ulid_bound_note_first(const UlidGenState *st, uint64 w0, uint64 w1,
								  int64 ms);

/*
 * Under st->mutex, right after an id is stored in st: the id's position
 * (w0, w1: the ULID's two halves, or a Snowflake state's tick and sequence)
 * and its millisecond.  Two instructions unless this is the transaction's
 * first id of st.  Never fails.
 */
static inline void
ulid_bound_note(const UlidGenState *st, uint64 w0, uint64 w1, int64 ms)
{
	if (unlikely(st != ulid_bound_noted))
		ulid_bound_note_first(st, w0, w1, ms);
}

/*
 * Before a generator's first id in this process, outside any spinlock:
 * attach to the shared slots (ERROR 55000 where there is no shared state)
 * and register the transaction callback.  Also forgets ulid_bound_noted.
 */
extern void ulid_bound_attach(void);

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
	TimestampTz since;			/* when the transaction started */
	uint32		kind;			/* UlidStateKind; 0: several states */
	uint8		key[ULID_STATE_KEY_BYTES];
} UlidBoundHolder;

extern bool ulid_bound_oldest_holder(UlidBoundHolder *out);

#endif							/* ULID_STABLE_BOUND_H */
