/*-------------------------------------------------------------------------
 *
 * radix.c
 *	  Radix 2-62 text of unsigned 64-bit values (pure C, no PostgreSQL).
 *
 * Encoding divides from the least significant digit up, with the common
 * radixes (10, 16, 36, 62) specialised so their divisions are
 * multiplications, and 32-bit arithmetic once the value fits 32 bits.
 *
 *-------------------------------------------------------------------------
 */
#include "radix.h"

#include <string.h>

#include "base62.h"

static const char radix_lower[37] = "0123456789abcdefghijklmnopqrstuvwxyz";

/* digits of radix <= 36, either case; -1 for other bytes */
static const int8_t radix36_table[256] = {
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, -1, -1, -1, -1, -1, -1,
	-1, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
	25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, -1, -1, -1, -1, -1,
	-1, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
	25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, -1, -1, -1, -1, -1,
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
ulid_radix_digit(unsigned char c, int radix)
{
	int			d = radix <= 36 ? radix36_table[c] : ulid_b62_digit(c);

	return d < radix ? d : -1;
}

/*
 * Write the digits of v before end, least significant first; returns the
 * first digit.  Inlined with a constant radix, the divisions become
 * multiplications.
 */
static inline char *
radix_digits(uint64_t v, uint32_t radix, const char *alphabet, char *end)
{
	uint32_t	w;

	while (v > UINT32_MAX)
	{
		uint64_t	q = v / radix;

		*--end = alphabet[v - q * radix];
		v = q;
	}
	w = (uint32_t) v;
	do
	{
		uint32_t	q = w / radix;

		*--end = alphabet[w - q * radix];
		w = q;
	} while (w != 0);
	return end;
}

ulid_codec_status
ulid_radix_encode(uint64_t v, int radix, int width, char *out, size_t *len)
{
	char		buf[ULID_RADIX_MAX_WIDTH];
	char	   *end = buf + sizeof(buf);
	char	   *p;
	size_t		n;

	switch (radix)
	{
		case 10:
			p = radix_digits(v, 10, radix_lower, end);
			break;
		case 16:
			p = radix_digits(v, 16, radix_lower, end);
			break;
		case 36:
			p = radix_digits(v, 36, radix_lower, end);
			break;
		case 62:
			p = radix_digits(v, 62, ulid_b62_alphabet, end);
			break;
		default:
			p = radix_digits(v, (uint32_t) radix,
							 radix <= 36 ? radix_lower : ulid_b62_alphabet, end);
			break;
	}
	n = (size_t) (end - p);
	if (width > 0)
	{
		if (n > (size_t) width)
			return ULID_CODEC_TOO_WIDE;
		memset(out, '0', (size_t) width - n);
		memcpy(out + width - n, p, n);
		*len = (size_t) width;
	}
	else
	{
		memcpy(out, p, n);
		*len = n;
	}
	return ULID_CODEC_OK;
}

ulid_codec_status
ulid_radix_decode(const char *s, size_t len, int radix, uint64_t *out,
				  ulid_codec_error *err)
{
	uint64_t	v = 0;
	uint64_t	limit = UINT64_MAX / (uint64_t) radix;
	uint64_t	limit_digit = UINT64_MAX % (uint64_t) radix;
	bool		overflow = false;

	if (len == 0)
		return ulid_codec_fail(err, ULID_CODEC_BAD_LENGTH, 0, 0);
	for (size_t i = 0; i < len; i++)
	{
		int			d = ulid_radix_digit((unsigned char) s[i], radix);

		if (d < 0)
			return ulid_codec_fail(err, ULID_CODEC_BAD_CHAR, i, 1);
		/* keep scanning after an overflow: a bad character comes first */
		if (v > limit || (v == limit && (uint64_t) d > limit_digit))
			overflow = true;
		else
			v = v * (uint64_t) radix + (uint64_t) d;
	}
	if (overflow)
		return ulid_codec_fail(err, ULID_CODEC_OVERFLOW, 0, len);
	*out = v;
	return ULID_CODEC_OK;
}
