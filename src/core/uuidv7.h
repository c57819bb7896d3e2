/*-------------------------------------------------------------------------
 *
 * uuidv7.h
 *	  RFC 9562 UUIDv7 values and the per-backend monotonic step (pure C, no
 *	  PostgreSQL).
 *
 * Layout, most significant first: 48 bits of Unix milliseconds, the version
 * (4 bits, 7), a 12-bit sub-millisecond fraction in 1/4096 ms ("rand_a"
 * holding increased clock precision: RFC 9562 section 6.2, method 3, as
 * PostgreSQL 18's uuidv7() does), the variant (2 bits, binary 10) and a
 * 62-bit tail ("rand_b").  The milliseconds and the fraction together are
 * the value's tick: ms * 4096 + fraction, 60 bits.  Since the version and
 * variant bits are constant, byte order is (tick, tail) order.
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_UUIDV7_H
#define ULID_UUIDV7_H

#include <stdbool.h>
#include <stdint.h>

#define ULID_UUIDV7_FRAC_BITS	12
#define ULID_UUIDV7_TAIL_BITS	62
/* the last tick: 2^48 - 1 ms, fraction 4095 */
#define ULID_UUIDV7_MAX_TICK	((UINT64_C(1) << 60) - 1)

/* A generator's previous value (valid is false before the first one). */
typedef struct ulid_uuidv7_state
{
	bool		valid;
	uint64_t	tick;			/* ms << 12 | fraction */
	uint64_t	tail;			/* < 2^62 */
} ulid_uuidv7_state;

/*
 * The tick of a Unix time t >= 0 counted in units of 1/per_ms ms (10^6 for
 * nanoseconds, 1000 for microseconds): its millisecond and the 1/4096 ms it
 * falls in (the floor of 4096 * (t mod per_ms) / per_ms, as PostgreSQL 18
 * computes it from nanoseconds).
 */
static inline uint64_t
ulid_uuidv7_tick(uint64_t t, uint64_t per_ms)
{
	uint64_t	frac = (t % per_ms) * (1 << ULID_UUIDV7_FRAC_BITS) / per_ms;

	return ((t / per_ms) << ULID_UUIDV7_FRAC_BITS) | frac;
}

/*
 * 16 times the tick within the second of ns nanoseconds (ns < 10^9), that
 * is ulid_uuidv7_tick(ns, 1000000) << 4: floor(ns * 2^16 / 10^6) with its
 * low 4 bits cleared.  With 128-bit integers, the high half of one multiply
 * by M = ceil(2^74 / 15625) and a mask: exact, as M overshoots 2^74 / 15625
 * by less than 1, so ns * M overshoots ns * 2^74 / 15625 by less than 10^9,
 * while that value lies at least 2^64 / 15625 (over 10^15) below the next
 * multiple of 2^64 unless it is one.
 * gen_ulid()'s start (ulid.h); test_uuidv7.c checks every tick's first and
 * last nanosecond.
 */
static inline uint64_t
ulid_tick16_in_second(uint64_t ns)
{
#ifdef __SIZEOF_INT128__
	return (uint64_t) (((unsigned __int128) ns * UINT64_C(0x10c6f7a0b5ed8d37)) >> 64) &
		~(uint64_t) 15;
#else
	return ((ns << ULID_UUIDV7_FRAC_BITS) / 1000000) << 4;
#endif
}

/*
 * The next value of a monotonic generator whose clock reads now_tick, from
 * one random 64-bit word r.  When now_tick is after the previous value's
 * tick (or there is none), the value is (now_tick, 61 bits of r): the tail's
 * top bit is clear, leaving room for at least 2^15 steps.  Otherwise (the
 * same tick, a coarse clock, or the clock behind the previous value) it is
 * the previous value plus a random step in 1..2^46 (from r), the tail
 * carrying into the fraction and the fraction into the milliseconds: a
 * carry moves the value 1/4096 ms ahead and never fails.  Returns false,
 * leaving the state unchanged, when the 122 bits are exhausted (past
 * 10889-08-02) or now_tick is past the last tick.
 */
extern bool ulid_uuidv7_next(ulid_uuidv7_state *s, uint64_t now_tick, uint64_t r);

/* The 16 bytes of (tick, tail), with the version and variant bits set. */
extern void ulid_uuidv7_pack(uint64_t tick, uint64_t tail, uint8_t out[16]);

#endif							/* ULID_UUIDV7_H */
