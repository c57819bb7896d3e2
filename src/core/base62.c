/*-------------------------------------------------------------------------
 *
 * base62.c
 *	  Fixed-width Base62 of values up to 128 bits (pure C, no PostgreSQL).
 *
 * The value is held as four 32-bit limbs, most significant first.  Encoding
 * divides by 62^5 (which fits 32 bits) and writes five characters per
 * division; decoding multiplies by 62^5 and adds five characters at a time.
 * The divisors are compile-time constants, so every division of a 64-bit
 * intermediate by them becomes a multiplication.
 *
 *-------------------------------------------------------------------------
 */
#include "base62.h"
#include "bytes.h"

const char	ulid_b62_alphabet[63] =
"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

#define B62_POW5	916132832u	/* 62^5 */

static const uint32_t b62_pow[6] = {1, 62, 3844, 238328, 14776336, B62_POW5};

/* -1 for bytes outside the alphabet */
static const int8_t b62_decode_table[256] = {
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

int
ulid_b62_digit(unsigned char c)
{
	return b62_decode_table[c];
}

/* Divide the limbs by d in place (d a constant after inlining); remainder. */
static inline uint32_t
limbs_div(uint32_t l[4], uint32_t d)
{
	uint64_t	r = 0;

	for (int i = 0; i < 4; i++)
	{
		uint64_t	cur = (r << 32) | l[i];

		l[i] = (uint32_t) (cur / d);
		r = cur % d;
	}
	return (uint32_t) r;
}

/* l = l * m + a; returns the carry out of the top limb (0 if it fits). */
static inline uint32_t
limbs_mul_add(uint32_t l[4], uint32_t m, uint32_t a)
{
	uint64_t	carry = a;

	for (int i = 3; i >= 0; i--)
	{
		uint64_t	cur = (uint64_t) l[i] * m + carry;

		l[i] = (uint32_t) cur;
		carry = cur >> 32;
	}
	return (uint32_t) carry;
}

bool
ulid_b62_encode_fixed(uint64_t hi, uint64_t lo, int width, char *out)
{
	uint32_t	l[4] = {(uint32_t) (hi >> 32), (uint32_t) hi,
	(uint32_t) (lo >> 32), (uint32_t) lo};
	int			pos = width;

	while (pos >= 5)
	{
		uint32_t	r = limbs_div(l, B62_POW5);

		for (int k = 0; k < 5; k++)
		{
			out[--pos] = ulid_b62_alphabet[r % 62];
			r /= 62;
		}
	}
	while (pos > 0)
		out[--pos] = ulid_b62_alphabet[limbs_div(l, 62)];
	return (l[0] | l[1] | l[2] | l[3]) == 0;
}

size_t
ulid_b62_first_bad(const char *s, size_t len)
{
	int			bad = 0;

	/* branch-free: a bad byte maps to -1 and sets the sign bit of "bad" */
	for (size_t i = 0; i < len; i++)
		bad |= b62_decode_table[(unsigned char) s[i]];
	if (bad >= 0)
		return len;
	for (size_t i = 0;; i++)
		if (b62_decode_table[(unsigned char) s[i]] < 0)
			return i;
}

/* Value of len valid digits into limbs; false when it exceeds 128 bits. */
static bool
b62_value(const char *s, size_t len, uint32_t l[4])
{
	size_t		i = 0;
	size_t		n = len % 5 ? len % 5 : 5;

	l[0] = l[1] = l[2] = l[3] = 0;
	while (i < len)
	{
		uint32_t	chunk = 0;

		for (size_t k = 0; k < n; k++)
			chunk = chunk * 62 + (uint32_t) b62_decode_table[(unsigned char) s[i + k]];
		if (limbs_mul_add(l, b62_pow[n], chunk) != 0)
			return false;
		i += n;
		n = 5;
	}
	return true;
}

ulid_codec_status
ulid_b62_decode_fixed(const char *s, size_t len, uint64_t *hi, uint64_t *lo,
					  ulid_codec_error *err)
{
	size_t		bad = ulid_b62_first_bad(s, len);
	uint32_t	l[4];

	if (bad < len)
		return ulid_codec_fail(err, ULID_CODEC_BAD_CHAR, bad, 1);
	if (!b62_value(s, len, l))
		return ulid_codec_fail(err, ULID_CODEC_OVERFLOW, 0, len);
	*hi = ((uint64_t) l[0] << 32) | l[1];
	*lo = ((uint64_t) l[2] << 32) | l[3];
	return ULID_CODEC_OK;
}

void
ulid_base62_encode(const uint8_t in[16], char out[ULID_B62_TEXT_LEN])
{
	/* 22 characters always hold 128 bits */
	(void) ulid_b62_encode_fixed(ulid_load_be64(in), ulid_load_be64(in + 8),
								 ULID_B62_TEXT_LEN, out);
}

ulid_codec_status
ulid_base62_decode(const char *s, size_t len, uint8_t out[16],
				   ulid_codec_error *err)
{
	size_t		bad = ulid_b62_first_bad(s, len);
	uint32_t	l[4];

	if (bad < len)
		return ulid_codec_fail(err, ULID_CODEC_BAD_CHAR, bad, 1);
	if (len != ULID_B62_TEXT_LEN)
		return ulid_codec_fail(err, ULID_CODEC_BAD_LENGTH, 0, len);
	if (!b62_value(s, len, l))
		return ulid_codec_fail(err, ULID_CODEC_OVERFLOW, 0, len);
	ulid_store_be64(out, ((uint64_t) l[0] << 32) | l[1]);
	ulid_store_be64(out + 8, ((uint64_t) l[2] << 32) | l[3]);
	return ULID_CODEC_OK;
}
