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
 *	- writing (atomic, used as a try-lock) admits one floor-file writer at a
 *	  time, and serialises every change of a state's advanced flag (advance,
 *	  reset, absorption) and repair.  It is never taken while a spinlock is
 *	  held, and always released (PG_FINALLY).  A backend that needs a floor
 *	  to move while another writes polls (100 us sleeps, interruptible).
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
 * (floor_wal.c) before the floor takes effect, after giving its transaction
 * a transaction id.  A standby replays the records (ulid_floor_replay()):
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
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "floor_file.h"
#include "floor_wal.h"
#include "floors.h"

#define SLOT(hdr, i)	ULID_SLOT(hdr, i)

pg_atomic_uint64 *
ulid_floor_durable(void)
{
	return &ulid_shared_get()->durable_ms;
}

UlidFloorCheck
ulid_floor_check(const UlidGenState *st, int64 ms, int64 now, bool *own)
{
	int64		durable = (int64) pg_atomic_read_u64(&ulid_shared->durable_ms);
	int64		floor = durable;

	*own = false;
	if (ulid_floor_clear(ms, durable))
		return ULID_FLOOR_OK;
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

/*
 * Acquire the writer's try-lock.  With st, return false instead once the
 * floor floor_of(st, inc, own) exceeds needed; without wait, also when
 * another backend holds it.
 */
static bool
acquire_writing(UlidSharedHeader *hdr, bool wait, UlidGenState *st,
				uint32 inc, bool own, int64 needed)
{
	for (;;)
	{
		uint32		expected = 0;

		if (st != NULL && floor_of(hdr, st, inc, own) > needed)
			return false;
		if (pg_atomic_compare_exchange_u32(&hdr->writing, &expected, 1))
			return true;
		if (!wait)
			return false;
		CHECK_FOR_INTERRUPTS();
		pg_usleep(100L);
	}
}

/*
 * The writer (holding writing): write the file with the server-wide floor
 * global and every advanced state's own floor, req's raised to req_floor
 * (req NULL: none).  On success durable_ms becomes global, req becomes
 * advanced with its floor, and states whose own floor global overtook are
 * ordinary again.  Returns whether it wrote.
 *
 * req is the state its caller found with incarnation req_inc.  A state
 * that is not advanced may give way to another key at any time (the
 * writer's lock does not stop that), so req's incarnation is checked under
 * its mutex wherever req is read or marked: a req that gave way before the
 * file is composed is dropped (nothing is written for it), and one that
 * gave way while the file was written is not marked (the new key's state
 * never becomes advanced; the file and the WAL record name the old key,
 * whose floor is only higher than it needs).
 */
static bool
write_floors(UlidSharedHeader *hdr, int64 global, UlidGenState *req,
			 uint32 req_inc, int64 req_floor, int elevel)
{
	StringInfoData buf;
	char		line[ULID_FLOOR_ENTRY_MAX];
	bool		done;
	bool		asked = req != NULL;
	ulid_floor_entry req_e = {0};

	initStringInfo(&buf);
	enlargeStringInfo(&buf, ULID_FLOOR_HEAD_MAX);
	buf.len = (int) ulid_floor_format_head((uint64) global, buf.data);
	if (hdr->nadvanced > 0 || req != NULL)
	{
		for (uint32 i = 0; i < hdr->nused; i++)
		{
			UlidGenState *st = SLOT(hdr, i);
			ulid_floor_entry e;
			bool		adv;

			SpinLockAcquire(&st->mutex);
			adv = st->advanced;
			e.ms = (uint64) st->own_floor;
			e.kind = st->kind;
			memcpy(e.key, st->key, ULID_STATE_KEY_BYTES);
			if (st == req && ulid_state_stale(st, req_inc))
				req = NULL;		/* gave way: another key's state now */
			SpinLockRelease(&st->mutex);
			if (st == req)
			{
				adv = true;
				e.ms = Max(e.ms, (uint64) req_floor);
				req_e = e;		/* the key it had, read under its mutex */
			}
			if (!adv || (int64) e.ms <= global)
				continue;
			appendBinaryStringInfo(&buf, line, (int) ulid_floor_format_entry(&e, line));
		}
	}
	if (asked && req == NULL &&
		global <= (int64) pg_atomic_read_u64(&hdr->durable_ms))
	{
		pfree(buf.data);
		return false;			/* req gave way: no floor to raise */
	}

	/*
	 * WAL first (floor_wal.c), a record only when a floor rises: a standby
	 * learns every floor before any id under it is returned.
	 */
	if (ulid_wal_logging())
	{
		int64		old = (int64) pg_atomic_read_u64(&hdr->durable_ms);

		if (req != NULL)
			ulid_wal_log_floor(global > old ? global : 0, req_e.kind, req_e.key, req_floor);
		else if (global > old)
			ulid_wal_log_floor(global, 0, NULL, 0);
	}
	done = ulid_floor_file_write(buf.data, buf.len, elevel);
	pfree(buf.data);
	if (!done)
		return false;

	if (global > (int64) pg_atomic_read_u64(&hdr->durable_ms))
		pg_atomic_write_u64(&hdr->durable_ms, (uint64) global);
	for (uint32 i = 0; i < hdr->nused && (hdr->nadvanced > 0 || req != NULL); i++)
	{
		UlidGenState *st = SLOT(hdr, i);

		SpinLockAcquire(&st->mutex);
		if (st == req && !ulid_state_stale(st, req_inc))
		{
			if (!st->advanced)
				hdr->nadvanced++;
			st->advanced = true;
			st->own_floor = Max(st->own_floor, req_floor);
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
	return true;
}

void
ulid_floor_reserve(UlidGenState *st, uint32 incarnation, int64 ms, bool own,
				   bool wait)
{
	UlidSharedHeader *hdr = ulid_shared_get();

	/* the floor is far enough when it exceeds ms (wait) or ms + reserve/2 */
	int64		needed = wait ? ms : ms + ULID_FLOOR_RESERVE_MS / 2;

	check_damaged(hdr);
	if (ulid_wal_logging())
		ulid_wal_prepare();		/* a transaction id, as nextval() takes */
	if (!acquire_writing(hdr, wait, st, incarnation, own, needed))
		return;					/* far enough, gave way, or another
								 * backend writes */

	/* this backend is the writer */
	PG_TRY();
	{
		if (floor_of(hdr, st, incarnation, own) <= needed)
		{
			int64		durable = (int64) pg_atomic_read_u64(&hdr->durable_ms);

			if (own)
				(void) write_floors(hdr, durable, st, incarnation,
									ms + ULID_FLOOR_RESERVE_MS,
									wait ? ERROR : WARNING);
			else
				(void) write_floors(hdr, ms + ULID_FLOOR_RESERVE_MS, NULL, 0, 0,
									wait ? ERROR : WARNING);
		}
	}
	PG_FINALLY();
	{
		pg_atomic_exchange_u32(&hdr->writing, 0);
	}
	PG_END_TRY();
}

/*
 * Under st->mutex, holding writing: st (advanced) forgets its advance and
 * its words, and goes on from the clock above what it issued before it.
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
								NULL, 0, 0, ERROR);
	}
	PG_FINALLY();
	{
		pg_atomic_exchange_u32(&hdr->writing, 0);
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
		uint32		req_inc = 0;

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
			st->pre_advance_ms = Max(st->pre_advance_ms, global);
			SpinLockRelease(&st->mutex);
		}
		if (req != NULL)
		{
			SpinLockAcquire(&req->mutex);
			req->base_ms = Max(req->base_ms, own);
			req_inc = req->incarnation;
			SpinLockRelease(&req->mutex);
		}
		if (!hdr->damaged)
			(void) write_floors(hdr, Max(durable, global), req, req_inc, own,
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
		pg_atomic_exchange_u32(&hdr->writing, 0);
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
								NULL, 0, 0, WARNING);
	}
	PG_FINALLY();
	{
		pg_atomic_exchange_u32(&hdr->writing, 0);
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
 * ulid_floor_repair(above): rewrite the floor file so that every generator
 * issues above `above`, and let the generators issue again.
 */
PG_FUNCTION_INFO_V1(ulid_floor_repair);
Datum
ulid_floor_repair(PG_FUNCTION_ARGS)
{
	TimestampTz above = PG_GETARG_TIMESTAMPTZ(0);
	UlidSharedHeader *hdr;
	int64		above_ms;
	int64		floor;
	volatile bool was_damaged = false;
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
		int64		global = Max(durable, floor + ULID_FLOOR_RESERVE_MS);

		/* first every state's base, then the floor that lets them issue */
		SpinLockAcquire(&hdr->table_lock);
		hdr->start_ms = Max(hdr->start_ms, floor);
		SpinLockRelease(&hdr->table_lock);
		for (uint32 i = 0; i < hdr->nused; i++)
		{
			UlidGenState *st = SLOT(hdr, i);

			SpinLockAcquire(&st->mutex);
			st->base_ms = Max(st->base_ms, floor);
			st->pre_advance_ms = Max(st->pre_advance_ms, floor);
			SpinLockRelease(&st->mutex);
		}
		removed = ulid_floor_file_clear();
		(void) write_floors(hdr, global, NULL, 0, 0, ERROR);
		pg_memory_barrier();
		was_damaged = hdr->damaged;
		hdr->damaged = false;
	}
	PG_FINALLY();
	{
		pg_atomic_exchange_u32(&hdr->writing, 0);
	}
	PG_END_TRY();

	ereport(NOTICE,
			(errmsg("ulid restart floor file \"%s\" rewritten: every generator issues above %s",
					ulid_floor_file_path(), ulid_iso_or_ms(above_ms)),
			 removed ? errdetail("The repair removed %s that stood in its place%s.", removed,
								 was_damaged ? "; gen_monotonic_ulid() and snowflake_next() issue ids again" : "") :
			 was_damaged ? errdetail("The damaged file was replaced; gen_monotonic_ulid() and snowflake_next() issue ids again.") : 0));
	PG_RETURN_VOID();
}
