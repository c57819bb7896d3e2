/*-------------------------------------------------------------------------
 *
 * shmem.c
 *	  Shared generator state: a table of keyed states in shared memory,
 *	  their floors, and the persisted floor file that makes restarts safe.
 *
 * WHERE THE MEMORY COMES FROM
 * With shared_preload_libraries = 'ulid' (15+), room for
 * ulid.max_generator_states states is requested in shmem_request_hook and
 * initialised in shmem_startup_hook, which the postmaster runs at start and
 * again after every crash.  On PostgreSQL 17+ without preloading, the first
 * backend that needs it creates a DSM-registry segment (GetNamedDSMSegment)
 * named ULID_DSM_NAME, with ULID_DEFAULT_STATES states, and every backend
 * attaches to it.  The name carries the layout version and the header
 * carries a magic number, the version, the capacity and the size, checked
 * on attach, so a library with another layout never misreads a segment.
 * Elsewhere (15 and 16 without preloading) every function that needs the
 * state fails with 55000 and a hint giving the exact setting: never a crash,
 * never a per-backend fallback.
 *
 * LAYOUT
 * A header, then `capacity` slots of UlidGenState (each padded to whole
 * cache lines so that two states never share one), then the index (an
 * open-addressing hash table of slot numbers, twice the capacity rounded up
 * to a power of two, keyed by a hash of kind and key seeded at startup from
 * pg_strong_random, so that nobody can choose keys that collide), then the
 * role table (the same kind of table: role -> number of states it created).
 * Slot 0 is gen_monotonic_ulid()'s, created at startup and never reclaimed,
 * so that generator never fails for want of a state.
 * Memory: a state takes 128 bytes, plus 12 bytes of index (the index and
 * role-table entries of 4 and 8 bytes, two per state, the tables sized to a
 * power of two).  At the default 32,768 states that is 4.75 MiB (4 MiB of
 * states, 256 KiB of index, 512 KiB of role table), on the preload path and
 * in the DSM segment alike; Instagram's 8,192 shards on one server take
 * 1 MiB.
 *
 * CAPACITY, QUOTAS AND RECLAIMING
 * No ordinary role can make another role's calls fail for want of a state:
 *	- a role other than a superuser creates at most ulid.max_states_per_role
 *	  states (default 10,000: all 8,192 shards of instagram and more), well
 *	  below the capacity (default 32,768), so one role can never fill the
 *	  table;
 *	- a state whose last id is more than ULID_IDLE_MS (1 s) behind the clock
 *	  is idle, and may be reclaimed for a new key: first among the creating
 *	  role's own states when it is at its quota, otherwise among anyone's
 *	  when the table is full.  Advanced states and slot 0 are never
 *	  reclaimed.  A scan for an idle state starts where the last one ended
 *	  (a clock hand) and runs without the table lock; the chosen slot is
 *	  verified under it.
 * The ids of a reclaimed state all lie below reclaimed_ms (its last ms + 1,
 * taken as a maximum over every reclaim), and every state created later
 * starts at base_ms = max(start floor, reclaimed_ms).  Since only states
 * idle for a second are reclaimed, reclaimed_ms stays behind the clock: it
 * only matters when the clock is later set back, and then it keeps a
 * re-created key above what it issued before.  A backend that cached a
 * pointer to a reclaimed slot sees the slot's incarnation changed under its
 * spinlock and looks the key up again.
 * Roles sharing one state (the same layout and node) share its capacity:
 * that is the state's nature, not a limit of the table.
 *
 * LOCKING PROTOCOL
 *	- table_lock (spinlock) protects the index, the role table, the slots'
 *	  keys, owners and incarnations, nused, start_ms and reclaimed_ms.  It is
 *	  held for a hash probe and a few stores: never for a scan of the slots.
 *	  A lookup takes it too; backends cache what they found, so a generator
 *	  takes it only on its first call for a key.
 *	- each state's mutex (spinlock) protects its words, flags, floors and
 *	  counters.  A generator holds it for a few dozen instructions: check the
 *	  incarnation, read the words, compute the next id, ulid_floor_check(),
 *	  store.  No allocation, error, system call or other lock inside; the
 *	  clock is read and randomness drawn before taking it.  So the cost per
 *	  id is one uncontended spinlock, never an LWLock, a buffer lock or WAL.
 *	  Reclaiming takes a state's mutex while holding table_lock (that order,
 *	  and only there).
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
 * A hot standby has its own shared memory and its own floor file (a base
 * backup starts it from the primary's): it issues ids ordered within the
 * standby, not with the primary's.
 *
 *-------------------------------------------------------------------------
 */
#include "ulid.h"

#include "catalog/pg_authid_d.h"
#include "common/hashfn.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "port/pg_bitutils.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"

#include "floor_file.h"
#include "shmem.h"

#define ULID_SHMEM_MAGIC		0x554C4944	/* "ULID" */
#define ULID_SHMEM_VERSION		2
#define ULID_SHMEM_NAME			"ulid generator state"
#define ULID_DSM_NAME			"ulid generator state v2"
#define ULID_DEFAULT_STATES		32768
#define ULID_DEFAULT_ROLE_STATES 10000

/* a state whose last id is this far behind the clock may be reclaimed */
#define ULID_IDLE_MS			1000

#define DAMAGE_MAX				256

typedef struct UlidRoleCount
{
	Oid			role;			/* InvalidOid: empty */
	uint32		count;
} UlidRoleCount;

typedef struct UlidSharedHeader
{
	uint32		magic;
	uint32		version;
	uint64		size;			/* of the whole structure */
	uint32		capacity;		/* slots */
	uint32		index_size;		/* entries of the index and the role table */
	uint64		seed;			/* of the index's hash */
	slock_t		table_lock;
	uint32		nused;			/* slots ever handed out */
	int64		start_ms;		/* base of a state created now */
	int64		reclaimed_ms;	/* above every id of a reclaimed state */
	uint32		nadvanced;		/* states advanced (under writing) */
	pg_atomic_uint32 hand;		/* where the next idle scan starts */
	pg_atomic_uint64 reclaims;	/* states reclaimed since start */
	pg_atomic_uint64 durable_ms;	/* the server-wide floor last persisted */
	pg_atomic_uint32 writing;	/* 1 while a backend writes the floor file */
	bool		damaged;		/* the file was damaged: refuse to issue */
	char		damage[DAMAGE_MAX]; /* what was wrong with it */
} UlidSharedHeader;

/* a slot: one state, padded to whole cache lines */
typedef union UlidSlot
{
	UlidGenState state;
	char		pad[TYPEALIGN(PG_CACHE_LINE_SIZE, sizeof(UlidGenState))];
} UlidSlot;

StaticAssertDecl(offsetof(UlidGenState, issued) + sizeof(uint64) <= PG_CACHE_LINE_SIZE,
				 "the fields every call touches fit one cache line");
StaticAssertDecl(ULID_STATE_KEY_BYTES == ULID_FLOOR_KEY_BYTES,
				 "the floor file stores whole keys");

#define HEADER_SIZE		CACHELINEALIGN(sizeof(UlidSharedHeader))
#define SLOT(hdr, i)	(&((UlidSlot *) ((char *) (hdr) + HEADER_SIZE))[i].state)
#define INDEX(hdr)		((uint32 *) ((char *) (hdr) + HEADER_SIZE + \
									 (Size) (hdr)->capacity * sizeof(UlidSlot)))
#define ROLES(hdr)		((UlidRoleCount *) (INDEX(hdr) + (hdr)->index_size))

/* this process's view of the shared state; NULL until found */
static UlidSharedHeader *shared = NULL;

static int	max_states = ULID_DEFAULT_STATES;
static int	max_role_states = ULID_DEFAULT_ROLE_STATES;
static bool preloaded = false;	/* loaded through shared_preload_libraries */

static shmem_request_hook_type prev_shmem_request_hook = NULL;
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

/* the kinds this library knows, registered by _PG_init */
static struct
{
	const char *name;
	UlidStateDescribe describe;
}			kinds[ULID_STATE_KINDS];

static uint32
state_index_size_for(uint32 capacity)
{
	return pg_nextpower2_32(capacity * 2);
}

static Size
shared_size(uint32 capacity)
{
	uint32		isize = state_index_size_for(capacity);
	Size		sz = HEADER_SIZE;

	sz = add_size(sz, mul_size(capacity, sizeof(UlidSlot)));
	sz = add_size(sz, mul_size(isize, sizeof(uint32)));
	sz = add_size(sz, mul_size(isize, sizeof(UlidRoleCount)));
	return sz;
}

/* ---- the index and the role table (callers hold table_lock) ---------- */

static uint32
key_hash(const UlidSharedHeader *hdr, uint32 kind, const uint8 *key)
{
	return (uint32) hash_bytes_extended(key, ULID_STATE_KEY_BYTES, hdr->seed + kind);
}

static uint32
role_hash(const UlidSharedHeader *hdr, Oid role)
{
	return murmurhash32((uint32) role ^ (uint32) hdr->seed);
}

/* The slot of (kind, key), or -1. */
static int
state_index_find(UlidSharedHeader *hdr, uint32 kind, const uint8 *key, uint32 h)
{
	uint32	   *idx = INDEX(hdr);
	uint32		mask = hdr->index_size - 1;

	for (uint32 i = h & mask;; i = (i + 1) & mask)
	{
		UlidGenState *st;

		if (idx[i] == 0)
			return -1;
		st = SLOT(hdr, idx[i] - 1);
		if (st->hash == h && st->kind == kind &&
			memcmp(st->key, key, ULID_STATE_KEY_BYTES) == 0)
			return (int) idx[i] - 1;
	}
}

static void
state_index_insert(UlidSharedHeader *hdr, int slot)
{
	uint32	   *idx = INDEX(hdr);
	uint32		mask = hdr->index_size - 1;
	uint32		i = SLOT(hdr, slot)->hash & mask;

	while (idx[i] != 0)
		i = (i + 1) & mask;
	idx[i] = (uint32) slot + 1;
}

/*
 * Remove entry i of a linear-probing table of n (a power of two) entries
 * by shifting back the entries after it, so no tombstone is needed.
 * home(j) is where entry j's hash puts it; clear(i) empties entry i;
 * move(to, from) copies an entry.
 */
#define BACKSHIFT_DELETE(n, i, is_empty, home, move, clear) \
	do { \
		uint32		mask_ = (n) - 1; \
		uint32		hole_ = (i); \
		for (uint32 j_ = (hole_ + 1) & mask_; !(is_empty(j_)); j_ = (j_ + 1) & mask_) \
		{ \
			uint32		k_ = home(j_) & mask_; \
			/* move j_ into the hole unless its home lies after the hole */ \
			if (((j_ - k_) & mask_) >= ((j_ - hole_) & mask_)) \
			{ \
				move(hole_, j_); \
				hole_ = j_; \
			} \
		} \
		clear(hole_); \
	} while (0)

static void
state_index_delete(UlidSharedHeader *hdr, int slot)
{
	uint32	   *idx = INDEX(hdr);
	uint32		mask = hdr->index_size - 1;
	uint32		i = SLOT(hdr, slot)->hash & mask;

	while (idx[i] != (uint32) slot + 1)
		i = (i + 1) & mask;
#define IDX_EMPTY(j)	(idx[j] == 0)
#define IDX_HOME(j)		(SLOT(hdr, idx[j] - 1)->hash)
#define IDX_MOVE(a, b)	(idx[a] = idx[b])
#define IDX_CLEAR(a)	(idx[a] = 0)
	BACKSHIFT_DELETE(hdr->index_size, i, IDX_EMPTY, IDX_HOME, IDX_MOVE, IDX_CLEAR);
}

/* The role table's entry of role, or the empty entry where it would go. */
static uint32
role_entry(UlidSharedHeader *hdr, Oid role)
{
	UlidRoleCount *roles = ROLES(hdr);
	uint32		mask = hdr->index_size - 1;
	uint32		i = role_hash(hdr, role) & mask;

	while (roles[i].role != InvalidOid && roles[i].role != role)
		i = (i + 1) & mask;
	return i;
}

static uint32
role_count(UlidSharedHeader *hdr, Oid role)
{
	UlidRoleCount *roles = ROLES(hdr);

	return roles[role_entry(hdr, role)].count;
}

static void
role_add(UlidSharedHeader *hdr, Oid role, int delta)
{
	UlidRoleCount *roles = ROLES(hdr);
	uint32		i;

	if (role == InvalidOid)
		return;					/* states created at startup */
	i = role_entry(hdr, role);
	roles[i].role = role;
	roles[i].count += delta;
	if (roles[i].count == 0)
	{
#define ROLE_EMPTY(j)	(roles[j].role == InvalidOid)
#define ROLE_HOME(j)	role_hash(hdr, roles[j].role)
#define ROLE_MOVE(a, b) (roles[a] = roles[b])
#define ROLE_CLEAR(a)	(roles[a].role = InvalidOid, roles[a].count = 0)
		BACKSHIFT_DELETE(hdr->index_size, i, ROLE_EMPTY, ROLE_HOME, ROLE_MOVE, ROLE_CLEAR);
	}
}

/*
 * Give slot i to (kind, key) for owner: its fields as a new state's.  The
 * caller holds table_lock; st->mutex too unless the slot is new.
 */
static void
fill_slot(UlidGenState *st, uint32 kind,
		  const uint8 *key, uint32 h, Oid owner, int64 base_ms, int64 now)
{
	st->valid = false;
	st->advanced = false;
	memset(st->word, 0, sizeof(st->word));
	st->last_ms = now;
	st->base_ms = base_ms;
	st->pre_advance_ms = base_ms;
	st->own_floor = 0;
	st->issued = st->borrows = st->waits = st->failures = 0;
	st->kind = kind;
	st->hash = h;
	st->owner = owner;
	memcpy(st->key, key, ULID_STATE_KEY_BYTES);
}

/* A new slot (never used before): the caller holds table_lock. */
static UlidGenState *
new_slot(UlidSharedHeader *hdr, uint32 kind, const uint8 *key, uint32 h,
		 Oid owner, int64 base_ms, int64 now)
{
	UlidGenState *st = SLOT(hdr, hdr->nused);

	SpinLockInit(&st->mutex);
	st->incarnation = 0;
	fill_slot(st, kind, key, h, owner, base_ms, now);
	state_index_insert(hdr, (int) hdr->nused);
	role_add(hdr, owner, 1);
	hdr->nused++;
	return st;
}

/* ---- initialisation ---------------------------------------------------- */

/* Initialise a new shared structure; reads the floor file (never throws). */
static void
init_shared(UlidSharedHeader *hdr, uint32 capacity)
{
	UlidFloorRead fr;
	uint8		zero_key[ULID_STATE_KEY_BYTES] = {0};
	int64		now = ulid_clock_now_ms();
	int64		floor;

	memset(hdr, 0, shared_size(capacity));
	hdr->magic = ULID_SHMEM_MAGIC;
	hdr->version = ULID_SHMEM_VERSION;
	hdr->size = shared_size(capacity);
	hdr->capacity = capacity;
	hdr->index_size = state_index_size_for(capacity);
	if (!pg_strong_random(&hdr->seed, sizeof(hdr->seed)))
		hdr->seed = (uint64) now ^ ((uint64) MyProcPid << 32);
	SpinLockInit(&hdr->table_lock);
	pg_atomic_init_u32(&hdr->hand, 1);
	pg_atomic_init_u64(&hdr->reclaims, 0);
	pg_atomic_init_u32(&hdr->writing, 0);

	/* slot 0: gen_monotonic_ulid()'s, before anything can fill the table */
	ulid_floor_file_read(&fr, capacity - 1);
	floor = fr.status == ULID_FLOOR_READ_OK ? fr.ms : 0;
	hdr->start_ms = floor;
	pg_atomic_init_u64(&hdr->durable_ms, (uint64) floor);
	(void) new_slot(hdr, ULID_STATE_MONOTONIC_ULID, zero_key,
					key_hash(hdr, ULID_STATE_MONOTONIC_ULID, zero_key),
					InvalidOid, floor, now);

	if (fr.status == ULID_FLOOR_READ_MISSING)
		ereport(LOG,
				(errmsg("ulid restart floor file \"%s\" does not exist", ulid_floor_file_path()),
				 errdetail("gen_monotonic_ulid() and snowflake_next() start from the clock. This is expected in a new cluster; otherwise the file was deleted, and ids issued before this start are not known to lie below the clock.")));
	else if (fr.status == ULID_FLOOR_READ_DAMAGED)
	{
		hdr->damaged = true;
		strlcpy(hdr->damage, fr.problem, sizeof(hdr->damage));
		ereport(LOG,
				(errmsg("ulid restart floor file \"%s\" is damaged: %s", ulid_floor_file_path(), fr.problem),
				 errdetail("gen_monotonic_ulid() and snowflake_next() refuse to issue ids until a superuser runs ulid_floor_repair().")));
	}
	else
	{
		/* the advanced states, starting above their own floors */
		for (size_t i = 0; i < fr.nentries; i++)
		{
			ulid_floor_entry *e = &fr.entries[i];
			uint32		h;
			int			slot;
			UlidGenState *st;

			if (e->kind == 0 || e->kind >= ULID_STATE_KINDS || (int64) e->ms <= floor)
				continue;		/* unknown kind, or overtaken */
			h = key_hash(hdr, e->kind, e->key);
			slot = state_index_find(hdr, e->kind, e->key, h);
			st = slot >= 0 ? SLOT(hdr, slot) :
				new_slot(hdr, e->kind, e->key, h, InvalidOid, floor, now);
			st->base_ms = Max(st->base_ms, (int64) e->ms);
			if (!st->advanced)
				hdr->nadvanced++;
			st->advanced = true;
			st->own_floor = Max(st->own_floor, (int64) e->ms);
		}
	}
	if (fr.entries)
		pfree(fr.entries);
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
	DefineCustomIntVariable("ulid.max_states_per_role",
							"Number of shared generator states one role other than a superuser may create.",
							"States idle for a second are reclaimed when a role reaches it. Keeps one role from filling the table of ulid.max_generator_states.",
							&max_role_states,
							ULID_DEFAULT_ROLE_STATES, 1, INT_MAX,
							PGC_SIGHUP, 0,
							NULL, NULL, NULL);

	/* a PGC_POSTMASTER setting may only be defined while preloading */
	if (!process_shared_preload_libraries_in_progress)
		return;

	DefineCustomIntVariable("ulid.max_generator_states",
							"Number of shared generator states (one for gen_monotonic_ulid(), one per Snowflake bit structure and node).",
							"Each takes 128 bytes of shared memory and 12 bytes of index. Only settable at server start.",
							&max_states,
							ULID_DEFAULT_STATES, 16, 1 << 24,
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
	init_shared((UlidSharedHeader *) ptr, ULID_DEFAULT_STATES);
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

		hdr = ulid_get_named_dsm(ULID_DSM_NAME, shared_size(ULID_DEFAULT_STATES),
								 dsm_init, &found);
		if (hdr->magic != ULID_SHMEM_MAGIC || hdr->version != ULID_SHMEM_VERSION ||
			hdr->capacity != ULID_DEFAULT_STATES ||
			hdr->size != shared_size(ULID_DEFAULT_STATES))
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("ulid shared generator state has an unexpected layout"),
					 errdetail("Segment \"%s\" has magic %08X, version %u, %u states and %llu bytes; expected %08X, %u, %u and %llu.",
							   ULID_DSM_NAME, hdr->magic, hdr->version,
							   hdr->capacity, (unsigned long long) hdr->size,
							   ULID_SHMEM_MAGIC, ULID_SHMEM_VERSION,
							   ULID_DEFAULT_STATES,
							   (unsigned long long) shared_size(ULID_DEFAULT_STATES)),
					 errhint("Restart the server: another build of the ulid library created the segment.")));
		shared = hdr;
	}
#else
	report_unavailable();
#endif
	return shared;
}

/* ---- finding and creating states --------------------------------------- */

/* A state nobody has used for ULID_IDLE_MS, which may be reclaimed. */
static inline bool
is_idle(const UlidGenState *st, int64 now)
{
	return !st->advanced && st->last_ms < now - ULID_IDLE_MS;
}

/*
 * An idle slot to reclaim (of owner, unless InvalidOid), found without the
 * table lock: a hint the caller verifies.  -1 if none.
 */
static int
find_idle(UlidSharedHeader *hdr, Oid owner, int64 now, uint32 *incarnation)
{
	uint32		n = hdr->nused;
	uint32		start = pg_atomic_read_u32(&hdr->hand);

	for (uint32 k = 0; k < n; k++)
	{
		uint32		i = (start + k) % n;
		UlidGenState *st = SLOT(hdr, i);

		if (i == 0 || (owner != InvalidOid && st->owner != owner))
			continue;
		if (is_idle(st, now))
		{
			pg_atomic_write_u32(&hdr->hand, i + 1);
			*incarnation = st->incarnation;
			return (int) i;
		}
	}
	return -1;
}

static void
report_full(UlidSharedHeader *hdr, bool quota, Oid role, uint32 held)
{
	if (quota)
		ereport(ERROR,
				(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
				 errmsg("role \"%s\" has created %u ulid generator states, the most ulid.max_states_per_role allows",
						GetUserNameFromId(role, true) ? GetUserNameFromId(role, true) : "?", held),
				 errdetail("Each Snowflake bit structure and node has its own state; a role's states that have issued nothing for a second are reclaimed when it needs a new one, and none is idle now."),
				 errhint("Use fewer layouts or nodes at once, or raise ulid.max_states_per_role in postgresql.conf and reload (at most ulid.max_generator_states, %u here).",
						 hdr->capacity)));
	ereport(ERROR,
			(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
			 errmsg("all %u ulid generator states are in use", hdr->capacity),
			 errdetail("One is gen_monotonic_ulid()'s and each other one a Snowflake bit structure and node's; none has been idle for a second, so none can be reclaimed."),
			 preloaded ?
			 errhint("Raise ulid.max_generator_states in postgresql.conf and restart the server, or lower ulid.max_states_per_role.") :
			 errhint("Load ulid through shared_preload_libraries and set ulid.max_generator_states in postgresql.conf.")));
}

UlidGenState *
ulid_state_get(UlidStateKind kind, const uint8 key[ULID_STATE_KEY_BYTES],
			   uint32 *incarnation)
{
	UlidSharedHeader *hdr = get_shared();
	uint32		h = key_hash(hdr, kind, key);
	Oid			role = GetUserId();
	bool		limited = !superuser();

	for (int attempt = 0;; attempt++)
	{
		int64		now = ulid_clock_now_ms();
		int			slot;
		uint32		held;
		uint32		idle_inc = 0;
		int			idle;
		bool		quota;
		UlidGenState *st = NULL;

		SpinLockAcquire(&hdr->table_lock);
		slot = state_index_find(hdr, kind, key, h);
		if (slot >= 0)
		{
			st = SLOT(hdr, slot);
			*incarnation = st->incarnation;
			SpinLockRelease(&hdr->table_lock);
			return st;
		}
		held = role_count(hdr, role);
		quota = limited && held >= (uint32) max_role_states;
		if (!quota && hdr->nused < hdr->capacity)
		{
			st = new_slot(hdr, kind, key, h, role,
						  Max(hdr->start_ms, hdr->reclaimed_ms), now);
			*incarnation = st->incarnation;
			SpinLockRelease(&hdr->table_lock);
			return st;
		}
		SpinLockRelease(&hdr->table_lock);

		/* reclaim an idle state: the role's own at its quota, else anyone's */
		idle = find_idle(hdr, quota ? role : InvalidOid, now, &idle_inc);
		if (idle < 0 || attempt >= 8)
			report_full(hdr, quota, role, held);

		SpinLockAcquire(&hdr->table_lock);
		if (state_index_find(hdr, kind, key, h) < 0)
		{
			UlidGenState *victim = SLOT(hdr, idle);

			SpinLockAcquire(&victim->mutex);
			if (victim->incarnation == idle_inc && is_idle(victim, now))
			{
				if (victim->valid)
					hdr->reclaimed_ms = Max(hdr->reclaimed_ms, victim->last_ms + 1);
				state_index_delete(hdr, idle);
				role_add(hdr, victim->owner, -1);
				victim->incarnation++;
				fill_slot(victim, kind, key, h, role,
						  Max(hdr->start_ms, hdr->reclaimed_ms), now);
				state_index_insert(hdr, idle);
				role_add(hdr, role, 1);
				pg_atomic_fetch_add_u64(&hdr->reclaims, 1);
				st = victim;
				*incarnation = st->incarnation;
			}
			SpinLockRelease(&victim->mutex);
		}
		SpinLockRelease(&hdr->table_lock);
		if (st != NULL)
			return st;
		/* lost a race (the key was created, or the slot used): again */
	}
}

/* ---- floors -------------------------------------------------------------- */

pg_atomic_uint64 *
ulid_floor_durable(void)
{
	return &get_shared()->durable_ms;
}

UlidFloorCheck
ulid_floor_check(const UlidGenState *st, int64 ms, int64 now, bool *own)
{
	int64		durable = (int64) pg_atomic_read_u64(&shared->durable_ms);
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

/* The floor that covers st's ids: its own (own) or the server-wide one. */
static int64
floor_of(UlidSharedHeader *hdr, UlidGenState *st, bool own)
{
	int64		v;

	if (!own)
		return (int64) pg_atomic_read_u64(&hdr->durable_ms);
	SpinLockAcquire(&st->mutex);
	v = st->own_floor;
	SpinLockRelease(&st->mutex);
	return v;
}

/*
 * Acquire the writer's try-lock.  With st, return false instead once the
 * floor floor_of(st, own) exceeds needed; without wait, also when another
 * backend holds it.
 */
static bool
acquire_writing(UlidSharedHeader *hdr, bool wait, UlidGenState *st, bool own,
				int64 needed)
{
	for (;;)
	{
		uint32		expected = 0;

		if (st != NULL && floor_of(hdr, st, own) > needed)
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
 */
static bool
write_floors(UlidSharedHeader *hdr, int64 global, UlidGenState *req,
			 int64 req_floor, int elevel)
{
	StringInfoData buf;
	char		line[ULID_FLOOR_ENTRY_MAX];
	bool		done;

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
			SpinLockRelease(&st->mutex);
			if (st == req)
			{
				adv = true;
				e.ms = Max(e.ms, (uint64) req_floor);
			}
			if (!adv || (int64) e.ms <= global)
				continue;
			appendBinaryStringInfo(&buf, line, (int) ulid_floor_format_entry(&e, line));
		}
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
		if (st == req)
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
ulid_floor_reserve(UlidGenState *st, int64 ms, bool own, bool wait)
{
	UlidSharedHeader *hdr = get_shared();

	/* the floor is far enough when it exceeds ms (wait) or ms + reserve/2 */
	int64		needed = wait ? ms : ms + ULID_FLOOR_RESERVE_MS / 2;
	check_damaged(hdr);
	if (!acquire_writing(hdr, wait, st, own, needed))
		return;					/* far enough, or another backend writes */

	/* this backend is the writer */
	PG_TRY();
	{
		if (floor_of(hdr, st, own) <= needed)
		{
			int64		durable = (int64) pg_atomic_read_u64(&hdr->durable_ms);

			if (own)
				(void) write_floors(hdr, durable, st, ms + ULID_FLOOR_RESERVE_MS,
									wait ? ERROR : WARNING);
			else
				(void) write_floors(hdr, ms + ULID_FLOOR_RESERVE_MS, NULL, 0,
									wait ? ERROR : WARNING);
		}
	}
	PG_FINALLY();
	{
		pg_atomic_exchange_u32(&hdr->writing, 0);
	}
	PG_END_TRY();
}

bool
ulid_state_reset(UlidGenState *st, uint32 incarnation, int64 *own_floor)
{
	UlidSharedHeader *hdr = get_shared();
	bool		was = false;

	(void) acquire_writing(hdr, true, NULL, false, 0);
	PG_TRY();
	{
		SpinLockAcquire(&st->mutex);
		if (!ulid_state_stale(st, incarnation) && st->advanced)
		{
			was = true;
			*own_floor = st->own_floor;
			st->advanced = false;
			st->own_floor = 0;
			st->valid = false;
			memset(st->word, 0, sizeof(st->word));
			st->base_ms = st->pre_advance_ms;
			hdr->nadvanced--;
		}
		SpinLockRelease(&st->mutex);
		if (was)
			(void) write_floors(hdr, (int64) pg_atomic_read_u64(&hdr->durable_ms),
								NULL, 0, ERROR);
	}
	PG_FINALLY();
	{
		pg_atomic_exchange_u32(&hdr->writing, 0);
	}
	PG_END_TRY();
	return was;
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

	ulid_require_superuser("repair the ulid restart floor");
	above_ms = ulid_timestamptz_to_unix_ms(above);	/* 22008 outside ULID times */
	floor = above_ms + 1;
	hdr = get_shared();

	(void) acquire_writing(hdr, true, NULL, false, 0);
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
		(void) write_floors(hdr, global, NULL, 0, ERROR);
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
			 was_damaged ? errdetail("The damaged file was replaced; gen_monotonic_ulid() and snowflake_next() issue ids again.") : 0));
	PG_RETURN_VOID();
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
 * ERROR 42501 unless the user may read the ulid_generator_state view: a
 * superuser, a member of pg_monitor, or a role granted SELECT on the view
 * (the install script grants it to pg_monitor).
 */
static void
require_view_privilege(FunctionCallInfo fcinfo)
{
	/* the view lives in the schema of this function */
	Oid			view = get_relname_relid("ulid_generator_state",
										 get_func_namespace(fcinfo->flinfo->fn_oid));

	if (superuser() || has_privs_of_role(GetUserId(), ROLE_PG_MONITOR) ||
		(OidIsValid(view) &&
		 pg_class_aclcheck(view, GetUserId(), ACL_SELECT) == ACLCHECK_OK))
		return;
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg("permission denied to read the ulid generator state"),
			 errdetail("The view ulid_generator_state is readable by superusers, members of pg_monitor and roles granted SELECT on it."),
			 errhint("GRANT pg_monitor TO the role, or GRANT SELECT ON ulid_generator_state TO it.")));
}

/* ms as timestamptz, NULL (false) when 0 */
static bool
floor_datum(int64 ms, Datum *d)
{
	if (ms <= 0)
		return false;
	*d = TimestampTzGetDatum(ulid_unix_ms_to_timestamptz(Min(ms, ULID_MAX_UNIX_MS)));
	return true;
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
	int64		reclaims;

	require_view_privilege(fcinfo);
	hdr = get_shared();
	InitMaterializedSRF(fcinfo, 0);

	SpinLockAcquire(&hdr->table_lock);
	n = hdr->nused;
	SpinLockRelease(&hdr->table_lock);
	durable = (int64) pg_atomic_read_u64(&hdr->durable_ms);
	reclaims = (int64) pg_atomic_read_u64(&hdr->reclaims);
	for (uint32 i = 0; i < n; i++)
	{
		UlidGenState *st = SLOT(hdr, i);
		UlidGenState copy;
		UlidStateRow row = {0};
		Datum		values[14];
		bool		nulls[14] = {0};

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
		values[11] = Int64GetDatum(reclaims);
		nulls[12] = !(copy.advanced && floor_datum(copy.own_floor, &values[12]));
		nulls[13] = !floor_datum(durable, &values[13]);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
