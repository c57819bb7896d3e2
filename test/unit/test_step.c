/*
 * Unit tests of the monotonic generators' step (src/core/step.h): the
 * inline form the build uses (assembly on x86-64) and the portable form
 * agree with 128-bit arithmetic, carries and exhaustion included.
 */
#include <stdint.h>
#include <stdlib.h>

#include "step.h"
#include "unit.h"

/* (hi, lo) + add + 1 in 128 bits; false when it passes 2^128 - 1 */
static bool
ref_step(uint64_t *hi, uint64_t *lo, uint64_t add)
{
	unsigned __int128 v = ((unsigned __int128) *hi << 64) | *lo;
	unsigned __int128 w = v + (unsigned __int128) add + 1;

	if (w < v)
		return false;
	*hi = (uint64_t) (w >> 64);
	*lo = (uint64_t) w;
	return true;
}

/* one case through both forms; true when both match the reference */
static bool
agrees(uint64_t hi, uint64_t lo, uint64_t add)
{
	uint64_t	rh = hi,
				rl = lo,
				ah = hi,
				al = lo,
				ph = hi,
				pl = lo;
	bool		r = ref_step(&rh, &rl, add);
	bool		a = ulid_add_step(&ah, &al, add);
	bool		p = ulid_add_step_portable(&ph, &pl, add);

	return a == r && p == r && ah == rh && al == rl && ph == rh && pl == rl;
}

static uint64_t
rnd64(void)
{
	return ((uint64_t) rand() << 42) ^ ((uint64_t) rand() << 21) ^ (uint64_t) rand();
}

int
main(void)
{
	static const uint64_t edge[] = {0, 1, 2, UINT64_C(0x7FFFFFFFFFFFFFFF),
	UINT64_C(0x8000000000000000), UINT64_MAX - 1, UINT64_MAX};
	int			n = (int) (sizeof(edge) / sizeof(edge[0]));
	int			bad = 0,
				cases = 0;
	uint64_t	hi,
				lo;

	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			for (int k = 0; k < n; k++, cases++)
				bad += !agrees(edge[i], edge[j], edge[k]);
	CHECK(bad == 0, "%d edge cases of hi, lo and add agree with 128-bit arithmetic (%d bad)", cases, bad);

	srand(16);
	bad = 0;
	for (int t = 0; t < 1000000; t++)
	{
		hi = (t & 1) ? UINT64_MAX : rnd64();
		lo = (t & 2) ? ~rnd64() >> (t % 64) : rnd64();
		bad += !agrees(hi, lo, rnd64());
	}
	CHECK(bad == 0, "1000000 random cases agree, half of them at the last time part (%d bad)", bad);

	/* the named cases */
	hi = 5, lo = UINT64_MAX;
	CHECK(ulid_add_step(&hi, &lo, 0) && hi == 6 && lo == 0, "a step of 1 from lo all ones carries into hi");
	hi = 5, lo = 7;
	CHECK(ulid_add_step(&hi, &lo, UINT64_MAX) && hi == 6 && lo == 7,
		  "a step of 2^64 carries and leaves lo as it was");
	hi = 5, lo = 7;
	CHECK(ulid_add_step(&hi, &lo, 9) && hi == 5 && lo == 17, "a small step stays in lo");
	hi = UINT64_MAX, lo = UINT64_MAX - 3;
	CHECK(ulid_add_step(&hi, &lo, 2) && hi == UINT64_MAX && lo == UINT64_MAX,
		  "the last value is reachable");
	CHECK(!ulid_add_step(&hi, &lo, 0) && hi == UINT64_MAX && lo == UINT64_MAX,
		  "past the last value: false, the value unchanged");
	return unit_done();
}
