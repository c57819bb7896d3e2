/*-------------------------------------------------------------------------
 *
 * nodeset.c
 *	  Parsing, testing and printing sets of node numbers (nodeset.h).
 *
 *-------------------------------------------------------------------------
 */
#include "nodeset.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t
nodeset_max_ranges(const char *s, size_t len)
{
	size_t		n = 1;

	for (size_t i = 0; i < len; i++)
		if (s[i] == ',')
			n++;
	return n;
}

static bool
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static size_t
skip_blanks(const char *s, size_t len, size_t i)
{
	while (i < len && is_blank(s[i]))
		i++;
	return i;
}

/* A number at *i (after blanks), advancing *i past it and its blanks. */
static bool
parse_number(const char *s, size_t len, size_t *i, int64_t *out, size_t *pos,
			 char *msg, size_t msgsz)
{
	size_t		start;
	int64_t		v = 0;

	*i = skip_blanks(s, len, *i);
	start = *i;
	if (*i >= len || s[*i] < '0' || s[*i] > '9')
	{
		*pos = *i;
		if (*i >= len || s[*i] == ',')
			snprintf(msg, msgsz, "a node number is missing");
		else
			snprintf(msg, msgsz, "expected a node number, found \"%c\"", s[*i]);
		return false;
	}
	while (*i < len && s[*i] >= '0' && s[*i] <= '9')
	{
		if (v > (NODESET_MAX - (s[*i] - '0')) / 10)
		{
			*pos = start;
			snprintf(msg, msgsz, "the number is above %" PRId64 ", the largest node a layout has",
					 NODESET_MAX);
			return false;
		}
		v = v * 10 + (s[*i] - '0');
		(*i)++;
	}
	*i = skip_blanks(s, len, *i);
	*out = v;
	return true;
}

static int
cmp_range(const void *a, const void *b)
{
	const nodeset_range *x = a;
	const nodeset_range *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	if (x->hi != y->hi)
		return x->hi < y->hi ? -1 : 1;
	return 0;
}

bool
nodeset_parse(const char *s, size_t len, nodeset_range *out, size_t cap,
			  size_t *n, size_t *pos, char *msg, size_t msgsz)
{
	size_t		i = 0;
	size_t		k = 0;

	*n = 0;
	*pos = 0;
	if (msgsz > 0)
		msg[0] = '\0';
	if (skip_blanks(s, len, 0) == len)
		return true;			/* the empty set */
	for (;;)
	{
		int64_t		lo,
					hi;
		size_t		item = skip_blanks(s, len, i);

		if (!parse_number(s, len, &i, &lo, pos, msg, msgsz))
			return false;
		hi = lo;
		if (i < len && s[i] == '-')
		{
			i++;
			if (!parse_number(s, len, &i, &hi, pos, msg, msgsz))
				return false;
			if (hi < lo)
			{
				*pos = item;
				snprintf(msg, msgsz, "the range %" PRId64 "-%" PRId64 " runs backwards", lo, hi);
				return false;
			}
		}
		if (k >= cap)
		{
			*pos = item;
			snprintf(msg, msgsz, "more ranges than the caller made room for");
			return false;
		}
		out[k].lo = lo;
		out[k].hi = hi;
		k++;
		if (i >= len)
			break;
		if (s[i] != ',')
		{
			*pos = i;
			snprintf(msg, msgsz, "expected \",\" or \"-\" after a number, found \"%c\"", s[i]);
			return false;
		}
		i++;
	}

	/* sort, then merge overlapping and adjacent ranges */
	qsort(out, k, sizeof(nodeset_range), cmp_range);
	*n = 0;
	for (size_t j = 0; j < k; j++)
	{
		if (*n > 0 && out[j].lo <= out[*n - 1].hi + 1)
		{
			if (out[j].hi > out[*n - 1].hi)
				out[*n - 1].hi = out[j].hi;
		}
		else
			out[(*n)++] = out[j];
	}
	return true;
}

bool
nodeset_contains(const nodeset_range *r, size_t n, int64_t node)
{
	size_t		lo = 0,
				hi = n;

	while (lo < hi)
	{
		size_t		mid = lo + (hi - lo) / 2;

		if (node < r[mid].lo)
			hi = mid;
		else if (node > r[mid].hi)
			lo = mid + 1;
		else
			return true;
	}
	return false;
}

size_t
nodeset_format(const nodeset_range *r, size_t n, char *out, size_t outsz)
{
	size_t		total = 0;
	size_t		fits = 0;		/* the whole items that leave room for "..." */
	bool		truncated = false;

	if (outsz > 0)
		out[0] = '\0';
	for (size_t j = 0; j < n; j++)
	{
		char		item[48];
		int			len;

		if (r[j].lo == r[j].hi)
			len = snprintf(item, sizeof(item), "%s%" PRId64, j ? "," : "", r[j].lo);
		else
			len = snprintf(item, sizeof(item), "%s%" PRId64 "-%" PRId64, j ? "," : "",
						   r[j].lo, r[j].hi);
		if (!truncated && total + (size_t) len < outsz)
		{
			memcpy(out + total, item, (size_t) len + 1);
			if (total + (size_t) len + 3 < outsz)
				fits = total + (size_t) len;
		}
		else if (!truncated && outsz > 0)
		{
			/* the items that fit, then "...", within outsz - 1 bytes */
			truncated = true;
			if (fits + 3 < outsz)
				memcpy(out + fits, "...", 4);
			else
				out[0] = '\0';
		}
		total += (size_t) len;
	}
	return total;
}

bool
nodeset_overlaps(const nodeset_range *a, size_t na, const nodeset_range *b,
				 size_t nb)
{
	size_t		i = 0,
				j = 0;

	while (i < na && j < nb)
	{
		if (a[i].hi < b[j].lo)
			i++;
		else if (b[j].hi < a[i].lo)
			j++;
		else
			return true;
	}
	return false;
}
