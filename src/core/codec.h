/*-------------------------------------------------------------------------
 *
 * codec.h
 *	  What the text codecs of the pure-C core report (no PostgreSQL calls).
 *
 * Every decoder returns one status and fills a ulid_codec_error that
 * locates the offending part of the input, so the fmgr glue can name the
 * character and its position.  Decoders check, left to right: separators
 * and prefixes, then every character of a part against its alphabet, then
 * the part's length, then whether the value fits.  An error is thus always
 * at a character boundary even in multibyte text: all bytes before it were
 * ASCII.
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_CODEC_H
#define ULID_CODEC_H

#include <stddef.h>
#include <stdint.h>

typedef enum ulid_codec_status
{
	ULID_CODEC_OK = 0,

	/* malformed text (SQLSTATE 22P02) */
	ULID_CODEC_BAD_CHAR,		/* byte at pos is outside the part's alphabet */
	ULID_CODEC_BAD_LENGTH,		/* the part at pos has len bytes: wrong */
	ULID_CODEC_NO_SEPARATOR,	/* no '_' after the prefix */
	ULID_CODEC_EMPTY_PREFIX,	/* '_' with nothing before it */
	ULID_CODEC_PREFIX_TOO_LONG, /* the prefix at pos has len > 63 bytes */
	ULID_CODEC_PREFIX_BAD_CHAR, /* byte at pos is not allowed in a prefix */
	ULID_CODEC_PREFIX_UNDERSCORE,	/* TypeID prefix starts or ends with '_' */
	ULID_CODEC_NO_FORM,			/* ulid_parse: the shape fits no form */

	/* out of range (SQLSTATE 22003) */
	ULID_CODEC_OVERFLOW,		/* the part at pos holds more than its bits */
	ULID_CODEC_NAMESPACE_OVERFLOW,	/* GSID namespace at pos >= 2^32 */
	ULID_CODEC_RANDOM_OVERFLOW, /* GSID randomness at pos >= 2^80 */
	ULID_CODEC_TIME_OVERFLOW,	/* GSID encode: time >= 62^8 ms */
	ULID_CODEC_TOO_WIDE			/* radix encode: more digits than width */
} ulid_codec_status;

/* true for the statuses that mean "out of range" rather than "malformed" */
#define ULID_CODEC_IS_RANGE_ERROR(st) ((st) >= ULID_CODEC_OVERFLOW)

/* Where a decoder found the problem: byte offset and length of the part. */
typedef struct ulid_codec_error
{
	size_t		pos;
	size_t		len;
} ulid_codec_error;

/* Record a failure at (pos, len) and return status st. */
static inline ulid_codec_status
ulid_codec_fail(ulid_codec_error *err, ulid_codec_status st,
				size_t pos, size_t len)
{
	if (err)
	{
		err->pos = pos;
		err->len = len;
	}
	return st;
}

/* Offset of the last '_' in s[0..len), or len when there is none. */
static inline size_t
ulid_codec_last_underscore(const char *s, size_t len)
{
	for (size_t i = len; i > 0; i--)
		if (s[i - 1] == '_')
			return i - 1;
	return len;
}

#endif							/* ULID_CODEC_H */
