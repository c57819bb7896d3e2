/*-------------------------------------------------------------------------
 *
 * shmem.c
 *	  Shared generator state: a table of keyed states in shared memory and
 *	  the persisted server-wide floor that makes restarts safe.
 *
 * WHERE THE MEMORY COMES FROM
 * With shared_preload_libraries = 'ulid' (15+), room for
 * ulid.max_generator_states states is requested in shmem_request_hook and
 * initialised in shmem_startup_hook, which the postmaster runs at start and
 * again after every crash.  On PostgreSQL 17+ without preloading, the first
 * backend that needs it creates a DSM-registry segment (GetNamedDSMSegment)
 * named ULID_DSM_NAME, with ULID_DSM_STATES states, and every backend
 * attaches to it.  The name carries the layout version and the header
 * carries a magic number, the version, the capacity and the size, checked
 * on attach, so a library with another layout never misreads a segment.
 * Elsewhere (15 and 16 without preloading) every function that needs the
 * state fails with 55000 and a hint giving the exact setting: never a crash,
 * never a per-backend fallback.
 *
 * LAYOUT
 * A header, then `capacity` slots of UlidGenState, each padded to whole
 * cache lines so that two states never share one.  Slots are filled in
 * order and never freed: nused only grows, so a pointer to a state stays
 * valid and backends cache it.
 *
 * LOCKING PROTOCOL
 *	- table_lock (spinlock) serialises creating a state: the creator scans
 *	  the slots published since its lock-free scan, fills the next free slot
 *	  and publishes it by incrementing nused after a write barrier.  Lookups
 *	  read nused, then (after a read barrier) scan the published slots
 *	  without a lock: kind and key never change once published.
 *	- each state's mutex (spinlock) protects its words and counters.  A
 *	  generator holds it for a few dozen instructions: read the words,
 *	  compute the next id, ulid_floor_check(), store.  No allocation, error,
 *	  system call or other lock inside; the clock is read and randomness
 *	  drawn before taking it.  So the cost per id is one uncontended
 *	  spinlock, never an LWLock, a buffer lock or WAL.
 *	- durable_ms (atomic) is the persisted floor.  It only grows while the
 *	  server runs, and is read without a lock (also under a state's mutex).
 *	- writing (atomic, used as a try-lock) admits one floor-file writer at a
 *	  time.  It is never taken while a spinlock is held, and always released
 *	  (PG_FINALLY).  A backend that needs the floor to move while another
 *	  writes polls (100 us sleeps, interruptible) until durable_ms has moved
 *	  past its time or it can write itself.
 *	No two of these locks are ever held together.
 *
 * RESTARTS: THE PERSISTED FLOOR
 * Every id any generator returns lies on a Unix millisecond strictly below
 * durable_ms, the value last written to $PGDATA/ulid_floor (floor_file.c:
 * temporary file, fsync, durable_rename).  As a sequence logs ahead, a
 * generator about to issue on millisecond ms finds:
 *	- ms < durable_ms - reserve/2: it issues (the hot path: one atomic read);
 *	- durable_ms - reserve/2 <= ms < durable_ms: it issues, then, outside its
 *	  spinlock, writes ms + reserve if no other backend is writing; the
 *	  others go on issuing meanwhile (half a reservation of slack);
 *	- ms >= durable_ms (the first id after a start, or the clock jumped
 *	  ahead): it does not issue; it writes ms + reserve (or waits for the
 *	  writer), then computes its id again.
 * At startup, and after a crash (the postmaster re-creates shared memory
 * and runs shmem_startup_hook again; a DSM-registry segment is re-created
 * too), the floor file is read: every id issued before lies below it, and
 * every state starts at max(clock, floor).  So after a clean restart,
 * pg_ctl stop -m immediate, or the kill -9 of a backend, no generator issues
 * a value at or below one it issued before, whatever the clock did.  There
 * is no shutdown hook (the DSM path has none): the reservation alone
 * carries the guarantee, and the ids issued just after a restart may lie up
 * to the reservation (1 s) ahead of the clock, as after a clock step back.
 * The advance functions raise the floor above their argument before moving
 * a state, so an advance survives restarts too.
 *
 * A hot standby has its own shared memory and its own floor file (a base
 * backup starts it from the primary's): it issues ids ordered within the
 * standby, not with the primary's.
 *
 *-------------------------------------------------------------------------
 */
#include "ulid.h"

#include "catalog/pg_authid_d.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"

#include "floor_file.h"
#include "shmem.h"

#define ULID_SHMEM_MAGIC		0x554C4944	/* "ULID" */
#define ULID_SHMEM_VERSION		1
#define ULID_SHMEM_NAME			"ulid generator state"
#define ULID_DSM_NAME			"ulid generator state v1"
#define ULID_DSM_STATES			64
#define ULID_DEFAULT_STATES		64

/* how far ahead of the last issued millisecond the floor is written */
#define ULID_FLOOR_RESERVE_MS	1000

typedef struct UlidSharedHeader
{
	uint32		magic;
	uint32		version;
	uint64		size;			/* of the whole structure, slots included */
	uint32		capacity;		/* slots */
	pg_atomic_uint32 nused;		/* published slots; only grows */
	slock_t		table_lock;		/* serialises creating a state */
	int64		start_ms;		/* the floor read at startup */
	pg_atomic_uint64 durable_ms;	/* the floor last persisted */
	pg_atomic_uint32 writing;	/* 1 while a backend writes the floor file */
} UlidSharedHeader;

/* a slot: one state, padded to whole cache lines */
typedef union UlidSlot
{
	UlidGenState state;
	char		pad[TYPEALIGN(PG_CACHE_LINE_SIZE, sizeof(UlidGenState))];
} UlidSlot;

StaticAssertDecl(offsetof(UlidGenState, failures) <= PG_CACHE_LINE_SIZE,
				 "the fields every call touches fit one cache line");

#define HEADER_SIZE		CACHELINEALIGN(sizeof(UlidSharedHeader))
#define SLOT(hdr, i)	(&((UlidSlot *) ((char *) (hdr) + HEADER_SIZE))[i].state)

/* this process's view of the shared state; NULL until found */
static UlidSharedHeader *shared = NULL;

static int	max_states = ULID_DEFAULT_STATES;
static bool preloaded = false;	/* loaded through shared_preload_libraries */

static shmem_request_hook_type prev_shmem_request_hook = NULL;
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

/* the kinds this library knows, registered by _PG_init */
static struct
{
	const char *name;
	UlidStateDescribe describe;
}			kinds[ULID_STATE_KINDS];

static Size
shared_size(uint32 capacity)
{
	return add_size(HEADER_SIZE, mul_size(capacity, sizeof(UlidSlot)));
}

/* Initialise a new shared structure; reads the floor file (never throws). */
static void
init_shared(UlidSharedHeader *hdr, uint32 capacity)
{
	int64		floor = ulid_floor_file_read();

	memset(hdr, 0, shared_size(capacity));
	hdr->magic = ULID_SHMEM_MAGIC;
	hdr->version = ULID_SHMEM_VERSION;
	hdr->size = shared_size(capacity);
	hdr->capacity = capacity;
	pg_atomic_init_u32(&hdr->nused, 0);
	SpinLockInit(&hdr->table_lock);
	hdr->start_ms = floor;
	pg_atomic_init_u64(&hdr->durable_ms, (uint64) floor);
	pg_atomic_init_u32(&hdr->writing, 0);
}

static void
shmem_request(void)
{
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
	RequestAddinShmemSpace(shared_size(max_states));
}

static void
shmem_startup(void)
{
	bool		found;

	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();
	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	shared = ShmemInitStruct(ULID_SHMEM_NAME, shared_size(max_states), &found);
	if (!found)
		init_shared(shared, max_states);
	LWLockRelease(AddinShmemInitLock);
}

void
ulid_shmem_init(void)
{
	/* a PGC_POSTMASTER setting may only be defined while preloading */
	if (!process_shared_preload_libraries_in_progress)
		return;

	DefineCustomIntVariable("ulid.max_generator_states",
							"Number of shared generator states (one for gen_monotonic_ulid(), one per Snowflake bit structure and node).",
							"Each takes 128 bytes of shared memory. Only settable at server start.",
							&max_states,
							ULID_DEFAULT_STATES, 1, 65536,
							PGC_POSTMASTER, 0,
							NULL, NULL, NULL);

	preloaded = true;
	prev_shmem_request_hook = shmem_request_hook;
	shmem_request_hook = shmem_request;
	prev_shmem_startup_hook = shmem_startup_hook;
	shmem_startup_hook = shmem_startup;
}

#ifdef ULID_HAS_DSM_REGISTRY
/* Initialise a new DSM-registry segment (17+). */
static
ULID_DSM_INIT_CALLBACK(dsm_init, ptr)
{
	init_shared((UlidSharedHeader *) ptr, ULID_DSM_STATES);
}
#else
/* ERROR 55000: no shared state here, and exactly what to configure. */
static void
report_unavailable(void)
{
	const char *libs = NULL;

	/* the current list is only shown to those allowed to read it */
	if (has_privs_of_role(GetUserId(), ROLE_PG_READ_ALL_SETTINGS))
		libs = GetConfigOption("shared_preload_libraries", true, false);

	ereport(ERROR,
			(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			 errmsg("ulid shared generator state is not available"),
			 errdetail("gen_monotonic_ulid() and snowflake_next() keep their state in shared memory. The ulid library was not loaded through shared_preload_libraries, and before PostgreSQL 17 shared memory cannot be added later."),
			 libs == NULL ?
			 errhint("Add ulid to shared_preload_libraries in postgresql.conf (shared_preload_libraries = 'ulid' if it lists no other library) and restart the server.") :
			 errhint("Put shared_preload_libraries = '%s%sulid' in postgresql.conf and restart the server.",
					 libs, libs[0] == '\0' ? "" : ", ")));
}
#endif

/* The shared structure: the preloaded one, the DSM segment, or ERROR. */
static UlidSharedHeader *
get_shared(void)
{
	if (likely(shared != NULL))
		return shared;
#ifdef ULID_HAS_DSM_REGISTRY
	{
		bool		found;
		UlidSharedHeader *hdr;

		hdr = ulid_get_named_dsm(ULID_DSM_NAME, shared_size(ULID_DSM_STATES),
								 dsm_init, &found);
		if (hdr->magic != ULID_SHMEM_MAGIC || hdr->version != ULID_SHMEM_VERSION ||
			hdr->capacity != ULID_DSM_STATES ||
			hdr->size != shared_size(ULID_DSM_STATES))
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("ulid shared generator state has an unexpected layout"),
					 errdetail("Segment \"%s\" has magic %08X, version %u, %u states and %llu bytes; expected %08X, %u, %u and %llu.",
							   ULID_DSM_NAME, hdr->magic, hdr->version,
							   hdr->capacity, (unsigned long long) hdr->size,
							   ULID_SHMEM_MAGIC, ULID_SHMEM_VERSION,
							   ULID_DSM_STATES,
							   (unsigned long long) shared_size(ULID_DSM_STATES)),
					 errhint("Restart the server: another build of the ulid library created the segment.")));
		shared = hdr;
	}
#else
	report_unavailable();
#endif
	return shared;
}

/* The published state (kind, key) among slots [from, to), or NULL. */
static UlidGenState *
find_state(UlidSharedHeader *hdr, UlidStateKind kind,
		   const uint8 key[ULID_STATE_KEY_BYTES], uint32 from, uint32 to)
{
	for (uint32 i = from; i < to; i++)
	{
		UlidGenState *st = SLOT(hdr, i);

		if (st->kind == (uint32) kind &&
			memcmp(st->key, key, ULID_STATE_KEY_BYTES) == 0)
			return st;
	}
	return NULL;
}

UlidGenState *
ulid_state_get(UlidStateKind kind, const uint8 key[ULID_STATE_KEY_BYTES])
{
	UlidSharedHeader *hdr = get_shared();
	uint32		seen = pg_atomic_read_u32(&hdr->nused);
	uint32		n;
	UlidGenState *st;

	pg_read_barrier();
	st = find_state(hdr, kind, key, 0, seen);
	if (st != NULL)
		return st;

	SpinLockAcquire(&hdr->table_lock);
	n = pg_atomic_read_u32(&hdr->nused);
	st = find_state(hdr, kind, key, seen, n);
	if (st == NULL && n < hdr->capacity)
	{
		st = SLOT(hdr, n);
		memset(st, 0, sizeof(UlidSlot));
		SpinLockInit(&st->mutex);
		st->kind = (uint32) kind;
		memcpy(st->key, key, ULID_STATE_KEY_BYTES);
		st->min_ms = hdr->start_ms;
		pg_write_barrier();
		pg_atomic_write_u32(&hdr->nused, n + 1);
	}
	SpinLockRelease(&hdr->table_lock);

	if (st == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
				 errmsg("too many ulid generator states"),
				 errdetail("All %u shared generator states are in use (one for gen_monotonic_ulid(), one per Snowflake bit structure and node).",
						   hdr->capacity),
				 preloaded ?
				 errhint("Raise ulid.max_generator_states in postgresql.conf and restart the server.") :
				 errhint("Load ulid through shared_preload_libraries and set ulid.max_generator_states in postgresql.conf.")));
	return st;
}

UlidFloorCheck
ulid_floor_check(int64 ms)
{
	int64		durable = (int64) pg_atomic_read_u64(&shared->durable_ms);

	if (likely(ms < durable - ULID_FLOOR_RESERVE_MS / 2))
		return ULID_FLOOR_OK;
	return ms < durable ? ULID_FLOOR_REFRESH : ULID_FLOOR_BLOCKED;
}

void
ulid_floor_reserve(int64 ms, bool wait)
{
	UlidSharedHeader *hdr = get_shared();

	/* the floor is far enough when it exceeds ms (wait) or ms + reserve/2 */
	int64		needed = wait ? ms : ms + ULID_FLOOR_RESERVE_MS / 2;

	for (;;)
	{
		uint32		expected = 0;

		if ((int64) pg_atomic_read_u64(&hdr->durable_ms) > needed)
			return;
		if (pg_atomic_compare_exchange_u32(&hdr->writing, &expected, 1))
			break;
		if (!wait)
			return;				/* another backend is writing */
		CHECK_FOR_INTERRUPTS();
		pg_usleep(100L);
	}

	/* this backend is the writer */
	PG_TRY();
	{
		int64		floor = ms + ULID_FLOOR_RESERVE_MS;

		if ((int64) pg_atomic_read_u64(&hdr->durable_ms) <= needed &&
			ulid_floor_file_write(floor, wait ? ERROR : WARNING))
		{
			Assert(floor > (int64) pg_atomic_read_u64(&hdr->durable_ms));
			pg_atomic_write_u64(&hdr->durable_ms, (uint64) floor);
		}
	}
	PG_FINALLY();
	{
		pg_atomic_exchange_u32(&hdr->writing, 0);
	}
	PG_END_TRY();
}

void
ulid_state_register_kind(UlidStateKind kind, const char *name,
						 UlidStateDescribe describe)
{
	Assert(kind > 0 && kind < ULID_STATE_KINDS);
	kinds[kind].name = name;
	kinds[kind].describe = describe;
}

void
ulid_require_superuser(const char *what)
{
	if (!superuser())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("must be superuser to %s", what),
				 errdetail("The shared generator state is a server-wide resource.")));
}

/*
 * ulid_generator_state(): one row per live state, for the view of the same
 * name.  Each state is copied under its spinlock, then described.
 */
PG_FUNCTION_INFO_V1(ulid_generator_state);
Datum
ulid_generator_state(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	UlidSharedHeader *hdr;
	uint32		n;
	int64		durable;

	ulid_require_superuser("read the ulid generator state");
	hdr = get_shared();
	InitMaterializedSRF(fcinfo, 0);

	n = pg_atomic_read_u32(&hdr->nused);
	pg_read_barrier();
	durable = (int64) pg_atomic_read_u64(&hdr->durable_ms);
	for (uint32 i = 0; i < n; i++)
	{
		UlidGenState *st = SLOT(hdr, i);
		UlidGenState copy;
		UlidStateRow row = {0};
		Datum		values[12];
		bool		nulls[12] = {0};

		SpinLockAcquire(&st->mutex);
		copy = *st;
		SpinLockRelease(&st->mutex);

		if (copy.kind >= ULID_STATE_KINDS || kinds[copy.kind].describe == NULL)
			elog(ERROR, "unknown ulid generator state kind %u", copy.kind);
		kinds[copy.kind].describe(&copy, &row);

		values[0] = CStringGetTextDatum(kinds[copy.kind].name);
		nulls[1] = row.layout == NULL;
		values[1] = nulls[1] ? (Datum) 0 : CStringGetTextDatum(row.layout);
		nulls[2] = !row.has_node;
		values[2] = Int64GetDatum(row.node);
		nulls[3] = nulls[4] = !row.has_last;
		values[3] = Int64GetDatum(row.last_tick);
		values[4] = TimestampTzGetDatum(ulid_unix_ms_to_timestamptz(row.last_unix_ms));
		nulls[5] = !row.has_sequence;
		values[5] = Int64GetDatum(row.sequence);
		nulls[6] = row.last_id == NULL;
		values[6] = nulls[6] ? (Datum) 0 : CStringGetTextDatum(row.last_id);
		values[7] = Int64GetDatum((int64) copy.issued);
		values[8] = Int64GetDatum((int64) copy.borrows);
		values[9] = Int64GetDatum((int64) copy.waits);
		values[10] = Int64GetDatum((int64) copy.failures);
		nulls[11] = durable == 0;
		values[11] = TimestampTzGetDatum(ulid_unix_ms_to_timestamptz(durable));
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
