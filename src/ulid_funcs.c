/*-------------------------------------------------------------------------
 *
 * ulid_funcs.c
 *	  Reading ULIDs back and building them from parts.
 *
 *-------------------------------------------------------------------------
 */
#include "ulid.h"

#include "access/htup_details.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

static bytea *
random_part(const pg_ulid_t *u)
{
	bytea	   *b = (bytea *) palloc(VARHDRSZ + ULID_RANDOM_BYTES);

	SET_VARSIZE(b, VARHDRSZ + ULID_RANDOM_BYTES);
	memcpy(VARDATA(b), u->data + 6, ULID_RANDOM_BYTES);
	return b;
}

PG_FUNCTION_INFO_V1(ulid_time);
Datum
ulid_time(PG_FUNCTION_ARGS)
{
	PG_RETURN_TIMESTAMPTZ(ulid_unix_ms_to_timestamptz(ulid_get_unix_ms(PG_GETARG_ULID_P(0))));
}

PG_FUNCTION_INFO_V1(ulid_unix_ms);
Datum
ulid_unix_ms(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64(ulid_get_unix_ms(PG_GETARG_ULID_P(0)));
}

PG_FUNCTION_INFO_V1(ulid_random);
Datum
ulid_random(PG_FUNCTION_ARGS)
{
	PG_RETURN_BYTEA_P(random_part(PG_GETARG_ULID_P(0)));
}

PG_FUNCTION_INFO_V1(ulid_from_parts);
Datum
ulid_from_parts(PG_FUNCTION_ARGS)
{
	int64		ms = PG_GETARG_INT64(0);
	bytea	   *r = PG_GETARG_BYTEA_PP(1);
	pg_ulid_t  *u;

	if (ms < 0 || ms > ULID_MAX_UNIX_MS)
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("unix_ms out of range for type ulid: " INT64_FORMAT, ms),
				 errdetail("A ULID's time part is 48 bits: 0 to " INT64_FORMAT " Unix milliseconds.",
						   ULID_MAX_UNIX_MS),
				 errhint("Pass Unix milliseconds from 1970-01-01 00:00:00Z to 10889-08-02 05:31:50.655Z.")));
	if (VARSIZE_ANY_EXHDR(r) != ULID_RANDOM_BYTES)
		ereport(ERROR,
				(errcode(ERRCODE_STRING_DATA_LENGTH_MISMATCH),
				 errmsg("invalid randomness length for type ulid: %d bytes",
						(int) VARSIZE_ANY_EXHDR(r)),
				 errdetail("A ULID's random part is exactly %d bytes.", ULID_RANDOM_BYTES),
				 errhint("Pass 10 bytes, e.g. ulid_random(id) or gen_random_bytes(10).")));

	u = (pg_ulid_t *) palloc(sizeof(pg_ulid_t));
	ulid_store_be64(u->data, (uint64) ms << 16);	/* bytes 6-7 overwritten */
	memcpy(u->data + 6, VARDATA_ANY(r), ULID_RANDOM_BYTES);
	PG_RETURN_ULID_P(u);
}

PG_FUNCTION_INFO_V1(ulid_lower);
Datum
ulid_lower(PG_FUNCTION_ARGS)
{
	int64		ms = ulid_timestamptz_to_unix_ms(PG_GETARG_TIMESTAMPTZ(0));

	PG_RETURN_ULID_P(ulid_from_halves((uint64) ms << 16, 0));
}

PG_FUNCTION_INFO_V1(ulid_upper);
Datum
ulid_upper(PG_FUNCTION_ARGS)
{
	int64		ms = ulid_timestamptz_to_unix_ms(PG_GETARG_TIMESTAMPTZ(0));

	PG_RETURN_ULID_P(ulid_from_halves(((uint64) ms << 16) | 0xFFFF, PG_UINT64_MAX));
}

/*
 * The ulid <-> timestamp (without time zone) casts: the time part as UTC
 * wall time, so they do not depend on TimeZone and are immutable (pgx_ulid
 * users' GENERATED ALWAYS AS (id::timestamp) STORED columns).
 */
PG_FUNCTION_INFO_V1(ulid_to_timestamp);
Datum
ulid_to_timestamp(PG_FUNCTION_ARGS)
{
	PG_RETURN_TIMESTAMP(ulid_unix_ms_to_timestamptz(ulid_get_unix_ms(PG_GETARG_ULID_P(0))));
}

PG_FUNCTION_INFO_V1(ulid_from_timestamp);
Datum
ulid_from_timestamp(PG_FUNCTION_ARGS)
{
	int64		ms = ulid_timestamp_to_unix_ms(PG_GETARG_TIMESTAMP(0));

	PG_RETURN_ULID_P(ulid_from_halves((uint64) ms << 16, 0));
}

PG_FUNCTION_INFO_V1(ulid_parts);
Datum
ulid_parts(PG_FUNCTION_ARGS)
{
	pg_ulid_t  *u = PG_GETARG_ULID_P(0);
	int64		ms = ulid_get_unix_ms(u);
	char		text26[ULID_TEXT_LEN];
	TupleDesc	tupdesc;
	Datum		values[5];
	bool		nulls[5] = {false, false, false, false, false};

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	tupdesc = BlessTupleDesc(tupdesc);

	ulid_b32_encode(u->data, text26);
	values[0] = Int64GetDatum(ms);
	values[1] = TimestampTzGetDatum(ulid_unix_ms_to_timestamptz(ms));
	values[2] = PointerGetDatum(cstring_to_text_with_len(text26, ULID_TIME_CHARS));
	values[3] = PointerGetDatum(cstring_to_text_with_len(text26 + ULID_TIME_CHARS,
														 ULID_TEXT_LEN - ULID_TIME_CHARS));
	values[4] = PointerGetDatum(random_part(u));
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
