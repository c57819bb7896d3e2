/*-------------------------------------------------------------------------
 *
 * ulid_time.c
 *	  timestamptz <-> Unix milliseconds, with the ULID range checks.
 *
 * Integer arithmetic only: a timestamptz is microseconds since
 * 2000-01-01Z, a ULID's time part is milliseconds since 1970-01-01Z.
 *
 *-------------------------------------------------------------------------
 */
#include "ulid.h"

#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "layout.h"

/*
 * Unix milliseconds of ts (floored to the millisecond).  Infinite times and
 * times outside 1970-01-01Z .. 10889-08-02T05:31:50.655Z are 22008.
 */
int64
ulid_timestamptz_to_unix_ms(TimestampTz ts)
{
	int64		us;

	if (TIMESTAMP_NOT_FINITE(ts))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("timestamp out of range for type ulid: \"%s\"",
						TIMESTAMP_IS_NOBEGIN(ts) ? "-infinity" : "infinity"),
				 errdetail("A ULID holds a finite time from 1970-01-01 00:00:00Z to 10889-08-02 05:31:50.655Z."),
				 errhint("Pass a finite timestamp with time zone in that range.")));

	us = ts + ULID_UNIX_TO_PG_USECS;	/* no overflow: ts is far below 2^62 */
	if (us < 0 || us / 1000 > ULID_MAX_UNIX_MS)
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("timestamp out of range for type ulid: \"%s\"",
						timestamptz_to_str(ts)),
				 errdetail("A ULID holds a time from 1970-01-01 00:00:00Z to 10889-08-02 05:31:50.655Z."),
				 errhint("Pass a timestamp with time zone in that range.")));
	return us / 1000;
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
