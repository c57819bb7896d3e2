/*-------------------------------------------------------------------------
 *
 * gen_monotonic.c
 *	  gen_monotonic_ulid(): ULIDs strictly increasing across every backend
 *	  of the server, and ulid_monotonic_advance().
 *
 * One shared state (state_table.c: kind ULID_STATE_MONOTONIC_ULID, key all zero)
 * holds the last value issued.  The start and step rules are gen_ulid()'s
 * (gen.h): in a millisecond later than the last value's, a fresh value
 * (80 random bits, the top one cleared); otherwise (same millisecond, or
 * the clock behind the last value) the last value plus a random step in
 * 1..2^64, carrying into the time part.  So when the clock steps back the
 * generator keeps issuing on the last time it used, and on exhausting a
 * millisecond moves to the next: it never waits for the clock and never
 * fails on it.  A fresh value never starts below the state's base_ms
 * (floors.h), which is what keeps ids above those of before a restart.
 *
 * The clock is read and the randomness for both rules drawn before taking
 * the state's spinlock; inside it: one comparison, one 128-bit addition,
 * the floor check and three stores.
 *
 * The order is per server: a hot standby has its own state, and its ids
 * are not ordered with the primary's.
 *
 *-------------------------------------------------------------------------
 */
#include "ulid.h"

#include "advance.h"
#include "gen.h"
#include "floors.h"
#include "modules.h"
#include "stable_bound.h"
#include "state_view.h"

/* the state's words */
#define W_HI		0			/* last value: time << 16 | top random bits */
#define W_LO		1			/* last value: low 64 random bits */

/*
 * This backend's pointer to the state: slot 0, created at startup and never
 * reclaimed, so its incarnation never changes; and to the durable floor.
 */
static UlidGenState *monotonic_state = NULL;
static uint32 monotonic_incarnation;
static pg_atomic_uint64 *monotonic_durable = NULL;

/* out of line: its key array would give every caller a stack canary */
static pg_noinline UlidGenState *
lookup_state(void)
{
	uint8		key[ULID_STATE_KEY_BYTES] = {0};

	monotonic_state = ulid_state_get(ULID_STATE_MONOTONIC_ULID, key,
									 &monotonic_incarnation);
	monotonic_durable = ulid_floor_durable();
	ulid_bound_attach();
	return monotonic_state;
}

static inline UlidGenState *
get_state(void)
{
	if (unlikely(monotonic_state == NULL))
		return lookup_state();
	return monotonic_state;
}

/* The view's row for the state: the last value issued, if any. */
static void
describe(const UlidGenState *copy, UlidStateRow *row)
{
	uint8		bytes[ULID_BYTES];

	if (!copy->valid)
		return;
	ulid_store_be64(bytes, copy->word[W_HI]);
	ulid_store_be64(bytes + 8, copy->word[W_LO]);
	row->has_last = true;
	row->last_tick = row->last_unix_ms = (int64) (copy->word[W_HI] >> 16);
	row->last_id = palloc(ULID_TEXT_LEN + 1);
	ulid_b32_encode(bytes, row->last_id);
	row->last_id[ULID_TEXT_LEN] = '\0';
}

void
ulid_gen_monotonic_init(void)
{
	ulid_state_register_kind(ULID_STATE_MONOTONIC_ULID, "ulid", describe);
}

/* ERROR 22008: no ULID is left above the state (an advance's, if it was). */
static void
report_exhausted(bool advanced, int64 own_floor)
{
	if (!advanced)
		ulid_report_time_exhausted();
	ereport(ERROR,
			(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
			 errmsg("gen_monotonic_ulid() has no ULID left above its advanced state"),
			 errdetail_internal("%s", ulid_advance_detail(own_floor, "SELECT ulid_monotonic_reset()")),
			 errhint("The next ULID would lie past 10889-08-02 05:31:50.655Z because ulid_monotonic_advance() moved the generator there.")));
}

/*
 * Every case of gen_monotonic_ulid() (it tries the common one inline
 * first): the issuing loop of floors.h, with the step already drawn.  The
 * 80 fresh bits of a new millisecond are drawn only when the state needs
 * them (about once per millisecond for the whole server), going round once
 * more.  Randomness is always drawn outside the spinlock.
 */
static pg_noinline Datum
issue(UlidGenState *st, uint64 step, pg_ulid_t *u, bool first)
{
	uint64		fresh_hi = 0,
				fresh_lo = 0,
				hi,
				lo;
	bool		have_fresh = false;

	for (;;)
	{
		int64		now = ulid_clock_now_ms();
		int64		eff;
		int64		ms;
		bool		exhausted;
		bool		own;
		UlidFloorCheck chk;

		SpinLockAcquire(&st->mutex);
		eff = Max(now, st->base_ms);
		if (!st->valid || eff > (int64) (st->word[W_HI] >> 16))
		{
			if (!have_fresh)
			{
				SpinLockRelease(&st->mutex);
				ulid_fresh_halves(0, &fresh_hi, &fresh_lo);
				have_fresh = true;
				continue;
			}
			/* a later millisecond: start afresh, never below the base */
			ms = eff;
			exhausted = ms > ULID_MAX_UNIX_MS;
			hi = ((uint64) ms << 16) | fresh_hi;
			lo = fresh_lo;
		}
		else
		{
			hi = st->word[W_HI];
			lo = st->word[W_LO];
			exhausted = !ulid_add_step(&hi, &lo, step);
			ms = (int64) (hi >> 16);
		}
		if (unlikely(exhausted))
		{
			bool		advanced = st->advanced;
			int64		own_floor = st->own_floor;

			st->failures++;
			SpinLockRelease(&st->mutex);
			report_exhausted(advanced, own_floor);
		}
		chk = ulid_floor_check(st, ms, now, now, &own);
		if (chk == ULID_FLOOR_BLOCKED)
			st->waits++;
		else
		{
			st->word[W_HI] = hi;
			st->word[W_LO] = lo;
			ulid_state_issued(st, ms);
			if (ms > now)
				st->borrows++;
			if (first)			/* known: no compare with ulid_bound_noted */
				ulid_bound_note_new(st, hi, lo, ms);
			else
				ulid_bound_note(st, hi, lo, ms);
		}
		SpinLockRelease(&st->mutex);

		if (likely(chk == ULID_FLOOR_OK))
			break;
		ulid_floor_reserve(st, monotonic_incarnation, ms, now, own,
						   chk == ULID_FLOOR_BLOCKED);
		if (chk == ULID_FLOOR_REFRESH)
			break;
	}
	ulid_store_be64(u->data, hi);
	ulid_store_be64(u->data + 8, lo);
	PG_RETURN_ULID_P(u);
}

/*
 * The common case inline: a valid state at or ahead of the clock (and of
 * base_ms), its step not exhausting it, and the floor far above.  This is
 * exactly issue()'s first round when ulid_floor_check() says OK: the same
 * comparisons and stores, the floor read once.  Anything else goes to
 * issue(), which starts over.  first: the transaction's first id of st,
 * noted for the stable bound (stable_bound.h); a constant at both call
 * sites, so the compiler makes two copies and a later id pays only the
 * caller's compare and branch.
 *
 * Validity needs no test of its own here: a state without an id has
 * word[] zero (state_table.c and floors.c zero the words wherever they
 * clear valid), so its time 0 lies below the clock, which is after 1970,
 * and it goes to issue(), which tests valid.
 */
static pg_always_inline Datum
mint(UlidGenState *st, int64 now, uint64 step, pg_ulid_t *u, bool first)
{
	uint64		hi,
				lo;

	SpinLockAcquire(&st->mutex);
	hi = st->word[W_HI];
	lo = st->word[W_LO];
	if (Max(now, st->base_ms) <= (int64) (hi >> 16) &&
		likely(ulid_add_step(&hi, &lo, step)) &&
		ulid_floor_clear((int64) (hi >> 16), (int64) pg_atomic_read_u64(monotonic_durable)))
	{
		int64		ms = (int64) (hi >> 16);

		Assert(st->valid);
		st->word[W_HI] = hi;
		st->word[W_LO] = lo;
		/* ulid_state_issued(st, ms) but for valid, true already */
		st->last_ms = ms;
		st->issued++;
		if (ms > now)
			st->borrows++;
		if (first && !ulid_bound_note_last(st, hi, lo, ms))
		{
			ulid_bound_note_first(st, hi, lo, ms);
			/* reloaded: hi and lo live across no call (no extra register) */
			hi = st->word[W_HI];
			lo = st->word[W_LO];
		}
		SpinLockRelease(&st->mutex);
		ulid_store_be64(u->data, hi);
		ulid_store_be64(u->data + 8, lo);
		PG_RETURN_ULID_P(u);
	}
	SpinLockRelease(&st->mutex);
	return issue(st, step, u, first);
}

PG_FUNCTION_INFO_V1(gen_monotonic_ulid);
Datum
gen_monotonic_ulid(PG_FUNCTION_ARGS)
{
	UlidGenState *st = get_state();

	/*
	 * Allocated first, then the clock, then the step: only the result and
	 * the state (and the time, around the draw's slow path) live across a
	 * call.  Nothing is allocated under the spinlock: the id is written
	 * into u there.
	 */
	pg_ulid_t  *u = (pg_ulid_t *) palloc(sizeof(pg_ulid_t));
	int64		now = ulid_clock_now_ms();
	uint64		step = ulid_random_u64();

	if (likely(ulid_bound_is_noted(st)))
		return mint(st, now, step, u, false);
	return mint(st, now, step, u, true);	/* the transaction's first id */
}

void
ulid_monotonic_advance_of(const uint8 *bytes, UlidAdvance *adv)
{
	memset(adv, 0, sizeof(*adv));
	adv->kind = ULID_STATE_MONOTONIC_ULID;
	adv->word[W_HI] = ulid_load_be64(bytes);
	adv->word[W_LO] = ulid_load_be64(bytes + 8);
	adv->ms = (int64) (adv->word[W_HI] >> 16);
}

/*
 * ulid_monotonic_advance(ulid): make every later gen_monotonic_ulid() value
 * greater than the argument (after restoring a dump, moving servers, a
 * failover).  The state's own floor is persisted above the argument's time
 * first, so the advance holds across restarts; the server-wide floor and
 * the other generators are not touched.  Never moves the state back.
 */
PG_FUNCTION_INFO_V1(ulid_monotonic_advance);
Datum
ulid_monotonic_advance(PG_FUNCTION_ARGS)
{
	pg_ulid_t  *target = PG_GETARG_ULID_P(0);
	UlidAdvance adv;

	ulid_require_superuser("advance gen_monotonic_ulid()");
	ulid_monotonic_advance_of(target->data, &adv);
	ulid_warn_far_ahead(adv.ms, "ulid_monotonic_advance()");
	ulid_advance_states(&adv, 1);
	PG_RETURN_VOID();
}

/*
 * ulid_monotonic_reset(): undo ulid_monotonic_advance().  The state forgets
 * its own floor and goes on from the clock, above what it issued before the
 * advance; what it issued since may be issued again once the clock gets
 * there, which the WARNING says.
 */
PG_FUNCTION_INFO_V1(ulid_monotonic_reset);
Datum
ulid_monotonic_reset(PG_FUNCTION_ARGS)
{
	UlidGenState *st;
	int64		own_floor = 0;

	ulid_require_superuser("reset gen_monotonic_ulid()");
	st = get_state();
	if (!ulid_state_reset(st, monotonic_incarnation, &own_floor))
	{
		ereport(NOTICE,
				(errmsg("gen_monotonic_ulid() is not advanced; nothing was reset"),
				 errdetail("Only a state that ulid_monotonic_advance() moved ahead of the clock has its own floor to drop.")));
		PG_RETURN_VOID();
	}
	ereport(WARNING,
			(errmsg("gen_monotonic_ulid() no longer stays above the ids issued since its advance"),
			 errdetail("It goes on from the clock again. Its ids until %s may be issued again once the clock reaches them, and ids stored from that time on may collide.",
					   ulid_iso_or_ms(own_floor)),
			 errhint("If ids from after the advance are stored, advance again to the largest of them instead.")));
	PG_RETURN_VOID();
}
