/*-------------------------------------------------------------------------
 *
 * cosid_codec.c
 *	  CosId's codec chain: snowflake_encode(id, layout, codec [, now]) and
 *	  snowflake_decode(text, layout, codec).
 *
 * The jsonb codec is walked here into cosid_items; the grammar, its
 * messages and the codec itself are the core's (src/core/cosid.c).  Time
 * zones go through AT TIME ZONE's machinery like snowflake_friendly().
 *
 * A parsed codec is kept per call site (fn_extra) with the jsonb bytes it
 * came from: a Const argument is never compared again, any other (a column,
 * a PL/pgSQL variable, a parameter of a generic plan) is compared byte for
 * byte on every call (see sf_layout_arg() for why).  The layout argument's
 * cache lives in the same struct.
 *
 * Markings: every function here is immutable.  None reads the clock: a
 * date prefix with "source": "now" takes its time from the fourth argument
 * of snowflake_encode (the caller writes now() or clock_timestamp()), and
 * the three-argument form refuses such a codec with that recipe.
 *
 *-------------------------------------------------------------------------
 */
#include "snowflake.h"

#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/numeric.h"
#include "utils/timestamp.h"

#include "cosid.h"
#include "radix.h"

#define CODEC_HINT \
	"A codec is a JSON array applied in order: an optional first item {\"radix\": {\"radix\": 62, \"width\": 11, \"pad\": true}} " \
	"or {\"friendly\": {\"zone\": \"UTC\"}} (without one the text is decimal), then any of {\"prefix\": \"O\"}, {\"suffix\": \"X\"} " \
	"and {\"date_prefix\": {\"pattern\": \"yyMMdd\", \"delimiter\": \"\", \"source\": \"id_time\"}}."

typedef struct codec_cache
{
	void	   *layout_slot;	/* sf_layout_arg_in()'s cache */
	bool		valid;
	bool		is_const;		/* the codec argument is a Const */
	Size		len;			/* of bytes */
	Size		cap;
	char	   *bytes;			/* the jsonb the codec came from */
	text	   *zone;			/* the codec's zone; NULL: UTC */
	cosid_codec codec;
} codec_cache;

/* The jsonb scalar or container v as the core sees it. */
static cosid_jval
jval_of(const JsonbValue *v)
{
	cosid_jval	j;

	memset(&j, 0, sizeof(j));
	switch (v->type)
	{
		case jbvNull:
			j.type = COSID_J_NULL;
			break;
		case jbvBool:
			j.type = COSID_J_BOOL;
			j.b = v->val.boolean;
			break;
		case jbvString:
			j.type = COSID_J_STRING;
			j.s = v->val.string.val;
			j.len = (size_t) v->val.string.len;
			break;
		case jbvNumeric:
			{
				char	   *s = DatumGetCString(DirectFunctionCall1(numeric_out,
																	NumericGetDatum(v->val.numeric)));
				char	   *end;
				long long	i;

				j.type = COSID_J_NUMBER;
				errno = 0;
				i = strtoll(s, &end, 10);
				j.is_int = *end == '\0' && errno == 0 && end != s;
				j.i = i;
				break;
			}
		case jbvBinary:
			j.type = JsonContainerIsObject(v->val.binary.data) ? COSID_J_OBJECT : COSID_J_ARRAY;
			break;
		default:
			j.type = COSID_J_NULL;
			break;
	}
	return j;
}

static void
report_codec(const char *fn, const cosid_error *err)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("invalid codec for %s: %s", fn, err->msg),
			 errhint(CODEC_HINT)));
}

#ifdef __PGLITE__

/*
 * PGlite exports none of jsonb_util.c's readers (compat.h), so its build
 * reads the containers itself, as fillJsonbValue() there does; the format
 * (utils/jsonb.h) is the on-disk one.  Child i of a container lies after its
 * JEntries, at the offset the JEntries before it add up to; an object's n
 * keys are its children 0..n-1, their values n..2n-1, both in the order
 * JsonbIteratorNext() returns them.
 */
static void
child_value(JsonbContainer *c, int i, JsonbValue *v)
{
	int			n = JsonContainerIsObject(c) ? 2 * JsonContainerSize(c) : JsonContainerSize(c);
	char	   *base = (char *) &c->children[n];
	JEntry		e = c->children[i];
	uint32		off = 0;
	uint32		len;

	for (int j = 0; j < i; j++)
		JBE_ADVANCE_OFFSET(off, c->children[j]);
	len = JBE_HAS_OFF(e) ? JBE_OFFLENFLD(e) - off : JBE_OFFLENFLD(e);
	if (JBE_ISNULL(e))
		v->type = jbvNull;
	else if (JBE_ISSTRING(e))
	{
		v->type = jbvString;
		v->val.string.val = base + off;
		v->val.string.len = (int) len;
	}
	else if (JBE_ISNUMERIC(e))
	{
		v->type = jbvNumeric;
		v->val.numeric = (Numeric) (base + INTALIGN(off));
	}
	else if (JBE_ISBOOL(e))
	{
		v->type = jbvBool;
		v->val.boolean = JBE_ISBOOL_TRUE(e);
	}
	else
	{
		v->type = jbvBinary;
		v->val.binary.data = (JsonbContainer *) (base + INTALIGN(off));
		v->val.binary.len = (int) (len - (INTALIGN(off) - off));
	}
}

/* getIthJsonbValueFromContainer() of an array */
static JsonbValue *
array_element(JsonbContainer *c, uint32 i)
{
	JsonbValue *v = palloc(sizeof(JsonbValue));

	child_value(c, (int) i, v);
	return v;
}
#define getIthJsonbValueFromContainer(c, i) array_element(c, i)

/* findJsonbValueFromContainer() of an object's key (NULL: no such key) */
static JsonbValue *
object_member(JsonbContainer *c, uint32 flags, JsonbValue *key)
{
	int			n = JsonContainerSize(c);

	(void) flags;
	for (int i = 0; i < n; i++)
	{
		JsonbValue	k;

		child_value(c, i, &k);
		if (k.val.string.len == key->val.string.len &&
			memcmp(k.val.string.val, key->val.string.val, k.val.string.len) == 0)
			return array_element(c, (uint32) (n + i));
	}
	return NULL;
}
#define findJsonbValueFromContainer(c, flags, key) object_member(c, flags, key)

/* read_object() below, without the iterator */
static int
read_object(JsonbContainer *c, const char **names, size_t *lens,
			cosid_jval *vals, int max)
{
	int			n = JsonContainerSize(c);
	JsonbValue	v;

	for (int i = 0; i < n && i < max; i++)
	{
		child_value(c, i, &v);
		names[i] = v.val.string.val;
		lens[i] = (size_t) v.val.string.len;
		child_value(c, n + i, &v);
		vals[i] = jval_of(&v);
	}
	return n;
}

#else

/*
 * Read the members of the object container c into names/vals (at most max;
 * returns how many there are).
 */
static int
read_object(JsonbContainer *c, const char **names, size_t *lens,
			cosid_jval *vals, int max)
{
	JsonbIterator *it = JsonbIteratorInit(c);
	JsonbValue	v;
	JsonbIteratorToken r;
	int			n = 0;

	while ((r = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
	{
		if (r == WJB_KEY)
		{
			if (n < max)
			{
				names[n] = v.val.string.val;
				lens[n] = (size_t) v.val.string.len;
			}
		}
		else if (r == WJB_VALUE)
		{
			if (n < max)
				vals[n] = jval_of(&v);
			n++;
		}
	}
	return n;
}

#endif

/*
 * ERROR 22023 naming the item unless AT TIME ZONE knows zone (the error of
 * timestamptz_zone becomes the detail).
 */
static void
check_zone(text *zone, const char *fn)
{
	MemoryContext mcxt = CurrentMemoryContext;
	ErrorData  *volatile edata = NULL;

	PG_TRY();
	{
		(void) sf_zone_offset_ms(zone, 0);
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(mcxt);
		edata = CopyErrorData();
		FlushErrorState();
	}
	PG_END_TRY();
	if (edata)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid codec for %s: codec[0] (\"friendly\"): \"zone\" is not a time zone AT TIME ZONE knows",
						fn),
				 errdetail("%s", edata->message),
				 errhint("Name a zone of pg_timezone_names or pg_timezone_abbrevs, such as \"UTC\" or \"Asia/Shanghai\".")));
}

/* Parse the codec jsonb into c; ERROR 22023 naming the item. */
static void
parse_codec(Jsonb *jb, cosid_codec *c, const char *fn)
{
	cosid_error err;
	int			n;

	cosid_codec_init(c);
	if (!JB_ROOT_IS_ARRAY(jb) || JB_ROOT_IS_SCALAR(jb))
	{
		cosid_codec_shape_error(&err, -1, NULL, 0,
								JB_ROOT_IS_OBJECT(jb) ?
								"the codec is an object; it is an array of items, such as [{\"radix\": {\"radix\": 62}}]." :
								"the codec is a scalar; it is an array of items, such as [{\"radix\": {\"radix\": 62}}].");
		report_codec(fn, &err);
	}
	n = (int) JB_ROOT_COUNT(jb);
	if (n > COSID_MAX_ITEMS)
	{
		snprintf(err.msg, sizeof(err.msg), "the codec has %d items; it has at most %d.", n, COSID_MAX_ITEMS);
		report_codec(fn, &err);
	}
	for (int i = 0; i < n; i++)
	{
		JsonbValue *e = getIthJsonbValueFromContainer(&jb->root, (uint32) i);
		cosid_item	item;
		const char *names[1];
		size_t		lens[1];
		cosid_jval	vals[1];

		memset(&item, 0, sizeof(item));
		if (e->type != jbvBinary || !JsonContainerIsObject(e->val.binary.data))
		{
			cosid_jval	j = jval_of(e);
			char		what[COSID_MSG_MAX];

			snprintf(what, sizeof(what), "the item is %s; it is an object with one key, its kind, such as {\"prefix\": \"O\"}.",
					 cosid_jtype_name(j.type));
			cosid_codec_shape_error(&err, i, NULL, 0, what);
			report_codec(fn, &err);
		}
		item.nkeys = read_object(e->val.binary.data, names, lens, vals, 1);
		if (item.nkeys >= 1)
		{
			JsonbValue	key;
			JsonbValue *value;

			item.kind = names[0];
			item.kind_len = lens[0];
			item.value = vals[0];
			if (item.nkeys == 1 && item.value.type == COSID_J_OBJECT)
			{
				key.type = jbvString;
				key.val.string.val = (char *) names[0];
				key.val.string.len = (int) lens[0];
				value = findJsonbValueFromContainer(e->val.binary.data, JB_FOBJECT, &key);
				item.nmembers = read_object(value->val.binary.data, item.names, item.name_lens,
											item.members, COSID_MAX_MEMBERS);
			}
		}
		if (cosid_codec_add(c, i, &item, &err) != COSID_OK)
			report_codec(fn, &err);
	}
}

/* codec_arg() past its first test: compare the bytes, or parse. */
static pg_noinline codec_cache *
codec_arg_slow(FunctionCallInfo fcinfo, int argno, const char *fn)
{
	codec_cache *cc = (codec_cache *) fcinfo->flinfo->fn_extra;
	struct varlena *raw;
	Jsonb	   *jb;
	Size		len;
	MemoryContext old;

	if (unlikely(cc == NULL))
	{
		cc = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(codec_cache));
		fcinfo->flinfo->fn_extra = cc;
	}
	/* compare the bytes as stored (a short header is not copied) */
	raw = PG_DETOAST_DATUM_PACKED(PG_GETARG_DATUM(argno));
	len = VARSIZE_ANY_EXHDR(raw);
	if (cc->valid && cc->len == len && memcmp(cc->bytes, VARDATA_ANY(raw), len) == 0)
		return cc;
	jb = DatumGetJsonbP(PointerGetDatum(raw));

	cc->valid = false;
	parse_codec(jb, &cc->codec, fn);
	old = MemoryContextSwitchTo(fcinfo->flinfo->fn_mcxt);
	if (cc->zone)
		pfree(cc->zone);
	cc->zone = NULL;
	if (cc->codec.has_zone)
	{
		cc->zone = cstring_to_text(cc->codec.zone);
		check_zone(cc->zone, fn);
	}
	if (cc->cap < len)
	{
		if (cc->bytes)
			pfree(cc->bytes);
		cc->bytes = palloc(len);
		cc->cap = len;
	}
	MemoryContextSwitchTo(old);
	memcpy(cc->bytes, VARDATA_ANY(raw), len);
	cc->len = len;
	cc->is_const = sf_arg_is_const(fcinfo->flinfo, argno);
	cc->valid = true;
	return cc;
}

/*
 * The codec in argument argno, parsed once per call site and value (a
 * Const is never compared again); the cache also holds the layout's.
 */
static inline codec_cache *
codec_arg(FunctionCallInfo fcinfo, int argno, const char *fn)
{
	codec_cache *cc = (codec_cache *) fcinfo->flinfo->fn_extra;

	if (likely(cc != NULL && cc->valid))
	{
		struct varlena *raw;

		if (cc->is_const)
			return cc;
		/* the same bytes, stored inline (a column's value, mostly) */
		raw = (struct varlena *) DatumGetPointer(PG_GETARG_DATUM(argno));
		if (!VARATT_IS_EXTERNAL(raw) && !VARATT_IS_COMPRESSED(raw) &&
			VARSIZE_ANY_EXHDR(raw) == cc->len &&
			memcmp(cc->bytes, VARDATA_ANY(raw), cc->len) == 0)
			return cc;
	}
	return codec_arg_slow(fcinfo, argno, fn);
}

/* The largest id of a layout (sfl_unpack's test, without the parts). */
static inline uint64
max_id(const sfl_layout *l)
{
	return l->preset == SFL_SCRU64 ? SFL_SCRU64_LIMIT - 1 : sfl_mask(l->width);
}

/* The tick of an id of the layout. */
static inline int64
tick_of(const sfl_layout *l, uint64 id)
{
	return (int64) ((id >> l->time_shift) & sfl_mask(l->time_bits));
}

/* A Unix ms time as local time in the codec's zone. */
static inline int64
local_ms(const codec_cache *cc, int64 ms)
{
	return cc->zone ? ms + sf_zone_offset_ms(cc->zone, ms) : ms;
}

/* snowflake_encode(id, layout, codec) and (id, layout, codec, now) */
PG_FUNCTION_INFO_V1(snowflake_encode);
Datum
snowflake_encode(PG_FUNCTION_ARGS)
{
	int64		id = PG_GETARG_INT64(0);
	codec_cache *cc = codec_arg(fcinfo, 2, "snowflake_encode");
	const sfl_layout *l = sf_layout_arg_in(fcinfo, 1, &cc->layout_slot);
	cosid_codec *c = &cc->codec;
	int64		id_local = 0,
				now_local = 0;
	char		out[COSID_OUT_MAX];
	size_t		len;
	cosid_error err;

	if (unlikely((uint64) id > max_id(l)))
		(void) sf_unpack(l, id);	/* ERROR 22003: outside the layout */
	/* one radix item (or none): the radix codec's own speed */
	if (likely(c->nwraps == 0 && c->first != COSID_FIRST_FRIENDLY) &&
		ulid_radix_encode((uint64) id, c->radix, c->pad ? c->width : 0, out, &len) == ULID_CODEC_OK &&
		(c->width == 0 || len <= c->width))
		PG_RETURN_TEXT_P(cstring_to_text_with_len(out, (int) len));
	if (c->uses_id_time)
		id_local = local_ms(cc, sfl_tick_unix_ms(l, tick_of(l, (uint64) id)));
	if (c->uses_now)
	{
		if (PG_NARGS() < 4)
		{
			int			i = 0;

			while (c->wraps[i].kind != COSID_WRAP_DATE || c->wraps[i].source != COSID_SOURCE_NOW)
				i++;
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("invalid codec for snowflake_encode: codec[%d] (\"date_prefix\") has \"source\": \"now\", and snowflake_encode(id, layout, codec) reads no clock",
							c->wraps[i].index),
					 errdetail("snowflake_encode is immutable: its text depends on its arguments only."),
					 errhint("Pass the time of the date prefix: snowflake_encode(id, layout, codec, now()) (or clock_timestamp()); or use \"source\": \"id_time\", the id's own time.")));
		}
		now_local = local_ms(cc, sf_timestamptz_to_unix_ms(PG_GETARG_TIMESTAMPTZ(3)));
	}
	if (cosid_encode(c, l, (uint64) id, id_local, now_local, out, &len, &err) != COSID_OK)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("value out of range for snowflake_encode: " INT64_FORMAT, id),
				 errdetail("%s", err.msg)));
	PG_RETURN_TEXT_P(cstring_to_text_with_len(out, (int) len));
}

/* ERROR 22P02 at byte offset pos of s, in characters. */
static void
report_syntax(const char *s, size_t len, const cosid_error *err)
{
	int			at = ulid_char_number(s, len, err->pos);

	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("invalid input syntax for snowflake_decode: \"%s\"", s),
			 errdetail("At character %d: %s", at, err->msg),
			 errhint("snowflake_decode accepts exactly the text snowflake_encode writes with the same layout and codec.")));
}

/* snowflake_decode(text, layout, codec): the exact inverse */
PG_FUNCTION_INFO_V1(snowflake_decode);
Datum
snowflake_decode(PG_FUNCTION_ARGS)
{
	text	   *t = PG_GETARG_TEXT_PP(0);
	codec_cache *cc = codec_arg(fcinfo, 2, "snowflake_decode");
	const sfl_layout *l = sf_layout_arg_in(fcinfo, 1, &cc->layout_slot);
	cosid_codec *c = &cc->codec;
	const char *s = VARDATA_ANY(t);
	size_t		len = VARSIZE_ANY_EXHDR(t);
	cosid_decoded d;
	cosid_error err;
	cosid_status st;
	int64		id;

	st = cosid_decode(c, l, s, len, &d, &err);
	if (st == COSID_ERR_SYNTAX)
		report_syntax(text_to_cstring(t), len, &err);
	if (st != COSID_OK)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("value out of range for snowflake_decode: \"%s\"", text_to_cstring(t)),
				 errdetail("%s", err.msg)));
	if (c->first == COSID_FIRST_FRIENDLY)
	{
		char	   *cs = text_to_cstring(t);

		id = sf_friendly_id(l, cc->zone, d.local_ms, d.node, d.seq, cs, "snowflake_decode");
	}
	else
	{
		id = (int64) d.value;
		if (unlikely(d.value > max_id(l)))
			ereport(ERROR,
					(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					 errmsg("value out of range for snowflake_decode: \"%s\"", text_to_cstring(t)),
					 errdetail("Its value " UINT64_FORMAT " has bits outside the layout %s.",
							   d.value, sf_layout_name(l))));
	}
	if (c->id_dates &&
		cosid_check_dates(c, s, &d, local_ms(cc, sfl_tick_unix_ms(l, tick_of(l, (uint64) id))), &err) != COSID_OK)
		report_syntax(text_to_cstring(t), len, &err);
	PG_RETURN_INT64(id);
}
