/*-------------------------------------------------------------------------
 *
 * base32.h
 *	  Crockford Base32 codec for 128-bit ULIDs (pure C, no PostgreSQL calls).
 *
 * The canonical ULID text is 26 characters from the alphabet
 * 0123456789ABCDEFGHJKMNPQRSTVWXYZ, most significant first.  26 characters
 * carry 130 bits, so the first character must be 0-7.
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_BASE32_H
#define ULID_BASE32_H

#include <stddef.h>
#include <stdint.h>

#define ULID_BYTES			16
#define ULID_TEXT_LEN		26
#define ULID_TIME_CHARS		10
#define ULID_RANDOM_BYTES	10

typedef enum ulid_b32_status
{
	ULID_B32_OK = 0,
	ULID_B32_BAD_LENGTH,		/* not exactly 26 bytes */
	ULID_B32_BAD_CHAR,			/* a byte outside the alphabet */
	ULID_B32_OVERFLOW			/* first character above '7' */
} ulid_b32_status;

extern const char ulid_b32_alphabet[33];

/* Write exactly 26 uppercase characters (no terminator) to out. */
extern void ulid_b32_encode(const uint8_t in[ULID_BYTES], char *out);
/* The same in lowercase (TypeID's suffix). */
extern void ulid_b32_encode_lower(const uint8_t in[ULID_BYTES], char *out);

/*
 * Decode len bytes of text into 16 bytes.  Checks, in order: length, the
 * first byte outside the alphabet (its offset goes to *bad_offset), overflow.
 * Case-insensitive; no Crockford aliases (I, L, O, U are rejected).
 */
extern ulid_b32_status ulid_b32_decode(const char *s, size_t len,
									   uint8_t out[ULID_BYTES],
									   size_t *bad_offset);

/* Value of one character (0..31), or -1 if it is not in the alphabet. */
extern int	ulid_b32_digit(unsigned char c);

#endif							/* ULID_BASE32_H */
