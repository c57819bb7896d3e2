/*-------------------------------------------------------------------------
 *
 * gen_snowflake.c
 *	  snowflake_next(): Snowflake ids from any layout, on one shared state
 *	  per (bit structure, node); snowflake_advance(); the settings
 *	  ulid.node_id, ulid.clock_borrow_ms and ulid.clock_wait_ms.
 *
 * THE STATE
 * Layouts with the same bit structure (sfl_layout_key: time bits, unit,
 * epoch, node bits, sequence bits, order, sign) mint the same ids whatever
 * their names, so the shared state (state_table.c, kind ULID_STATE_SNOWFLAKE) is
 * keyed by that structure plus the node.  Its words hold the last tick and
 * sequence issued; ids from one state therefore strictly increase: an id of
 * a fixed node orders by (tick, sequence) in both bit orders.  The sequence
 * reset rule (zero, random, carry) belongs to the calling layout: it only
 * chooses where a new tick starts.
 *
 * Each call site (fn_extra; cosid80_next() has one static site) keeps the
 * state it found, with its incarnation and node, and what it derived from
 * its layout (sf_site, snowflake.h), so a call looks nothing up: the site
 * compares its layout's version (a column or variable may pass another
 * layout) and the node (a reload may move ulid.node_id) with its own, and
 * the incarnation is checked under the spinlock as always.  A backend-wide
 * cache of the last states used serves a site's first call.
 *
 * ISSUING AN ID
 * The clock is read (and randomness drawn, for the random rule) before the
 * state's spinlock is taken.  Inside it (after checking that the slot was
 * not reclaimed), with L the last tick issued and "now" the clock, or the
 * state's base_ms (after a restart or an advance) while that lies ahead:
 *	- a tick later than L: issue on now's tick, the sequence starting by the
 *	  layout's reset rule;
 *	- L's sequence exhausted and L the layout's last issuable tick: fail
 *	  (22008), whatever the clock says;
 *	- otherwise now is behind L's start by B (B <= 0: it is within L).  The
 *	  clock regression policy (CosId), with allowance =
 *	  max(ulid.clock_borrow_ms, one tick):
 *		B <= allowance: keep issuing on L ("borrowing" a time ahead of the
 *		  clock); when L's sequence is exhausted, borrow L + 1 if its start
 *		  is at most the allowance ahead, else wait for the clock to come
 *		  that close (at most one tick);
 *		the clock at most ulid.clock_wait_ms behind L: wait for it to come
 *		  within the allowance of L;
 *		more: fail with 55000, giving both times.
 * then the shared floor check on the last millisecond of the tick (floors.h),
 * and the stores.  A few dozen instructions, no call that can fail.
 * Every wait happens after releasing the spinlock and checks for interrupts
 * (cancel and statement_timeout work); then the loop starts over with a
 * fresh clock reading.  A wait for the next tick sleeps until just before
 * it and spins the rest, so a session minting at a layout's cap keeps pace
 * with the clock without burning a core; a longer one sleeps on the latch.
 *
 * ONE RULE FOR FLOORS AHEAD OF THE CLOCK
 * The state's base_ms (the restart floor, a floor replayed from WAL before
 * a promotion, or an advanced state's own floor after a restart) stands in
 * for the clock while it lies ahead; an advance moves the words.  Either
 * way the state's position then comes from a floor, not from the clock:
 * st->ahead is set, and the state issues from it at once and keeps
 * issuing, tick after tick as each tick's sequence is used up, however far
 * ahead of the clock that is, until the clock passes its last tick and a
 * tick starts from the clock again (which clears st->ahead).  A floor
 * records ids that exist, not a clock fault, so it never makes a call wait
 * or fail; the view counts those ids as borrows, and the server log says
 * once per state (st->ahead_logged) when it runs more than
 * ulid.clock_wait_ms ahead that way.  The clock policy above governs only a
 * state that follows the clock when the clock steps back.
 *
 * The view counts borrows (ids on a tick starting after the clock), waits
 * (calls that waited, for the clock or the floor) and failures.
 *
 * Ids issued after a restart or a reclaim lie above every id issued
 * before: the state starts on the tick holding max(clock, base_ms), and
 * every tick issued before ended below it (floors.c).  A hot standby refuses (25006): a copy
 * of the primary carries the primary's ulid.node_id.
 *
 *-------------------------------------------------------------------------
 */
#include "snowflake.h"

#include <limits.h>

#include "access/xlog.h"
#include "miscadmin.h"
#include "storage/latch.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/wait_event.h"

#include "floors.h"
#include "modules.h"
#include "node.h"
#include "stable_bound.h"
#include "state_view.h"

/* the state's words */
#define W_TICK		0			/* last tick issued */
#define W_SEQ		1			/* its sequence */

/* the state's key: the bit structure and the node, zero-padded */
typedef struct sf_state_key
{
	sfl_key		bits;
	int64		node;
} sf_state_key;

StaticAssertDecl(sizeof(sf_state_key) <= ULID_STATE_KEY_BYTES,
				 "a Snowflake state key fits a shared state's key");
StaticAssertDecl(offsetof(sf_state_key, node) == sizeof(sfl_key),
				 "the node follows the bits (cosid80.c's describe reads it there)");

/* the last microseconds of a wait for the next tick are spun, not slept */
#define SPIN_US		50

/* settings (ulid.node_id and the owned nodes: node.c) */
static int	clock_borrow_ms = 5;
static int	clock_wait_ms = 1000;

/*
 * This backend's pointers to the states it used, with the incarnation they
 * had (a slot reclaimed meanwhile is found stale under its spinlock), most
 * recent first: a query usually calls one layout and node.
 */
#define CACHE_SIZE	8
typedef struct cached_state
{
	UlidStateKind kind;
	sf_state_key key;
	UlidGenState *st;
	uint32		incarnation;
} cached_state;
static cached_state cache[CACHE_SIZE];
static int	ncached = 0;

/* what the critical section decided */
typedef enum next_action
{
	ISSUE,						/* store (tick, seq) and return the id */
	WAIT,						/* wait until the clock reaches target */
	STALE,						/* the slot was reclaimed: look it up again */
	FAIL_START,					/* the clock is before the layout's first tick */
	FAIL_BEHIND,				/* the clock is too far behind the last tick */
	FAIL_END					/* no tick left in the layout */
} next_action;

/* Unix ms where a tick starts, for the layout's unit. */
static inline int64
tick_start(const sfl_layout *l, int unit_ms, int64 tick)
{
	return l->epoch_ms + tick * unit_ms;
}

/*
 * The state of (kind, layout's bits, node), cached in this backend;
 * *incarnation receives the incarnation to check under its spinlock.
 * refresh: the cached slot was found stale, look the key up again.
 */
static UlidGenState *
get_state(const sfl_layout *l, UlidStateKind kind, int64 node,
		  uint32 *incarnation, bool refresh)
{
	sf_state_key key;
	cached_state found;
	int			i;

	sfl_layout_key(l, &key.bits);
	key.node = node;
	if (likely(ncached > 0 && !refresh && cache[0].kind == kind &&
			   memcmp(&cache[0].key, &key, sizeof(key)) == 0))
	{
		*incarnation = cache[0].incarnation;
		return cache[0].st;
	}
	for (i = 0; i < ncached; i++)
		if (cache[i].kind == kind && memcmp(&cache[i].key, &key, sizeof(key)) == 0)
			break;
	if (i < ncached && !refresh)
		found = cache[i];
	else
	{
		uint8		raw[ULID_STATE_KEY_BYTES] = {0};

		memcpy(raw, &key, sizeof(key));
		found.kind = kind;
		found.key = key;
		found.st = ulid_state_get(kind, raw, &found.incarnation);
		ulid_bound_attach();	/* and forgets the state noted last */
		if (i == ncached)
		{
			if (ncached < CACHE_SIZE)
				ncached++;
			i = ncached - 1;	/* replaced: the least recently used */
		}
	}
	/* most recent first */
	memmove(&cache[1], &cache[0], i * sizeof(cached_state));
	cache[0] = found;
	*incarnation = found.incarnation;
	return found.st;
}

/*
 * A call site's layout changed (or this is its first call): what the
 * issuing loop needs from the layout, derived again, and no state yet.
 */
static void
site_derive(sf_site *site, const sfl_layout *l, uint32 version, int kind)
{
	site->st = NULL;
	site->l = l;
	site->version = version;
	site->kind = kind;
	site->unit_ms = sfl_unit_ms((sfl_unit) l->unit);
	site->max_seq = sfl_max_seq(l);
	sfl_issuable_ticks(l, &site->first, &site->last);
}

/*
 * The state of a call site's (kind, layout's bits, node), from this
 * backend's cache or the table (get_state()); refresh: the one it had gave
 * way to another key.  On an error the site keeps what it had.
 */
static void
site_lookup(sf_site *site, int64 node, bool refresh)
{
	uint32		inc;
	UlidGenState *st = get_state(site->l, (UlidStateKind) site->kind, node,
								 &inc, refresh);

	site->node = node;
	site->inc = inc;
	site->st = st;
}

/* How messages name a layout: its text, or COSID_80. */
static char *
layout_label(const sfl_layout *l, UlidStateKind kind)
{
	return kind == ULID_STATE_COSID80 ? pstrdup("COSID_80") : sf_layout_name(l);
}

/* How messages name a generator state: "snowflake_next() for layout x". */
static char *
gen_label(const sfl_layout *l, UlidStateKind kind)
{
	if (kind == ULID_STATE_COSID80)
		return pstrdup("cosid80_next()");
	return psprintf("snowflake_next() for layout %s", sf_layout_name(l));
}

/* ERROR 22003 unless node fits the layout's node bits. */
static void
check_node(const sfl_layout *l, int64 node, bool from_setting)
{
	if (node >= 0 && (uint64) node <= sfl_max_node(l))
		return;
	ereport(ERROR,
			(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
			 errmsg("node " INT64_FORMAT " does not fit the layout %s",
					node, sf_layout_name(l)),
			 errdetail("Its node fields hold %d bits together: nodes 0 to " UINT64_FORMAT ".",
					   l->node_bits, sfl_max_node(l)),
			 !from_setting ? 0 :
			 ulid_node_source == ULID_NODE_SOURCE_CITUS ?
			 errhint("The node is this node's Citus group id (ulid.node_id_source = 'citus'), and Citus gives every node it adds a new group id unless told one: give the column a layout whose node fields hold more bits (twitter's hold 10: nodes 0 to 1023).") :
			 errhint("The node is this server's node id (ulid.node_id): set one that fits, or pass a node this server owns that fits: snowflake_next(layout, node).")));
}

/*
 * ERROR 22008: the clock (now) is before the layout's first tick a
 * generator may issue, or the next id would lie past its last (last).
 */
static void
report_out_of_time(const sfl_layout *l, UlidStateKind kind, int64 now, int64 last)
{
	if (last < 0)
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("the clock is before the start of the layout %s", layout_label(l, kind)),
				 errdetail("The clock reads %s. %s", ulid_iso_or_ms(now), sf_layout_range(l))));
	ereport(ERROR,
			(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
			 errmsg("the layout %s has no time left to mint ids on", layout_label(l, kind)),
			 errdetail("The next id would lie after the last tick a generator may issue, which starts at %s.",
					   ulid_iso_or_ms(sfl_tick_unix_ms(l, last)))));
}

/*
 * ERROR 55000: the clock stepped further behind the last tick than the
 * policy waits.  Never because of a floor: a state issuing ahead of the
 * clock from a floor or an advance (st->ahead) does not get here.
 */
static void
report_clock_behind(const sfl_layout *l, UlidStateKind kind, int64 node,
					int64 now, int64 last_ms, int64 allowance)
{
	ereport(ERROR,
			(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			 errmsg("the clock (%s) is " INT64_FORMAT " ms behind the last %s id's time (%s)",
					ulid_iso_or_ms(now), last_ms - now,
					kind == ULID_STATE_COSID80 ? "COSID_80" : "Snowflake", ulid_iso_or_ms(last_ms)),
			 errdetail("Layout %s, node " INT64_FORMAT ": the generator issues ahead of a clock at most " INT64_FORMAT " ms behind (ulid.clock_borrow_ms or one tick) and waits for one at most %d ms behind (ulid.clock_wait_ms).",
					   layout_label(l, kind), node, allowance, clock_wait_ms),
			 errhint("Check the server's clock synchronisation; once the clock has caught up, ids are issued again.")));
}

/*
 * Wait, outside any spinlock, until the clock reads at least target (Unix
 * ms).  Milliseconds away: sleep on the latch.  Under two milliseconds (an
 * exhausted tick waiting for the next): sleep to just before the boundary,
 * then spin on the clock, so the waiter neither burns a core nor wakes late.
 * Interruptible throughout.
 */
static void
wait_for_clock(int64 target)
{
	for (;;)
	{
		int64		remaining_us;

		CHECK_FOR_INTERRUPTS();
		remaining_us = target * 1000 - ulid_clock_now_us();
		if (remaining_us <= 0)
			return;
		if (remaining_us >= 2000)
		{
			(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
							 (long) (remaining_us / 1000 - 1), PG_WAIT_EXTENSION);
			ResetLatch(MyLatch);
		}
		else if (remaining_us > SPIN_US)
			pg_usleep((long) (remaining_us - SPIN_US));
		else
			SPIN_DELAY();
	}
}

/*
 * The next (tick, sequence) of (kind, layout, node): the issuing loop of
 * floors.h.  kind is ULID_STATE_SNOWFLAKE (snowflake_next()) or
 * ULID_STATE_COSID80 (cosid80_next(), whose 80-bit layout is never packed
 * into a bigint).
 */
void
sf_next_parts(sf_site *site, const sfl_layout *l, uint32 version, int kind_,
			  int64 node, int64 *out_tick, uint64 *out_seq)
{
	UlidStateKind kind = (UlidStateKind) kind_;
	UlidGenState *st;
	uint32		inc;
	int			unit_ms;
	int64		allowance;
	uint64		max_seq;
	uint64		random = 0;
	int64		first,
				last;
	bool		counted_wait = false;

	if (RecoveryInProgress())
		ereport(ERROR,
				(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
				 errmsg("cannot mint %s ids during recovery", kind == ULID_STATE_COSID80 ? "COSID_80" : "Snowflake"),
				 errdetail("A hot standby is a copy of its primary and carries the primary's ulid.node_id: its ids would collide with the primary's."),
				 errhint("Mint ids on the primary. Once promoted, this server mints above every id it received (the floors travel in WAL); for transactions it never received, %s past the old primary's last ids.",
						 kind == ULID_STATE_COSID80 ? "cosid80_advance()" : "snowflake_advance()")));
	if (unlikely(site->l != l || site->version != version || site->kind != kind_))
		site_derive(site, l, version, kind_);
	if (unlikely(site->st == NULL || site->node != node))
		site_lookup(site, node, false);
	st = site->st;
	inc = site->inc;
	unit_ms = site->unit_ms;
	allowance = Max(clock_borrow_ms, unit_ms);
	max_seq = site->max_seq;
	first = site->first;
	last = site->last;
	if (unlikely(l->seq_reset == SFL_RESET_RANDOM))
		random = ulid_random_u64();

	for (;;)
	{
		int64		now = ulid_clock_now_ms();
		int64		base;
		int64		eff;
		int64		ref = 0;
		int64		tick = 0;
		uint64		seq = 0;
		int64		last_start = 0;
		int64		target = 0;
		int64		ms = 0;
		next_action action;
		bool		own = false;
		int64		lead = -1;	/* a fresh start: how far a floor puts it
								 * ahead of the clock (0: on the clock) */
		bool		log_ahead = false;
		UlidFloorCheck chk = ULID_FLOOR_OK;

		SpinLockAcquire(&st->mutex);
		base = st->base_ms;
		eff = Max(now, base);
		if (ulid_state_stale(st, inc))
			action = STALE;
		else if (unlikely(eff < l->epoch_ms))
			action = FAIL_START;
		else
		{
			int64		start_tick = (eff - l->epoch_ms) / unit_ms;

			/* from a base ahead: the first tick that starts at or after it */
			if (unlikely(base > now) && (base - l->epoch_ms) % unit_ms != 0)
				start_tick++;
			if (unlikely(start_tick < first))
				action = FAIL_START;
			else if (!st->valid || start_tick > (int64) st->word[W_TICK])
			{
				int64		start;

				/* a tick later than the last one: start it */
				tick = start_tick;
				seq = sfl_seq_start(l, st->valid ? st->word[W_SEQ] : max_seq, random);
				start = tick_start(l, unit_ms, tick);
				action = tick > last ? FAIL_END : ISSUE;
				if (likely(start <= now))
					lead = 0;	/* from the clock */
				else if (start - unit_ms < st->trusted_ms)
					lead = start - now; /* from a floor: run that far ahead */
				else if (start - (now + st->lead_ms) <= allowance)
				{
					/*
					 * A gone floor (state_table.c): within the allowance of
					 * the clock, or of the lead the state that gave way had
					 * from a floor (st->lead_ms, its bucket's), no further.
					 */
					lead = Max(Min(start - now, st->lead_ms), 0);
				}
				else if (action == ISSUE)
				{
					/*
					 * Only a gone floor puts it further ahead: the clock
					 * policy, so that giving way and coming back never
					 * carries a state further ahead of the clock.
					 */
					target = start - allowance - st->lead_ms;
					action = target - now > Max(clock_wait_ms, 2 * unit_ms) ? FAIL_BEHIND : WAIT;
					last_start = start;
				}
			}
			else
			{
				int64		lt = (int64) st->word[W_TICK];

				last_start = tick_start(l, unit_ms, lt);
				/* the clock this state follows: ahead by what a floor gave it */
				ref = now + st->lead_ms;
				if (unlikely(st->word[W_SEQ] >= max_seq && lt >= last))
					action = FAIL_END;	/* whatever the clock says */
				else if (unlikely(last_start - ref > allowance))
				{
					/* the clock stepped back: wait for it, or fail */
					action = last_start - ref > clock_wait_ms ? FAIL_BEHIND : WAIT;
					target = last_start - allowance - st->lead_ms;
				}
				else if (likely(st->word[W_SEQ] < max_seq))
				{
					tick = lt;
					seq = st->word[W_SEQ] + 1;
					action = ISSUE;
				}
				else
				{
					/*
					 * The tick is exhausted: borrow the next one, or wait for
					 * the clock (at most a tick, unless the clock stepped
					 * further back: then the policy fails).
					 */
					tick = lt + 1;
					seq = sfl_seq_start(l, max_seq, random);
					target = tick_start(l, unit_ms, tick) - allowance;
					if (ref >= target)
						action = ISSUE;
					else
					{
						action = target - ref > Max(clock_wait_ms, unit_ms) ? FAIL_BEHIND : WAIT;
						target -= st->lead_ms;
					}
				}
			}
		}
		if (likely(action == ISSUE))
		{
			int64		start = tick_start(l, unit_ms, tick);

			ms = start;			/* floors cover the tick's start */
			ref = now + (lead >= 0 ? lead : st->lead_ms);
			if (likely(ulid_floor_clear(Max(ms, ref),
										(int64) pg_atomic_read_u64(&ulid_shared->durable_ms))))
				chk = ULID_FLOOR_OK;
			else
				chk = ulid_floor_check(st, ms, now, ref, &own);
			if (likely(chk != ULID_FLOOR_BLOCKED))
			{
				st->word[W_TICK] = (uint64) tick;
				st->word[W_SEQ] = seq;
				ulid_state_issued(st, ms);
				ulid_bound_note(st, (uint64) tick, seq, ms);
				if (lead >= 0)
				{
					st->lead_ms = lead;
					st->ahead = lead > 0;
					if (!st->ahead)
						st->ahead_logged = false;	/* on the clock again */
				}
				if (start > now)
				{
					st->borrows++;
					if (unlikely(st->ahead) && start - now > clock_wait_ms &&
						!st->ahead_logged)
						st->ahead_logged = log_ahead = true;
				}
			}
		}
		if (unlikely((action == WAIT || chk == ULID_FLOOR_BLOCKED) && !counted_wait))
		{
			st->waits++;
			counted_wait = true;
		}
		else if (unlikely(action == FAIL_BEHIND || action == FAIL_END))
		{
			st->failures++;
		}
		SpinLockRelease(&st->mutex);

		switch (action)
		{
			case ISSUE:
				if (unlikely(log_ahead))
					ereport(LOG,
							(errmsg("%s, node " INT64_FORMAT ", issues " INT64_FORMAT " ms ahead of the clock from a floor",
									gen_label(l, kind), node, tick_start(l, unit_ms, tick) - now),
							 errdetail("Its ids go on from an advance, the restart floor or floors replayed from WAL, tick after tick, until the clock catches up; the view counts them as borrows. Logged once per state.")));
				if (unlikely(chk != ULID_FLOOR_OK))
					ulid_floor_reserve(st, inc, ms, ref, own, chk == ULID_FLOOR_BLOCKED);
				if (likely(chk != ULID_FLOOR_BLOCKED))
				{
					*out_tick = tick;
					*out_seq = seq;
					return;
				}
				break;			/* blocked: compute again */
			case WAIT:
				wait_for_clock(target);
				break;
			case STALE:
				site_lookup(site, node, true);
				st = site->st;
				inc = site->inc;
				break;
			case FAIL_START:
				report_out_of_time(l, kind, now, -1);
				break;
			case FAIL_BEHIND:
				report_clock_behind(l, kind, node, now, last_start, allowance);
				break;
			case FAIL_END:
				report_out_of_time(l, kind, now, last);
				break;
		}
	}
}

/* The call site's cache (fn_extra), created zeroed on its first call. */
static inline sf_site *
site_of(FunctionCallInfo fcinfo)
{
	sf_site    *site = (sf_site *) fcinfo->flinfo->fn_extra;

	if (unlikely(site == NULL))
	{
		site = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(sf_site));
		fcinfo->flinfo->fn_extra = site;
	}
	return site;
}

/* The layout argument of a snowflake_next() call site. */
static inline const sfl_layout *
site_layout(FunctionCallInfo fcinfo, sf_site *site)
{
	return sf_layout_arg_in(fcinfo, 0, &site->layout_slot);
}

/* The next Snowflake id of (layout, node). */
static inline int64
snowflake_next_id(sf_site *site, const sfl_layout *l, int64 node)
{
	int64		tick;
	uint64		seq;

	sf_next_parts(site, l, ((sf_layout_cache *) site->layout_slot)->version,
				  ULID_STATE_SNOWFLAKE, node, &tick, &seq);
	return (int64) sfl_pack(l, tick, (uint64) node, seq);
}

/* snowflake_next(layout): on this server's node (node.c). */
PG_FUNCTION_INFO_V1(snowflake_next);
Datum
snowflake_next(PG_FUNCTION_ARGS)
{
	sf_site    *site = site_of(fcinfo);
	const sfl_layout *l = site_layout(fcinfo, site);
	int64		node = ulid_node_id();

	if (unlikely(node < 0))
		ulid_node_report_none("Snowflake", "snowflake_next(layout)",
							  "snowflake_next(layout, node)");
	if (unlikely((uint64) node > sfl_max_node(l)))
		check_node(l, node, true);
	PG_RETURN_INT64(snowflake_next_id(site, l, node));
}

/*
 * snowflake_next(layout, node): a node this server owns (node.c).  Not
 * strict from 1.2 on: a NULL node is this server's node, as for
 * cosid80_next(NULL); a NULL layout gives NULL.
 */
PG_FUNCTION_INFO_V1(snowflake_next_node);
Datum
snowflake_next_node(PG_FUNCTION_ARGS)
{
	sf_site    *site;
	const sfl_layout *l;
	int64		node;

	if (unlikely(PG_ARGISNULL(0)))
		PG_RETURN_NULL();
	if (unlikely(PG_ARGISNULL(1)))
		return snowflake_next(fcinfo);
	site = site_of(fcinfo);
	l = site_layout(fcinfo, site);
	node = PG_GETARG_INT64(1);
	check_node(l, node, false);
	ulid_node_require_owned(node, "snowflake_next(layout, node)");
	PG_RETURN_INT64(snowflake_next_id(site, l, node));
}

/*
 * The advance that makes every later id of (kind, layout's bits, node)
 * greater than id, whichever node minted id: the state moves to the
 * largest (tick, sequence) whose id on node is at most id.  False when
 * every id of node lies above id (nothing to advance).  ERROR 22003 when id
 * is outside the layout.
 */
bool
sf_advance_of(const sfl_layout *l, int kind, int64 node, int64 id,
			  UlidAdvance *adv)
{
	uint64		max_seq = sfl_max_seq(l);
	sfl_parts	p = sf_unpack(l, id);
	int64		tick = p.tick;
	uint64		seq = p.seq;

	if ((uint64) node != p.node)
	{
		bool		above = (uint64) node > p.node;

		if (!l->seq_above_node)
		{
			/* ids of a tick order by node, then sequence */
			seq = max_seq;
			if (above)
				tick--;
		}
		else if (above)
		{
			/* ids of a tick order by sequence, then node */
			if (seq > 0)
				seq--;
			else
			{
				tick--;
				seq = max_seq;
			}
		}
		if (tick < 0)
			return false;		/* every id of this node is above id */
	}
	sf_advance_at(l, kind, node, tick, seq, adv);
	return true;
}

/* The advance that moves the state of (kind, layout, node) to (tick, seq). */
void
sf_advance_at(const sfl_layout *l, int kind, int64 node, int64 tick,
			  uint64 seq, UlidAdvance *adv)
{
	sf_state_key key;

	memset(adv, 0, sizeof(*adv));
	sfl_layout_key(l, &key.bits);
	key.node = node;
	adv->kind = (UlidStateKind) kind;
	memcpy(adv->key, &key, sizeof(key));
	adv->word[W_TICK] = (uint64) tick;
	adv->word[W_SEQ] = seq;
	adv->ms = tick_start(l, sfl_unit_ms((sfl_unit) l->unit), tick);
}

/*
 * snowflake_advance(layout, node, id): make every later id of (layout's
 * bits, node) greater than id (after restoring ids, moving servers, a
 * failover).  Its own floor is persisted above that tick first, so the
 * advance holds across restarts, and no other state or generator is moved.
 * Never moves the state back.
 */
PG_FUNCTION_INFO_V1(snowflake_advance);
Datum
snowflake_advance(PG_FUNCTION_ARGS)
{
	const sfl_layout *l = sf_layout_arg(fcinfo, 0);
	int64		node = PG_GETARG_INT64(1);
	UlidAdvance adv;

	ulid_require_superuser("advance snowflake_next()");
	check_node(l, node, false);
	if (sf_advance_of(l, ULID_STATE_SNOWFLAKE, node, PG_GETARG_INT64(2), &adv))
	{
		ulid_warn_far_ahead(adv.ms, "snowflake_advance()");
		ulid_advance_states(&adv, 1);
	}
	PG_RETURN_VOID();
}

/*
 * snowflake_reset(layout, node): undo snowflake_advance() on (layout's
 * bits, node).  The state forgets its own floor and goes on from the clock,
 * above what it issued before the advance; the ids it issued since may be
 * issued again once the clock gets there, which the WARNING says.
 */
PG_FUNCTION_INFO_V1(snowflake_reset);
Datum
snowflake_reset(PG_FUNCTION_ARGS)
{
	const sfl_layout *l = sf_layout_arg(fcinfo, 0);
	int64		node = PG_GETARG_INT64(1);

	ulid_require_superuser("reset snowflake_next()");
	check_node(l, node, false);
	sf_reset_state(l, ULID_STATE_SNOWFLAKE, node);
	PG_RETURN_VOID();
}

/* Undo an advance of the state of (kind, layout, node), saying what it drops. */
void
sf_reset_state(const sfl_layout *l, int kind_, int64 node)
{
	UlidStateKind kind = (UlidStateKind) kind_;
	UlidGenState *st;
	uint32		inc;
	int64		own_floor = 0;

	st = get_state(l, kind, node, &inc, false);
	if (!ulid_state_reset(st, inc, &own_floor))
	{
		ereport(NOTICE,
				(errmsg("%s, node " INT64_FORMAT ", is not advanced; nothing was reset",
						gen_label(l, kind), node),
				 errdetail("Only a state that %s moved ahead of the clock has its own floor to drop.",
						   kind == ULID_STATE_COSID80 ? "cosid80_advance()" : "snowflake_advance()")));
		return;
	}
	ereport(WARNING,
			(errmsg("%s, node " INT64_FORMAT ", no longer stays above the ids issued since its advance",
					gen_label(l, kind), node),
			 errdetail("It goes on from the clock again. Its ids until %s may be issued again once the clock reaches them, and ids stored from that time on may collide.",
					   ulid_iso_or_ms(own_floor)),
			 errhint("If ids from after the advance are stored, advance again to the largest of them instead.")));
}

/*
 * A layout with the bits of a state's key: the preset with these bits if
 * there is one, else a custom layout with one node field.  Returns whether
 * a preset matched.
 */
static bool
key_layout(const sfl_key *key, sfl_layout *l)
{
	char		msg[SFL_MSG_MAX];
	sfl_spec	spec;
	sfl_key		k;

	for (int p = SFL_CUSTOM + 1; p < SFL_NUM_PRESETS; p++)
	{
		if (sfl_preset_layout((sfl_preset) p, key->epoch_ms, key->node_bits,
							  l, msg, sizeof(msg)) != SFL_OK)
			continue;
		sfl_layout_key(l, &k);
		if (memcmp(&k, key, sizeof(k)) == 0)
			return true;
	}

	sfl_spec_init(&spec);
	sfl_word_set(&spec.name, "custom", 6);
	spec.has_time = true;
	spec.time_bits = key->time_bits;
	sfl_word_set(&spec.unit, sfl_unit_name((sfl_unit) key->unit),
				 strlen(sfl_unit_name((sfl_unit) key->unit)));
	spec.time_epoch_ms = key->epoch_ms;
	spec.has_fields = true;
	spec.nfields = key->node_bits > 0 ? 1 : 0;
	sfl_word_set(&spec.field_names[0], "n", 1);
	spec.field_bits[0] = key->node_bits;
	spec.has_sequence = true;
	spec.seq_bits = key->seq_bits;
	spec.has_sign = true;
	spec.sign = (key->flags & SFL_KEY_SIGN) != 0;
	spec.has_above = true;
	spec.seq_above_node = (key->flags & SFL_KEY_SEQ_ABOVE_NODE) != 0;
	if (sfl_build(&spec, l, msg, sizeof(msg)) != SFL_OK)
		elog(ERROR, "ulid generator state with an invalid layout key: %s", msg);
	return false;
}

/*
 * The view's row for a Snowflake state.  The layout column names the bit
 * structure the state serves: a preset's text when a preset has these bits,
 * else custom(...) with the node fields as one field, node (the state does
 * not know the field names or the reset rule of the layouts that use it).
 */
static void
describe(const UlidGenState *copy, UlidStateRow *row)
{
	sf_state_key key;
	sfl_layout	l;
	char		buf[SFL_TEXT_MAX];

	memcpy(&key, copy->key, sizeof(key));
	if (key_layout(&key.bits, &l))
	{
		sfl_format(&l, buf);
		row->layout = pstrdup(buf);
	}
	else
	{
		char		iso[32];
		char		fields[32] = "";

		sfl_format_iso(l.epoch_ms, iso);
		if (l.node_bits > 0)
			snprintf(fields, sizeof(fields), ", fields=node:%d", l.node_bits);
		row->layout = psprintf("custom(time=%d:%s:%s%s, sequence=%d, sign=%s, sequence_above_node=%s)",
							   l.time_bits, sfl_unit_name((sfl_unit) l.unit), iso,
							   fields, l.seq_bits, l.sign ? "true" : "false",
							   l.seq_above_node ? "true" : "false");
	}
	row->has_node = true;
	row->node = key.node;
	if (!copy->valid)
		return;
	row->has_last = true;
	row->last_tick = (int64) copy->word[W_TICK];
	row->last_unix_ms = sfl_tick_unix_ms(&l, row->last_tick);
	row->has_sequence = true;
	row->sequence = (int64) copy->word[W_SEQ];
	row->last_id = psprintf(INT64_FORMAT,
							(int64) sfl_pack(&l, row->last_tick, (uint64) key.node,
											 copy->word[W_SEQ]));
}

/* From _PG_init: the settings and the view's kind. */
void
ulid_gen_snowflake_init(void)
{
	DefineCustomIntVariable("ulid.clock_borrow_ms",
							"How far ahead of the clock snowflake_next() may issue ids (at least one tick of the layout).",
							"When the clock steps back by at most this much, or a tick's sequence runs out, ids are issued on a later time instead of waiting.",
							&clock_borrow_ms,
							5, 0, 3600000,
							PGC_SUSET, GUC_UNIT_MS,
							NULL, NULL, NULL);
	DefineCustomIntVariable("ulid.clock_wait_ms",
							"How far behind the last Snowflake id's time the clock may be for snowflake_next() to wait for it rather than fail.",
							"Beyond this, snowflake_next() fails with SQLSTATE 55000.",
							&clock_wait_ms,
							1000, 0, 3600000,
							PGC_SUSET, GUC_UNIT_MS,
							NULL, NULL, NULL);
	ulid_state_register_kind(ULID_STATE_SNOWFLAKE, "snowflake", describe);
}
