/*-------------------------------------------------------------------------
 *
 * cosid80.c
 *	  COSID_80, CosId's 80-bit id (44-bit Unix ms, 20-bit node, 16-bit
 *	  sequence), text only: cosid80_next(), its readers, its friendly form,
 *	  cosid80_advance() and cosid80_reset().
 *
 * The id does not fit a bigint, so it only exists as its 15-character
 * Base62 text (8 + 4 + 3 characters, each part at a fixed width: the text
 * sorts like the id under COLLATE "C").  It is issued by the Snowflake
 * generator of gen_snowflake.c on a layout of its own that is never packed
 * (cosid80_layout(): ms ticks from the Unix epoch, CosId's sequence rule),
 * on states of their own kind (ULID_STATE_COSID80, one per node): the same
 * critical section, clock policy, floors, quotas, reclaiming and standby
 * refusal as snowflake_next().
 *
 *-------------------------------------------------------------------------
 */
#include "snowflake.h"

#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/timestamp.h"

#include "advance.h"
#include "cosid.h"
#include "floors.h"
#include "modules.h"
#include "node.h"
#include "stable_bound.h"
#include "state_view.h"

#define COSID80_HINT "COSID_80 text is 15 Base62 characters (0-9, A-Z, a-z): time 8, node 4, sequence 3, such as 0VZEV0mp000300H."
#define FRIENDLY80_HINT "A COSID_80 friendly id is yyyyMMddHHmmssSSS-NNNNNNN-SSSSS (node 7 digits, sequence 5), as cosid80_friendly() writes it."

static sfl_layout layout80;

/* cosid80_next()'s state cache (one layout: every call site shares it) */
static sf_site site80;

/* The generator's COSID_80 layout, built on first use. */
static const sfl_layout *
cosid80_l(void)
{
	if (unlikely(layout80.time_bits == 0))
		cosid80_layout(&layout80);
	return &layout80;
}

/* ERROR 22003 unless node is a COSID_80 node. */
static void
check_node80(int64 node, bool from_setting)
{
	if (node >= 0 && (uint64) node <= COSID80_MAX_NODE)
		return;
	ereport(ERROR,
			(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
			 errmsg("node " INT64_FORMAT " does not fit COSID_80", node),
			 errdetail("COSID_80 has a 20-bit node: nodes 0 to 1048575."),
			 !from_setting ? 0 :
			 ulid_node_source == ULID_NODE_SOURCE_CITUS ?
			 errhint("The node is this node's Citus group id (ulid.node_id_source = 'citus'), and Citus gives every node it adds a new group id unless told one: mint these ids on a node whose group fits.") :
			 errhint("The node is this server's node id (ulid.node_id): set one that fits, or pass a node this server owns that fits: cosid80_next(node).")));
}

/* The parts of COSID_80 text, or ERROR 22P02 / 22003 naming fn. */
static void
parse80(text *t, const char *fn, int64 *ms, uint64 *node, uint64 *seq)
{
	const char *s = VARDATA_ANY(t);
	int			len = VARSIZE_ANY_EXHDR(t);
	cosid_error err;
	cosid_status st = cosid80_parse(s, (size_t) len, ms, node, seq, &err);

	if (likely(st == COSID_OK))
		return;
	if (st == COSID_ERR_RANGE)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("value out of range for %s: \"%s\"", fn, text_to_cstring(t)),
				 errdetail("%s", err.msg)));
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("invalid input syntax for %s: \"%s\"", fn, text_to_cstring(t)),
			 errdetail("At character %d: %s", ulid_char_number(s, (size_t) len, err.pos), err.msg),
			 errhint(COSID80_HINT)));
}

static text *
text80(int64 ms, uint64 node, uint64 seq)
{
	char		out[COSID80_TEXT_LEN + 1];

	cosid80_format(ms, node, seq, out);
	return cstring_to_text_with_len(out, COSID80_TEXT_LEN);
}

/*
 * cosid80_next(node DEFAULT NULL): NULL is this server's node (node.c);
 * a node given must be one this server owns.
 */
PG_FUNCTION_INFO_V1(cosid80_next);
Datum
cosid80_next(PG_FUNCTION_ARGS)
{
	int64		node;
	int64		ms;
	uint64		seq;

	if (PG_ARGISNULL(0))
	{
		node = ulid_node_id();
		if (unlikely(node < 0))
			ulid_node_report_none("COSID_80", "cosid80_next()", "cosid80_next(node)");
		check_node80(node, true);
	}
	else
	{
		node = PG_GETARG_INT64(0);
		check_node80(node, false);
		ulid_node_require_owned(node, "cosid80_next(node)");
	}
	sf_next_parts(&site80, cosid80_l(), 1, ULID_STATE_COSID80, node, &ms, &seq);
	PG_RETURN_TEXT_P(text80(ms, (uint64) node, seq));
}

/*
 * cosid80_stable_bound(node DEFAULT NULL): cosid80_next(node)'s stable
 * bound (stable_bound.c: the same states and positions as snowflake_next()).
 */
PG_FUNCTION_INFO_V1(cosid80_stable_bound);
Datum
cosid80_stable_bound(PG_FUNCTION_ARGS)
{
	int64		node;
	int64		tick;
	uint64		seq;
	const sfl_layout *l = cosid80_l();

	if (PG_ARGISNULL(0))
	{
		node = ulid_node_id();
		if (node < 0)
			ulid_node_report_none("COSID_80", "cosid80_stable_bound()", "cosid80_stable_bound(node)");
		check_node80(node, true);
	}
	else
	{
		node = PG_GETARG_INT64(0);
		check_node80(node, false);
	}
	ulid_node_require_owned(node, "cosid80_stable_bound(node)");
	ulid_sf_stable_bound(l, ULID_STATE_COSID80, node, "cosid80_stable_bound()", &tick, &seq);
	PG_RETURN_TEXT_P(text80(l->epoch_ms + tick * sfl_unit_ms((sfl_unit) l->unit), (uint64) node, seq));
}

/* cosid80_parts(text): {"time", "unix_ms", "node", "sequence"} */
PG_FUNCTION_INFO_V1(cosid80_parts);
Datum
cosid80_parts(PG_FUNCTION_ARGS)
{
	int64		ms;
	uint64		node,
				seq;
	char		iso[32];
	char	   *js;

	parse80(PG_GETARG_TEXT_PP(0), "cosid80_parts", &ms, &node, &seq);
	sfl_format_iso(ms, iso);
	js = psprintf("{\"time\": \"%s\", \"unix_ms\": " INT64_FORMAT ", \"node\": " UINT64_FORMAT
				  ", \"sequence\": " UINT64_FORMAT "}", iso, ms, node, seq);
	PG_RETURN_DATUM(DirectFunctionCall1(jsonb_in, CStringGetDatum(js)));
}

PG_FUNCTION_INFO_V1(cosid80_time);
Datum
cosid80_time(PG_FUNCTION_ARGS)
{
	int64		ms;
	uint64		node,
				seq;

	parse80(PG_GETARG_TEXT_PP(0), "cosid80_time", &ms, &node, &seq);
	PG_RETURN_TIMESTAMPTZ(sf_unix_ms_to_timestamptz(ms));
}

/* cosid80_friendly(text, zone): yyyyMMddHHmmssSSS-NNNNNNN-SSSSS */
PG_FUNCTION_INFO_V1(cosid80_friendly);
Datum
cosid80_friendly(PG_FUNCTION_ARGS)
{
	text	   *zone = PG_GETARG_TEXT_PP(1);
	int64		ms,
				local;
	uint64		node,
				seq;
	char		out[64];
	size_t		len;

	parse80(PG_GETARG_TEXT_PP(0), "cosid80_friendly", &ms, &node, &seq);
	local = ms + sf_zone_offset_ms(zone, ms);
	if (!cosid_friendly_format(local, node, COSID80_NODE_DIGITS, seq, COSID80_SEQ_DIGITS,
							   true, out, &len))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("COSID_80 id %s has no friendly form in the time zone \"%s\"",
						text_to_cstring(PG_GETARG_TEXT_PP(0)), text_to_cstring(zone)),
				 errdetail("Its local time is outside the years 0000 to 9999 that yyyy can write.")));
	PG_RETURN_TEXT_P(cstring_to_text_with_len(out, (int) len));
}

/* cosid80_from_friendly(text, zone): the exact inverse */
PG_FUNCTION_INFO_V1(cosid80_from_friendly);
Datum
cosid80_from_friendly(PG_FUNCTION_ARGS)
{
	text	   *t = PG_GETARG_TEXT_PP(0);
	text	   *zone = PG_GETARG_TEXT_PP(1);
	const char *s = VARDATA_ANY(t);
	int			len = VARSIZE_ANY_EXHDR(t);
	int64		local,
				ms;
	uint64		node,
				seq;
	cosid_error err;
	cosid_status st;

	st = cosid_friendly_parse(s, (size_t) len, COSID80_NODE_DIGITS, COSID80_SEQ_DIGITS, true,
							  COSID80_MAX_NODE, COSID80_MAX_SEQ, &local, &node, &seq, &err);
	if (st == COSID_ERR_RANGE)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("value out of range for cosid80_from_friendly: \"%s\"", text_to_cstring(t)),
				 errdetail("%s", err.msg)));
	if (st != COSID_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid input syntax for cosid80_from_friendly: \"%s\"", text_to_cstring(t)),
				 errdetail("At character %d: %s", ulid_char_number(s, (size_t) len, err.pos), err.msg),
				 errhint(FRIENDLY80_HINT)));
	ms = sf_local_to_utc(zone, local, text_to_cstring(t), "cosid80_from_friendly");
	if (ms < 0 || ms > COSID80_MAX_MS)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("value out of range for cosid80_from_friendly: \"%s\"", text_to_cstring(t)),
				 errdetail("COSID_80 holds times from 1970-01-01T00:00:00.000Z to %s (44 bits of Unix ms).",
						   ulid_iso_or_ms(COSID80_MAX_MS))));
	PG_RETURN_TEXT_P(text80(ms, node, seq));
}

/*
 * The advance that makes every later cosid80_next(node) greater than the
 * id (ms, id_node, seq): ids order by time, node, then sequence, so the
 * state moves to the largest (ms, sequence) of node at most the id.  False
 * when every id of node lies above it.
 */
bool
cosid80_advance_of(int64 node, int64 ms, uint64 id_node, uint64 seq,
				   UlidAdvance *adv)
{
	if ((uint64) node != id_node)
	{
		seq = COSID80_MAX_SEQ;
		if ((uint64) node > id_node)
			ms--;
		if (ms < 0)
			return false;		/* every id of this node is above id */
	}
	sf_advance_at(cosid80_l(), ULID_STATE_COSID80, node, ms, seq, adv);
	return true;
}

/*
 * cosid80_advance(node, id): make every later cosid80_next(node) greater
 * than id (text), whichever node minted it.  Ids order by time, node, then
 * sequence: the state moves to the largest (ms, sequence) of this node at
 * most id.
 */
PG_FUNCTION_INFO_V1(cosid80_advance);
Datum
cosid80_advance(PG_FUNCTION_ARGS)
{
	int64		node = PG_GETARG_INT64(0);
	int64		ms;
	uint64		id_node,
				seq;
	UlidAdvance adv;

	ulid_require_superuser("advance cosid80_next()");
	check_node80(node, false);
	parse80(PG_GETARG_TEXT_PP(1), "cosid80_advance", &ms, &id_node, &seq);
	if (cosid80_advance_of(node, ms, id_node, seq, &adv))
	{
		ulid_warn_far_ahead(adv.ms, "cosid80_advance()");
		ulid_advance_states(&adv, 1);
	}
	PG_RETURN_VOID();
}

/* cosid80_reset(node): undo cosid80_advance() on that node's state */
PG_FUNCTION_INFO_V1(cosid80_reset);
Datum
cosid80_reset(PG_FUNCTION_ARGS)
{
	int64		node = PG_GETARG_INT64(0);

	ulid_require_superuser("reset cosid80_next()");
	check_node80(node, false);
	sf_reset_state(cosid80_l(), ULID_STATE_COSID80, node);
	PG_RETURN_VOID();
}

/* The view's row of a COSID_80 state: no layout; the last id as text. */
static void
describe80(const UlidGenState *copy, UlidStateRow *row)
{
	int64		node;

	/* the key is the generator's (layout bits, node): the node is last */
	memcpy(&node, copy->key + sizeof(sfl_key), sizeof(node));
	row->has_node = true;
	row->node = node;
	if (!copy->valid)
		return;
	row->has_last = true;
	row->last_tick = (int64) copy->word[0];
	row->last_unix_ms = row->last_tick;
	row->has_sequence = true;
	row->sequence = (int64) copy->word[1];
	row->last_id = palloc(COSID80_TEXT_LEN + 1);
	cosid80_format(row->last_tick, (uint64) node, copy->word[1], row->last_id);
}

void
ulid_cosid80_init(void)
{
	ulid_state_register_kind(ULID_STATE_COSID80, "cosid80", describe80);
}
