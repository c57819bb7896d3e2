/*-------------------------------------------------------------------------
 *
 * typeid.c
 *	  TypeID (spec v0.3) text of 128-bit values (pure C, no PostgreSQL).
 *
 * The suffix is the canonical ULID text in lowercase, so this reuses the
 * Crockford Base32 codec of base32.c and only adds TypeID's rules: the
 * prefix, and lowercase-only suffixes.
 *
 *-------------------------------------------------------------------------
 */
#include "typeid.h"

#include <stdbool.h>
#include <string.h>

#include "base32.h"

ulid_codec_status
ulid_typeid_check_prefix(const char *prefix, size_t len, ulid_codec_error *err)
{
	for (size_t i = 0; i < len; i++)
		if ((prefix[i] < 'a' || prefix[i] > 'z') && prefix[i] != '_')
			return ulid_codec_fail(err, ULID_CODEC_PREFIX_BAD_CHAR, i, 1);
	if (len > ULID_TYPEID_PREFIX_MAX)
		return ulid_codec_fail(err, ULID_CODEC_PREFIX_TOO_LONG, 0, len);
	if (len > 0 && (prefix[0] == '_' || prefix[len - 1] == '_'))
		return ulid_codec_fail(err, ULID_CODEC_PREFIX_UNDERSCORE, 0, len);
	return ULID_CODEC_OK;
}

size_t
ulid_typeid_encode(const uint8_t id[16], const char *prefix, size_t prefix_len,
				   char *out)
{
	char	   *p = out;

	if (prefix_len > 0)
	{
		memcpy(p, prefix, prefix_len);
		p += prefix_len;
		*p++ = '_';
	}
	ulid_b32_encode(id, p);
	/* lowercase: sets 0x20, which digits already have */
	for (int i = 0; i < ULID_TYPEID_SUFFIX_LEN; i++)
		p[i] |= 0x20;
	return (size_t) (p - out) + ULID_TYPEID_SUFFIX_LEN;
}

/* Is c a lowercase Crockford Base32 digit? */
static inline bool
typeid_digit(unsigned char c)
{
	return ulid_b32_digit(c) >= 0 && (c < 'A' || c > 'Z');
}

ulid_codec_status
ulid_typeid_decode(const char *s, size_t len, uint8_t id[16],
				   size_t *prefix_len, ulid_codec_error *err)
{
	size_t		sep = ulid_codec_last_underscore(s, len);
	size_t		start;
	ulid_codec_status st;

	if (sep == len)
		start = 0;				/* no separator: empty prefix */
	else
	{
		if (sep == 0)
			return ulid_codec_fail(err, ULID_CODEC_EMPTY_PREFIX, 0, 0);
		st = ulid_typeid_check_prefix(s, sep, err);
		if (st != ULID_CODEC_OK)
			return st;
		start = sep + 1;
	}

	for (size_t i = start; i < len; i++)
		if (!typeid_digit((unsigned char) s[i]))
			return ulid_codec_fail(err, ULID_CODEC_BAD_CHAR, i, 1);
	if (len - start != ULID_TYPEID_SUFFIX_LEN)
		return ulid_codec_fail(err, ULID_CODEC_BAD_LENGTH, start, len - start);
	if (ulid_b32_decode(s + start, ULID_TYPEID_SUFFIX_LEN, id, NULL) != ULID_B32_OK)
		return ulid_codec_fail(err, ULID_CODEC_OVERFLOW, start, ULID_TYPEID_SUFFIX_LEN);
	*prefix_len = sep == len ? 0 : sep;
	return ULID_CODEC_OK;
}
