/*-------------------------------------------------------------------------
 *
 * ulid_time.c
 *	  timestamptz and timestamp <-> Unix milliseconds, with the ULID range
 *	  checks.  A timestamp (without time zone) is read and written as UTC
 *	  wall time, whatever the session's TimeZone.
 *
 * Integer arithmetic only: a timestamptz is microseconds since
 * 2000-01-01Z, a ULID's time part is milliseconds since 1970-01-01Z.
 *
 *-------------------------------------------------------------------------
 */
#include "ulid.h"

#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/datetime.h"
#include "utils/timestamp.h"

#include "layout.h"

/* A finite timestamp as ISO text for messages (timestamptz_to_str's form). */
static const char *
wall_time_to_str(Timestamp ts)
{
	struct pg_tm tm;
	fsec_t		fsec;
	char	   *buf = palloc(MAXDATELEN + 1);

	if (timestamp2tm(ts, NULL, &tm, &fsec, NULL, NULL) != 0)
		return "(timestamp out of range)";
	EncodeDateTime(&tm, fsec, false, 0, NULL, USE_ISO_DATES, buf);
	return buf;
}

/*
 * Unix milliseconds of ts (floored to the millisecond), where ts is a
 * timestamptz (a UTC instant) or a timestamp read as UTC wall time: both
 * count microseconds from 2000-01-01 00:00:00 UTC, so only the words of the
 * error differ (and the value is never shifted by the session's TimeZone).
 * Infinite times and times outside 1970-01-01 .. 10889-08-02 05:31:50.655
 * UTC are 22008.
 */
static int64
unix_ms_checked(int64 ts, bool with_zone)
{
	int64		us;

	if (TIMESTAMP_NOT_FINITE(ts))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("timestamp out of range for type ulid: \"%s\"",
						TIMESTAMP_IS_NOBEGIN(ts) ? "-infinity" : "infinity"),
				 with_zone ?
				 errdetail("A ULID holds a finite time from 1970-01-01 00:00:00Z to 10889-08-02 05:31:50.655Z.") :
				 errdetail("A ULID holds a finite UTC wall time from 1970-01-01 00:00:00 to 10889-08-02 05:31:50.655."),
				 with_zone ?
				 errhint("Pass a finite timestamp with time zone in that range.") :
				 errhint("Pass a finite timestamp without time zone in that range; it is read as UTC.")));

	us = ts + ULID_UNIX_TO_PG_USECS;	/* no overflow: ts is far below 2^62 */
	if (us < 0 || us / 1000 > ULID_MAX_UNIX_MS)
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("timestamp out of range for type ulid: \"%s\"",
						with_zone ? timestamptz_to_str(ts) : wall_time_to_str(ts)),
				 with_zone ?
				 errdetail("A ULID holds a time from 1970-01-01 00:00:00Z to 10889-08-02 05:31:50.655Z.") :
				 errdetail("A ULID holds a UTC wall time from 1970-01-01 00:00:00 to 10889-08-02 05:31:50.655."),
				 with_zone ?
				 errhint("Pass a timestamp with time zone in that range.") :
				 errhint("Pass a timestamp without time zone in that range; it is read as UTC.")));
	return us / 1000;
}

int64
ulid_timestamptz_to_unix_ms(TimestampTz ts)
{
	return unix_ms_checked(ts, true);
}

int64
ulid_timestamp_to_unix_ms(Timestamp ts)
{
	return unix_ms_checked(ts, false);
}

TimestampTz
ulid_unix_ms_to_timestamptz(int64 ms)
{
	return ms * 1000 - ULID_UNIX_TO_PG_USECS;
}

/* Unix ms of a finite timestamptz, floored, with no range check. */
int64
ulid_timestamptz_floor_unix_ms(TimestampTz ts)
{
	int64		ms = ts / 1000;

	if (ts % 1000 < 0)
		ms--;					/* floor, not truncation, before 2000 */
	return ms + ULID_UNIX_TO_PG_USECS / 1000;
}

/* "2026-01-01T00:00:00.000Z", or "N Unix ms" outside years 0000-9999. */
char *
ulid_iso_or_ms(int64 ms)
{
	char		buf[32];

	if (ms < 0 || ms > SFL_EPOCH_MAX_MS)
		return psprintf(INT64_FORMAT " Unix ms", ms);
	sfl_format_iso(ms, buf);
	return pstrdup(buf);
}

void
ulid_warn_far_ahead(int64 ms, const char *what)
{
	int64		now = ulid_clock_now_ms();

	if (ms - now <= ULID_FAR_AHEAD_MS)
		return;
	ereport(WARNING,
			(errmsg("%s moves the generator to %s, more than a day ahead of the clock",
					what, ulid_iso_or_ms(ms)),
			 errdetail("The generator issues from that time on at once, and every later id lies above it. An id that far ahead was usually not made by this generator (a random UUID converted to ulid, a wrong column)."),
			 errhint("If the value was a mistake, the generator's reset function (snowflake_reset(), cosid80_reset(), ulid_monotonic_reset()) undoes the advance.")));
}
