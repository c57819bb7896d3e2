/*-------------------------------------------------------------------------
 *
 * public_codecs.c
 *	  SQL functions of Sqids (sqids_encode / sqids_decode) and of RFC 4648
 *	  base32hex text (ulid_to_base32hex / ulid_from_base32hex); the
 *	  pure-C core is src/core/sqids.c and base32hex.c.
 *
 * A Sqids alphabet is shuffled, and the blocklist filtered for it, once
 * per call site and (alphabet, min_length): fn_extra keeps the last one.
 *
 *-------------------------------------------------------------------------
 */
#include "ulid.h"

#include "catalog/pg_type.h"
#include "mb/pg_wchar.h"
#include "utils/array.h"
#include "utils/builtins.h"

#include "base32hex.h"
#include "sqids.h"

#define HINT_ALPHABET \
	"A Sqids alphabet is 3 to 127 distinct ASCII characters; the default is " \
	ULID_SQIDS_DEFAULT_ALPHABET "."

/* The last alphabet a call site prepared. */
typedef struct sqids_site
{
	int			alphabet_len;
	char		alphabet[ULID_SQIDS_MAX_ALPHABET];
	ulid_sqids	sq;
} sqids_site;

/* "Character "x" at position n" of the whole character holding byte off */
static char *
describe_char(const char *s, size_t len, size_t off)
{
	return psprintf("Character \"%.*s\" at position %d", pg_mblen(s + off), s + off,
					ulid_char_number(s, len, off));
}

/* The prepared alphabet of arguments 1 (alphabet) and 2 (min_length). */
static const ulid_sqids *
sqids_arg(FunctionCallInfo fcinfo)
{
	text	   *t = PG_GETARG_TEXT_PP(1);
	const char *a = VARDATA_ANY(t);
	int			len = VARSIZE_ANY_EXHDR(t);
	int32		min_length = PG_GETARG_INT32(2);
	sqids_site *site = (sqids_site *) fcinfo->flinfo->fn_extra;
	ulid_sqids_error e = {0, 0, 0};

	if (site != NULL && site->alphabet_len == len && site->sq.min_length == min_length &&
		memcmp(site->alphabet, a, len) == 0)
		return &site->sq;
	if (site == NULL)
		site = fcinfo->flinfo->fn_extra =
			MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(sqids_site));
	site->alphabet_len = -1;
	switch (ulid_sqids_init(&site->sq, a, len, min_length, &e))
	{
		case ULID_SQIDS_OK:
			break;
		case ULID_SQIDS_ALPHABET_NOT_ASCII:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("invalid Sqids alphabet: \"%s\"", text_to_cstring(t)),
					 errdetail("%s is not ASCII.", describe_char(a, len, e.pos)),
					 errhint(HINT_ALPHABET)));
			break;
		case ULID_SQIDS_ALPHABET_REPEAT:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("invalid Sqids alphabet: \"%s\"", text_to_cstring(t)),
					 errdetail("%s repeats the one at position %d.", describe_char(a, len, e.pos),
							   (int) e.pos2 + 1),
					 errhint(HINT_ALPHABET)));
			break;
		case ULID_SQIDS_ALPHABET_LENGTH:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("invalid Sqids alphabet: \"%s\"", text_to_cstring(t)),
					 errdetail("It has %d characters.", len),
					 errhint(HINT_ALPHABET)));
			break;
		default:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("min_length %d is out of range", min_length),
					 errdetail("min_length must be between 0 and %d.", ULID_SQIDS_MAX_MIN_LENGTH)));
	}
	memcpy(site->alphabet, a, len);
	site->alphabet_len = len;
	return &site->sq;
}

/* sqids_encode(numbers bigint[], alphabet text, min_length int) */
PG_FUNCTION_INFO_V1(ulid_sqids_encode_sql);
Datum
ulid_sqids_encode_sql(PG_FUNCTION_ARGS)
{
	ArrayType  *arr = PG_GETARG_ARRAYTYPE_P(0);
	const ulid_sqids *sq = sqids_arg(fcinfo);
	Datum	   *elems;
	bool	   *nulls;
	int			n;
	int64	   *nums;
	text	   *out;
	size_t		len;
	ulid_sqids_error e = {0, 0, 0};
	ulid_sqids_status st;

	if (ARR_NDIM(arr) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("sqids_encode takes a one-dimensional array, not one of %d dimensions",
						ARR_NDIM(arr))));
	deconstruct_array(arr, INT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE, &elems, &nulls, &n);
	nums = palloc(sizeof(int64) * Max(n, 1));
	for (int i = 0; i < n; i++)
	{
		if (nulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("sqids_encode cannot encode a NULL"),
					 errdetail("Element %d of the array is NULL.", i + 1)));
		nums[i] = DatumGetInt64(elems[i]);
	}
	out = palloc(VARHDRSZ + ulid_sqids_max_len((size_t) n));
	st = ulid_sqids_encode(sq, nums, (size_t) n, VARDATA(out), &len, &e);
	if (st == ULID_SQIDS_NEGATIVE)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("value out of range for sqids_encode: " INT64_FORMAT, nums[e.pos]),
				 errdetail("Element %d of the array is negative; Sqids encode numbers from 0 to 9223372036854775807.",
						   (int) e.pos + 1)));
	if (st == ULID_SQIDS_BLOCKED)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("sqids_encode found no id without a blocked word"),
				 errdetail("Each of the %d tries the specification makes holds a word of its blocklist.",
						   sq->len + 1),
				 errhint("Use a longer alphabet, or another min_length.")));
	SET_VARSIZE(out, VARHDRSZ + len);
	PG_RETURN_TEXT_P(out);
}

/* sqids_decode(id text, alphabet text, min_length int) */
PG_FUNCTION_INFO_V1(ulid_sqids_decode_sql);
Datum
ulid_sqids_decode_sql(PG_FUNCTION_ARGS)
{
	text	   *t = PG_GETARG_TEXT_PP(0);
	const ulid_sqids *sq = sqids_arg(fcinfo);
	const char *s = VARDATA_ANY(t);
	size_t		len = VARSIZE_ANY_EXHDR(t);
	int64	   *nums = palloc(sizeof(int64) * Max(len, 1));
	Datum	   *elems;
	size_t		n;
	ulid_sqids_error e = {0, 0, 0};

	switch (ulid_sqids_decode(sq, s, len, nums, &n, &e))
	{
		case ULID_SQIDS_OK:
			break;
		case ULID_SQIDS_BAD_CHAR:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid input syntax for sqids_decode: \"%s\"", text_to_cstring(t)),
					 errdetail("%s is not in the alphabet.", describe_char(s, len, e.pos)),
					 errhint("Decode with the alphabet the id was encoded with.")));
			break;
		default:
			ereport(ERROR,
					(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					 errmsg("value out of range for sqids_decode: \"%s\"", text_to_cstring(t)),
					 errdetail("The number \"%.*s\" at position %d is above 9223372036854775807.",
							   (int) e.len, s + e.pos, ulid_char_number(s, len, e.pos))));
	}
	if (len > 0 && len < (size_t) sq->min_length)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid input syntax for sqids_decode: \"%s\"", text_to_cstring(t)),
				 errdetail("It has %d characters; sqids_encode with min_length %d makes none shorter.",
						   (int) len, sq->min_length),
				 errhint("Decode with the min_length the id was encoded with.")));
	elems = palloc(sizeof(Datum) * Max(n, 1));
	for (size_t i = 0; i < n; i++)
		elems[i] = Int64GetDatum(nums[i]);
	PG_RETURN_ARRAYTYPE_P(construct_array(elems, (int) n, INT8OID, 8, FLOAT8PASSBYVAL,
										  TYPALIGN_DOUBLE));
}

PG_FUNCTION_INFO_V1(ulid_to_base32hex);
Datum
ulid_to_base32hex(PG_FUNCTION_ARGS)
{
	pg_ulid_t  *u = PG_GETARG_ULID_P(0);
	text	   *t = palloc(VARHDRSZ + ULID_B32HEX_LEN);

	SET_VARSIZE(t, VARHDRSZ + ULID_B32HEX_LEN);
	ulid_b32hex_encode(u->data, VARDATA(t));
	PG_RETURN_TEXT_P(t);
}

PG_FUNCTION_INFO_V1(ulid_from_base32hex);
Datum
ulid_from_base32hex(PG_FUNCTION_ARGS)
{
	text	   *t = PG_GETARG_TEXT_PP(0);
	const char *s = VARDATA_ANY(t);
	size_t		len = VARSIZE_ANY_EXHDR(t);
	pg_ulid_t  *u = palloc(sizeof(pg_ulid_t));
	size_t		pos = 0;
	char	   *detail;

	switch (ulid_b32hex_decode(s, len, u->data, &pos))
	{
		case ULID_B32HEX_OK:
			PG_RETURN_ULID_P(u);
		case ULID_B32HEX_BAD_CHAR:
			detail = psprintf(pos < ULID_B32HEX_LEN ?
							  "%s is not a base32hex digit (0-9, A-V, either case)." :
							  "%s is not \"=\": only padding may follow the 26 digits.",
							  describe_char(s, len, pos));
			break;
		case ULID_B32HEX_BAD_LAST:
			detail = psprintf("%s holds bits past the 128th: the last digit is one of 0, 4, 8, C, G, K, O, S.",
							  describe_char(s, len, pos));
			break;
		default:
			detail = psprintf("base32hex text of a ULID has 26 characters (32 with its padding \"======\"); this value has %d.",
							  pg_mbstrlen_with_len(s, (int) len));
			break;
	}
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("invalid input syntax for ulid_from_base32hex: \"%s\"", text_to_cstring(t)),
			 errdetail_internal("%s", detail),
			 errhint("ulid_to_base32hex() writes it, as does rtrim(encode(id::uuid::bytea, 'base32hex'), '=') on PostgreSQL 19.")));
	PG_RETURN_NULL();
}
