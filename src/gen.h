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

#include "step.h"

/*
 * The start of a monotonic run at unix_ms: 80 random bits with the top one
 * cleared, leaving room for 2^15 steps.
 */
static inline void
ulid_fresh_halves(int64 unix_ms, uint64 *hi, uint64 *lo)
{
	*hi = ((uint64) unix_ms << 16) | (ulid_random_u80(lo) & 0x7FFF);
}

/* ERROR 22008 for a generator that ran past the last representable time */
extern ULID_NORETURN void ulid_report_time_exhausted(void);

#endif							/* ULID_GEN_H */
