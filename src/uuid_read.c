/*-------------------------------------------------------------------------
 *
 * uuid_read.c
 *	  Reading uuid values: PostgreSQL 18's uuid_extract_timestamp() and
 *	  uuid_extract_version() for the majors that lack them (or, on 17, read
 *	  version 1 only), and the planner support that keeps pg_uuidv7's
 *	  uuid_timestamptz_to_v7(ts, true) an index bound although the function
 *	  is volatile.
 *
 * The bit layouts are RFC 9562's: the variant is the top two bits of byte
 * 8 (binary 10 for RFC 9562 UUIDs), the version the top four bits of byte
 * 6.  Version 7 starts with 48 bits of Unix milliseconds; version 1 holds a
 * 60-bit count of 100 ns since 1582-10-15 as time_low (bytes 0-3),
 * time_mid (bytes 4-5) and time_high (the low 12 bits of bytes 6-7);
 * version 6 holds the same count most significant first (32, 16, 12 bits).
 * uuidv7_time(), uuid_v7_to_timestamptz() and uuid_v7_to_timestamp() need
 * no code of their own: they are ulid_time() and ulid_to_timestamp() on
 * the same 16 bytes.
 *
 *-------------------------------------------------------------------------
 */
#include "ulid.h"

#include "catalog/pg_type.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/supportnodes.h"
#include "parser/parse_func.h"
#include "utils/lsyscache.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

/* microseconds from 1582-10-15Z (the Gregorian reform) to 2000-01-01Z */
#define GREGORIAN_TO_PG_USECS \
	((int64) (POSTGRES_EPOCH_JDATE - 2299161) * USECS_PER_DAY)

static inline Datum
gregorian_100ns_to_timestamptz(uint64 t100ns)
{
	return TimestampTzGetDatum((TimestampTz) (t100ns / 10) - GREGORIAN_TO_PG_USECS);
}

static inline bool
rfc9562_variant(const pg_uuid_t *u)
{
	return (u->data[8] & 0xC0) == 0x80;
}

/*
 * uuid_extract_timestamp(uuid): the time of a version 1, 6 or 7 UUID of
 * the RFC 9562 variant, NULL for any other: as PostgreSQL 18's, which reads
 * 1 and 7, and its development branch (20devel), which reads 6 too.
 */
PG_FUNCTION_INFO_V1(ulid_uuid_extract_timestamp);
Datum
ulid_uuid_extract_timestamp(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *u = PG_GETARG_UUID_P(0);
	uint64		hi = ulid_load_be64(u->data);

	if (!rfc9562_variant(u))
		PG_RETURN_NULL();
	switch (u->data[6] >> 4)
	{
		case 7:
			PG_RETURN_TIMESTAMPTZ(ulid_unix_ms_to_timestamptz((int64) (hi >> 16)));
		case 1:
			return gregorian_100ns_to_timestamptz(((hi & 0xFFF) << 48) |
												  (((hi >> 16) & 0xFFFF) << 32) |
												  (hi >> 32));
		case 6:
			return gregorian_100ns_to_timestamptz(((hi >> 32) << 28) |
												  (((hi >> 16) & 0xFFFF) << 12) |
												  (hi & 0xFFF));
	}
	PG_RETURN_NULL();
}

/* uuid_extract_version(uuid): the version of an RFC 9562 UUID, else NULL */
PG_FUNCTION_INFO_V1(ulid_uuid_extract_version);
Datum
ulid_uuid_extract_version(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *u = PG_GETARG_UUID_P(0);

	if (!rfc9562_variant(u))
		PG_RETURN_NULL();
	PG_RETURN_INT16((int16) (u->data[6] >> 4));
}

/*
 * Planner support of uuid_timestamptz_to_v7(ts, zero) and
 * uuid_timestamp_to_v7(ts, zero).  They are volatile (without zero they
 * return a random value), and a volatile function can bound no index scan
 * and prune no partition.  But with zero the constant true the value is
 * the lower bound of ts's millisecond, a function of ts alone: so such a
 * call is replaced by that value when ts is a constant too (a literal, or
 * a parameter of a custom plan), and otherwise, for a timestamptz, by
 * uuidv7_lower(ts) (immutable; found in the extension's own schema, that
 * of the function called).  pg_uuidv7 marks them stable instead, wrongly
 * for the random case; either way WHERE id >= uuid_timestamptz_to_v7(...,
 * true) is an index range scan.  A timestamp (without time zone) that is
 * not a constant is left alone: uuidv7_lower() takes a timestamptz.
 */
PG_FUNCTION_INFO_V1(ulid_uuidv7_from_time_support);
Datum
ulid_uuidv7_from_time_support(PG_FUNCTION_ARGS)
{
	Node	   *rawreq = (Node *) PG_GETARG_POINTER(0);
	FuncExpr   *f;
	Node	   *ts;
	Const	   *zero;
	Oid			ts_type;

	if (!IsA(rawreq, SupportRequestSimplify))
		PG_RETURN_POINTER(NULL);
	f = ((SupportRequestSimplify *) rawreq)->fcall;
	if (list_length(f->args) != 2 || !IsA(lsecond(f->args), Const))
		PG_RETURN_POINTER(NULL);
	ts = (Node *) linitial(f->args);
	zero = (Const *) lsecond(f->args);
	ts_type = exprType(ts);
	if (zero->constisnull || !DatumGetBool(zero->constvalue) ||
		(ts_type != TIMESTAMPTZOID && ts_type != TIMESTAMPOID))
		PG_RETURN_POINTER(NULL);

	if (IsA(ts, Const))
	{
		Const	   *c = (Const *) ts;
		Datum		bound;

		if (c->constisnull)		/* strict */
			PG_RETURN_POINTER(makeNullConst(UUIDOID, -1, InvalidOid));
		bound = ts_type == TIMESTAMPTZOID ?
			DirectFunctionCall2(ulid_uuid_timestamptz_to_v7, c->constvalue, BoolGetDatum(true)) :
			DirectFunctionCall2(ulid_uuid_timestamp_to_v7, c->constvalue, BoolGetDatum(true));
		PG_RETURN_POINTER(makeConst(UUIDOID, -1, InvalidOid, UUID_LEN, bound, false, false));
	}
	if (ts_type == TIMESTAMPTZOID)
	{
		Oid			argtypes[1] = {TIMESTAMPTZOID};
		char	   *schema = get_namespace_name(get_func_namespace(f->funcid));
		Oid			lower;

		if (schema == NULL)
			PG_RETURN_POINTER(NULL);
		lower = LookupFuncName(list_make2(makeString(schema), makeString("uuidv7_lower")),
							   1, argtypes, true);
		if (OidIsValid(lower))
			PG_RETURN_POINTER(makeFuncExpr(lower, UUIDOID, list_make1(ts), InvalidOid,
										   InvalidOid, COERCE_EXPLICIT_CALL));
	}
	PG_RETURN_POINTER(NULL);
}
