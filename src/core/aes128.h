/*-------------------------------------------------------------------------
 *
 * aes128.h
 *	  AES-128 on one 16-byte block (FIPS 197), the cipher behind
 *	  ulid_mask() (pure C, no PostgreSQL calls).
 *
 * ulid_aes128_init() expands a 16-byte key once; encrypting or decrypting
 * a block then costs the ten rounds.  On x86 processors with the AES
 * instructions (AES-NI, every x86-64 server since about 2010) the rounds
 * are those instructions, chosen at run time; elsewhere a portable C
 * implementation computes the same values (about eight times slower).  The
 * portable one looks its rounds up in tables, so its timing may depend on
 * the data through the cache (the instructions' does not).
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_AES128_H
#define ULID_AES128_H

#include <stdbool.h>
#include <stdint.h>

typedef struct ulid_aes128
{
	uint8_t		enc[11][16];	/* round keys, FIPS 197's order */
	uint8_t		dec[11][16];	/* decryption keys, in the order used */
	bool		hw;				/* use the AES instructions */
} ulid_aes128;

/* Whether this processor has the AES instructions (and this build uses them). */
extern bool ulid_aes128_hw_available(void);

/* Expand key; ctx->hw says whether the instructions will be used. */
extern void ulid_aes128_init(ulid_aes128 *ctx, const uint8_t key[16]);

/* One block; in and out may be the same. */
extern void ulid_aes128_encrypt(const ulid_aes128 *ctx, const uint8_t in[16],
								uint8_t out[16]);
extern void ulid_aes128_decrypt(const ulid_aes128 *ctx, const uint8_t in[16],
								uint8_t out[16]);

#endif							/* ULID_AES128_H */
