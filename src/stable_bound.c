/*-------------------------------------------------------------------------
 *
 * stable_bound.c
 *	  ulid_stable_bound(), snowflake_stable_bound(layout, node) and
 *	  cosid80_stable_bound(node): a bound below which no row of a generator
 *	  can still appear, so that a reader
 *	  paging with
 *		WHERE id > $cursor AND id < ulid_stable_bound() ORDER BY id
 *	  in one statement never skips a row that commits late (Kafka's last
 *	  stable offset, SQL Server's MIN_ACTIVE_ROWVERSION()).
 *
 * WHAT IS RECORDED
 * Ids are positions (w0, w1), compared as an unsigned pair: a ULID's two
 * halves, a Snowflake state's (tick, sequence) (ids of one node order by
 * them in every bit order; COSID_80 is a Snowflake layout of its own kind,
 * cosid80.c).  A state is named by (kind, key).  Shared memory holds one
 * slot per PGPROC; a backend and its parallel workers use the leader's
 * slot.  A slot has
 *	- LIVE entries {seq, kind, key, owner, w0, w1, ms} (UlidBoundEntry).
 *	  seq guards kind, key and owner (odd while they change); a backend's
 *	  entries stay CLAIMED for their state across its transactions, and ms
 *	  says whether its current transaction holds one: the first id's ms, or
 *	  ULID_BOUND_INACTIVE.  The owner alone writes w0, w1, ms, and readers
 *	  skip an inactive entry as they skip a free one.  The generator writes
 *	  inside the state's spinlock, before the id leaves it, at the
 *	  transaction's first id of the state (ulid_bound_note(): ids after it
 *	  compare a backend-local pointer and branch).  The first id on the
 *	  state the backend minted on last (ulid_bound_last_st) reactivates its
 *	  entry inline: w0, w1, a write barrier (a compiler barrier on x86),
 *	  ms.  Other first ids (ulid_bound_note_first()) find the backend's
 *	  entry for the state (by kind and key), else claim a free one (a CAS on
 *	  seq: workers claim in their leader's slot at once), else recycle one
 *	  of the backend's inactive entries (seq odd while its key changes),
 *	  else lower the slot's overflow ms, which holds every state at its
 *	  first id of that ms (conservative).  The first id's ms is also the
 *	  "since" ulid_health() reports: when the transaction began to hold.
 *	  A parallel worker claims free entries of its own in its leader's
 *	  slot (never recycles) and raises the slot's foreign flag; the
 *	  leader's transaction end frees them.  A backend attaching to the slot
 *	  of a PGPROC frees the inactive entries of the process before it
 *	  (which ended its transactions, FATAL included, before its PGPROC was
 *	  reused).
 *	- ENDED entries (a ring under the slot's spinlock): {state (or "any"),
 *	  min position, ms, FullTransactionId} of the slot's committed
 *	  transactions.  At COMMIT (an xid: it wrote something) the active
 *	  entries are pushed here first, then made inactive (workers' freed); at
 *	  ABORT, or a COMMIT without an xid, they are made inactive (an aborted
 *	  row is never seen, a transaction without an xid wrote no row).  A
 *	  transaction that minted nothing (nor its workers) costs the callback a
 *	  few instructions.  A full ring merges its two oldest entries: the
 *	  smaller position (or, for two states, "any" at the smaller ms) with the
 *	  later-committed xid.  Readers drop entries whose xid is removable
 *	  (GlobalVisCheckRemovableFullXid: no snapshot sees it as running).
 *	- PREPARE: at PRE_PREPARE (where an error still aborts the PREPARE) the
 *	  active entries are written durably to $PGDATA/ulid_prepared/<fxid>
 *	  and added to the shared prepared table; then made inactive.  The files
 *	  are read back at start (after a crash restart too), so a prepared
 *	  transaction holds the bound until COMMIT/ROLLBACK PREPARED across
 *	  restarts.  A file that cannot be read holds every bound at ms 0 until
 *	  its xid ends (a stall, never a skip).
 *	A FATAL exit aborts the transaction (the callback runs); a crash restart
 *	reinitialises shared memory (no transaction survives but the prepared
 *	ones, which come back from their files).
 *
 * THE BOUND (reader, O(slots))
 *	1. under the state's spinlock: next = the last position issued + 1 (the
 *	   state's base_ms, its restart floor, if it has issued none);
 *	2. a full barrier, then every slot's live entries (seq even, kind, ms
 *	   active, a read barrier, w0 w1 key, a read barrier, seq unchanged) and
 *	   overflow ms;
 *	3. then every slot's ring, then the prepared table: an entry counts iff
 *	   its xid is not removable and the reader's statement snapshot sigma
 *	   (GetActiveSnapshot()) does not see it committed
 *	   (XidInMVCCSnapshot), or, prepared, it is still in progress;
 *	bound = min(next, every entry that counts).
 *
 * PROOF.  Let R be a row of state S with id x, written by transaction T,
 * not visible to sigma, and visible later (T commits).  We show bound <= x,
 * so "id < bound" cannot pass x and the cursor never moves beyond it.
 *	(a) x issued after step 1's spinlock section: ids of S increase, so
 *	    x >= next >= bound.
 *	(b) x issued before it: T's first id m <= x of S was issued in an
 *	    earlier spinlock section of S, which, before releasing S's spinlock,
 *	    made an entry E of T's backend (or of its worker) hold m: w0, w1,
 *	    then ms (or the overflow ms, which is <= m's ms); if E already held
 *	    a smaller first id of T, it kept it.  The reader took the spinlock
 *	    after, so at step 2 it sees E holding m with seq even and unchanged
 *	    (the key changes only when E is recycled, which needs E inactive, or
 *	    freed, which needs T ended) unless T's end made E inactive
 *	    meanwhile.  T's end pushes to the ring (COMMIT) or the prepared
 *	    table (PRE_PREPARE) before that store, and the reader reads ms
 *	    before, with read barriers, the rings and then the prepared table;
 *	    so a reader that sees E inactive (or freed, or recycled for another
 *	    state) sees T's pushed entry.  A reader whose reads of E interleave
 *	    with T's end and the next transaction's reactivation may read
 *	    positions of either, or a mix of their halves: each only lowers
 *	    the bound (a stall), and T's entry is in the ring all the same.
 *	    A pushed entry counts: T committed after sigma was taken (R is
 *	    invisible to sigma), so sigma does not see T committed, and T's xid
 *	    is not removable while sigma's backend advertises an xmin <= sigma's
 *	    xmin <= T's xid.  This is the statement-snapshot case: T commits
 *	    after sigma was taken but before the bound is computed, and still
 *	    holds it.  A merged entry counts whenever either of its parts would:
 *	    sigma seeing the later commit sees the earlier one.  A prepared T
 *	    counts while in progress and afterwards as a pushed entry.
 *	The inline path needs E inactive and E still the backend's entry for
 *	S: it runs only when S is ulid_bound_last_st and not ulid_bound_noted,
 *	i.e. after T's predecessor ended (which made E inactive) with no fresh
 *	state lookup since (ulid_bound_attach() forgets ulid_bound_last_st, so
 *	a state slot that gave way to another key is never taken for E's), and
 *	the slow path sets ulid_bound_last_st only to the state whose entry it
 *	just made hold.  An entry seen half-written (seq odd) is skipped only
 *	while it is being claimed, recycled or freed: claimed or recycled for S
 *	after step 1 (ids >= next), or freed after T ended (pushed).
 *	Several ids per transaction, ids minted before the xid (a SELECT
 *	before the INSERT) and rolled-back savepoints only make the recorded
 *	first id smaller or extra: conservative.  Rows of transactions that
 *	abort stop holding the bound at their end.
 *	Limits: ids of S must increase, which ulid_monotonic_reset(),
 *	snowflake_reset(), cosid80_reset() and ulid_floor_repair(lower) give up
 *	(they say so); and the bound is per server: a hot standby does not
 *	know the primary's transactions, so the functions refuse there (0A000).
 *
 * Cost (callgrind, PostgreSQL 15, test/bench's instructions section
 * against a -DULID_NO_STABLE_BOUND build of the same tree; "first id": one
 * call per transaction in a single-user backend, floor moves and layout
 * decoding not counted).  Later ids of a transaction: the compare and
 * branch, 2 Ir (gen_monotonic_ulid() 185 -> 187 Ir per call,
 * snowflake_next() 269 -> 268: the two instructions, 2.0 per call on
 * stable_bound.h's lines, and code placement).  A transaction's first id on
 * the state the backend minted on last: 9 Ir of the bound's own (the
 * compare, then the inline reactivation: compare with ulid_bound_last_st,
 * load the entry, store w0, w1, ms, the pointer), measured
 * gen_monotonic_ulid() 326 -> 340 (+14: the 9, and 5 of code generation in
 * the duplicated fast path: step and byte stores) and snowflake_next()
 * 500 -> 506 (+6: the 9, less 3 of code placement).  The transaction
 * callback: 22 Ir per transaction that minted nothing (two calls: four
 * compares each), 81 per transaction that minted (PRE_COMMIT takes the
 * xid; COMMIT makes the one entry inactive, pushing it first when there is
 * an xid).  Before this design (entries claimed and cleared per
 * transaction) the first id cost +240 Ir (gen_monotonic_ulid()) and +130
 * (snowflake_next()), the callback about 160.  A first id on another state
 * takes ulid_bound_note_first() (a scan of the slot's 8 entries).
 *
 *-------------------------------------------------------------------------
 */
#include "snowflake.h"

#include <sys/stat.h>
#include <unistd.h>

#include "access/parallel.h"
#include "access/transam.h"
#include "access/twophase.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "miscadmin.h"
#include "port/pg_crc32c.h"
#include "storage/fd.h"
#include "storage/ipc.h"
#include "storage/proc.h"
#include "storage/procarray.h"
#include "storage/shmem.h"
#include "utils/snapmgr.h"

#include "node.h"
#include "stable_bound.h"

#define LIVE_PER_SLOT	8
#define ENDED_PER_SLOT	8
#define KIND_ANY		0		/* an entry for every state (ms only) */

#define BOUND_SHMEM_NAME	"ulid stable bound"
#define BOUND_DSM_NAME		"ulid stable bound v1"
#define BOUND_MAGIC			0x55424E44	/* "UBND" */
#define PREPARED_DIR		"ulid_prepared"
#define PREPARED_MAGIC		0x55425032	/* "UBP2" */

typedef UlidBoundEntry LiveEntry;

/* an ended (committed) or prepared transaction's entry */
typedef struct EndedEntry
{
	FullTransactionId fxid;
	uint32		kind;			/* KIND_ANY: w0, w1 unused */
	uint64		w0;
	uint64		w1;
	int64		ms;				/* its first id's ms: "since" */
	uint8		key[ULID_STATE_KEY_BYTES];
} EndedEntry;

typedef struct BoundSlot
{
	LiveEntry	live[LIVE_PER_SLOT];
	pg_atomic_uint64 overflow_ms;	/* PG_INT64_MAX: none */
	pg_atomic_uint32 foreign;	/* parallel workers claimed or overflowed */
	slock_t		lock;			/* the ring */
	int			nended;			/* oldest first */
	EndedEntry	ended[ENDED_PER_SLOT];
} BoundSlot;

typedef struct BoundShared
{
	uint32		magic;
	uint32		nslots;
	uint32		nprepared;
	slock_t		plock;			/* the prepared table */
	EndedEntry	prepared[FLEXIBLE_ARRAY_MEMBER];	/* then the slots */
} BoundShared;

static BoundShared *bound = NULL;
static BoundSlot *my_slot = NULL;
static FullTransactionId ending_fxid;

ULID_HIDDEN const UlidGenState *ulid_bound_noted = NULL;
ULID_HIDDEN const UlidGenState *ulid_bound_last_st = NULL;
ULID_HIDDEN UlidBoundEntry *ulid_bound_last = NULL;

/* this transaction minted (ulid_bound_noted is copied here when reset) */
static bool bound_minted = false;

/* it took ulid_bound_note_first(): entries other than ulid_bound_last */
static bool bound_slow = false;

static shmem_request_hook_type prev_shmem_request_hook = NULL;
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

/* ---- the shared structure ----------------------------------------------- */

static uint32
slots_wanted(void)
{
	return (uint32) (MaxBackends + NUM_AUXILIARY_PROCS + max_prepared_xacts);
}

static uint32
prepared_wanted(void)
{
	return (uint32) ((max_prepared_xacts + 1) * (LIVE_PER_SLOT + 1) * 2);
}

static Size
bound_size(uint32 nslots, uint32 nprepared)
{
	return MAXALIGN(offsetof(BoundShared, prepared) + nprepared * sizeof(EndedEntry)) +
		(Size) nslots * sizeof(BoundSlot);
}

static inline BoundSlot *
slot_at(BoundShared *b, uint32 i)
{
	return &((BoundSlot *) ((char *) b +
							MAXALIGN(offsetof(BoundShared, prepared) +
									 b->nprepared * sizeof(EndedEntry))))[i];
}

static void load_prepared(BoundShared *b);

static void
init_bound(BoundShared *b, uint32 nslots, uint32 nprepared)
{
	uint32		i;

	memset(b, 0, bound_size(nslots, nprepared));
	b->nslots = nslots;
	b->nprepared = nprepared;
	SpinLockInit(&b->plock);
	for (i = 0; i < nslots; i++)
	{
		BoundSlot  *s = slot_at(b, i);
		int			j;

		for (j = 0; j < LIVE_PER_SLOT; j++)
		{
			pg_atomic_init_u32(&s->live[j].seq, 0);
			s->live[j].ms = ULID_BOUND_INACTIVE;
		}
		pg_atomic_init_u64(&s->overflow_ms, (uint64) PG_INT64_MAX);
		pg_atomic_init_u32(&s->foreign, 0);
		SpinLockInit(&s->lock);
	}
	load_prepared(b);
	b->magic = BOUND_MAGIC;
}

static void
shmem_request(void)
{
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
	RequestAddinShmemSpace(bound_size(slots_wanted(), prepared_wanted()));
}

static void
shmem_startup(void)
{
	bool		found;
	BoundShared *b;

	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();
	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	b = ShmemInitStruct(BOUND_SHMEM_NAME, bound_size(slots_wanted(), prepared_wanted()), &found);
	if (!found)
		init_bound(b, slots_wanted(), prepared_wanted());
	bound = b;
	LWLockRelease(AddinShmemInitLock);
}

static void bound_xact_callback(XactEvent event, void *arg);
static inline bool only_last(BoundSlot *s);

void
ulid_stable_bound_init(void)
{
	/*
	 * In every process that loads the library: a leader whose parallel
	 * workers minted must end their entries even if it minted nothing.
	 */
#ifndef ULID_NO_STABLE_BOUND
	RegisterXactCallback(bound_xact_callback, NULL);
#endif
	if (!process_shared_preload_libraries_in_progress)
		return;
	prev_shmem_request_hook = shmem_request_hook;
	shmem_request_hook = shmem_request;
	prev_shmem_startup_hook = shmem_startup_hook;
	shmem_startup_hook = shmem_startup;
}

#ifdef ULID_HAS_DSM_REGISTRY
static
ULID_DSM_INIT_CALLBACK(dsm_init, ptr)
{
	init_bound((BoundShared *) ptr, slots_wanted(), prepared_wanted());
}
#endif

static void free_leftovers(BoundSlot *s);

/*
 * This process's slot, attaching to the DSM segment if needed; quiet: only
 * where it cannot fail for want of shared state (at PRE_COMMIT).
 */
static void
attach_slot(bool quiet)
{
	PGPROC	   *leader;

	if (my_slot != NULL)
		return;
	if (bound == NULL)
	{
		if (quiet && ulid_shared_unavailable())
			return;
#ifdef ULID_HAS_DSM_REGISTRY
		{
			bool		found;
			BoundShared *b = ulid_get_named_dsm(BOUND_DSM_NAME,
												bound_size(slots_wanted(), prepared_wanted()),
												dsm_init, &found);

			if (b->magic != BOUND_MAGIC || b->nslots != slots_wanted() ||
				b->nprepared != prepared_wanted())
				ereport(ERROR,
						(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
						 errmsg("ulid stable-bound segment \"%s\" has an unexpected layout", BOUND_DSM_NAME),
						 errdetail("It has magic %08X, %u slots and %u prepared entries; expected %08X, %u and %u.",
								   b->magic, b->nslots, b->nprepared, BOUND_MAGIC,
								   slots_wanted(), prepared_wanted()),
						 errhint("Restart the server: another build of the ulid library created the segment.")));
			bound = b;
		}
#endif
		if (bound == NULL)
		{
			if (quiet)
				return;
			(void) ulid_shared_get();	/* ERROR 55000 */
			elog(ERROR, "ulid stable-bound state is not available");
		}
	}
	/* a parallel worker records into its leader's slot */
	leader = MyProc->lockGroupLeader ? MyProc->lockGroupLeader : MyProc;
	my_slot = slot_at(bound, (uint32) (leader - ProcGlobal->allProcs));
	if (!IsParallelWorker())
		free_leftovers(my_slot);
}

void
ulid_bound_attach(void)
{
	/* a state looked up afresh: forget the pointers, keep "minted" */
	bound_minted |= ulid_bound_noted != NULL;
	ulid_bound_noted = NULL;
	ulid_bound_last_st = NULL;
	if (unlikely(my_slot == NULL))
		attach_slot(false);
}

/* ---- the writer ------------------------------------------------------------ */

static inline bool
same_state(uint32 kind, const uint8 *key, const UlidGenState *st)
{
	return kind == st->kind && memcmp(key, st->key, ULID_STATE_KEY_BYTES) == 0;
}

/* e's first position of the transaction; the active marker (ms) last */
static inline void
activate(LiveEntry *e, uint64 w0, uint64 w1, int64 ms)
{
	e->w0 = w0;
	e->w1 = w1;
	pg_write_barrier();
	*(volatile int64 *) &e->ms = ms;
}

/* Give e (claimed: seq odd by the caller) to st, held at (w0, w1, ms). */
static inline void
fill(LiveEntry *e, uint32 s1, const UlidGenState *st, uint64 w0, uint64 w1, int64 ms)
{
	memcpy(e->key, st->key, ULID_STATE_KEY_BYTES);
	e->kind = st->kind;
	e->owner = MyProcPid;
	e->w0 = w0;
	e->w1 = w1;
	e->ms = ms;
	pg_write_barrier();
	pg_atomic_write_u32(&e->seq, s1 + 2);
}

/* Claim a free entry of s for st; NULL when none is free. */
static LiveEntry *
claim_free(BoundSlot *s, const UlidGenState *st, uint64 w0, uint64 w1, int64 ms)
{
	int			i;

	for (i = 0; i < LIVE_PER_SLOT; i++)
	{
		LiveEntry  *e = &s->live[i];
		uint32		s1 = pg_atomic_read_u32(&e->seq);

		if ((s1 & 1) || e->kind != 0)
			continue;
		/* a CAS: workers and their leader claim in one slot at once */
		if (!pg_atomic_compare_exchange_u32(&e->seq, &s1, s1 + 1))
			continue;
		fill(e, s1, st, w0, w1, ms);
		return e;
	}
	return NULL;
}

/* An entry back to free (its claimer ended, or its process did). */
static void
free_entry(LiveEntry *e)
{
	uint32		s1 = pg_atomic_read_u32(&e->seq);

	pg_atomic_write_u32(&e->seq, s1 | 1);
	pg_write_barrier();
	e->kind = 0;
	e->owner = 0;
	e->ms = ULID_BOUND_INACTIVE;
	pg_write_barrier();
	pg_atomic_write_u32(&e->seq, (s1 | 1) + 1);
}

/*
 * A backend attaching to the slot of its PGPROC frees what the process
 * before it left there: entries of other pids that are inactive (a process
 * ends its transaction, FATAL included, before its PGPROC is reused).  A
 * parallel worker of this backend's running query holds its entries
 * active: they stay, for this backend's transaction end.
 */
static void
free_leftovers(BoundSlot *s)
{
	int			i;

	for (i = 0; i < LIVE_PER_SLOT; i++)
	{
		LiveEntry  *e = &s->live[i];
		uint32		s1 = pg_atomic_read_u32(&e->seq);

		if (!(s1 & 1) && e->kind != 0 && e->owner != MyProcPid &&
			e->ms == ULID_BOUND_INACTIVE)
			free_entry(e);
	}
}

/* No entry for st: the slot's overflow ms holds every state at ms. */
static void
note_overflow(BoundSlot *s, int64 ms)
{
	uint64		cur = pg_atomic_read_u64(&s->overflow_ms);

	while ((int64) cur > ms &&
		   !pg_atomic_compare_exchange_u64(&s->overflow_ms, &cur, (uint64) ms))
		;
}

/*
 * A parallel worker: its own entries in its leader's slot, claimed for the
 * query (never recycled), released by the leader's transaction end, which
 * the foreign flag tells to look.
 */
static void
note_worker(BoundSlot *s, const UlidGenState *st, uint64 w0, uint64 w1, int64 ms)
{
	int			i;

	for (i = 0; i < LIVE_PER_SLOT; i++)
	{
		LiveEntry  *e = &s->live[i];

		if (e->owner == MyProcPid && e->kind != 0 && same_state(e->kind, e->key, st))
			return;				/* held since an earlier id */
	}
	pg_atomic_write_u32(&s->foreign, 1);
	pg_memory_barrier();
	if (claim_free(s, st, w0, w1, ms) == NULL)
		note_overflow(s, ms);
}

/*
 * The first id of st in this transaction, unless st is the state of the
 * backend's last first id (ulid_bound_note() does that one inline).  The
 * backend's entries stay claimed across its transactions: its entry for st,
 * else a free one, else one of its inactive ones recycled, else the
 * overflow ms.
 */
void
ulid_bound_note_first(const UlidGenState *st, uint64 w0, uint64 w1, int64 ms)
{
	BoundSlot  *s = my_slot;
	LiveEntry  *e = NULL;
	LiveEntry  *spare = NULL;
	int			i;

	if (unlikely(s == NULL))
		return;					/* not attached: cannot happen (gen paths) */
	ulid_bound_noted = st;
	ulid_bound_last_st = NULL;
	bound_slow = true;
	if (unlikely(IsParallelWorker()))
	{
		note_worker(s, st, w0, w1, ms);
		return;
	}
	/* this backend's entries: only it writes them (plain reads) */
	for (i = 0; i < LIVE_PER_SLOT; i++)
	{
		LiveEntry  *c = &s->live[i];

		if (c->kind == 0 || c->owner != MyProcPid)
			continue;
		if (same_state(c->kind, c->key, st))
		{
			e = c;
			break;
		}
		if (c->ms == ULID_BOUND_INACTIVE &&
			(spare == NULL || spare == ulid_bound_last))
			spare = c;			/* the last state's entry only if no other */
	}
	if (e != NULL)
	{
		/* active already: an earlier id of this transaction holds it */
		if (e->ms == ULID_BOUND_INACTIVE)
			activate(e, w0, w1, ms);
	}
	else if ((e = claim_free(s, st, w0, w1, ms)) == NULL && spare != NULL)
	{
		/* recycled: inactive, so no reader needs its old state's entry */
		uint32		s1 = pg_atomic_read_u32(&spare->seq);

		pg_atomic_write_u32(&spare->seq, s1 + 1);
		pg_write_barrier();
		fill(spare, s1, st, w0, w1, ms);
		e = spare;
	}
	if (e == NULL)
	{
		note_overflow(s, ms);
		return;
	}
	ulid_bound_last = e;
	ulid_bound_last_st = st;
}

/*
 * Whether the transaction's only entry that can be active is
 * ulid_bound_last: it noted nothing out of line (which also gives the
 * overflow), and no worker of it minted.
 */
static inline bool
only_last(BoundSlot *s)
{
	return !bound_slow && ulid_bound_last != NULL &&
		pg_atomic_read_u32(&s->foreign) == 0;
}

/*
 * The slot's active entries (and overflow) as ended entries of fxid: this
 * backend's own and, when the foreign flag is up, its workers'.
 */
static int
collect_live(BoundSlot *s, FullTransactionId fxid, EndedEntry *out)
{
	int			n = 0;
	int			i;
	int64		oms;
	bool		all = !only_last(s);

	for (i = 0; i < LIVE_PER_SLOT; i++)
	{
		LiveEntry  *e = &s->live[i];

		if (e->kind == 0 || e->ms == ULID_BOUND_INACTIVE ||
			!(all || e == ulid_bound_last))
			continue;
		out[n].fxid = fxid;
		out[n].kind = e->kind;
		out[n].w0 = e->w0;
		out[n].w1 = e->w1;
		out[n].ms = e->ms;
		memcpy(out[n].key, e->key, ULID_STATE_KEY_BYTES);
		n++;
	}
	oms = all ? (int64) pg_atomic_read_u64(&s->overflow_ms) : PG_INT64_MAX;
	if (oms != PG_INT64_MAX)
	{
		memset(&out[n], 0, sizeof(EndedEntry));
		out[n].fxid = fxid;
		out[n].kind = KIND_ANY;
		out[n].ms = oms;
		n++;
	}
	return n;
}

/*
 * The transaction ended (pushed first where it must be): this backend's
 * entries inactive, its workers' free, the overflow none.
 */
static void
end_live(BoundSlot *s)
{
	bool		foreign = pg_atomic_read_u32(&s->foreign) != 0;
	int			i;

	if (only_last(s))
	{
		if (ulid_bound_last->ms != ULID_BOUND_INACTIVE)
			*(volatile int64 *) &ulid_bound_last->ms = ULID_BOUND_INACTIVE;
		return;
	}
	for (i = 0; i < LIVE_PER_SLOT; i++)
	{
		LiveEntry  *e = &s->live[i];

		if (e->kind == 0)
			continue;
		if (e->owner == MyProcPid)
		{
			if (e->ms != ULID_BOUND_INACTIVE)
				*(volatile int64 *) &e->ms = ULID_BOUND_INACTIVE;
		}
		else if (foreign && !(pg_atomic_read_u32(&e->seq) & 1))
			free_entry(e);
	}
	if (pg_atomic_read_u64(&s->overflow_ms) != (uint64) PG_INT64_MAX)
		pg_atomic_write_u64(&s->overflow_ms, (uint64) PG_INT64_MAX);
	if (foreign)
		pg_atomic_write_u32(&s->foreign, 0);
}

/* Merge b into a, which committed later: what holds whenever either would. */
static void
merge_into(EndedEntry *a, const EndedEntry *b)
{
	if (a->kind != KIND_ANY && b->kind == a->kind &&
		memcmp(a->key, b->key, ULID_STATE_KEY_BYTES) == 0)
	{
		if (b->w0 < a->w0 || (b->w0 == a->w0 && b->w1 < a->w1))
		{
			a->w0 = b->w0;
			a->w1 = b->w1;
		}
	}
	else
		a->kind = KIND_ANY;
	a->ms = Min(a->ms, b->ms);
	/* a keeps its xid: the later commit */
}

/* COMMIT with an xid: push the live entries into the ring (no errors). */
static void
push_ended(BoundSlot *s, FullTransactionId fxid)
{
	EndedEntry	add[LIVE_PER_SLOT + 1];
	int			n = collect_live(s, fxid, add);
	int			i;

	if (n == 0)
		return;
	SpinLockAcquire(&s->lock);
	for (i = 0; i < n; i++)
	{
		if (s->nended == ENDED_PER_SLOT)
		{
			merge_into(&s->ended[1], &s->ended[0]);
			memmove(&s->ended[0], &s->ended[1], (ENDED_PER_SLOT - 1) * sizeof(EndedEntry));
			s->nended--;
		}
		s->ended[s->nended++] = add[i];
	}
	SpinLockRelease(&s->lock);
}

/* ---- prepared transactions ------------------------------------------------ */

typedef struct PreparedFileHeader
{
	uint32		magic;
	uint32		count;
	pg_crc32c	crc;			/* of the entries */
} PreparedFileHeader;

static void
prepared_path(FullTransactionId fxid, char *path, bool tmp)
{
	snprintf(path, MAXPGPATH, PREPARED_DIR "/%016llX%s",
			 (unsigned long long) U64FromFullTransactionId(fxid), tmp ? ".tmp" : "");
}

/* Add n entries to the prepared table; false when it is full. */
static bool
prepared_add(BoundShared *b, const EndedEntry *add, int n)
{
	uint32		i;
	int			k = 0;
	int			nfree = 0;

	SpinLockAcquire(&b->plock);
	for (i = 0; i < b->nprepared; i++)
		if (!FullTransactionIdIsValid(b->prepared[i].fxid))
			nfree++;
	if (nfree >= n)
		for (i = 0; i < b->nprepared && k < n; i++)
			if (!FullTransactionIdIsValid(b->prepared[i].fxid))
				b->prepared[i] = add[k++];
	SpinLockRelease(&b->plock);
	return nfree >= n;
}

/* At start: every prepared transaction's entries, from its file. */
static void
load_prepared(BoundShared *b)
{
	DIR		   *dir;
	struct dirent *de;

	dir = AllocateDir(PREPARED_DIR);
	if (dir == NULL)
		return;					/* none written yet */
	while ((de = ReadDirExtended(dir, PREPARED_DIR, LOG)) != NULL)
	{
		char		path[MAXPGPATH];
		unsigned long long fx;
		char		extra;
		EndedEntry	e[LIVE_PER_SLOT + 1];
		PreparedFileHeader h;
		int			fd;
		bool		ok = false;
		pg_crc32c	crc;

		if (sscanf(de->d_name, "%16llX%c", &fx, &extra) != 1 || strlen(de->d_name) != 16)
			continue;
		snprintf(path, sizeof(path), PREPARED_DIR "/%s", de->d_name);
		fd = OpenTransientFile(path, O_RDONLY | PG_BINARY);
		if (fd >= 0)
		{
			if (read(fd, &h, sizeof(h)) == sizeof(h) && h.magic == PREPARED_MAGIC &&
				h.count <= LIVE_PER_SLOT + 1 &&
				read(fd, e, h.count * sizeof(EndedEntry)) == (ssize_t) (h.count * sizeof(EndedEntry)))
			{
				INIT_CRC32C(crc);
				COMP_CRC32C(crc, e, h.count * sizeof(EndedEntry));
				FIN_CRC32C(crc);
				ok = EQ_CRC32C(crc, h.crc);
			}
			CloseTransientFile(fd);
		}
		if (!ok)
		{
			/* hold every bound from the start until the xid ends */
			ereport(LOG,
					(errmsg("ulid: could not read \"%s\": the stable bounds stay at their lowest until transaction " UINT64_FORMAT " ends", path, (uint64) fx),
					 errdetail("The file records the first ids of a prepared transaction.")));
			memset(&e[0], 0, sizeof(EndedEntry));
			e[0].fxid = FullTransactionIdFromU64((uint64) fx);
			e[0].kind = KIND_ANY;
			h.count = 1;
		}
		if (!prepared_add(b, e, (int) h.count))
			ereport(LOG,
					(errmsg("ulid: no room for the stable-bound entries of \"%s\"", path)));
	}
	FreeDir(dir);
}

/* PRE_PREPARE: the live entries, durably on disk, then in the table. */
static void
prepare_entries(BoundSlot *s, FullTransactionId fxid)
{
	EndedEntry	e[LIVE_PER_SLOT + 1];
	int			n = collect_live(s, fxid, e);
	char		path[MAXPGPATH];
	char		tmp[MAXPGPATH];
	PreparedFileHeader h;
	int			fd;

	if (n == 0)
		return;
	if (MakePGDirectory(PREPARED_DIR) == 0)
		fsync_fname(".", true);
	else if (errno != EEXIST)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not create directory \"%s\": %m", PREPARED_DIR),
				 errdetail("It keeps the first ids of prepared transactions, which hold ulid's stable bounds across restarts.")));
	prepared_path(fxid, path, false);
	prepared_path(fxid, tmp, true);
	h.magic = PREPARED_MAGIC;
	h.count = (uint32) n;
	INIT_CRC32C(h.crc);
	COMP_CRC32C(h.crc, e, n * sizeof(EndedEntry));
	FIN_CRC32C(h.crc);
	fd = OpenTransientFile(tmp, O_WRONLY | O_CREAT | O_TRUNC | PG_BINARY);
	if (fd < 0 ||
		write(fd, &h, sizeof(h)) != sizeof(h) ||
		write(fd, e, n * sizeof(EndedEntry)) != (ssize_t) (n * sizeof(EndedEntry)) ||
		CloseTransientFile(fd) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not write file \"%s\": %m", tmp),
				 errdetail("It records the first ids of this prepared transaction, which hold ulid's stable bounds until it ends."),
				 errhint("Free space in the data directory, then prepare the transaction again.")));
	(void) durable_rename(tmp, path, ERROR);
	if (!prepared_add(bound, e, n))
	{
		(void) unlink(path);
		ereport(ERROR,
				(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
				 errmsg("ulid's table of prepared transactions' stable-bound entries is full (%u entries)", bound->nprepared),
				 errdetail("Prepared transactions that ended are dropped from it once no snapshot sees them running."),
				 errhint("Finish old prepared transactions (pg_prepared_xacts), or end the long transactions that still see them running.")));
	}
}

/*
 * A few instructions for a transaction that minted nothing (and whose
 * workers minted nothing).  Otherwise: at COMMIT with an xid the active
 * entries go to the ring first; at the end, whatever the outcome, they are
 * made inactive (the workers' freed).
 */
static pg_noinline void
bound_xact_end(XactEvent event)
{
	if (ulid_bound_noted == NULL && !bound_minted)
	{
		if (unlikely(my_slot == NULL))
		{
			/* a leader whose workers minted: find its slot, never failing */
			if (MyProc == NULL || IsParallelWorker())
				return;
			if (event == XACT_EVENT_PRE_COMMIT || event == XACT_EVENT_PRE_PREPARE ||
				(bound != NULL && event == XACT_EVENT_ABORT))
				attach_slot(true);
			if (my_slot == NULL)
				return;
		}
		if (likely(pg_atomic_read_u32(&my_slot->foreign) == 0))
			return;
	}
	if (unlikely(my_slot == NULL))
		return;					/* minted without a slot: cannot happen */
	switch (event)
	{
		case XACT_EVENT_PRE_COMMIT:
			ending_fxid = GetTopFullTransactionIdIfAny();
			return;
		case XACT_EVENT_PRE_PREPARE:
			if (FullTransactionIdIsValid(GetTopFullTransactionIdIfAny()))
				prepare_entries(my_slot, GetTopFullTransactionIdIfAny());
			return;
		case XACT_EVENT_COMMIT:
			if (!FullTransactionIdIsValid(ending_fxid))
				ending_fxid = GetTopFullTransactionIdIfAny();
			if (FullTransactionIdIsValid(ending_fxid))
				push_ended(my_slot, ending_fxid);	/* first ... */
			break;
		case XACT_EVENT_ABORT:
		case XACT_EVENT_PREPARE:
			break;
		default:
			return;				/* a parallel worker's events: its leader's */
	}
	end_live(my_slot);			/* ... then ended */
	ending_fxid = InvalidFullTransactionId;
	ulid_bound_noted = NULL;
	bound_minted = false;
	bound_slow = false;
}

static void
bound_xact_callback(XactEvent event, void *arg pg_attribute_unused())
{
	/* nothing minted, nothing of workers: a few instructions */
	if (likely(ulid_bound_noted == NULL && !bound_minted && my_slot != NULL &&
			   pg_atomic_read_u32(&my_slot->foreign) == 0))
		return;
	bound_xact_end(event);
}

/* ---- the reader ------------------------------------------------------------ */

typedef struct Pos
{
	uint64		w0;
	uint64		w1;
} Pos;

static inline bool
pos_less(Pos a, Pos b)
{
	return a.w0 < b.w0 || (a.w0 == b.w0 && a.w1 < b.w1);
}

/* how a reader maps a millisecond to its state's first position in it */
typedef Pos (*PosAtMs) (const void *arg, int64 ms);

/* Whether an ended or prepared entry holds the bound for sigma. */
static bool
entry_holds(const EndedEntry *e, Snapshot sigma, bool prepared)
{
	TransactionId xid = XidFromFullTransactionId(e->fxid);

	if (GlobalVisCheckRemovableFullXid(NULL, e->fxid))
		return false;
	return (prepared && TransactionIdIsInProgress(xid)) ||
		XidInMVCCSnapshot(xid, sigma);
}

/* Drop entries of fxid from the slot's ring (a reader found it removable). */
static void
prune_ring(BoundSlot *s, FullTransactionId fxid)
{
	int			i,
				n = 0;

	SpinLockAcquire(&s->lock);
	for (i = 0; i < s->nended; i++)
		if (!FullTransactionIdEquals(s->ended[i].fxid, fxid))
			s->ended[n++] = s->ended[i];
	s->nended = n;
	SpinLockRelease(&s->lock);
}

static void
prune_prepared(FullTransactionId fxid)
{
	uint32		i;
	char		path[MAXPGPATH];

	SpinLockAcquire(&bound->plock);
	for (i = 0; i < bound->nprepared; i++)
		if (FullTransactionIdEquals(bound->prepared[i].fxid, fxid))
			bound->prepared[i].fxid = InvalidFullTransactionId;
	SpinLockRelease(&bound->plock);
	prepared_path(fxid, path, false);
	(void) unlink(path);
}

/* The prepared table's entries in use, copied into out (room for all). */
static int
copy_prepared(EndedEntry *out)
{
	uint32		i;
	int			n = 0;

	SpinLockAcquire(&bound->plock);
	for (i = 0; i < bound->nprepared; i++)
		if (FullTransactionIdIsValid(bound->prepared[i].fxid))
			out[n++] = bound->prepared[i];
	SpinLockRelease(&bound->plock);
	return n;
}

static inline void
consider(Pos *bound_pos, uint32 kind, uint64 w0, uint64 w1, int64 ms,
		 PosAtMs at_ms, const void *arg)
{
	Pos			p;

	if (kind == KIND_ANY)
		p = at_ms(arg, ms);
	else
	{
		p.w0 = w0;
		p.w1 = w1;
	}
	if (pos_less(p, *bound_pos))
		*bound_pos = p;
}

/*
 * The bound of st: next (read under st's spinlock by the caller, who then
 * issued a full barrier) lowered by every entry that holds it.
 */
static Pos
bound_scan(const UlidGenState *st, Pos next, PosAtMs at_ms, const void *arg)
{
	Snapshot	sigma = ActiveSnapshotSet() ? GetActiveSnapshot() : GetTransactionSnapshot();
	Pos			b = next;
	uint32		i;
	int			j;
	EndedEntry *copy;
	int			ncopy;

	/* live entries first: an ending transaction pushes before it clears */
	for (i = 0; i < bound->nslots; i++)
	{
		BoundSlot  *s = slot_at(bound, i);
		int64		oms;

		for (j = 0; j < LIVE_PER_SLOT; j++)
		{
			LiveEntry  *e = &s->live[j];
			uint32		s1 = pg_atomic_read_u32(&e->seq);
			uint32		kind;
			uint64		w0,
						w1;
			bool		match;

			if (s1 & 1)
				continue;
			pg_read_barrier();
			kind = e->kind;
			/* the marker before the position: the owner writes it last */
			if (kind == 0 || *(volatile int64 *) &e->ms == ULID_BOUND_INACTIVE)
				continue;
			pg_read_barrier();
			w0 = e->w0;
			w1 = e->w1;
			match = same_state(kind, e->key, st);
			pg_read_barrier();
			/* state changed meanwhile: released, or recycled after next */
			if (match && pg_atomic_read_u32(&e->seq) == s1)
				consider(&b, kind, w0, w1, 0, at_ms, arg);
		}
		oms = (int64) pg_atomic_read_u64(&s->overflow_ms);
		if (oms != PG_INT64_MAX)
			consider(&b, KIND_ANY, 0, 0, oms, at_ms, arg);
	}
	pg_read_barrier();

	/* then the rings */
	copy = palloc(sizeof(EndedEntry) * Max(ENDED_PER_SLOT, bound->nprepared));
	for (i = 0; i < bound->nslots; i++)
	{
		BoundSlot  *s = slot_at(bound, i);

		if (s->nended == 0)
			continue;
		SpinLockAcquire(&s->lock);
		ncopy = s->nended;
		memcpy(copy, s->ended, ncopy * sizeof(EndedEntry));
		SpinLockRelease(&s->lock);
		for (j = 0; j < ncopy; j++)
		{
			EndedEntry *e = &copy[j];

			if (e->kind != KIND_ANY && !same_state(e->kind, e->key, st))
			{
				if (GlobalVisCheckRemovableFullXid(NULL, e->fxid))
					prune_ring(s, e->fxid);
				continue;
			}
			if (entry_holds(e, sigma, false))
				consider(&b, e->kind, e->w0, e->w1, e->ms, at_ms, arg);
			else if (GlobalVisCheckRemovableFullXid(NULL, e->fxid))
				prune_ring(s, e->fxid);
		}
	}

	/* then the prepared table */
	ncopy = copy_prepared(copy);
	for (j = 0; j < ncopy; j++)
	{
		EndedEntry *e = &copy[j];

		if (entry_holds(e, sigma, true))
		{
			if (e->kind == KIND_ANY || same_state(e->kind, e->key, st))
				consider(&b, e->kind, e->w0, e->w1, e->ms, at_ms, arg);
		}
		else if (GlobalVisCheckRemovableFullXid(NULL, e->fxid) &&
				 !TransactionIdIsInProgress(XidFromFullTransactionId(e->fxid)))
			prune_prepared(e->fxid);
	}
	pfree(copy);
	return b;
}

/* 0A000 on a hot standby: it does not know the primary's transactions. */
static void
refuse_in_recovery(const char *fn)
{
	if (RecoveryInProgress())
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("%s is not available during recovery", fn),
				 errdetail("The bound comes from the transactions minting on the primary, which a hot standby does not know; ids minted on the primary may still commit below any bound computed here."),
				 errhint("Page with the bound on the primary.")));
}

/* ---- ulid_stable_bound() -------------------------------------------------- */

static Pos
ulid_pos_at_ms(const void *arg, int64 ms)
{
	Pos			p;

	(void) arg;
	p.w0 = (uint64) Max(ms, 0) << 16;
	p.w1 = 0;
	return p;
}

PG_FUNCTION_INFO_V1(ulid_stable_bound);
Datum
ulid_stable_bound(PG_FUNCTION_ARGS)
{
	uint8		key[ULID_STATE_KEY_BYTES] = {0};
	uint32		inc;
	UlidGenState *st;
	Pos			next;
	pg_ulid_t  *u;

	refuse_in_recovery("ulid_stable_bound()");
	st = ulid_state_get(ULID_STATE_MONOTONIC_ULID, key, &inc);
	ulid_bound_attach();

	/* word[0], word[1]: gen_monotonic.c's last value (W_HI, W_LO) */
	SpinLockAcquire(&st->mutex);
	if (st->valid)
	{
		next.w0 = st->word[0];
		next.w1 = st->word[1] + 1;
		if (next.w1 == 0)
		{
			next.w0++;
			if (next.w0 == 0)
			{
				next.w0 = next.w1 = PG_UINT64_MAX;	/* the largest ULID */
			}
		}
	}
	else
		next = ulid_pos_at_ms(NULL, st->base_ms);
	SpinLockRelease(&st->mutex);
	pg_memory_barrier();

	next = bound_scan(st, next, ulid_pos_at_ms, NULL);
	u = (pg_ulid_t *) palloc(sizeof(pg_ulid_t));
	ulid_store_be64(u->data, next.w0);
	ulid_store_be64(u->data + 8, next.w1);
	PG_RETURN_ULID_P(u);
}

/* ---- snowflake_stable_bound(layout, node) --------------------------------- */

static Pos
sf_pos_at_ms(const void *arg, int64 ms)
{
	const sfl_layout *l = (const sfl_layout *) arg;
	Pos			p;

	p.w0 = ms <= l->epoch_ms ? 0 :
		(uint64) ((ms - l->epoch_ms) / sfl_unit_ms((sfl_unit) l->unit));
	p.w1 = 0;
	return p;
}

/*
 * The bound of a Snowflake-kind state (snowflake_next()'s, cosid80_next()'s:
 * one generator, gen_snowflake.c, with positions (tick, sequence)) of layout
 * l and node, as its tick and sequence; fn names the caller for errors.
 */
void
ulid_sf_stable_bound(const sfl_layout *l, UlidStateKind kind, int64 node,
					 const char *fn, int64 *tick, uint64 *seq)
{
	uint8		key[ULID_STATE_KEY_BYTES] = {0};
	sfl_key		bits;
	uint32		inc;
	UlidGenState *st;
	Pos			next;
	uint64		max_seq;
	int64		first,
				last;

	refuse_in_recovery(fn);
	/* the key of gen_snowflake.c's states: the bit structure, then the node */
	memset(&bits, 0, sizeof(bits));
	sfl_layout_key(l, &bits);
	memcpy(key, &bits, sizeof(bits));
	memcpy(key + sizeof(bits), &node, sizeof(node));
	max_seq = sfl_max_seq(l);
	sfl_issuable_ticks(l, &first, &last);

	for (;;)
	{
		bool		stale;

		st = ulid_state_get(kind, key, &inc);
		ulid_bound_attach();
		/* word[0], word[1]: gen_snowflake.c's last tick and sequence */
		SpinLockAcquire(&st->mutex);
		stale = ulid_state_stale(st, inc);
		if (st->valid)
		{
			next.w0 = st->word[0];
			next.w1 = st->word[1] + 1;
			if (st->word[1] >= max_seq)
			{
				next.w0++;
				next.w1 = 0;
			}
		}
		else
			next = sf_pos_at_ms(l, st->base_ms);
		SpinLockRelease(&st->mutex);
		if (!stale)
			break;
	}
	pg_memory_barrier();

	next = bound_scan(st, next, sf_pos_at_ms, l);
	if ((int64) next.w0 < first)
	{
		next.w0 = (uint64) first;
		next.w1 = 0;
	}
	if ((int64) next.w0 > last)
	{
		next.w0 = (uint64) last;	/* past the layout's end: its last id */
		next.w1 = max_seq;
	}
	*tick = (int64) next.w0;
	*seq = next.w1;
}

PG_FUNCTION_INFO_V1(snowflake_stable_bound);
Datum
snowflake_stable_bound(PG_FUNCTION_ARGS)
{
	const sfl_layout *l;
	int64		node;
	int64		tick;
	uint64		seq;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	refuse_in_recovery("snowflake_stable_bound()");
	l = sf_layout_arg(fcinfo, 0);
	if (PG_NARGS() < 2 || PG_ARGISNULL(1))
	{
		node = ulid_node_id();
		if (node < 0)
			ulid_node_report_none("Snowflake", "snowflake_stable_bound(layout)",
								  "snowflake_stable_bound(layout, node)");
	}
	else
		node = PG_GETARG_INT64(1);
	if (node < 0 || (uint64) node > sfl_max_node(l))
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("node " INT64_FORMAT " does not fit the layout %s",
						node, sf_layout_name(l)),
				 errdetail("Its node fields hold %d bits together: nodes 0 to " UINT64_FORMAT ".",
						   l->node_bits, sfl_max_node(l))));
	ulid_node_require_owned(node, "snowflake_stable_bound(layout, node)");
	ulid_sf_stable_bound(l, ULID_STATE_SNOWFLAKE, node, "snowflake_stable_bound()", &tick, &seq);
	PG_RETURN_INT64((int64) sfl_pack(l, tick, (uint64) node, seq));
}

/* ---- for ulid_health() ------------------------------------------------------ */

/* "since": the first id's ms, which is when the entry began to hold */
static TimestampTz
ms_to_timestamptz(int64 ms)
{
	return (TimestampTz) ms * 1000 - ULID_UNIX_TO_PG_USECS;
}

bool
ulid_bound_oldest_holder(UlidBoundHolder *out)
{
	uint32		i;
	int			j;
	bool		found = false;

	if (bound == NULL)
		return false;
	for (i = 0; i < bound->nslots; i++)
	{
		BoundSlot  *s = slot_at(bound, i);

		for (j = 0; j < LIVE_PER_SLOT; j++)
		{
			LiveEntry  *e = &s->live[j];
			uint32		s1 = pg_atomic_read_u32(&e->seq);
			UlidBoundHolder h;

			int64		ms;

			if (s1 & 1)
				continue;
			pg_read_barrier();
			ms = *(volatile int64 *) &e->ms;
			if (e->kind == 0 || ms == ULID_BOUND_INACTIVE)
				continue;
			h.pid = ProcGlobal->allProcs[i].pid;
			h.xid = InvalidTransactionId;
			h.since = ms_to_timestamptz(ms);
			h.kind = e->kind;
			memcpy(h.key, e->key, ULID_STATE_KEY_BYTES);
			pg_read_barrier();
			if (pg_atomic_read_u32(&e->seq) != s1)
				continue;
			if (!found || h.since < out->since)
				*out = h;
			found = true;
		}
	}
	/* prepared entries: copied, then those still in progress */
	{
		EndedEntry *copy = palloc(sizeof(EndedEntry) * bound->nprepared);
		int			ncopy = copy_prepared(copy);

		for (j = 0; j < ncopy; j++)
		{
			EndedEntry *e = &copy[j];

			if (!TransactionIdIsInProgress(XidFromFullTransactionId(e->fxid)))
				continue;
			if (!found || ms_to_timestamptz(e->ms) < out->since)
			{
				out->pid = 0;
				out->xid = XidFromFullTransactionId(e->fxid);
				out->since = ms_to_timestamptz(e->ms);
				out->kind = e->kind;
				memcpy(out->key, e->key, ULID_STATE_KEY_BYTES);
			}
			found = true;
		}
		pfree(copy);
	}
	return found;
}
