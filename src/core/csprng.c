/*-------------------------------------------------------------------------
 *
 * csprng.c
 *	  ChaCha20 block function and the fast-key-erasure generator built on it
 *	  (pure C, no PostgreSQL calls).
 *
 *-------------------------------------------------------------------------
 */
#include <string.h>

#include "csprng.h"

#define ROTL32(v, n) (((v) << (n)) | ((v) >> (32 - (n))))
#define QR(a, b, c, d) \
	do { \
		a += b; d ^= a; d = ROTL32(d, 16); \
		c += d; b ^= c; b = ROTL32(b, 12); \
		a += b; d ^= a; d = ROTL32(d, 8); \
		c += d; b ^= c; b = ROTL32(b, 7); \
	} while (0)

void
ulid_chacha20_block(const uint32_t key[8], uint32_t counter,
					const uint32_t nonce[3], uint8_t out[64])
{
	uint32_t	in[16];
	uint32_t	x[16];

	in[0] = 0x61707865;
	in[1] = 0x3320646e;
	in[2] = 0x79622d32;
	in[3] = 0x6b206574;
	for (int i = 0; i < 8; i++)
		in[4 + i] = key[i];
	in[12] = counter;
	in[13] = nonce[0];
	in[14] = nonce[1];
	in[15] = nonce[2];

	memcpy(x, in, sizeof(x));
	for (int i = 0; i < 10; i++)
	{
		QR(x[0], x[4], x[8], x[12]);
		QR(x[1], x[5], x[9], x[13]);
		QR(x[2], x[6], x[10], x[14]);
		QR(x[3], x[7], x[11], x[15]);
		QR(x[0], x[5], x[10], x[15]);
		QR(x[1], x[6], x[11], x[12]);
		QR(x[2], x[7], x[8], x[13]);
		QR(x[3], x[4], x[9], x[14]);
	}
	for (int i = 0; i < 16; i++)
	{
		uint32_t	v = x[i] + in[i];

		out[4 * i] = (uint8_t) v;
		out[4 * i + 1] = (uint8_t) (v >> 8);
		out[4 * i + 2] = (uint8_t) (v >> 16);
		out[4 * i + 3] = (uint8_t) (v >> 24);
	}
}

/* A 256-bit key from 32 bytes, little-endian words as RFC 8439 reads them */
static void
load_key(uint32_t key[8], const uint8_t *b)
{
	for (int i = 0; i < 8; i++)
		key[i] = (uint32_t) b[4 * i] | ((uint32_t) b[4 * i + 1] << 8) |
			((uint32_t) b[4 * i + 2] << 16) | ((uint32_t) b[4 * i + 3] << 24);
}

void
ulid_csprng_seed(ulid_csprng *r, const uint8_t seed[ULID_CSPRNG_SEED_BYTES])
{
	load_key(r->key, seed);
	r->refills = 0;
	r->pos = ULID_CSPRNG_BUF;	/* empty: the first use refills */
}

void
ulid_csprng_refill(ulid_csprng *r)
{
	static const uint32_t nonce[3] = {0, 0, 0};
	uint8_t		first[64];

	/*
	 * Block 0 supplies the next key (its first 32 bytes) and 32 bytes of
	 * output; blocks 1..N-1 fill the rest of the buffer.  Each key is used
	 * for exactly one batch, so a fixed nonce and counters from 0 are safe.
	 */
	ulid_chacha20_block(r->key, 0, nonce, first);
	for (int b = 1; b < ULID_CSPRNG_BLOCKS; b++)
		ulid_chacha20_block(r->key, (uint32_t) b, nonce, r->buf + 64 * b);
	memcpy(r->buf + 32, first + 32, 32);
	load_key(r->key, first);
	memset(first, 0, sizeof(first));
	r->pos = 32;				/* buf[0..31] is never filled */
	r->refills++;
}
