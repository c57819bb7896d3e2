/*-------------------------------------------------------------------------
 *
 * gen_uuidv7.c
 *	  RFC 9562 UUIDv7 generators on the per-backend random buffer: gen_uuidv7(),
 *	  gen_uuidv7(timestamptz) and gen_typeid(prefix); the drop-in names of
 *	  PostgreSQL 18 (uuidv7(), uuidv7(shift), uuidv4()) and of pg_uuidv7
 *	  (uuid_generate_v7(), uuid_timestamptz_to_v7(), uuid_timestamp_to_v7());
 *	  the bounds uuidv7_lower() and uuidv7_upper().
 *
 * The layout is PostgreSQL 18's uuidv7(): 48 bits of Unix ms, a 12-bit
 * sub-millisecond fraction (method 3), 62 more bits.  gen_uuidv7() is
 * strictly increasing within the calling backend, as core's is; how it keeps
 * the fraction a reading of the clock at this generator's speed is in
 * src/core/uuidv7.c.  Its state is its own: gen_ulid()'s 80 random bits are
 * no UUIDv7, so the two never share a previous value.  Every UUIDv7 is a
 * valid ULID (x::ulid), so ulid_time(), the ulid operators and the TypeID
 * codec read these values as they are.
 *
 *-------------------------------------------------------------------------
 */
#include "ulid.h"

#include "utils/builtins.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

#include "uuidv7.h"

static ulid_uuidv7_state last;

/* A palloc'd uuid of (tick, tail). */
static pg_uuid_t *
new_uuid(uint64 tick, uint64 tail)
{
	pg_uuid_t  *u = (pg_uuid_t *) palloc(UUID_LEN);

	ulid_uuidv7_pack(tick, tail, u->data);
	return u;
}

/* The next value of this backend's monotonic UUIDv7 generator. */
static pg_uuid_t *
next_uuidv7(void)
{
	if (!ulid_uuidv7_next(&last, ulid_uuidv7_tick((uint64) ulid_clock_now_ns(), 1000000),
						  ulid_random_u64()))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("UUIDv7 time part exhausted"),
				 errdetail("The next UUIDv7 would lie past 10889-08-02 05:31:50.655Z."),
				 errhint("Check the server's clock (CLOCK_REALTIME).")));
	return new_uuid(last.tick, last.tail);
}

PG_FUNCTION_INFO_V1(gen_uuidv7);
Datum
gen_uuidv7(PG_FUNCTION_ARGS)
{
	PG_RETURN_UUID_P(next_uuidv7());
}

/*
 * Unix microseconds of ts, a timestamptz or a timestamp read as UTC wall
 * time (the same microseconds since 2000-01-01 UTC: ulid_time.c).  Times a
 * UUIDv7 cannot hold are 22008, worded as core's uuidv7(interval) does.
 */
static int64
uuidv7_unix_us(int64 ts, bool with_zone)
{
	int64		us = ts + ULID_UNIX_TO_PG_USECS;	/* no overflow if finite */

	if (TIMESTAMP_NOT_FINITE(ts) || us < 0 || us / 1000 > ULID_MAX_UNIX_MS)
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("timestamp out of range for UUID version 7: \"%s\"",
						with_zone ? timestamptz_to_str(ts) :
						DatumGetCString(ulid_builtin_call1(timestamp_out, F_TIMESTAMP_OUT, TimestampGetDatum(ts)))),
				 with_zone ?
				 errdetail("A UUIDv7 holds a finite time from 1970-01-01 00:00:00Z to 10889-08-02 05:31:50.655999Z.") :
				 errdetail("A UUIDv7 holds a finite UTC wall time from 1970-01-01 00:00:00 to 10889-08-02 05:31:50.655999."),
				 with_zone ?
				 errhint("Pass a timestamp with time zone in that range.") :
				 errhint("Pass a timestamp without time zone in that range; it is read as UTC.")));
	return us;
}

/* a random UUIDv7 of Unix microsecond us: its fraction, 62 fresh bits */
static pg_uuid_t *
random_uuidv7_at(int64 us)
{
	return new_uuid(ulid_uuidv7_tick((uint64) us, 1000),
					ulid_random_u64() >> (64 - ULID_UUIDV7_TAIL_BITS));
}

/*
 * gen_uuidv7(at): stamped with at to the microsecond (its fraction of the
 * millisecond too), 62 fresh random bits, no monotonic state.
 */
PG_FUNCTION_INFO_V1(gen_uuidv7_at);
Datum
gen_uuidv7_at(PG_FUNCTION_ARGS)
{
	PG_RETURN_UUID_P(random_uuidv7_at(uuidv7_unix_us(PG_GETARG_TIMESTAMPTZ(0), true)));
}

/*
 * The smallest and the largest UUIDv7 of the millisecond of Unix
 * microsecond us: fraction and tail all 0, or all 1 (the version and
 * variant bits set either way).  The lower bound is pg_uuidv7's
 * uuid_timestamptz_to_v7(ts, zero => true).
 */
static pg_uuid_t *
uuidv7_bound(int64 us, bool upper)
{
	uint64		tick = (uint64) (us / 1000) << ULID_UUIDV7_FRAC_BITS;

	if (upper)
		return new_uuid(tick | ((1 << ULID_UUIDV7_FRAC_BITS) - 1),
						(UINT64CONST(1) << ULID_UUIDV7_TAIL_BITS) - 1);
	return new_uuid(tick, 0);
}

PG_FUNCTION_INFO_V1(ulid_uuidv7_lower);
Datum
ulid_uuidv7_lower(PG_FUNCTION_ARGS)
{
	PG_RETURN_UUID_P(uuidv7_bound(uuidv7_unix_us(PG_GETARG_TIMESTAMPTZ(0), true), false));
}

PG_FUNCTION_INFO_V1(ulid_uuidv7_upper);
Datum
ulid_uuidv7_upper(PG_FUNCTION_ARGS)
{
	PG_RETURN_UUID_P(uuidv7_bound(uuidv7_unix_us(PG_GETARG_TIMESTAMPTZ(0), true), true));
}

/*
 * pg_uuidv7's uuid_timestamptz_to_v7(ts, zero) and uuid_timestamp_to_v7(ts,
 * zero) (a timestamp read as UTC, as pg_uuidv7 does): with zero, the lower
 * bound of the millisecond; without, gen_uuidv7(at)'s value (pg_uuidv7
 * fills the 12 bits after the version randomly; here they are the
 * sub-millisecond fraction, as core's uuidv7(shift) has them).  They are
 * volatile; ulid_uuidv7_from_time_support (uuid_read.c) folds a call whose
 * zero is the constant true into the bound, so it still serves an index.
 */
PG_FUNCTION_INFO_V1(ulid_uuid_timestamptz_to_v7);
Datum
ulid_uuid_timestamptz_to_v7(PG_FUNCTION_ARGS)
{
	int64		us = uuidv7_unix_us(PG_GETARG_TIMESTAMPTZ(0), true);

	PG_RETURN_UUID_P(PG_GETARG_BOOL(1) ? uuidv7_bound(us, false) : random_uuidv7_at(us));
}

PG_FUNCTION_INFO_V1(ulid_uuid_timestamp_to_v7);
Datum
ulid_uuid_timestamp_to_v7(PG_FUNCTION_ARGS)
{
	int64		us = uuidv7_unix_us(PG_GETARG_TIMESTAMP(0), false);

	PG_RETURN_UUID_P(PG_GETARG_BOOL(1) ? uuidv7_bound(us, false) : random_uuidv7_at(us));
}

/*
 * PostgreSQL 18's uuidv7(shift): core's reading of the clock, shifted by
 * timestamptz + interval (so a shift in days or months follows the
 * session's TimeZone, as core's does), the nanoseconds below the
 * microsecond carried over.  As core's, the clock read here ascends by at
 * least 1/4096 ms (plus 1 ns) a call in this backend, so calls with one
 * shift give increasing values; it is kept apart from gen_uuidv7()'s
 * state, whose values a shift never touches.  The tail is 62 fresh bits.
 */
#define SHIFT_STEP_NS	(1000000 / (1 << ULID_UUIDV7_FRAC_BITS) + 1)
static int64 shift_previous_ns = 0;

PG_FUNCTION_INFO_V1(ulid_uuidv7_shift);
Datum
ulid_uuidv7_shift(PG_FUNCTION_ARGS)
{
	Interval   *shift = PG_GETARG_INTERVAL_P(0);
	int64		ns = ulid_clock_now_ns();
	TimestampTz ts;
	int64		us;
	uint64		sub_ns;

#ifdef INTERVAL_NOT_FINITE
	if (INTERVAL_NOT_FINITE(shift))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("interval out of range for UUID version 7"),
				 errdetail("UUID version 7 does not support infinite intervals."),
				 errhint("Pass a finite interval.")));
#endif
	if (ns <= shift_previous_ns + SHIFT_STEP_NS)
		ns = shift_previous_ns + SHIFT_STEP_NS;
	shift_previous_ns = ns;

	ts = DatumGetTimestampTz(ulid_builtin_call2(timestamptz_pl_interval, F_TIMESTAMPTZ_PL_INTERVAL,
												 TimestampTzGetDatum(ns / 1000 - ULID_UNIX_TO_PG_USECS),
												 IntervalPGetDatum(shift)));
	us = uuidv7_unix_us(ts, true);
	/* the millisecond and its fraction apart: past 2262, ns overflow 64 bits */
	sub_ns = (uint64) (us % 1000) * 1000 + (uint64) (ns % 1000);
	PG_RETURN_UUID_P(new_uuid(((uint64) (us / 1000) << ULID_UUIDV7_FRAC_BITS) |
							  (sub_ns << ULID_UUIDV7_FRAC_BITS) / 1000000,
							  ulid_random_u64() >> (64 - ULID_UUIDV7_TAIL_BITS)));
}

/* PostgreSQL 18's uuidv4() (gen_random_uuid()) from the random buffer */
PG_FUNCTION_INFO_V1(ulid_uuidv4);
Datum
ulid_uuidv4(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *u = (pg_uuid_t *) palloc(UUID_LEN);

	ulid_random_bytes(u->data, UUID_LEN);
	u->data[6] = (u->data[6] & 0x0F) | 0x40;	/* version 4 */
	u->data[8] = (u->data[8] & 0x3F) | 0x80;	/* variant 10 */
	PG_RETURN_UUID_P(u);
}

/* gen_typeid(prefix): the TypeID of gen_uuidv7(), as the TypeID spec has it */
PG_FUNCTION_INFO_V1(gen_typeid);
Datum
gen_typeid(PG_FUNCTION_ARGS)
{
	text	   *prefix = PG_GETARG_TEXT_PP(0);

	ulid_check_typeid_prefix(prefix);
	PG_RETURN_TEXT_P(ulid_typeid_text(next_uuidv7()->data, prefix));
}
