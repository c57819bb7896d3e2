/*-------------------------------------------------------------------------
 *
 * mask.h
 *	  Keyed masks that hide what an id tells (pure C, no PostgreSQL calls):
 *	  the UUIDv47 facade of a UUIDv7, a 128-bit mask of a ULID and a
 *	  format-preserving mask of a Snowflake id.
 *
 * Every mask is keyed by one 16-byte secret, used three ways:
 *
 *   - UUIDv47 (stateless-me/uuidv47, byte for byte): the secret is
 *     SipHash-2-4's key, k0 then k1, each 8 bytes little-endian.  The
 *     facade of a version-7 UUID XORs its 48-bit time with the low 48 bits
 *     of SipHash-2-4 of its 74 random bits (10 bytes: the low nibble of byte
 *     6, byte 7, the low 6 bits of byte 8, bytes 9-15) and sets version 4;
 *     the random bits stay as they are, so decoding recomputes the same
 *     mask.  A facade hides the time; it shows the random bits.
 *
 *   - ULID: AES-128 (FIPS 197) of the 16 bytes, with the secret as the AES
 *     key.  A bijection on all 128 bits: time and randomness (and the
 *     counter of a monotonic ULID) are all hidden.  Any AES library
 *     computes it: it is AES-128-ECB of one block, no padding.
 *
 *   - Snowflake: a Feistel network on exactly the layout's bits, so a
 *     masked id is a valid id of the same layout.  Its key is derived from
 *     the secret, so that no other mask computes its round function: k0 and
 *     k1 are SipHash-2-4 (keyed by the secret as above) of the 17 bytes
 *     "ulid snowflake 1" followed by a byte 0 or 1.  Round i of a domain of
 *     n bits (n = 1..63) computes SipHash-1-3 of the 7 bytes [b as 4 bytes
 *     little-endian, i, n, tag] (tag 0 for the domain 0..2^n-1, 1 for
 *     SCRU64's 0..36^12-1) and XORs its low bits into the other half.  The
 *     halves are the top floor(n/2) bits and the rest, alternating in size
 *     when n is odd (as NIST's FF1 does), so no value leaves the domain;
 *     five rounds (Patarin: a five-round Feistel network of random
 *     functions is indistinguishable from a random permutation until about
 *     2^(n/2) values, where four rounds last until 2^(n/4)).  A layout of
 *     64 bits keeps its top bit and masks the other 63, so a non-negative
 *     bigint stays non-negative; SCRU64, whose ids stop below 36^12, masks
 *     63 bits and re-masks a value until it falls below 36^12 ("cycle
 *     walking": 1.95 passes on average).
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_MASK_H
#define ULID_MASK_H

#include <stdbool.h>
#include <stdint.h>

#include "aes128.h"
#include "layout.h"
#include "siphash.h"

#define ULID_SECRET_BYTES	16

/* What one secret keys, expanded once. */
typedef struct ulid_mask_key
{
	ulid_sipkey uuidv47;		/* the secret as SipHash-2-4's key */
	ulid_sipkey snowflake;		/* derived: the Snowflake rounds' key */
	ulid_aes128 aes;			/* the secret as AES-128's key */
} ulid_mask_key;

extern void ulid_mask_key_init(ulid_mask_key *key,
							   const uint8_t secret[ULID_SECRET_BYTES]);

/*
 * The UUIDv47 facade of a version-7 UUID: false (out untouched) when in is
 * not one (version 7, RFC 9562 variant 10).
 */
extern bool ulid_uuidv47_encode(const ulid_mask_key *key, const uint8_t in[16],
								uint8_t out[16]);

/*
 * The UUIDv7 behind a facade: false (out untouched) when in does not look
 * like one (version 4, variant 10).
 */
extern bool ulid_uuidv47_decode(const ulid_mask_key *key, const uint8_t in[16],
								uint8_t out[16]);

/* The 128-bit mask of a ULID and its inverse (in and out may be the same). */
static inline void
ulid_mask128(const ulid_mask_key *key, const uint8_t in[16], uint8_t out[16])
{
	ulid_aes128_encrypt(&key->aes, in, out);
}

static inline void
ulid_unmask128(const ulid_mask_key *key, const uint8_t in[16], uint8_t out[16])
{
	ulid_aes128_decrypt(&key->aes, in, out);
}

/*
 * The mask of Snowflake id (the unsigned reading of a bigint) in layout l
 * and its inverse: SFL_ERR_RANGE (out untouched) when id is not an id of l
 * (as sfl_unpack() decides).
 */
extern sfl_status ulid_snowflake_mask(const ulid_mask_key *key,
									  const sfl_layout *l, uint64_t id,
									  uint64_t *out);
extern sfl_status ulid_snowflake_unmask(const ulid_mask_key *key,
										const sfl_layout *l, uint64_t id,
										uint64_t *out);

/*
 * The Feistel permutation of 0..2^bits-1 (bits = 1..63) and its inverse,
 * for a domain tag (0, or 1 for SCRU64); exposed for the tests, which
 * check every value of small domains.
 */
extern uint64_t ulid_fpe_encrypt(const ulid_sipkey *key, uint64_t x, int bits,
								 int tag);
extern uint64_t ulid_fpe_decrypt(const ulid_sipkey *key, uint64_t y, int bits,
								 int tag);

#endif							/* ULID_MASK_H */
