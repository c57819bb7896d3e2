/*-------------------------------------------------------------------------
 *
 * step.h
 *	  The random step of the monotonic generators: a 128-bit ULID held as
 *	  two 64-bit halves, advanced by 1..2^64 (pure C, no PostgreSQL).
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_STEP_H
#define ULID_STEP_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The portable form: n = lo + step mod 2^64 for the step add + 1 in
 * 1..2^64; it carried exactly when n <= lo (a step of 2^64 gives n == lo),
 * and hi + carry wraps exactly when the 128 bits are exhausted.
 */
static inline bool
ulid_add_step_portable(uint64_t *hi, uint64_t *lo, uint64_t add)
{
	uint64_t	n = *lo + add + 1;
	uint64_t	h = *hi + (uint64_t) (n <= *lo);

	if (h < *hi)
		return false;
	*hi = h;
	*lo = n;
	return true;
}

/*
 * Advance (hi, lo) by add + 1 (a step in 1..2^64 when add is random),
 * carrying into the time part.  Returns false, leaving the value unchanged,
 * when the 128 bits are exhausted.  No allocation, no error: safe to call
 * under a spinlock.
 */
static inline bool
ulid_add_step(uint64_t *hi, uint64_t *lo, uint64_t add)
{
#if defined(__GNUC__) && defined(__x86_64__)
	uint64_t	n = *lo;
	uint64_t	h = *hi;
	bool		exhausted;

	/*
	 * The same as ulid_add_step_portable() in three instructions: lo + add
	 * + 1 as one add with the carry flag set, its carry into hi, and hi's
	 * carry out as the exhaustion (GCC 6+ and clang 9+ return a flag through
	 * "=@ccc").  The unit test compares the two.
	 */
	__asm__("stc\n\tadcq %[add], %[n]\n\tadcq $0, %[h]"
			: [n] "+r"(n), [h] "+r"(h), "=@ccc"(exhausted)
			: [add] "r"(add)
			: "cc");
	if (__builtin_expect(exhausted, 0))
		return false;
	*hi = h;
	*lo = n;
	return true;
#else
	return ulid_add_step_portable(hi, lo, add);
#endif
}

#endif							/* ULID_STEP_H */
