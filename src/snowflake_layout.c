/*-------------------------------------------------------------------------
 *
 * snowflake_layout.c
 *	  The snowflake_layout type: text and binary I/O, the two constructors
 *	  and the diagram.
 *
 * Every way a layout arrives reaches the core's one builder (sfl_build):
 * the input function and the name constructor parse the text form, the
 * custom constructor fills the same spec from its arguments, and recv reads
 * the stored bytes through the same validation.  Errors therefore share one
 * vocabulary; only the SQLSTATE says where they came from: 22P02 from text
 * input, 22023 from the constructors, 22P03 from binary input.
 *
 *-------------------------------------------------------------------------
 */
#include "snowflake.h"

#include "libpq/pqformat.h"
#include "nodes/primnodes.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#define LAYOUT_HINT \
	"A layout is a preset (twitter, discord, instagram, snowflake_ms, snowflake_s, js_safe_ms, js_safe_s, " \
	"sonyflake(epoch=2014-09-01T00:00:00.000Z), scru64(node_bits=8)) or " \
	"custom(time=BITS:UNIT:EPOCH, fields=NAME:BITS+NAME:BITS, sequence=BITS, sign=true, " \
	"sequence_above_node=false, sequence_reset=zero)."

#define CUSTOM_HINT \
	"Units are ms, 10ms, 256ms and s; fields is a json object of node fields and their bits, " \
	"most significant first, such as {\"datacenter\": 5, \"worker\": 5}; sequence_reset is zero, random or carry."

/*
 * Last decoded layout of a call site (fn_extra).  An argument that is a
 * Const of the expression never changes for the life of the FmgrInfo; any
 * other argument (a column, a PL/pgSQL variable or a SQL function's or a
 * prepared statement's parameter: Params keep their expression, and so
 * fn_extra, while their value changes) is compared with the cached bytes on
 * every call.  get_fn_expr_arg_stable() is not the test: it calls external
 * Params stable, and a PL/pgSQL variable is one.
 */
typedef sf_layout_cache layout_cache;

/* A new snowflake_layout datum holding l. */
static bytea *
layout_datum(const sfl_layout *l)
{
	uint8		buf[SFL_SERIAL_MAX];
	size_t		n = sfl_serialize(l, buf);
	bytea	   *v = (bytea *) palloc(VARHDRSZ + n);

	SET_VARSIZE(v, VARHDRSZ + n);
	memcpy(VARDATA(v), buf, n);
	return v;
}

/* Whether argument argno of the call is a Const of its expression. */
bool
sf_arg_is_const(FmgrInfo *flinfo, int argno)
{
	Node	   *expr = flinfo->fn_expr;
	List	   *args;

	if (expr == NULL)
		return false;
	if (IsA(expr, FuncExpr))
		args = ((FuncExpr *) expr)->args;
	else if (IsA(expr, OpExpr))
		args = ((OpExpr *) expr)->args;
	else
		return false;
	return argno < list_length(args) && IsA(list_nth(args, argno), Const);
}

/* The layout in argument argno, decoded once per call site and value. */
const sfl_layout *
sf_layout_arg(FunctionCallInfo fcinfo, int argno)
{
	return sf_layout_arg_in(fcinfo, argno, &fcinfo->flinfo->fn_extra);
}

/*
 * sf_layout_arg_in() past its inline test for a literal (the usual DEFAULT
 * snowflake_next('twitter')): any other argument, or the first call.
 */
const sfl_layout *
sf_layout_arg_decode(FunctionCallInfo fcinfo, int argno, void **slot)
{
	layout_cache *c = (layout_cache *) *slot;
	bytea	   *v;
	Size		len;
	char		msg[SFL_MSG_MAX];

	if (c != NULL && c->is_const)
		return &c->layout;
	v = PG_GETARG_BYTEA_PP(argno);
	len = VARSIZE_ANY_EXHDR(v);
	if (c != NULL && c->len == len && memcmp(c->bytes, VARDATA_ANY(v), len) == 0)
		return &c->layout;
	if (c == NULL)
	{
		c = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(layout_cache));
		*slot = c;
	}
	c->len = 0;
	c->version++;				/* whoever derived anything from it: again */
	if (len > SFL_SERIAL_MAX ||
		sfl_deserialize((const uint8_t *) VARDATA_ANY(v), len, &c->layout,
						msg, sizeof(msg)) != SFL_OK)
		elog(ERROR, "corrupt snowflake_layout value");	/* recv validated it */
	memcpy(c->bytes, VARDATA_ANY(v), len);
	c->len = len;
	c->is_const = sf_arg_is_const(fcinfo->flinfo, argno);
	return &c->layout;
}

/* The canonical text of a layout, palloc'd. */
char *
sf_layout_name(const sfl_layout *l)
{
	char		buf[SFL_TEXT_MAX];

	sfl_format(l, buf);
	return pstrdup(buf);
}

PG_FUNCTION_INFO_V1(snowflake_layout_in);
Datum
snowflake_layout_in(PG_FUNCTION_ARGS)
{
	char	   *str = PG_GETARG_CSTRING(0);
	sfl_layout	l;
	char		msg[SFL_MSG_MAX];

	if (sfl_parse(str, strlen(str), &l, msg, sizeof(msg)) != SFL_OK)
	{
		ulid_errsave(fcinfo->context,
					 errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid input syntax for type %s: \"%s\"",
							"snowflake_layout", str),
					 errdetail("%s", msg),
					 errhint(LAYOUT_HINT));
		PG_RETURN_NULL();
	}
	PG_RETURN_BYTEA_P(layout_datum(&l));
}

PG_FUNCTION_INFO_V1(snowflake_layout_out);
Datum
snowflake_layout_out(PG_FUNCTION_ARGS)
{
	PG_RETURN_CSTRING(sf_layout_name(sf_layout_arg(fcinfo, 0)));
}

/* Binary input: the stored bytes, validated like any other input. */
PG_FUNCTION_INFO_V1(snowflake_layout_recv);
Datum
snowflake_layout_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	int			len = buf->len - buf->cursor;
	/* all of it: pq_getmsgbytes() without the call (PGlite exports none) */
	const char *bytes = buf->data + buf->cursor;
	sfl_layout	l;
	char		msg[SFL_MSG_MAX];

	buf->cursor = buf->len;
	if (sfl_deserialize((const uint8_t *) bytes, (size_t) len, &l,
						msg, sizeof(msg)) != SFL_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid external snowflake_layout value"),
				 errdetail("%s", msg),
				 errhint("Binary snowflake_layout values come from snowflake_layout_send (COPY ... BINARY).")));
	PG_RETURN_BYTEA_P(layout_datum(&l));
}

PG_FUNCTION_INFO_V1(snowflake_layout_send);
Datum
snowflake_layout_send(PG_FUNCTION_ARGS)
{
	bytea	   *v = PG_GETARG_BYTEA_PP(0);
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendbytes(&buf, VARDATA_ANY(v), VARSIZE_ANY_EXHDR(v));
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

/* ERROR 22023 for a definition the constructors cannot build. */
static void
report_invalid(const char *what, const char *detail, const char *hint)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 what ? errmsg("invalid snowflake layout: \"%s\"", what)
			 : errmsg("invalid snowflake layout definition"),
			 errdetail("%s", detail),
			 errhint("%s", hint)));
}

/* A constructor's epoch argument in whole Unix milliseconds. */
static int64
epoch_arg(TimestampTz ts, const char *what, const char *hint)
{
	char		detail[SFL_MSG_MAX];

	if (TIMESTAMP_NOT_FINITE(ts))
	{
		report_invalid(what, "The epoch must be a finite time.", hint);
	}
	if (ts % 1000 != 0)
	{
		snprintf(detail, sizeof(detail),
				 "The epoch %s has a fraction of a millisecond; layouts count whole milliseconds.",
				 timestamptz_to_str(ts));
		report_invalid(what, detail, hint);
	}
	return sf_timestamptz_to_unix_ms(ts);
}

/*
 * snowflake_layout(name text, epoch timestamptz DEFAULT NULL,
 *					node_bits int DEFAULT NULL)
 *
 * name is the text form (so a text column holding 'sonyflake(epoch=...)'
 * works as the literal does); epoch and node_bits, when not NULL, add the
 * preset parameters of the same names.
 */
PG_FUNCTION_INFO_V1(snowflake_layout_from_name);
Datum
snowflake_layout_from_name(PG_FUNCTION_ARGS)
{
	char	   *name;
	sfl_spec	spec;
	sfl_layout	l;
	char		msg[SFL_MSG_MAX];

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	name = text_to_cstring(PG_GETARG_TEXT_PP(0));
	if (sfl_parse_spec(name, strlen(name), &spec, msg, sizeof(msg)) != SFL_OK)
		report_invalid(name, msg, LAYOUT_HINT);
	if (!PG_ARGISNULL(1))
	{
		if (spec.has_epoch)
			report_invalid(name, "The epoch is given twice, in the name and as an argument.",
						   LAYOUT_HINT);
		spec.has_epoch = true;
		spec.epoch_ms = epoch_arg(PG_GETARG_TIMESTAMPTZ(1), name, LAYOUT_HINT);
	}
	if (!PG_ARGISNULL(2))
	{
		if (spec.has_node_bits)
			report_invalid(name, "node_bits is given twice, in the name and as an argument.",
						   LAYOUT_HINT);
		spec.has_node_bits = true;
		spec.node_bits = PG_GETARG_INT32(2);
	}
	if (sfl_build(&spec, &l, msg, sizeof(msg)) != SFL_OK)
		report_invalid(name, msg, LAYOUT_HINT);
	PG_RETURN_BYTEA_P(layout_datum(&l));
}

/*
 * snowflake_layout(time_bits int, unit text, epoch timestamptz, fields json,
 *					sequence_bits int, sign_bit boolean DEFAULT true,
 *					sequence_above_node boolean DEFAULT false,
 *					sequence_reset text DEFAULT 'zero')
 *
 * fields is read from the json text itself, so its key order is the field
 * order and duplicate keys reach the uniqueness rule (jsonb would reorder
 * and deduplicate them).
 */
PG_FUNCTION_INFO_V1(snowflake_layout_custom);
Datum
snowflake_layout_custom(PG_FUNCTION_ARGS)
{
	text	   *unit = PG_GETARG_TEXT_PP(1);
	text	   *fields = PG_GETARG_TEXT_PP(3);
	text	   *reset = PG_GETARG_TEXT_PP(7);
	sfl_spec	spec;
	sfl_layout	l;
	char		msg[SFL_MSG_MAX];

	sfl_spec_init(&spec);
	sfl_word_set(&spec.name, "custom", 6);
	spec.has_time = true;
	spec.time_bits = PG_GETARG_INT32(0);
	sfl_word_set(&spec.unit, VARDATA_ANY(unit), VARSIZE_ANY_EXHDR(unit));
	spec.time_epoch_ms = epoch_arg(PG_GETARG_TIMESTAMPTZ(2), NULL, CUSTOM_HINT);
	if (sfl_parse_fields_json(VARDATA_ANY(fields), VARSIZE_ANY_EXHDR(fields),
							  &spec, msg, sizeof(msg)) != SFL_OK)
		report_invalid(NULL, msg, CUSTOM_HINT);
	spec.has_sequence = true;
	spec.seq_bits = PG_GETARG_INT32(4);
	spec.has_sign = true;
	spec.sign = PG_GETARG_BOOL(5);
	spec.has_above = true;
	spec.seq_above_node = PG_GETARG_BOOL(6);
	spec.has_reset = true;
	sfl_word_set(&spec.reset, VARDATA_ANY(reset), VARSIZE_ANY_EXHDR(reset));
	if (sfl_build(&spec, &l, msg, sizeof(msg)) != SFL_OK)
		report_invalid(NULL, msg, CUSTOM_HINT);
	PG_RETURN_BYTEA_P(layout_datum(&l));
}

PG_FUNCTION_INFO_V1(snowflake_layout_diagram);
Datum
snowflake_layout_diagram(PG_FUNCTION_ARGS)
{
	char		buf[SFL_TEXT_MAX];

	sfl_diagram(sf_layout_arg(fcinfo, 0), buf);
	PG_RETURN_TEXT_P(cstring_to_text(buf));
}
