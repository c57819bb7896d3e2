/*-------------------------------------------------------------------------
 *
 * node.h
 *	  Node identity: the node this server mints Snowflake and COSID_80 ids
 *	  on (ulid.node_id, or its Citus group id under ulid.node_id_source =
 *	  'citus') and the nodes it owns besides (ulid.node_ids).  node.c.
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_NODE_H
#define ULID_NODE_H

#include "ulid.h"

typedef enum UlidNodeSource
{
	ULID_NODE_SOURCE_SETTING = 0,	/* ulid.node_id */
	ULID_NODE_SOURCE_CITUS = 1	/* this node's Citus group id */
} UlidNodeSource;

/* settings (node.c) */
extern ULID_HIDDEN int ulid_node_source;	/* ulid.node_id_source */

/*
 * The node this backend mints on, once checked (node.c: the setting, or
 * the Citus group id, and what Citus's metadata allows); -1 until then.
 */
extern ULID_HIDDEN int64 ulid_node_cached;

/* The node this server mints on, checked and cached; -1 when it has none. */
extern int64 ulid_node_resolve(void);

/* The node this server mints on, -1 when it has none. */
static inline int64
ulid_node_id(void)
{
	if (likely(ulid_node_cached >= 0))
		return ulid_node_cached;
	return ulid_node_resolve();
}

/*
 * ERROR 55000: this server has no node id for what ("Snowflake",
 * "COSID_80") ids, which fn mints on; call is the explicit-node form.
 * Says why (the setting unset, or why the Citus group id is unreadable).
 */
extern void ulid_node_report_none(const char *what, const char *fn,
								  const char *call);	/* does not return */

extern void ulid_node_require_owned_slow(int64 node, const char *fn);

/*
 * ERROR 55000 unless this server owns node (its node id, or ulid.node_ids
 * where Citus allows them), for every role: fn is the explicit-node form
 * that was called.  One compare when node is the node id.
 */
static inline void
ulid_node_require_owned(int64 node, const char *fn)
{
	if (likely(node >= 0 && node == ulid_node_cached))
		return;
	ulid_node_require_owned_slow(node, fn);
}

/* From _PG_init: the settings. */
extern void ulid_node_init(void);

#endif							/* ULID_NODE_H */
