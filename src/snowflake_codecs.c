/*-------------------------------------------------------------------------
 *
 * snowflake_codecs.c
 *	  Text forms of Snowflake ids: CosId's friendly form in any time zone,
 *	  and SCRU64's Base36 text.  Each has an exact inverse.
 *
 * Time zones go through PostgreSQL's own machinery (timezone(text,
 * timestamptz), i.e. AT TIME ZONE), so a zone is whatever AT TIME ZONE
 * accepts.  Decoding a local time looks at the zone's offsets around it
 * and rejects local times that a transition skipped or repeated, instead of
 * guessing as AT TIME ZONE does.
 *
 *-------------------------------------------------------------------------
 */
#include "snowflake.h"

#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/timestamp.h"

#include "sfcodec.h"

#define FRIENDLY_HINT "Write and read friendly ids in UTC (the default zone), where every local time exists exactly once."
#define PROBE_MS	(INT64CONST(36) * 3600 * 1000)

/* The offset of zone from UTC at the instant unix_ms, in ms. */
int64
sf_zone_offset_ms(text *zone, int64 unix_ms)
{
	TimestampTz ts = sf_unix_ms_to_timestamptz(unix_ms);
	Timestamp	local = DatumGetTimestamp(ulid_builtin_call2(timestamptz_zone, F_TIMEZONE_TEXT_TIMESTAMPTZ,
															  PointerGetDatum(zone),
															  TimestampTzGetDatum(ts)));

	return (local - ts) / 1000;
}

/* "2024-03-31 02:30:00.000" of a local ms, for messages. */
static char *
local_text(int64 local_ms)
{
	sfl_civil	c;

	if (!sfl_civil_from_ms(local_ms, &c))
		return psprintf(INT64_FORMAT, local_ms);
	return psprintf("%04d-%02d-%02d %02d:%02d:%02d.%03d", c.year, c.month, c.day,
					c.hour, c.minute, c.second, c.ms);
}

/*
 * The one UTC instant whose local time in zone is local_ms.  Candidates are
 * local_ms minus each offset in effect within 36 hours of it (zones change
 * offset at most every few weeks and by less than a day); a candidate holds
 * when the zone's offset at it gives back local_ms.  None: the local time
 * was skipped; two: it happened twice.  Both are 22P02.
 */
int64
sf_local_to_utc(text *zone, int64 local_ms, const char *input, const char *fn)
{
	int64		found[3];
	int			nfound = 0;

	for (int i = -1; i <= 1; i++)
	{
		int64		off = sf_zone_offset_ms(zone, local_ms + i * PROBE_MS);
		int64		c = local_ms - off;
		bool		dup = false;

		if (sf_zone_offset_ms(zone, c) != off)
			continue;
		for (int j = 0; j < nfound; j++)
			dup = dup || found[j] == c;
		if (!dup)
			found[nfound++] = c;
	}
	if (nfound == 1)
		return found[0];
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("invalid input syntax for %s: \"%s\"", fn ? fn : "a friendly Snowflake id", input),
			 nfound == 0 ?
			 errdetail("The local time %s does not exist in the time zone \"%s\": the clocks skipped it.",
					   local_text(local_ms), text_to_cstring(zone)) :
			 errdetail("The local time %s happens twice in the time zone \"%s\": the clocks repeated it.",
					   local_text(local_ms), text_to_cstring(zone)),
			 errhint(FRIENDLY_HINT)));
	pg_unreachable();
}

/* snowflake_friendly(id, layout, zone): yyyyMMddHHmmssSSS-node-seq */
PG_FUNCTION_INFO_V1(snowflake_friendly);
Datum
snowflake_friendly(PG_FUNCTION_ARGS)
{
	const sfl_layout *l = sf_layout_arg(fcinfo, 1);
	sfl_parts	p = sf_unpack(l, PG_GETARG_INT64(0));
	text	   *zone = PG_GETARG_TEXT_PP(2);
	int64		ms = sfl_tick_unix_ms(l, p.tick);
	int64		local_ms = ms + sf_zone_offset_ms(zone, ms);
	char		out[SFL_FRIENDLY_MAX];

	if (!sfl_friendly_format(l, local_ms, p.node, p.seq, out))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("id " INT64_FORMAT " has no friendly form", PG_GETARG_INT64(0)),
				 errdetail("Its local time " INT64_FORMAT " Unix ms is outside the years 0000 to 9999 that yyyy can write.",
						   local_ms)));
	PG_RETURN_TEXT_P(cstring_to_text(out));
}

/* snowflake_from_friendly(text, layout, zone): the exact inverse */
PG_FUNCTION_INFO_V1(snowflake_from_friendly);
Datum
snowflake_from_friendly(PG_FUNCTION_ARGS)
{
	char	   *s = text_to_cstring(PG_GETARG_TEXT_PP(0));
	const sfl_layout *l = sf_layout_arg(fcinfo, 1);
	text	   *zone = PG_GETARG_TEXT_PP(2);
	int64		local_ms;
	uint64		node,
				seq;
	char		msg[SFL_MSG_MAX];
	sfl_status	st;

	st = sfl_friendly_parse(l, s, strlen(s), &local_ms, &node, &seq, msg, sizeof(msg));
	if (st == SFL_ERR_RANGE)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("friendly id \"%s\" is outside the layout %s", s, sf_layout_name(l)),
				 errdetail("%s", msg)));
	if (st != SFL_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid input syntax for a friendly Snowflake id: \"%s\"", s),
				 errdetail("%s", msg),
				 errhint("snowflake_friendly(id, layout, zone) writes this form.")));

	PG_RETURN_INT64(sf_friendly_id(l, zone, local_ms, node, seq, s, NULL));
}

/* The id of a friendly text's parts (snowflake.h). */
int64
sf_friendly_id(const sfl_layout *l, text *zone, int64 local_ms, uint64 node,
			   uint64 seq, const char *s, const char *fn)
{
	int64		ms,
				tick;

	ms = sf_local_to_utc(zone, local_ms, s, fn);
	if (sfl_tick_of_unix_ms(l, ms, &tick) != SFL_OK)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 fn ? errmsg("value out of range for %s: \"%s\" is outside the layout %s", fn, s, sf_layout_name(l)) :
				 errmsg("friendly id \"%s\" is outside the layout %s", s, sf_layout_name(l)),
				 errdetail("%s", sf_layout_range(l))));
	if (sfl_tick_unix_ms(l, tick) != ms)
	{
		char		epoch[32];

		sfl_format_iso(l->epoch_ms, epoch);
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid input syntax for %s: \"%s\"", fn ? fn : "a friendly Snowflake id", s),
				 errdetail("Its time is not on a tick of the layout, which counts %s units from %s.",
						   sfl_unit_name((sfl_unit) l->unit), epoch)));
	}
	return (int64) sfl_pack(l, tick, node, seq);
}

PG_FUNCTION_INFO_V1(scru64_text);
Datum
scru64_text(PG_FUNCTION_ARGS)
{
	int64		id = PG_GETARG_INT64(0);
	char		out[SFL_SCRU64_LEN + 1];

	if (id < 0 || !sfl_scru64_encode((uint64) id, out))
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("value out of range for SCRU64: " INT64_FORMAT, id),
				 errdetail("A SCRU64 id is from 0 to 4738381338321616895 (36^12 - 1).")));
	PG_RETURN_TEXT_P(cstring_to_text(out));
}

#define SCRU64_HINT "SCRU64 text is 12 Base36 digits (0-9, a-z, any case), such as 0u375nxqh5cq."

PG_FUNCTION_INFO_V1(scru64_from_text);
Datum
scru64_from_text(PG_FUNCTION_ARGS)
{
	text	   *t = PG_GETARG_TEXT_PP(0);
	const char *s = VARDATA_ANY(t);
	int			len = VARSIZE_ANY_EXHDR(t);
	int			nchars;
	uint64		v;
	long		bad;

	if (sfl_scru64_decode(s, (size_t) len, &v, &bad) == SFL_OK)
		PG_RETURN_INT64((int64) v);

	/* say why, in characters: the length, then the first non-digit */
	nchars = pg_mbstrlen_with_len(s, len);
	if (nchars != SFL_SCRU64_LEN)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid input syntax for SCRU64: \"%s\"", text_to_cstring(t)),
				 errdetail("SCRU64 text has %d characters; this has %d.",
						   SFL_SCRU64_LEN, nchars),
				 errhint(SCRU64_HINT)));
	for (int pos = 1, off = 0; off < len; pos++)
	{
		int			clen = pg_mblen(s + off);

		if (clen != 1 || sfl_base36_digit((unsigned char) s[off]) < 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid input syntax for SCRU64: \"%s\"", text_to_cstring(t)),
					 errdetail("Character \"%.*s\" at position %d is not a Base36 digit.",
							   clen, s + off, pos),
					 errhint(SCRU64_HINT)));
		off += clen;
	}
	elog(ERROR, "SCRU64 decoding failed on valid text");
	pg_unreachable();
}
