/*-------------------------------------------------------------------------
 *
 * snowflake_read.c
 *	  Reading Snowflake ids back, and building them from parts.
 *
 * Integer arithmetic only, exact to the layout's unit.  An id is a bigint;
 * a layout using all 64 bits reads the bigint's unsigned value (two's
 * complement), so Discord ids past 2^63 read back like any other.
 *
 *-------------------------------------------------------------------------
 */
#include "snowflake.h"

#include "lib/stringinfo.h"
#include "utils/builtins.h"
#include "utils/datetime.h"
#include "utils/jsonb.h"
#include "utils/timestamp.h"

/* milliseconds from 1970-01-01Z to 2000-01-01Z */
#define UNIX_TO_PG_MS (ULID_UNIX_TO_PG_USECS / 1000)

/* The parts of an id, or ERROR 22003 saying which bits are outside the layout. */
sfl_parts
sf_unpack(const sfl_layout *l, int64 id)
{
	sfl_parts	p;
	int			unused = 64 - l->width;

	if (sfl_unpack(l, (uint64) id, &p) == SFL_OK)
		return p;
	if (l->preset == SFL_SCRU64 && ((uint64) id >> l->width) == 0)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("id " INT64_FORMAT " is outside the layout %s", id, sf_layout_name(l)),
				 errdetail("SCRU64 ids are below 36^12 (4738381338321616896).")));
	ereport(ERROR,
			(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
			 errmsg("id " INT64_FORMAT " is outside the layout %s", id, sf_layout_name(l)),
			 errdetail("The layout uses the low %d bits; this id has bits set in the top %d%s.",
					   l->width, unused,
					   id < 0 && l->sign ? " (it is negative; the sign bit is reserved)" : ""),
			 errhint("Read an id with the layout that made it.")));
	pg_unreachable();
}

TimestampTz
sf_unix_ms_to_timestamptz(int64 ms)
{
	/* ms - UNIX_TO_PG_MS cannot overflow: ids' times are below 2^63 / 1000 */
	if (ms - UNIX_TO_PG_MS >= END_TIMESTAMP / 1000 ||
		ms - UNIX_TO_PG_MS < MIN_TIMESTAMP / 1000)
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("time out of range for type timestamp with time zone: " INT64_FORMAT " Unix ms", ms),
				 errdetail("timestamp with time zone ends in the year 294276.")));
	return ulid_unix_ms_to_timestamptz(ms);
}

/* Unix ms of a finite timestamptz, floored. */
int64
sf_timestamptz_to_unix_ms(TimestampTz ts)
{
	if (TIMESTAMP_NOT_FINITE(ts))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("timestamp out of range for a Snowflake id: \"%s\"",
						TIMESTAMP_IS_NOBEGIN(ts) ? "-infinity" : "infinity"),
				 errhint("Pass a finite timestamp with time zone.")));
	return ulid_timestamptz_floor_unix_ms(ts);
}

/* "The layout holds times from ... to ...", for errdetail. */
char *
sf_layout_range(const sfl_layout *l)
{
	char		first[SFL_TIME_TEXT_MAX],
				last[SFL_TIME_TEXT_MAX];

	sfl_format_time(l->epoch_ms, first);
	sfl_format_time(sfl_last_unix_ms(l), last);
	return psprintf("The layout holds times from %s to %s.", first, last);
}

/* The tick holding ts, floored, or ERROR 22008 outside the layout. */
int64
sf_tick_of_timestamptz(const sfl_layout *l, TimestampTz ts)
{
	int64		tick;

	if (sfl_tick_of_unix_ms(l, sf_timestamptz_to_unix_ms(ts), &tick) == SFL_OK)
		return tick;
	ereport(ERROR,
			(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
			 errmsg("timestamp out of range for the layout %s: \"%s\"",
					sf_layout_name(l), timestamptz_to_str(ts)),
			 errdetail("%s", sf_layout_range(l))));
	pg_unreachable();
}

/* UTC ISO-8601 with milliseconds and Z, any year timestamptz holds. */
static char *
iso_utc(TimestampTz ts)
{
	struct pg_tm tm;
	fsec_t		fsec;

	if (timestamp2tm(ts, NULL, &tm, &fsec, NULL, NULL) != 0)
		elog(ERROR, "timestamp out of range");
	return psprintf("%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year, tm.tm_mon,
					tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, fsec / 1000);
}

PG_FUNCTION_INFO_V1(snowflake_time);
Datum
snowflake_time(PG_FUNCTION_ARGS)
{
	const sfl_layout *l = sf_layout_arg(fcinfo, 1);
	sfl_parts	p = sf_unpack(l, PG_GETARG_INT64(0));

	PG_RETURN_TIMESTAMPTZ(sf_unix_ms_to_timestamptz(sfl_tick_unix_ms(l, p.tick)));
}

PG_FUNCTION_INFO_V1(snowflake_unix_ms);
Datum
snowflake_unix_ms(PG_FUNCTION_ARGS)
{
	const sfl_layout *l = sf_layout_arg(fcinfo, 1);
	sfl_parts	p = sf_unpack(l, PG_GETARG_INT64(0));

	PG_RETURN_INT64(sfl_tick_unix_ms(l, p.tick));
}

PG_FUNCTION_INFO_V1(snowflake_node);
Datum
snowflake_node(PG_FUNCTION_ARGS)
{
	const sfl_layout *l = sf_layout_arg(fcinfo, 1);

	PG_RETURN_INT64((int64) sf_unpack(l, PG_GETARG_INT64(0)).node);
}

PG_FUNCTION_INFO_V1(snowflake_sequence);
Datum
snowflake_sequence(PG_FUNCTION_ARGS)
{
	const sfl_layout *l = sf_layout_arg(fcinfo, 1);

	PG_RETURN_INT32((int32) sf_unpack(l, PG_GETARG_INT64(0)).seq);
}

/*
 * snowflake_field(id, layout, field): a node field by name, or the raw bit
 * fields time (ticks since the epoch), node (all node fields) and sequence.
 */
PG_FUNCTION_INFO_V1(snowflake_field);
Datum
snowflake_field(PG_FUNCTION_ARGS)
{
	const sfl_layout *l = sf_layout_arg(fcinfo, 1);
	text	   *t = PG_GETARG_TEXT_PP(2);
	const char *name = VARDATA_ANY(t);
	size_t		len = VARSIZE_ANY_EXHDR(t);
	sfl_parts	p = sf_unpack(l, PG_GETARG_INT64(0));
	int			i = sfl_field_index(l, name, len);
	StringInfoData names;

	if (i >= 0)
		PG_RETURN_INT64((int64) sfl_field_of_node(l, i, p.node));
#define IS(k) (len == strlen(k) && memcmp(name, k, len) == 0)
	if (IS("time"))
		PG_RETURN_INT64(p.tick);
	if (IS("node"))
		PG_RETURN_INT64((int64) p.node);
	if (IS("sequence"))
		PG_RETURN_INT64((int64) p.seq);
#undef IS

	initStringInfo(&names);
	appendStringInfoString(&names, "time");
	for (i = 0; i < l->nfields; i++)
		appendStringInfo(&names, ", %s", l->fields[i].name);
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("layout %s has no field \"%s\"", sf_layout_name(l),
					text_to_cstring(t)),
			 errdetail("Its fields are %s, sequence; node reads all node fields together.",
					   names.data)));
	pg_unreachable();
}

/* snowflake_parts: {"time", "unix_ms", each node field, "sequence"} */
PG_FUNCTION_INFO_V1(snowflake_parts);
Datum
snowflake_parts(PG_FUNCTION_ARGS)
{
	const sfl_layout *l = sf_layout_arg(fcinfo, 1);
	sfl_parts	p = sf_unpack(l, PG_GETARG_INT64(0));
	int64		ms = sfl_tick_unix_ms(l, p.tick);
	StringInfoData js;

	initStringInfo(&js);
	appendStringInfo(&js, "{\"time\": \"%s\", \"unix_ms\": " INT64_FORMAT,
					 iso_utc(sf_unix_ms_to_timestamptz(ms)), ms);
	/* field names are [a-z][a-z0-9_]*: nothing to escape */
	for (int i = 0; i < l->nfields; i++)
		appendStringInfo(&js, ", \"%s\": " UINT64_FORMAT, l->fields[i].name,
						 (uint64) sfl_field_of_node(l, i, p.node));
	appendStringInfo(&js, ", \"sequence\": " UINT64_FORMAT "}", (uint64) p.seq);
	PG_RETURN_DATUM(DirectFunctionCall1(jsonb_in, CStringGetDatum(js.data)));
}

/* ERROR 22003 unless 0 <= v <= max */
static void
check_part(const sfl_layout *l, const char *what, int64 v, uint64 max,
		   const char *holds)
{
	if (v >= 0 && (uint64) v <= max)
		return;
	ereport(ERROR,
			(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
			 errmsg("%s " INT64_FORMAT " is out of range for the layout %s",
					what, v, sf_layout_name(l)),
			 errdetail("%s 0 to " UINT64_FORMAT ".", holds, max)));
}

/* snowflake_pack(layout, ts, node, sequence): ts floored to its tick */
PG_FUNCTION_INFO_V1(snowflake_pack);
Datum
snowflake_pack(PG_FUNCTION_ARGS)
{
	const sfl_layout *l = sf_layout_arg(fcinfo, 0);
	int64		tick = sf_tick_of_timestamptz(l, PG_GETARG_TIMESTAMPTZ(1));
	int64		node = PG_GETARG_INT64(2);
	int64		seq = PG_GETARG_INT64(3);

	check_part(l, "node", node, sfl_max_node(l), "Its node fields together hold");
	check_part(l, "sequence", seq, sfl_max_seq(l), "Its sequence holds");
	PG_RETURN_INT64((int64) sfl_pack(l, tick, (uint64) node, (uint64) seq));
}

/* smallest id of ts's tick */
PG_FUNCTION_INFO_V1(snowflake_lower);
Datum
snowflake_lower(PG_FUNCTION_ARGS)
{
	const sfl_layout *l = sf_layout_arg(fcinfo, 0);

	PG_RETURN_INT64((int64) sfl_pack(l, sf_tick_of_timestamptz(l, PG_GETARG_TIMESTAMPTZ(1)),
									 0, 0));
}

/* largest id of ts's tick */
PG_FUNCTION_INFO_V1(snowflake_upper);
Datum
snowflake_upper(PG_FUNCTION_ARGS)
{
	const sfl_layout *l = sf_layout_arg(fcinfo, 0);

	PG_RETURN_INT64((int64) sfl_pack(l, sf_tick_of_timestamptz(l, PG_GETARG_TIMESTAMPTZ(1)),
									 sfl_max_node(l), sfl_max_seq(l)));
}
