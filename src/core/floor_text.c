/*-------------------------------------------------------------------------
 *
 * floor_text.c
 *	  Formatting and parsing the persisted floor file's text.
 *
 *-------------------------------------------------------------------------
 */
#include "floor_text.h"

#include <string.h>

#define PREFIX		"ulid floor "
#define PREFIX_LEN	(sizeof(PREFIX) - 1)

static const char hexdigits[] = "0123456789abcdef";

/* Decimal digits of v into out; returns their number. */
static size_t
format_u64(uint64_t v, char *out)
{
	char		digits[20];
	size_t		n = 0;

	do
	{
		digits[n++] = (char) ('0' + v % 10);
		v /= 10;
	} while (v != 0);
	for (size_t i = 0; i < n; i++)
		out[i] = digits[n - 1 - i];
	return n;
}

size_t
ulid_floor_format_head(uint64_t ms, char *out)
{
	size_t		n;

	if (ms > INT64_MAX)
		ms = INT64_MAX;
	memcpy(out, PREFIX, PREFIX_LEN);
	n = PREFIX_LEN;
	n += format_u64(ULID_FLOOR_VERSION, out + n);
	out[n++] = '\n';
	n += format_u64(ms, out + n);
	out[n++] = '\n';
	return n;
}

size_t
ulid_floor_format_entry(const ulid_floor_entry *e, char *out)
{
	size_t		n = format_u64(e->kind, out);
	uint64_t	ms = e->ms > INT64_MAX ? INT64_MAX : e->ms;

	out[n++] = ' ';
	for (int i = 0; i < ULID_FLOOR_KEY_BYTES; i++)
	{
		out[n++] = hexdigits[e->key[i] >> 4];
		out[n++] = hexdigits[e->key[i] & 15];
	}
	out[n++] = ' ';
	n += format_u64(ms, out + n);
	out[n++] = '\n';
	return n;
}

/*
 * A decimal number (no sign, no leading zero, at most max) at *p, ending
 * before end; advances *p past it.
 */
static ulid_floor_text_status
parse_u64(const char **p, const char *end, uint64_t max, uint64_t *v,
		  ulid_floor_text_status bad)
{
	const char *s = *p;
	uint64_t	r = 0;

	if (s >= end || *s < '0' || *s > '9')
		return s >= end ? ULID_FLOOR_TEXT_TRUNCATED : bad;
	if (*s == '0' && s + 1 < end && s[1] >= '0' && s[1] <= '9')
		return bad;				/* a leading zero */
	for (; s < end && *s >= '0' && *s <= '9'; s++)
	{
		if (r > (max - (uint64_t) (*s - '0')) / 10)
			return ULID_FLOOR_TEXT_OVERFLOW;
		r = r * 10 + (uint64_t) (*s - '0');
	}
	*p = s;
	*v = r;
	return ULID_FLOOR_TEXT_OK;
}

/* The character c at *p (advancing past it), else bad or TRUNCATED. */
static ulid_floor_text_status
expect(const char **p, const char *end, char c, ulid_floor_text_status bad)
{
	if (*p >= end)
		return ULID_FLOOR_TEXT_TRUNCATED;
	if (**p != c)
		return bad;
	(*p)++;
	return ULID_FLOOR_TEXT_OK;
}

static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

ulid_floor_text_status
ulid_floor_parse(const char *in, size_t len, int *version, uint64_t *ms,
				 ulid_floor_entry *entries, size_t max_entries,
				 size_t *nentries, int *line)
{
	const char *p = in;
	const char *end = in + len;
	uint64_t	v;
	ulid_floor_text_status st;

	*nentries = 0;
	*version = 0;
	*line = 1;
	if (len < PREFIX_LEN || memcmp(in, PREFIX, PREFIX_LEN) != 0)
		return len < PREFIX_LEN && memcmp(in, PREFIX, len) == 0 && len > 0 ?
			ULID_FLOOR_TEXT_TRUNCATED : ULID_FLOOR_TEXT_BAD_HEADER;
	p += PREFIX_LEN;
	st = parse_u64(&p, end, 1000000, &v, ULID_FLOOR_TEXT_BAD_HEADER);
	if (st == ULID_FLOOR_TEXT_OVERFLOW)
		return ULID_FLOOR_TEXT_BAD_VERSION;
	if (st != ULID_FLOOR_TEXT_OK)
		return st;
	if ((st = expect(&p, end, '\n', ULID_FLOOR_TEXT_BAD_HEADER)) != ULID_FLOOR_TEXT_OK)
		return st;
	*version = (int) v;
	if (v != 1 && v != 2)
		return ULID_FLOOR_TEXT_BAD_VERSION;

	*line = 2;
	if ((st = parse_u64(&p, end, INT64_MAX, ms, ULID_FLOOR_TEXT_BAD_NUMBER)) != ULID_FLOOR_TEXT_OK)
		return st;
	if ((st = expect(&p, end, '\n', ULID_FLOOR_TEXT_BAD_NUMBER)) != ULID_FLOOR_TEXT_OK)
		return st;

	while (p < end)
	{
		ulid_floor_entry *e;

		(*line)++;
		if (*version == 1)
			return ULID_FLOOR_TEXT_BAD_NUMBER;	/* version 1 has two lines */
		if (*nentries >= max_entries)
			return ULID_FLOOR_TEXT_TOO_MANY;
		e = &entries[*nentries];
		if ((st = parse_u64(&p, end, UINT32_MAX, &v, ULID_FLOOR_TEXT_BAD_ENTRY)) != ULID_FLOOR_TEXT_OK)
			return st == ULID_FLOOR_TEXT_OVERFLOW ? ULID_FLOOR_TEXT_BAD_ENTRY : st;
		e->kind = (uint32_t) v;
		if ((st = expect(&p, end, ' ', ULID_FLOOR_TEXT_BAD_ENTRY)) != ULID_FLOOR_TEXT_OK)
			return st;
		for (int i = 0; i < ULID_FLOOR_KEY_BYTES; i++)
		{
			int			hi,
						lo;

			if (end - p < 2)
				return ULID_FLOOR_TEXT_TRUNCATED;
			hi = hexval(p[0]);
			lo = hexval(p[1]);
			if (hi < 0 || lo < 0)
				return ULID_FLOOR_TEXT_BAD_ENTRY;
			e->key[i] = (uint8_t) (hi << 4 | lo);
			p += 2;
		}
		if ((st = expect(&p, end, ' ', ULID_FLOOR_TEXT_BAD_ENTRY)) != ULID_FLOOR_TEXT_OK)
			return st;
		if ((st = parse_u64(&p, end, INT64_MAX, &e->ms, ULID_FLOOR_TEXT_BAD_ENTRY)) != ULID_FLOOR_TEXT_OK)
			return st;
		if ((st = expect(&p, end, '\n', ULID_FLOOR_TEXT_BAD_ENTRY)) != ULID_FLOOR_TEXT_OK)
			return st;
		(*nentries)++;
	}
	return ULID_FLOOR_TEXT_OK;
}

const char *
ulid_floor_status_text(ulid_floor_text_status status)
{
	switch (status)
	{
		case ULID_FLOOR_TEXT_OK:
			return "it is valid";
		case ULID_FLOOR_TEXT_BAD_HEADER:
			return "its first line is not \"ulid floor N\"";
		case ULID_FLOOR_TEXT_BAD_VERSION:
			return "it has a format version this build does not read (it reads 1 and 2)";
		case ULID_FLOOR_TEXT_BAD_NUMBER:
			return "its floor line is not a number of milliseconds";
		case ULID_FLOOR_TEXT_TRUNCATED:
			return "it ends in the middle of a line (truncated)";
		case ULID_FLOOR_TEXT_OVERFLOW:
			return "a number in it is too large";
		case ULID_FLOOR_TEXT_BAD_ENTRY:
			return "a state's floor line is malformed";
		case ULID_FLOOR_TEXT_TOO_MANY:
			return "it holds more state floors than there are shared generator states";
	}
	return "it is unreadable";
}
