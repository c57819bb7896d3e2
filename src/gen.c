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

/* the previous gen_ulid() value of this backend, as two halves */
static bool last_valid = false;
static uint64 last_hi;
static uint64 last_lo;

void
ulid_fresh_halves(int64 unix_ms, bool clear_top_bit, uint64 *hi, uint64 *lo)
{
	uint64		top16;

	ulid_random_u80(&top16, lo);
	if (clear_top_bit)
		top16 &= 0x7FFF;
	*hi = ((uint64) unix_ms << 16) | top16;
}

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

	if (!last_valid || now > (int64) (last_hi >> 16))
	{
		ulid_fresh_halves(now, true, &last_hi, &last_lo);
		last_valid = true;
	}
	else if (!ulid_add_step(&last_hi, &last_lo, ulid_random_u64()))
		ulid_report_time_exhausted();
	PG_RETURN_ULID_P(ulid_from_halves(last_hi, last_lo));
}

PG_FUNCTION_INFO_V1(gen_random_ulid);
Datum
gen_random_ulid(PG_FUNCTION_ARGS)
{
	uint64		hi,
				lo;

	ulid_fresh_halves(ulid_clock_now_ms(), false, &hi, &lo);
	PG_RETURN_ULID_P(ulid_from_halves(hi, lo));
}

PG_FUNCTION_INFO_V1(gen_ulid_at);
Datum
gen_ulid_at(PG_FUNCTION_ARGS)
{
	int64		ms = ulid_timestamptz_to_unix_ms(PG_GETARG_TIMESTAMPTZ(0));
	uint64		hi,
				lo;

	ulid_fresh_halves(ms, false, &hi, &lo);
	PG_RETURN_ULID_P(ulid_from_halves(hi, lo));
}
