/*
 * Unit tests of the fixed-width Base62 core (src/core/base62.c), against an
 * independent reference written with unsigned __int128.
 */
#include <stdint.h>
#include <stdlib.h>

#include "base62.h"
#include "bytes.h"
#include "rng.h"
#include "unit.h"

typedef unsigned __int128 u128;

static const char *ref_alpha = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/* reference encoder: 22 characters */
static void
ref_encode(u128 v, char *out)
{
	for (int i = 21; i >= 0; i--)
	{
		out[i] = ref_alpha[(int) (v % 62)];
		v /= 62;
	}
}

static void
u128_bytes(u128 v, uint8_t out[16])
{
	ulid_store_be64(out, (uint64_t) (v >> 64));
	ulid_store_be64(out + 8, (uint64_t) v);
}

static int
dec(const char *s, uint8_t out[16], ulid_codec_error *e)
{
	return ulid_base62_decode(s, strlen(s), out, e);
}

int
main(void)
{
	uint8_t		in[16],
				out[16];
	char		txt[23] = {0},
				ref[23] = {0};
	ulid_codec_error e = {0, 0};
	u128		max = ~(u128) 0;

	memset(in, 0, 16);
	ulid_base62_encode(in, txt);
	CHECK(strcmp(txt, "0000000000000000000000") == 0, "zero is 22 zeros (%s)", txt);
	memset(in, 0xFF, 16);
	ulid_base62_encode(in, txt);
	ref_encode(max, ref);
	CHECK(strcmp(txt, ref) == 0 && strcmp(txt, "7n42DGM5Tflk9n8mt7Fhc7") == 0,
		  "2^128-1 is 7n42DGM5Tflk9n8mt7Fhc7 (%s)", txt);
	CHECK(dec("7n42DGM5Tflk9n8mt7Fhc7", out, &e) == ULID_CODEC_OK && memcmp(in, out, 16) == 0,
		  "7n42DGM5Tflk9n8mt7Fhc7 decodes to all ones");
	CHECK(dec("7n42DGM5Tflk9n8mt7Fhc8", out, &e) == ULID_CODEC_OVERFLOW, "2^128 overflows");
	CHECK(dec("zzzzzzzzzzzzzzzzzzzzzz", out, &e) == ULID_CODEC_OVERFLOW, "62^22-1 overflows");
	CHECK(dec("7n42DGM5Tflk9n8mt7Fhc6", out, &e) == ULID_CODEC_OK && out[15] == 0xFE, "2^128-2 is fine");
	CHECK(dec("000000000000000000000", out, &e) == ULID_CODEC_BAD_LENGTH && e.len == 21,
		  "21 characters: bad length");
	CHECK(dec("00000000000000000000000", out, &e) == ULID_CODEC_BAD_LENGTH && e.len == 23,
		  "23 characters: bad length");
	CHECK(dec("", out, &e) == ULID_CODEC_BAD_LENGTH, "empty: bad length");
	CHECK(dec("00000000000000000-00000", out, &e) == ULID_CODEC_BAD_CHAR && e.pos == 17,
		  "bad character before length (at %zu)", e.pos);
	CHECK(dec("zzzzzzzzzzzzzzzzzzzzz_", out, &e) == ULID_CODEC_BAD_CHAR && e.pos == 21,
		  "bad character before overflow");

	/*
	 * encode_fixed at every width against the reference, for random values
	 * of every bit length (both of its paths: below 62^4 * 2^64, and above)
	 */
	{
		int			bad = 0;
		char		w[23],
					r[23];

		for (int bits = 0; bits <= 128; bits++)
		{
			for (int n = 0; n < 40; n++)
			{
				u128		v = ((u128) test_rng() << 64) | test_rng();
				int			width = 1 + (int) (test_rng() % 22);
				int			need = 1;
				u128		t;

				v = bits == 0 ? 0 : (bits == 128 ? v : v & (((u128) 1 << bits) - 1));
				for (t = v; t >= 62; t /= 62)
					need++;
				ref_encode(v, r);
				if (!ulid_b62_encode_fixed((uint64_t) (v >> 64), (uint64_t) v, width, w))
				{
					if (width >= need)
						bad++;
				}
				else if (width < need || memcmp(w, r + 22 - width, (size_t) width) != 0)
					bad++;
			}
		}
		CHECK(bad == 0, "encode_fixed agrees with the reference at every width and magnitude (%d bad)", bad);
	}

	/* every single bit, and random values of every magnitude */
	{
		int			bad = 0;

		for (int bit = 0; bit < 128; bit++)
		{
			u128		v = (u128) 1 << bit;

			u128_bytes(v, in);
			ulid_base62_encode(in, txt);
			ref_encode(v, ref);
			if (strcmp(txt, ref) != 0 || dec(txt, out, &e) != ULID_CODEC_OK ||
				memcmp(in, out, 16) != 0)
				bad++;
		}
		CHECK(bad == 0, "each of the 128 bits encodes like the reference and round-trips (%d bad)", bad);
	}
	{
		int			bad = 0;
		char		prevtxt[23] = {0};
		u128		prev = 0;

		for (int n = 0; n < 200000; n++)
		{
			u128		v = ((u128) test_rng_any() << 64) | test_rng();

			if (n % 3 == 0)
				v >>= 64 + test_rng() % 64;
			u128_bytes(v, in);
			ulid_base62_encode(in, txt);
			ref_encode(v, ref);
			if (strcmp(txt, ref) != 0 || dec(txt, out, &e) != ULID_CODEC_OK ||
				memcmp(in, out, 16) != 0)
				bad++;
			if (n > 0 && ((prev < v) != (strcmp(prevtxt, txt) < 0)))
				bad++;
			prev = v;
			memcpy(prevtxt, txt, 23);
		}
		CHECK(bad == 0, "200000 random values: reference text, round trip, text order = value order (%d bad)", bad);
	}

	/* the fixed-width primitive at other widths */
	{
		char		buf[22];
		uint64_t	hi,
					lo;

		CHECK(ulid_b62_encode_fixed(0, 61, 1, buf) && buf[0] == 'z', "61 in 1 char is z");
		CHECK(!ulid_b62_encode_fixed(0, 62, 1, buf), "62 does not fit 1 char");
		CHECK(ulid_b62_encode_fixed(0, 218340105584895u, 8, buf) && memcmp(buf, "zzzzzzzz", 8) == 0,
			  "62^8-1 fits 8 chars");
		CHECK(!ulid_b62_encode_fixed(0, 218340105584896u, 8, buf), "62^8 does not fit 8 chars");
		CHECK(ulid_b62_value_u64("zzzzzzzzzz", 10) == UINT64_C(839299365868340223), "zzzzzzzzzz is 62^10-1");
		CHECK(ulid_b62_value_u64("0000000001", 10) == 1 && ulid_b62_value_u64("", 0) == 0,
			  "leading zeros; no characters is zero");
		ulid_b62_mul_add(UINT64_MAX, UINT64_MAX, UINT64_MAX, &hi, &lo);
		CHECK(hi == UINT64_MAX && lo == 0, "(2^64-1)^2 + 2^64-1 = 2^128 - 2^64");
		ulid_b62_mul_add(UINT64_C(0x123456789abcdef0), UINT64_C(0xfedcba9876543210), 7, &hi, &lo);
		CHECK((((u128) hi << 64) | lo) == (u128) UINT64_C(0x123456789abcdef0) * UINT64_C(0xfedcba9876543210) + 7,
			  "64 x 64 -> 128-bit multiply-add agrees with __int128");
	}

	for (int c = 0; c < 256; c++)
	{
		const char *p = c ? memchr(ref_alpha, c, 62) : NULL;
		int			d = ulid_b62_digit((unsigned char) c);

		if ((p ? (int) (p - ref_alpha) : -1) != d)
		{
			CHECK(0, "decode table entry %d", c);
			return unit_done();
		}
	}
	CHECK(1, "decode table agrees with the alphabet for all 256 bytes");
	return unit_done();
}
