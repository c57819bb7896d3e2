/*-------------------------------------------------------------------------
 *
 * base32hex.c
 *	  RFC 4648 base32hex of 16 bytes (pure C, no PostgreSQL calls).
 *
 *-------------------------------------------------------------------------
 */
#include "base32hex.h"

#include <stdbool.h>

#include "bytes.h"

static const char digits[33] = "0123456789ABCDEFGHIJKLMNOPQRSTUV";

/* the value of a digit of either case, or -1 */
static inline int
digit_value(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	if (c >= 'a' && c <= 'v')
		return c - 'a' + 10;
	return -1;
}

/*
 * Character k (0..25) holds bits 5k .. 5k+4 of the value followed by two
 * zero bits (bit 0 the most significant): characters 0-11 lie in the high
 * half, 12 straddles both (4 bits of hi, 1 of lo), 13-25 lie in the low half.
 */
void
ulid_b32hex_encode(const uint8_t in[16], char *out)
{
	uint64_t	hi = ulid_load_be64(in);
	uint64_t	lo = ulid_load_be64(in + 8);

	for (int k = 0; k < 12; k++)
		out[k] = digits[(hi >> (59 - 5 * k)) & 31];
	out[12] = digits[((hi & 15) << 1) | (lo >> 63)];
	for (int k = 13; k < 25; k++)
		out[k] = digits[(lo >> (58 - 5 * (k - 13))) & 31];
	out[25] = digits[(lo & 7) << 2];
}

ulid_b32hex_status
ulid_b32hex_decode(const char *s, size_t len, uint8_t out[16], size_t *pos)
{
	uint64_t	hi = 0,
				lo = 0;
	int			d[ULID_B32HEX_LEN];

	for (size_t i = 0; i < len; i++)
	{
		bool		padding = i >= ULID_B32HEX_LEN;

		if (padding ? s[i] != '=' : (d[i] = digit_value((unsigned char) s[i])) < 0)
		{
			*pos = i;
			return ULID_B32HEX_BAD_CHAR;
		}
		if (i + 1 == ULID_B32HEX_PADDED_LEN)
			break;
	}
	if (len != ULID_B32HEX_LEN && len != ULID_B32HEX_PADDED_LEN)
		return ULID_B32HEX_BAD_LENGTH;
	if (d[25] & 3)
	{
		*pos = 25;
		return ULID_B32HEX_BAD_LAST;
	}
	for (int k = 0; k < 12; k++)
		hi = (hi << 5) | (uint64_t) d[k];
	hi = (hi << 4) | (uint64_t) (d[12] >> 1);
	lo = (uint64_t) (d[12] & 1);
	for (int k = 13; k < 25; k++)
		lo = (lo << 5) | (uint64_t) d[k];
	lo = (lo << 3) | (uint64_t) (d[25] >> 2);
	ulid_store_be64(out, hi);
	ulid_store_be64(out + 8, lo);
	return ULID_B32HEX_OK;
}
