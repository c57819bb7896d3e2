/*-------------------------------------------------------------------------
 *
 * parse.c
 *	  One parser for every text form of a ULID (pure C, no PostgreSQL).
 *
 *-------------------------------------------------------------------------
 */
#include "parse.h"

#include <stdbool.h>

#include "base32.h"
#include "base62.h"
#include "gsid.h"
#include "typeid.h"

/* Value of a hex digit (either case), or -1. */
static inline int
hex_value(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/*
 * The grammar of string_to_uuid() in PostgreSQL's utils/adt/uuid.c, over a
 * counted string: an optional '{', sixteen pairs of hex digits with an
 * optional '-' after every second pair but the last, the matching '}', and
 * nothing else.
 */
ulid_codec_status
ulid_uuid_decode(const char *s, size_t len, uint8_t out[16],
				 ulid_codec_error *err)
{
	size_t		i = 0;
	bool		braces = false;

	if (len > 0 && s[0] == '{')
	{
		braces = true;
		i = 1;
	}
	for (int b = 0; b < 16; b++)
	{
		int			h,
					l;

		if (len - i < 2)
			return ulid_codec_fail(err, ULID_CODEC_BAD_LENGTH, 0, len);
		h = hex_value((unsigned char) s[i]);
		if (h < 0)
			return ulid_codec_fail(err, ULID_CODEC_BAD_CHAR, i, 1);
		l = hex_value((unsigned char) s[i + 1]);
		if (l < 0)
			return ulid_codec_fail(err, ULID_CODEC_BAD_CHAR, i + 1, 1);
		out[b] = (uint8_t) (h << 4 | l);
		i += 2;
		if (i < len && s[i] == '-' && b % 2 == 1 && b < 15)
			i++;
	}
	if (braces)
	{
		if (i == len)
			return ulid_codec_fail(err, ULID_CODEC_BAD_LENGTH, 0, len);
		if (s[i] != '}')
			return ulid_codec_fail(err, ULID_CODEC_BAD_CHAR, i, 1);
		i++;
	}
	if (i != len)
		return ulid_codec_fail(err, ULID_CODEC_BAD_CHAR, i, 1);
	return ULID_CODEC_OK;
}

/* Canonical ULID text, any case, with codec statuses. */
static ulid_codec_status
parse_canonical(const char *s, size_t len, uint8_t out[16],
				ulid_codec_error *err)
{
	size_t		off = 0;

	switch (ulid_b32_decode(s, len, out, &off))
	{
		case ULID_B32_OK:
			return ULID_CODEC_OK;
		case ULID_B32_BAD_CHAR:
			return ulid_codec_fail(err, ULID_CODEC_BAD_CHAR, off, 1);
		case ULID_B32_OVERFLOW:
			return ulid_codec_fail(err, ULID_CODEC_OVERFLOW, 0, len);
		case ULID_B32_BAD_LENGTH:
			break;
	}
	return ulid_codec_fail(err, ULID_CODEC_BAD_LENGTH, 0, len);
}

ulid_codec_status
ulid_parse_text(const char *s, size_t len, uint8_t out[16],
				ulid_text_form *form, ulid_codec_error *err)
{
	unsigned char high = 0;
	size_t		sep;
	size_t		prefix_len;
	uint32_t	ns;

	*form = ULID_FORM_NONE;
	for (size_t i = 0; i < len; i++)
		high |= (unsigned char) s[i];
	if (high & 0x80)
	{
		for (size_t i = 0;; i++)
			if ((unsigned char) s[i] & 0x80)
				return ulid_codec_fail(err, ULID_CODEC_BAD_CHAR, i, 1);
	}

	sep = ulid_codec_last_underscore(s, len);
	if (sep < len)
	{
		switch (len - sep - 1)
		{
			case ULID_TYPEID_SUFFIX_LEN:
				*form = ULID_FORM_TYPEID;
				return ulid_typeid_decode(s, len, out, &prefix_len, err);
			case ULID_GSID_BODY_LEN:
				*form = ULID_FORM_GSID;
				return ulid_gsid_decode(s, len, out, &prefix_len, &ns, err);
			default:
				return ulid_codec_fail(err, ULID_CODEC_NO_FORM, sep + 1, len - sep - 1);
		}
	}
	if (len == ULID_TEXT_LEN)
	{
		*form = ULID_FORM_ULID;
		return parse_canonical(s, len, out, err);
	}
	if (len == ULID_B62_TEXT_LEN)
	{
		*form = ULID_FORM_BASE62;
		return ulid_base62_decode(s, len, out, err);
	}
	if (len >= ULID_UUID_MIN_LEN && len <= ULID_UUID_MAX_LEN)
	{
		*form = ULID_FORM_UUID;
		return ulid_uuid_decode(s, len, out, err);
	}
	return ulid_codec_fail(err, ULID_CODEC_NO_FORM, 0, len);
}
