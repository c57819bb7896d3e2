/*-------------------------------------------------------------------------
 *
 * compat.h
 *	  Every difference between the supported PostgreSQL majors (15-19).
 *
 * Feature tests live here and nowhere else; the rest of the code uses the
 * macros below unconditionally.
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_COMPAT_H
#define ULID_COMPAT_H

#include "postgres.h"

#if PG_VERSION_NUM < 150000
#error "ulid supports PostgreSQL 15 and later"
#endif

#if PG_VERSION_NUM >= 160000
#include "varatt.h"
#include "nodes/miscnodes.h"
#define ULID_HAS_SOFT_ERRORS 1
#endif

/*
 * ulid_errsave(escontext, ...): report a user-input error.  On 16+ this is a
 * soft error when the caller passed an ErrorSaveContext (pg_input_is_valid,
 * COPY ... ON_ERROR) and the caller must then return; on 15 it always throws.
 */
#ifdef ULID_HAS_SOFT_ERRORS
#define ulid_errsave(escontext, ...) errsave(escontext, __VA_ARGS__)
#else
#define ulid_errsave(escontext, ...) \
	do { \
		(void) (escontext); \
		ereport(ERROR, __VA_ARGS__); \
	} while (0)
#endif

/*
 * The DSM registry (GetNamedDSMSegment) arrived in 17; 19 passes an extra
 * argument through to the segment's init callback.  Declare the callback
 * with ULID_DSM_INIT_CALLBACK(name, ptr) and call ulid_get_named_dsm().
 */
#if PG_VERSION_NUM >= 170000
#define ULID_HAS_DSM_REGISTRY 1
#include "storage/dsm_registry.h"
#if PG_VERSION_NUM >= 190000
#define ULID_DSM_INIT_CALLBACK(name, ptr) \
	void name(void *ptr, void *arg pg_attribute_unused())
#define ulid_get_named_dsm(name, size, init, found) \
	GetNamedDSMSegment(name, size, init, found, NULL)
#else
#define ULID_DSM_INIT_CALLBACK(name, ptr) void name(void *ptr)
#define ulid_get_named_dsm(name, size, init, found) \
	GetNamedDSMSegment(name, size, init, found)
#endif
#endif

/*
 * ULID_HIDDEN: a global of the extension's own that no other module reads.
 * 16+ builds extensions with -fvisibility=hidden; on 15 every global is
 * exported, so each access from the hot paths would go through the GOT.
 */
#if defined(__GNUC__) && !defined(_WIN32)
#define ULID_HIDDEN __attribute__((visibility("hidden")))
#else
#define ULID_HIDDEN
#endif

/*
 * index_beginscan() takes the scan's instrumentation from 18 on, and its
 * flags from 19 on.
 */
#if PG_VERSION_NUM >= 190000
#define ulid_index_beginscan(heap, index, snapshot, nkeys, norderbys) \
	index_beginscan(heap, index, snapshot, NULL, nkeys, norderbys, 0)
#elif PG_VERSION_NUM >= 180000
#define ulid_index_beginscan(heap, index, snapshot, nkeys, norderbys) \
	index_beginscan(heap, index, snapshot, NULL, nkeys, norderbys)
#else
#define ulid_index_beginscan(heap, index, snapshot, nkeys, norderbys) \
	index_beginscan(heap, index, snapshot, nkeys, norderbys)
#endif

/* table_beginscan() takes the scan's flags from 19 on. */
#if PG_VERSION_NUM >= 190000
#define ulid_table_beginscan(rel, snapshot) table_beginscan(rel, snapshot, 0, NULL, 0)
#else
#define ulid_table_beginscan(rel, snapshot) table_beginscan(rel, snapshot, 0, NULL)
#endif

/* btree skip support (opclass support function 6) arrived in 18. */
#if PG_VERSION_NUM >= 180000
#define ULID_HAS_SKIP_SUPPORT 1
#endif

#endif							/* ULID_COMPAT_H */
