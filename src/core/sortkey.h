/*-------------------------------------------------------------------------
 *
 * sortkey.h
 *	  The abbreviated sort key of a ULID (pure C, no PostgreSQL calls).
 *
 * Sorts compare 64-bit abbreviated keys first and the full 16 bytes only
 * when two keys are equal.  Core's uuid key is the first 8 bytes; for a
 * ULID that is 48 bits of time and the top 16 random bits, and ids made in
 * the same millisecond by one session (gen_ulid() adds a random step below
 * 2^64 to the low 64 bits) share it about half the time, so half of the
 * neighbour comparisons of a sort of fresh ids tie and read both tuples.
 *
 * This key sees past the first 8 bytes.  The top bits of a ULID are zero
 * for centuries (the time is below 2^41 ms until 2039-09-07, 2^42 until
 * 2109, 2^43 until 2248), and spending key bits on them is waste.  With z
 * the number of leading zero bits of the 128-bit value:
 *
 *	z >= 7	(until 2039)	key = 0 | bits 7..69 of the value
 *							(63 bits: 41 of time, 16 random, 6 of the low half)
 *	z < 7	(later)			key = 1^k 0 | bits z+1 .. z+63-k, with k = 7 - z
 *							(a unary exponent of k+1 bits, then the bits after
 *							the leading one, which is implied: 2039-2109 keep 5
 *							bits of the low half, to 2248 3, to 2527 1)
 *
 * Bits are numbered from the most significant (bit 0) of the 16 bytes.  At
 * z = 0 (from the year 6429 to the ULID maximum in 10889) the key holds 56
 * bits after the leading one.
 *
 * Why the key never contradicts byte order (a <= b bytewise implies
 * key(a) <= key(b), so key(a) < key(b) implies a < b; equal keys say
 * nothing and go to the full comparator):
 * - Values with more leading zeros are smaller.  The classes z >= 7, 6, 5,
 *   ..., 0 are thus in increasing order, and their prefixes 0, 10, 110, ...,
 *   11111110 are too, and none is a prefix of another.
 * - Within a class every value has the same leading bits (z >= 7: seven
 *   zeros; z < 7: z zeros and a one), so shifting them out keeps the order
 *   of the values, and truncating the shifted value keeps it non-decreasing.
 * test/unit/test_sortkey.c checks both over the whole time range.
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_SORTKEY_H
#define ULID_SORTKEY_H

#include <stdint.h>

/* leading zero bits of the 128-bit value that the z >= 7 class skips */
#define ULID_SORTKEY_SKIP	7

/*
 * The key of the value whose first and last 8 bytes, read big-endian, are
 * hi and lo.
 */
static inline uint64_t
ulid_sort_key(uint64_t hi, uint64_t lo)
{
	int			z;
	int			k;
	uint64_t	m;

	if (hi < (UINT64_C(1) << (64 - ULID_SORTKEY_SKIP)))
		return ((hi << ULID_SORTKEY_SKIP) | (lo >> (64 - ULID_SORTKEY_SKIP))) >> 1;

#if defined(__GNUC__)
	z = __builtin_clzll(hi);	/* 0..6: hi is not 0 here */
#else
	for (z = 0; !(hi >> (63 - z)); z++)
		;
#endif
	k = ULID_SORTKEY_SKIP - z;	/* 1..7 */
	/* drop the z zeros and the leading one: a shift of 1..7 bits */
	m = (hi << (z + 1)) | (lo >> (63 - z));
	return ~(~UINT64_C(0) >> k) | (m >> (k + 1));
}

#endif							/* ULID_SORTKEY_H */
