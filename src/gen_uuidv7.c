/*-------------------------------------------------------------------------
 *
 * gen_uuidv7.c
 *	  RFC 9562 UUIDv7 generators on the per-backend random buffer: gen_uuidv7(),
 *	  gen_uuidv7(timestamptz) and gen_typeid(prefix).
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
 * gen_uuidv7(at): stamped with at to the microsecond (its fraction of the
 * millisecond too), 62 fresh random bits, no monotonic state.  Times a
 * UUIDv7 cannot hold are 22008, worded as core's uuidv7(interval) does.
 */
PG_FUNCTION_INFO_V1(gen_uuidv7_at);
Datum
gen_uuidv7_at(PG_FUNCTION_ARGS)
{
	TimestampTz at = PG_GETARG_TIMESTAMPTZ(0);
	int64		us = at + ULID_UNIX_TO_PG_USECS;	/* no overflow if finite */

	if (TIMESTAMP_NOT_FINITE(at) || us < 0 || us / 1000 > ULID_MAX_UNIX_MS)
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("timestamp out of range for UUID version 7: \"%s\"",
						timestamptz_to_str(at)),
				 errdetail("A UUIDv7 holds a finite time from 1970-01-01 00:00:00Z to 10889-08-02 05:31:50.655999Z."),
				 errhint("Pass a timestamp with time zone in that range.")));
	PG_RETURN_UUID_P(new_uuid(ulid_uuidv7_tick((uint64) us, 1000),
							  ulid_random_u64() >> (64 - ULID_UUIDV7_TAIL_BITS)));
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
