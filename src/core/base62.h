/*-------------------------------------------------------------------------
 *
 * base62.h
 *	  Fixed-width Base62 of values up to 128 bits (pure C, no PostgreSQL).
 *
 * The alphabet is 0-9A-Za-z, which is ASCII order, so fixed-width text
 * sorts like the value under byte-wise (COLLATE "C") comparison.  A ULID's
 * 128 bits take 22 characters; the GSID form reuses the fixed-width
 * primitives for its 8-, 6- and 14-character parts.
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_BASE62_H
#define ULID_BASE62_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec.h"

#define ULID_B62_TEXT_LEN	22	/* 62^22 > 2^128 > 62^21 */
#define ULID_B62_POW10		UINT64_C(839299365868340224)	/* 62^10 < 2^64 */

extern const char ulid_b62_alphabet[63];
extern const int8_t ulid_b62_decode_table[256];

/* Value of one character (0..61), or -1 if it is not a Base62 digit. */
static inline int
ulid_b62_digit(unsigned char c)
{
	return ulid_b62_decode_table[c];
}

/* Value of n <= 10 Base62 digits, all valid (62^10 < 2^64: no overflow). */
static inline uint64_t
ulid_b62_value_u64(const char *s, size_t n)
{
	uint64_t	v = 0;

	for (size_t i = 0; i < n; i++)
		v = v * 62 + (uint64_t) ulid_b62_decode_table[(unsigned char) s[i]];
	return v;
}

/* hi:lo = a * m + b (64 x 64 -> 128 bits, from 32-bit partial products) */
static inline void
ulid_b62_mul_add(uint64_t a, uint64_t m, uint64_t b, uint64_t *hi, uint64_t *lo)
{
	uint64_t	a0 = (uint32_t) a,
				a1 = a >> 32,
				m0 = (uint32_t) m,
				m1 = m >> 32;
	uint64_t	p00 = a0 * m0,
				p01 = a0 * m1,
				p10 = a1 * m0;
	uint64_t	mid = (p00 >> 32) + (uint32_t) p01 + (uint32_t) p10;
	uint64_t	l = (mid << 32) | (uint32_t) p00;
	uint64_t	h = a1 * m1 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);

	l += b;
	*hi = h + (l < b);
	*lo = l;
}

/* Offset of the first byte of s[0..len) that is not a Base62 digit, or len. */
extern size_t ulid_b62_first_bad(const char *s, size_t len);

/*
 * Write the 128-bit value hi:lo as exactly width (<= 22) characters,
 * zero-padded on the left.  Returns false, with out unspecified, when the
 * value needs more than width characters.
 */
extern bool ulid_b62_encode_fixed(uint64_t hi, uint64_t lo, int width, char *out);

/*
 * A GSID's 28 body characters: ms in 8, ns in 6 and the 80-bit randomness
 * rnd_hi:rnd_lo in 14 (the caller checks that ms fits 8 characters).
 */
extern void ulid_b62_encode_gsid_body(uint64_t ms, uint32_t ns, uint64_t rnd_hi,
									  uint64_t rnd_lo, char *out);

/* The 22-character Base62 form of a ULID's 16 bytes (no terminator). */
extern void ulid_base62_encode(const uint8_t in[16], char out[ULID_B62_TEXT_LEN]);

/*
 * Decode the 22-character form: bad characters first, then the length,
 * then overflow (a value above 2^128 - 1, i.e. above
 * 7n42DGM5Tflk9n8mt7Fhc7).  Error positions are offsets in s.
 */
extern ulid_codec_status ulid_base62_decode(const char *s, size_t len,
											uint8_t out[16],
											ulid_codec_error *err);

#endif							/* ULID_BASE62_H */
