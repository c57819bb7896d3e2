/*-------------------------------------------------------------------------
 *
 * siphash.c
 *	  SipHash-2-4 and SipHash-1-3 over byte strings (pure C, no PostgreSQL
 *	  calls), written from the paper's description.
 *
 *-------------------------------------------------------------------------
 */
#include "siphash.h"

void
ulid_sip_init(ulid_sipkey *key, uint64_t k0, uint64_t k1)
{
	/* "somepseudorandomlygeneratedbytes" */
	key->v0 = UINT64_C(0x736f6d6570736575) ^ k0;
	key->v1 = UINT64_C(0x646f72616e646f6d) ^ k1;
	key->v2 = UINT64_C(0x6c7967656e657261) ^ k0;
	key->v3 = UINT64_C(0x7465646279746573) ^ k1;
}

/* SipHash-c-d: c rounds per block (the last holds the length), d at the end */
static inline uint64_t
siphash_cd(const ulid_sipkey *key, const uint8_t *in, size_t len, int c, int d)
{
	uint64_t	v0 = key->v0,
				v1 = key->v1,
				v2 = key->v2,
				v3 = key->v3;
	uint64_t	last = (uint64_t) len << 56;
	size_t		full = len & ~(size_t) 7;

	for (size_t off = 0; off < full; off += 8)
	{
		uint64_t	m = ulid_load_le64(in + off);

		v3 ^= m;
		for (int i = 0; i < c; i++)
			ULID_SIPROUND(v0, v1, v2, v3);
		v0 ^= m;
	}
	for (size_t i = full; i < len; i++)
		last |= (uint64_t) in[i] << (8 * (i - full));
	v3 ^= last;
	for (int i = 0; i < c; i++)
		ULID_SIPROUND(v0, v1, v2, v3);
	v0 ^= last;
	v2 ^= 0xff;
	for (int i = 0; i < d; i++)
		ULID_SIPROUND(v0, v1, v2, v3);
	return v0 ^ v1 ^ v2 ^ v3;
}

uint64_t
ulid_siphash24(const ulid_sipkey *key, const uint8_t *in, size_t len)
{
	return siphash_cd(key, in, len, 2, 4);
}

uint64_t
ulid_siphash13(const ulid_sipkey *key, const uint8_t *in, size_t len)
{
	return siphash_cd(key, in, len, 1, 3);
}
