/*-------------------------------------------------------------------------
 *
 * gen.h
 *	  The start and step rules shared by every monotonic ULID generator.
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_GEN_H
#define ULID_GEN_H

#include "ulid.h"

#include "common/int.h"

/*
 * The start of a monotonic run at unix_ms: 80 random bits with the top one
 * cleared, leaving room for 2^15 steps.
 */
static inline void
ulid_fresh_halves(int64 unix_ms, uint64 *hi, uint64 *lo)
{
	*hi = ((uint64) unix_ms << 16) | (ulid_random_u80(lo) & 0x7FFF);
}

/*
 * Advance (hi, lo) by add + 1 (a step in 1..2^64 when add is random),
 * carrying into the time part.  Returns false, leaving the value unchanged,
 * when the 128 bits are exhausted.  No allocation, no error: safe to call
 * under a spinlock.
 */
static inline bool
ulid_add_step(uint64 *hi, uint64 *lo, uint64 add)
{
	/*
	 * n = lo + step mod 2^64 for the step add + 1 in 1..2^64; it carried
	 * exactly when n <= lo (a step of 2^64 gives n == lo).  No branch but
	 * the exhaustion test.
	 */
	uint64		n = *lo + add + 1;
	uint64		h;

	if (unlikely(pg_add_u64_overflow(*hi, (uint64) (n <= *lo), &h)))
		return false;
	*hi = h;
	*lo = n;
	return true;
}

/* ERROR 22008 for a generator that ran past the last representable time */
extern void ulid_report_time_exhausted(void);

#endif							/* ULID_GEN_H */
