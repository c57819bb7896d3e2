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

extern const char ulid_b62_alphabet[63];

/* Value of one character (0..61), or -1 if it is not a Base62 digit. */
extern int	ulid_b62_digit(unsigned char c);

/* Offset of the first byte of s[0..len) that is not a Base62 digit, or len. */
extern size_t ulid_b62_first_bad(const char *s, size_t len);

/*
 * Write the 128-bit value hi:lo as exactly width (<= 22) characters,
 * zero-padded on the left.  Returns false, with out unspecified, when the
 * value needs more than width characters.
 */
extern bool ulid_b62_encode_fixed(uint64_t hi, uint64_t lo, int width, char *out);

/*
 * Read len characters (any number, leading zeros allowed) into hi:lo.
 * ULID_CODEC_BAD_CHAR at the first non-digit, ULID_CODEC_OVERFLOW when the
 * value exceeds 2^128 - 1; error positions are offsets in s.
 */
extern ulid_codec_status ulid_b62_decode_fixed(const char *s, size_t len,
											   uint64_t *hi, uint64_t *lo,
											   ulid_codec_error *err);

/* The 22-character Base62 form of a ULID's 16 bytes (no terminator). */
extern void ulid_base62_encode(const uint8_t in[16], char out[ULID_B62_TEXT_LEN]);

/*
 * Decode the 22-character form: bad characters first, then the length,
 * then overflow (a value above 2^128 - 1, i.e. above
 * 7n42DGM5Tflk9n8mt7Fhc7).
 */
extern ulid_codec_status ulid_base62_decode(const char *s, size_t len,
											uint8_t out[16],
											ulid_codec_error *err);

#endif							/* ULID_BASE62_H */
