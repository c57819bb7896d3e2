/*-------------------------------------------------------------------------
 *
 * nodeset.h
 *	  Sets of node numbers, as ulid.node_ids writes them (pure C, no
 *	  PostgreSQL): numbers and ranges separated by commas, such as
 *	  '0-8191' or '3,7,100-199'.
 *
 * Grammar: an empty (or all-blank) text is the empty set; otherwise items
 * separated by ',', each a decimal number N or a range N-M with N <= M,
 * blanks (space, tab) allowed around numbers.  Numbers are nodes of some
 * layout: 0 to NODESET_MAX (2^53 - 1, the most node bits a layout has).
 * The parsed set is sorted, with overlapping and adjacent ranges merged,
 * so equal sets have one canonical text (nodeset_format).
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_NODESET_H
#define ULID_NODESET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NODESET_MAX		((int64_t) ((UINT64_C(1) << 53) - 1))
#define NODESET_MSG_MAX	160

typedef struct nodeset_range
{
	int64_t		lo;
	int64_t		hi;				/* inclusive */
} nodeset_range;

/* The most ranges the text s can hold: the caller's capacity for parse. */
extern size_t nodeset_max_ranges(const char *s, size_t len);

/*
 * Parse s into out (cap ranges, at least nodeset_max_ranges()), *n the
 * ranges of the canonical set.  On failure returns false with *pos the
 * 0-based byte where the fault lies and msg (NUL-terminated) the reason.
 */
extern bool nodeset_parse(const char *s, size_t len, nodeset_range *out,
						  size_t cap, size_t *n, size_t *pos, char *msg,
						  size_t msgsz);

/* Whether node lies in the set (binary search). */
extern bool nodeset_contains(const nodeset_range *r, size_t n, int64_t node);

/*
 * The canonical text of a set ("" when empty) into out, truncated to
 * outsz - 1 bytes ending in "..." when it does not fit; returns the length
 * the whole text has.
 */
extern size_t nodeset_format(const nodeset_range *r, size_t n, char *out,
							 size_t outsz);

/* Whether the sets share a node. */
extern bool nodeset_overlaps(const nodeset_range *a, size_t na,
							 const nodeset_range *b, size_t nb);

#endif							/* ULID_NODESET_H */
