/*-------------------------------------------------------------------------
 *
 * ulid_io.c
 *	  Text I/O and binary input of the ulid type, the bytea casts and the
 *	  min/max support.
 *
 * Binary send, comparison and hashing are core's uuid functions (identical
 * bytes, identical behaviour): see sql/ulid.sql.  Binary input is ours only
 * to check the length first (core's uuid_recv reports a short value as a
 * protocol violation).  The core functions are LEAKPROOF, as core marks
 * them.  Sortsupport is ulid_sort.c's (from 1.1): an abbreviated key that
 * sees past the first 8 bytes, where core's ties for half the neighbours
 * among fresh ids.
 *
 * Text input is strict, so every ULID has exactly one text form (and text
 * comparisons and DISTINCT on text agree with the type): Crockford's
 * aliases (I, L, O, U), spaces and hyphens are errors.  The checks run in
 * this order: the length in characters, not bytes (22P02), so a multibyte
 * character in a 26-character value is named as that character; then the
 * first character outside the alphabet, named whole with its 1-based
 * position (22P02); then overflow, a first character above 7 (22003).
 * UUID text fails the length check, with a hint naming the two ways in.
 *
 *-------------------------------------------------------------------------
 */
#include "ulid.h"

#include "libpq/pqformat.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"

#include "parse.h"

#define ULID_SYNTAX_HINT \
	"A ULID is 26 Crockford Base32 characters (0-9 and A-Z without I, L, O, U; any case), such as 01HTQW311N1KR5G0Y75M3EF00H."

/*
 * Report why str is not a ULID.  Checks in SPEC order: length in characters,
 * then the first character outside the alphabet (named whole, multibyte
 * included, with its 1-based position), then overflow.
 */
static void
report_bad_text(const char *str, size_t len, Node *escontext)
{
	int			nchars = pg_mbstrlen_with_len(str, (int) len);
	const char *p = str;
	int			pos = 1;

	if (nchars != ULID_TEXT_LEN)
	{
		uint8_t		uuid[ULID_BYTES];

		/* UUID text (exactly what uuid_in reads) is never 26 characters */
		if (ulid_uuid_decode(str, len, uuid, NULL) == ULID_CODEC_OK)
		{
			ulid_errsave(escontext,
						 errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
						 errmsg("invalid input syntax for type %s: \"%s\"", "ulid", str),
						 errdetail("A ULID has %d characters; this value has %d.",
								   ULID_TEXT_LEN, nchars),
						 errhint("This is a UUID: convert it with '%s'::uuid::ulid or ulid_parse('%s').",
								 str, str));
			return;
		}
		ulid_errsave(escontext,
					 errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid input syntax for type %s: \"%s\"", "ulid", str),
					 errdetail("A ULID has %d characters; this value has %d.",
							   ULID_TEXT_LEN, nchars),
					 errhint(ULID_SYNTAX_HINT));
		return;
	}

	for (; p < str + len; pos++)
	{
		int			clen = pg_mblen(p);

		if (clen != 1 || ulid_b32_digit((unsigned char) *p) < 0)
		{
			ulid_errsave(escontext,
						 errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
						 errmsg("invalid input syntax for type %s: \"%s\"", "ulid", str),
						 errdetail("Character \"%.*s\" at position %d is not a Crockford Base32 digit.",
								   clen, p, pos),
						 errhint(ULID_SYNTAX_HINT));
			return;
		}
		p += clen;
	}

	ulid_errsave(escontext,
				 errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("value out of range for type %s: \"%s\"", "ulid", str),
				 errdetail("The first character is \"%c\"; it must be 0-7, because 26 Base32 characters hold 130 bits and a ULID has 128.",
						   str[0]),
				 errhint("The largest ULID is 7ZZZZZZZZZZZZZZZZZZZZZZZZZ."));
}

bool
ulid_decode_text(const char *str, size_t len, pg_ulid_t *out, Node *escontext)
{
	if (likely(ulid_b32_decode(str, len, out->data, NULL) == ULID_B32_OK))
		return true;
	report_bad_text(str, len, escontext);
	return false;
}

PG_FUNCTION_INFO_V1(ulid_in);
Datum
ulid_in(PG_FUNCTION_ARGS)
{
	char	   *str = PG_GETARG_CSTRING(0);
	pg_ulid_t  *u = (pg_ulid_t *) palloc(sizeof(pg_ulid_t));

	if (!ulid_decode_text(str, strlen(str), u, fcinfo->context))
		PG_RETURN_NULL();
	PG_RETURN_ULID_P(u);
}

PG_FUNCTION_INFO_V1(ulid_out);
Datum
ulid_out(PG_FUNCTION_ARGS)
{
	pg_ulid_t  *u = PG_GETARG_ULID_P(0);
	char	   *s = palloc(ULID_TEXT_LEN + 1);

	ulid_b32_encode(u->data, s);
	s[ULID_TEXT_LEN] = '\0';
	PG_RETURN_CSTRING(s);
}

/*
 * Binary input: the raw 16 bytes.  The buffer holds exactly one value (a
 * bind parameter, a binary COPY field, an array element), so any other
 * length is bad data (22P03), reported before core's uuid_recv would call it
 * a protocol violation (08P01, for a short value).
 */
PG_FUNCTION_INFO_V1(ulid_recv);
Datum
ulid_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	int			len = buf->len - buf->cursor;
	pg_ulid_t  *u;

	if (len != ULID_BYTES)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid binary length for type %s: %d bytes", "ulid", len),
				 errdetail("A binary ulid is exactly %d bytes, most significant first, as a binary uuid.",
						   ULID_BYTES),
				 len == ULID_TEXT_LEN ?
				 errhint("26 bytes look like ULID text sent as binary: send the text in text format, or send the 16 raw bytes.") :
				 errhint("Send the 16 raw bytes, or send the 26-character text in text format.")));
	u = (pg_ulid_t *) palloc(sizeof(pg_ulid_t));
	/* all of it: pq_getmsgbytes() without the call (PGlite exports none) */
	memcpy(u->data, buf->data + buf->cursor, ULID_BYTES);
	buf->cursor += ULID_BYTES;
	PG_RETURN_ULID_P(u);
}

PG_FUNCTION_INFO_V1(ulid_from_bytea);
Datum
ulid_from_bytea(PG_FUNCTION_ARGS)
{
	bytea	   *b = PG_GETARG_BYTEA_PP(0);
	pg_ulid_t  *u;

	if (VARSIZE_ANY_EXHDR(b) != ULID_BYTES)
		ereport(ERROR,
				(errcode(ERRCODE_STRING_DATA_LENGTH_MISMATCH),
				 errmsg("invalid length for type %s: %d bytes", "ulid",
						(int) VARSIZE_ANY_EXHDR(b)),
				 errdetail("A ULID is exactly %d bytes.", ULID_BYTES),
				 errhint("Pass the 16 bytes of a ULID, most significant first, e.g. from ulid_send or id::bytea.")));
	u = (pg_ulid_t *) palloc(sizeof(pg_ulid_t));
	memcpy(u->data, VARDATA_ANY(b), ULID_BYTES);
	PG_RETURN_ULID_P(u);
}

PG_FUNCTION_INFO_V1(ulid_to_bytea);
Datum
ulid_to_bytea(PG_FUNCTION_ARGS)
{
	pg_ulid_t  *u = PG_GETARG_ULID_P(0);
	bytea	   *b = (bytea *) palloc(VARHDRSZ + ULID_BYTES);

	SET_VARSIZE(b, VARHDRSZ + ULID_BYTES);
	memcpy(VARDATA(b), u->data, ULID_BYTES);
	PG_RETURN_BYTEA_P(b);
}

/*
 * max(ulid) and min(ulid).  The state is internal: a pg_ulid_t in the
 * aggregate's memory context, NULL before the first non-NULL value, updated
 * in place.  An internal state (a pseudo-type) is what makes Citus push
 * min(id) / max(id) to each shard as themselves (its built-in min/max
 * handling, by name), where the SORTOP rewrite reads the shard's index;
 * with a plain ulid state and a combine function Citus would send
 * worker_partial_agg() instead, which scans every shard in full.  The
 * combine, serial and deserial functions keep partial (parallel)
 * aggregation on PostgreSQL; the serial and deserial functions are
 * ulid_to_bytea and ulid_from_bytea (the state is a pg_ulid_t).
 */

/*
 * The state function (state, value) and the combine function (state,
 * state) are one: the second argument is a pg_ulid_t either way, NULL for a
 * NULL value or an empty state.  The winner (sign +1: the larger, -1: the
 * smaller) is kept in the state, which is allocated on the first value.
 */
static Datum
minmax_step(FunctionCallInfo fcinfo, int sign)
{
	MemoryContext aggcontext;
	pg_ulid_t  *v;
	pg_ulid_t  *state;

	if (!AggCheckCallContext(fcinfo, &aggcontext))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("%s called in a non-aggregate context", "ulid min/max support function"),
				 errdetail("It is the state and combine function of the min(ulid) and max(ulid) aggregates."),
				 errhint("Call min(ulid) or max(ulid) instead.")));
	if (PG_ARGISNULL(1))
	{
		if (PG_ARGISNULL(0))
			PG_RETURN_NULL();
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	}
	v = PG_GETARG_ULID_P(1);
	if (PG_ARGISNULL(0))
	{
		state = (pg_ulid_t *) MemoryContextAlloc(aggcontext, sizeof(pg_ulid_t));
		*state = *v;
		PG_RETURN_POINTER(state);
	}
	state = (pg_ulid_t *) PG_GETARG_POINTER(0);
	if (memcmp(v->data, state->data, ULID_BYTES) * sign > 0)
		*state = *v;
	PG_RETURN_POINTER(state);
}

/* SQL's ulid_max_trans and ulid_max_combine */
PG_FUNCTION_INFO_V1(ulid_max_step);
Datum
ulid_max_step(PG_FUNCTION_ARGS)
{
	return minmax_step(fcinfo, 1);
}

/* SQL's ulid_min_trans and ulid_min_combine */
PG_FUNCTION_INFO_V1(ulid_min_step);
Datum
ulid_min_step(PG_FUNCTION_ARGS)
{
	return minmax_step(fcinfo, -1);
}

/* final function (strict: a NULL state is a NULL result) */
PG_FUNCTION_INFO_V1(ulid_minmax_final);
Datum
ulid_minmax_final(PG_FUNCTION_ARGS)
{
	pg_ulid_t  *r = (pg_ulid_t *) palloc(sizeof(pg_ulid_t));

	*r = *(pg_ulid_t *) PG_GETARG_POINTER(0);
	PG_RETURN_ULID_P(r);
}
