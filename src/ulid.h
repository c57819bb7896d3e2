/*-------------------------------------------------------------------------
 *
 * ulid.h
 *	  The ulid type in C, and what the extension's modules share.
 *
 * A ULID is 16 bytes, most significant first: bytes 0-5 are Unix time in
 * milliseconds, bytes 6-15 are 80 bits of randomness.  Byte order is numeric
 * order is time order, exactly as for uuid, so the two are binary-compatible.
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_H
#define ULID_H

#include "compat.h"

#include <time.h>

#include "datatype/timestamp.h"
#include "fmgr.h"
#include "nodes/nodes.h"

#include "base32.h"
#include "bytes.h"
#include "uuidv7.h"

/* largest Unix millisecond a ULID can hold: 2^48 - 1 */
#define ULID_MAX_UNIX_MS	((int64) 0xFFFFFFFFFFFF)

typedef struct pg_ulid_t
{
	uint8		data[ULID_BYTES];
} pg_ulid_t;

#define DatumGetUlidP(X)		((pg_ulid_t *) DatumGetPointer(X))
#define UlidPGetDatum(X)		PointerGetDatum(X)
#define PG_GETARG_ULID_P(n)		DatumGetUlidP(PG_GETARG_DATUM(n))
#define PG_RETURN_ULID_P(X)		return UlidPGetDatum(X)

static inline int64
ulid_get_unix_ms(const pg_ulid_t *u)
{
	return (int64) (ulid_load_be64(u->data) >> 16);
}

/* Build a ULID from its halves: hi = time << 16 | top 16 random bits. */
static inline pg_ulid_t *
ulid_from_halves(uint64 hi, uint64 lo)
{
	pg_ulid_t  *u = (pg_ulid_t *) palloc(sizeof(pg_ulid_t));

	ulid_store_be64(u->data, hi);
	ulid_store_be64(u->data + 8, lo);
	return u;
}

/* ulid_io.c: text to ULID; false (after a soft error) on bad input */
extern bool ulid_decode_text(const char *str, size_t len, pg_ulid_t *out,
							 Node *escontext);

/* microseconds from 1970-01-01Z (Unix) to 2000-01-01Z (timestamptz's epoch) */
#define ULID_UNIX_TO_PG_USECS \
	((int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * USECS_PER_DAY)

/*
 * ulid_time.c: conversions between timestamptz (or timestamp as UTC wall
 * time: the same microseconds) and Unix milliseconds
 */
extern int64 ulid_timestamptz_to_unix_ms(TimestampTz ts);
extern int64 ulid_timestamp_to_unix_ms(Timestamp ts);
extern int64 ulid_timestamptz_floor_unix_ms(TimestampTz ts);
extern TimestampTz ulid_unix_ms_to_timestamptz(int64 ms);
/* "2026-01-01T00:00:00.000Z" (UTC), or "N Unix ms" outside years 0-9999 */
extern char *ulid_iso_or_ms(int64 ms);
/* an id's time more than this far ahead of the clock is "far ahead" */
#define ULID_FAR_AHEAD_MS	((int64) 86400000)
/* WARNING when an advance by what (e.g. "snowflake_advance()") moves a
 * generator to ms, more than ULID_FAR_AHEAD_MS ahead of the clock */
extern void ulid_warn_far_ahead(int64 ms, const char *what);

/*
 * gen_uuidv7.c: uuid_timestamptz_to_v7(ts, zero) and uuid_timestamp_to_v7(ts,
 * zero), which uuid_read.c's planner support folds into constants
 */
extern Datum ulid_uuid_timestamptz_to_v7(PG_FUNCTION_ARGS);
extern Datum ulid_uuid_timestamp_to_v7(PG_FUNCTION_ARGS);

/* clock.c: the generators' wall clock */
extern void ulid_clock_init(void);
extern ULID_HIDDEN int64 ulid_clock_offset_ms;	/* ulid.clock_offset_ms */
extern ULID_HIDDEN int64 ulid_clock_offset_tick16;	/* the same << 16 */
extern void ulid_clock_failed(void);	/* ERROR: does not return */
extern int64 ulid_clock_now_us(void);
extern int64 ulid_clock_now_ns(void);

/*
 * CLOCK_REALTIME in Unix milliseconds (floored; the clock is after 1970),
 * plus the (non-positive) test offset ulid.clock_offset_ms.  Inline: it is
 * most of what a generator does.
 */
static inline int64
ulid_clock_now_ms(void)
{
	/* static, not on the stack: no stack-protector canary on the hot path */
	static struct timespec ts;

	if (unlikely(clock_gettime(CLOCK_REALTIME, &ts) != 0))
		ulid_clock_failed();
	/* tv_nsec is in 0..999999999: an unsigned 32-bit division is exact */
	return (int64) ts.tv_sec * 1000 + (int64) ((uint32) ts.tv_nsec / 1000000) +
		ulid_clock_offset_ms;
}

/*
 * The same clock as gen_ulid()'s first 64 bits with the low 4 clear: Unix
 * milliseconds << 16 | the 12-bit fraction of the millisecond << 4 (the
 * nanoseconds within it scaled to 4096ths, floored, as PostgreSQL 18's
 * uuidv7() computes it).  The offset comes pre-shifted and the fraction in
 * one multiply (core/uuidv7.h): gen_ulid() is mostly this.
 */
static inline uint64
ulid_clock_now_tick16(void)
{
	static struct timespec ts;

	if (unlikely(clock_gettime(CLOCK_REALTIME, &ts) != 0))
		ulid_clock_failed();
	/* 1000 << 16 ms per second fits an imul's 32-bit immediate */
	return (uint64) (ts.tv_sec * (1000 << 16) + ulid_clock_offset_tick16) +
		ulid_tick16_in_second((uint64) ts.tv_nsec);
}

/* random.h: pg_strong_random() output, buffered per backend */
#include "random.h"

/*
 * codecs.c: the 1-based number of the character of s[0..len) that holds byte
 * off (clipped to len), never counting a part of a multibyte character:
 * what an error detail quotes as a position
 */
extern int	ulid_char_number(const char *s, size_t len, size_t off);

/* codecs.c: TypeID text of 16 bytes; ERROR 22023 for an invalid prefix */
extern void ulid_check_typeid_prefix(text *prefix);
extern text *ulid_typeid_text(const uint8 *id, text *prefix);

#endif							/* ULID_H */
