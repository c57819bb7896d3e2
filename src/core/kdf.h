/*-------------------------------------------------------------------------
 *
 * kdf.h
 *	  What the keyring (keys.c) derives and wraps keys with (pure C, no
 *	  PostgreSQL calls): SHA-256 (FIPS 180-4), HMAC-SHA256 (RFC 2104),
 *	  HKDF-SHA256 (RFC 5869) and AES key wrap with a 128-bit KEK (RFC 3394,
 *	  on aes128.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_KDF_H
#define ULID_KDF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ULID_SHA256_BYTES	32

typedef struct ulid_sha256
{
	uint32_t	h[8];
	uint64_t	bytes;			/* total length so far */
	uint8_t		buf[64];
	size_t		used;
} ulid_sha256;

extern void ulid_sha256_init(ulid_sha256 *ctx);
extern void ulid_sha256_update(ulid_sha256 *ctx, const void *data, size_t len);
extern void ulid_sha256_final(ulid_sha256 *ctx, uint8_t out[ULID_SHA256_BYTES]);

/* HMAC-SHA256 of the concatenation of two messages (either may be empty) */
extern void ulid_hmac_sha256(const uint8_t *key, size_t keylen,
							 const void *m1, size_t len1,
							 const void *m2, size_t len2,
							 uint8_t out[ULID_SHA256_BYTES]);

/*
 * HKDF-SHA256: extract with salt, expand with info to len bytes (len at
 * most 255 * 32); the info is the concatenation of info1 and info2.
 */
extern void ulid_hkdf_sha256(const uint8_t *ikm, size_t ikmlen,
							 const uint8_t *salt, size_t saltlen,
							 const void *info1, size_t info1len,
							 const void *info2, size_t info2len,
							 uint8_t *out, size_t len);

/*
 * RFC 3394 key wrap of n 64-bit blocks (n >= 2) under a 128-bit KEK, with
 * the default initial value A6A6A6A6A6A6A6A6: out has 8 * (n + 1) bytes.
 * Unwrap returns false (out wiped) when the integrity check fails: another
 * KEK, or damaged bytes.
 */
extern void ulid_aes_kw_wrap(const uint8_t kek[16], const uint8_t *in, int n,
							 uint8_t *out);
extern bool ulid_aes_kw_unwrap(const uint8_t kek[16], const uint8_t *in, int n,
							   uint8_t *out);

#endif							/* ULID_KDF_H */
