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

/*
 * The two characters of every 10-bit value, most significant first: 13
 * lookups encode the 130-bit field (two zero bits and the 128 of the
 * value), in uppercase for the ULID text and lowercase for TypeID.
 */
#define B32_ROW(c, A, B, C, D, E, F, G, H, J, K, M, N, P, Q, R, S, T, V, W, X, Y, Z) \
	{c, '0'}, {c, '1'}, {c, '2'}, {c, '3'}, {c, '4'}, {c, '5'}, {c, '6'}, {c, '7'}, \
	{c, '8'}, {c, '9'}, {c, A}, {c, B}, {c, C}, {c, D}, {c, E}, {c, F}, \
	{c, G}, {c, H}, {c, J}, {c, K}, {c, M}, {c, N}, {c, P}, {c, Q}, \
	{c, R}, {c, S}, {c, T}, {c, V}, {c, W}, {c, X}, {c, Y}, {c, Z}
#define B32_UPPER(c) B32_ROW(c, 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'J', 'K', 'M', \
							 'N', 'P', 'Q', 'R', 'S', 'T', 'V', 'W', 'X', 'Y', 'Z')
#define B32_LOWER(c) B32_ROW(c, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'j', 'k', 'm', \
							 'n', 'p', 'q', 'r', 's', 't', 'v', 'w', 'x', 'y', 'z')
#define B32_PAIRS(ROW, A, B, C, D, E, F, G, H, J, K, M, N, P, Q, R, S, T, V, W, X, Y, Z) { \
	ROW('0'), ROW('1'), ROW('2'), ROW('3'), ROW('4'), ROW('5'), ROW('6'), ROW('7'), \
	ROW('8'), ROW('9'), ROW(A), ROW(B), ROW(C), ROW(D), ROW(E), ROW(F), \
	ROW(G), ROW(H), ROW(J), ROW(K), ROW(M), ROW(N), ROW(P), ROW(Q), \
	ROW(R), ROW(S), ROW(T), ROW(V), ROW(W), ROW(X), ROW(Y), ROW(Z) }

static const char b32_pairs_upper[1024][2] =
B32_PAIRS(B32_UPPER, 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'J', 'K', 'M',
		  'N', 'P', 'Q', 'R', 'S', 'T', 'V', 'W', 'X', 'Y', 'Z');
static const char b32_pairs_lower[1024][2] =
B32_PAIRS(B32_LOWER, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'j', 'k', 'm',
		  'n', 'p', 'q', 'r', 's', 't', 'v', 'w', 'x', 'y', 'z');

/*
 * Pair j (0..12) holds bits 10j-2 .. 10j+7 of the value (bit 0 the most
 * significant): pairs 0-5 lie in hi, pair 6 takes the last 4 bits of hi
 * and the top 6 of lo, pairs 7-12 lie in lo.
 */
static inline void
b32_encode_pairs(const char (*pairs)[2], const uint8_t in[ULID_BYTES], char *out)
{
	uint64_t	hi = ulid_load_be64(in);
	uint64_t	lo = ulid_load_be64(in + 8);

	memcpy(out, pairs[hi >> 56], 2);
	memcpy(out + 2, pairs[(hi >> 46) & 1023], 2);
	memcpy(out + 4, pairs[(hi >> 36) & 1023], 2);
	memcpy(out + 6, pairs[(hi >> 26) & 1023], 2);
	memcpy(out + 8, pairs[(hi >> 16) & 1023], 2);
	memcpy(out + 10, pairs[(hi >> 6) & 1023], 2);
	memcpy(out + 12, pairs[((hi << 4) | (lo >> 60)) & 1023], 2);
	memcpy(out + 14, pairs[(lo >> 50) & 1023], 2);
	memcpy(out + 16, pairs[(lo >> 40) & 1023], 2);
	memcpy(out + 18, pairs[(lo >> 30) & 1023], 2);
	memcpy(out + 20, pairs[(lo >> 20) & 1023], 2);
	memcpy(out + 22, pairs[(lo >> 10) & 1023], 2);
	memcpy(out + 24, pairs[lo & 1023], 2);
}

void
ulid_b32_encode(const uint8_t in[ULID_BYTES], char *out)
{
	b32_encode_pairs(b32_pairs_upper, in, out);
}

void
ulid_b32_encode_lower(const uint8_t in[ULID_BYTES], char *out)
{
	b32_encode_pairs(b32_pairs_lower, in, out);
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
