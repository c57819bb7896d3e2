/*-------------------------------------------------------------------------
 *
 * floors.c
 *	  The floors of the shared generator states (state_table.c): checking
 *	  an id against them, moving them (the floor file, floor_file.c),
 *	  advancing and resetting a state's own floor, and repairing the file.
 *
 * LOCKING (besides state_table.c's table_lock and each state's mutex)
 *	- durable_ms (atomic) is the persisted server-wide floor, read without a
 *	  lock (also under a state's mutex).
 *	- the writer's lock (below) admits one floor writer at a time, and
 *	  serialises every change of a state's advanced flag (advance, reset,
 *	  absorption) and repair.  It is never taken while a spinlock is held.
 *
 * THE WRITER'S LOCK
 * The writer composes the floors, logs them to WAL, waits until the WAL is
 * flushed and confirmed by the synchronous standbys (floor_wal.c), writes
 * the file, and only then lets the floors take effect.  The wait for a
 * standby can last as long as the standby is away, so the lock is not an
 * LWLock (whose waiters cannot be cancelled) but a word in shared memory,
 * hdr->writer, holding the writer's pid, taken with a compare-and-swap:
 *	- it is released on ERROR (PG_FINALLY) and on FATAL exit, which skips
 *	  PG_FINALLY (pg_terminate_backend(), a parallel worker its leader
 *	  stops): a before_shmem_exit callback, registered once per process,
 *	  clears it if this process holds it;
 *	- a backend that needs the floor to move while another writes sleeps
 *	  on hdr->writer_cv (wait event UlidFloorWrite on 17+, Extension
 *	  before), which every release broadcasts; it can be cancelled, and
 *	  holds nothing while it sleeps.  A backend that only refreshes a floor
 *	  with half a reservation left does not wait: it issues under the floor
 *	  in force, which was confirmed before it took effect.
 * So one backend waits for the standby per floor record (wait event
 * IPC/SyncRep, its pid in hdr->sync_waiter: ulid_floor_sync_waiter()), and
 * the others that need that floor sleep until it takes effect or the
 * writer gives up (cancelled: one of them writes the next record).
 *
 * RESTARTS: THE PERSISTED FLOORS
 * $PGDATA/ulid_floor (floor_file.c) holds the server-wide floor and the own
 * floor of every advanced state.  Every id issued on the clock (within a
 * second of it) lies on a Unix millisecond below durable_ms, the server-wide
 * floor last written; every id an advanced state issues further ahead lies
 * below its own floor.  As a sequence logs ahead, a generator about to issue
 * on millisecond ms finds, against the floor that covers it:
 *	- ms < floor - reserve/2: it issues (the hot path: one atomic read);
 *	- floor - reserve/2 <= ms < floor: it issues, then, outside its
 *	  spinlock, writes ms + reserve if no other backend is writing; the
 *	  others go on issuing meanwhile (half a reservation of slack);
 *	- ms >= floor (the first id after a start, or the clock jumped ahead):
 *	  it does not issue; it writes ms + reserve (or waits for the writer),
 *	  then computes its id again.
 * So the server-wide floor follows only ids issued on the clock: an advance
 * far into the future (snowflake_advance, ulid_monotonic_advance) raises only
 * its own state's floor, and no other generator ever sees it.  A writer
 * drops the own floor of a state that the server-wide floor has overtaken
 * (the clock caught up with the advance): the state is an ordinary one again.
 * At startup, and after a crash (the postmaster re-creates shared memory and
 * runs shmem_startup_hook again; a DSM-registry segment is re-created too),
 * the file is read: every state starts at max(clock, floor), and every
 * advanced state is created again, starting above its own floor.  So after
 * a clean restart, pg_ctl stop -m immediate, or the kill -9 of a backend, no
 * generator issues a value at or below one it issued before, whatever the
 * clock did.  There is no shutdown hook (the DSM path has none): the
 * reservation alone carries the guarantee, and the ids issued just after a
 * restart may lie up to the reservation (1 s) ahead of the clock.
 *
 * A DAMAGED FILE FAILS CLOSED
 * A file that cannot be read, does not parse or names an unknown format
 * version leaves the server-wide floor at 0 and marks the table damaged:
 * every id is then above the floor, so every generator reaches
 * ulid_floor_reserve(), which refuses with 55000 naming the file, the
 * problem and ulid_floor_repair(); nothing is issued from the clock alone.
 * A missing file (a new cluster, or one deleted) is logged and read as 0.
 * ulid_floor_repair(above) writes a new file whose floor lies above `above`
 * and raises every state's base_ms to it.
 *
 * FLOORS IN WAL
 * With the library preloaded, the writer also logs every floor it raises
 * (floor_wal.c), after giving its transaction a transaction id, and flushes
 * it and waits for the synchronous standbys before the floor takes effect.  A standby replays the records (ulid_floor_replay()):
 * its server-wide floor, every state's base and the advanced states follow
 * the primary's, so a promoted standby issues above every id of every
 * transaction it received.  A hot standby has its own shared memory and
 * floor file besides (a base backup starts it from the primary's), and
 * gen_monotonic_ulid() issues there from them (it cannot write WAL): ids
 * ordered within the standby, above the primary's replayed floors.
 *
 *-------------------------------------------------------------------------
 */
#include "ulid.h"

#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "storage/ipc.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"
#include "utils/wait_event.h"

#include "floor_file.h"
#include "floor_wal.h"
#include "floors.h"

#define SLOT(hdr, i)	ULID_SLOT(hdr, i)

pg_atomic_uint64 *
ulid_floor_durable(void)
{
	return &ulid_shared_get()->durable_ms;
}

/*
 * The lowerings counter when this backend's last floor check asked for a
 * reservation: a reservation asked for before a repair lowered the floors
 * is not written (its id was computed from floors that are gone).
 */
static uint32 checked_lowerings;

UlidFloorCheck
ulid_floor_check(const UlidGenState *st, int64 ms, int64 now, int64 ref,
				 bool *own)
{
	int64		durable = (int64) pg_atomic_read_u64(&ulid_shared->durable_ms);
	int64		floor = durable;

	*own = false;
	/* where the state stands: its id's time, or the clock it follows */
	if (ulid_floor_clear(Max(ms, ref), durable))
		return ULID_FLOOR_OK;
	checked_lowerings = pg_atomic_read_u32(&ulid_shared->lowerings);
	if (unlikely(st->advanced) && ms > now + ULID_FLOOR_RESERVE_MS)
	{
		/* an advanced state ahead of the clock: its own floor covers it */
		*own = true;
		floor = st->own_floor;
		if (ms < floor - ULID_FLOOR_RESERVE_MS / 2)
			return ULID_FLOOR_OK;
	}
	return ms < floor ? ULID_FLOOR_REFRESH : ULID_FLOOR_BLOCKED;
}

/* ERROR 55000 while the floor file is damaged. */
static void
check_damaged(UlidSharedHeader *hdr)
{
	if (likely(!hdr->damaged))
		return;
	ereport(ERROR,
			(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			 errmsg("ulid generators are stopped: the restart floor file \"%s\" is damaged",
					ulid_floor_file_path()),
			 errdetail("At server start %s. The file keeps gen_monotonic_ulid() and snowflake_next() above every id issued before a restart, so they issue nothing until it is repaired.",
					   hdr->damage),
			 errhint("A superuser repairs it with a time after every id any generator of this server issued: SELECT ulid_floor_repair(now() + interval '1 minute'); if the clock was never set back, or the largest stored id's time.")));
}

/*
 * The floor that covers st's ids: its own (own) or the server-wide one.
 * A state that gave way since the caller found it (incarnation inc) needs
 * no floor of its own any more: PG_INT64_MAX, "far enough".
 */
static int64
floor_of(UlidSharedHeader *hdr, UlidGenState *st, uint32 inc, bool own)
{
	int64		v;

	if (!own)
		return (int64) pg_atomic_read_u64(&hdr->durable_ms);
	SpinLockAcquire(&st->mutex);
	v = ulid_state_stale(st, inc) ? PG_INT64_MAX : st->own_floor;
	SpinLockRelease(&st->mutex);
	return v;
}

/* ---- the writer's lock ---------------------------------------------- */

void
ulid_floor_writer_init(UlidSharedHeader *hdr)
{
	pg_atomic_init_u32(&hdr->writer, 0);
	pg_atomic_init_u32(&hdr->sync_waiter, 0);
	pg_atomic_init_u64(&hdr->sync_since, 0);
#ifndef ULID_SINGLE_BACKEND
	ConditionVariableInit(&hdr->writer_cv);
#endif
}

/* Give the writer's lock back if this process holds it, and wake waiters. */
static void
release_writing(UlidSharedHeader *hdr)
{
	uint32		me = (uint32) MyProcPid;

	if (pg_atomic_read_u32(&hdr->sync_waiter) == me)
		pg_atomic_write_u32(&hdr->sync_waiter, 0);
	if (pg_atomic_compare_exchange_u32(&hdr->writer, &me, 0))
	{
#ifndef ULID_SINGLE_BACKEND
		ConditionVariableBroadcast(&hdr->writer_cv);
#endif
	}
}

#ifndef ULID_SINGLE_BACKEND
/* before_shmem_exit: a FATAL exit skips PG_FINALLY, not this */
static void
release_at_exit(int code pg_attribute_unused(), Datum arg pg_attribute_unused())
{
	if (ulid_shared != NULL)
		release_writing(ulid_shared);
}

/* the wait event of a backend waiting for the writer */
static uint32
writer_wait_event(void)
{
#ifdef ULID_HAS_CUSTOM_WAIT_EVENTS
	static uint32 event = 0;

	if (event == 0)
		event = WaitEventExtensionNew("UlidFloorWrite");
	return event;
#else
	return PG_WAIT_EXTENSION;
#endif
}
#endif

/*
 * Take the writer's lock.  With st, return false instead once the floor
 * floor_of(st, inc, own) exceeds needed; without wait, also when another
 * backend holds it.  Waits sleep on the condition variable (cancellable).
 */
static bool
acquire_writing(UlidSharedHeader *hdr, bool wait, UlidGenState *st,
				uint32 inc, bool own, int64 needed)
{
	bool		got = false;
#ifndef ULID_SINGLE_BACKEND
	bool		slept = false;
#endif

#ifndef ULID_SINGLE_BACKEND
	static bool exit_callback = false;

	if (!exit_callback)
	{
		before_shmem_exit(release_at_exit, (Datum) 0);
		exit_callback = true;
	}
#endif
	for (;;)
	{
		uint32		holder = 0;

		if (st != NULL && floor_of(hdr, st, inc, own) > needed)
			break;
		if (pg_atomic_compare_exchange_u32(&hdr->writer, &holder, (uint32) MyProcPid))
		{
			got = true;
			break;
		}
		if (!wait)
			break;
		if (holder == (uint32) MyProcPid)
			elog(ERROR, "ulid floor writer's lock is already held by this process");
#ifdef ULID_SINGLE_BACKEND
		elog(ERROR, "ulid floor writer's lock is held by process %u", holder);
#else
		/* the first call only joins the wait list: the loop checks again */
		ConditionVariableSleep(&hdr->writer_cv, writer_wait_event());
		slept = true;
#endif
	}
#ifndef ULID_SINGLE_BACKEND
	if (slept)
		ConditionVariableCancelSleep();
#endif
	return got;
}

void
ulid_floor_sync_wait_begin(void)
{
	UlidSharedHeader *hdr = ulid_shared;

	if (hdr == NULL)
		return;
	pg_atomic_write_u64(&hdr->sync_since, (uint64) GetCurrentTimestamp());
	pg_write_barrier();
	pg_atomic_write_u32(&hdr->sync_waiter, (uint32) MyProcPid);
}

void
ulid_floor_sync_wait_end(void)
{
	UlidSharedHeader *hdr = ulid_shared;

	if (hdr != NULL && pg_atomic_read_u32(&hdr->sync_waiter) == (uint32) MyProcPid)
		pg_atomic_write_u32(&hdr->sync_waiter, 0);
}

int
ulid_floor_sync_waiter(TimestampTz *since)
{
	UlidSharedHeader *hdr = ulid_shared;

	if (hdr == NULL)
		return 0;				/* no shared state here: no WAL, no wait */
	for (int tries = 0; tries < 3; tries++)
	{
		uint32		pid = pg_atomic_read_u32(&hdr->sync_waiter);

		if (pid == 0)
			return 0;
		pg_read_barrier();
		*since = (TimestampTz) pg_atomic_read_u64(&hdr->sync_since);
		pg_read_barrier();
		if (pg_atomic_read_u32(&hdr->sync_waiter) == pid)
			return (int) pid;
	}
	return 0;					/* a new wait began each time: report none */
}

/*
 * A state whose own floor the writer raises: an advance (advance: st is
 * to become advanced) or an advanced state's refresh while it issues ahead
 * of the clock (dropped if a reset made it ordinary meanwhile).  st is the
 * state its caller found with incarnation inc.
 */
typedef struct FloorReq
{
	UlidGenState *st;
	uint32		inc;
	int64		floor;			/* its own floor must reach this */
	bool		advance;
	bool		dropped;		/* gave way (or was reset) before the write */
	bool		done;			/* written and marked */
	ulid_floor_entry e;			/* its key, read under its mutex */
} FloorReq;

/* The slot number of a state. */
static inline uint32
slot_of(UlidSharedHeader *hdr, const UlidGenState *st)
{
	return (uint32) (((const char *) st - (const char *) SLOT(hdr, 0)) / sizeof(UlidSlot));
}

/*
 * The writer (holding the writer's lock): write the file with the
 * server-wide floor global and every advanced state's own floor, each of
 * reqs[] (n of them) raised to its floor.  On success durable_ms becomes
 * global, each req is advanced with its floor (done), and states whose own
 * floor global overtook are ordinary again.  Returns whether it wrote.  One
 * file write and one WAL record per floor raised, whatever n.
 *
 * A state that is not advanced may give way to another key at any time
 * (the writer's lock does not stop that), so each req's incarnation is
 * checked under its mutex wherever it is read or marked: a req that gave
 * way before the file is composed is dropped (nothing is written for it),
 * and one that gave way while the file was written is not marked (the new
 * key's state never becomes advanced; the file and the WAL record name the
 * old key, whose floor is only higher than it needs).
 */
static bool
write_floors(UlidSharedHeader *hdr, int64 global, FloorReq *reqs, int n,
			 int elevel)
{
	StringInfoData buf;
	char		line[ULID_FLOOR_ENTRY_MAX];
	bool		done;
	int		   *req_of = NULL;
	int			live = 0;
	uint32		nused = hdr->nused;	/* slots created later are not advanced */

	if (n > 0)
	{
		req_of = palloc(nused * sizeof(int));
		for (uint32 i = 0; i < nused; i++)
			req_of[i] = -1;
		for (int r = 0; r < n; r++)
		{
			reqs[r].dropped = reqs[r].done = false;
			req_of[slot_of(hdr, reqs[r].st)] = r;
		}
	}
	initStringInfo(&buf);
	enlargeStringInfo(&buf, ULID_FLOOR_HEAD_MAX);
	buf.len = (int) ulid_floor_format_head((uint64) global, buf.data);
	if (hdr->nadvanced > 0 || n > 0)
	{
		for (uint32 i = 0; i < nused; i++)
		{
			UlidGenState *st = SLOT(hdr, i);
			FloorReq   *req = req_of != NULL && req_of[i] >= 0 ? &reqs[req_of[i]] : NULL;
			ulid_floor_entry e;
			bool		adv;

			SpinLockAcquire(&st->mutex);
			adv = st->advanced;
			e.ms = (uint64) st->own_floor;
			e.kind = st->kind;
			memcpy(e.key, st->key, ULID_STATE_KEY_BYTES);
			if (req != NULL && (ulid_state_stale(st, req->inc) ||
								(!req->advance && !adv)))
				req->dropped = true;	/* another key's state now, or reset */
			SpinLockRelease(&st->mutex);
			if (req != NULL && !req->dropped)
			{
				adv = true;
				e.ms = Max(e.ms, (uint64) req->floor);
				req->e = e;		/* the key it had, read under its mutex */
				live++;
			}
			if (!adv || (int64) e.ms <= global)
				continue;
			appendBinaryStringInfo(&buf, line, (int) ulid_floor_format_entry(&e, line));
		}
	}
	if (n > 0 && live == 0 &&
		global <= (int64) pg_atomic_read_u64(&hdr->durable_ms))
	{
		pfree(buf.data);
		pfree(req_of);
		return false;			/* every req gave way: no floor to raise */
	}

	/*
	 * WAL first (floor_wal.c), a record only when a floor rises: a standby
	 * learns every floor before any id under it is returned.
	 */
	if (ulid_wal_logging())
	{
		int64		old = (int64) pg_atomic_read_u64(&hdr->durable_ms);
		int64		g = global > old ? global : 0;
		XLogRecPtr	lsn = InvalidXLogRecPtr;

		for (int r = 0; r < n; r++)
		{
			if (reqs[r].dropped)
				continue;
			lsn = ulid_wal_log_floor(g, reqs[r].e.kind, reqs[r].e.key, reqs[r].floor);
			g = 0;				/* logged once */
		}
		if (g > 0)
			lsn = ulid_wal_log_floor(g, 0, NULL, 0);
		/* flushed, and on the synchronous standbys, before it takes effect */
		if (!XLogRecPtrIsInvalid(lsn))
			ulid_wal_confirm(lsn);
	}
	done = ulid_floor_file_write(buf.data, buf.len, elevel);
	pfree(buf.data);
	if (done)
		elog(DEBUG1, "ulid restart floor file written: floor " INT64_FORMAT ", %d own floors raised",
			 global, live);
	if (!done)
	{
		if (req_of)
			pfree(req_of);
		return false;
	}

	if (global > (int64) pg_atomic_read_u64(&hdr->durable_ms))
		pg_atomic_write_u64(&hdr->durable_ms, (uint64) global);
	for (uint32 i = 0; i < nused && (hdr->nadvanced > 0 || n > 0); i++)
	{
		UlidGenState *st = SLOT(hdr, i);
		FloorReq   *req = req_of != NULL && req_of[i] >= 0 ? &reqs[req_of[i]] : NULL;

		SpinLockAcquire(&st->mutex);
		if (req != NULL && !req->dropped && !ulid_state_stale(st, req->inc))
		{
			if (!st->advanced)
				hdr->nadvanced++;
			st->advanced = true;
			st->own_floor = Max(st->own_floor, req->floor);
			req->done = true;
		}
		if (st->advanced && st->own_floor <= global)
		{
			/* overtaken: the server-wide floor covers its ids now */
			st->advanced = false;
			st->own_floor = 0;
			hdr->nadvanced--;
		}
		SpinLockRelease(&st->mutex);
	}
	if (req_of)
		pfree(req_of);
	return true;
}

void
ulid_floor_reserve(UlidGenState *st, uint32 incarnation, int64 ms, int64 ref,
				   bool own, bool wait)
{
	UlidSharedHeader *hdr = ulid_shared_get();

	/*
	 * The floor is far enough when it exceeds ms (wait), or lies half a
	 * reservation beyond where the state stands: ms for an advanced state,
	 * ref (the clock it follows) for the server-wide floor.
	 */
	int64		needed = wait ? ms : (own ? ms : ref) + ULID_FLOOR_RESERVE_MS / 2;

	check_damaged(hdr);
	if (ulid_wal_logging())
		ulid_wal_prepare();		/* a transaction id, as nextval() takes */
	if (!acquire_writing(hdr, wait, st, incarnation, own, needed))
		return;					/* far enough, gave way, or another
								 * backend writes */

	/* this backend is the writer */
	PG_TRY();
	{
		if (floor_of(hdr, st, incarnation, own) <= needed &&
			pg_atomic_read_u32(&hdr->lowerings) == checked_lowerings)
		{
			int64		durable = (int64) pg_atomic_read_u64(&hdr->durable_ms);

			if (own)
			{
				FloorReq	req = {.st = st,.inc = incarnation,
				.floor = ms + ULID_FLOOR_RESERVE_MS};

				(void) write_floors(hdr, durable, &req, 1, wait ? ERROR : WARNING);
			}
			else
			{
				/*
				 * A reservation from the clock the state follows, not from
				 * its id: an id borrowed ahead of the clock (a coarse tick)
				 * moves the floor only past itself.  So the server-wide
				 * floor, where every state starts after a restart, lies at
				 * most a reservation ahead of the clock, or just past an id
				 * issued further ahead from a floor (SPEC section 5: the
				 * restart floor follows ids issued on the clock).
				 */
				(void) write_floors(hdr, Max(ms + 1, ref + ULID_FLOOR_RESERVE_MS),
									NULL, 0, wait ? ERROR : WARNING);
			}
		}
	}
	PG_FINALLY();
	{
		release_writing(hdr);
	}
	PG_END_TRY();
}

/* Order advances by key, then by their words (the largest last). */
static int
advance_cmp(const void *a, const void *b)
{
	const UlidAdvance *x = (const UlidAdvance *) a;
	const UlidAdvance *y = (const UlidAdvance *) b;
	int			c;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	c = memcmp(x->key, y->key, ULID_STATE_KEY_BYTES);
	if (c != 0)
		return c;
	for (int i = 0; i < ULID_STATE_WORDS; i++)
		if (x->word[i] != y->word[i])
			return x->word[i] < y->word[i] ? -1 : 1;
	return 0;
}

/* Under st->mutex: do st's words lie below w (so an advance moves it)? */
static inline bool
words_below(const UlidGenState *st, const uint64 *w)
{
	if (!st->valid)
		return true;
	for (int i = 0; i < ULID_STATE_WORDS; i++)
		if (st->word[i] != w[i])
			return st->word[i] < w[i];
	return false;
}

/*
 * One round of ulid_advance_states(), holding the writer's lock: the
 * requests that still move are written (all, or none when they would make
 * more states advanced than ulid_advanced_max(): then the number they would
 * add is returned) and moved to their ids.  *nreq becomes the number of
 * those that gave way before being marked, moved to the front for the next
 * round.
 */
static uint32
advance_round(UlidSharedHeader *hdr, FloorReq *reqs, UlidAdvance **of, int *nreq)
{
	uint32		more = 0;
	int			keep = 0;
	int			left = 0;
	int64		now = ulid_clock_now_ms();
	int64		global = (int64) pg_atomic_read_u64(&hdr->durable_ms);

	/*
	 * An advance to an id at or below the clock (issue 40, A4): the
	 * server-wide floor, raised a reservation past the clock as minting
	 * raises it, covers it, so it takes no advanced state and does not
	 * count towards ulid_advanced_max(); nor does one the floor covers.
	 */
	for (int r = 0; r < *nreq; r++)
		if (of[r]->ms <= now)
			global = Max(global, now + ULID_FLOOR_RESERVE_MS);

	/* what moves: a state already at or above its id is left alone */
	for (int r = 0; r < *nreq; r++)
	{
		UlidGenState *st = reqs[r].st;
		bool		moves;
		bool		fresh;

		SpinLockAcquire(&st->mutex);
		moves = ulid_state_stale(st, reqs[r].inc) || words_below(st, of[r]->word);
		fresh = moves && !st->advanced && reqs[r].floor > global;
		SpinLockRelease(&st->mutex);
		if (!moves)
			continue;
		more += fresh;
		reqs[keep] = reqs[r];
		of[keep] = of[r];
		keep++;
	}

	/* all or nothing: room for every new advance, or none is made */
	if (hdr->nadvanced + more > ulid_advanced_max(hdr))
		return more;
	*nreq = 0;
	if (keep == 0)
		return 0;
	(void) write_floors(hdr, global, reqs, keep, ERROR);

	/* each state written and marked moves to its id at once */
	now = ulid_clock_now_ms();
	for (int r = 0; r < keep; r++)
	{
		UlidGenState *st = reqs[r].st;
		const UlidAdvance *a = of[r];

		if (!reqs[r].done)
		{
			reqs[left] = reqs[r];
			of[left] = of[r];
			left++;
			continue;
		}
		SpinLockAcquire(&st->mutex);
		if (!ulid_state_stale(st, reqs[r].inc) && words_below(st, a->word))
		{
			/* what it issued before the advance stays below a reset */
			if (st->valid)
				st->pre_advance_ms = Max(st->pre_advance_ms, st->last_ms + 1);
			memcpy(st->word, a->word, sizeof(st->word));
			st->valid = true;
			/* issued from at once, as far ahead as the advance put it */
			st->lead_ms = Max(a->ms - now, 0);
			st->ahead = st->lead_ms > 0;
			st->ahead_logged = false;
			st->last_ms = Max(st->last_ms, a->ms);
		}
		SpinLockRelease(&st->mutex);
	}
	*nreq = left;
	return 0;
}

/* advance_round() under the writer's lock, released on any error */
static uint32
advance_round_locked(UlidSharedHeader *hdr, FloorReq *reqs, UlidAdvance **of,
					 int *nreq)
{
	volatile uint32 refused = 0;

	(void) acquire_writing(hdr, true, NULL, 0, false, 0);
	PG_TRY();
	{
		refused = advance_round(hdr, reqs, of, nreq);
	}
	PG_FINALLY();
	{
		release_writing(hdr);
	}
	PG_END_TRY();
	return refused;
}

void
ulid_advance_states(UlidAdvance *adv, int n)
{
	UlidSharedHeader *hdr = ulid_shared_get();
	FloorReq   *reqs;
	UlidAdvance **of;
	int			nreq = 0;

	check_damaged(hdr);
	if (n == 0)
		return;

	/* one request per state: the largest id asked for each key */
	qsort(adv, n, sizeof(UlidAdvance), advance_cmp);
	reqs = palloc0(n * sizeof(FloorReq));
	of = palloc(n * sizeof(UlidAdvance *));
	for (int i = 0; i < n; i++)
	{
		if (i + 1 < n && adv[i].kind == adv[i + 1].kind &&
			memcmp(adv[i].key, adv[i + 1].key, ULID_STATE_KEY_BYTES) == 0)
			continue;			/* a larger one of the same key follows */
		of[nreq] = &adv[i];
		reqs[nreq].st = ulid_state_get(adv[i].kind, adv[i].key, &reqs[nreq].inc);
		reqs[nreq].floor = adv[i].ms + ULID_FLOOR_RESERVE_MS;
		reqs[nreq].advance = true;
		nreq++;
	}
	if (ulid_wal_logging())
		ulid_wal_prepare();

	/*
	 * Rounds: a state that gave way between being found and being marked
	 * (only one not advanced yet can) is found again and done in the next.
	 */
	while (nreq > 0)
	{
		uint32		refused = advance_round_locked(hdr, reqs, of, &nreq);

		if (refused)
			ereport(ERROR,
					(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
					 errmsg("advancing %u more ulid generator states would make more than %u of the %u advanced",
							refused, ulid_advanced_max(hdr), hdr->capacity),
					 errdetail("%u states are advanced now. An advanced state keeps its floor and never gives way, so advances may fill at most a quarter of the table (ulid.max_generator_states): the rest is kept for every role's generators. Nothing was advanced.",
							   hdr->nadvanced),
					 errhint("Undo advances that are no longer needed with snowflake_reset() or cosid80_reset(), or raise ulid.max_generator_states in postgresql.conf and restart the server.")));

		/* gave way meanwhile: found again, done in the next round */
		for (int r = 0; r < nreq; r++)
		{
			CHECK_FOR_INTERRUPTS();
			reqs[r].st = ulid_state_get(of[r]->kind, of[r]->key, &reqs[r].inc);
		}
	}
	pfree(reqs);
	pfree(of);
}

/*
 * Under st->mutex, holding the writer's lock: st (advanced) forgets its
 * advance and its words, and goes on from the clock above what it issued
 * before it.
 */
static void
forget_advance(UlidSharedHeader *hdr, UlidGenState *st)
{
	st->advanced = false;
	st->ahead = false;
	st->ahead_logged = false;
	st->own_floor = 0;
	st->valid = false;
	memset(st->word, 0, sizeof(st->word));
	st->base_ms = st->pre_advance_ms;
	st->trusted_ms = Min(st->trusted_ms, st->base_ms);
	st->lead_ms = 0;
	/* what it issued since the advance is given up (the WARNING says so) */
	st->last_ms = Min(st->last_ms, st->base_ms - 1);
	hdr->nadvanced--;
}

bool
ulid_state_reset(UlidGenState *st, uint32 incarnation, int64 *own_floor)
{
	UlidSharedHeader *hdr = ulid_shared_get();
	bool		was = false;
	uint32		kind = 0;
	uint8		key[ULID_STATE_KEY_BYTES];

	if (ulid_wal_logging())
		ulid_wal_prepare();
	(void) acquire_writing(hdr, true, NULL, 0, false, 0);
	PG_TRY();
	{
		SpinLockAcquire(&st->mutex);
		if (!ulid_state_stale(st, incarnation) && st->advanced)
		{
			was = true;
			*own_floor = st->own_floor;
			forget_advance(hdr, st);
			/* its key, before it can give way (it is no longer advanced) */
			kind = st->kind;
			memcpy(key, st->key, ULID_STATE_KEY_BYTES);
		}
		SpinLockRelease(&st->mutex);
		if (was && ulid_wal_logging())
			ulid_wal_log_reset(kind, key);
		if (was)
			(void) write_floors(hdr, (int64) pg_atomic_read_u64(&hdr->durable_ms),
								NULL, 0, ERROR);
	}
	PG_FINALLY();
	{
		release_writing(hdr);
	}
	PG_END_TRY();
	return was;
}

/*
 * A floor record replayed from WAL (floor_wal.c), in the startup process:
 * every state's base, and the base of states created later, rise to the
 * server-wide floor; the state of (kind, key) becomes advanced with its own
 * floor (created if needed; with the table full, every state created later
 * starts above it instead).  Then the floor file is rewritten, unless it is
 * damaged (the generators stay stopped until a superuser repairs it).  Never
 * raises an error: a failed write is a WARNING, and replay goes on.
 */
void
ulid_floor_replay(int64 global, uint32 kind, const uint8 *key, int64 own)
{
	UlidSharedHeader *hdr = ulid_shared;

	if (hdr == NULL)
		return;					/* registered only with shared memory */
	(void) acquire_writing(hdr, true, NULL, 0, false, 0);
	PG_TRY();
	{
		int64		durable = (int64) pg_atomic_read_u64(&hdr->durable_ms);
		UlidGenState *req = NULL;
		FloorReq	r = {0};

		SpinLockAcquire(&hdr->table_lock);
		hdr->start_ms = Max(hdr->start_ms, global);
		SpinLockRelease(&hdr->table_lock);
		if (kind != 0 && kind < ULID_STATE_KINDS && own > Max(durable, global))
			req = ulid_state_restore(hdr, kind, key, own);

		for (uint32 i = 0; global > 0 && i < hdr->nused; i++)
		{
			UlidGenState *st = SLOT(hdr, i);

			SpinLockAcquire(&st->mutex);
			st->base_ms = Max(st->base_ms, global);
			st->trusted_ms = Max(st->trusted_ms, global);
			st->pre_advance_ms = Max(st->pre_advance_ms, global);
			SpinLockRelease(&st->mutex);
		}
		if (req != NULL)
		{
			SpinLockAcquire(&req->mutex);
			req->base_ms = Max(req->base_ms, own);
			req->trusted_ms = Max(req->trusted_ms, own);
			r.st = req;
			r.inc = req->incarnation;
			r.floor = own;
			r.advance = true;
			SpinLockRelease(&req->mutex);
		}
		if (!hdr->damaged)
			(void) write_floors(hdr, Max(durable, global), &r, req != NULL ? 1 : 0,
								WARNING);
		else
		{
			if (global > durable)
				pg_atomic_write_u64(&hdr->durable_ms, (uint64) global);
			if (req != NULL)
			{
				SpinLockAcquire(&req->mutex);
				if (!req->advanced)
					hdr->nadvanced++;
				req->advanced = true;
				req->own_floor = Max(req->own_floor, own);
				SpinLockRelease(&req->mutex);
			}
		}
	}
	PG_FINALLY();
	{
		release_writing(hdr);
	}
	PG_END_TRY();
}

/*
 * A reset record replayed from WAL: the state of (kind, key), if it exists
 * and is advanced, forgets its own floor as ulid_state_reset() made it on
 * the primary; the floor file is rewritten without it.
 */
void
ulid_floor_replay_reset(uint32 kind, const uint8 *key)
{
	UlidSharedHeader *hdr = ulid_shared;

	if (hdr == NULL)
		return;
	(void) acquire_writing(hdr, true, NULL, 0, false, 0);
	PG_TRY();
	{
		bool		was = false;

		for (uint32 i = 0; i < hdr->nused; i++)
		{
			UlidGenState *st = SLOT(hdr, i);

			SpinLockAcquire(&st->mutex);
			if (st->kind == kind && st->advanced &&
				memcmp(st->key, key, ULID_STATE_KEY_BYTES) == 0)
			{
				was = true;
				forget_advance(hdr, st);
			}
			SpinLockRelease(&st->mutex);
		}
		if (was && !hdr->damaged)
			(void) write_floors(hdr, (int64) pg_atomic_read_u64(&hdr->durable_ms),
								NULL, 0, WARNING);
	}
	PG_FINALLY();
	{
		release_writing(hdr);
	}
	PG_END_TRY();
}

char *
ulid_advance_detail(int64 own_floor, const char *reset_call)
{
	return psprintf("The state was advanced past the clock (snowflake_advance(), cosid80_advance() or ulid_monotonic_advance()); its own floor is %s. If that advance was a mistake, %s undoes it.",
					ulid_iso_or_ms(own_floor), reset_call);
}

/*
 * ulid_floor_repair(above [, lower]): rewrite the floor file so that every
 * generator issues above `above`, and let the generators issue again.
 * Without lower it only raises floors (a floor already above `above`
 * stays, and the NOTICE says so); with lower every floor, the states' own
 * and their gone floors included, drops to `above`, with a WARNING naming
 * the guarantee this gives up.
 */
PG_FUNCTION_INFO_V1(ulid_floor_repair);
Datum
ulid_floor_repair(PG_FUNCTION_ARGS)
{
	TimestampTz above = PG_GETARG_TIMESTAMPTZ(0);
	bool		lower = PG_NARGS() > 1 && !PG_ARGISNULL(1) && PG_GETARG_BOOL(1);
	UlidSharedHeader *hdr;
	int64		above_ms;
	int64		floor;
	volatile bool was_damaged = false;
	volatile int64 old_global = 0;
	volatile int64 new_global = 0;
	const char *volatile removed = NULL;

	ulid_require_superuser("repair the ulid restart floor");
	above_ms = ulid_timestamptz_to_unix_ms(above);	/* 22008 outside ULID times */
	floor = above_ms + 1;
	hdr = ulid_shared_get();
	if (ulid_wal_logging())
		ulid_wal_prepare();

	(void) acquire_writing(hdr, true, NULL, 0, false, 0);
	PG_TRY();
	{
		int64		durable = (int64) pg_atomic_read_u64(&hdr->durable_ms);
		int64		global;

		old_global = durable;
		if (lower)
		{
			global = floor + ULID_FLOOR_RESERVE_MS;
			if (ulid_wal_logging())
				ulid_wal_log_lower(global);
			ulid_state_table_lower(hdr, floor);
			pg_atomic_write_u64(&hdr->durable_ms, 0);	/* written below */
		}
		else
		{
			global = Max(durable, floor + ULID_FLOOR_RESERVE_MS);

			/* first every state's base, then the floor that lets them issue */
			SpinLockAcquire(&hdr->table_lock);
			hdr->start_ms = Max(hdr->start_ms, floor);
			SpinLockRelease(&hdr->table_lock);
			for (uint32 i = 0; i < hdr->nused; i++)
			{
				UlidGenState *st = SLOT(hdr, i);

				SpinLockAcquire(&st->mutex);
				st->base_ms = Max(st->base_ms, floor);
				st->trusted_ms = Max(st->trusted_ms, floor);
				st->pre_advance_ms = Max(st->pre_advance_ms, floor);
				SpinLockRelease(&st->mutex);
			}
		}
		new_global = global;
		removed = ulid_floor_file_clear();
		(void) write_floors(hdr, global, NULL, 0, ERROR);
		pg_memory_barrier();
		was_damaged = hdr->damaged;
		hdr->damaged = false;
	}
	PG_FINALLY();
	{
		release_writing(hdr);
	}
	PG_END_TRY();

	if (lower && old_global > new_global)
		ereport(WARNING,
				(errmsg("ulid restart floor lowered from %s to %s",
						ulid_iso_or_ms(old_global), ulid_iso_or_ms(above_ms)),
				 errdetail("Every generator issues from the clock again, or from %s while the clock is before it. The guarantee that no id repeats one issued before is dropped for ids issued after that time: if any exist (stored or handed out), new ones may repeat them, and stored ones sort after new ones until the clock passes them.",
						   ulid_iso_or_ms(above_ms)),
				 errhint("Lower a floor only when no id was issued past the time you give (a clock that jumped ahead, a floor file copied from elsewhere); otherwise give the largest stored id's time.")));
	if (!lower && old_global > floor + ULID_FLOOR_RESERVE_MS)
		ereport(NOTICE,
				(errmsg("ulid restart floor file \"%s\" rewritten: its floor stays at %s, above %s",
						ulid_floor_file_path(), ulid_iso_or_ms(old_global), ulid_iso_or_ms(above_ms)),
				 removed ? errdetail("The repair removed %s. A repair raises floors and never lowers one: the generators go on above the floor the file had.", removed) :
				 errdetail("A repair raises floors and never lowers one: the generators go on above the floor the file had."),
				 errhint("If no id was issued that late (a clock that jumped ahead, a file copied from elsewhere), lower it on purpose: SELECT ulid_floor_repair(now(), lower => true);")));
	else
		ereport(NOTICE,
				(errmsg("ulid restart floor file \"%s\" rewritten: every generator issues above %s",
						ulid_floor_file_path(), ulid_iso_or_ms(above_ms)),
				 removed ? errdetail("The repair removed %s%s.", removed,
									 was_damaged ? "; gen_monotonic_ulid() and snowflake_next() issue ids again" : "") :
				 was_damaged ? errdetail("The damaged file was replaced; gen_monotonic_ulid() and snowflake_next() issue ids again.") : 0));
	PG_RETURN_VOID();
}

/*
 * A lowering replayed from WAL: the standby's floors drop with the
 * primary's, so that a promotion issues from the primary's time.
 */
void
ulid_floor_replay_lower(int64 global)
{
	UlidSharedHeader *hdr = ulid_shared;

	if (hdr == NULL)
		return;
	(void) acquire_writing(hdr, true, NULL, 0, false, 0);
	PG_TRY();
	{
		ulid_state_table_lower(hdr, global - ULID_FLOOR_RESERVE_MS);
		pg_atomic_write_u64(&hdr->durable_ms, 0);
		if (!hdr->damaged)
			(void) write_floors(hdr, global, NULL, 0, WARNING);
		else
			pg_atomic_write_u64(&hdr->durable_ms, (uint64) global);
	}
	PG_FINALLY();
	{
		release_writing(hdr);
	}
	PG_END_TRY();
}
