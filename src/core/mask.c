/*-------------------------------------------------------------------------
 *
 * mask.c
 *	  The UUIDv47 facade, the ULID mask and the Snowflake mask (pure C, no
 *	  PostgreSQL calls): mask.h says what each computes.
 *
 *-------------------------------------------------------------------------
 */
#include "mask.h"

#include "bytes.h"

#define FPE_ROUNDS		5
#define SCRU64_TAG		1

void
ulid_mask_key_init(ulid_mask_key *key, const uint8_t secret[ULID_SECRET_BYTES])
{
	uint8_t		label[17] = "ulid snowflake 1";	/* and the byte 0, then 1 */
	uint64_t	k0,
				k1;

	ulid_sip_init(&key->uuidv47, ulid_load_le64(secret), ulid_load_le64(secret + 8));
	ulid_aes128_init(&key->aes, secret);
	k0 = ulid_siphash24(&key->uuidv47, label, sizeof(label));
	label[16] = 1;
	k1 = ulid_siphash24(&key->uuidv47, label, sizeof(label));
	ulid_sip_init(&key->snowflake, k0, k1);
}

/*
 * SipHash-2-4 of a UUID's 74 random bits as the reference lays them out in
 * 10 bytes (mask.h), the same for a UUIDv7 and its facade: one full block
 * and a final block of two bytes.
 */
static inline uint64_t
uuidv47_hash(const ulid_sipkey *key, const uint8_t u[16])
{
	uint64_t	m = (uint64_t) (u[6] & 0x0F) | ((uint64_t) u[7] << 8) |
		((uint64_t) (u[8] & 0x3F) << 16) | ((uint64_t) u[9] << 24) |
		((uint64_t) u[10] << 32) | ((uint64_t) u[11] << 40) |
		((uint64_t) u[12] << 48) | ((uint64_t) u[13] << 56);
	uint64_t	last = (UINT64_C(10) << 56) | ((uint64_t) u[15] << 8) | u[14];
	uint64_t	v0 = key->v0,
				v1 = key->v1,
				v2 = key->v2,
				v3 = key->v3 ^ m;

	ULID_SIPROUND(v0, v1, v2, v3);
	ULID_SIPROUND(v0, v1, v2, v3);
	v0 ^= m;
	v3 ^= last;
	ULID_SIPROUND(v0, v1, v2, v3);
	ULID_SIPROUND(v0, v1, v2, v3);
	v0 ^= last;
	v2 ^= 0xff;
	ULID_SIPROUND(v0, v1, v2, v3);
	ULID_SIPROUND(v0, v1, v2, v3);
	ULID_SIPROUND(v0, v1, v2, v3);
	ULID_SIPROUND(v0, v1, v2, v3);
	return v0 ^ v1 ^ v2 ^ v3;
}

/* XOR the 48-bit time with the hash, set the version; the variant is 10 */
static inline void
uuidv47_flip(const ulid_sipkey *key, const uint8_t in[16], uint8_t out[16],
			 int version)
{
	uint64_t	hi = ulid_load_be64(in);
	uint64_t	lo = ulid_load_be64(in + 8);
	uint64_t	mask48 = uuidv47_hash(key, in) & UINT64_C(0xFFFFFFFFFFFF);

	hi ^= mask48 << 16;
	hi = (hi & ~UINT64_C(0xF000)) | ((uint64_t) version << 12);
	ulid_store_be64(out, hi);
	ulid_store_be64(out + 8, lo);
}

/* version 7 or 4 (the high nibble of byte 6) and variant 10 (byte 8) */
static inline bool
is_rfc_version(const uint8_t u[16], int version)
{
	return (u[6] >> 4) == version && (u[8] & 0xC0) == 0x80;
}

bool
ulid_uuidv47_encode(const ulid_mask_key *key, const uint8_t in[16], uint8_t out[16])
{
	if (!is_rfc_version(in, 7))
		return false;
	uuidv47_flip(&key->uuidv47, in, out, 4);
	return true;
}

bool
ulid_uuidv47_decode(const ulid_mask_key *key, const uint8_t in[16], uint8_t out[16])
{
	if (!is_rfc_version(in, 4))
		return false;
	uuidv47_flip(&key->uuidv47, in, out, 7);
	return true;
}

/* --- the Snowflake mask ---------------------------------------------------- */

/* round i's function of a half b (< 2^32) */
static inline uint64_t
fpe_round(const ulid_sipkey *key, uint64_t b, int i, int bits, int tag)
{
	return ulid_siphash13_block(key, b | ((uint64_t) i << 32) |
								((uint64_t) bits << 40) |
								((uint64_t) tag << 48) | (UINT64_C(7) << 56));
}

/*
 * The state is (a, b) with a of wa bits on top; a round replaces a by
 * a ^ F(b) and swaps the two, so the halves trade sizes when bits is odd.
 */
uint64_t
ulid_fpe_encrypt(const ulid_sipkey *key, uint64_t x, int bits, int tag)
{
	int			wa = bits / 2,
				wb = bits - wa;
	uint64_t	a = x >> wb,
				b = x & sfl_mask(wb);

	for (int i = 0; i < FPE_ROUNDS; i++)
	{
		uint64_t	c = a ^ (fpe_round(key, b, i, bits, tag) & sfl_mask(wa));
		int			w = wa;

		a = b;
		b = c;
		wa = wb;
		wb = w;
	}
	return (a << wb) | b;
}

uint64_t
ulid_fpe_decrypt(const ulid_sipkey *key, uint64_t y, int bits, int tag)
{
	/* the sizes after an odd number of rounds are swapped */
	int			wa = (FPE_ROUNDS % 2) ? bits - bits / 2 : bits / 2,
				wb = bits - wa;
	uint64_t	a = y >> wb,
				b = y & sfl_mask(wb);

	for (int i = FPE_ROUNDS - 1; i >= 0; i--)
	{
		/* before round i: (b ^ F(a), a) */
		uint64_t	prev = b ^ (fpe_round(key, a, i, bits, tag) & sfl_mask(wb));
		int			w = wa;

		b = a;
		a = prev;
		wa = wb;
		wb = w;
	}
	return (a << wb) | b;
}

/*
 * The bits a layout's mask permutes and its domain tag; false when id is
 * not an id of the layout (sfl_unpack()'s rule).
 */
static inline bool
snowflake_domain(const sfl_layout *l, uint64_t id, int *bits, int *tag)
{
	*tag = l->preset == SFL_SCRU64 ? SCRU64_TAG : 0;
	*bits = l->width < 64 ? l->width : 63;
	if (l->width < 64 && (id >> l->width) != 0)
		return false;
	return *tag != SCRU64_TAG || id < SFL_SCRU64_LIMIT;
}

/* the mask (or, when unmask, its inverse) of id in layout l */
static sfl_status
snowflake_apply(const ulid_mask_key *key, const sfl_layout *l, uint64_t id,
				uint64_t *out, bool unmask)
{
	int			bits,
				tag;
	uint64_t	top,
				v;

	if (!snowflake_domain(l, id, &bits, &tag))
		return SFL_ERR_RANGE;
	top = id & ~sfl_mask(bits);
	v = id & sfl_mask(bits);
	do
		v = unmask ? ulid_fpe_decrypt(&key->snowflake, v, bits, tag) :
			ulid_fpe_encrypt(&key->snowflake, v, bits, tag);
	while (tag == SCRU64_TAG && v >= SFL_SCRU64_LIMIT);
	*out = top | v;
	return SFL_OK;
}

sfl_status
ulid_snowflake_mask(const ulid_mask_key *key, const sfl_layout *l, uint64_t id,
					uint64_t *out)
{
	return snowflake_apply(key, l, id, out, false);
}

sfl_status
ulid_snowflake_unmask(const ulid_mask_key *key, const sfl_layout *l, uint64_t id,
					  uint64_t *out)
{
	return snowflake_apply(key, l, id, out, true);
}
