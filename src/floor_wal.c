/*-------------------------------------------------------------------------
 *
 * floor_wal.c
 *	  The generators' floors in WAL: a custom WAL resource manager
 *	  (PostgreSQL 15+), so that a streaming standby, a promoted standby and
 *	  point-in-time recovery know the floors of the server they copy.
 *
 * WHAT IS LOGGED
 * Every floor reservation (floors.c: the server-wide restart floor, and an
 * advanced state's own floor) is written to WAL by the floor writer before
 * the new floor takes effect, so before any id under it is returned.  The
 * writer then flushes the record and, where synchronous replication is
 * configured, waits until the synchronous standbys have flushed it too
 * (ulid_wal_confirm(): in core's queue, as a commit waits, so switching
 * synchronous replication off releases it, and a cancel ends it with an
 * ERROR), whatever the session's synchronous_commit, and only
 * then does the floor take effect: no id, of any statement (a read-only one,
 * a parallel worker's), lies under a floor the standby may not have.  This
 * costs one standby round trip per floor move (about twice a second while
 * ids are issued), not per id; other backends go on issuing under the
 * previous floor meanwhile (it has half a reservation left).  Like nextval()
 * when it logs ahead, the writer's transaction also gets a transaction id
 * (ulid_wal_prepare()).  One record per reservation: the server-wide floor moves once per
 * half reservation (ULID_FLOOR_RESERVE_MS / 2, 500 ms) while ids are issued,
 * an advanced state's own floor as often while it issues ahead of the
 * clock, so the WAL this adds does not grow with the number of ids.
 * Records are not transactional: an aborted transaction's floor stands, as
 * a sequence's does.  A reset (snowflake_reset() and the like) is logged
 * too, so that it holds after crash recovery and on a standby.
 *
 * REPLAY
 * The startup process applies each record to the standby's own shared state
 * and floor file (ulid_floor_replay(), floors.c): the server-wide floor and
 * the base of every state rise to the replayed floor, an advanced state is
 * created or raised with its own floor.  So when the standby is promoted,
 * every generator issues above every id of every transaction whose WAL it
 * received, at once and whatever its clock says (a floor ahead of the clock
 * is issued from at once: see "An advance is one rule" in the README).  A
 * standby that also mints gen_monotonic_ulid() ids keeps its local floors
 * too (it cannot write WAL): the higher of both wins.  With asynchronous
 * replication the ids that can repeat after a promotion are those the old
 * primary issued more than half a reservation (0.5 s) after the last floor
 * record the standby received: none while the standby is less than half a
 * second behind.
 *
 * THE RESOURCE MANAGER ID
 * Custom resource managers take ids 128 to 255; 128 (RM_EXPERIMENTAL_ID) is
 * for development and shared by every extension under development, so it
 * is not used.  The default, 213, is 0x80 | 'U'; it was not taken on the
 * PostgreSQL wiki's registry of custom resource manager ids
 * (https://wiki.postgresql.org/wiki/CustomWALResourceManagers) when this
 * was written.  If another preloaded library registers the same id the
 * server refuses to start with core's error ("failed to register custom
 * resource manager ... with ID 213"): set ulid.wal_rmgr_id (postgresql.conf,
 * restart) to another free id in 129..255, on the primary and every standby
 * together, after a clean shutdown of all of them (WAL already written
 * names the old id, and a server that replays it must know that id).
 *
 * A standby without the library preloaded stops at the first record with
 * core's error ("resource manager with ID 213 not registered") and its hint
 * to add the library to shared_preload_libraries.  pg_waldump does not know
 * custom resource managers (it shows the id); pg_walinspect, run in a
 * server with the library preloaded, shows the records as "ulid" with the
 * description below.
 *
 * On the DSM-registry path (17+, no preloading) no resource manager can be
 * registered: floors stay in the file alone, and neither a standby nor
 * point-in-time recovery learns them.
 *
 *-------------------------------------------------------------------------
 */
#define ULID_WANTS_SYNCREP		/* compat.h: ulid_sync_standbys_defined() */
#include "ulid.h"

#include "access/parallel.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "access/xlog_internal.h"
#include "access/xloginsert.h"
#include "access/xlogreader.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "replication/syncrep.h"
#include "replication/walsender.h"
#include "replication/walsender_private.h"
#include "storage/latch.h"
#include "storage/lwlock.h"
#include "utils/guc.h"
#include "utils/wait_event.h"

#include "floor_wal.h"

/* the records' info codes (the high four bits of xl_info) */
#define XLOG_ULID_FLOOR			0x00	/* the server-wide floor */
#define XLOG_ULID_OWN_FLOOR		0x10	/* a state's own floor */
#define XLOG_ULID_RESET			0x20	/* a state's advance undone */
#define XLOG_ULID_LOWER			0x30	/* every floor lowered (a repair) */

#define ULID_KEY_BYTES			32

typedef struct xl_ulid_floor
{
	int64		global;			/* the server-wide floor (Unix ms), 0: none */
	int64		own;			/* OWN_FLOOR: the state's own floor */
	uint32		kind;			/* OWN_FLOOR: the state's kind */
	uint8		key[ULID_KEY_BYTES];	/* OWN_FLOOR: its key */
} xl_ulid_floor;

/* the size of a record without a state */
#define SizeOfUlidFloor		(offsetof(xl_ulid_floor, own))

static int	wal_rmgr_id = ULID_WAL_RMGR_ID_DEFAULT;
static bool registered = false;

static void
floor_redo(XLogReaderState *record)
{
	uint8		info = XLogRecGetInfo(record) & ~XLR_INFO_MASK;
	xl_ulid_floor rec = {0};
	Size		len = XLogRecGetDataLen(record);

	if ((info != XLOG_ULID_FLOOR && info != XLOG_ULID_OWN_FLOOR &&
		 info != XLOG_ULID_RESET && info != XLOG_ULID_LOWER) ||
		len < SizeOfUlidFloor || len > sizeof(rec) ||
		(info != XLOG_ULID_FLOOR && info != XLOG_ULID_LOWER && len != sizeof(rec)))
		elog(PANIC, "ulid floor redo: unknown record (info 0x%02X, %zu bytes)",
			 info, (size_t) len);
	memcpy(&rec, XLogRecGetData(record), len);
	if (info == XLOG_ULID_RESET)
		ulid_floor_replay_reset(rec.kind, rec.key);
	else if (info == XLOG_ULID_LOWER)
		ulid_floor_replay_lower(rec.global);
	else
		ulid_floor_replay(rec.global, info == XLOG_ULID_OWN_FLOOR ? rec.kind : 0,
						  rec.key, rec.own);
}

static void
floor_desc(StringInfo buf, XLogReaderState *record)
{
	uint8		info = XLogRecGetInfo(record) & ~XLR_INFO_MASK;
	xl_ulid_floor rec = {0};
	Size		len = Min(XLogRecGetDataLen(record), sizeof(rec));

	memcpy(&rec, XLogRecGetData(record), len);
	if (info == XLOG_ULID_LOWER)
		appendStringInfoString(buf, "lowered to ");
	if (rec.global > 0)
		appendStringInfo(buf, "floor " INT64_FORMAT, rec.global);
	if (info == XLOG_ULID_RESET && len == sizeof(rec))
	{
		appendStringInfo(buf, "reset state kind %u key ", rec.kind);
		for (int i = 0; i < ULID_KEY_BYTES; i++)
			appendStringInfo(buf, "%02x", rec.key[i]);
	}
	if (info == XLOG_ULID_OWN_FLOOR && len == sizeof(rec))
	{
		appendStringInfo(buf, "%sstate kind %u key ", rec.global > 0 ? "; " : "",
						 rec.kind);
		for (int i = 0; i < ULID_KEY_BYTES; i++)
			appendStringInfo(buf, "%02x", rec.key[i]);
		appendStringInfo(buf, " own floor " INT64_FORMAT, rec.own);
	}
}

static const char *
floor_identify(uint8 info)
{
	switch (info & ~XLR_INFO_MASK)
	{
		case XLOG_ULID_FLOOR:
			return "FLOOR";
		case XLOG_ULID_OWN_FLOOR:
			return "OWN_FLOOR";
		case XLOG_ULID_RESET:
			return "RESET";
		case XLOG_ULID_LOWER:
			return "LOWER";
	}
	return NULL;
}

static RmgrData floor_rmgr = {
	.rm_name = "ulid",
	.rm_redo = floor_redo,
	.rm_desc = floor_desc,
	.rm_identify = floor_identify,
};

void
ulid_wal_init(void)
{
	/* a PGC_POSTMASTER setting may only be defined while preloading */
	if (!process_shared_preload_libraries_in_progress)
		return;
	DefineCustomIntVariable("ulid.wal_rmgr_id",
							"Id of the WAL resource manager that carries the ulid generators' floors to standbys.",
							"Change it only when another extension registers the same id: on the primary and every standby together, after a clean shutdown of all of them.",
							&wal_rmgr_id,
							ULID_WAL_RMGR_ID_DEFAULT, RM_MIN_CUSTOM_ID + 1, RM_MAX_CUSTOM_ID,
							PGC_POSTMASTER, 0,
							NULL, NULL, NULL);
	RegisterCustomRmgr((RmgrId) wal_rmgr_id, &floor_rmgr);
	registered = true;
}

bool
ulid_wal_logging(void)
{
	return registered && !RecoveryInProgress();
}

void
ulid_wal_prepare(void)
{
	if (IsTransactionState() && !IsInParallelMode())
		(void) GetTopTransactionId();
}

XLogRecPtr
ulid_wal_log_floor(int64 global, uint32 kind, const uint8 *key, int64 own)
{
	xl_ulid_floor rec = {0};

	rec.global = global;
	if (kind != 0)
	{
		rec.own = own;
		rec.kind = kind;
		memcpy(rec.key, key, ULID_KEY_BYTES);
	}
	XLogBeginInsert();
	XLogRegisterData((char *) &rec, kind != 0 ? sizeof(rec) : SizeOfUlidFloor);
	return XLogInsert((RmgrId) wal_rmgr_id,
					  kind != 0 ? XLOG_ULID_OWN_FLOOR : XLOG_ULID_FLOOR);
}

/*
 * Whether the floor record at lsn needs no (more) waiting: no synchronous
 * standby is configured (as the checkpointer last published it, or no WAL
 * sender can run), or the synchronous standbys flushed it.
 */
static bool
sync_confirmed(XLogRecPtr lsn)
{
	volatile WalSndCtlData *ctl = WalSndCtl;
	XLogRecPtr	done;

	if (ctl == NULL || max_wal_senders == 0 || !ulid_sync_standbys_defined(ctl))
		return true;
	LWLockAcquire(SyncRepLock, LW_SHARED);
	done = ctl->lsn[SYNC_REP_WAIT_FLUSH];
	LWLockRelease(SyncRepLock);
	return done >= lsn;
}

/* a context line for core's WARNING when the wait is cancelled, and our ERROR */
static void
confirm_context(void *arg)
{
	XLogRecPtr	lsn = *(XLogRecPtr *) arg;

	errcontext("waiting for the synchronous standby to confirm the ulid floor record at %X/%X: no id under that floor is returned before it is confirmed, and this wait committed nothing",
			   LSN_FORMAT_ARGS(lsn));
}

/*
 * Wait as a commit does: core's SyncRepWaitForLSN(), in the synchronous
 * replication queue, woken by the WAL senders as the standbys confirm, and
 * by the checkpointer when synchronous_standby_names is emptied.  Three
 * things differ from a commit, and are handled around it:
 *	- it returns at once when the session's synchronous_commit is local or
 *	  off, and waits only for the standby's write with remote_write: the
 *	  floor covers every session's ids, so synchronous_commit is raised to
 *	  on (remote flush) for the call, in a GUC nest level (allowed in a
 *	  parallel worker);
 *	- it must be called with interrupts held (after a commit nothing may be
 *	  undone), and turns a cancel into a WARNING ("The transaction has
 *	  already committed locally": our context line says what the wait
 *	  really was) and returns: the cancel is raised again here as the
 *	  statement's ERROR (57014, statement_timeout's or a cancel's text), so
 *	  that no id is issued under the unconfirmed floor;
 *	- a termination makes it return with ProcDiePending kept, which the
 *	  CHECK_FOR_INTERRUPTS() after it turns into the FATAL exit.
 */
static void
wait_for_standbys(XLogRecPtr lsn)
{
	ErrorContextCallback context;
	int			nest = -1;

	context.callback = confirm_context;
	context.arg = &lsn;
	context.previous = error_context_stack;
	error_context_stack = &context;
	for (;;)
	{
		CHECK_FOR_INTERRUPTS();
		if (sync_confirmed(lsn))
			break;
		if (nest < 0 && synchronous_commit < SYNCHRONOUS_COMMIT_REMOTE_FLUSH)
		{
			nest = NewGUCNestLevel();
			(void) set_config_option("synchronous_commit", "on", PGC_USERSET,
									 PGC_S_SESSION, GUC_ACTION_SAVE, true,
									 ERROR, false);
		}
		HOLD_INTERRUPTS();
		SyncRepWaitForLSN(lsn, false);
		RESUME_INTERRUPTS();
		if (sync_confirmed(lsn))
			break;
		if (ProcDiePending || InterruptPending)
		{
			/* cancelled (core cleared QueryCancelPending): the statement fails */
			if (!ProcDiePending)
				QueryCancelPending = true;
			InterruptPending = true;
			CHECK_FOR_INTERRUPTS();
			ereport(ERROR,
					(errcode(ERRCODE_QUERY_CANCELED),
					 errmsg("canceling statement due to user request")));
		}

		/*
		 * Released without a cancel yet not confirmed: synchronous
		 * replication was switched off and on again meanwhile.  Queue again
		 * (after a short sleep, so that no unforeseen early return of core's
		 * wait can make this loop spin).
		 */
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 10L, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}
	error_context_stack = context.previous;
	if (nest >= 0)
		AtEOXact_GUC(true, nest);
}

void
ulid_wal_confirm(XLogRecPtr lsn)
{
	XLogFlush(lsn);
	if (sync_confirmed(lsn))
		return;
	ulid_floor_sync_wait_begin();
	PG_TRY();
	{
		wait_for_standbys(lsn);
	}
	PG_FINALLY();
	{
		ulid_floor_sync_wait_end();
	}
	PG_END_TRY();
}

void
ulid_wal_log_reset(uint32 kind, const uint8 *key)
{
	xl_ulid_floor rec = {0};

	rec.kind = kind;
	memcpy(rec.key, key, ULID_KEY_BYTES);
	XLogBeginInsert();
	XLogRegisterData((char *) &rec, sizeof(rec));
	(void) XLogInsert((RmgrId) wal_rmgr_id, XLOG_ULID_RESET);
}

void
ulid_wal_log_lower(int64 global)
{
	xl_ulid_floor rec = {0};

	rec.global = global;
	XLogBeginInsert();
	XLogRegisterData((char *) &rec, SizeOfUlidFloor);
	(void) XLogInsert((RmgrId) wal_rmgr_id, XLOG_ULID_LOWER);
}
