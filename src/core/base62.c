/*-------------------------------------------------------------------------
 *
 * base62.c
 *	  Fixed-width Base62 of values up to 128 bits (pure C, no PostgreSQL).
 *
 * Encoding works in base B = 62^5 (which fits 32 bits), five characters per
 * base-B digit.  Encoding splits each 64-bit half into base-B
 * digits and adds hi * 2^64 column by column (2^64 has three base-B digits),
 * so it needs no 128-bit division, and a table gives two characters at a
 * time.  Decoding reads 10 characters at a time into 64 bits and combines
 * them with 64 x 64 -> 128-bit multiplications.  Every divisor is a
 * compile-time constant, so the compiler turns divisions into
 * multiplications.
 *
 *-------------------------------------------------------------------------
 */
#include "base62.h"

#include <string.h>

#include "bytes.h"

const char	ulid_b62_alphabet[63] =
"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

#define B62_POW5	916132832u	/* 62^5, the base B */
#define B62_POW4	UINT64_C(14776336)	/* 62^4 */

/* 2^64 = B62_C2 * B^2 + B62_C1 * B + B62_C0 */
#define B62_C0		UINT64_C(91108768)
#define B62_C1		UINT64_C(896657517)
#define B62_C2		UINT64_C(21)

static const uint32_t b62_pow[6] = {1, 62, 3844, 238328, 14776336, B62_POW5};

/* the two characters of every value below 62^2, most significant first */
#define B62_ROW(c) \
	{c, '0'}, {c, '1'}, {c, '2'}, {c, '3'}, {c, '4'}, {c, '5'}, {c, '6'}, {c, '7'}, \
	{c, '8'}, {c, '9'}, {c, 'A'}, {c, 'B'}, {c, 'C'}, {c, 'D'}, {c, 'E'}, {c, 'F'}, \
	{c, 'G'}, {c, 'H'}, {c, 'I'}, {c, 'J'}, {c, 'K'}, {c, 'L'}, {c, 'M'}, {c, 'N'}, \
	{c, 'O'}, {c, 'P'}, {c, 'Q'}, {c, 'R'}, {c, 'S'}, {c, 'T'}, {c, 'U'}, {c, 'V'}, \
	{c, 'W'}, {c, 'X'}, {c, 'Y'}, {c, 'Z'}, {c, 'a'}, {c, 'b'}, {c, 'c'}, {c, 'd'}, \
	{c, 'e'}, {c, 'f'}, {c, 'g'}, {c, 'h'}, {c, 'i'}, {c, 'j'}, {c, 'k'}, {c, 'l'}, \
	{c, 'm'}, {c, 'n'}, {c, 'o'}, {c, 'p'}, {c, 'q'}, {c, 'r'}, {c, 's'}, {c, 't'}, \
	{c, 'u'}, {c, 'v'}, {c, 'w'}, {c, 'x'}, {c, 'y'}, {c, 'z'}

static const char b62_pairs[3844][2] = {
	B62_ROW('0'), B62_ROW('1'), B62_ROW('2'), B62_ROW('3'), B62_ROW('4'), B62_ROW('5'),
	B62_ROW('6'), B62_ROW('7'), B62_ROW('8'), B62_ROW('9'), B62_ROW('A'), B62_ROW('B'),
	B62_ROW('C'), B62_ROW('D'), B62_ROW('E'), B62_ROW('F'), B62_ROW('G'), B62_ROW('H'),
	B62_ROW('I'), B62_ROW('J'), B62_ROW('K'), B62_ROW('L'), B62_ROW('M'), B62_ROW('N'),
	B62_ROW('O'), B62_ROW('P'), B62_ROW('Q'), B62_ROW('R'), B62_ROW('S'), B62_ROW('T'),
	B62_ROW('U'), B62_ROW('V'), B62_ROW('W'), B62_ROW('X'), B62_ROW('Y'), B62_ROW('Z'),
	B62_ROW('a'), B62_ROW('b'), B62_ROW('c'), B62_ROW('d'), B62_ROW('e'), B62_ROW('f'),
	B62_ROW('g'), B62_ROW('h'), B62_ROW('i'), B62_ROW('j'), B62_ROW('k'), B62_ROW('l'),
	B62_ROW('m'), B62_ROW('n'), B62_ROW('o'), B62_ROW('p'), B62_ROW('q'), B62_ROW('r'),
	B62_ROW('s'), B62_ROW('t'), B62_ROW('u'), B62_ROW('v'), B62_ROW('w'), B62_ROW('x'),
	B62_ROW('y'), B62_ROW('z')
};

/* -1 for bytes outside the alphabet */
const int8_t ulid_b62_decode_table[256] = {
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, -1, -1, -1, -1, -1, -1,
	-1, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
	25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, -1, -1, -1, -1, -1,
	-1, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50,
	51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1
};

/* The value hi:lo in base B, least significant digit first. */
static inline void
b62_base_b(uint64_t hi, uint64_t lo, uint64_t d[5])
{
	uint64_t	lq = lo / B62_POW5;
	uint64_t	hq = hi / B62_POW5;
	uint64_t	l0 = lo - lq * B62_POW5,
				l1 = lq % B62_POW5,
				l2 = lq / B62_POW5;
	uint64_t	h0 = hi - hq * B62_POW5,
				h1 = hq % B62_POW5,
				h2 = hq / B62_POW5;
	uint64_t	col[5];
	uint64_t	carry = 0;

	if (hi == 0)
	{
		/* values of up to 64 bits (GSID time and namespace) */
		d[0] = l0;
		d[1] = l1;
		d[2] = l2;
		d[3] = d[4] = 0;
		return;
	}
	/* hi * 2^64 + lo by columns; l2, h2 < 2^5, so every sum is below 2^62 */
	col[0] = l0 + h0 * B62_C0;
	col[1] = l1 + h0 * B62_C1 + h1 * B62_C0;
	col[2] = l2 + h0 * B62_C2 + h1 * B62_C1 + h2 * B62_C0;
	col[3] = h1 * B62_C2 + h2 * B62_C1;
	col[4] = h2 * B62_C2;
	for (int k = 0; k < 5; k++)
	{
		uint64_t	t = col[k] + carry;

		carry = t / B62_POW5;
		d[k] = t - carry * B62_POW5;
	}
	/* carry is now 0: 2^128 < B^5 */
}

/* Write the five characters of a base-B digit r to out. */
static inline void
b62_chars5(uint32_t r, char *out)
{
	uint32_t	q1 = r / 3844;		/* r = q1 * 62^2 + pair; q1 < 62^3 */
	uint32_t	q2 = q1 / 3844;		/* q1 = q2 * 62^2 + pair; q2 < 62 */

	out[0] = ulid_b62_alphabet[q2];
	memcpy(out + 1, b62_pairs[q1 - q2 * 3844], 2);
	memcpy(out + 3, b62_pairs[r - q1 * 3844], 2);
}

/* four characters of g < 62^4 */
static inline void
b62_chars4(uint32_t g, char *out)
{
	uint32_t	q = g / 3844;

	memcpy(out, b62_pairs[q], 2);
	memcpy(out + 2, b62_pairs[g - q * 3844], 2);
}

/* Write the n (< 5) characters of r < 62^n to out: at most two lookups. */
static inline void
b62_chars(uint32_t r, int n, char *out)
{
	uint32_t	q;

	switch (n)
	{
		case 1:
			out[0] = ulid_b62_alphabet[r];
			break;
		case 2:
			memcpy(out, b62_pairs[r], 2);
			break;
		case 3:
			q = r / 3844;
			out[0] = ulid_b62_alphabet[q];
			memcpy(out + 1, b62_pairs[r - q * 3844], 2);
			break;
		case 4:
			b62_chars4(r, out);
			break;
		default:
			break;
	}
}

/*
 * The encoder, inlined where the width is a constant (ULID text, GSID
 * parts) so that its loops unroll.
 */
#if defined(__GNUC__)
#define B62_INLINE inline __attribute__((always_inline))
#else
#define B62_INLINE inline
#endif

static B62_INLINE bool
b62_encode_fixed(uint64_t hi, uint64_t lo, int width, char *out)
{
	uint64_t	d[5];
	int			pos = width;
	int			k = 0;

	if (hi < B62_POW4)
	{
		/*
		 * Up to 87 bits (GSID parts, radix values): one long-division step
		 * by 62^4 over 32-bit halves brings the value into 64 bits (the
		 * quotient is below 2^64 because hi < 62^4), then four characters
		 * per division by a constant.
		 */
		if (hi != 0)
		{
			uint64_t	n1 = (hi << 32) | (lo >> 32);
			uint64_t	q1 = n1 / B62_POW4;
			uint64_t	n0 = ((n1 - q1 * B62_POW4) << 32) | (lo & 0xFFFFFFFF);
			uint64_t	q0 = n0 / B62_POW4;

			if (pos < 4)
				return false;
			pos -= 4;
			b62_chars4((uint32_t) (n0 - q0 * B62_POW4), out + pos);
			lo = (q1 << 32) | q0;
		}
		for (; pos >= 4; pos -= 4)
		{
			uint64_t	q = lo / B62_POW4;

			b62_chars4((uint32_t) (lo - q * B62_POW4), out + pos - 4);
			lo = q;
		}
		if (lo >= b62_pow[pos])
			return false;
		b62_chars((uint32_t) lo, pos, out);
		return true;
	}

	b62_base_b(hi, lo, d);
	for (; pos >= 5; k++)
	{
		pos -= 5;
		b62_chars5((uint32_t) d[k], out + pos);
	}
	/* the leading pos (< 5) characters hold what is left, if it fits */
	if (d[k] >= b62_pow[pos])
		return false;
	b62_chars((uint32_t) d[k], pos, out);
	while (++k < 5)
		if (d[k] != 0)
			return false;
	return true;
}

bool
ulid_b62_encode_fixed(uint64_t hi, uint64_t lo, int width, char *out)
{
	return b62_encode_fixed(hi, lo, width, out);
}

void
ulid_b62_encode_gsid_body(uint64_t ms, uint32_t ns, uint64_t rnd_hi,
						  uint64_t rnd_lo, char *out)
{
	/* each part fits its width: the caller checked ms, 2^32 < 62^6, 2^80 < 62^14 */
	(void) b62_encode_fixed(0, ms, 8, out);
	(void) b62_encode_fixed(0, ns, 6, out + 8);
	(void) b62_encode_fixed(rnd_hi, rnd_lo, 14, out + 14);
}

size_t
ulid_b62_first_bad(const char *s, size_t len)
{
	int			bad = 0;

	/* branch-free: a bad byte maps to -1 and sets the sign bit of "bad" */
	for (size_t i = 0; i < len; i++)
		bad |= ulid_b62_decode_table[(unsigned char) s[i]];
	if (bad >= 0)
		return len;
	for (size_t i = 0;; i++)
		if (ulid_b62_decode_table[(unsigned char) s[i]] < 0)
			return i;
}

void
ulid_base62_encode(const uint8_t in[16], char out[ULID_B62_TEXT_LEN])
{
	/* 22 characters always hold 128 bits */
	(void) b62_encode_fixed(ulid_load_be64(in), ulid_load_be64(in + 8),
							ULID_B62_TEXT_LEN, out);
}

ulid_codec_status
ulid_base62_decode(const char *s, size_t len, uint8_t out[16],
				   ulid_codec_error *err)
{
	size_t		bad = ulid_b62_first_bad(s, len);
	uint64_t	t_hi,
				t_lo,
				hi,
				lo;

	if (bad < len)
		return ulid_codec_fail(err, ULID_CODEC_BAD_CHAR, bad, 1);
	if (len != ULID_B62_TEXT_LEN)
		return ulid_codec_fail(err, ULID_CODEC_BAD_LENGTH, 0, len);

	/* 22 = 2 + 10 + 10 characters: (a * 62^10 + b) * 62^10 + c */
	ulid_b62_mul_add(ulid_b62_value_u64(s, 2), ULID_B62_POW10,
					 ulid_b62_value_u64(s + 2, 10), &t_hi, &t_lo);
	ulid_b62_mul_add(t_lo, ULID_B62_POW10, ulid_b62_value_u64(s + 12, 10), &hi, &lo);
	/* add t_hi * 62^10 to the high half: it fits 128 bits or overflows */
	if (t_hi > UINT64_MAX / ULID_B62_POW10 || hi + t_hi * ULID_B62_POW10 < hi)
		return ulid_codec_fail(err, ULID_CODEC_OVERFLOW, 0, len);
	ulid_store_be64(out, hi + t_hi * ULID_B62_POW10);
	ulid_store_be64(out + 8, lo);
	return ULID_CODEC_OK;
}
