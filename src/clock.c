/*-------------------------------------------------------------------------
 *
 * clock.c
 *	  The wall clock every generator reads, and its test hook.
 *
 * ulid.clock_offset_ms (for testing only) shifts this clock back, so tests
 * can exercise a wall clock that steps backwards for real: every generator
 * (gen_ulid(), gen_monotonic_ulid(), snowflake_next(), gen_uuidv7()) reads
 * the clock here.
 * Only backwards: ids issued on a clock shifted forward would be persisted
 * into the restart floor (floors.c) and keep every later id ahead of the
 * real time.  It is a SIGHUP setting, so it changes for all backends at
 * once, and only a superuser can set it (ALTER SYSTEM or postgresql.conf).
 *
 *-------------------------------------------------------------------------
 */
#include "ulid.h"

#include <limits.h>
#include <time.h>

#include "utils/guc.h"

/*
 * the setting's own int, the copy that ulid_clock_now_ms() (ulid.h) reads,
 * and the copy shifted as ulid_clock_now_tick16() adds it
 */
static int	clock_offset_ms = 0;
int64		ulid_clock_offset_ms = 0;
int64		ulid_clock_offset_tick16 = 0;

/* widened once per change, not once per id */
static void
assign_clock_offset(int newval, void *extra pg_attribute_unused())
{
	ulid_clock_offset_ms = newval;
	ulid_clock_offset_tick16 = (int64) newval * 65536;
}

void
ulid_clock_init(void)
{
	DefineCustomIntVariable("ulid.clock_offset_ms",
							"Shifts the ulid generators' clock back by this many milliseconds (for testing only).",
							"Zero or negative; a forward shift is rejected because it would be persisted into the restart floor.",
							&clock_offset_ms,
							0, -INT_MAX, 0,
							PGC_SIGHUP,
							GUC_UNIT_MS | GUC_NOT_IN_SAMPLE | GUC_SUPERUSER_ONLY,
							NULL, assign_clock_offset, NULL);
}

void
ulid_clock_failed(void)
{
	elog(ERROR, "clock_gettime(CLOCK_REALTIME) failed: %m");
}

/* CLOCK_REALTIME in Unix nanoseconds, plus the (non-positive) test offset */
int64
ulid_clock_now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
		ulid_clock_failed();
	return (int64) ts.tv_sec * 1000000000 + ts.tv_nsec + ulid_clock_offset_ms * 1000000;
}

/* The same clock in Unix microseconds (floored; the clock is after 1970) */
int64
ulid_clock_now_us(void)
{
	return ulid_clock_now_ns() / 1000;
}
