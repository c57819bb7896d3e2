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
 * There is no build or load dependency on Citus: its metadata is read by
 * name, with the catalog snapshot as Citus itself reads it, from
 * pg_catalog.pg_dist_local_group (one row: this node's group id) and
 * pg_catalog.pg_dist_node (the cluster's nodes; on a worker, the copy
 * Citus's metadata sync keeps).  Only a superuser or an extension script can
 * create a table in pg_catalog, so no role can stand in for them.  Where
 * Citus is installed in the database, no configuration lets two nodes of
 * one cluster mint on one node:
 *	  - 'citus' mints on the group id only once the node has joined a
 *	    cluster: pg_dist_node has a row of its group, or it is group 0 and
 *	    lists other nodes (a coordinator never registered with
 *	    citus_set_coordinator_host).  A lone node with Citus installed is
 *	    group 0, the coordinator's id of every cluster; it refuses.
 *	  - 'setting' (ulid.node_id) and ulid.node_ids refuse on a node whose
 *	    pg_dist_node lists a node of another group: a postgresql.conf copied
 *	    to every node (still what most images do) would make them mint on
 *	    one node, and no node can see another's settings.  A lone Citus
 *	    server, or a cluster of one node, keeps them.
 * What was read is cached per backend and dropped on a relcache
 * invalidation of either table (Citus's triggers send one on every change
 * of their rows), when a table of either name is created or dropped (the
 * RELNAMENSP syscache: CREATE or DROP EXTENSION citus), on any full
 * invalidation and when a setting changes (a reload).  ulid_node_cached
 * holds the node id so checked, so the hot path is one compare as with a
 * plain setting; a failed read is not cached: the call that needs it fails
 * (55000, naming why), and the next one reads again.
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
#include "utils/syscache.h"

#include "nodeset.h"
#include "state_table.h"

/* settings */
static int	ulid_node_id_setting = -1;	/* ulid.node_id, -1 unset */
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

/* the node this backend mints on, checked (node_resolve); -1 until then */
int64		ulid_node_cached = -1;

/* What this backend read of Citus in its database (citus_load). */
typedef struct citus_meta
{
	bool		valid;			/* read since the last invalidation */
	bool		installed;		/* pg_catalog.pg_dist_local_group exists */
	int64		group;			/* this node's group id */
	bool		joined;			/* it belongs to a cluster (see CITUS above) */
	bool		others;			/* pg_dist_node lists a node of another group */
} citus_meta;
static citus_meta citus;
static Oid	citus_group_rel = InvalidOid;
static Oid	citus_node_rel = InvalidOid;
static uint32 citus_group_hash;	/* RELNAMENSP hash values of their names */
static uint32 citus_node_hash;
static bool citus_callbacks = false;
static uint64 node_generation = 0;	/* counts invalidations */

#define CITUS_TABLE "pg_dist_local_group"
#define CITUS_NODES "pg_dist_node"

/* Why a server has no node id (node_resolve), for the error's hint. */
typedef enum node_problem
{
	NODE_OK,
	NODE_UNSET,					/* 'setting', ulid.node_id unset */
	NODE_IN_CLUSTER,			/* 'setting' on a Citus node with others */
	NODE_CITUS,					/* Citus's metadata cannot be read */
	NODE_NOT_JOINED				/* 'citus' on a node not in a cluster */
} node_problem;

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
#define NODE_IDS_HINT "Write the nodes this server owns besides ulid.node_id as numbers and ranges separated by commas, such as '0-8191' or '3,7,100-199'."
#ifdef __PGLITE__
		/* PGlite exports neither GUC_check_errcode (22023 is the default) nor the hint's string */
		GUC_check_errdetail("At character %d: %s. %s", (int) pos + 1, msg, NODE_IDS_HINT);
#else
		GUC_check_errcode(ERRCODE_INVALID_PARAMETER_VALUE);
		GUC_check_errdetail("At character %d: %s.", (int) pos + 1, msg);
		GUC_check_errhint(NODE_IDS_HINT);
#endif
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

/* --- Citus's metadata ---------------------------------------------------------- */

static void
node_invalidate(void)
{
	citus.valid = false;
	ulid_node_cached = -1;
	node_generation++;
}

static void
citus_relcache_changed(Datum arg pg_attribute_unused(), Oid relid)
{
	if (relid == InvalidOid || relid == citus_group_rel || relid == citus_node_rel)
		node_invalidate();
}

static void
citus_relname_changed(Datum arg pg_attribute_unused(), int cacheid pg_attribute_unused(),
					  uint32 hashvalue)
{
	if (hashvalue == 0 || hashvalue == citus_group_hash || hashvalue == citus_node_hash)
		node_invalidate();
}

static void
assign_node_setting(int newval pg_attribute_unused(), void *extra pg_attribute_unused())
{
	node_invalidate();
}

/*
 * The groupid column of every row of the Citus table pg_catalog.name
 * (relid), as a List of int (-1 for NULL); false with *why set (palloc'd)
 * when it has no integer column groupid.
 */
static bool
citus_groupids(Oid relid, const char *name, List **groups, char **why)
{
	Relation	rel = table_open(relid, AccessShareLock);
	AttrNumber	att = get_attnum(relid, "groupid");
	SysScanDesc scan;
	HeapTuple	tup;

	*groups = NIL;
	if (att == InvalidAttrNumber ||
		TupleDescAttr(RelationGetDescr(rel), att - 1)->atttypid != INT4OID)
	{
		table_close(rel, AccessShareLock);
		*why = psprintf("pg_catalog.%s has no integer column groupid (an unknown Citus version)", name);
		return false;
	}
	scan = systable_beginscan(rel, InvalidOid, false, NULL, 0, NULL);
	while (HeapTupleIsValid(tup = systable_getnext(scan)))
	{
		bool		isnull;
		Datum		d = heap_getattr(tup, att, RelationGetDescr(rel), &isnull);

		*groups = lappend_int(*groups, isnull ? -1 : DatumGetInt32(d));
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return true;
}

/*
 * Read this node's group id and what pg_dist_node says of it into m;
 * false with *why set (palloc'd) when they cannot be read.
 */
static bool
citus_read(Oid group_rel, Oid node_rel, citus_meta *m, char **why)
{
	List	   *groups;
	ListCell   *lc;
	bool		listed = false;

	if (!citus_groupids(group_rel, CITUS_TABLE, &groups, why))
		return false;
	if (groups == NIL)
	{
		*why = pstrdup("pg_catalog." CITUS_TABLE " is empty (Citus empties it during a PostgreSQL upgrade until citus_finish_pg_upgrade())");
		return false;
	}
	m->group = linitial_int(groups);
	if (m->group < 0)
	{
		*why = pstrdup("pg_catalog." CITUS_TABLE ".groupid is not a node number (NULL or negative)");
		return false;
	}
	if (!citus_groupids(node_rel, CITUS_NODES, &groups, why))
		return false;
	foreach(lc, groups)
	{
		if (lfirst_int(lc) == m->group)
			listed = true;
		else
			m->others = true;
	}
	/* a coordinator that added workers without registering itself */
	m->joined = listed || (m->group == 0 && m->others);
	return true;
}

/*
 * What Citus's metadata says of this node (cached; see CITUS above); false
 * with *why set (palloc'd) when it cannot be read.
 */
static bool
citus_load(char **why)
{
	citus_meta	m = {true, false, -1, false, false};
	uint64		generation = node_generation;
	Oid			group_rel,
				node_rel = InvalidOid;

	if (likely(citus.valid))
		return true;
	if (!IsTransactionState())
	{
		*why = pstrdup("Citus's metadata is read in a transaction, and there is none");
		return false;
	}
	if (!citus_callbacks)
	{
		CacheRegisterRelcacheCallback(citus_relcache_changed, (Datum) 0);
		CacheRegisterSyscacheCallback(RELNAMENSP, citus_relname_changed, (Datum) 0);
		citus_group_hash = GetSysCacheHashValue2(RELNAMENSP, CStringGetDatum(CITUS_TABLE),
												 ObjectIdGetDatum(PG_CATALOG_NAMESPACE));
		citus_node_hash = GetSysCacheHashValue2(RELNAMENSP, CStringGetDatum(CITUS_NODES),
												ObjectIdGetDatum(PG_CATALOG_NAMESPACE));
		citus_callbacks = true;
	}
	group_rel = get_relname_relid(CITUS_TABLE, PG_CATALOG_NAMESPACE);
	if (OidIsValid(group_rel))
	{
		m.installed = true;
		node_rel = get_relname_relid(CITUS_NODES, PG_CATALOG_NAMESPACE);
		if (!OidIsValid(node_rel))
		{
			*why = pstrdup("there is no pg_catalog." CITUS_NODES " (an unknown Citus version)");
			return false;
		}
		/* the reads take locks, so invalidations may arrive meanwhile */
		if (!citus_read(group_rel, node_rel, &m, why))
			return false;
	}
	citus_group_rel = group_rel;
	citus_node_rel = node_rel;
	if (node_generation != generation)
	{
		/* read under a newer snapshot than the invalidation: read again */
		return citus_load(why);
	}
	citus = m;
	return true;
}

/*
 * Whether this node shares a Citus cluster with other nodes, or Citus's
 * metadata cannot be read: then ulid.node_id and ulid.node_ids are not used.
 */
static bool
citus_with_others_slow(void)
{
	char	   *why;

	return !citus_load(&why) || (citus.installed && citus.others);
}

static inline bool
citus_with_others(void)
{
	if (likely(citus.valid))
		return citus.installed && citus.others;
	return citus_with_others_slow();
}

/*
 * This server's node id, or -1 with *why (palloc'd) and *problem saying why
 * it has none.  A node id is cached in ulid_node_cached.
 */
static int64
node_resolve(char **why, node_problem *problem)
{
	uint64		generation = node_generation;
	int64		node;

	*why = NULL;
	if (!citus_load(why))
	{
		*problem = NODE_CITUS;
		return -1;
	}
	if (ulid_node_source == ULID_NODE_SOURCE_SETTING)
	{
		if (citus.installed && citus.others)
		{
			*why = pstrdup("ulid.node_id is not used on a Citus cluster with other nodes (set ulid.node_id_source = 'citus')");
			*problem = NODE_IN_CLUSTER;
			return -1;
		}
		if (ulid_node_id_setting < 0)
		{
			*why = pstrdup("ulid.node_id is not set");
			*problem = NODE_UNSET;
			return -1;
		}
		node = ulid_node_id_setting;
	}
	else if (!citus.installed)
	{
		*why = psprintf("Citus is not installed in the database \"%s\" (there is no pg_catalog." CITUS_TABLE ")",
						get_database_name(MyDatabaseId));
		*problem = NODE_CITUS;
		return -1;
	}
	else if (!citus.joined)
	{
		*why = citus.group == 0 ?
			pstrdup("this node has not joined a Citus cluster: its group is 0, the coordinator's, and its pg_dist_node lists no node") :
			psprintf("this node has not joined a Citus cluster: its pg_dist_node has no row of its group, " INT64_FORMAT,
					 citus.group);
		*problem = NODE_NOT_JOINED;
		return -1;
	}
	else
		node = citus.group;
	*problem = NODE_OK;
	if (node_generation == generation)
		ulid_node_cached = node;
	return node;
}

int64
ulid_node_resolve(void)
{
	char	   *why;
	node_problem problem;

	return node_resolve(&why, &problem);
}

void
ulid_node_report_none(const char *what, const char *fn, const char *call)
{
	char	   *why;
	node_problem problem;

	(void) node_resolve(&why, &problem);
	/* both missing (15 and 16 without the preload): say both at once */
	if (problem == NODE_UNSET && ulid_shared_unavailable())
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("this server has no node id for %s ids, and the ulid library is not preloaded", what),
				 errdetail("ulid.node_id is not set, and %s mints ids on it; its state is kept in shared memory, which before PostgreSQL 17 needs ulid in shared_preload_libraries.", fn),
				 errhint("In postgresql.conf set ulid.node_id to a node number no other server minting ids uses, and add ulid to shared_preload_libraries, keeping the libraries it lists; then restart the server.")));
	if (problem == NODE_UNSET)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("this server has no node id for %s ids", what),
				 errdetail("ulid.node_id is not set, and %s mints ids on it.", fn),
				 errhint("Set ulid.node_id in postgresql.conf to a node number no other server minting ids uses (or ALTER SYSTEM SET ulid.node_id = ...), then SELECT pg_reload_conf(); or pass a node this server owns (ulid.node_ids): %s.", call)));
	if (problem == NODE_IN_CLUSTER)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("this server has no node id for %s ids", what),
				 errdetail("ulid.node_id_source is 'setting', and this node is in a Citus cluster with other nodes (its group is " INT64_FORMAT "), where one ulid.node_id copied to every node would make them mint equal ids: %s mints there on each node's Citus group id only.",
						   citus.group, fn),
				 errhint("Set ulid.node_id_source = 'citus' in the postgresql.conf of every node (each node's node id is then its Citus group id), then SELECT pg_reload_conf().")));
	if (problem == NODE_NOT_JOINED)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("this server has no node id for %s ids", what),
				 errdetail("ulid.node_id_source is 'citus', so %s mints ids on this node's Citus group id, and %s.",
						   fn, why),
				 errhint("Join a cluster before minting: if this node is the coordinator, SELECT citus_set_coordinator_host('<its host>', <its port>) on it; if it is a worker, SELECT citus_add_node('<its host>', <its port>) on the coordinator.")));
	if (ulid_node_source == ULID_NODE_SOURCE_SETTING)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("this server has no node id for %s ids", what),
				 errdetail("ulid.node_id_source is 'setting', and Citus's metadata, which says whether other nodes share a cluster with this one (then ulid.node_id is not used), cannot be read: %s.",
						   why ? why : "unknown"),
				 errhint("Set ulid.node_id_source = 'citus' in the postgresql.conf of every node of the cluster, then SELECT pg_reload_conf().")));
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
#ifdef __PGLITE__
		char	   *value = set->kind == VAR_SET_VALUE ? pstrdup("...") : NULL;	/* not exported */
#else
		char	   *value = set->kind == VAR_SET_VALUE ? ExtractSetVariableArgs(set) : NULL;
#endif

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

/*
 * "node 1 (ulid.node_id) and 100-199 (ulid.node_ids)", palloc'd; without
 * ulid.node_ids where Citus lists other nodes.
 */
static char *
owned_description(int64 mine)
{
	char	   *ids = citus_with_others() ? pstrdup("") : node_ids_canonical();
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
	node_problem problem;
	int64		mine;
	bool		listed = owned != NULL && nodeset_contains(owned->r, owned->n, node);

	if (listed && !citus_with_others())
		return;
	mine = node_resolve(&why, &problem);
	if (node == mine)
		return;
	if (listed || citus_with_others())
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("this server does not own node " INT64_FORMAT, node),
				 errdetail("%s mints only on the nodes this server owns: %s. On a Citus cluster with other nodes, ulid.node_ids is not used: one list copied to every node would make them mint equal ids.",
						   fn, owned_description(mine)),
				 errhint("Mint on this node's own node id (leave the node out: snowflake_next(layout), cosid80_next()).")));
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
 * node id and ulid.node_ids, canonical: the nodes it mints on), problem
 * (why there is no node id, or that ulid.node_ids is not used; else NULL).
 */
PG_FUNCTION_INFO_V1(ulid_node_identity);
Datum
ulid_node_identity(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	Datum		values[4];
	bool		nulls[4] = {false, false, false, false};
	char	   *why;
	node_problem problem;
	int64		mine = node_resolve(&why, &problem);
	bool		ids_unused = citus_with_others() && owned != NULL && owned->n > 0;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "ulid_node_identity: return type must be a row type");
	tupdesc = BlessTupleDesc(tupdesc);

	if (mine >= 0)
	{
		values[0] = Int64GetDatum(mine);
		values[2] = CStringGetTextDatum(ids_unused ? psprintf(INT64_FORMAT, mine) : node_ids_with(mine));
	}
	else
	{
		nulls[0] = true;
		values[2] = CStringGetTextDatum(ids_unused ? "" : node_ids_canonical());
	}
	values[1] = CStringGetTextDatum(ulid_node_source == ULID_NODE_SOURCE_CITUS ? "citus" : "setting");
	if (!why && ids_unused)
		why = pstrdup("ulid.node_ids is not used on a Citus cluster with other nodes");
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
							NULL, assign_node_setting, NULL);
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
							 NULL, assign_node_setting, NULL);
}
