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

#endif							/* ULID_SNOWFLAKE_H */
