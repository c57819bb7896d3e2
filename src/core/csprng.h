/*-------------------------------------------------------------------------
 *
 * csprng.h
 *	  ChaCha20-based CSPRNG with fast key erasure (pure C, no PostgreSQL).
 *
 * The caller seeds it with 32 bytes from a strong source; every refill
 * produces a batch of ChaCha20 blocks whose first 32 bytes immediately
 * replace the key, so earlier output cannot be reconstructed from the
 * state (forward secrecy), and the rest is served to callers.
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_CSPRNG_H
#define ULID_CSPRNG_H

#include <stddef.h>
#include <stdint.h>

#define ULID_CSPRNG_SEED_BYTES	32
#define ULID_CSPRNG_BLOCKS		8
#define ULID_CSPRNG_BUF			(64 * ULID_CSPRNG_BLOCKS)

typedef struct ulid_csprng
{
	uint32_t	key[8];
	size_t		pos;			/* next unserved byte of buf */
	uint64_t	refills;		/* refills since the last seeding */
	uint8_t		buf[ULID_CSPRNG_BUF];
} ulid_csprng;

/* One ChaCha20 block (RFC 8439 section 2.3). */
extern void ulid_chacha20_block(const uint32_t key[8], uint32_t counter,
								const uint32_t nonce[3], uint8_t out[64]);

extern void ulid_csprng_seed(ulid_csprng *r,
							 const uint8_t seed[ULID_CSPRNG_SEED_BYTES]);
extern void ulid_csprng_refill(ulid_csprng *r);

/* Copy n bytes of output to out. */
static inline void
ulid_csprng_bytes(ulid_csprng *r, uint8_t *out, size_t n)
{
	while (n > 0)
	{
		size_t		take;

		if (r->pos >= ULID_CSPRNG_BUF)
			ulid_csprng_refill(r);
		take = ULID_CSPRNG_BUF - r->pos;
		if (take > n)
			take = n;
		for (size_t i = 0; i < take; i++)
		{
			out[i] = r->buf[r->pos + i];
			r->buf[r->pos + i] = 0;		/* served bytes are not kept */
		}
		r->pos += take;
		out += take;
		n -= take;
	}
}

#endif							/* ULID_CSPRNG_H */
