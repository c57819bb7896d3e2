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
 * The last layout decoded at a call site (snowflake_layout.c): the cache
 * behind sf_layout_arg(), in fn_extra or in a slot of the caller's.
 */
typedef struct sf_layout_cache
{
	bool		is_const;		/* the argument is a Const of the expression */
	uint32		version;		/* changes whenever layout is decoded again */
	Size		len;
	uint8		bytes[SFL_SERIAL_MAX];
	sfl_layout	layout;
} sf_layout_cache;

/*
 * The layout in argument argno, decoded once per call site and value
 * (fn_extra keeps the last one: a query usually passes the same layout on
 * every row; a literal is never compared again).
 */
extern const sfl_layout *sf_layout_arg(FunctionCallInfo fcinfo, int argno);

/* sf_layout_arg_in()'s path for all but a literal seen before */
extern const sfl_layout *sf_layout_arg_decode(FunctionCallInfo fcinfo,
											  int argno, void **slot);

/*
 * The same, caching in *slot instead of fn_extra (which the caller uses).
 * A literal seen before costs two loads here.
 */
static inline const sfl_layout *
sf_layout_arg_in(FunctionCallInfo fcinfo, int argno, void **slot)
{
	sf_layout_cache *c = (sf_layout_cache *) *slot;

	if (likely(c != NULL) && c->is_const)
		return &c->layout;
	return sf_layout_arg_decode(fcinfo, argno, slot);
}

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
 * What a call site of the generator keeps between calls (snowflake_next()'s
 * fn_extra, cosid80_next()'s static): its layout argument's cache, what
 * sf_next_parts() derived from the layout (l at version), and the state it
 * found for (kind, l's bits, node) with the incarnation it had.  Nothing
 * here is trusted without a check: l and version are compared on every
 * call (a column or a variable may pass another layout), node too (a
 * reload may change ulid.node_id), and the state's incarnation under its
 * spinlock (it may have given way to another key).  Zeroed: nothing known.
 */
typedef struct sf_site
{
	void	   *layout_slot;	/* sf_layout_arg_in()'s cache */
	const sfl_layout *l;		/* the layout the rest was derived from */
	uint32		version;		/* its version (sf_layout_cache) */
	int			kind;
	int			unit_ms;
	uint64		max_seq;
	int64		first;			/* the layout's issuable ticks */
	int64		last;
	int64		node;			/* the node st serves */
	struct UlidGenState *st;	/* NULL: not looked up */
	uint32		inc;			/* st's incarnation when looked up */
} sf_site;

/*
 * The generator (gen_snowflake.c), shared by snowflake_next() and
 * cosid80_next(): kind is the UlidStateKind of the state (state_table.h).
 * sf_next_parts issues the next (tick, sequence) of (kind, layout's bits,
 * node) with every guarantee of snowflake_next(), caching in site what it
 * found (version: of l, constant for a layout that never changes);
 * sf_advance_of and sf_advance_at describe the advance (floors.h's
 * UlidAdvance) to the largest id of node at most id, or to (tick, seq);
 * sf_reset_state undoes an advance with a WARNING (the callers check the
 * superuser and the node).
 */
extern void sf_next_parts(sf_site *site, const sfl_layout *l, uint32 version,
						  int kind, int64 node, int64 *tick, uint64 *seq);
struct UlidAdvance;
extern bool sf_advance_of(const sfl_layout *l, int kind, int64 node, int64 id,
						  struct UlidAdvance *adv);
extern void sf_advance_at(const sfl_layout *l, int kind, int64 node,
						  int64 tick, uint64 seq, struct UlidAdvance *adv);
extern void sf_reset_state(const sfl_layout *l, int kind, int64 node);


/* The UTC instant of a local time in zone (22P02 when skipped or repeated). */
extern int64 sf_local_to_utc(text *zone, int64 local_ms, const char *input,
							 const char *fn);

#endif							/* ULID_SNOWFLAKE_H */
