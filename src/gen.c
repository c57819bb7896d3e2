/*-------------------------------------------------------------------------
 *
 * gen.c
 *	  The per-backend ULID generators: gen_ulid(), gen_random_ulid() and
 *	  gen_ulid(timestamptz).
 *
 * gen_ulid() is monotonic within the calling backend, as PostgreSQL 18's
 * uuidv7() is, and keeps a primary key's index at its right edge when
 * several sessions insert at once.  Its 80 bits after the millisecond (from
 * 1.3): the fraction of the millisecond in 12 bits (RFC 9562 6.2 method 3,
 * the clock's nanoseconds scaled as core's uuidv7() does), then 68 bits from
 * the CSPRNG.  A reading later than the previous id's tick (1/4096 ms)
 * starts from it with 68 fresh bits; otherwise (the
 * same tick, or the clock behind the previous id) it returns the previous
 * value plus a random step in 1..2^64, carrying into the fraction and the
 * millisecond on overflow.  The next id stays unguessable (68 fresh bits,
 * or a 64-bit random step), the ids one session inserts arrive in order,
 * and concurrent sessions' ids interleave in time order instead of each
 * counting up from its own random point of the millisecond (1.2 did that:
 * 4 sessions inserting batches added 51.6 leaf pages per 10,000 rows
 * against 38.3 for time-ordered keys).  Ids of 1.2 and 1.3 have one format.
 *
 * gen_ulid() is PARALLEL RESTRICTED: its state is the backend's own, so a
 * parallel query calls it in the leader and keeps the order.
 * gen_monotonic_ulid() (shared state, visible to workers) is PARALLEL SAFE.
 * gen_random_ulid() (80 fresh bits every call, no order within a
 * millisecond) is PARALLEL SAFE; gen_ulid(at) never reads or changes the
 * backend's state.
 *
 *-------------------------------------------------------------------------
 */
#include "ulid.h"

#include "utils/timestamp.h"

#include "gen.h"

/*
 * the previous gen_ulid() value of this backend: its first 64 bits as a
 * number (compared with the clock, stepped) and all 16 bytes as issued
 * (big-endian, copied to each new id as they are); zero (time 0) before the
 * first call, which therefore starts a fresh run: the clock is after 1970.
 * A fresh run copies its 64 random low bits to bytes 8-15 straight from the
 * buffer (random bytes are random in any order); only a step reads them as
 * a number.  One object whose address the random draw's slow path takes:
 * so the compiler keeps it in memory across every call rather than in
 * registers it would have to save.
 */
static struct
{
	uint64		hi;				/* ms << 16 | fraction << 4 | 4 random bits */
	uint8		be[ULID_BYTES]; /* hi, then the low 64 random bits, big-endian */
}			last;

void
ulid_report_time_exhausted(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
			 errmsg("ULID time part exhausted"),
			 errdetail("The next ULID would lie past 10889-08-02 05:31:50.655Z.")));
}

PG_FUNCTION_INFO_V1(gen_ulid);
Datum
gen_ulid(PG_FUNCTION_ARGS)
{
	/* tick16 > hi exactly when the reading is later than hi's tick */
	uint64		tick16 = ulid_clock_now_tick16();
	pg_ulid_t  *u;

	if (tick16 > last.hi)
	{
		/*
		 * 4 random bits below the fraction, 64 in bytes 8-15 (SPEC: 68
		 * random bits; a later step's carry may move the fraction a tick on,
		 * which keeps the order).  Should the draw fail (ERROR), hi is
		 * unchanged.
		 */
		last.hi = ulid_random_u72(tick16, last.be + 8);
		ulid_store_be64(last.be, last.hi);
	}
	else
	{
		/* drawn first: nothing lives across the draw's slow path */
		uint64		step = ulid_random_u64();
		uint64		hi = last.hi;
		uint64		lo = ulid_load_be64(last.be + 8);

		if (unlikely(!ulid_add_step(&hi, &lo, step)))
			ulid_report_time_exhausted();
		last.hi = hi;
		ulid_store_be64(last.be, hi);
		ulid_store_be64(last.be + 8, lo);
	}

	/* allocated last: nothing lives across palloc but what it returns */
	u = (pg_ulid_t *) palloc(sizeof(pg_ulid_t));
	memcpy(u->data, last.be, ULID_BYTES);
	PG_RETURN_ULID_P(u);
}

/* a ULID of unix_ms with 80 fresh random bits, written in place */
static inline pg_ulid_t *
random_ulid(int64 unix_ms)
{
	pg_ulid_t  *u = (pg_ulid_t *) palloc(sizeof(pg_ulid_t));

	/* the time in bytes 0-5, then the randomness over bytes 6-15 */
	ulid_store_be64(u->data, (uint64) unix_ms << 16);
	ulid_random_bytes(u->data + ULID_BYTES - ULID_RANDOM_BYTES, ULID_RANDOM_BYTES);
	return u;
}

PG_FUNCTION_INFO_V1(gen_random_ulid);
Datum
gen_random_ulid(PG_FUNCTION_ARGS)
{
	PG_RETURN_ULID_P(random_ulid(ulid_clock_now_ms()));
}

PG_FUNCTION_INFO_V1(gen_ulid_at);
Datum
gen_ulid_at(PG_FUNCTION_ARGS)
{
	PG_RETURN_ULID_P(random_ulid(ulid_timestamptz_to_unix_ms(PG_GETARG_TIMESTAMPTZ(0))));
}
