/*-------------------------------------------------------------------------
 *
 * floor_wal.h
 *	  The generators' floors in WAL: a custom resource manager (15+) that
 *	  carries every floor reservation to standbys and through point-in-time
 *	  recovery.  See floor_wal.c.
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_FLOOR_WAL_H
#define ULID_FLOOR_WAL_H

#include "ulid.h"

#include "access/xlogdefs.h"

/* the default resource manager id: 0x80 | 'U' (see floor_wal.c) */
#define ULID_WAL_RMGR_ID_DEFAULT	213

/*
 * From _PG_init while preloading: the setting ulid.wal_rmgr_id and the
 * registration of the resource manager.  Without preloading nothing is
 * registered and floors stay in the file alone.
 */
extern void ulid_wal_init(void);

/*
 * Whether this process writes floors to WAL now: the library was preloaded
 * and the server is not in recovery (a standby cannot write WAL; its floors
 * stay local until it is promoted).
 */
extern bool ulid_wal_logging(void);

/*
 * Before taking the floor writer's lock, when ulid_wal_logging(): give the
 * transaction a transaction id, as nextval() does when it logs, so that its
 * commit flushes the floor record and waits for synchronous standbys.  In a
 * parallel worker (no transaction id can be assigned there) it does nothing:
 * the record is still written, and the leader's commit covers it if the
 * leader has a transaction id.
 */
extern void ulid_wal_prepare(void);

/*
 * Write one floor record: the server-wide floor global (0: unchanged) and,
 * when kind is not 0, the own floor own of the state (kind, key).  Called
 * by the floor writer before the floors it records take effect.
 */
extern XLogRecPtr ulid_wal_log_floor(int64 global, uint32 kind, const uint8 *key,
									 int64 own);

/*
 * Before the floors logged up to lsn take effect: flush WAL to lsn and,
 * where synchronous replication is configured (synchronous_standby_names,
 * as the checkpointer last published it), wait as a commit does until the
 * synchronous standbys have flushed it, whatever the session's
 * synchronous_commit.  The wait ends when synchronous replication is
 * switched off; a cancel or statement_timeout ends it with ERROR 57014 (the
 * floor does not take effect), a termination with FATAL.
 */
extern void ulid_wal_confirm(XLogRecPtr lsn);

/* Write a reset record: the state (kind, key) forgot its own floor. */
extern void ulid_wal_log_reset(uint32 kind, const uint8 *key);

/* Write a lowering record: every floor dropped, the server-wide one to global. */
extern void ulid_wal_log_lower(int64 global);

/*
 * Implemented by floors.c: apply a replayed record to this
 * server's shared state and floor file.  Runs in the startup process; never
 * raises an error (a failed file write is logged).
 */
extern void ulid_floor_replay(int64 global, uint32 kind, const uint8 *key,
							  int64 own);
extern void ulid_floor_replay_reset(uint32 kind, const uint8 *key);
extern void ulid_floor_replay_lower(int64 global);

/*
 * Implemented by floors.c: record that this process waits for the
 * synchronous standbys to confirm a floor record, and since when (for
 * ulid_floor_sync_waiter()), and that it no longer does.  The writer's
 * release clears it too, also at FATAL exit.
 */
extern void ulid_floor_sync_wait_begin(void);
extern void ulid_floor_sync_wait_end(void);

#endif							/* ULID_FLOOR_WAL_H */
