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
 * The development branch (20devel) renames the abbreviated keys' unsigned
 * comparator ssup_datum_unsigned_cmp to ssup_datum_uint64_cmp.
 */
#if PG_VERSION_NUM >= 200000
#define ssup_datum_unsigned_cmp ssup_datum_uint64_cmp
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
 * ULID_NORETURN: a function that only raises an ERROR, so a caller keeps no
 * value alive across its call (pg_attribute_noreturn() until 17 and
 * pg_noreturn from 18 are spelled differently and placed differently).
 */
#if defined(__GNUC__)
#define ULID_NORETURN __attribute__((noreturn))
#else
#define ULID_NORETURN
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

/*
 * Wait events of an extension's own name (WaitEventExtensionNew) arrived
 * in 17; before, an extension's waits all show as Extension/Extension.
 */
#if PG_VERSION_NUM >= 170000
#include "utils/wait_event.h"
#define ULID_HAS_CUSTOM_WAIT_EVENTS 1
#endif

/*
 * Whether synchronous standbys are configured, as SyncRepWaitForLSN()
 * decides it: from shared memory, which the checkpointer updates when
 * synchronous_standby_names changes (a backend's own copy of the setting
 * is reloaded only between statements).  Minor releases of 2025 replaced
 * the flag sync_standbys_defined by a status word, whose "initialised" bit
 * is clear until the checkpointer first read the setting: core then falls
 * back to the backend's copy, and so does ulid_sync_standbys_defined().
 * Only for a file that defines ULID_WANTS_SYNCREP before its first include
 * (floor_wal.c).
 */
#ifdef ULID_WANTS_SYNCREP
#include "replication/syncrep.h"
#include "replication/walsender_private.h"
#ifdef SYNC_STANDBY_INIT
#define ulid_sync_standbys_defined(ctl) \
	(((ctl)->sync_standbys_status & SYNC_STANDBY_INIT) ? \
	 ((ctl)->sync_standbys_status & SYNC_STANDBY_DEFINED) != 0 : \
	 (SyncRepStandbyNames != NULL && SyncRepStandbyNames[0] != '\0'))
#else
#define ulid_sync_standbys_defined(ctl) ((ctl)->sync_standbys_defined)
#endif
#endif

/*
 * PGlite (PostgreSQL 18 in WebAssembly, test/pglite/build.sh) builds with
 * __PGLITE__.  Its main module exports only the symbols its own extensions
 * use: a side module that needs another one fails to load (a variable, or a
 * function whose address it takes) or aborts the instance when it calls it.
 * So in that build:
 *	- ulid_builtin_call1/2 call the builtins timestamp_out,
 *	  timestamptz_pl_interval and timestamptz_zone through fmgr by OID
 *	  (elsewhere directly);
 *	- ULID_DATA_DIR is "." (the backend's working directory is the data
 *	  directory; DataDir is not exported);
 *	- strerror is libc's (pg_strerror is not exported; the same text);
 *	- src/pglite/no_wal.c replaces floor_wal.c: no WAL resource manager
 *	  (RegisterCustomRmgr is not exported, and there is no standby); the
 *	  floor file alone keeps the floors;
 *	- cosid_codec.c reads the jsonb codec's containers itself (the jsonb
 *	  iterators are not exported), and a bad ulid.node_ids has its hint in
 *	  the detail (node.c);
 *	- keys.c forgets its cached keys itself when the key table changes (one
 *	  backend; CacheInvalidateRelcache is not exported), and at the abort of
 *	  a transaction or subtransaction; ulid_fsync is fdatasync (fsync is not
 *	  exported);
 *	- ulid_timestamp_difference computes what TimestampDifference does
 *	  (not exported) itself;
 *	- src/pglite/no_advance_tables.c replaces advance_tables.c (the index
 *	  scan functions are not exported);
 *	- src/pglite/no_stable_bound.c replaces stable_bound.c (transaction
 *	  callbacks, snapshot and process-array functions are not exported);
 *	- the hint for SET of a node setting shows no value (node.c:
 *	  ExtractSetVariableArgs is not exported);
 *	- one backend is the whole server, so the floor writer's lock is never
 *	  contended (floors.c): ULID_SINGLE_BACKEND leaves out its condition
 *	  variable, its wait event and its exit callback, which would only add
 *	  imports from the main module.
 * test/pglite/build.sh fails when the side module imports anything PGlite's
 * main module does not export.
 */
#ifdef __PGLITE__
#include "utils/fmgroids.h"
#define ulid_builtin_call1(fn, oid, a) OidFunctionCall1(oid, a)
#define ulid_builtin_call2(fn, oid, a, b) OidFunctionCall2(oid, a, b)
#define ULID_DATA_DIR "."
#define ULID_SINGLE_BACKEND 1
#undef strerror
#define ulid_fsync(fd) fdatasync(fd)
#define ulid_timestamp_difference(start, stop, secs, usecs) \
	do { \
		TimestampTz ulid_diff_ = (stop) - (start); \
		*(secs) = ulid_diff_ > 0 ? (long) (ulid_diff_ / USECS_PER_SEC) : 0; \
		*(usecs) = ulid_diff_ > 0 ? (int) (ulid_diff_ % USECS_PER_SEC) : 0; \
	} while (0)
#else
#define ulid_fsync(fd) fsync(fd)
#define ulid_timestamp_difference(start, stop, secs, usecs) TimestampDifference(start, stop, secs, usecs)
#define ulid_builtin_call1(fn, oid, a) DirectFunctionCall1(fn, a)
#define ulid_builtin_call2(fn, oid, a, b) DirectFunctionCall2(fn, a, b)
#define ULID_DATA_DIR DataDir
#endif

#endif							/* ULID_COMPAT_H */
