/*-------------------------------------------------------------------------
 *
 * radix.h
 *	  Radix 2-62 text of unsigned 64-bit values (pure C, no PostgreSQL).
 *
 * Digits are 0-9, then letters.  Up to radix 36 the letters are lowercase
 * a-z on output and either case on input; above 36 they are A-Z (10-35) then
 * a-z (36-61), the ASCII order, so fixed-width text sorts like the value
 * under byte-wise (COLLATE "C") comparison.
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_RADIX_H
#define ULID_RADIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec.h"

#define ULID_RADIX_MIN		2
#define ULID_RADIX_MAX		62
#define ULID_RADIX_MAX_WIDTH 64 /* digits of 2^64 - 1 in base 2 */

static inline bool
ulid_radix_valid(int radix)
{
	return radix >= ULID_RADIX_MIN && radix <= ULID_RADIX_MAX;
}

/* Value of character c in radix (a valid radix), or -1 if it is no digit. */
extern int	ulid_radix_digit(unsigned char c, int radix);

/*
 * Write v in radix (valid) to out, which holds ULID_RADIX_MAX_WIDTH bytes,
 * and its length to *len (no terminator).  width 0 writes the fewest digits;
 * width 1..ULID_RADIX_MAX_WIDTH pads with '0' on the left, and a value that
 * needs more digits is ULID_CODEC_TOO_WIDE.
 */
extern ulid_codec_status ulid_radix_encode(uint64_t v, int radix, int width,
										   char *out, size_t *len);

/*
 * Read len characters in radix (valid).  Leading zeros are fine.  Empty
 * text is ULID_CODEC_BAD_LENGTH, a non-digit ULID_CODEC_BAD_CHAR, a value
 * above 2^64 - 1 ULID_CODEC_OVERFLOW.
 */
extern ulid_codec_status ulid_radix_decode(const char *s, size_t len, int radix,
										   uint64_t *out, ulid_codec_error *err);

#endif							/* ULID_RADIX_H */
