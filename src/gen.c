/*-------------------------------------------------------------------------
 *
 * gen.c
 *	  The per-backend ULID generators: gen_ulid(), gen_random_ulid() and
 *	  gen_ulid(timestamptz).
 *
 * gen_ulid() is monotonic within the calling backend, as PostgreSQL 18's
 * uuidv7() is.  In a millisecond later than the previous id's time part it
 * starts from 80 fresh random bits with the top bit cleared (room for at
 * least 2^15 steps of up to 2^64); otherwise (same millisecond, or the clock
 * behind the previous id) it returns the previous value plus a random step
 * in 1..2^64, carrying into the time part on overflow.  The next id stays
 * unguessable, and the ids one session inserts arrive in order.
 *
 *-------------------------------------------------------------------------
 */
#include "ulid.h"

#include "utils/timestamp.h"

#include "gen.h"

/*
 * the previous gen_ulid() value of this backend, as two halves; zero (time
 * 0) before the first call, which therefore starts a fresh run: the clock is
 * after 1970
 */
static uint64 last_hi = 0;
static uint64 last_lo = 0;

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
	int64		now = ulid_clock_now_ms();

	if (now > (int64) (last_hi >> 16))
		ulid_fresh_halves(now, &last_hi, &last_lo);
	else if (!ulid_add_step(&last_hi, &last_lo, ulid_random_u64()))
		ulid_report_time_exhausted();
	PG_RETURN_ULID_P(ulid_from_halves(last_hi, last_lo));
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
