/*-------------------------------------------------------------------------
 *
 * bytes.h
 *	  Big-endian loads and stores (pure C, shared by every module).
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_BYTES_H
#define ULID_BYTES_H

#include <stdint.h>
#include <string.h>

/* one 8-byte load or store and a byte swap where the compiler has one */
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ULID_BE64(v)	__builtin_bswap64(v)
#elif defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define ULID_BE64(v)	(v)
#endif

static inline uint64_t
ulid_load_be64(const uint8_t *p)
{
#ifdef ULID_BE64
	uint64_t	v;

	memcpy(&v, p, 8);
	return ULID_BE64(v);
#else
	return ((uint64_t) p[0] << 56) | ((uint64_t) p[1] << 48) |
		((uint64_t) p[2] << 40) | ((uint64_t) p[3] << 32) |
		((uint64_t) p[4] << 24) | ((uint64_t) p[5] << 16) |
		((uint64_t) p[6] << 8) | (uint64_t) p[7];
#endif
}

static inline void
ulid_store_be64(uint8_t *p, uint64_t v)
{
#ifdef ULID_BE64
	v = ULID_BE64(v);
	memcpy(p, &v, 8);
#else
	for (int i = 7; i >= 0; i--)
	{
		p[i] = (uint8_t) v;
		v >>= 8;
	}
#endif
}

#endif							/* ULID_BYTES_H */
