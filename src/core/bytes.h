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

static inline uint64_t
ulid_load_be64(const uint8_t *p)
{
	return ((uint64_t) p[0] << 56) | ((uint64_t) p[1] << 48) |
		((uint64_t) p[2] << 40) | ((uint64_t) p[3] << 32) |
		((uint64_t) p[4] << 24) | ((uint64_t) p[5] << 16) |
		((uint64_t) p[6] << 8) | (uint64_t) p[7];
}

static inline void
ulid_store_be64(uint8_t *p, uint64_t v)
{
	for (int i = 7; i >= 0; i--)
	{
		p[i] = (uint8_t) v;
		v >>= 8;
	}
}

#endif							/* ULID_BYTES_H */
