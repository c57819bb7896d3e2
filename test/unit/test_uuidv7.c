/*
 * Unit tests of the UUIDv7 core (src/core/uuidv7.c): the tick of a time,
 * the layout, and the monotonic step at every overflow: the tail into the
 * fraction, the fraction into the milliseconds, and the end of the range.
 */
#include <stdint.h>
#include <stdlib.h>

#include "bytes.h"
#include "rng.h"
#include "unit.h"
#include "uuidv7.h"

#define TAIL_MAX	((UINT64_C(1) << 62) - 1)
#define TICK(ms, frac)	(((uint64_t) (ms) << 12) | (frac))

/* version 7 and the RFC variant in the 16 bytes */
static int
v7_bits(const uint8_t b[16])
{
	return (b[6] >> 4) == 7 && (b[8] >> 6) == 2;
}

int
main(void)
{
	ulid_uuidv7_state s = {0};
	uint8_t		b[16],
				prev[16];
	int			bad;

	/* the tick: core's formula, floor(4096 * ns-in-ms / 10^6) */
	CHECK(ulid_uuidv7_tick(0, 1000000) == 0, "tick of 0 ns");
	CHECK(ulid_uuidv7_tick(1712345678901000000u, 1000000) == TICK(1712345678901u, 0),
		  "tick of a whole millisecond: fraction 0");
	CHECK(ulid_uuidv7_tick(1712345678901999999u, 1000000) == TICK(1712345678901u, 4095),
		  "the last nanosecond of a millisecond: fraction 4095");
	CHECK(ulid_uuidv7_tick(1712345678901000244u, 1000000) == TICK(1712345678901u, 0) &&
		  ulid_uuidv7_tick(1712345678901000245u, 1000000) == TICK(1712345678901u, 1),
		  "1/4096 ms is 244.14 ns");
	CHECK(ulid_uuidv7_tick(1712345678901500u, 1000) == TICK(1712345678901u, 2048),
		  "microseconds: 500 us is fraction 2048");
	CHECK(ulid_uuidv7_tick(UINT64_C(0xFFFFFFFFFFFF) * 1000 + 999, 1000) == ULID_UUIDV7_MAX_TICK - 4,
		  "the last microsecond of the range: fraction 4091 (999 us)");

	/*
	 * gen_ulid()'s multiply (ulid_tick16_in_second) against the division:
	 * equal at every tick's first and last nanosecond of the second, so
	 * (both being monotone) at every nanosecond
	 */
	bad = 0;
	for (uint64_t t = 0; t < 4096000; t++)
	{
		uint64_t	first = (t * 15625 + 63) / 64;	/* ceil(t * 10^6 / 4096) */
		uint64_t	last_ns = ((t + 1) * 15625 + 63) / 64 - 1;

		if (ulid_tick16_in_second(first) != t << 4 ||
			ulid_tick16_in_second(last_ns) != t << 4 ||
			ulid_uuidv7_tick(first, 1000000) != TICK(t / 4096, t % 4096))
			bad++;
	}
	CHECK(bad == 0 && ulid_tick16_in_second(999999999) == UINT64_C(4095999) << 4,
		  "tick16 in the second: the multiply equals the division at all 4,096,000 ticks' ends (%d bad)",
		  bad);

	/* the layout */
	ulid_uuidv7_pack(TICK(0x0123456789ABu, 0xCDE), UINT64_C(0x0123456789ABCDEF) & TAIL_MAX, b);
	CHECK(ulid_load_be64(b) == UINT64_C(0x0123456789AB7CDE) &&
		  ulid_load_be64(b + 8) == UINT64_C(0x8123456789ABCDEF),
		  "pack: ms, version 7, fraction, variant 10, tail");
	ulid_uuidv7_pack(ULID_UUIDV7_MAX_TICK, TAIL_MAX, b);
	CHECK(ulid_load_be64(b) == UINT64_C(0xFFFFFFFFFFFF7FFF) &&
		  ulid_load_be64(b + 8) == UINT64_C(0xBFFFFFFFFFFFFFFF), "pack: the largest value");

	/* first value: the clock's tick, a tail with its top bit clear */
	CHECK(ulid_uuidv7_next(&s, TICK(1000, 7), UINT64_MAX) && s.valid &&
		  s.tick == TICK(1000, 7) && s.tail == (TAIL_MAX >> 1),
		  "first value: the clock's tick, 61 random bits");
	/* the same tick: a step of 1..2^46 */
	CHECK(ulid_uuidv7_next(&s, TICK(1000, 7), 0) && s.tick == TICK(1000, 7) &&
		  s.tail == (TAIL_MAX >> 1) + 1, "same tick, smallest step: +1");
	CHECK(ulid_uuidv7_next(&s, TICK(1000, 7), UINT64_MAX) && s.tick == TICK(1000, 7) &&
		  s.tail == (TAIL_MAX >> 1) + 1 + (UINT64_C(1) << 46), "same tick, largest step: +2^46");
	/* the clock behind: steps on the previous tick */
	CHECK(ulid_uuidv7_next(&s, TICK(990, 0), 0) && s.tick == TICK(1000, 7) &&
		  s.tail == (TAIL_MAX >> 1) + 2 + (UINT64_C(1) << 46), "clock behind: a step on the previous tick");
	/* the clock ahead: a fresh value on its tick */
	CHECK(ulid_uuidv7_next(&s, TICK(1000, 8), UINT64_C(8)) && s.tick == TICK(1000, 8) && s.tail == 1,
		  "clock ahead by 1/4096 ms: fresh value on the new tick");

	/* overflow of the tail into the fraction */
	s.tick = TICK(1000, 8);
	s.tail = TAIL_MAX;
	CHECK(ulid_uuidv7_next(&s, TICK(1000, 8), 0) && s.tick == TICK(1000, 9) && s.tail == 0,
		  "tail overflow carries into the fraction");
	s.tail = TAIL_MAX - 5;
	CHECK(ulid_uuidv7_next(&s, TICK(999, 0), UINT64_MAX) && s.tick == TICK(1000, 10) &&
		  s.tail == (UINT64_C(1) << 46) - 6, "tail overflow with the clock behind, largest step");
	/* overflow of the fraction into the milliseconds */
	s.tick = TICK(1000, 4095);
	s.tail = TAIL_MAX;
	CHECK(ulid_uuidv7_next(&s, TICK(1000, 4095), 0) && s.tick == TICK(1001, 0) && s.tail == 0,
		  "fraction 4095 overflows into the next millisecond");
	ulid_uuidv7_pack(TICK(1000, 4095), TAIL_MAX, prev);
	ulid_uuidv7_pack(s.tick, s.tail, b);
	CHECK(memcmp(prev, b, 16) < 0 && v7_bits(b), "... and the bytes increase across it");
	/* the clock catching up after a carry: steps, then fresh */
	CHECK(ulid_uuidv7_next(&s, TICK(1001, 0), 0) && s.tick == TICK(1001, 0) && s.tail == 1,
		  "clock reaching the carried tick: a step");
	/* the end of the range: false, state unchanged */
	s.tick = ULID_UUIDV7_MAX_TICK;
	s.tail = TAIL_MAX - 3;
	CHECK(ulid_uuidv7_next(&s, ULID_UUIDV7_MAX_TICK, 1) && s.tail == TAIL_MAX - 2,
		  "the last tick: steps while the tail has room");
	CHECK(!ulid_uuidv7_next(&s, ULID_UUIDV7_MAX_TICK, UINT64_MAX) &&
		  s.tick == ULID_UUIDV7_MAX_TICK && s.tail == TAIL_MAX - 2,
		  "exhausted: false, state unchanged");
	s.valid = false;
	CHECK(!ulid_uuidv7_next(&s, ULID_UUIDV7_MAX_TICK + 1, 0) && !s.valid,
		  "a clock past the last tick: false");

	/*
	 * 2M values on a clock that stalls, steps back, jumps ahead; the tail
	 * starts near its end so the fraction and millisecond carries happen
	 * many times: every value increases and has the version and variant.
	 */
	s.valid = true;
	s.tick = TICK(5000, 4094);
	s.tail = TAIL_MAX - (UINT64_C(1) << 50);
	ulid_uuidv7_pack(s.tick, s.tail, prev);
	bad = 0;
	{
		uint64_t	clock = TICK(5000, 4000);
		int			carries = 0;

		for (int i = 0; i < 2000000; i++)
		{
			uint64_t	r = test_rng();
			uint64_t	before = s.tick;

			switch (r % 8)
			{
				case 0:
					clock += r % 3; /* advances a little */
					break;
				case 1:
					clock -= (clock > 10000) ? r % 10000 : 0;	/* steps back */
					break;
				default:
					break;		/* stalls */
			}
			/* mostly tiny tails left, so carries are frequent */
			if (i % 1000 == 0)
				s.tail = TAIL_MAX - (test_rng() % (UINT64_C(1) << 48));
			ulid_uuidv7_pack(s.tick, s.tail, prev);
			if (!ulid_uuidv7_next(&s, clock, test_rng()))
				bad++;
			carries += (s.tick == before + 1 && clock <= before);
			ulid_uuidv7_pack(s.tick, s.tail, b);
			if (memcmp(prev, b, 16) >= 0 || !v7_bits(b))
				bad++;
		}
		CHECK(bad == 0, "2M values with stalls, steps back and carries: strictly increasing, version 7");
		CHECK(carries > 1000, "... with %d carries into the fraction", carries);
	}
	return unit_done();
}
