/*-------------------------------------------------------------------------
 *
 * uuidv7.c
 *	  RFC 9562 UUIDv7 values and the per-backend monotonic step (pure C, no
 *	  PostgreSQL): see uuidv7.h for the layout.
 *
 * PostgreSQL 18's uuidv7() makes its values increase by forcing its clock
 * ahead: each call's time is at least 1/4096 ms (plus 1 ns) after the
 * previous one's, so the fraction itself counts.  That caps a backend at
 * about 4 million ids per second before its ids run ahead of the wall
 * clock; core's generator, at about 0.8 us an id, never gets there, but
 * this one does (tens of nanoseconds an id: a million ids, made in a query
 * of about 0.15 s, would span 0.25 s and end 0.1 s ahead of the clock).
 * So the fraction here is always the clock's own reading when the clock
 * has moved past the previous value's tick, and the order within one tick
 * (or while the clock is behind) comes from the tail, which then counts up
 * by random steps as gen_ulid()'s 80 bits do.  The bit layout and what a reader sees (a 12-bit fraction of the
 * millisecond, strictly increasing values within a backend) are core's.
 * After tens of thousands of ids on one tick the tail carries into the
 * fraction and the millisecond: the value moves 1/4096 ms ahead, it never
 * fails.  A million ids made while the clock is 30 s behind stay on the
 * last tick before the step, plus a few carries (test/scenarios/uuidv7.sh).
 * The state is the backend's own, apart from gen_ulid()'s (a ULID is no
 * UUIDv7); gen_typeid() draws from gen_uuidv7()'s.
 *
 *-------------------------------------------------------------------------
 */
#include "uuidv7.h"

#include "bytes.h"

#define TAIL_LIMIT	(UINT64_C(1) << ULID_UUIDV7_TAIL_BITS)

bool
ulid_uuidv7_next(ulid_uuidv7_state *s, uint64_t now_tick, uint64_t r)
{
	uint64_t	tick = s->tick;
	uint64_t	tail;

	if (!s->valid || now_tick > tick)
	{
		if (now_tick > ULID_UUIDV7_MAX_TICK)
			return false;
		s->valid = true;
		s->tick = now_tick;
		s->tail = r >> (64 - ULID_UUIDV7_TAIL_BITS + 1);	/* 61 bits */
		return true;
	}
	tail = s->tail + (r >> 18) + 1; /* a step in 1..2^46; no overflow */
	if (tail >= TAIL_LIMIT)
	{
		if (tick == ULID_UUIDV7_MAX_TICK)
			return false;
		tail -= TAIL_LIMIT;
		tick++;
	}
	s->tick = tick;
	s->tail = tail;
	return true;
}

void
ulid_uuidv7_pack(uint64_t tick, uint64_t tail, uint8_t out[16])
{
	uint64_t	ms = tick >> ULID_UUIDV7_FRAC_BITS;
	uint64_t	frac = tick & ((1 << ULID_UUIDV7_FRAC_BITS) - 1);

	ulid_store_be64(out, (ms << 16) | (UINT64_C(7) << 12) | frac);
	ulid_store_be64(out + 8, (UINT64_C(2) << 62) | tail);
}
