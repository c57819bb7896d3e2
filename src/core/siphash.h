/*-------------------------------------------------------------------------
 *
 * siphash.h
 *	  SipHash (Aumasson and Bernstein, 2012), the keyed PRF behind the UUIDv47
 *	  facade and the Snowflake mask (pure C, no PostgreSQL calls).
 *
 * A key is two 64-bit words k0, k1; a 16-byte secret is read as k0 then k1,
 * each 8 bytes little-endian, as the UUIDv47 reference reads a bytea key.
 * ulid_sip_init() folds a key into the four initial state words once, so
 * a call costs only its rounds.  SipHash-c-d runs c compression rounds per
 * 8-byte block and d finalization rounds: SipHash-2-4 is the paper's
 * recommended PRF (and the UUIDv47 reference's), SipHash-1-3 the faster
 * variant Rust's and Python's hash tables use.
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_SIPHASH_H
#define ULID_SIPHASH_H

#include <stddef.h>
#include <stdint.h>

/* A key folded into SipHash's initial state. */
typedef struct ulid_sipkey
{
	uint64_t	v0,
				v1,
				v2,
				v3;
} ulid_sipkey;

/* 8 bytes little-endian, whatever the host's byte order */
static inline uint64_t
ulid_load_le64(const uint8_t *p)
{
	return (uint64_t) p[0] | ((uint64_t) p[1] << 8) | ((uint64_t) p[2] << 16) |
		((uint64_t) p[3] << 24) | ((uint64_t) p[4] << 32) |
		((uint64_t) p[5] << 40) | ((uint64_t) p[6] << 48) |
		((uint64_t) p[7] << 56);
}

extern void ulid_sip_init(ulid_sipkey *key, uint64_t k0, uint64_t k1);

/* SipHash-2-4 of in[0..len) */
extern uint64_t ulid_siphash24(const ulid_sipkey *key, const uint8_t *in,
							   size_t len);

/* SipHash-1-3 of in[0..len) */
extern uint64_t ulid_siphash13(const ulid_sipkey *key, const uint8_t *in,
							   size_t len);

#define ULID_SIP_ROTL(x, b) (((x) << (b)) | ((x) >> (64 - (b))))
#define ULID_SIPROUND(v0, v1, v2, v3) \
	do { \
		v0 += v1; v1 = ULID_SIP_ROTL(v1, 13); v1 ^= v0; v0 = ULID_SIP_ROTL(v0, 32); \
		v2 += v3; v3 = ULID_SIP_ROTL(v3, 16); v3 ^= v2; \
		v0 += v3; v3 = ULID_SIP_ROTL(v3, 21); v3 ^= v0; \
		v2 += v1; v1 = ULID_SIP_ROTL(v1, 17); v1 ^= v2; v2 = ULID_SIP_ROTL(v2, 32); \
	} while (0)

/*
 * SipHash-1-3 of a message of at most 7 bytes, given as its final block: the
 * bytes little-endian in the low 56 bits and the length in the top byte.
 * Equal to ulid_siphash13() of those bytes; inline for the Snowflake
 * mask's Feistel rounds, each of which is one such call.
 */
static inline uint64_t
ulid_siphash13_block(const ulid_sipkey *key, uint64_t block)
{
	uint64_t	v0 = key->v0,
				v1 = key->v1,
				v2 = key->v2,
				v3 = key->v3 ^ block;

	ULID_SIPROUND(v0, v1, v2, v3);
	v0 ^= block;
	v2 ^= 0xff;
	ULID_SIPROUND(v0, v1, v2, v3);
	ULID_SIPROUND(v0, v1, v2, v3);
	ULID_SIPROUND(v0, v1, v2, v3);
	return v0 ^ v1 ^ v2 ^ v3;
}

#endif							/* ULID_SIPHASH_H */
