/*
 * fuzz_codecs.c: libFuzzer target for every text decoder of the pure-C core
 * (src/core: radix, Base62, GSID, TypeID, UUID hex, Crockford Base32 and the
 * any-form parser) and for the encoders behind them.
 *
 * The first input byte selects what to run; the rest is the text (or, for
 * the encoders, the bytes of a value).  Beyond "no crash, no sanitizer
 * report", every accepted text must re-encode to itself (canonical forms),
 * or to its canonical spelling (case-insensitive and padded forms), and
 * every value must decode back from its encoding.  A violation aborts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base32.h"
#include "base62.h"
#include "bytes.h"
#include "gsid.h"
#include "parse.h"
#include "radix.h"
#include "typeid.h"

#define REQUIRE(cond) do { if (!(cond)) abort(); } while (0)

/* ASCII lowercase of s into out */
static void
lower(const char *s, size_t len, char *out)
{
	for (size_t i = 0; i < len; i++)
		out[i] = (s[i] >= 'A' && s[i] <= 'Z') ? (char) (s[i] + 32) : s[i];
}

/* The error of a failed decode must lie within the input. */
static void
check_error(ulid_codec_status st, const ulid_codec_error *e, size_t len)
{
	if (st != ULID_CODEC_OK)
		REQUIRE(e->pos <= len && e->len <= len - e->pos);
}

static void
fuzz_radix(const char *s, size_t len, int radix)
{
	uint64_t	v;
	ulid_codec_error e;
	ulid_codec_status st = ulid_radix_decode(s, len, radix, &v, &e);
	char		out[ULID_RADIX_MAX_WIDTH];
	char		canon[ULID_RADIX_MAX_WIDTH];
	size_t		n,
				zeros = 0;
	uint64_t	back;

	check_error(st, &e, len);
	if (st != ULID_CODEC_OK)
		return;
	/* canonical spelling: no leading zeros (but "0"), lowercase up to 36 */
	while (zeros + 1 < len && s[zeros] == '0')
		zeros++;
	REQUIRE(len - zeros <= ULID_RADIX_MAX_WIDTH);
	if (radix <= 36)
		lower(s + zeros, len - zeros, canon);
	else
		memcpy(canon, s + zeros, len - zeros);
	REQUIRE(ulid_radix_encode(v, radix, 0, out, &n) == ULID_CODEC_OK);
	REQUIRE(n == len - zeros && memcmp(out, canon, n) == 0);
	/* padded back to the input's width when that is possible */
	if (len <= ULID_RADIX_MAX_WIDTH)
	{
		REQUIRE(ulid_radix_encode(v, radix, (int) len, out, &n) == ULID_CODEC_OK && n == len);
		REQUIRE(ulid_radix_decode(out, n, radix, &back, &e) == ULID_CODEC_OK && back == v);
	}
}

static void
fuzz_base62(const char *s, size_t len)
{
	uint8_t		id[16];
	char		out[ULID_B62_TEXT_LEN];
	ulid_codec_error e;
	ulid_codec_status st = ulid_base62_decode(s, len, id, &e);

	check_error(st, &e, len);
	if (st != ULID_CODEC_OK)
		return;
	ulid_base62_encode(id, out);
	REQUIRE(len == ULID_B62_TEXT_LEN && memcmp(out, s, len) == 0);
}

static void
fuzz_gsid(const char *s, size_t len)
{
	uint8_t		id[16];
	size_t		plen;
	uint32_t	ns;
	char	   *out;
	ulid_codec_error e;
	ulid_codec_status st = ulid_gsid_decode(s, len, id, &plen, &ns, &e);

	check_error(st, &e, len);
	if (st != ULID_CODEC_OK)
		return;
	REQUIRE(ulid_gsid_check_prefix(s, plen, &e) == ULID_CODEC_OK);
	out = malloc(plen + 1 + ULID_GSID_BODY_LEN);
	REQUIRE(out != NULL);
	REQUIRE(ulid_gsid_encode(id, s, plen, ns, out) == ULID_CODEC_OK);
	REQUIRE(len == plen + 1 + ULID_GSID_BODY_LEN && memcmp(out, s, len) == 0);
	free(out);
}

static void
fuzz_typeid(const char *s, size_t len)
{
	uint8_t		id[16];
	size_t		plen,
				n;
	char	   *out;
	ulid_codec_error e;
	ulid_codec_status st = ulid_typeid_decode(s, len, id, &plen, &e);

	check_error(st, &e, len);
	if (st != ULID_CODEC_OK)
		return;
	REQUIRE(ulid_typeid_check_prefix(s, plen, &e) == ULID_CODEC_OK);
	out = malloc(plen + 1 + ULID_TYPEID_SUFFIX_LEN);
	REQUIRE(out != NULL);
	n = ulid_typeid_encode(id, s, plen, out);
	REQUIRE(n == len && memcmp(out, s, len) == 0);
	free(out);
}

/* 16 bytes to 32 lowercase hex digits */
static void
hex32(const uint8_t id[16], char out[32])
{
	static const char hx[] = "0123456789abcdef";

	for (int i = 0; i < 16; i++)
	{
		out[2 * i] = hx[id[i] >> 4];
		out[2 * i + 1] = hx[id[i] & 15];
	}
}

static void
fuzz_uuid(const char *s, size_t len)
{
	uint8_t		id[16];
	char		digits[ULID_UUID_MAX_LEN],
				hex[32];
	size_t		n = 0;
	ulid_codec_error e;
	ulid_codec_status st = ulid_uuid_decode(s, len, id, &e);

	check_error(st, &e, len);
	if (st != ULID_CODEC_OK)
		return;
	/* accepted text is the 32 digits plus hyphens and one pair of braces */
	REQUIRE(len >= ULID_UUID_MIN_LEN && len <= ULID_UUID_MAX_LEN);
	REQUIRE((s[0] == '{') == (s[len - 1] == '}'));
	for (size_t i = 0; i < len; i++)
		if (s[i] != '-' && s[i] != '{' && s[i] != '}')
			digits[n++] = s[i];
	REQUIRE(n == 32);
	lower(digits, n, digits);
	hex32(id, hex);
	REQUIRE(memcmp(hex, digits, 32) == 0);
}

static void
fuzz_base32(const char *s, size_t len)
{
	uint8_t		id[16];
	char		out[ULID_TEXT_LEN],
				up[ULID_TEXT_LEN];
	size_t		off = 0;

	if (ulid_b32_decode(s, len, id, &off) != ULID_B32_OK)
	{
		REQUIRE(off < len || len != ULID_TEXT_LEN || off == 0);
		return;
	}
	ulid_b32_encode(id, out);
	for (size_t i = 0; i < len; i++)
		up[i] = (s[i] >= 'a' && s[i] <= 'z') ? (char) (s[i] - 32) : s[i];
	REQUIRE(memcmp(out, up, ULID_TEXT_LEN) == 0);
}

/* The any-form parser must agree with the decoder of the form it picks. */
static void
fuzz_parse(const char *s, size_t len)
{
	uint8_t		id[16],
				other[16];
	ulid_text_form form;
	ulid_codec_error e;
	ulid_codec_status st = ulid_parse_text(s, len, id, &form, &e);
	size_t		plen;
	uint32_t	ns;

	check_error(st, &e, len);
	if (st != ULID_CODEC_OK)
		return;
	switch (form)
	{
		case ULID_FORM_ULID:
			REQUIRE(ulid_b32_decode(s, len, other, NULL) == ULID_B32_OK);
			break;
		case ULID_FORM_UUID:
			REQUIRE(ulid_uuid_decode(s, len, other, NULL) == ULID_CODEC_OK);
			break;
		case ULID_FORM_BASE62:
			REQUIRE(ulid_base62_decode(s, len, other, NULL) == ULID_CODEC_OK);
			break;
		case ULID_FORM_TYPEID:
			REQUIRE(ulid_typeid_decode(s, len, other, &plen, NULL) == ULID_CODEC_OK);
			break;
		case ULID_FORM_GSID:
			REQUIRE(ulid_gsid_decode(s, len, other, &plen, &ns, NULL) == ULID_CODEC_OK);
			break;
		default:
			abort();
	}
	REQUIRE(memcmp(id, other, 16) == 0);
}

/* Encoders: every value decodes back from each of its texts. */
static void
fuzz_encoders(const uint8_t *data, size_t size)
{
	uint8_t		id[16] = {0},
				back[16];
	char		txt[ULID_RADIX_MAX_WIDTH + 64];
	ulid_text_form form;
	size_t		n,
				plen;
	uint32_t	ns = 0;
	uint64_t	v,
				w;
	int			radix,
				width;
	ulid_codec_status st;

	memcpy(id, data, size < 16 ? size : 16);
	if (size > 16)
		memcpy(&ns, data + 16, size - 16 < 4 ? size - 16 : 4);
	radix = ULID_RADIX_MIN + (size > 20 ? data[20] : 0) % (ULID_RADIX_MAX - 1);
	width = size > 21 ? data[21] % (ULID_RADIX_MAX_WIDTH + 1) : 0;

	ulid_base62_encode(id, txt);
	REQUIRE(ulid_base62_decode(txt, ULID_B62_TEXT_LEN, back, NULL) == ULID_CODEC_OK &&
			memcmp(id, back, 16) == 0);

	n = ulid_typeid_encode(id, "a_b", 3, txt);
	REQUIRE(ulid_parse_text(txt, n, back, &form, NULL) == ULID_CODEC_OK &&
			form == ULID_FORM_TYPEID && memcmp(id, back, 16) == 0);

	st = ulid_gsid_encode(id, "usr", 3, ns, txt);
	REQUIRE(st == ULID_CODEC_OK || st == ULID_CODEC_TIME_OVERFLOW);
	REQUIRE((st == ULID_CODEC_OK) == ((ulid_load_be64(id) >> 16) <= (uint64_t) ULID_GSID_MAX_UNIX_MS));
	if (st == ULID_CODEC_OK)
	{
		uint32_t	ns2;

		REQUIRE(ulid_gsid_decode(txt, 3 + 1 + ULID_GSID_BODY_LEN, back, &plen, &ns2, NULL) == ULID_CODEC_OK &&
				memcmp(id, back, 16) == 0 && ns2 == ns && plen == 3);
	}

	v = ulid_load_be64(id);
	st = ulid_radix_encode(v, radix, width, txt, &n);
	if (st == ULID_CODEC_OK)
		REQUIRE(ulid_radix_decode(txt, n, radix, &w, NULL) == ULID_CODEC_OK && w == v);
	else
	{
		REQUIRE(st == ULID_CODEC_TOO_WIDE && width > 0);
		REQUIRE(ulid_radix_encode(v, radix, 0, txt, &n) == ULID_CODEC_OK && n > (size_t) width);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s;
	size_t		len;

	if (size < 1)
		return 0;
	s = (const char *) data + 1;
	len = size - 1;
	switch (data[0] % 8)
	{
		case 0:
			if (len < 1)
				return 0;
			fuzz_radix(s + 1, len - 1, ULID_RADIX_MIN + (unsigned char) s[0] % (ULID_RADIX_MAX - 1));
			break;
		case 1:
			fuzz_base62(s, len);
			break;
		case 2:
			fuzz_gsid(s, len);
			break;
		case 3:
			fuzz_typeid(s, len);
			break;
		case 4:
			fuzz_uuid(s, len);
			break;
		case 5:
			fuzz_base32(s, len);
			break;
		case 6:
			fuzz_parse(s, len);
			break;
		case 7:
			fuzz_encoders(data + 1, len);
			break;
	}
	return 0;
}
