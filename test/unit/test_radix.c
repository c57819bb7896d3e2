/*
 * Unit tests of the radix 2-62 core (src/core/radix.c), against strtoull
 * (radix <= 36) and a plain reference encoder.
 */
#include <stdint.h>
#include <stdlib.h>

#include "radix.h"
#include "rng.h"
#include "unit.h"

static const char *ref62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
static const char *ref36 = "0123456789abcdefghijklmnopqrstuvwxyz";

/* reference: shortest text of v in radix, NUL-terminated */
static void
ref_encode(uint64_t v, int radix, char *out)
{
	char		tmp[65];
	int			n = 0;

	do
	{
		tmp[n++] = (radix <= 36 ? ref36 : ref62)[v % (uint64_t) radix];
		v /= (uint64_t) radix;
	} while (v);
	for (int i = 0; i < n; i++)
		out[i] = tmp[n - 1 - i];
	out[n] = '\0';
}

/* encode into a NUL-terminated string; returns the status */
static int
enc(uint64_t v, int radix, int width, char *out)
{
	size_t		len = 0;
	int			st = ulid_radix_encode(v, radix, width, out, &len);

	out[st == ULID_CODEC_OK ? len : 0] = '\0';
	return st;
}

static int
dec(const char *s, int radix, uint64_t *v, ulid_codec_error *e)
{
	return ulid_radix_decode(s, strlen(s), radix, v, e);
}

int
main(void)
{
	char		txt[ULID_RADIX_MAX_WIDTH + 1],
				ref[ULID_RADIX_MAX_WIDTH + 1];
	uint64_t	v = 0;
	ulid_codec_error e = {0, 0};

	/* edges in every radix: 0, 1, radix - 1, radix, 2^63, 2^64 - 1 */
	{
		int			bad = 0;

		for (int r = ULID_RADIX_MIN; r <= ULID_RADIX_MAX; r++)
		{
			uint64_t	edges[] = {0, 1, (uint64_t) r - 1, (uint64_t) r,
			UINT64_C(1) << 63, UINT32_MAX, (uint64_t) UINT32_MAX + 1, UINT64_MAX};

			for (size_t k = 0; k < sizeof(edges) / sizeof(edges[0]); k++)
			{
				ref_encode(edges[k], r, ref);
				if (enc(edges[k], r, 0, txt) != ULID_CODEC_OK || strcmp(txt, ref) != 0 ||
					dec(txt, r, &v, &e) != ULID_CODEC_OK || v != edges[k])
					bad++;
			}
		}
		CHECK(bad == 0, "edge values round-trip in every radix 2-62 (%d bad)", bad);
	}

	/* random values in every radix, with and without width */
	{
		int			bad = 0;

		for (int n = 0; n < 300000; n++)
		{
			int			r = ULID_RADIX_MIN + (int) (test_rng() % 61);
			uint64_t	x = test_rng_any();
			int			width = (int) (test_rng() % 65);

			ref_encode(x, r, ref);
			if (r <= 36 && strtoull(ref, NULL, r) != x)
				bad++;
			if (width == 0 || (size_t) width >= strlen(ref))
			{
				if (enc(x, r, width, txt) != ULID_CODEC_OK ||
					strlen(txt) != (width ? (size_t) width : strlen(ref)) ||
					strcmp(txt + strlen(txt) - strlen(ref), ref) != 0 ||
					strspn(txt, "0") < strlen(txt) - strlen(ref) ||
					dec(txt, r, &v, &e) != ULID_CODEC_OK || v != x)
					bad++;
			}
			else if (enc(x, r, width, txt) != ULID_CODEC_TOO_WIDE)
				bad++;
		}
		CHECK(bad == 0, "300000 random values: reference text, padding, too-wide, round trip (%d bad)", bad);
	}

	/* fixed width sorts like the value (byte-wise) */
	{
		int			bad = 0;
		char		a[65],
					b[65];

		for (int n = 0; n < 100000; n++)
		{
			int			r = ULID_RADIX_MIN + (int) (test_rng() % 61);
			uint64_t	x = test_rng_any(),
						y = test_rng_any();

			enc(x, r, 64, a);
			enc(y, r, 64, b);
			if ((x < y) != (strcmp(a, b) < 0) || (x == y) != (strcmp(a, b) == 0))
				bad++;
		}
		CHECK(bad == 0, "width-64 text sorts like the value in every radix (%d bad)", bad);
	}

	CHECK(enc(0, 62, 0, txt) == ULID_CODEC_OK && strcmp(txt, "0") == 0, "0 is \"0\"");
	CHECK(enc(UINT64_MAX, 62, 0, txt) == ULID_CODEC_OK && strcmp(txt, "LygHa16AHYF") == 0,
		  "2^64-1 in base 62 is LygHa16AHYF (%s)", txt);
	CHECK(enc(UINT64_MAX, 62, 11, txt) == ULID_CODEC_OK, "2^64-1 fits width 11 in base 62");
	CHECK(enc(UINT64_MAX, 62, 10, txt) == ULID_CODEC_TOO_WIDE, "2^64-1 does not fit width 10 in base 62");
	CHECK(enc(UINT64_MAX, 2, 64, txt) == ULID_CODEC_OK && strspn(txt, "1") == 64, "2^64-1 is 64 ones in base 2");
	CHECK(enc(255, 16, 4, txt) == ULID_CODEC_OK && strcmp(txt, "00ff") == 0, "255 in base 16 width 4 is 00ff");
	CHECK(enc(35, 36, 0, txt) == ULID_CODEC_OK && strcmp(txt, "z") == 0, "radix 36 writes lowercase");
	CHECK(enc(35, 37, 0, txt) == ULID_CODEC_OK && strcmp(txt, "Z") == 0, "radix 37 writes uppercase for 35");
	CHECK(enc(36, 37, 0, txt) == ULID_CODEC_OK && strcmp(txt, "a") == 0, "radix 37 writes a for 36");

	CHECK(dec("Z", 36, &v, &e) == ULID_CODEC_OK && v == 35, "radix 36 reads Z as 35");
	CHECK(dec("z", 36, &v, &e) == ULID_CODEC_OK && v == 35, "radix 36 reads z as 35");
	CHECK(dec("Z", 62, &v, &e) == ULID_CODEC_OK && v == 35, "radix 62 reads Z as 35");
	CHECK(dec("z", 62, &v, &e) == ULID_CODEC_OK && v == 61, "radix 62 reads z as 61");
	CHECK(dec("a", 37, &v, &e) == ULID_CODEC_OK && v == 36, "radix 37 reads a as 36");
	CHECK(dec("b", 37, &v, &e) == ULID_CODEC_BAD_CHAR && e.pos == 0, "radix 37 rejects b");
	CHECK(dec("2", 2, &v, &e) == ULID_CODEC_BAD_CHAR, "radix 2 rejects 2");
	CHECK(dec("a", 10, &v, &e) == ULID_CODEC_BAD_CHAR, "radix 10 rejects a");
	CHECK(dec("", 10, &v, &e) == ULID_CODEC_BAD_LENGTH, "empty text is rejected");
	CHECK(dec("000000000000000000000000000000000000000000000000000000000000000000000042", 10, &v, &e) == ULID_CODEC_OK &&
		  v == 42, "many leading zeros are fine");
	CHECK(dec("18446744073709551615", 10, &v, &e) == ULID_CODEC_OK && v == UINT64_MAX, "2^64-1 in decimal");
	CHECK(dec("18446744073709551616", 10, &v, &e) == ULID_CODEC_OVERFLOW, "2^64 overflows");
	CHECK(dec("99999999999999999999", 10, &v, &e) == ULID_CODEC_OVERFLOW, "20 nines overflow");
	CHECK(dec("LygHa16AHYG", 62, &v, &e) == ULID_CODEC_OVERFLOW, "2^64 in base 62 overflows");
	CHECK(dec("1" "0000000000000000000000000000000000000000000000000000000000000000", 2, &v, &e) == ULID_CODEC_OVERFLOW,
		  "65 binary digits overflow");
	CHECK(dec("999999999999999999999!", 10, &v, &e) == ULID_CODEC_BAD_CHAR && e.pos == 21,
		  "a bad character is reported before an overflow");
	CHECK(dec("-1", 10, &v, &e) == ULID_CODEC_BAD_CHAR && e.pos == 0, "no sign");
	CHECK(dec(" 1", 10, &v, &e) == ULID_CODEC_BAD_CHAR, "no spaces");
	CHECK(dec("1\xC3\xA9", 10, &v, &e) == ULID_CODEC_BAD_CHAR && e.pos == 1, "a high byte is rejected at its offset");

	for (int r = ULID_RADIX_MIN; r <= ULID_RADIX_MAX; r++)
		for (int c = 0; c < 256; c++)
		{
			const char *alpha = r <= 36 ? ref36 : ref62;
			int			lc = (r <= 36 && c >= 'A' && c <= 'Z') ? c + 32 : c;
			const char *p = lc ? memchr(alpha, lc, (size_t) r) : NULL;

			if ((p ? (int) (p - alpha) : -1) != ulid_radix_digit((unsigned char) c, r))
			{
				CHECK(0, "digit table: radix %d byte %d", r, c);
				return unit_done();
			}
		}
	CHECK(1, "digit values agree with the alphabets for every radix and byte");
	return unit_done();
}
