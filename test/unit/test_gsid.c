/*
 * Unit tests of the GSID core (src/core/gsid.c).
 */
#include <stdint.h>
#include <stdlib.h>

#include "base32.h"
#include "bytes.h"
#include "gsid.h"
#include "rng.h"
#include "unit.h"

static int
dec(const char *s, uint8_t id[16], size_t *plen, uint32_t *ns, ulid_codec_error *e)
{
	return ulid_gsid_decode(s, strlen(s), id, plen, ns, e);
}

/* encode to a NUL-terminated string; returns the status */
static int
enc(const uint8_t id[16], const char *prefix, uint32_t ns, char *out)
{
	size_t		plen = strlen(prefix);
	int			st = ulid_gsid_encode(id, prefix, plen, ns, out);

	out[st == ULID_CODEC_OK ? plen + 1 + ULID_GSID_BODY_LEN : 0] = '\0';
	return st;
}

static void
make_id(uint64_t ms, uint64_t rnd_hi16, uint64_t rnd_lo, uint8_t id[16])
{
	ulid_store_be64(id, (ms << 16) | rnd_hi16);
	ulid_store_be64(id + 8, rnd_lo);
}

int
main(void)
{
	const char *seed = "usr_0UfgmdjM46GLys2pzvVCof2nyJ8Y";
	uint8_t		id[16],
				back[16];
	char		txt[128],
				b32[27] = {0};
	size_t		plen = 0;
	uint32_t	ns = 0;
	ulid_codec_error e = {0, 0};

	/* the seed's example: decodes, and re-encodes from its parts */
	CHECK(dec(seed, id, &plen, &ns, &e) == ULID_CODEC_OK, "the seed's GSID decodes");
	ulid_b32_encode(id, b32);
	CHECK(plen == 3 && memcmp(seed, "usr", 3) == 0 && ns == 3757087090u &&
		  (ulid_load_be64(id) >> 16) == UINT64_C(1742200712216) &&
		  strcmp(b32, "01JPHM2B0RF0YRM2H2C0VAG3WE") == 0,
		  "prefix usr, namespace 3757087090, ULID 01JPHM2B0RF0YRM2H2C0VAG3WE (2025-03-17T08:38:32.216Z) (got %s)", b32);
	CHECK(enc(id, "usr", ns, txt) == ULID_CODEC_OK && strcmp(txt, seed) == 0,
		  "ULID + usr + 3757087090 encode to the seed's text (%s)", txt);

	/* edges of each part */
	make_id(0, 0, 0, id);
	CHECK(enc(id, "a", 0, txt) == ULID_CODEC_OK && strcmp(txt, "a_0000000000000000000000000000") == 0,
		  "zero encodes to 28 zeros (%s)", txt);
	make_id(UINT64_C(218340105584895), 0xFFFF, UINT64_MAX, id);
	CHECK(enc(id, "abc", UINT32_MAX, txt) == ULID_CODEC_OK &&
		  strcmp(txt, "abc_zzzzzzzz4gfFC362iEp5bu9VZbsV") == 0, "largest GSID (%s)", txt);
	CHECK(dec(txt, back, &plen, &ns, &e) == ULID_CODEC_OK && memcmp(id, back, 16) == 0 &&
		  ns == UINT32_MAX, "largest GSID decodes back");
	make_id(UINT64_C(218340105584896), 0, 0, id);
	CHECK(enc(id, "abc", 0, txt) == ULID_CODEC_TIME_OVERFLOW, "time 62^8 ms does not fit");
	make_id(UINT64_C(0xFFFFFFFFFFFF), 0, 0, id);
	CHECK(enc(id, "abc", 0, txt) == ULID_CODEC_TIME_OVERFLOW, "the largest ULID time does not fit");

	CHECK(dec("abc_zzzzzzzz4gfFC462iEp5bu9VZbsV", id, &plen, &ns, &e) == ULID_CODEC_NAMESPACE_OVERFLOW &&
		  e.pos == 12 && e.len == 6, "namespace 2^32 is out of range, located");
	CHECK(dec("abc_zzzzzzzzzzzzzzzzzzzzzzzzzzzz", id, &plen, &ns, &e) == ULID_CODEC_NAMESPACE_OVERFLOW,
		  "namespace zzzzzz is out of range");
	CHECK(dec("abc_zzzzzzzz4gfFC362iEp5bu9VZbsW", id, &plen, &ns, &e) == ULID_CODEC_RANDOM_OVERFLOW &&
		  e.pos == 18 && e.len == 14, "randomness 2^80 is out of range, located");

	/* malformed */
	CHECK(dec("0UfgmdjM46GLys2pzvVCof2nyJ8Y", id, &plen, &ns, &e) == ULID_CODEC_NO_SEPARATOR, "no separator");
	CHECK(dec("_0UfgmdjM46GLys2pzvVCof2nyJ8Y", id, &plen, &ns, &e) == ULID_CODEC_EMPTY_PREFIX, "empty prefix");
	CHECK(dec("Usr_0UfgmdjM46GLys2pzvVCof2nyJ8Y", id, &plen, &ns, &e) == ULID_CODEC_PREFIX_BAD_CHAR && e.pos == 0,
		  "uppercase prefix");
	CHECK(dec("us_r_0UfgmdjM46GLys2pzvVCof2nyJ8Y", id, &plen, &ns, &e) == ULID_CODEC_PREFIX_BAD_CHAR && e.pos == 2,
		  "underscore inside the prefix");
	CHECK(dec("u1r_0UfgmdjM46GLys2pzvVCof2nyJ8Y", id, &plen, &ns, &e) == ULID_CODEC_PREFIX_BAD_CHAR && e.pos == 1,
		  "digit in the prefix");
	{
		char		s[128];

		memset(s, 'a', 64);
		strcpy(s + 64, "_0UfgmdjM46GLys2pzvVCof2nyJ8Y");
		CHECK(dec(s, id, &plen, &ns, &e) == ULID_CODEC_PREFIX_TOO_LONG && e.len == 64, "64-character prefix");
		CHECK(dec(s + 1, id, &plen, &ns, &e) == ULID_CODEC_OK && plen == 63, "63-character prefix");
	}
	CHECK(dec("usr_0UfgmdjM46GLys2pzvVCof2nyJ8", id, &plen, &ns, &e) == ULID_CODEC_BAD_LENGTH &&
		  e.pos == 4 && e.len == 27, "27-character body");
	CHECK(dec("usr_0UfgmdjM46GLys2pzvVCof2nyJ8YY", id, &plen, &ns, &e) == ULID_CODEC_BAD_LENGTH, "29-character body");
	CHECK(dec("usr_", id, &plen, &ns, &e) == ULID_CODEC_BAD_LENGTH, "empty body");
	CHECK(dec("usr_0UfgmdjM46GLys2pzvVCof2n-J8Y", id, &plen, &ns, &e) == ULID_CODEC_BAD_CHAR && e.pos == 28,
		  "bad body character, located (%zu)", e.pos);
	CHECK(dec("usr_0Ufg-djM46GLys2pzvVCof2nyJ8YY", id, &plen, &ns, &e) == ULID_CODEC_BAD_CHAR,
		  "bad character before bad length");

	/* random round trips; text order within a prefix is (time, namespace, randomness) order */
	{
		int			bad = 0;

		for (int n = 0; n < 100000; n++)
		{
			char		prefix[64];
			int			pl = 1 + (int) (test_rng() % 63);
			uint32_t	x = (uint32_t) test_rng_any();

			for (int i = 0; i < pl; i++)
				prefix[i] = (char) ('a' + test_rng() % 26);
			prefix[pl] = '\0';
			make_id(test_rng_any() % UINT64_C(218340105584896), test_rng() & 0xFFFF, test_rng_any(), id);
			if (enc(id, prefix, x, txt) != ULID_CODEC_OK ||
				strlen(txt) != (size_t) pl + 29 ||
				dec(txt, back, &plen, &ns, &e) != ULID_CODEC_OK ||
				memcmp(id, back, 16) != 0 || ns != x || plen != (size_t) pl ||
				memcmp(txt, prefix, (size_t) pl) != 0)
				bad++;
		}
		CHECK(bad == 0, "100000 random GSIDs round-trip (%d bad)", bad);
	}
	return unit_done();
}
