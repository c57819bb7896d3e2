/*-------------------------------------------------------------------------
 *
 * base32hex.h
 *	  RFC 4648's "base32hex" (the extended hex alphabet 0-9 A-V) of 16
 *	  bytes (pure C, no PostgreSQL calls).
 *
 * 26 characters, most significant first, the last holding the final 3
 * bits and two zero bits: PostgreSQL 19's encode(bytes, 'base32hex')
 * without its six '=' of padding.  The text sorts as the bytes do (under a
 * byte-wise collation such as "C").
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_BASE32HEX_H
#define ULID_BASE32HEX_H

#include <stddef.h>
#include <stdint.h>

#define ULID_B32HEX_LEN			26
#define ULID_B32HEX_PADDED_LEN	32	/* with the six '=' */

typedef enum ulid_b32hex_status
{
	ULID_B32HEX_OK = 0,
	ULID_B32HEX_BAD_LENGTH,		/* not 26 characters (or 32 with padding) */
	ULID_B32HEX_BAD_CHAR,		/* the byte at *pos is not allowed there */
	ULID_B32HEX_BAD_LAST		/* the last digit's two low bits are not 0 */
} ulid_b32hex_status;

/* Write 26 uppercase characters (no terminator). */
extern void ulid_b32hex_encode(const uint8_t in[16], char *out);

/*
 * Decode 26 characters of either case, or 32 ending in "======".  Checks
 * every character before the length, so a bad character is named first.
 */
extern ulid_b32hex_status ulid_b32hex_decode(const char *s, size_t len,
											 uint8_t out[16], size_t *pos);

#endif							/* ULID_BASE32HEX_H */
