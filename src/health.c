/*-------------------------------------------------------------------------
 *
 * health.c
 *	  ulid_health(): one row (check_name, severity, detail, fix) per
 *	  problem this server can see, none when it is healthy.  For superusers
 *	  and members of pg_monitor (checked at run time: the install script
 *	  grants EXECUTE to pg_monitor, and a grant to another role is not
 *	  enough).
 *
 * Each check is one function of the list checks[] below, which reports
 * through health_report(); to add a check, write its function and list it.
 * Severities: 'critical' when generators fail now or would after a
 * restart, or can issue an id twice; 'warning' when a limit is near or a
 * guarantee is weaker than the README's default.  The checks:
 *	- preload: no shared state (15 and 16 without preloading: the
 *	  shared-state generators fail), or the DSM-registry path (17+ without
 *	  preloading: floors are in the file only, not in WAL);
 *	- floor_file: the restart floor file was damaged at start (generators
 *	  refuse), is damaged now (a restart would make them refuse), or is
 *	  missing although the generators reserved a floor since the start;
 *	- floor_ahead: the server-wide floor lies further ahead of the clock
 *	  than a reservation (1 s) plus ulid.clock_wait_ms, the point from which
 *	  the generators log that they run ahead because of a floor (critical
 *	  beyond a day, the start-up WARNING's threshold);
 *	- advanced_states: 80% of the states that may be advanced at once (a
 *	  quarter of the table) are advanced;
 *	- capacity: 80% of the table's states are in use;
 *	- node_id: column defaults of the current database mint on the node id
 *	  and the server has none (the detail and fix are those of the error an
 *	  insert would raise: node.c), or the node id does not fit a default's
 *	  layout (ulid_node_id_layouts(), the SQL that ulid_check_node_ids()
 *	  uses).
 * Reads only: the shared header's counters without locks (figures for
 * monitoring, not for decisions), the floor file, the catalogs.
 *
 *-------------------------------------------------------------------------
 */
#include "ulid.h"

#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/namespace.h"
#include "catalog/pg_authid_d.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/resowner.h"
#include "utils/tuplestore.h"

#include "floor_file.h"
#include "floor_wal.h"
#include "floors.h"
#include "keys.h"
#include "stable_bound.h"
#include "node.h"

/* a limit counts as near from this share of it on */
#define HEALTH_NEAR_PERCENT	80

typedef struct HealthContext
{
	ReturnSetInfo *rsinfo;
	UlidSharedHeader *hdr;		/* NULL when there is no shared state */
	Oid			schema;			/* the extension's (ulid_health()'s) */
	int64		now;			/* the generators' clock, Unix ms */
} HealthContext;

typedef void (*HealthCheck) (HealthContext *hc);

/* One row: the check's name, 'critical' or 'warning', what is wrong, the fix. */
static void
health_report(HealthContext *hc, const char *check, const char *severity,
			  const char *detail, const char *fix)
{
	Datum		values[4];
	bool		nulls[4] = {false, false, false, false};

	values[0] = CStringGetTextDatum(check);
	values[1] = CStringGetTextDatum(severity);
	values[2] = CStringGetTextDatum(detail);
	values[3] = CStringGetTextDatum(fix);
	tuplestore_putvalues(hc->rsinfo->setResult, hc->rsinfo->setDesc, values, nulls);
}

/* whether part reaches HEALTH_NEAR_PERCENT of whole (whole > 0) */
static bool
near_limit(uint64 part, uint64 whole)
{
	return whole > 0 && part * 100 >= whole * HEALTH_NEAR_PERCENT;
}

/* --- the checks -------------------------------------------------------------- */

static void
check_preload(HealthContext *hc)
{
	if (ulid_shared_unavailable())
		health_report(hc, "preload", "critical",
					  "The ulid library is not preloaded, and before PostgreSQL 17 gen_monotonic_ulid(), snowflake_next() and cosid80_next() have no shared state without it: they fail (55000).",
					  "Add ulid to shared_preload_libraries in postgresql.conf, keeping the libraries it lists, then restart the server.");
	else if (!RecoveryInProgress() && !ulid_wal_logging())
		health_report(hc, "preload", "warning",
					  "The ulid library is not preloaded: the generators' floors are kept in the floor file only, not in WAL, so a promoted standby or a restored backup starts from the floor file its base backup copied and can issue ids again that this server issued since; the state table has a fixed 32,768 states.",
					  "Add ulid to shared_preload_libraries in postgresql.conf and restart the server. Until then, on a promoted standby or a restored backup run SELECT * FROM ulid_advance_from_tables() before it mints.");
}

static void
check_floor_file(HealthContext *hc)
{
	UlidFloorRead fr;
	const char *path = ulid_floor_file_path();
	const char *repair = "A superuser repairs it with a time after every id any generator of this server issued: SELECT ulid_floor_repair(now() + interval '1 minute'); if the clock was never set back, or the largest stored id's time.";

	if (hc->hdr == NULL)
		return;
	if (hc->hdr->damaged)
	{
		health_report(hc, "floor_file", "critical",
					  psprintf("The restart floor file \"%s\" was damaged at server start (%s): gen_monotonic_ulid(), snowflake_next() and cosid80_next() refuse to issue (55000) until it is repaired.",
							   path, hc->hdr->damage),
					  repair);
		return;
	}
	ulid_floor_file_read(&fr, hc->hdr->capacity);
	if (fr.status == ULID_FLOOR_READ_DAMAGED)
		health_report(hc, "floor_file", "critical",
					  psprintf("The restart floor file \"%s\" is damaged: %s. The generators rewrite it at their next floor reservation if they can; a server start before that stops them (55000) until it is repaired.",
							   path, fr.problem),
					  repair);
	else if (fr.status == ULID_FLOOR_READ_MISSING &&
			 pg_atomic_read_u64(&hc->hdr->durable_ms) > 0)
		health_report(hc, "floor_file", "critical",
					  psprintf("The restart floor file \"%s\" does not exist, though the generators reserved a floor since the server started: it was deleted. A server start before they write it again starts them from the clock alone, below ids they issued if the clock is behind.",
							   path),
					  "Write it again from the floors in memory: SELECT ulid_floor_repair(now()); and find what deletes files in the data directory.");
}

static void
check_floor_ahead(HealthContext *hc)
{
	const char *wait_text = GetConfigOption("ulid.clock_wait_ms", true, false);
	int64		wait_ms = wait_text ? strtol(wait_text, NULL, 10) : 1000;
	int64		floor,
				ahead;

	if (hc->hdr == NULL)
		return;
	floor = (int64) pg_atomic_read_u64(&hc->hdr->durable_ms);
	ahead = floor - hc->now;
	if (ahead <= ULID_FLOOR_RESERVE_MS + wait_ms)
		return;
	health_report(hc, "floor_ahead", ahead > ULID_FAR_AHEAD_MS ? "critical" : "warning",
				  psprintf("The server-wide floor (%s) lies " INT64_FORMAT " ms ahead of the clock, more than a reservation (%d ms) and ulid.clock_wait_ms (" INT64_FORMAT " ms): gen_monotonic_ulid() and snowflake_next() issue ids at that time until the clock catches up.",
						   ulid_iso_or_ms(floor), ahead, ULID_FLOOR_RESERVE_MS, wait_ms),
				  "If the clock is right and no id was issued that late (a floor file copied from elsewhere, a repair with a wrong time), lower it: SELECT ulid_floor_repair(now(), lower => true); (it says which guarantee that drops). If the clock was set back after ids were issued that late, leave it: the generators stay above those ids.");
}

static void
check_advanced_states(HealthContext *hc)
{
	uint32		advanced,
				max;

	if (hc->hdr == NULL)
		return;
	advanced = hc->hdr->nadvanced;
	max = ulid_advanced_max(hc->hdr);
	if (!near_limit(advanced, max))
		return;
	health_report(hc, "advanced_states", advanced >= max ? "critical" : "warning",
				  psprintf("%u states are advanced, of the %u that may be at once (a quarter of the %u generator states): an advance beyond that is refused (53400), ulid_advance_from_tables() included.",
						   advanced, max, hc->hdr->capacity),
				  "Undo the advances no longer needed (SELECT * FROM ulid_generator_state WHERE state_floor IS NOT NULL lists them) with snowflake_reset(), cosid80_reset() or ulid_monotonic_reset(), or raise ulid.max_generator_states in postgresql.conf (preloaded) and restart.");
}

static void
check_capacity(HealthContext *hc)
{
	uint32		used,
				capacity;

	if (hc->hdr == NULL)
		return;
	SpinLockAcquire(&hc->hdr->table_lock);
	used = hc->hdr->nused;
	SpinLockRelease(&hc->hdr->table_lock);
	capacity = hc->hdr->capacity;
	if (!near_limit(used, capacity))
		return;
	health_report(hc, "capacity", "warning",
				  psprintf("%u of the %u generator states are in use, and " UINT64_FORMAT " gave way to others since the server started: a state that gave way and is needed again costs a new state's set-up, and may wait a tick of its layout.",
						   used, capacity, pg_atomic_read_u64(&hc->hdr->reclaims)),
				  "Raise ulid.max_generator_states in postgresql.conf (296 bytes of shared memory a state; it needs ulid preloaded) and restart the server.");
}

/*
 * The error an insert through such a default would raise on a server with
 * no node id (node.c's, with its reason and fix), caught in a
 * subtransaction; its message and detail go to *detail, its hint to *fix.
 */
static void
node_refusal(char **detail, char **fix)
{
	MemoryContext mcxt = CurrentMemoryContext;
	ResourceOwner owner = CurrentResourceOwner;
	ErrorData  *volatile edata = NULL;

	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(mcxt);
	PG_TRY();
	{
		ulid_node_report_none("Snowflake", "snowflake_next(layout)", "snowflake_next(layout, node)");
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(mcxt);
		edata = CopyErrorData();
		FlushErrorState();
	}
	PG_END_TRY();
	RollbackAndReleaseCurrentSubTransaction();
	MemoryContextSwitchTo(mcxt);
	CurrentResourceOwner = owner;
	*detail = edata == NULL ? pstrdup("this server has no node id") :
		edata->detail ? psprintf("%s: %s", edata->message, edata->detail) : edata->message;
	*fix = edata != NULL && edata->hint ? edata->hint :
		pstrdup("SELECT * FROM ulid_node_identity() shows why.");
}

static void
check_node_id(HealthContext *hc)
{
	char	   *schema = get_namespace_name(hc->schema);
	int64		node = ulid_node_resolve();
	StringInfoData cols;
	uint64		nrows;

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "ulid_health: SPI_connect failed");
	if (SPI_execute(psprintf("SELECT layout, max_node, columns FROM %s.ulid_node_id_layouts()",
							 quote_identifier(schema)), true, 0) != SPI_OK_SELECT)
		elog(ERROR, "ulid_health: ulid_node_id_layouts() failed");
	nrows = SPI_processed;
	initStringInfo(&cols);
	for (uint64 i = 0; i < nrows; i++)
	{
		HeapTuple	tup = SPI_tuptable->vals[i];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		char	   *layout = SPI_getvalue(tup, desc, 1);
		char	   *max_text = SPI_getvalue(tup, desc, 2);
		char	   *columns = SPI_getvalue(tup, desc, 3);
		int64		max_node = max_text ? strtoll(max_text, NULL, 10) : 0;

		if (node < 0)
		{
			appendStringInfo(&cols, "%s%s (%s)", cols.len ? ", " : "", columns, layout);
			continue;
		}
		if (node <= max_node)
			continue;
		health_report(hc, "node_id", "critical",
					  psprintf("Node id " INT64_FORMAT " does not fit the layout %s (nodes 0 to " INT64_FORMAT ") that the default of %s mints on: inserts through it fail (22003).",
							   node, layout, max_node, columns),
					  psprintf("Give the column a layout whose node fields hold more bits (twitter's hold 10: nodes 0 to 1023), or give this server a node id from 0 to " INT64_FORMAT " that no other server uses.",
							   max_node));
	}
	if (node < 0 && nrows > 0)
	{
		char	   *detail,
				   *fix;

		node_refusal(&detail, &fix);
		health_report(hc, "node_id", "critical",
					  psprintf("Column defaults of this database mint on the node id: %s; %s", cols.data, detail),
					  fix);
	}
	SPI_finish();
}

/*
 * Every check, in the order of their rows.  (The coordinator adds the
 * synchronous-standby wait, floors.h's ulid_floor_sync_waiter(), and the
 * keyring root, keys.h, here.)
 */
/*
 * A backend waits for the synchronous standby to confirm a floor record:
 * every generator call that needs a floor moved waits with it (read-only
 * and parallel statements too), as commits do.
 */
static void
check_sync_wait(HealthContext *hc)
{
	TimestampTz since;
	int			pid;
	long		secs;
	int			usecs;

	if (hc->hdr == NULL || (pid = ulid_floor_sync_waiter(&since)) == 0)
		return;
	ulid_timestamp_difference(since, GetCurrentTimestamp(), &secs, &usecs);
	health_report(hc, "sync_standby_wait", secs >= 10 ? "critical" : "warning",
				  psprintf("Backend %d has waited %ld.%03d s (since %s) for the synchronous standby to confirm a generator floor: every gen_monotonic_ulid(), snowflake_next() and cosid80_next() call that needs a floor moved waits with it (wait event SyncRep for it, UlidFloorWrite or Extension for the others), read-only and parallel statements too.",
						   pid, secs, usecs / 1000, timestamptz_to_str(since)),
				  "Bring the standby named in synchronous_standby_names back, or switch synchronous replication off (ALTER SYSTEM RESET synchronous_standby_names; SELECT pg_reload_conf();), which releases the waits at once, as it releases commits; or cancel that backend (SELECT pg_cancel_backend(pid)): its statement fails and the next one waits again.");
}

/*
 * This database has keys that the keyring root cannot serve: the root file
 * or command is missing or fails (a pg_upgrade or a new server without it),
 * or another root made them.  Every mask with those keys fails (55000).
 */
static void
check_keyring(HealthContext *hc)
{
	StringInfoData problem,
				fix;

	initStringInfo(&problem);
	initStringInfo(&fix);
	if (ulid_keyring_root_problem(&problem, &fix))
		health_report(hc, "keyring", "critical", problem.data, fix.data);
}

/*
 * A transaction that minted holds ulid_stable_bound() / snowflake_stable_bound()
 * back at its first id until it ends: readers paging with the bound see no
 * row above it meanwhile.  Ten seconds is long for an outbox relay.
 */
#define HEALTH_BOUND_WARN_S		10
#define HEALTH_BOUND_CRITICAL_S	3600

static void
check_stable_bound(HealthContext *hc)
{
	UlidBoundHolder h;
	long		secs;
	int			usecs;

	if (hc->hdr == NULL || !ulid_bound_oldest_holder(&h))
		return;
	ulid_timestamp_difference(h.since, GetCurrentTimestamp(), &secs, &usecs);
	if (secs < HEALTH_BOUND_WARN_S)
		return;
	health_report(hc, "stable_bound", secs >= HEALTH_BOUND_CRITICAL_S ? "critical" : "warning",
				  h.pid != 0 ?
				  psprintf("Backend %d's transaction has held the bound since its first id at %s (%ld s): it holds ulid_stable_bound() and snowflake_stable_bound() back at its first id until it ends, so readers paging with the bound see no newer row.",
						   h.pid, timestamptz_to_str(h.since), secs) :
				  psprintf("The prepared transaction %u, which minted its first id %ld s ago (%s), holds ulid_stable_bound() and snowflake_stable_bound() back at its first id until COMMIT PREPARED or ROLLBACK PREPARED.",
						   h.xid, secs, timestamptz_to_str(h.since)),
				  h.pid != 0 ?
				  psprintf("End that transaction (SELECT pg_cancel_backend(%d), or pg_terminate_backend() if it is idle in transaction); see SELECT * FROM pg_stat_activity WHERE pid = %d.", h.pid, h.pid) :
				  psprintf("Finish it: SELECT gid FROM pg_prepared_xacts WHERE transaction = '%u'; then COMMIT PREPARED or ROLLBACK PREPARED that gid.", h.xid));
}

static const HealthCheck checks[] = {
	check_preload,
	check_floor_file,
	check_floor_ahead,
	check_advanced_states,
	check_capacity,
	check_node_id,
	check_sync_wait,
	check_keyring,
	check_stable_bound,
};

PG_FUNCTION_INFO_V1(ulid_health);
Datum
ulid_health(PG_FUNCTION_ARGS)
{
	HealthContext hc;

	if (!superuser() && !has_privs_of_role(GetUserId(), ROLE_PG_MONITOR))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to run ulid_health()"),
				 errdetail("ulid_health() is for superusers and members of pg_monitor, whatever was granted."),
				 errhint("GRANT pg_monitor TO the role.")));
	InitMaterializedSRF(fcinfo, 0);
	hc.rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	hc.hdr = ulid_shared_unavailable() ? NULL : ulid_shared_get();
	hc.now = ulid_clock_now_ms();
	hc.schema = get_func_namespace(fcinfo->flinfo->fn_oid);
	for (size_t i = 0; i < lengthof(checks); i++)
		checks[i] (&hc);
	return (Datum) 0;
}
