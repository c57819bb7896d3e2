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
	ulid_b32_encode_lower(id, p);
	return (size_t) (p - out) + ULID_TYPEID_SUFFIX_LEN;
}

/* Offset of the first byte of s[0..len) that is no lowercase digit, or len. */
static size_t
typeid_first_bad(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
	{
		unsigned char c = (unsigned char) s[i];

		if (ulid_b32_digit(c) < 0 || (c >= 'A' && c <= 'Z'))
			return i;
	}
	return len;
}

/*
 * Given 26 valid Base32 digits, are they all lowercase?  Digits and
 * lowercase letters have bit 0x20 set, uppercase letters do not.
 */
static inline bool
all_lowercase(const char *s)
{
	unsigned char all = 0xFF;

	for (int i = 0; i < ULID_TYPEID_SUFFIX_LEN; i++)
		all &= (unsigned char) s[i];
	return (all & 0x20) != 0;
}

ulid_codec_status
ulid_typeid_decode(const char *s, size_t len, uint8_t id[16],
				   size_t *prefix_len, ulid_codec_error *err)
{
	size_t		sep = ulid_codec_last_underscore(s, len);
	size_t		start;
	const char *suffix;
	size_t		suffix_len;
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

	suffix = s + start;
	suffix_len = len - start;
	if (suffix_len != ULID_TYPEID_SUFFIX_LEN ||
		ulid_b32_decode(suffix, suffix_len, id, NULL) != ULID_B32_OK ||
		!all_lowercase(suffix))
	{
		/* what is wrong: a bad character first, then the length, overflow */
		size_t		bad = typeid_first_bad(suffix, suffix_len);

		if (bad < suffix_len)
			return ulid_codec_fail(err, ULID_CODEC_BAD_CHAR, start + bad, 1);
		if (suffix_len != ULID_TYPEID_SUFFIX_LEN)
			return ulid_codec_fail(err, ULID_CODEC_BAD_LENGTH, start, suffix_len);
		return ulid_codec_fail(err, ULID_CODEC_OVERFLOW, start, suffix_len);
	}
	*prefix_len = sep == len ? 0 : sep;
	return ULID_CODEC_OK;
}
