/*
 * Unit tests of RFC 4648 base32hex of 16 bytes (src/core/base32hex.c),
 * against a reference that encodes bit by bit, as RFC 4648 section 6
 * describes the process (5 bits at a time, most significant first).
 */
#include <stdint.h>

#include "base32hex.h"
#include "bytes.h"
#include "rng.h"
#include "unit.h"

static void
ref_encode(const uint8_t in[16], char out[26])
{
	static const char alpha[] = "0123456789ABCDEFGHIJKLMNOPQRSTUV";

	for (int k = 0; k < 26; k++)
	{
		int			v = 0;

		for (int b = 0; b < 5; b++)
		{
			int			bit = 5 * k + b;

			v = (v << 1) | (bit < 128 ? (in[bit / 8] >> (7 - bit % 8)) & 1 : 0);
		}
		out[k] = alpha[v];
	}
}

static ulid_b32hex_status
dec(const char *s, uint8_t out[16], size_t *pos)
{
	return ulid_b32hex_decode(s, strlen(s), out, pos);
}

int
main(void)
{
	uint8_t		in[16],
				out[16];
	char		txt[27] = {0},
				ref[27] = {0};
	size_t		pos = 99;
	int			bad = 0;

	/* RFC 4648 section 10's base32hex vectors, of "foobar" padded to 16 bytes */
	memset(in, 0, 16);
	memcpy(in, "foobar", 6);
	ulid_b32hex_encode(in, txt);
	CHECK(strncmp(txt, "CPNMUOJ1E8", 10) == 0, "\"foobar\" starts CPNMUOJ1E8 as RFC 4648 says (%s)", txt);
	memset(in, 0, 16);
	ulid_b32hex_encode(in, txt);
	CHECK(strcmp(txt, "00000000000000000000000000") == 0, "zero is 26 zeros");
	memset(in, 0xFF, 16);
	ulid_b32hex_encode(in, txt);
	CHECK(strcmp(txt, "VVVVVVVVVVVVVVVVVVVVVVVVVS") == 0, "2^128 - 1 ends in S (%s)", txt);
	CHECK(dec("VVVVVVVVVVVVVVVVVVVVVVVVVS", out, &pos) == ULID_B32HEX_OK && memcmp(in, out, 16) == 0,
		  "and decodes back");
	CHECK(dec("vvvvvvvvvvvvvvvvvvvvvvvvvs", out, &pos) == ULID_B32HEX_OK && memcmp(in, out, 16) == 0,
		  "in lowercase too");
	CHECK(dec("VVVVVVVVVVVVVVVVVVVVVVVVVS======", out, &pos) == ULID_B32HEX_OK && memcmp(in, out, 16) == 0,
		  "and with its padding");
	CHECK(dec("VVVVVVVVVVVVVVVVVVVVVVVVVT", out, &pos) == ULID_B32HEX_BAD_LAST && pos == 25,
		  "a last digit with low bits set is refused");
	CHECK(dec("VVVVVVVVVVVVVVVVVVVVVVVVVW", out, &pos) == ULID_B32HEX_BAD_CHAR && pos == 25,
		  "W is not a digit");
	CHECK(dec("VVVVVVVVVVVVVVVVVVVVVVVVV", out, &pos) == ULID_B32HEX_BAD_LENGTH, "25 characters: bad length");
	CHECK(dec("VVVVVVVVVVVVVVVVVVVVVVVVVS=", out, &pos) == ULID_B32HEX_BAD_LENGTH, "27 characters: bad length");
	CHECK(dec("VVVVVVVVVVVVVVVVVVVVVVVVVSA", out, &pos) == ULID_B32HEX_BAD_CHAR && pos == 26,
		  "a 27th character other than = is a bad character");
	CHECK(dec("VVVVVVVVVVVVVVVVVVVVVVVVVS=====A", out, &pos) == ULID_B32HEX_BAD_CHAR && pos == 31,
		  "padding with another character is a bad character");
	CHECK(dec("0000000000-000000000000000", out, &pos) == ULID_B32HEX_BAD_CHAR && pos == 10,
		  "a hyphen is a bad character, before the length is checked");
	CHECK(dec("", out, &pos) == ULID_B32HEX_BAD_LENGTH, "empty: bad length");

	for (int round = 0; round < 100000; round++)
	{
		uint8_t		a[16],
					b[16];

		ulid_store_be64(a, test_rng());
		ulid_store_be64(a + 8, test_rng());
		ulid_store_be64(b, test_rng());
		ulid_store_be64(b + 8, test_rng());
		ulid_b32hex_encode(a, txt);
		ref_encode(a, ref);
		bad += memcmp(txt, ref, 26) != 0 || dec(txt, out, &pos) != ULID_B32HEX_OK || memcmp(out, a, 16) != 0;
		/* the text sorts as the bytes */
		{
			char		t2[27] = {0};
			int			bytes_cmp = memcmp(a, b, 16),
						text_cmp;

			ulid_b32hex_encode(b, t2);
			text_cmp = memcmp(txt, t2, 26);
			bad += (bytes_cmp < 0) != (text_cmp < 0) || (bytes_cmp > 0) != (text_cmp > 0);
		}
	}
	CHECK(bad == 0, "100000 random values: the reference's text, decoded back, sorted as the bytes (%d differ)", bad);
	return unit_done();
}
