/*
 * unit.h: a tiny TAP-style checker for the pure-C unit tests.
 * Each CHECK prints "ok - ..." or "not ok - ..."; unit_done() returns the
 * exit status (non-zero when any check failed).
 */
#ifndef ULID_UNIT_H
#define ULID_UNIT_H

#include <stdio.h>
#include <string.h>

static int	unit_failed = 0;
static int	unit_passed = 0;

#define CHECK(cond, ...) \
	do { \
		if (cond) { unit_passed++; printf("ok - "); } \
		else { unit_failed++; printf("not ok - "); } \
		printf(__VA_ARGS__); \
		printf("\n"); \
	} while (0)


static inline int
unit_done(void)
{
	fflush(stdout);				/* keep the summary after the last result */
	fprintf(stderr, "# %d passed, %d failed\n", unit_passed, unit_failed);
	return unit_failed ? 1 : 0;
}

#endif
