/*-------------------------------------------------------------------------
 *
 * base32.c
 *	  Crockford Base32 codec for 128-bit ULIDs (pure C, no PostgreSQL calls).
 *
 * The value is handled as two 64-bit halves; each character is 5 bits.
 * Character k (0-based) holds bits 125-5k .. 129-5k of the 130-bit field,
 * whose top two bits are always zero.
 *
 *-------------------------------------------------------------------------
 */
#include "base32.h"
#include "bytes.h"

const char	ulid_b32_alphabet[33] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/* -1 for bytes outside the alphabet; lowercase letters map like uppercase */
static const int8_t b32_decode_table[256] = {
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, -1, -1, -1, -1, -1, -1,
	/* @ A   B   C   D   E   F   G   H   I   J   K   L   M   N   O */
	-1, 10, 11, 12, 13, 14, 15, 16, 17, -1, 18, 19, -1, 20, 21, -1,
	/* P Q   R   S   T   U   V   W   X   Y   Z */
	22, 23, 24, 25, 26, -1, 27, 28, 29, 30, 31, -1, -1, -1, -1, -1,
	-1, 10, 11, 12, 13, 14, 15, 16, 17, -1, 18, 19, -1, 20, 21, -1,
	22, 23, 24, 25, 26, -1, 27, 28, 29, 30, 31, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1
};

int
ulid_b32_digit(unsigned char c)
{
	return b32_decode_table[c];
}

void
ulid_b32_encode(const uint8_t in[ULID_BYTES], char *out)
{
	uint64_t	hi = ulid_load_be64(in);
	uint64_t	lo = ulid_load_be64(in + 8);

	/*
	 * Characters 0-12 lie wholly in hi, character 13 takes the last bit of
	 * hi and the top four of lo, characters 14-25 lie wholly in lo.
	 */
	out[0] = ulid_b32_alphabet[hi >> 61];
#pragma GCC unroll 12
	for (int k = 1; k < 13; k++)
		out[k] = ulid_b32_alphabet[(hi >> (61 - 5 * k)) & 31];
	out[13] = ulid_b32_alphabet[((hi & 1) << 4) | (lo >> 60)];
#pragma GCC unroll 12
	for (int k = 14; k < 26; k++)
		out[k] = ulid_b32_alphabet[(lo >> (125 - 5 * k)) & 31];
}

/* one character into acc; bytes outside the alphabet set bits above 31 in bad */
#define B32_TAKE(acc, c) \
	do { \
		uint32_t	d_ = (uint8_t) b32_decode_table[(unsigned char) (c)]; \
		bad |= d_; \
		acc = (acc << 5) | d_; \
	} while (0)

ulid_b32_status
ulid_b32_decode(const char *s, size_t len, uint8_t out[ULID_BYTES],
				size_t *bad_offset)
{
	uint64_t	t = 0,
				r1 = 0,
				r2 = 0;
	uint32_t	bad = 0;

	if (len != ULID_TEXT_LEN)
		return ULID_B32_BAD_LENGTH;

	/*
	 * One table-driven pass: characters 0-9 are 50 bits (the 48-bit time and
	 * two bits that must be zero), 10-17 and 18-25 are 40 random bits each,
	 * three independent accumulators with no 128-bit shifts.  An invalid byte
	 * maps to 0xFF, which sets bits above 31 in bad; only then look for its
	 * position.
	 */
#pragma GCC unroll 10
	for (int i = 0; i < 10; i++)
		B32_TAKE(t, s[i]);
#pragma GCC unroll 8
	for (int i = 10; i < 18; i++)
		B32_TAKE(r1, s[i]);
#pragma GCC unroll 8
	for (int i = 18; i < 26; i++)
		B32_TAKE(r2, s[i]);
	if (bad > 31)
	{
		for (size_t i = 0; i < ULID_TEXT_LEN; i++)
		{
			if (b32_decode_table[(unsigned char) s[i]] < 0)
			{
				if (bad_offset)
					*bad_offset = i;
				break;
			}
		}
		return ULID_B32_BAD_CHAR;
	}
	if (t >> 48)
		return ULID_B32_OVERFLOW;	/* the first character is above 7 */

	ulid_store_be64(out, (t << 16) | (r1 >> 24));
	ulid_store_be64(out + 8, (r1 << 40) | r2);
	return ULID_B32_OK;
}
