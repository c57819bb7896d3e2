/*
 * Unit tests of the ChaCha20 CSPRNG core (src/core/csprng.c).
 */
#include <stdint.h>

#include "csprng.h"
#include "unit.h"

int
main(void)
{
	/* RFC 8439 section 2.3.2 test vector */
	uint32_t	key[8];
	const uint32_t nonce[3] = {0x09000000, 0x4a000000, 0x00000000};
	const uint8_t expect[64] = {
		0x10, 0xf1, 0xe7, 0xe4, 0xd1, 0x3b, 0x59, 0x15, 0x50, 0x0f, 0xdd, 0x1f, 0xa3, 0x20, 0x71, 0xc4,
		0xc7, 0xd1, 0xf4, 0xc7, 0x33, 0xc0, 0x68, 0x03, 0x04, 0x22, 0xaa, 0x9a, 0xc3, 0xd4, 0x6c, 0x4e,
		0xd2, 0x82, 0x64, 0x46, 0x07, 0x9f, 0xaa, 0x09, 0x14, 0xc2, 0xd7, 0x05, 0xd9, 0x8b, 0x02, 0xa2,
		0xb5, 0x12, 0x9c, 0xd1, 0xde, 0x16, 0x4e, 0xb9, 0xcb, 0xd0, 0x83, 0xe8, 0xa2, 0x50, 0x3c, 0x4e
	};
	uint8_t		block[64];
	uint8_t		seed[32];
	ulid_csprng a,
				b;
	uint8_t		x[1000],
				y[1000];

	for (int i = 0; i < 8; i++)
		key[i] = (uint32_t) (4 * i) | ((uint32_t) (4 * i + 1) << 8) |
			((uint32_t) (4 * i + 2) << 16) | ((uint32_t) (4 * i + 3) << 24);
	ulid_chacha20_block(key, 1, nonce, block);
	CHECK(memcmp(block, expect, 64) == 0, "ChaCha20 block matches RFC 8439 2.3.2");

	/* same seed, same stream; the stream does not depend on request sizes */
	for (int i = 0; i < 32; i++)
		seed[i] = (uint8_t) (i * 7 + 1);
	ulid_csprng_seed(&a, seed);
	ulid_csprng_seed(&b, seed);
	ulid_csprng_bytes(&a, x, sizeof(x));
	for (size_t off = 0; off < sizeof(y); off += 10)
		ulid_csprng_bytes(&b, y + off, 10);
	CHECK(memcmp(x, y, sizeof(x)) == 0, "output is independent of request sizes");
	CHECK(a.refills >= 2, "1000 bytes span more than one refill (%llu)", (unsigned long long) a.refills);

	/* the key changes on each refill (fast key erasure) */
	{
		uint32_t	k0[8];

		memcpy(k0, a.key, sizeof(k0));
		ulid_csprng_refill(&a);
		CHECK(memcmp(k0, a.key, sizeof(k0)) != 0, "refill replaces the key");
	}

	/* a different seed gives a different stream */
	seed[0] ^= 1;
	ulid_csprng_seed(&b, seed);
	ulid_csprng_bytes(&b, y, sizeof(y));
	CHECK(memcmp(x, y, sizeof(x)) != 0, "a different seed gives a different stream");

	/* crude bias check: bit frequency of 1 MB within 0.5% of half */
	{
		static uint8_t big[1 << 20];
		uint64_t	ones = 0;

		ulid_csprng_bytes(&a, big, sizeof(big));
		for (size_t i = 0; i < sizeof(big); i++)
			ones += (uint64_t) __builtin_popcount(big[i]);
		CHECK(ones > 8 * sizeof(big) / 2 * 995 / 1000 && ones < 8 * sizeof(big) / 2 * 1005 / 1000,
			  "bit frequency is balanced (%llu of %zu)", (unsigned long long) ones, 8 * sizeof(big));
	}
	return unit_done();
}
