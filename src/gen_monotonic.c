/*-------------------------------------------------------------------------
 *
 * gen_monotonic.c
 *	  gen_monotonic_ulid(): ULIDs strictly increasing across every backend
 *	  of the server, and ulid_monotonic_advance().
 *
 * One shared state (shmem.c: kind ULID_STATE_MONOTONIC_ULID, key all zero)
 * holds the last value issued.  The start and step rules are gen_ulid()'s
 * (gen.h): in a millisecond later than the last value's, a fresh value
 * (80 random bits, the top one cleared); otherwise (same millisecond, or
 * the clock behind the last value) the last value plus a random step in
 * 1..2^64, carrying into the time part.  So when the clock steps back the
 * generator keeps issuing on the last time it used, and on exhausting a
 * millisecond moves to the next: it never waits for the clock and never
 * fails on it.  A fresh value never starts below the state's restart floor
 * (min_ms), which is what keeps ids above those of before a restart.
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

#include "gen.h"
#include "shmem.h"

/* the state's words */
#define W_HI		0			/* last value: time << 16 | top random bits */
#define W_LO		1			/* last value: low 64 random bits */
#define W_VALID		2			/* 1 once a value is stored */

/* this backend's pointer to the state (states are never freed) */
static UlidGenState *monotonic_state = NULL;

static UlidGenState *
get_state(void)
{
	if (unlikely(monotonic_state == NULL))
	{
		uint8		key[ULID_STATE_KEY_BYTES] = {0};

		monotonic_state = ulid_state_get(ULID_STATE_MONOTONIC_ULID, key);
	}
	return monotonic_state;
}

/* The view's row for the state: the last value issued, if any. */
static void
describe(const UlidGenState *copy, UlidStateRow *row)
{
	uint8		bytes[ULID_BYTES];

	if (!copy->word[W_VALID])
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

PG_FUNCTION_INFO_V1(gen_monotonic_ulid);
Datum
gen_monotonic_ulid(PG_FUNCTION_ARGS)
{
	UlidGenState *st = get_state();
	uint64		fresh_hi = 0,
				fresh_lo = 0,
				step,
				hi,
				lo;
	bool		have_fresh = false;

	/*
	 * Randomness is drawn outside the spinlock: the step every time, the 80
	 * fresh bits of a new millisecond only when the state needs them (about
	 * once per millisecond for the whole server), going round once more.
	 */
	step = ulid_random_u64();

	for (;;)
	{
		int64		now = ulid_clock_now_ms();
		int64		ms;
		bool		exhausted;
		UlidFloorCheck chk;

		SpinLockAcquire(&st->mutex);
		if (!st->word[W_VALID] || now > (int64) (st->word[W_HI] >> 16))
		{
			if (!have_fresh)
			{
				SpinLockRelease(&st->mutex);
				ulid_fresh_halves(0, true, &fresh_hi, &fresh_lo);
				have_fresh = true;
				continue;
			}
			/* a later millisecond: start afresh, never below the floor */
			ms = Max(now, st->min_ms);
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
			st->failures++;
			SpinLockRelease(&st->mutex);
			ulid_report_time_exhausted();
		}
		chk = ulid_floor_check(ms);
		if (chk == ULID_FLOOR_BLOCKED)
			st->waits++;
		else
		{
			st->word[W_HI] = hi;
			st->word[W_LO] = lo;
			st->word[W_VALID] = 1;
			st->issued++;
			if (ms > now)
				st->borrows++;
		}
		SpinLockRelease(&st->mutex);

		if (likely(chk == ULID_FLOOR_OK))
			break;
		ulid_floor_reserve(ms, chk == ULID_FLOOR_BLOCKED);
		if (chk == ULID_FLOOR_REFRESH)
			break;
	}
	PG_RETURN_ULID_P(ulid_from_halves(hi, lo));
}

/*
 * ulid_monotonic_advance(ulid): make every later gen_monotonic_ulid() value
 * greater than the argument (after restoring a dump, moving servers, a
 * failover).  The persisted floor is raised above the argument's time first,
 * so the advance holds across restarts.  Never moves the state back.
 */
PG_FUNCTION_INFO_V1(ulid_monotonic_advance);
Datum
ulid_monotonic_advance(PG_FUNCTION_ARGS)
{
	pg_ulid_t  *target = PG_GETARG_ULID_P(0);
	uint64		thi = ulid_load_be64(target->data);
	uint64		tlo = ulid_load_be64(target->data + 8);
	UlidGenState *st;

	ulid_require_superuser("advance gen_monotonic_ulid()");
	st = get_state();
	ulid_floor_reserve((int64) (thi >> 16), true);

	SpinLockAcquire(&st->mutex);
	/* below the restart floor the next fresh value is above it anyway */
	if ((int64) (thi >> 16) >= st->min_ms &&
		(!st->word[W_VALID] || thi > st->word[W_HI] ||
		 (thi == st->word[W_HI] && tlo > st->word[W_LO])))
	{
		st->word[W_HI] = thi;
		st->word[W_LO] = tlo;
		st->word[W_VALID] = 1;
	}
	SpinLockRelease(&st->mutex);
	PG_RETURN_VOID();
}
