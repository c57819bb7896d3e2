/*-------------------------------------------------------------------------
 *
 * floor_text.h
 *	  The text of the persisted floor file (pure C, no PostgreSQL calls).
 *
 * The file holds two lines, so an operator can read it:
 *
 *		ulid floor 1
 *		1712345678901
 *
 * the format version, then the floor in Unix milliseconds: decimal, no sign,
 * no leading zero, at most INT64_MAX.  Parsing accepts exactly what
 * formatting writes, so an accepted text formats back to the same bytes.
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_FLOOR_TEXT_H
#define ULID_FLOOR_TEXT_H

#include <stddef.h>
#include <stdint.h>

#define ULID_FLOOR_HEADER		"ulid floor 1\n"
/* room for the longest text: the header, 19 digits and a newline */
#define ULID_FLOOR_TEXT_MAX		48

typedef enum ulid_floor_text_status
{
	ULID_FLOOR_TEXT_OK = 0,
	ULID_FLOOR_TEXT_BAD_HEADER,	/* not "ulid floor 1\n" */
	ULID_FLOOR_TEXT_BAD_NUMBER,	/* no digits, a leading zero, or something
								 * else than one final newline after them */
	ULID_FLOOR_TEXT_OVERFLOW	/* above INT64_MAX */
} ulid_floor_text_status;

/*
 * Write the text for ms (0..INT64_MAX) into out, which has room for
 * ULID_FLOOR_TEXT_MAX bytes; returns its length (no terminator written).
 */
extern size_t ulid_floor_format(uint64_t ms, char *out);

/* Parse len bytes (not NUL-terminated) written by ulid_floor_format. */
extern ulid_floor_text_status ulid_floor_parse(const char *in, size_t len,
											   uint64_t *ms);

#endif							/* ULID_FLOOR_TEXT_H */
