/*-------------------------------------------------------------------------
 *
 * node.c
 *	  Node identity.  Every Snowflake and COSID_80 id names its node, and
 *	  two servers that mint on one node can issue equal ids, so a server
 *	  mints only on the nodes it owns:
 *	  - its node id: ulid.node_id (ulid.node_id_source = 'setting', the
 *	    default), or this node's Citus group id ('citus': read from Citus's
 *	    pg_catalog.pg_dist_local_group, so one postgresql.conf copied to
 *	    every node of a cluster gives each node its own id; the coordinator
 *	    is 0, a worker and its standby share a group);
 *	  - the nodes ulid.node_ids names besides (numbers and ranges,
 *	    src/core/nodeset.c), such as Instagram's 8,192 logical shards.
 *	  The explicit-node forms (snowflake_next(layout, node),
 *	  cosid80_next(node)) refuse any other node, for every role.
 *	  ulid_node_identity() shows what this server owns; ulid_check_node_ids()
 *	  (sql/ulid.sql) compares every node of a Citus cluster.
 *
 * CITUS
 * There is no build or load dependency on Citus: the group id is read by
 * name, from the table pg_catalog.pg_dist_local_group (one row, column
 * groupid), with the catalog snapshot as Citus itself reads it.  Only a
 * superuser or an extension script can create a table in pg_catalog, so no
 * role can stand in for it.  The value is cached per backend and dropped
 * on a relcache invalidation of that table (Citus's trigger on it sends
 * one when citus_add_node() sets a worker's group), on any full
 * invalidation and when ulid.node_id_source is set (a reload).  A failed
 * read is not cached: the call that needs it fails (55000, naming why),
 * and the next one reads again.
 *
 * SET of a node setting in a session (they are the server's) gets core's
 * 55P02 with the fix, ALTER SYSTEM and a reload, as its hint (a utility
 * hook, where the library is loaded).
 *
 *-------------------------------------------------------------------------
 */
#include "node.h"

#include <limits.h>

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_type.h"
#include "commands/dbcommands.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "tcop/utility.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#include "nodeset.h"
#include "state_table.h"

/* settings */
int			ulid_node_id_setting = -1;
int			ulid_node_source = ULID_NODE_SOURCE_SETTING;
static char *node_ids_text = NULL;

static const struct config_enum_entry node_source_options[] = {
	{"setting", ULID_NODE_SOURCE_SETTING, false},
	{"citus", ULID_NODE_SOURCE_CITUS, false},
	{NULL, 0, false}
};

/* ulid.node_ids parsed: the GUC machinery's "extra" of the current value */
typedef struct owned_set
{
	size_t		n;
	nodeset_range r[FLEXIBLE_ARRAY_MEMBER];
} owned_set;
static owned_set *owned = NULL;

/* the Citus group id of this backend's database, -1 until read */
static int64 citus_group = -1;
static Oid	citus_table = InvalidOid;	/* the table it came from */
static bool citus_callback = false;

#define CITUS_TABLE "pg_dist_local_group"

/* --- ulid.node_ids --------------------------------------------------------- */

static bool
check_node_ids(char **newval, void **extra, GucSource source pg_attribute_unused())
{
	const char *s = *newval ? *newval : "";
	size_t		len = strlen(s);
	size_t		cap = nodeset_max_ranges(s, len);
	size_t		n,
				pos;
	char		msg[NODESET_MSG_MAX];
	owned_set  *set;
	Size		size = offsetof(owned_set, r) + cap * sizeof(nodeset_range);

#if PG_VERSION_NUM >= 160000
	set = guc_malloc(LOG, size);
#else
	set = malloc(size);
#endif
	if (set == NULL)
		return false;
	if (!nodeset_parse(s, len, set->r, cap, &n, &pos, msg, sizeof(msg)))
	{
#if PG_VERSION_NUM >= 160000
		guc_free(set);
#else
		free(set);
#endif
		GUC_check_errcode(ERRCODE_INVALID_PARAMETER_VALUE);
		GUC_check_errdetail("At character %d: %s.", (int) pos + 1, msg);
		GUC_check_errhint("Write the nodes this server owns besides ulid.node_id as numbers and ranges separated by commas, such as '0-8191' or '3,7,100-199'.");
		return false;
	}
	set->n = n;
	*extra = set;
	return true;
}

static void
assign_node_ids(const char *newval pg_attribute_unused(), void *extra)
{
	owned = (owned_set *) extra;
}

/* The canonical text of ulid.node_ids, palloc'd ("" when empty). */
static char *
node_ids_canonical(void)
{
	size_t		len;
	char	   *out;

	if (owned == NULL || owned->n == 0)
		return pstrdup("");
	len = nodeset_format(owned->r, owned->n, NULL, 0);
	out = palloc(len + 1);
	nodeset_format(owned->r, owned->n, out, len + 1);
	return out;
}

/* The canonical text of ulid.node_ids with node added, palloc'd. */
static char *
node_ids_with(int64 node)
{
	char	   *ids = node_ids_canonical();
	char	   *text = ids[0] ? psprintf("%s," INT64_FORMAT, ids, node) : psprintf(INT64_FORMAT, node);
	size_t		cap = nodeset_max_ranges(text, strlen(text));
	nodeset_range *r = palloc(cap * sizeof(nodeset_range));
	size_t		n,
				pos,
				len;
	char		msg[NODESET_MSG_MAX];
	char	   *out;

	if (!nodeset_parse(text, strlen(text), r, cap, &n, &pos, msg, sizeof(msg)))
		elog(ERROR, "ulid.node_ids with node " INT64_FORMAT ": %s", node, msg);
	len = nodeset_format(r, n, NULL, 0);
	out = palloc(len + 1);
	nodeset_format(r, n, out, len + 1);
	return out;
}

/* --- the Citus group id ------------------------------------------------------ */

static void
citus_invalidate(Datum arg pg_attribute_unused(), Oid relid)
{
	if (relid == InvalidOid || relid == citus_table)
	{
		citus_group = -1;
		citus_table = InvalidOid;
	}
}

static void
assign_node_source(int newval pg_attribute_unused(), void *extra pg_attribute_unused())
{
	citus_group = -1;
	citus_table = InvalidOid;
}

/*
 * Read the group id from Citus's table; -1 with *why set (palloc'd) when
 * it cannot be read.
 */
static int64
citus_read(char **why)
{
	Oid			relid;
	Relation	rel;
	SysScanDesc scan;
	HeapTuple	tup;
	AttrNumber	att;
	int64		group = -1;

	if (!IsTransactionState())
	{
		*why = pstrdup("the Citus group id is read in a transaction, and there is none");
		return -1;
	}
	relid = get_relname_relid(CITUS_TABLE, PG_CATALOG_NAMESPACE);
	if (!OidIsValid(relid))
	{
		*why = psprintf("Citus is not installed in the database \"%s\" (there is no pg_catalog." CITUS_TABLE ")",
						get_database_name(MyDatabaseId));
		return -1;
	}
	if (!citus_callback)
	{
		CacheRegisterRelcacheCallback(citus_invalidate, (Datum) 0);
		citus_callback = true;
	}
	att = get_attnum(relid, "groupid");
	rel = table_open(relid, AccessShareLock);
	if (att == InvalidAttrNumber ||
		TupleDescAttr(RelationGetDescr(rel), att - 1)->atttypid != INT4OID)
	{
		table_close(rel, AccessShareLock);
		*why = pstrdup("pg_catalog." CITUS_TABLE " has no integer column groupid (an unknown Citus version)");
		return -1;
	}
	scan = systable_beginscan(rel, InvalidOid, false, NULL, 0, NULL);
	tup = systable_getnext(scan);
	if (HeapTupleIsValid(tup))
	{
		bool		isnull;
		Datum		d = heap_getattr(tup, att, RelationGetDescr(rel), &isnull);

		if (isnull)
			*why = pstrdup("pg_catalog." CITUS_TABLE ".groupid is NULL");
		else if (DatumGetInt32(d) < 0)
			*why = psprintf("this node's Citus group id is %d, not a node number",
							DatumGetInt32(d));
		else
			group = DatumGetInt32(d);
	}
	else
		*why = pstrdup("pg_catalog." CITUS_TABLE " is empty (Citus empties it during a PostgreSQL upgrade until citus_finish_pg_upgrade())");
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	if (group >= 0)
		citus_table = relid;
	return group;
}

int64
ulid_node_citus(void)
{
	char	   *why;

	if (likely(citus_group >= 0))
		return citus_group;
	citus_group = citus_read(&why);
	return citus_group;
}

/*
 * This server's node id, or -1 with *why saying why it has none
 * (palloc'd).
 */
static int64
node_id_or_why(char **why)
{
	*why = NULL;
	if (ulid_node_source == ULID_NODE_SOURCE_SETTING)
	{
		if (ulid_node_id_setting < 0)
			*why = pstrdup("ulid.node_id is not set");
		return ulid_node_id_setting;
	}
	if (citus_group >= 0)
		return citus_group;
	citus_group = citus_read(why);
	return citus_group;
}

void
ulid_node_report_none(const char *what, const char *fn, const char *call)
{
	char	   *why;

	(void) node_id_or_why(&why);
	/* both missing (15 and 16 without the preload): say both at once */
	if (ulid_node_source == ULID_NODE_SOURCE_SETTING && ulid_shared_unavailable())
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("this server has no node id for %s ids, and the ulid library is not preloaded", what),
				 errdetail("ulid.node_id is not set, and %s mints ids on it; its state is kept in shared memory, which before PostgreSQL 17 needs ulid in shared_preload_libraries.", fn),
				 errhint("In postgresql.conf set ulid.node_id to a node number no other server minting ids uses, and add ulid to shared_preload_libraries, keeping the libraries it lists; then restart the server.")));
	if (ulid_node_source == ULID_NODE_SOURCE_SETTING)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("this server has no node id for %s ids", what),
				 errdetail("ulid.node_id is not set, and %s mints ids on it.", fn),
				 errhint("Set ulid.node_id in postgresql.conf to a node number no other server minting ids uses (or ALTER SYSTEM SET ulid.node_id = ...), then SELECT pg_reload_conf(); or pass a node this server owns (ulid.node_ids): %s.", call)));
	ereport(ERROR,
			(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			 errmsg("this server has no node id for %s ids", what),
			 errdetail("ulid.node_id_source is 'citus', so %s mints ids on this node's Citus group id, and %s.",
					   fn, why ? why : "it cannot be read"),
			 errhint("Create the citus extension in this database (a Citus cluster uses one database), or set ulid.node_id_source = 'setting' and a ulid.node_id no other server uses; then SELECT pg_reload_conf().")));
}

/* --- SET of a node setting -------------------------------------------------- */

/*
 * The node settings are the server's (sighup): core refuses SET, SET LOCAL
 * and RESET of them in a session with a bare 55P02.  This hook raises that
 * same error first, with the fix as its hint (ALTER SYSTEM and a reload).
 * Only where the library is loaded: preloaded, or in a session that used
 * it already.
 */
static ProcessUtility_hook_type prev_process_utility = NULL;

static void
node_process_utility(PlannedStmt *pstmt, const char *queryString,
					 bool readOnlyTree, ProcessUtilityContext context,
					 ParamListInfo params, QueryEnvironment *queryEnv,
					 DestReceiver *dest, QueryCompletion *qc)
{
	VariableSetStmt *set = (VariableSetStmt *) pstmt->utilityStmt;

	if (IsA(set, VariableSetStmt) && set->kind != VAR_RESET_ALL &&
		(pg_strcasecmp(set->name, "ulid.node_id") == 0 ||
		 pg_strcasecmp(set->name, "ulid.node_ids") == 0 ||
		 pg_strcasecmp(set->name, "ulid.node_id_source") == 0))
	{
		char	   *value = set->kind == VAR_SET_VALUE ? ExtractSetVariableArgs(set) : NULL;

		ereport(ERROR,
				(errcode(ERRCODE_CANT_CHANGE_RUNTIME_PARAM),
				 errmsg("parameter \"%s\" cannot be changed now", set->name),
				 errdetail("It is a setting of the whole server: every session mints on the same nodes."),
				 value ?
				 errhint("Set it for the server and reload: ALTER SYSTEM SET %s = %s; SELECT pg_reload_conf(); (or in postgresql.conf).",
						 set->name, value) :
				 errhint("Set it for the server and reload: ALTER SYSTEM RESET %s; SELECT pg_reload_conf(); (or in postgresql.conf).",
						 set->name)));
	}
	if (prev_process_utility)
		prev_process_utility(pstmt, queryString, readOnlyTree, context,
							 params, queryEnv, dest, qc);
	else
		standard_ProcessUtility(pstmt, queryString, readOnlyTree, context,
								params, queryEnv, dest, qc);
}

/* --- ownership --------------------------------------------------------------- */

/* "node 1 (ulid.node_id) and 100-199 (ulid.node_ids)", palloc'd */
static char *
owned_description(int64 mine)
{
	char	   *ids = node_ids_canonical();
	char	   *id;

	if (mine < 0)
		id = NULL;
	else if (ulid_node_source == ULID_NODE_SOURCE_SETTING)
		id = psprintf(INT64_FORMAT " (ulid.node_id)", mine);
	else
		id = psprintf(INT64_FORMAT " (its Citus group id, ulid.node_id_source = 'citus')", mine);
	if (id && ids[0])
		return psprintf("%s and %s (ulid.node_ids)", id, ids);
	if (id)
		return id;
	if (ids[0])
		return psprintf("%s (ulid.node_ids)", ids);
	return pstrdup("none");
}

void
ulid_node_require_owned_slow(int64 node, const char *fn)
{
	char	   *why;
	int64		mine;

	if (owned != NULL && nodeset_contains(owned->r, owned->n, node))
		return;
	mine = node_id_or_why(&why);
	if (node == mine)
		return;
	ereport(ERROR,
			(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			 errmsg("this server does not own node " INT64_FORMAT, node),
			 errdetail("%s mints only on the nodes this server owns: %s. Two servers minting on one node can issue equal ids.",
					   fn, owned_description(mine)),
			 errhint("If no other server mints on node " INT64_FORMAT ", add it to ulid.node_ids in postgresql.conf (or ALTER SYSTEM SET ulid.node_ids = '%s'), then SELECT pg_reload_conf().",
					 node, node_ids_with(node))));
}

/*
 * ulid_node_identity(): node_id (NULL when none), source, owned_nodes (the
 * node id and ulid.node_ids, canonical), problem (why there is no node id,
 * else NULL).
 */
PG_FUNCTION_INFO_V1(ulid_node_identity);
Datum
ulid_node_identity(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	Datum		values[4];
	bool		nulls[4] = {false, false, false, false};
	char	   *why;
	int64		mine = node_id_or_why(&why);

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "ulid_node_identity: return type must be a row type");
	tupdesc = BlessTupleDesc(tupdesc);

	if (mine >= 0)
	{
		values[0] = Int64GetDatum(mine);
		values[2] = CStringGetTextDatum(node_ids_with(mine));
	}
	else
	{
		nulls[0] = true;
		values[2] = CStringGetTextDatum(node_ids_canonical());
	}
	values[1] = CStringGetTextDatum(ulid_node_source == ULID_NODE_SOURCE_CITUS ? "citus" : "setting");
	if (why)
		values[3] = CStringGetTextDatum(why);
	else
		nulls[3] = true;
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}

/* --- settings ------------------------------------------------------------------ */

void
ulid_node_init(void)
{
	prev_process_utility = ProcessUtility_hook;
	ProcessUtility_hook = node_process_utility;
	DefineCustomIntVariable("ulid.node_id",
							"This server's node id for Snowflake ids (snowflake_next(layout)); -1 means unset.",
							"Every server minting ids with one layout needs its own node id. It fills all node fields of a layout together.",
							&ulid_node_id_setting,
							-1, -1, INT_MAX,
							PGC_SIGHUP, 0,
							NULL, NULL, NULL);
	DefineCustomStringVariable("ulid.node_ids",
							   "The nodes this server owns besides its node id, as numbers and ranges: '0-8191', '3,7,100-199'.",
							   "snowflake_next(layout, node) and cosid80_next(node) refuse a node this server does not own. No other server may mint on these nodes.",
							   &node_ids_text,
							   "",
							   PGC_SIGHUP, 0,
							   check_node_ids, assign_node_ids, NULL);
	DefineCustomEnumVariable("ulid.node_id_source",
							 "Where this server's node id comes from: 'setting' (ulid.node_id) or 'citus' (this node's Citus group id).",
							 "With 'citus', one postgresql.conf copied to every node of a Citus cluster gives each node its own node id.",
							 &ulid_node_source,
							 ULID_NODE_SOURCE_SETTING, node_source_options,
							 PGC_SIGHUP, 0,
							 NULL, assign_node_source, NULL);
}
