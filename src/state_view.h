/*-------------------------------------------------------------------------
 *
 * state_view.h
 *	  The ulid_generator_state view: one row per live shared state, each
 *	  kind described by its generator.
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_STATE_VIEW_H
#define ULID_STATE_VIEW_H

#include "state_table.h"

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

#endif							/* ULID_STATE_VIEW_H */
