/*-------------------------------------------------------------------------
 *
 * sfcodec.c
 *	  CosId's friendly form and SCRU64's Base36 text (pure C).
 *
 *-------------------------------------------------------------------------
 */
#include "sfcodec.h"
#include "radix.h"

#include <stdio.h>
#include <string.h>

#define TIME_DIGITS 17			/* yyyyMMddHHmmssSSS */

/* Decimal digits of v (at least 1). */
int
sfl_decimal_width(uint64_t v)
{
	int			n = 1;

	while (v >= 10)
	{
		v /= 10;
		n++;
	}
	return n;
}

/* yyyyMMddHHmmssSSS-node-seq of a local time, node and sequence. */
bool
sfl_friendly_format(const sfl_layout *l, int64_t local_ms, uint64_t node,
					uint64_t seq, char *buf)
{
	sfl_civil	c;

	if (!sfl_civil_from_ms(local_ms, &c))
		return false;
	snprintf(buf, SFL_FRIENDLY_MAX, "%04d%02d%02d%02d%02d%02d%03d-%0*llu-%0*llu",
			 c.year, c.month, c.day, c.hour, c.minute, c.second, c.ms,
			 sfl_decimal_width(sfl_max_node(l)), (unsigned long long) node,
			 sfl_decimal_width(sfl_max_seq(l)), (unsigned long long) seq);
	return true;
}

/* Value of n decimal digits at s, or false if one is not a digit. */
static bool
decimal(const char *s, int n, uint64_t *v)
{
	*v = 0;
	for (int i = 0; i < n; i++)
	{
		if (s[i] < '0' || s[i] > '9')
			return false;
		*v = *v * 10 + (uint64_t) (s[i] - '0');
	}
	return true;
}

/* Read the friendly form back: shape, calendar, then node and sequence ranges. */
sfl_status
sfl_friendly_parse(const sfl_layout *l, const char *s, size_t len,
				   int64_t *local_ms, uint64_t *node, uint64_t *seq,
				   char *msg, size_t msglen)
{
	int			wn = sfl_decimal_width(sfl_max_node(l));
	int			ws = sfl_decimal_width(sfl_max_seq(l));
	size_t		want = TIME_DIGITS + 1 + (size_t) wn + 1 + (size_t) ws;
	uint64_t	t[7];
	static const int tw[7] = {4, 2, 2, 2, 2, 2, 3};
	sfl_civil	c;
	const char *p = s;

	if (len != want || s[TIME_DIGITS] != '-' || s[TIME_DIGITS + 1 + wn] != '-' ||
		!decimal(s + TIME_DIGITS + 1, wn, node) ||
		!decimal(s + TIME_DIGITS + 2 + wn, ws, seq))
		goto shape;
	for (int i = 0; i < 7; p += tw[i], i++)
		if (!decimal(p, tw[i], &t[i]))
			goto shape;
	c.year = (int) t[0];
	c.month = (int) t[1];
	c.day = (int) t[2];
	c.hour = (int) t[3];
	c.minute = (int) t[4];
	c.second = (int) t[5];
	c.ms = (int) t[6];
	if (!sfl_ms_from_civil(&c, local_ms))
	{
		snprintf(msg, msglen, "%.17s is not a valid date and time (yyyyMMddHHmmssSSS).", s);
		return SFL_ERR_SYNTAX;
	}
	if (*node > sfl_max_node(l))
	{
		snprintf(msg, msglen, "The node %llu is larger than %llu, the largest of this layout.",
				 (unsigned long long) *node, (unsigned long long) sfl_max_node(l));
		return SFL_ERR_RANGE;
	}
	if (*seq > sfl_max_seq(l))
	{
		snprintf(msg, msglen, "The sequence %llu is larger than %llu, the largest of this layout.",
				 (unsigned long long) *seq, (unsigned long long) sfl_max_seq(l));
		return SFL_ERR_RANGE;
	}
	return SFL_OK;

shape:
	snprintf(msg, msglen,
			 "A friendly id of this layout is yyyyMMddHHmmssSSS-%.*s-%.*s: 17 digits of local time, the node as %d digit%s and the sequence as %d digit%s, joined by hyphens.",
			 wn, "NNNNNNNNNNNNNNNNNNNN", ws, "SSSSSSSSSSSSSSSSSSSS",
			 wn, wn == 1 ? "" : "s", ws, ws == 1 ? "" : "s");
	return SFL_ERR_SYNTAX;
}

/* Value of a Base36 digit in any case, or -1 (the radix codec's digits). */
int
sfl_base36_digit(unsigned char c)
{
	return ulid_radix_digit(c, 36);
}

/* SCRU64's 12 lowercase Base36 digits of v < 36^12. */
bool
sfl_scru64_encode(uint64_t v, char *out)
{
	char		buf[ULID_RADIX_MAX_WIDTH];
	size_t		len;

	if (v >= SFL_SCRU64_LIMIT)
		return false;
	(void) ulid_radix_encode(v, 36, SFL_SCRU64_LEN, buf, &len);
	memcpy(out, buf, SFL_SCRU64_LEN);
	out[SFL_SCRU64_LEN] = '\0';
	return true;
}

/* 12 Base36 digits (any case) to their value (below 36^12 < 2^63). */
sfl_status
sfl_scru64_decode(const char *s, size_t len, uint64_t *v, long *bad_offset)
{
	ulid_codec_error err;

	*bad_offset = -1;
	if (len != SFL_SCRU64_LEN)
		return SFL_ERR_SYNTAX;
	if (ulid_radix_decode(s, len, 36, v, &err) != ULID_CODEC_OK)
	{
		*bad_offset = (long) err.pos;
		return SFL_ERR_SYNTAX;
	}
	return SFL_OK;
}
