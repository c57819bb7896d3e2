/*-------------------------------------------------------------------------
 *
 * advance.h
 *	  The advance of each generator's state to an id (floors.h's
 *	  UlidAdvance), for ulid_advance_from_tables() (advance_tables.c), which
 *	  advances many at once.  sf_advance_of() (snowflake.h) does it for
 *	  Snowflake ids.
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_ADVANCE_H
#define ULID_ADVANCE_H

#include "floors.h"

/* gen_monotonic.c: gen_monotonic_ulid() above the 16 bytes of a ULID */
extern void ulid_monotonic_advance_of(const uint8 *bytes, UlidAdvance *adv);

/*
 * cosid80.c: cosid80_next(node) above the COSID_80 id (ms, id_node, seq);
 * false when every id of node lies above it.
 */
extern bool cosid80_advance_of(int64 node, int64 ms, uint64 id_node,
							   uint64 seq, UlidAdvance *adv);

#endif							/* ULID_ADVANCE_H */
