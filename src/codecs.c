/*-------------------------------------------------------------------------
 *
 * codecs.c
 *	  SQL functions of the text codecs: radix 2-62, Base62, GSID, TypeID,
 *	  and ulid_parse / ulid_try_parse, which read any of them.
 *
 * The codecs themselves are the pure-C core (src/core/radix.c, base62.c,
 * gsid.c, typeid.c, parse.c); this file reads arguments, builds results in
 * one allocation each and turns the core's statuses into errors.  Every
 * decoding error names the function and the value in errmsg, the reason
 * (with the offending character and its 1-based position) in errdetail and
 * the accepted syntax in errhint: 22P02 for malformed text, 22003 for a
 * value that does not fit.
 *
 *-------------------------------------------------------------------------
 */
#include "ulid.h"

#include "mb/pg_wchar.h"
#include "utils/builtins.h"

#include "base62.h"
#include "gsid.h"
#include "parse.h"
#include "radix.h"
#include "typeid.h"

/* gen.c */
extern PGDLLEXPORT Datum gen_ulid(PG_FUNCTION_ARGS);

/* which text form a decoder reads; ULID_FORM_* of parse.h plus radix */
#define FORM_RADIX		(-1)

#define HINT_BASE62 \
	"Base62 text of a ULID is 22 characters of 0-9, A-Z and a-z (case matters), as ulid_to_base62 writes it."
#define HINT_TYPEID \
	"A TypeID is a prefix of a-z and \"_\" (at most 63 characters, no \"_\" at either end), \"_\", and 26 lowercase Crockford Base32 characters, such as user_01h455vb4pex5vsknk084sn02q; without a prefix, just the 26 characters."
#define HINT_GSID \
	"A GSID is 1 to 63 lowercase letters, \"_\", and 28 Base62 characters (8 time, 6 namespace, 14 random), such as usr_0UfgmdjM46GLys2pzvVCof2nyJ8Y."
#define HINT_PARSE \
	"ulid_parse accepts a ULID (26 Crockford Base32 characters, any case), a UUID (32 hexadecimal digits, with hyphens or braces as uuid accepts them), Base62 (22 characters), a TypeID (prefix_ and 26 characters) or a GSID (prefix_ and 28 characters)."

int
ulid_char_number(const char *s, size_t len, size_t off)
{
	/* the bytes before the character holding off: whole characters */
	int			whole = pg_mbcliplen(s, (int) len, (int) Min(off, len));

	return pg_mbstrlen_with_len(s, whole) + 1;
}

/* "Character "x" at position n": the whole character holding byte off */
static char *
describe_char(const char *s, size_t len, size_t off)
{
	size_t		start = (size_t) pg_mbcliplen(s, (int) len, (int) Min(off, len));

	return psprintf("Character \"%.*s\" at position %d",
					start < len ? pg_mblen(s + start) : 0, s + start,
					ulid_char_number(s, len, off));
}

/* The errdetail for status st of a decoder of form over s[0..len). */
static char *
decode_detail(int form, int radix, const char *s, size_t len,
			  ulid_codec_status st, const ulid_codec_error *e)
{
	/* length in characters of the part the error is about */
#define NCHARS pg_mbstrlen_with_len(s + e->pos, (int) e->len)

	switch (st)
	{
		case ULID_CODEC_BAD_CHAR:
			switch (form)
			{
				case FORM_RADIX:
					return psprintf("%s is not a base-%d digit.", describe_char(s, len, e->pos), radix);
				case ULID_FORM_BASE62:
				case ULID_FORM_GSID:
					return psprintf("%s is not a Base62 digit (0-9, A-Z, a-z).", describe_char(s, len, e->pos));
				case ULID_FORM_TYPEID:
					return psprintf("%s is not a lowercase Crockford Base32 digit (0-9 and a-z without i, l, o, u).",
									describe_char(s, len, e->pos));
				case ULID_FORM_ULID:
					return psprintf("%s is not a Crockford Base32 digit.", describe_char(s, len, e->pos));
				case ULID_FORM_UUID:
					return psprintf("%s is unexpected in UUID text.", describe_char(s, len, e->pos));
				default:
					return psprintf("%s occurs in no text form of a ULID.", describe_char(s, len, e->pos));
			}
		case ULID_CODEC_BAD_LENGTH:
			switch (form)
			{
				case FORM_RADIX:
					return pstrdup("The text is empty.");
				case ULID_FORM_BASE62:
					return psprintf("Base62 text of a ULID has %d characters; this value has %d.",
									ULID_B62_TEXT_LEN, NCHARS);
				case ULID_FORM_GSID:
					return psprintf("A GSID has %d characters after the last \"_\"; this value has %d.",
									ULID_GSID_BODY_LEN, NCHARS);
				case ULID_FORM_TYPEID:
					return psprintf("A TypeID suffix has %d characters; this value's has %d.",
									ULID_TYPEID_SUFFIX_LEN, NCHARS);
				default:
					return pstrdup("The UUID text ends early: it needs 32 hexadecimal digits, and a closing brace after an opening one.");
			}
		case ULID_CODEC_NO_SEPARATOR:
			return pstrdup("It has no \"_\" between the prefix and the body.");
		case ULID_CODEC_EMPTY_PREFIX:
			return form == ULID_FORM_TYPEID ?
				pstrdup("The prefix before \"_\" is empty; a TypeID without a prefix has no \"_\" either.") :
				pstrdup("The prefix is empty; a GSID has 1 to 63 lowercase letters before the \"_\".");
		case ULID_CODEC_PREFIX_TOO_LONG:
			return psprintf("The prefix has %d characters; at most %d are allowed.",
							NCHARS, ULID_TYPEID_PREFIX_MAX);
		case ULID_CODEC_PREFIX_BAD_CHAR:
			return psprintf(form == ULID_FORM_TYPEID ?
							"%s is not allowed in a TypeID prefix (a-z and \"_\")." :
							"%s is not allowed in a GSID prefix (a-z).",
							describe_char(s, len, e->pos));
		case ULID_CODEC_PREFIX_UNDERSCORE:
			return pstrdup("A TypeID prefix cannot start or end with \"_\".");
		case ULID_CODEC_NO_FORM:
			if (e->pos > 0)
				return psprintf("After the last \"_\" come %d characters; a TypeID has %d there and a GSID %d.",
								NCHARS, ULID_TYPEID_SUFFIX_LEN, ULID_GSID_BODY_LEN);
			return psprintf("Without \"_\", a ULID has %d characters, Base62 %d and a UUID %d to %d; this value has %d.",
							ULID_TEXT_LEN, ULID_B62_TEXT_LEN, ULID_UUID_MIN_LEN,
							ULID_UUID_MAX_LEN, NCHARS);
		case ULID_CODEC_OVERFLOW:
			switch (form)
			{
				case FORM_RADIX:
					{
						char		max[ULID_RADIX_MAX_WIDTH];
						size_t		n;

						(void) ulid_radix_encode(PG_UINT64_MAX, radix, 0, max, &n);
						return psprintf("The value is above 2^64 - 1, which is %.*s in base %d.",
										(int) n, max, radix);
					}
				case ULID_FORM_BASE62:
					return pstrdup("The value is above 2^128 - 1, which is 7n42DGM5Tflk9n8mt7Fhc7.");
				case ULID_FORM_TYPEID:
					return psprintf("The suffix starts with \"%c\"; it must be 0-7, because 26 Base32 characters hold 130 bits and a TypeID 128.",
									s[e->pos]);
				default:
					return psprintf("The first character is \"%c\"; it must be 0-7, because 26 Base32 characters hold 130 bits and a ULID has 128.",
									s[e->pos]);
			}
		case ULID_CODEC_NAMESPACE_OVERFLOW:
			return psprintf("The namespace \"%.*s\" is above 2^32 - 1, which is 4gfFC3.",
							(int) e->len, s + e->pos);
		case ULID_CODEC_RANDOM_OVERFLOW:
			return psprintf("The random part \"%.*s\" is above 2^80 - 1, which is 62iEp5bu9VZbsV.",
							(int) e->len, s + e->pos);
		case ULID_CODEC_OK:
		case ULID_CODEC_TIME_OVERFLOW:
		case ULID_CODEC_TOO_WIDE:
			break;
	}
#undef NCHARS
	elog(ERROR, "unexpected codec status %d", (int) st);
	return NULL;				/* keep the compiler quiet */
}

/* The errhint for a decoder of form (or, for ulid_parse, every form). */
static char *
decode_hint(int form, int radix, bool any_form)
{
	if (any_form)
		return pstrdup(HINT_PARSE);
	switch (form)
	{
		case FORM_RADIX:
			if (radix <= 10)
				return psprintf("Base-%d text is digits 0-%d, without sign or spaces.",
								radix, radix - 1);
			if (radix <= 36)
				return psprintf("Base-%d text is digits 0-9 and letters a-%c (either case) for 10-%d, without sign or spaces.",
								radix, 'a' + radix - 11, radix - 1);
			if (radix == 37)
				return pstrdup("Base-37 text is digits 0-9, letters A-Z for 10-35 and a for 36 (case matters), without sign or spaces.");
			return psprintf("Base-%d text is digits 0-9, letters A-Z for 10-35 and a-%c for 36-%d (case matters), without sign or spaces.",
							radix, 'a' + radix - 37, radix - 1);
		case ULID_FORM_BASE62:
			return pstrdup(HINT_BASE62);
		case ULID_FORM_TYPEID:
			return pstrdup(HINT_TYPEID);
		case ULID_FORM_GSID:
			return pstrdup(HINT_GSID);
		default:
			return pstrdup(HINT_PARSE);
	}
}

/*
 * Raise the error for status st of decoding s[0..len) as form in SQL
 * function fname; any_form for ulid_parse, whose hint lists every form.
 */
static void
report_decode_error(const char *fname, int form, int radix, bool any_form,
					const char *s, size_t len, ulid_codec_status st,
					const ulid_codec_error *e)
{
	char	   *str = pnstrdup(s, len);

	ereport(ERROR,
			(errcode(ULID_CODEC_IS_RANGE_ERROR(st) ?
					 ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE :
					 ERRCODE_INVALID_TEXT_REPRESENTATION),
			 ULID_CODEC_IS_RANGE_ERROR(st) ?
			 errmsg("value out of range for %s: \"%s\"", fname, str) :
			 errmsg("invalid input syntax for %s: \"%s\"", fname, str),
			 errdetail("%s", decode_detail(form, radix, s, len, st, e)),
			 errhint("%s", decode_hint(form, radix, any_form))));
}

/* A text datum of len bytes whose data the caller fills in. */
static text *
new_text(size_t len, char **data)
{
	text	   *t = (text *) palloc(VARHDRSZ + len);

	SET_VARSIZE(t, VARHDRSZ + len);
	*data = VARDATA(t);
	return t;
}

static pg_ulid_t *
new_ulid(void)
{
	return (pg_ulid_t *) palloc(sizeof(pg_ulid_t));
}

/* ERROR 22023 unless radix is 2..62 */
static void
check_radix(int32 radix)
{
	if (!ulid_radix_valid(radix))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("radix %d is out of range", radix),
				 errdetail("The radix must be between %d and %d.", ULID_RADIX_MIN, ULID_RADIX_MAX)));
}

/*
 * radix_encode(id bigint, radix int DEFAULT 62, width int DEFAULT NULL):
 * not strict, so a NULL width means "no padding"; NULL id or radix gives NULL.
 */
PG_FUNCTION_INFO_V1(ulid_radix_encode_sql);
Datum
ulid_radix_encode_sql(PG_FUNCTION_ARGS)
{
	int64		id;
	int32		radix;
	int32		width = 0;
	char		buf[ULID_RADIX_MAX_WIDTH];
	size_t		n;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		PG_RETURN_NULL();
	id = PG_GETARG_INT64(0);
	radix = PG_GETARG_INT32(1);
	check_radix(radix);
	if (!PG_ARGISNULL(2))
	{
		width = PG_GETARG_INT32(2);
		if (width < 1 || width > ULID_RADIX_MAX_WIDTH)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("width %d is out of range", width),
					 errdetail("The width must be between 1 and %d, or NULL for no padding.",
							   ULID_RADIX_MAX_WIDTH)));
	}
	if (ulid_radix_encode((uint64) id, radix, width, buf, &n) != ULID_CODEC_OK)
	{
		(void) ulid_radix_encode((uint64) id, radix, 0, buf, &n);
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("value out of range for radix_encode: " INT64_FORMAT, id),
				 errdetail("In base %d it takes %d digits (%.*s), more than width %d.",
						   radix, (int) n, (int) n, buf, width),
				 errhint("Use a width of at least %d, or NULL for no padding.", (int) n)));
	}
	PG_RETURN_TEXT_P(cstring_to_text_with_len(buf, (int) n));
}

/* radix_decode(text, radix int DEFAULT 62): the unsigned value as bigint */
PG_FUNCTION_INFO_V1(ulid_radix_decode_sql);
Datum
ulid_radix_decode_sql(PG_FUNCTION_ARGS)
{
	text	   *t = PG_GETARG_TEXT_PP(0);
	int32		radix = PG_GETARG_INT32(1);
	const char *s = VARDATA_ANY(t);
	size_t		len = VARSIZE_ANY_EXHDR(t);
	uint64		v = 0;
	ulid_codec_error e;
	ulid_codec_status st;

	check_radix(radix);
	st = ulid_radix_decode(s, len, radix, &v, &e);
	if (st != ULID_CODEC_OK)
		report_decode_error("radix_decode", FORM_RADIX, radix, false, s, len, st, &e);
	PG_RETURN_INT64((int64) v);
}

PG_FUNCTION_INFO_V1(ulid_to_base62);
Datum
ulid_to_base62(PG_FUNCTION_ARGS)
{
	pg_ulid_t  *u = PG_GETARG_ULID_P(0);
	char	   *out;
	text	   *t = new_text(ULID_B62_TEXT_LEN, &out);

	ulid_base62_encode(u->data, out);
	PG_RETURN_TEXT_P(t);
}

/*
 * Decode text argument 0 of SQL function fname as form, raising its error;
 * ULID_FORM_NONE reads any form (ulid_parse).  *plen and *ns receive the
 * prefix length and namespace of TypeIDs and GSIDs.
 */
static pg_ulid_t *
decode_arg(FunctionCallInfo fcinfo, const char *fname, ulid_text_form form,
		   size_t *plen, uint32 *ns)
{
	text	   *t = PG_GETARG_TEXT_PP(0);
	const char *s = VARDATA_ANY(t);
	size_t		len = VARSIZE_ANY_EXHDR(t);
	pg_ulid_t  *u = new_ulid();
	bool		any_form = (form == ULID_FORM_NONE);
	ulid_codec_error e;
	ulid_codec_status st;

	switch (form)
	{
		case ULID_FORM_BASE62:
			st = ulid_base62_decode(s, len, u->data, &e);
			break;
		case ULID_FORM_GSID:
			st = ulid_gsid_decode(s, len, u->data, plen, ns, &e);
			break;
		case ULID_FORM_TYPEID:
			st = ulid_typeid_decode(s, len, u->data, plen, &e);
			break;
		default:
			st = ulid_parse_text(s, len, u->data, &form, &e);
			break;
	}
	if (st != ULID_CODEC_OK)
		report_decode_error(fname, form, 0, any_form, s, len, st, &e);
	return u;
}

/* The prefix of the TypeID or GSID argument 0, plen bytes long. */
static text *
prefix_of_arg(FunctionCallInfo fcinfo, size_t plen)
{
	return cstring_to_text_with_len(VARDATA_ANY(PG_GETARG_TEXT_PP(0)), (int) plen);
}

PG_FUNCTION_INFO_V1(ulid_from_base62);
Datum
ulid_from_base62(PG_FUNCTION_ARGS)
{
	PG_RETURN_ULID_P(decode_arg(fcinfo, "ulid_from_base62", ULID_FORM_BASE62, NULL, NULL));
}

/* ERROR 22023 unless prefix is a valid TypeID (typeid) or GSID prefix */
static void
check_prefix(text *prefix, bool typeid)
{
	const char *s = VARDATA_ANY(prefix);
	size_t		len = VARSIZE_ANY_EXHDR(prefix);
	ulid_codec_error e;
	ulid_codec_status st = typeid ?
		ulid_typeid_check_prefix(s, len, &e) :
		ulid_gsid_check_prefix(s, len, &e);

	if (st != ULID_CODEC_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid %s prefix: \"%s\"", typeid ? "TypeID" : "GSID",
						pnstrdup(s, len)),
				 errdetail("%s", decode_detail(typeid ? ULID_FORM_TYPEID : ULID_FORM_GSID,
											   0, s, len, st, &e)),
				 errhint(typeid ?
						 "A TypeID prefix is at most 63 characters of a-z and \"_\", with no \"_\" at either end; it may be empty." :
						 "A GSID prefix is 1 to 63 lowercase letters a-z.")));
}

/* ERROR 22003 unless ns is a GSID namespace (32 bits) */
static void
check_namespace(int64 ns)
{
	if (ns < 0 || ns > (int64) PG_UINT32_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("GSID namespace out of range: " INT64_FORMAT, ns),
				 errdetail("A GSID namespace is 0 to %u (32 bits).", PG_UINT32_MAX)));
}

/* The GSID of u with a checked prefix and namespace. */
static text *
gsid_text(const pg_ulid_t *u, text *prefix, uint32 ns)
{
	size_t		plen = VARSIZE_ANY_EXHDR(prefix);
	char	   *out;
	text	   *t;

	t = new_text(plen + 1 + ULID_GSID_BODY_LEN, &out);
	if (ulid_gsid_encode(u->data, VARDATA_ANY(prefix), plen, ns, out) != ULID_CODEC_OK)
	{
		char		b32[ULID_TEXT_LEN + 1];

		ulid_b32_encode(u->data, b32);
		b32[ULID_TEXT_LEN] = '\0';
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("ULID %s is out of range for a GSID", b32),
				 errdetail("Its time is " INT64_FORMAT " Unix ms; a GSID's 8 Base62 time characters end at " INT64_FORMAT " (8888-12-02 13:19:44.895Z).",
						   ulid_get_unix_ms(u), ULID_GSID_MAX_UNIX_MS)));
	}
	return t;
}

PG_FUNCTION_INFO_V1(ulid_to_gsid);
Datum
ulid_to_gsid(PG_FUNCTION_ARGS)
{
	text	   *prefix = PG_GETARG_TEXT_PP(1);
	int64		ns = PG_GETARG_INT64(2);

	check_prefix(prefix, false);
	check_namespace(ns);
	PG_RETURN_TEXT_P(gsid_text(PG_GETARG_ULID_P(0), prefix, (uint32) ns));
}

/* gen_gsid(prefix, namespace): ulid_to_gsid(gen_ulid(), prefix, namespace) */
PG_FUNCTION_INFO_V1(gen_gsid);
Datum
gen_gsid(PG_FUNCTION_ARGS)
{
	text	   *prefix = PG_GETARG_TEXT_PP(0);
	int64		ns = PG_GETARG_INT64(1);
	LOCAL_FCINFO(gen_fcinfo, 0);

	check_prefix(prefix, false);
	check_namespace(ns);
	InitFunctionCallInfoData(*gen_fcinfo, NULL, 0, InvalidOid, NULL, NULL);
	PG_RETURN_TEXT_P(gsid_text(DatumGetUlidP(gen_ulid(gen_fcinfo)), prefix, (uint32) ns));
}

PG_FUNCTION_INFO_V1(gsid_to_ulid);
Datum
gsid_to_ulid(PG_FUNCTION_ARGS)
{
	size_t		plen;
	uint32		ns;

	PG_RETURN_ULID_P(decode_arg(fcinfo, "gsid_to_ulid", ULID_FORM_GSID, &plen, &ns));
}

PG_FUNCTION_INFO_V1(gsid_prefix);
Datum
gsid_prefix(PG_FUNCTION_ARGS)
{
	size_t		plen;
	uint32		ns;

	(void) decode_arg(fcinfo, "gsid_prefix", ULID_FORM_GSID, &plen, &ns);
	PG_RETURN_TEXT_P(prefix_of_arg(fcinfo, plen));
}

PG_FUNCTION_INFO_V1(gsid_namespace);
Datum
gsid_namespace(PG_FUNCTION_ARGS)
{
	size_t		plen;
	uint32		ns;

	(void) decode_arg(fcinfo, "gsid_namespace", ULID_FORM_GSID, &plen, &ns);
	PG_RETURN_INT64((int64) ns);
}

/* ERROR 22023 unless prefix is a valid TypeID prefix (gen_typeid too) */
void
ulid_check_typeid_prefix(text *prefix)
{
	check_prefix(prefix, true);
}

/* The TypeID of the 16 bytes id with a checked prefix. */
text *
ulid_typeid_text(const uint8 *id, text *prefix)
{
	size_t		plen = VARSIZE_ANY_EXHDR(prefix);
	char	   *out;
	text	   *t;

	t = new_text(plen + (plen > 0) + ULID_TYPEID_SUFFIX_LEN, &out);
	(void) ulid_typeid_encode(id, VARDATA_ANY(prefix), plen, out);
	return t;
}

PG_FUNCTION_INFO_V1(ulid_to_typeid);
Datum
ulid_to_typeid(PG_FUNCTION_ARGS)
{
	text	   *prefix = PG_GETARG_TEXT_PP(1);

	check_prefix(prefix, true);
	PG_RETURN_TEXT_P(ulid_typeid_text(PG_GETARG_ULID_P(0)->data, prefix));
}

PG_FUNCTION_INFO_V1(typeid_to_ulid);
Datum
typeid_to_ulid(PG_FUNCTION_ARGS)
{
	size_t		plen;

	PG_RETURN_ULID_P(decode_arg(fcinfo, "typeid_to_ulid", ULID_FORM_TYPEID, &plen, NULL));
}

PG_FUNCTION_INFO_V1(typeid_prefix);
Datum
typeid_prefix(PG_FUNCTION_ARGS)
{
	size_t		plen;

	(void) decode_arg(fcinfo, "typeid_prefix", ULID_FORM_TYPEID, &plen, NULL);
	PG_RETURN_TEXT_P(prefix_of_arg(fcinfo, plen));
}

PG_FUNCTION_INFO_V1(ulid_parse);
Datum
ulid_parse(PG_FUNCTION_ARGS)
{
	PG_RETURN_ULID_P(decode_arg(fcinfo, "ulid_parse", ULID_FORM_NONE, NULL, NULL));
}

/* ulid_try_parse(text): as ulid_parse, but NULL for text that is no ULID */
PG_FUNCTION_INFO_V1(ulid_try_parse);
Datum
ulid_try_parse(PG_FUNCTION_ARGS)
{
	text	   *t = PG_GETARG_TEXT_PP(0);
	pg_ulid_t  *u = new_ulid();
	ulid_text_form form;
	ulid_codec_error e;

	if (ulid_parse_text(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), u->data, &form, &e) != ULID_CODEC_OK)
		PG_RETURN_NULL();
	PG_RETURN_ULID_P(u);
}
