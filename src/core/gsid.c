/*-------------------------------------------------------------------------
 *
 * gsid.c
 *	  GSID text of ULIDs (pure C, no PostgreSQL calls).
 *
 *-------------------------------------------------------------------------
 */
#include "gsid.h"

#include <string.h>

#include "base62.h"
#include "bytes.h"

ulid_codec_status
ulid_gsid_check_prefix(const char *prefix, size_t len, ulid_codec_error *err)
{
	if (len == 0)
		return ulid_codec_fail(err, ULID_CODEC_EMPTY_PREFIX, 0, 0);
	for (size_t i = 0; i < len; i++)
		if (prefix[i] < 'a' || prefix[i] > 'z')
			return ulid_codec_fail(err, ULID_CODEC_PREFIX_BAD_CHAR, i, 1);
	if (len > ULID_GSID_PREFIX_MAX)
		return ulid_codec_fail(err, ULID_CODEC_PREFIX_TOO_LONG, 0, len);
	return ULID_CODEC_OK;
}

ulid_codec_status
ulid_gsid_encode(const uint8_t id[16], const char *prefix, size_t prefix_len,
				 uint32_t ns, char *out)
{
	uint64_t	hi = ulid_load_be64(id);
	uint64_t	lo = ulid_load_be64(id + 8);
	uint64_t	ms = hi >> 16;

	if (ms > (uint64_t) ULID_GSID_MAX_UNIX_MS)
		return ULID_CODEC_TIME_OVERFLOW;
	memcpy(out, prefix, prefix_len);
	out += prefix_len;
	*out++ = '_';
	ulid_b62_encode_gsid_body(ms, ns, hi & 0xFFFF, lo, out);
	return ULID_CODEC_OK;
}

ulid_codec_status
ulid_gsid_decode(const char *s, size_t len, uint8_t id[16], size_t *prefix_len,
				 uint32_t *ns, ulid_codec_error *err)
{
	size_t		sep = ulid_codec_last_underscore(s, len);
	const char *body = s + sep + 1;
	size_t		body_len;
	size_t		bad;
	uint64_t	ms,
				ns64,
				rnd_hi,
				rnd_lo;
	ulid_codec_status st;

	if (sep == len)
		return ulid_codec_fail(err, ULID_CODEC_NO_SEPARATOR, 0, len);
	st = ulid_gsid_check_prefix(s, sep, err);
	if (st != ULID_CODEC_OK)
		return st;

	body_len = len - sep - 1;
	bad = ulid_b62_first_bad(body, body_len);
	if (bad < body_len)
		return ulid_codec_fail(err, ULID_CODEC_BAD_CHAR, sep + 1 + bad, 1);
	if (body_len != ULID_GSID_BODY_LEN)
		return ulid_codec_fail(err, ULID_CODEC_BAD_LENGTH, sep + 1, body_len);

	/* 8 and 6 characters fit 64 bits; the 14 random ones are 4 + 10 */
	ms = ulid_b62_value_u64(body, ULID_GSID_TIME_CHARS);
	body += ULID_GSID_TIME_CHARS;
	ns64 = ulid_b62_value_u64(body, ULID_GSID_NS_CHARS);
	if (ns64 > UINT32_MAX)
		return ulid_codec_fail(err, ULID_CODEC_NAMESPACE_OVERFLOW,
							   sep + 1 + ULID_GSID_TIME_CHARS, ULID_GSID_NS_CHARS);
	body += ULID_GSID_NS_CHARS;
	ulid_b62_mul_add(ulid_b62_value_u64(body, 4), ULID_B62_POW10,
					 ulid_b62_value_u64(body + 4, 10), &rnd_hi, &rnd_lo);
	if (rnd_hi > 0xFFFF)
		return ulid_codec_fail(err, ULID_CODEC_RANDOM_OVERFLOW,
							   len - ULID_GSID_RANDOM_CHARS, ULID_GSID_RANDOM_CHARS);

	ulid_store_be64(id, (ms << 16) | rnd_hi);
	ulid_store_be64(id + 8, rnd_lo);
	*prefix_len = sep;
	*ns = (uint32_t) ns64;
	return ULID_CODEC_OK;
}
