/*-------------------------------------------------------------------------
 *
 * floor_text.h
 *	  The text of the persisted floor file (pure C, no PostgreSQL calls).
 *
 * Format version 2, written by this build:
 *
 *		ulid floor 2
 *		1712345678901
 *		2 0a1b...(64 hex digits)... 1893456000000
 *
 * the format version; the server-wide floor in Unix milliseconds (above
 * every id issued on the clock); then one line per advanced state: its
 * kind, its 32-byte key in lowercase hex and its own floor.  Numbers are
 * decimal, no sign, no leading zero, at most INT64_MAX.  Version 1 (written
 * by earlier builds) is the first two lines alone, "ulid floor 1"; it is
 * read, never written.  Parsing accepts exactly what formatting writes, so
 * an accepted text formats back to the same bytes (of its version).
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_FLOOR_TEXT_H
#define ULID_FLOOR_TEXT_H

#include <stddef.h>
#include <stdint.h>

#define ULID_FLOOR_VERSION		2
#define ULID_FLOOR_KEY_BYTES	32
/* the head: "ulid floor N\n", up to 19 digits and a newline */
#define ULID_FLOOR_HEAD_MAX		48
/* an entry: kind (up to 10 digits), key, floor, two spaces, a newline */
#define ULID_FLOOR_ENTRY_MAX	(10 + 1 + 2 * ULID_FLOOR_KEY_BYTES + 1 + 19 + 1)

typedef struct ulid_floor_entry
{
	uint32_t	kind;
	uint8_t		key[ULID_FLOOR_KEY_BYTES];
	uint64_t	ms;
} ulid_floor_entry;

typedef enum ulid_floor_text_status
{
	ULID_FLOOR_TEXT_OK = 0,
	ULID_FLOOR_TEXT_BAD_HEADER,	/* not "ulid floor N\n" */
	ULID_FLOOR_TEXT_BAD_VERSION,	/* a version this build does not read */
	ULID_FLOOR_TEXT_BAD_NUMBER,	/* the floor line is not a number */
	ULID_FLOOR_TEXT_TRUNCATED,	/* the text ends inside a line */
	ULID_FLOOR_TEXT_OVERFLOW,	/* a number above INT64_MAX */
	ULID_FLOOR_TEXT_BAD_ENTRY,	/* an entry line is malformed */
	ULID_FLOOR_TEXT_TOO_MANY	/* more entries than the caller has room for */
} ulid_floor_text_status;

/* The text of the head of version 2 for ms (clamped to INT64_MAX) into
 * out (ULID_FLOOR_HEAD_MAX bytes); returns its length, no terminator. */
extern size_t ulid_floor_format_head(uint64_t ms, char *out);

/* The line of one entry into out (ULID_FLOOR_ENTRY_MAX bytes). */
extern size_t ulid_floor_format_entry(const ulid_floor_entry *e, char *out);

/*
 * Parse len bytes (not NUL-terminated).  On OK: *version, *ms, and up to
 * max_entries entries in entries[] (*nentries of them).  On BAD_VERSION,
 * *version is the version the file names (0 if it is not a small number).
 * *line is the 1-based line where parsing stopped (for messages).
 */
extern ulid_floor_text_status ulid_floor_parse(const char *in, size_t len,
											   int *version, uint64_t *ms,
											   ulid_floor_entry *entries,
											   size_t max_entries,
											   size_t *nentries, int *line);

/* What a status means, for messages ("the floor line is not a number"). */
extern const char *ulid_floor_status_text(ulid_floor_text_status status);

#endif							/* ULID_FLOOR_TEXT_H */
