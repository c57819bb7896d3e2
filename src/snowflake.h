/*-------------------------------------------------------------------------
 *
 * snowflake.h
 *	  What the Snowflake glue files share: the snowflake_layout type in C,
 *	  layout arguments, and the errors every reader raises the same way.
 *
 * A snowflake_layout datum is a varlena whose payload is the serialized
 * layout of src/core/layout.c (a format-version byte, then the full
 * definition).  Equal definitions have equal bytes.
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_SNOWFLAKE_H
#define ULID_SNOWFLAKE_H

#include "ulid.h"

#include "layout.h"

/*
 * The layout in argument argno, decoded once per call site and value
 * (fn_extra keeps the last one: a query usually passes the same layout on
 * every row; a literal is never compared again).
 */
extern const sfl_layout *sf_layout_arg(FunctionCallInfo fcinfo, int argno);

/* The same, caching in *slot instead of fn_extra (which the caller uses). */
extern const sfl_layout *sf_layout_arg_in(FunctionCallInfo fcinfo, int argno,
										  void **slot);

/* Whether argument argno is a Const of the call's expression (fn_expr). */
extern bool sf_arg_is_const(FmgrInfo *flinfo, int argno);

/* The offset of a time zone (AT TIME ZONE's names) at unix_ms, in ms. */
extern int64 sf_zone_offset_ms(text *zone, int64 unix_ms);

/*
 * The id of a friendly text's parts: its local time in zone (22P02 when
 * the zone skipped or repeated it), on a tick of the layout (22P02 off a
 * tick, 22003 outside the layout).  input is the text and fn the function
 * (NULL: snowflake_from_friendly) that messages name.
 */
extern int64 sf_friendly_id(const sfl_layout *l, text *zone, int64 local_ms,
							uint64 node, uint64 seq, const char *input,
							const char *fn);

/* The canonical text of a layout, palloc'd (for messages). */
extern char *sf_layout_name(const sfl_layout *l);

/* The parts of id, or ERROR 22003 when id is outside the layout. */
extern sfl_parts sf_unpack(const sfl_layout *l, int64 id);

/* Unix ms <-> timestamptz, ERROR 22008 outside timestamptz's range. */
extern TimestampTz sf_unix_ms_to_timestamptz(int64 ms);
extern int64 sf_timestamptz_to_unix_ms(TimestampTz ts);

/* "The layout holds times from ... to ...", for errdetail. */
extern char *sf_layout_range(const sfl_layout *l);

/* The tick of a time, floored; ERROR 22008 outside the layout's times. */
extern int64 sf_tick_of_timestamptz(const sfl_layout *l, TimestampTz ts);

/*
 * The generator (gen_snowflake.c), shared by snowflake_next() and
 * cosid80_next(): kind is the UlidStateKind of the state (state_table.h).
 * sf_next_parts issues the next (tick, sequence) of (kind, layout's bits,
 * node) with every guarantee of snowflake_next(); sf_advance_to moves the
 * state to (tick, seq) unless it is beyond, persisting its own floor;
 * sf_reset_state undoes an advance with a WARNING (the callers check the
 * superuser and the node).
 */
extern void sf_next_parts(const sfl_layout *l, int kind, int64 node,
						  int64 *tick, uint64 *seq);
extern void sf_advance_to(const sfl_layout *l, int kind, int64 node,
						  int64 tick, uint64 seq);
extern void sf_reset_state(const sfl_layout *l, int kind, int64 node);


/* The UTC instant of a local time in zone (22P02 when skipped or repeated). */
extern int64 sf_local_to_utc(text *zone, int64 local_ms, const char *input,
							 const char *fn);

#endif							/* ULID_SNOWFLAKE_H */
