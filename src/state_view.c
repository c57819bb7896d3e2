/*-------------------------------------------------------------------------
 *
 * state_view.c
 *	  The ulid_generator_state view: one row per live state of the shared
 *	  table (state_table.c), copied under its spinlock and described by the
 *	  kind that registered it.
 *
 *-------------------------------------------------------------------------
 */
#include "ulid.h"

#include "catalog/pg_authid_d.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"

#include "state_view.h"

/* the kinds this library knows, registered by _PG_init */
static struct
{
	const char *name;
	UlidStateDescribe describe;
}			kinds[ULID_STATE_KINDS];

void
ulid_state_register_kind(UlidStateKind kind, const char *name,
						 UlidStateDescribe describe)
{
	Assert(kind > 0 && kind < ULID_STATE_KINDS);
	kinds[kind].name = name;
	kinds[kind].describe = describe;
}



/*
 * ERROR 42501 unless the user may read the ulid_generator_state view: a
 * superuser, a member of pg_monitor, or a role granted SELECT on the view
 * (the install script grants it to pg_monitor).
 */
static void
require_view_privilege(FunctionCallInfo fcinfo)
{
	/* the view lives in the schema of this function */
	Oid			view = get_relname_relid("ulid_generator_state",
										 get_func_namespace(fcinfo->flinfo->fn_oid));

	if (superuser() || has_privs_of_role(GetUserId(), ROLE_PG_MONITOR) ||
		(OidIsValid(view) &&
		 pg_class_aclcheck(view, GetUserId(), ACL_SELECT) == ACLCHECK_OK))
		return;
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg("permission denied to read the ulid generator state"),
			 errdetail("The view ulid_generator_state is readable by superusers, members of pg_monitor and roles granted SELECT on it."),
			 errhint("GRANT pg_monitor TO the role, or GRANT SELECT ON ulid_generator_state TO it.")));
}

/* ms as timestamptz, NULL (false) when 0 */
static bool
floor_datum(int64 ms, Datum *d)
{
	if (ms <= 0)
		return false;
	*d = TimestampTzGetDatum(ulid_unix_ms_to_timestamptz(Min(ms, ULID_MAX_UNIX_MS)));
	return true;
}

/*
 * ulid_generator_state(): one row per live state, for the view of the same
 * name.  Each state is copied under its spinlock, then described.
 */
PG_FUNCTION_INFO_V1(ulid_generator_state);
Datum
ulid_generator_state(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	UlidSharedHeader *hdr;
	uint32		n;
	int64		durable;
	int64		reclaims;

	require_view_privilege(fcinfo);
	hdr = ulid_shared_get();
	InitMaterializedSRF(fcinfo, 0);

	SpinLockAcquire(&hdr->table_lock);
	n = hdr->nused;
	SpinLockRelease(&hdr->table_lock);
	durable = (int64) pg_atomic_read_u64(&hdr->durable_ms);
	reclaims = (int64) pg_atomic_read_u64(&hdr->reclaims);
	for (uint32 i = 0; i < n; i++)
	{
		UlidGenState *st = ULID_SLOT(hdr, i);
		UlidGenState copy;
		UlidStateRow row = {0};
		Datum		values[14];
		bool		nulls[14] = {0};

		SpinLockAcquire(&st->mutex);
		copy = *st;
		SpinLockRelease(&st->mutex);

		if (copy.kind >= ULID_STATE_KINDS || kinds[copy.kind].describe == NULL)
			elog(ERROR, "unknown ulid generator state kind %u", copy.kind);
		kinds[copy.kind].describe(&copy, &row);

		values[0] = CStringGetTextDatum(kinds[copy.kind].name);
		nulls[1] = row.layout == NULL;
		values[1] = nulls[1] ? (Datum) 0 : CStringGetTextDatum(row.layout);
		nulls[2] = !row.has_node;
		values[2] = Int64GetDatum(row.node);
		nulls[3] = nulls[4] = !row.has_last;
		values[3] = Int64GetDatum(row.last_tick);
		values[4] = TimestampTzGetDatum(ulid_unix_ms_to_timestamptz(row.last_unix_ms));
		nulls[5] = !row.has_sequence;
		values[5] = Int64GetDatum(row.sequence);
		nulls[6] = row.last_id == NULL;
		values[6] = nulls[6] ? (Datum) 0 : CStringGetTextDatum(row.last_id);
		values[7] = Int64GetDatum((int64) copy.issued);
		values[8] = Int64GetDatum((int64) copy.borrows);
		values[9] = Int64GetDatum((int64) copy.waits);
		values[10] = Int64GetDatum((int64) copy.failures);
		values[11] = Int64GetDatum(reclaims);
		nulls[12] = !(copy.advanced && floor_datum(copy.own_floor, &values[12]));
		nulls[13] = !floor_datum(durable, &values[13]);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
