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
	for (int k = 1; k < 13; k++)
		out[k] = ulid_b32_alphabet[(hi >> (61 - 5 * k)) & 31];
	out[13] = ulid_b32_alphabet[((hi & 1) << 4) | (lo >> 60)];
	for (int k = 14; k < 26; k++)
		out[k] = ulid_b32_alphabet[(lo >> (125 - 5 * k)) & 31];
}

ulid_b32_status
ulid_b32_decode(const char *s, size_t len, uint8_t out[ULID_BYTES],
				size_t *bad_offset)
{
	uint64_t	hi = 0;
	uint64_t	lo = 0;
	int			bad = 0;

	if (len != ULID_TEXT_LEN)
		return ULID_B32_BAD_LENGTH;

	/*
	 * Branch-free main loop: an invalid byte maps to -1, which sets bits
	 * above the five data bits in "bad"; only then look for its position.
	 */
	for (size_t i = 0; i < ULID_TEXT_LEN; i++)
	{
		int			d = b32_decode_table[(unsigned char) s[i]];

		bad |= d;
		hi = (hi << 5) | (lo >> 59);
		lo = (lo << 5) | (uint64_t) (d & 31);
	}
	if (bad & ~31)
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
	if (b32_decode_table[(unsigned char) s[0]] > 7)
		return ULID_B32_OVERFLOW;

	ulid_store_be64(out, hi);
	ulid_store_be64(out + 8, lo);
	return ULID_B32_OK;
}
