/*
 * Unit tests of the Crockford Base32 core (src/core/base32.c).
 */
#include <stdint.h>
#include <stdlib.h>

#include "base32.h"
#include "unit.h"

/*
 * The encoder by its definition: character k is bits 125-5k .. 129-5k of
 * the 130-bit field, one character at a time (the two-character table of
 * base32.c must give exactly this, in both cases).
 */
static void
ref_encode(const uint8_t in[16], char *out, int lower)
{
	unsigned __int128 v = 0;

	for (int i = 0; i < 16; i++)
		v = (v << 8) | in[i];
	for (int k = 0; k < 26; k++)
	{
		char		c = ulid_b32_alphabet[(int) ((v >> (125 - 5 * k)) & 31)];

		out[k] = lower && c >= 'A' && c <= 'Z' ? (char) (c + 32) : c;
	}
}

static int
decode_str(const char *s, uint8_t out[16], size_t *off)
{
	return ulid_b32_decode(s, strlen(s), out, off);
}

int
main(void)
{
	/* the seed's worked example: 1712345678901 ms and these ten bytes */
	const uint8_t rnd[10] = {12, 240, 88, 3, 199, 45, 6, 231, 128, 17};
	uint8_t		in[16],
				out[16];
	char		txt[27] = {0};
	uint64_t	ms = 1712345678901ULL;
	size_t		off = 0;

	for (int i = 0; i < 6; i++)
		in[i] = (uint8_t) (ms >> (40 - 8 * i));
	memcpy(in + 6, rnd, 10);
	ulid_b32_encode(in, txt);
	CHECK(strcmp(txt, "01HTQW311N1KR5G0Y75M3EF00H") == 0,
		  "seed example encodes to 01HTQW311N1KR5G0Y75M3EF00H (got %s)", txt);
	CHECK(decode_str("01HTQW311N1KR5G0Y75M3EF00H", out, &off) == ULID_B32_OK &&
		  memcmp(in, out, 16) == 0, "seed example decodes back");
	CHECK(decode_str("01htqw311n1kr5g0y75m3ef00h", out, &off) == ULID_B32_OK &&
		  memcmp(in, out, 16) == 0, "lowercase decodes the same");

	/* extremes */
	memset(in, 0, 16);
	ulid_b32_encode(in, txt);
	CHECK(strcmp(txt, "00000000000000000000000000") == 0, "zero encodes to 26 zeros");
	memset(in, 0xFF, 16);
	ulid_b32_encode(in, txt);
	CHECK(strcmp(txt, "7ZZZZZZZZZZZZZZZZZZZZZZZZZ") == 0, "max encodes to 7ZZZ...");
	CHECK(decode_str("7ZZZZZZZZZZZZZZZZZZZZZZZZZ", out, &off) == ULID_B32_OK &&
		  memcmp(in, out, 16) == 0, "7ZZZ... decodes to all ones");

	/* each single bit round-trips: catches a wrong shift at any position */
	{
		int			bad = 0;

		for (int bit = 0; bit < 128; bit++)
		{
			memset(in, 0, 16);
			in[15 - bit / 8] = (uint8_t) (1u << (bit % 8));
			ulid_b32_encode(in, txt);
			if (decode_str(txt, out, &off) != ULID_B32_OK || memcmp(in, out, 16) != 0)
				bad++;
			/* bit b sits in character 25 - b/5 as value 1 << (b%5) */
			if (txt[25 - bit / 5] != ulid_b32_alphabet[1 << (bit % 5)])
				bad++;
		}
		CHECK(bad == 0, "each of the 128 bits lands in the right character (%d bad)", bad);
	}

	/* random round trips, and text order equals byte order */
	{
		int			bad = 0;
		uint8_t		prev[16];
		char		prevtxt[27] = {0};

		srand(12345);
		for (int n = 0; n < 200000; n++)
		{
			for (int i = 0; i < 16; i++)
				in[i] = (uint8_t) rand();
			ulid_b32_encode(in, txt);
			if (decode_str(txt, out, &off) != ULID_B32_OK || memcmp(in, out, 16) != 0)
				bad++;
			if (n > 0)
			{
				int			c1 = memcmp(prev, in, 16);
				int			c2 = strcmp(prevtxt, txt);

				if ((c1 < 0) != (c2 < 0) || (c1 == 0) != (c2 == 0))
					bad++;
			}
			memcpy(prev, in, 16);
			memcpy(prevtxt, txt, 27);
		}
		CHECK(bad == 0, "200000 random values round-trip and sort alike as bytes and text (%d bad)", bad);
	}

	/* both cases against the definition, on values with runs of zeros and ones */
	{
		int			bad = 0;
		char		want[27] = {0},
					low[27] = {0};
		uint64_t	x = 0x9E3779B97F4A7C15u;

		for (int n = 0; n < 1000000; n++)
		{
			for (int i = 0; i < 16; i++)
			{
				x ^= x << 13;
				x ^= x >> 7;
				x ^= x << 17;
				in[i] = (uint8_t) (n % 3 == 0 ? x : n % 3 == 1 ? (x & 1 ? 0xFF : 0) : x & x >> 8);
			}
			ulid_b32_encode(in, txt);
			ref_encode(in, want, 0);
			bad += memcmp(txt, want, 26) != 0;
			ulid_b32_encode_lower(in, low);
			ref_encode(in, want, 1);
			bad += memcmp(low, want, 26) != 0;
		}
		CHECK(bad == 0, "1000000 values encode as the definition says, upper and lower case (%d differ)", bad);
	}

	/* errors, in SPEC order */
	CHECK(decode_str("01HTQW311N1KR5G0Y75M3EF00", out, &off) == ULID_B32_BAD_LENGTH, "25 chars: bad length");
	CHECK(decode_str("01HTQW311N1KR5G0Y75M3EF00HH", out, &off) == ULID_B32_BAD_LENGTH, "27 chars: bad length");
	CHECK(decode_str("", out, &off) == ULID_B32_BAD_LENGTH, "empty: bad length");
	CHECK(decode_str("81HTQW311N1KR5G0Y75M3EF00U", out, &off) == ULID_B32_BAD_CHAR && off == 25,
		  "bad char reported before overflow, at its offset (%zu)", off);
	{
		const char *aliases = "ILOUilou -_";

		for (const char *a = aliases; *a; a++)
		{
			char		s[27] = "01HTQW311N1KR5G0Y75M3EF00H";

			s[5] = *a;
			CHECK(decode_str(s, out, &off) == ULID_B32_BAD_CHAR && off == 5,
				  "'%c' is rejected (no Crockford aliases)", *a);
		}
	}
	CHECK(decode_str("80000000000000000000000000", out, &off) == ULID_B32_OVERFLOW, "first char 8: overflow");
	CHECK(decode_str("ZZZZZZZZZZZZZZZZZZZZZZZZZZ", out, &off) == ULID_B32_OVERFLOW, "first char Z: overflow");
	{
		char		s[27] = "01HTQW311N1KR5G0Y75M3EF00H";

		s[3] = (char) 0xC3;		/* a high byte */
		CHECK(decode_str(s, out, &off) == ULID_B32_BAD_CHAR && off == 3, "high byte rejected");
	}
	for (int c = 0; c < 256; c++)
	{
		int			d = ulid_b32_digit((unsigned char) c);
		const char *p = memchr(ulid_b32_alphabet, c >= 'a' && c <= 'z' ? c - 32 : c, 32);

		if ((p != NULL && c != 0) != (d >= 0) || (p && c != 0 && d != p - ulid_b32_alphabet))
		{
			CHECK(0, "decode table entry %d", c);
			return unit_done();
		}
	}
	CHECK(1, "decode table agrees with the alphabet for all 256 bytes");
	return unit_done();
}
