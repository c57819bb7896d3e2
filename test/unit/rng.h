/*
 * rng.h: a deterministic 64-bit generator (splitmix64) for the unit tests,
 * so every run checks the same values.
 */
#ifndef ULID_TEST_RNG_H
#define ULID_TEST_RNG_H

#include <stdint.h>

static uint64_t test_rng_state = 0x9E3779B97F4A7C15u;

static inline uint64_t
test_rng(void)
{
	uint64_t	z = (test_rng_state += 0x9E3779B97F4A7C15u);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
	return z ^ (z >> 31);
}

/* a value with a random number of significant bits, so small ones occur */
static inline uint64_t
test_rng_any(void)
{
	uint64_t	v = test_rng();
	int			bits = (int) (test_rng() % 65);

	return bits == 64 ? v : v & ((UINT64_C(1) << bits) - 1);
}

#endif
