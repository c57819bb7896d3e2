/*-------------------------------------------------------------------------
 *
 * masks.c
 *	  SQL functions of the keyed masks: uuidv47_encode/decode, ulid_mask/
 *	  unmask and snowflake_mask/unmask (src/core/mask.c computes them).
 *
 * Each reads its key through keys.h: on a call site's second call with the
 * same key name, a comparison and no lookup.  They are STABLE, not
 * IMMUTABLE: a key can be dropped and created again with another secret,
 * and then the same arguments give another result, so no index, generated
 * column or plan may keep a mask as a constant.
 *
 *-------------------------------------------------------------------------
 */
#include "ulid.h"

#include "utils/builtins.h"
#include "utils/uuid.h"

#include "keys.h"
#include "snowflake.h"

static void
report_not_rfc(const uint8 *u, const char *fname, int want, const char *what)
{
	pg_uuid_t	copy;

	memcpy(copy.data, u, UUID_LEN);
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("invalid input for %s: \"%s\"", fname,
					DatumGetCString(DirectFunctionCall1(uuid_out, UUIDPGetDatum(&copy)))),
			 errdetail("It is version %d of variant %s; %s is version %d of variant 10 (RFC 9562).",
					   u[6] >> 4, (u[8] & 0xC0) == 0x80 ? "10" : (u[8] & 0x80) ? "11" : "0",
					   what, want),
			 want == 7 ?
			 errhint("Only a UUIDv7 has a facade: gen_uuidv7() or uuidv7() makes them.") :
			 errhint("uuidv47_decode() reads what uuidv47_encode() returned.")));
}

typedef enum mask16_op
{
	UUIDV47_ENCODE,
	UUIDV47_DECODE,
	ULID_MASK,
	ULID_UNMASK
} mask16_op;

/* (id uuid or ulid, key text): the 16 bytes of id through op under the key */
static Datum
mask16(FunctionCallInfo fcinfo, mask16_op op)
{
	const ulid_mask_key *key = ulid_key_arg(fcinfo, 1);
	const uint8 *in = (const uint8 *) DatumGetPointer(PG_GETARG_DATUM(0));
	uint8	   *out = palloc(16);

	switch (op)
	{
		case UUIDV47_ENCODE:
			if (!ulid_uuidv47_encode(key, in, out))
				report_not_rfc(in, "uuidv47_encode", 7, "a UUIDv7");
			break;
		case UUIDV47_DECODE:
			if (!ulid_uuidv47_decode(key, in, out))
				report_not_rfc(in, "uuidv47_decode", 4, "the facade of a UUIDv7");
			break;
		case ULID_MASK:
			ulid_mask128(key, in, out);
			break;
		case ULID_UNMASK:
			ulid_unmask128(key, in, out);
			break;
	}
	PG_RETURN_POINTER(out);
}

PG_FUNCTION_INFO_V1(ulid_uuidv47_encode_sql);
Datum
ulid_uuidv47_encode_sql(PG_FUNCTION_ARGS)
{
	return mask16(fcinfo, UUIDV47_ENCODE);
}

PG_FUNCTION_INFO_V1(ulid_uuidv47_decode_sql);
Datum
ulid_uuidv47_decode_sql(PG_FUNCTION_ARGS)
{
	return mask16(fcinfo, UUIDV47_DECODE);
}

PG_FUNCTION_INFO_V1(ulid_mask_sql);
Datum
ulid_mask_sql(PG_FUNCTION_ARGS)
{
	return mask16(fcinfo, ULID_MASK);
}

PG_FUNCTION_INFO_V1(ulid_unmask_sql);
Datum
ulid_unmask_sql(PG_FUNCTION_ARGS)
{
	return mask16(fcinfo, ULID_UNMASK);
}

/* snowflake_mask or _unmask(id bigint, layout snowflake_layout, key text) */
static Datum
snowflake_apply(FunctionCallInfo fcinfo, bool unmask)
{
	/* the layout first: reading it could take a lock, and so drop the keys */
	const sfl_layout *l = sf_layout_arg_in(fcinfo, 1, &ulid_key_site_of(fcinfo)->layout_slot);
	const ulid_mask_key *key = ulid_key_arg(fcinfo, 2);
	int64		id = PG_GETARG_INT64(0);
	uint64		out;
	sfl_status	st = unmask ? ulid_snowflake_unmask(key, l, (uint64) id, &out) :
		ulid_snowflake_mask(key, l, (uint64) id, &out);

	if (st != SFL_OK)
		(void) sf_unpack(l, id);	/* raises its 22003 */
	PG_RETURN_INT64((int64) out);
}

PG_FUNCTION_INFO_V1(ulid_snowflake_mask_sql);
Datum
ulid_snowflake_mask_sql(PG_FUNCTION_ARGS)
{
	return snowflake_apply(fcinfo, false);
}

PG_FUNCTION_INFO_V1(ulid_snowflake_unmask_sql);
Datum
ulid_snowflake_unmask_sql(PG_FUNCTION_ARGS)
{
	return snowflake_apply(fcinfo, true);
}
