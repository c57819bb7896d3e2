/*-------------------------------------------------------------------------
 *
 * state_table.c
 *	  The shared table of generator states: its memory, the index that
 *	  finds a state by (kind, key), the per-role quota, and how a state
 *	  gives way to a new one.  The floors built on it: floors.c.
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
 * role table (the same kind of table: role -> number of states it created),
 * then the gone floors (the capacity rounded up to a power of two, one
 * Unix millisecond each: see GIVING WAY).  Slot 0 is gen_monotonic_ulid()'s,
 * created at startup and never given away, so that generator never fails
 * for want of a state.
 * Memory: a state takes 256 bytes (two of PostgreSQL's 128-byte cache
 * lines), plus 40 bytes of tables (two index entries of 4 bytes, two
 * role-table entries of 8 bytes, a gone floor and its lead of 8 bytes each,
 * the tables sized to a power of two).  At the default 32,768 states that
 * is 9.25 MiB (8 MiB of states, 256 KiB of index, 512 KiB of role table,
 * 512 KiB of gone floors and leads; pg_shmem_allocations shows 9,699,712
 * bytes with the header), on the preload path and in the DSM segment
 * alike; Instagram's 8,192 shards on one server take 2.3 MiB.
 *
 * CAPACITY AND QUOTAS
 * No number of roles can make another role's call fail for want of a
 * state, and a superuser is never refused for capacity:
 *	- a role other than a superuser holds at most ulid.max_states_per_role
 *	  states (default 10,000: all 8,192 shards of instagram and more).  At
 *	  its quota it takes one of its own idle states (its last id more than
 *	  ULID_IDLE_MS, 1 s, behind the clock), or gets 53400 naming the
 *	  setting: the limit of that role alone;
 *	- a role within its quota, and a superuser, always get a state: a free
 *	  slot, or, when the table is full, the least recently used state gives
 *	  way, whatever its age and whoever created it.  Only slot 0 and the
 *	  states a superuser advanced (they keep their floors) never give way;
 *	  and advanced states fill at most a quarter of the table
 *	  (ulid_advanced_max(): an advance beyond it is what refuses, 53400), so
 *	  a full table always has a state that may give way.
 * Roles sharing one state (the same layout and node) share its capacity:
 * that is the state's nature, not a limit of the table.
 *
 * GIVING WAY (the protocol of a full table)
 *	1. Choosing: the least recently used state, as PostgreSQL's buffer
 *	   manager approximates it, by a clock sweep.  The sweep starts at the
 *	   hand and compares each state's issued count with swept, the count
 *	   the sweep saw the last time it passed: a state that issued since is
 *	   marked (swept = issued) and passed over, the first that did not is
 *	   chosen.  A new state starts marked, so it is passed over once.  The
 *	   generators pay nothing for this (they bump issued anyway).  A sweep
 *	   looks at SWEEP_MAX (1,024) states at most, so its cost is bounded
 *	   whatever the capacity: when all of them were used since the last
 *	   pass, the one whose last id is oldest is chosen.  The sweep takes no
 *	   lock (it reads hints, and only sweeps write swept); when four tries
 *	   in a row lose their choice to a state used meanwhile, the first
 *	   state met gives way, used or not, so a full table always yields.
 *	2. Taking: under table_lock, then the chosen state's mutex, the choice
 *	   is verified (the same incarnation, not advanced, issued unchanged)
 *	   and the state gives way: its high-water mark (last_ms + 1, when it
 *	   issued anything) is folded, as a maximum, into the gone floor of its
 *	   key's hash, its entries leave the index and its owner's count, the
 *	   incarnation changes, and the slot becomes the new key's state.
 *	3. Coming back: every new state starts at base_ms = max(start_ms, the
 *	   gone floor of its key's hash), so a key that gave way issues above
 *	   everything it issued before, whatever the clock does meanwhile (a
 *	   fresh start never lies below base_ms).  Keys sharing a gone floor
 *	   only start higher; a hot key that comes back starts on its next tick.
 *	   A gone floor is not a floor that lets a state run ahead of the clock
 *	   (trusted_ms keeps start_ms, the part that is): what lies beyond it
 *	   follows the clock policy (gen_snowflake.c), so giving way and coming
 *	   back, however often, never carries a state further ahead of the clock
 *	   than its borrowing allowance and a tick.
 *	4. A backend that cached a pointer to a state that gave way sees the
 *	   incarnation changed under the state's spinlock and looks the key up
 *	   again (the generators' STALE path).
 * The gone floors live in shared memory: after a restart or a crash they are
 * gone, and they need not survive.  Every id a state that is not advanced
 * issued lies below the server-wide floor persisted in the floor file
 * (floors.c: no such id is issued until the file says so), and start_ms
 * starts there; advanced states never give way and the file keeps their own
 * floors.  So across a clean restart, an immediate shutdown or the kill -9
 * of a backend, every key, whether it gave way or not, starts above every
 * id it issued.
 *
 * LOCKING PROTOCOL
 *	- table_lock (spinlock) protects the index, the role table, the gone
 *	  floors, the slots' keys, owners and incarnations, nused and start_ms.
 *	  It is held for a hash probe and a few stores: never for a scan of the
 *	  slots.
 *	  A lookup takes it too; backends cache what they found, so a generator
 *	  takes it only on its first call for a key.
 *	- each state's mutex (spinlock) protects its words, flags, floors and
 *	  counters.  A generator holds it for a few dozen instructions: check the
 *	  incarnation, read the words, compute the next id, ulid_floor_check(),
 *	  store.  No allocation, error, system call or other lock inside; the
 *	  clock is read and randomness drawn before taking it.  So the cost per
 *	  id is one uncontended spinlock, never an LWLock, a buffer lock or WAL.
 *	  Giving way takes a state's mutex while holding table_lock (that order,
 *	  and only there), and verifies there what the lock-free sweep chose.
 *
 *-------------------------------------------------------------------------
 */
#include "ulid.h"

#include "catalog/pg_authid_d.h"
#include "common/hashfn.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "port/pg_bitutils.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "utils/acl.h"
#include "utils/guc.h"

#include "floor_file.h"
#include "floors.h"
#include "modules.h"
#include "state_table.h"

#define ULID_SHMEM_MAGIC		0x554C4944	/* "ULID" */
#define ULID_SHMEM_VERSION		5
#define ULID_SHMEM_NAME			"ulid generator state"
#define ULID_DSM_NAME			"ulid generator state v5"
#define ULID_DEFAULT_STATES		32768
#define ULID_DEFAULT_ROLE_STATES 10000

/* a role at its quota may take its own state this far behind the clock */
#define ULID_IDLE_MS			1000

/* the most states one sweep of a full table looks at (GIVING WAY) */
#define SWEEP_MAX				1024


typedef struct UlidRoleCount
{
	Oid			role;			/* InvalidOid: empty */
	uint32		count;
} UlidRoleCount;

StaticAssertDecl(offsetof(UlidGenState, issued) + sizeof(uint64) <= PG_CACHE_LINE_SIZE,
				 "the fields every call touches fit one cache line");
StaticAssertDecl(ULID_STATE_KEY_BYTES == ULID_FLOOR_KEY_BYTES,
				 "the floor file stores whole keys");

#define HEADER_SIZE		ULID_SHARED_HEADER_SIZE
#define SLOT(hdr, i)	ULID_SLOT(hdr, i)
#define INDEX(hdr)		((uint32 *) ((char *) (hdr) + HEADER_SIZE + \
									 (Size) (hdr)->capacity * sizeof(UlidSlot)))
#define ROLES(hdr)		((UlidRoleCount *) (INDEX(hdr) + (hdr)->index_size))
#define GONE(hdr)		((int64 *) (ROLES(hdr) + (hdr)->index_size))
#define GONE_LEAD(hdr)	(GONE(hdr) + (hdr)->gone_size)

/* this process's view of the shared state; NULL until found */
UlidSharedHeader *ulid_shared = NULL;

static int	max_states = ULID_DEFAULT_STATES;
static int	max_role_states = ULID_DEFAULT_ROLE_STATES;
static bool preloaded = false;	/* loaded through shared_preload_libraries */

static shmem_request_hook_type prev_shmem_request_hook = NULL;
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

static uint32
state_index_size_for(uint32 capacity)
{
	return pg_nextpower2_32(capacity * 2);
}

static uint32
gone_size_for(uint32 capacity)
{
	return pg_nextpower2_32(capacity);
}

static Size
shared_size(uint32 capacity)
{
	uint32		isize = state_index_size_for(capacity);
	Size		sz = HEADER_SIZE;

	sz = add_size(sz, mul_size(capacity, sizeof(UlidSlot)));
	sz = add_size(sz, mul_size(isize, sizeof(uint32)));
	sz = add_size(sz, mul_size(isize, sizeof(UlidRoleCount)));
	sz = add_size(sz, mul_size(gone_size_for(capacity), 2 * sizeof(int64)));
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
fill_slot(UlidGenState *st, uint32 kind, const uint8 *key, uint32 h,
		  Oid owner, int64 base_ms, int64 trusted_ms, int64 lead_ms, int64 now)
{
	st->valid = false;
	st->advanced = false;
	st->ahead = false;
	st->ahead_logged = false;
	memset(st->word, 0, sizeof(st->word));
	st->last_ms = now;
	st->base_ms = base_ms;
	st->pre_advance_ms = base_ms;
	st->trusted_ms = Min(trusted_ms, base_ms);
	st->lead_ms = lead_ms;
	st->own_floor = 0;
	st->issued = st->borrows = st->waits = st->failures = 0;
	st->swept = PG_UINT64_MAX;	/* a new state passes the sweep once */
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
	fill_slot(st, kind, key, h, owner, base_ms, hdr->start_ms,
			  GONE_LEAD(hdr)[h & (hdr->gone_size - 1)], now);
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
	hdr->gone_size = gone_size_for(capacity);
	if (!pg_strong_random(&hdr->seed, sizeof(hdr->seed)))
		hdr->seed = (uint64) now ^ ((uint64) MyProcPid << 32);
	SpinLockInit(&hdr->table_lock);
	pg_atomic_init_u32(&hdr->hand, 1);
	pg_atomic_init_u64(&hdr->reclaims, 0);
	ulid_floor_writer_init(hdr);
	pg_atomic_init_u32(&hdr->lowerings, 0);

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
				 errdetail("gen_monotonic_ulid() and snowflake_next() start from the clock. In a new cluster (initdb) that is expected; after pg_upgrade, a restore or a deletion of the file, ids issued before this start are not known to lie below the clock."),
				 errhint("After pg_upgrade or a restore, stop the server and copy the old data directory's ulid_floor (and ulid_keyring, if any) here before applications write, or run SELECT ulid_floor_repair('<a time after every id issued>').")));
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
		if (floor > now + ULID_FAR_AHEAD_MS)
			ereport(WARNING,
					(errmsg("ulid restart floor file \"%s\" holds a floor more than a day ahead of the clock: %s",
							ulid_floor_file_path(), ulid_iso_or_ms(floor)),
					 errdetail("Every generator issues above it, so new ids lie at that time. A floor that far ahead comes from a clock that jumped ahead while ids were issued, or from a file copied from elsewhere."),
					 errhint("If no id was issued that late, lower it: SELECT ulid_floor_repair(now(), lower => true); (it says which guarantee that drops).")));
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
			st->trusted_ms = Max(st->trusted_ms, (int64) e->ms);
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
	ulid_shared = ShmemInitStruct(ULID_SHMEM_NAME, shared_size(max_states), &found);
	if (!found)
		init_shared(ulid_shared, max_states);
	LWLockRelease(AddinShmemInitLock);
}

void
ulid_state_table_init(void)
{
	DefineCustomIntVariable("ulid.max_states_per_role",
							"Number of shared generator states one role other than a superuser may create.",
							"At it, a role takes its own states idle for a second. In a full table of ulid.max_generator_states, the least recently used state gives way.",
							&max_role_states,
							ULID_DEFAULT_ROLE_STATES, 1, INT_MAX,
							PGC_SIGHUP, 0,
							NULL, NULL, NULL);

	/* a PGC_POSTMASTER setting may only be defined while preloading */
	if (!process_shared_preload_libraries_in_progress)
		return;

	DefineCustomIntVariable("ulid.max_generator_states",
							"Number of shared generator states (one for gen_monotonic_ulid(), one per Snowflake bit structure and node).",
							"Each takes 256 bytes of shared memory and 40 bytes of tables. Only settable at server start.",
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
			 errhint("Add ulid to shared_preload_libraries in postgresql.conf, keeping the libraries it lists (shared_preload_libraries = 'ulid' if it lists none), then restart the server.") :
			 libs[0] == '\0' ?
			 errhint("Add ulid to shared_preload_libraries in postgresql.conf (it lists no library now: shared_preload_libraries = 'ulid'), then restart the server.") :
			 errhint("Add ulid to shared_preload_libraries in postgresql.conf, keeping the libraries it lists now: shared_preload_libraries = '%s, ulid'; then restart the server.",
					 libs)));
}
#endif

bool
ulid_shared_unavailable(void)
{
#ifdef ULID_HAS_DSM_REGISTRY
	return false;
#else
	return !preloaded;
#endif
}

/* The shared structure: the preloaded one, the DSM segment, or ERROR. */
UlidSharedHeader *
ulid_shared_get(void)
{
	if (likely(ulid_shared != NULL))
		return ulid_shared;
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
		ulid_shared = hdr;
	}
#else
	report_unavailable();
#endif
	return ulid_shared;
}

/* ---- finding and creating states --------------------------------------- */

/* A state nobody has used for ULID_IDLE_MS (the quota's test). */
static inline bool
is_idle(const UlidGenState *st, int64 now)
{
	return !st->advanced && st->last_ms < now - ULID_IDLE_MS;
}

/*
 * An idle slot of owner to take for the owner's new key (it is at its
 * quota), found without the table lock: a hint the caller verifies.  -1 if
 * none.
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

		if (i == 0 || st->owner != owner)
			continue;
		if (is_idle(st, now))
		{
			*incarnation = st->incarnation;
			return (int) i;
		}
	}
	return -1;
}

/*
 * The clock sweep of a full table: the least recently used state, found
 * without any lock (a hint the caller verifies under the locks).  From the
 * hand on, a state that issued an id since the hand last passed it (issued
 * differs from swept) is marked (swept = issued) and passed over; the
 * first one that did not is chosen, with its incarnation and issued count.
 * A sweep looks at SWEEP_MAX states at most: when every one was used since
 * the last pass, the one among them whose last id is oldest is chosen.
 * With forced, the first state that may give way is chosen, used or not.
 * Slot 0 and advanced states never give way; -1 when no other state exists.
 */
static int
sweep(UlidSharedHeader *hdr, bool forced, uint32 *incarnation, uint64 *issued)
{
	uint32		n = hdr->nused;
	uint32		start = pg_atomic_read_u32(&hdr->hand);
	uint32		limit = Min(2 * n, SWEEP_MAX);
	int			oldest = -1;
	int64		oldest_ms = PG_INT64_MAX;

	for (uint32 k = 0; k < limit; k++)
	{
		uint32		i = (start + k) % n;
		volatile UlidGenState *st = SLOT(hdr, i);
		uint64		used;

		if (i == 0 || st->advanced)
			continue;
		used = st->issued;
		if (forced || used == st->swept)
		{
			pg_atomic_write_u32(&hdr->hand, (i + 1) % n);
			*incarnation = st->incarnation;
			*issued = used;
			return (int) i;
		}
		st->swept = used;
		if (st->last_ms < oldest_ms)
		{
			oldest = (int) i;
			oldest_ms = st->last_ms;
		}
	}
	if (oldest >= 0)
	{
		volatile UlidGenState *st = SLOT(hdr, oldest);

		pg_atomic_write_u32(&hdr->hand, (start + limit) % n);
		*incarnation = st->incarnation;
		*issued = st->issued;
	}
	return oldest;
}

/*
 * The floor of the states that gave way with key hash h: a new state of a
 * key with that hash starts at or above it.
 */
static inline int64 *
gone_floor(UlidSharedHeader *hdr, uint32 h)
{
	return &GONE(hdr)[h & (hdr->gone_size - 1)];
}

/* Where a new state of a key with hash h starts (under table_lock). */
static inline int64
start_of(UlidSharedHeader *hdr, uint32 h)
{
	return Max(hdr->start_ms, *gone_floor(hdr, h));
}

/*
 * Slot i's state gives way to (kind, key, h) of role.  The caller holds
 * table_lock and the victim's mutex, and verified that it may.
 */
static void
give_way(UlidSharedHeader *hdr, int i, uint32 kind, const uint8 *key,
		 uint32 h, Oid role, int64 now)
{
	UlidGenState *victim = SLOT(hdr, i);

	/* everything it issued lies below its last ms + 1 (see GIVING WAY) */
	if (victim->issued > 0)
	{
		int64	   *gone = gone_floor(hdr, victim->hash);
		int64	   *lead = &GONE_LEAD(hdr)[victim->hash & (hdr->gone_size - 1)];

		*gone = Max(*gone, victim->last_ms + 1);
		*lead = Max(*lead, victim->lead_ms);
	}
	state_index_delete(hdr, i);
	role_add(hdr, victim->owner, -1);
	victim->incarnation++;
	fill_slot(victim, kind, key, h, role, start_of(hdr, h), hdr->start_ms,
			  GONE_LEAD(hdr)[h & (hdr->gone_size - 1)], now);
	state_index_insert(hdr, i);
	role_add(hdr, role, 1);
	pg_atomic_fetch_add_u64(&hdr->reclaims, 1);
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
			 errmsg("all %u ulid generator states are advanced", hdr->capacity),
			 errdetail("Every state but gen_monotonic_ulid()'s was advanced by a superuser (snowflake_advance(), cosid80_advance()); an advanced state keeps its floor and never gives way to a new one."),
			 preloaded ?
			 errhint("Undo the advances no longer needed with snowflake_reset() or cosid80_reset(), or raise ulid.max_generator_states in postgresql.conf and restart the server.") :
			 errhint("Undo the advances no longer needed with snowflake_reset() or cosid80_reset(), or load ulid through shared_preload_libraries and set ulid.max_generator_states in postgresql.conf.")));
}

/* tries of a full table before the first state met gives way, used or not */
#define SWEEPS_BEFORE_FORCING	4

UlidGenState *
ulid_state_get(UlidStateKind kind, const uint8 key[ULID_STATE_KEY_BYTES],
			   uint32 *incarnation)
{
	UlidSharedHeader *hdr = ulid_shared_get();
	uint32		h = key_hash(hdr, kind, key);
	Oid			role = GetUserId();
	bool		limited = !superuser();

	for (int attempt = 0;; attempt++)
	{
		int64		now = ulid_clock_now_ms();
		int			slot;
		uint32		held;
		uint32		victim_inc = 0;
		uint64		victim_issued = 0;
		int			victim;
		bool		quota;
		bool		forced = attempt >= SWEEPS_BEFORE_FORCING;
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
			st = new_slot(hdr, kind, key, h, role, start_of(hdr, h), now);
			*incarnation = st->incarnation;
			SpinLockRelease(&hdr->table_lock);
			return st;
		}
		SpinLockRelease(&hdr->table_lock);

		/*
		 * At its quota, the role's own idle state; in a full table, the
		 * least recently used state, whatever its age.
		 */
		if (quota)
		{
			victim = find_idle(hdr, role, now, &victim_inc);
			if (victim < 0 || attempt >= 8)
				report_full(hdr, true, role, held);
		}
		else
		{
			victim = sweep(hdr, forced, &victim_inc, &victim_issued);
			if (victim < 0)
				report_full(hdr, false, role, held);
		}

		SpinLockAcquire(&hdr->table_lock);
		if (state_index_find(hdr, kind, key, h) < 0)
		{
			st = SLOT(hdr, victim);
			SpinLockAcquire(&st->mutex);
			if (st->incarnation == victim_inc && !st->advanced &&
				(quota ? is_idle(st, now) : forced || st->issued == victim_issued))
			{
				give_way(hdr, victim, kind, key, h, role, now);
				*incarnation = st->incarnation;
			}
			else
				st = NULL;		/* used or taken meanwhile */
			SpinLockRelease(&SLOT(hdr, victim)->mutex);
		}
		SpinLockRelease(&hdr->table_lock);
		if (st != NULL)
			return st;
		/* lost a race (the key was created, or the slot used): again */
		CHECK_FOR_INTERRUPTS();
	}
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

UlidGenState *
ulid_state_restore(UlidSharedHeader *hdr, uint32 kind, const uint8 *key,
				   int64 floor)
{
	uint32		h = key_hash(hdr, kind, key);
	int			slot;
	UlidGenState *st = NULL;

	SpinLockAcquire(&hdr->table_lock);
	slot = state_index_find(hdr, kind, key, h);
	if (slot >= 0)
		st = SLOT(hdr, slot);
	else if (hdr->nused < hdr->capacity)
		st = new_slot(hdr, kind, key, h, InvalidOid, start_of(hdr, h),
					  ulid_clock_now_ms());
	else
	{
		/* the key's state, when created, starts above floor */
		int64	   *gone = gone_floor(hdr, h);

		*gone = Max(*gone, floor);
	}
	SpinLockRelease(&hdr->table_lock);
	return st;
}

void
ulid_state_table_lower(UlidSharedHeader *hdr, int64 floor)
{
	SpinLockAcquire(&hdr->table_lock);
	hdr->start_ms = floor;
	memset(GONE(hdr), 0, 2 * hdr->gone_size * sizeof(int64));
	for (uint32 i = 0; i < hdr->nused; i++)
	{
		UlidGenState *st = SLOT(hdr, i);

		SpinLockAcquire(&st->mutex);
		st->valid = false;
		memset(st->word, 0, sizeof(st->word));
		st->advanced = false;
		st->ahead = false;
		st->ahead_logged = false;
		st->own_floor = 0;
		st->lead_ms = 0;
		st->base_ms = st->trusted_ms = st->pre_advance_ms = floor;
		st->last_ms = Min(st->last_ms, floor);
		SpinLockRelease(&st->mutex);
	}
	hdr->nadvanced = 0;
	pg_atomic_fetch_add_u32(&hdr->lowerings, 1);
	SpinLockRelease(&hdr->table_lock);
}
