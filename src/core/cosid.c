/*-------------------------------------------------------------------------
 *
 * cosid.c
 *	  CosId 5.0's codec chain and COSID_80 text (pure C).
 *
 * See cosid.h.  Encoding writes the wraps' front parts (prefixes, dates
 * with their delimiters) outermost first, then the first item's text, then
 * the suffixes innermost first.  Decoding strips them in the same order
 * from both ends and reads what remains strictly: no leading zeros unless
 * padded, lowercase letters for radixes up to 36, so a decoded text always
 * re-encodes to itself.
 *
 *-------------------------------------------------------------------------
 */
#include "cosid.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base62.h"
#include "radix.h"
#include "sfcodec.h"

/* the fields of a date pattern */
enum
{
	F_LITERAL = 0,
	F_YEAR4,
	F_YEAR2,
	F_MONTH,
	F_DAY,
	F_HOUR,
	F_MINUTE,
	F_SECOND,
	F_MS
};

/* each field's letters, by F_* */
static const char *const field_letters[] = {"", "yyyy", "yy", "MM", "dd", "HH", "mm", "ss", "SSS"};

#define DAY_MS		INT64_C(86400000)

#define PATTERN_HELP "yyyy, yy, MM, dd, HH, mm, ss and SSS, with any ASCII punctuation or spaces between them"

SFL_PRINTF(3, 4)
static cosid_status
fail(cosid_error *err, cosid_status st, const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return st;
}

/* a syntax error at byte pos */
SFL_PRINTF(3, 4)
static cosid_status
fail_at(cosid_error *err, size_t pos, const char *fmt,...)
{
	va_list		ap;

	err->pos = pos;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return COSID_ERR_SYNTAX;
}

const char *
cosid_jtype_name(cosid_jtype t)
{
	switch (t)
	{
		case COSID_J_NULL:
			return "null";
		case COSID_J_BOOL:
			return "a boolean";
		case COSID_J_NUMBER:
			return "a number";
		case COSID_J_STRING:
			return "a string";
		case COSID_J_ARRAY:
			return "an array";
		case COSID_J_OBJECT:
			return "an object";
	}
	return "a value";
}

void
cosid_codec_init(cosid_codec *c)
{
	memset(c, 0, sizeof(*c));
	c->first = COSID_FIRST_DECIMAL;
	c->radix = 10;
}

void
cosid_codec_shape_error(cosid_error *err, int index, const char *kind,
						size_t kind_len, const char *what)
{
	err->pos = 0;
	if (index < 0)
		snprintf(err->msg, sizeof(err->msg), "%s", what);
	else if (kind)
		snprintf(err->msg, sizeof(err->msg), "codec[%d] (\"%.*s\"): %s", index,
				 (int) (kind_len > 40 ? 40 : kind_len), kind, what);
	else
		snprintf(err->msg, sizeof(err->msg), "codec[%d]: %s", index, what);
}

static bool
word_is(const char *s, size_t len, const char *w)
{
	return len == strlen(w) && memcmp(s, w, len) == 0;
}

/* the item being added, for messages */
typedef struct item_ctx
{
	int			index;
	const char *kind;
	cosid_error *err;
} item_ctx;

SFL_PRINTF(2, 3)
static cosid_status
bad(const item_ctx *ic, const char *fmt,...)
{
	char		what[COSID_MSG_MAX];
	va_list		ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	cosid_codec_shape_error(ic->err, ic->index, ic->kind, strlen(ic->kind), what);
	return COSID_ERR_CODEC;
}

/*
 * The members of an object item: each must be one of the names in allowed
 * (NULL-terminated); found[k] receives the member of allowed[k] or NULL.
 */
static cosid_status
members(const item_ctx *ic, const cosid_item *it, const char *const *allowed,
		const char *help, const cosid_jval **found)
{
	int			n = 0;

	while (allowed[n])
		found[n++] = NULL;
	if (it->value.type != COSID_J_OBJECT)
		return bad(ic, "the value is %s; it is an object of %s.",
				   cosid_jtype_name(it->value.type), help);
	if (it->nmembers > COSID_MAX_MEMBERS)
		return bad(ic, "the object has %d members; it takes %s.", it->nmembers, help);
	for (int m = 0; m < it->nmembers; m++)
	{
		int			k;

		for (k = 0; k < n; k++)
			if (word_is(it->names[m], it->name_lens[m], allowed[k]))
				break;
		if (k == n)
			return bad(ic, "unknown member \"%.*s\"; it takes %s.",
					   (int) (it->name_lens[m] > 40 ? 40 : it->name_lens[m]),
					   it->names[m], help);
		found[k] = &it->members[m];
	}
	return COSID_OK;
}

static cosid_status
want_type(const item_ctx *ic, const char *name, const cosid_jval *v,
		  cosid_jtype t)
{
	if (v->type == t)
		return COSID_OK;
	return bad(ic, "\"%s\" is %s; it must be %s.", name, cosid_jtype_name(v->type),
			   cosid_jtype_name(t));
}

static cosid_status
want_int(const item_ctx *ic, const char *name, const cosid_jval *v,
		 int64_t lo, int64_t hi, int *out)
{
	if (v->type != COSID_J_NUMBER || !v->is_int || v->i < lo || v->i > hi)
		return bad(ic, "\"%s\" must be an integer from %lld to %lld.", name,
				   (long long) lo, (long long) hi);
	*out = (int) v->i;
	return COSID_OK;
}

/* a string member of 1 (or 0 when empty_ok) to max bytes into buf */
static cosid_status
want_string(const item_ctx *ic, const char *name, const cosid_jval *v,
			bool empty_ok, size_t max, char *buf, uint8_t *len)
{
	if (want_type(ic, name, v, COSID_J_STRING) != COSID_OK)
		return COSID_ERR_CODEC;
	if ((v->len == 0 && !empty_ok) || v->len > max)
		return bad(ic, "\"%s\" has %zu bytes; it takes %d to %zu.", name, v->len,
				   empty_ok ? 0 : 1, max);
	memcpy(buf, v->s, v->len);
	buf[v->len] = '\0';
	if (len)
		*len = (uint8_t) v->len;
	return COSID_OK;
}

/* Compile a date pattern into w's tokens. */
static cosid_status
compile_pattern(const item_ctx *ic, const char *p, size_t len, cosid_wrap *w)
{
	bool		has_field = false;

	w->ntokens = 0;
	w->date_len = 0;
	for (size_t i = 0; i < len;)
	{
		unsigned char ch = (unsigned char) p[i];
		cosid_token *t = &w->tokens[w->ntokens++];

		if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'))
		{
			size_t		n = 1;

			while (i + n < len && p[i + n] == (char) ch)
				n++;
			t->field = F_LITERAL;
			for (int f = F_YEAR4; f <= F_MS; f++)
				if (ch == (unsigned char) field_letters[f][0] && n == strlen(field_letters[f]))
					t->field = (uint8_t) f;
			if (t->field == F_LITERAL)
				return bad(ic, "the pattern letters \"%.*s\" at offset %zu are no field; the pattern has %s.",
						   (int) n, p + i, i, PATTERN_HELP);
			t->width = (uint8_t) n;
			has_field = true;
			i += n;
		}
		else if (ch >= 0x20 && ch < 0x7f && !(ch >= '0' && ch <= '9'))
		{
			t->field = F_LITERAL;
			t->width = 1;
			t->literal = (char) ch;
			i++;
		}
		else
			return bad(ic, "the pattern has the byte 0x%02x at offset %zu; it has %s.",
					   ch, i, PATTERN_HELP);
		w->date_len = (uint8_t) (w->date_len + t->width);
	}
	if (!has_field)
		return bad(ic, "the pattern \"%.*s\" has no date field; it has %s.",
				   (int) len, p, PATTERN_HELP);
	/* every field is constant within a period of the finest one */
	w->period_ms = DAY_MS;
	for (int i = 0; i < w->ntokens; i++)
	{
		static const int64_t unit[] = {0, DAY_MS, DAY_MS, DAY_MS, DAY_MS, 3600000, 60000, 1000, 1};

		if (w->tokens[i].field != F_LITERAL && unit[w->tokens[i].field] < w->period_ms)
			w->period_ms = unit[w->tokens[i].field];
	}
	w->memo_valid = false;
	return COSID_OK;
}

static cosid_status
add_radix(cosid_codec *c, const item_ctx *ic, const cosid_item *it)
{
	static const char *const allowed[] = {"radix", "width", "pad", NULL};
	const char *help = "\"radix\" (2 to 62), \"width\" (1 to 64) and \"pad\" (a boolean; true needs a width)";
	const cosid_jval *f[3];
	int			v = 0;

	if (members(ic, it, allowed, help, f) != COSID_OK)
		return COSID_ERR_CODEC;
	if (!f[0])
		return bad(ic, "\"radix\" is missing; it takes %s.", help);
	if (want_int(ic, "radix", f[0], ULID_RADIX_MIN, ULID_RADIX_MAX, &v) != COSID_OK)
		return COSID_ERR_CODEC;
	c->radix = (uint8_t) v;
	if (f[1])
	{
		if (want_int(ic, "width", f[1], 1, ULID_RADIX_MAX_WIDTH, &v) != COSID_OK)
			return COSID_ERR_CODEC;
		c->width = (uint8_t) v;
	}
	if (f[2])
	{
		if (want_type(ic, "pad", f[2], COSID_J_BOOL) != COSID_OK)
			return COSID_ERR_CODEC;
		c->pad = f[2]->b;
		if (c->pad && !f[1])
			return bad(ic, "\"pad\": true needs a \"width\" to pad to.");
	}
	c->first = COSID_FIRST_RADIX;
	return COSID_OK;
}

static cosid_status
add_friendly(cosid_codec *c, const item_ctx *ic, const cosid_item *it)
{
	static const char *const allowed[] = {"zone", "pad", NULL};
	const char *help = "\"zone\" (a time zone name, required) and \"pad\" (a boolean, default true)";
	const cosid_jval *f[2];

	if (members(ic, it, allowed, help, f) != COSID_OK)
		return COSID_ERR_CODEC;
	if (!f[0])
		return bad(ic, "\"zone\" is missing: CosId's friendly codec always names its zone, such as \"UTC\".");
	if (want_string(ic, "zone", f[0], false, COSID_ZONE_MAX, c->zone, NULL) != COSID_OK)
		return COSID_ERR_CODEC;
	c->has_zone = true;
	c->pad = true;
	if (f[1])
	{
		if (want_type(ic, "pad", f[1], COSID_J_BOOL) != COSID_OK)
			return COSID_ERR_CODEC;
		c->pad = f[1]->b;
	}
	c->first = COSID_FIRST_FRIENDLY;
	c->uses_id_time = true;
	return COSID_OK;
}

static cosid_status
add_date(cosid_codec *c, const item_ctx *ic, const cosid_item *it, cosid_wrap *w)
{
	static const char *const allowed[] = {"pattern", "delimiter", "source", NULL};
	const char *help = "\"pattern\" (such as \"yyMMdd\", required), \"delimiter\" (a string, default \"\") and \"source\" (\"id_time\" or \"now\", required)";
	const cosid_jval *f[3];
	char		pattern[COSID_PATTERN_MAX + 1];
	uint8_t		plen;

	if (members(ic, it, allowed, help, f) != COSID_OK)
		return COSID_ERR_CODEC;
	if (!f[0])
		return bad(ic, "\"pattern\" is missing; it takes %s.", help);
	if (want_string(ic, "pattern", f[0], false, COSID_PATTERN_MAX, pattern, &plen) != COSID_OK ||
		compile_pattern(ic, pattern, plen, w) != COSID_OK)
		return COSID_ERR_CODEC;
	if (f[1] && want_string(ic, "delimiter", f[1], true, COSID_AFFIX_MAX, w->text, &w->len) != COSID_OK)
		return COSID_ERR_CODEC;
	if (!f[2])
		return bad(ic, "\"source\" is missing: \"id_time\" (the id's own time) or \"now\" (the time you pass).");
	if (want_type(ic, "source", f[2], COSID_J_STRING) != COSID_OK)
		return COSID_ERR_CODEC;
	if (word_is(f[2]->s, f[2]->len, "id_time"))
	{
		w->source = COSID_SOURCE_ID_TIME;
		c->uses_id_time = true;
		c->id_dates = true;
	}
	else if (word_is(f[2]->s, f[2]->len, "now"))
	{
		w->source = COSID_SOURCE_NOW;
		c->uses_now = true;
	}
	else
		return bad(ic, "\"source\" is \"%.*s\"; it is \"id_time\" (the id's own time) or \"now\" (the time you pass).",
				   (int) (f[2]->len > 40 ? 40 : f[2]->len), f[2]->s);
	return COSID_OK;
}

cosid_status
cosid_codec_add(cosid_codec *c, int index, const cosid_item *it,
				cosid_error *err)
{
	static const char *const kinds[] = {"radix", "friendly", "prefix", "suffix", "date_prefix", NULL};
	item_ctx	ic = {index, "", err};
	int			k;
	cosid_wrap *w;

	err->pos = 0;
	if (it->nkeys != 1)
	{
		snprintf(err->msg, sizeof(err->msg),
				 "codec[%d]: an item is an object with one key, its kind (radix, friendly, prefix, suffix or date_prefix); this one has %d keys.",
				 index, it->nkeys);
		return COSID_ERR_CODEC;
	}
	for (k = 0; kinds[k]; k++)
		if (word_is(it->kind, it->kind_len, kinds[k]))
			break;
	if (!kinds[k])
	{
		snprintf(err->msg, sizeof(err->msg),
				 "codec[%d]: unknown item \"%.*s\"; the items are radix, friendly (first only), prefix, suffix and date_prefix.",
				 index, (int) (it->kind_len > 40 ? 40 : it->kind_len), it->kind);
		return COSID_ERR_CODEC;
	}
	ic.kind = kinds[k];
	if (k <= 1)
	{
		if (index != 0)
			return bad(&ic, "the item that turns the id into text comes first, at codec[0]; the items after it (prefix, suffix, date_prefix) wrap its text.");
		return k == 0 ? add_radix(c, &ic, it) : add_friendly(c, &ic, it);
	}
	if (c->nwraps >= COSID_MAX_ITEMS)
		return bad(&ic, "a codec has at most %d items.", COSID_MAX_ITEMS);
	w = &c->wraps[c->nwraps];
	memset(w, 0, sizeof(*w));
	w->index = index;
	if (k == 2 || k == 3)
	{
		w->kind = k == 2 ? COSID_WRAP_PREFIX : COSID_WRAP_SUFFIX;
		if (it->value.type != COSID_J_STRING)
			return bad(&ic, "the value is %s; it is the %s's text, a string such as \"O\".",
					   cosid_jtype_name(it->value.type), kinds[k]);
		if (want_string(&ic, kinds[k], &it->value, false, COSID_AFFIX_MAX, w->text, &w->len) != COSID_OK)
			return COSID_ERR_CODEC;
	}
	else
	{
		w->kind = COSID_WRAP_DATE;
		if (add_date(c, &ic, it, w) != COSID_OK)
			return COSID_ERR_CODEC;
	}
	c->nwraps++;
	return COSID_OK;
}

/* --- dates -------------------------------------------------------------- */

static const char digit_pairs[201] =
"0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849"
"5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899";

/* v (0..9999) as width (2, 3 or 4) digits */
static inline void
put_digits(char *out, int v, int width)
{
	if (width == 4)
	{
		memcpy(out, digit_pairs + 2 * (v / 100), 2);
		memcpy(out + 2, digit_pairs + 2 * (v % 100), 2);
	}
	else if (width == 3)
	{
		out[0] = (char) ('0' + v / 100);
		memcpy(out + 1, digit_pairs + 2 * (v % 100), 2);
	}
	else
		memcpy(out, digit_pairs + 2 * v, 2);
}

/*
 * sfl_civil_from_ms with the last day's date kept: the ids of one query
 * mostly share their day, and the calendar arithmetic is the date prefix's
 * main cost.  (A memo of a pure function: any caller may use it.)
 */
static bool
civil_of(int64_t ms, sfl_civil *cv)
{
	static int64_t memo_day = INT64_MIN;
	static sfl_civil memo;
	int64_t		day = ms >= 0 ? ms / DAY_MS : -((-ms + DAY_MS - 1) / DAY_MS);	/* floored */
	int64_t		rem;

	if (day != memo_day)
	{
		if (!sfl_civil_from_ms(ms, &memo))
			return false;
		memo_day = day;
	}
	rem = ms - day * DAY_MS;
	*cv = memo;
	cv->hour = (int) (rem / 3600000);
	cv->minute = (int) (rem / 60000 % 60);
	cv->second = (int) (rem / 1000 % 60);
	cv->ms = (int) (rem % 1000);
	return true;
}

static inline int64_t
floor_div(int64_t a, int64_t b)
{
	return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* Write w's date of local_ms at out (w->date_len bytes); w keeps it. */
static cosid_status
format_date(cosid_wrap *w, int64_t local_ms, char *out, cosid_error *err)
{
	sfl_civil	cv;
	int64_t		period = floor_div(local_ms, w->period_ms);
	char	   *start = out;

	if ((w->memo_valid && w->memo_period == period))
	{
		memcpy(out, w->memo, w->date_len);
		return COSID_OK;
	}
	if (!civil_of(local_ms, &cv))
		return fail(err, COSID_ERR_RANGE,
					"codec[%d] (\"date_prefix\"): the local time %lld ms is outside the years 0000 to 9999 a date can write.",
					w->index, (long long) local_ms);
	for (int i = 0; i < w->ntokens; i++)
	{
		const cosid_token *t = &w->tokens[i];
		int			v = 0;

		switch (t->field)
		{
			case F_LITERAL:
				*out = t->literal;
				out++;
				continue;
			case F_YEAR4:
				v = cv.year;
				break;
			case F_YEAR2:
				v = cv.year % 100;
				break;
			case F_MONTH:
				v = cv.month;
				break;
			case F_DAY:
				v = cv.day;
				break;
			case F_HOUR:
				v = cv.hour;
				break;
			case F_MINUTE:
				v = cv.minute;
				break;
			case F_SECOND:
				v = cv.second;
				break;
			case F_MS:
				v = cv.ms;
				break;
		}
		put_digits(out, v, t->width);
		out += t->width;
	}
	memcpy(w->memo, start, w->date_len);
	w->memo_period = period;
	w->memo_valid = true;
	return COSID_OK;
}

/* The date text at s (w->date_len bytes, all present) has w's shape. */
static cosid_status
check_date_shape(const cosid_wrap *w, const char *s, size_t pos, cosid_error *err)
{
	static const int lo[] = {0, 0, 0, 1, 1, 0, 0, 0, 0};
	static const int hi[] = {0, 9999, 99, 12, 31, 23, 59, 59, 999};
	size_t		off = 0;

	for (int i = 0; i < w->ntokens; i++)
	{
		const cosid_token *t = &w->tokens[i];
		int			v = 0;

		if (t->field == F_LITERAL)
		{
			if (s[off] != t->literal)
				return fail_at(err, pos + off, "the date prefix of codec[%d] has \"%c\" here.",
							   w->index, t->literal);
			off++;
			continue;
		}
		for (int d = 0; d < t->width; d++)
		{
			char		ch = s[off + (size_t) d];

			if (ch < '0' || ch > '9')
				return fail_at(err, pos + off + (size_t) d,
							   "the date prefix of codec[%d] has a digit of %s here.",
							   w->index, field_letters[t->field]);
			v = v * 10 + (ch - '0');
		}
		if (v < lo[t->field] || v > hi[t->field])
			return fail_at(err, pos + off, "%s of the date prefix of codec[%d] is %0*d; it is %d to %d.",
						   field_letters[t->field], w->index, t->width, v, lo[t->field], hi[t->field]);
		off += t->width;
	}
	return COSID_OK;
}

/* --- the first item ---------------------------------------------------- */

static int
node_digits(const sfl_layout *l)
{
	return sfl_decimal_width(sfl_max_node(l));
}

static int
seq_digits(const sfl_layout *l)
{
	return sfl_decimal_width(sfl_max_seq(l));
}

cosid_status
cosid_encode(cosid_codec *c, const sfl_layout *l, uint64_t id,
			 int64_t id_local_ms, int64_t now_local_ms, char *out, size_t *len,
			 cosid_error *err)
{
	char	   *p = out;
	size_t		n;

	err->pos = 0;
	/* the fronts, outermost first */
	for (int i = c->nwraps - 1; i >= 0; i--)
	{
		cosid_wrap *w = &c->wraps[i];

		if (w->kind == COSID_WRAP_SUFFIX)
			continue;
		if (w->kind == COSID_WRAP_DATE)
		{
			if (format_date(w, w->source == COSID_SOURCE_NOW ? now_local_ms : id_local_ms,
							p, err) != COSID_OK)
				return COSID_ERR_RANGE;
			p += w->date_len;
		}
		memcpy(p, w->text, w->len);
		p += w->len;
	}
	if (c->first == COSID_FIRST_FRIENDLY)
	{
		sfl_parts	parts;

		if (sfl_unpack(l, id, &parts) != SFL_OK)
			return fail(err, COSID_ERR_RANGE, "The id is outside the layout.");
		if (!cosid_friendly_format(id_local_ms, parts.node, node_digits(l), parts.seq,
								   seq_digits(l), c->pad, p, &n))
			return fail(err, COSID_ERR_RANGE,
						"codec[0] (\"friendly\"): the local time %lld ms is outside the years 0000 to 9999 that yyyy can write.",
						(long long) id_local_ms);
	}
	else if (ulid_radix_encode(id, c->radix, c->pad ? c->width : 0, p, &n) != ULID_CODEC_OK ||
			 (c->width > 0 && n > c->width))
		return fail(err, COSID_ERR_RANGE,
					"codec[0] (\"radix\"): the value %llu needs more than %d digits in base %d (\"width\").",
					(unsigned long long) id, c->width, c->radix);
	p += n;
	for (int i = 0; i < c->nwraps; i++)
	{
		const cosid_wrap *w = &c->wraps[i];

		if (w->kind != COSID_WRAP_SUFFIX)
			continue;
		memcpy(p, w->text, w->len);
		p += w->len;
	}
	*p = '\0';
	*len = (size_t) (p - out);
	return COSID_OK;
}

/* digits of radix <= 36 as the encoder writes them: 0-9, then a-z */
static int8_t lower36[256];
static bool lower36_ready = false;

static void
init_lower36(void)
{
	memset(lower36, -1, sizeof(lower36));
	for (int i = 0; i < 10; i++)
		lower36['0' + i] = (int8_t) i;
	for (int i = 0; i < 26; i++)
		lower36['a' + i] = (int8_t) (10 + i);
	lower36_ready = true;
}

/*
 * Strict radix digits, exactly what ulid_radix_encode writes, in one pass:
 * the digits (lowercase up to 36), then the width, padding and leading
 * zeros, then overflow.
 */
static cosid_status
decode_radix(const cosid_codec *c, const char *s, size_t b, size_t e,
			 uint64_t *v, cosid_error *err)
{
	size_t		n = e - b;
	uint64_t	radix = c->radix;
	uint64_t	limit = UINT64_MAX / radix;
	uint64_t	limit_digit = UINT64_MAX % radix;
	const int8_t *table = c->radix > 36 ? ulid_b62_decode_table : lower36;
	uint64_t	acc = 0;
	bool		overflow = false;

	if (!lower36_ready)
		init_lower36();
	if (n == 0)
		return fail_at(err, b, "there are no digits where codec[0] writes the id.");
	for (size_t i = b; i < e; i++)
	{
		int			d = table[(unsigned char) s[i]];

		if (d < 0 || (uint64_t) d >= radix)
			return fail_at(err, i, "this is not a digit of base %d%s.", c->radix,
						   c->radix <= 36 && c->radix > 10 ? " (0-9 and lowercase letters)" : "");
		if (acc > limit || (acc == limit && (uint64_t) d > limit_digit))
			overflow = true;
		else
			acc = acc * radix + (uint64_t) d;
	}
	if (c->pad && n != c->width)
		return fail_at(err, b, "the id's digits are padded to %d characters; here there are %zu.",
					   c->width, n);
	if (!c->pad && n > 1 && s[b] == '0')
		return fail_at(err, b, "a leading zero: the codec writes the id's digits without padding.");
	if (!c->pad && c->width > 0 && n > c->width)
		return fail(err, COSID_ERR_RANGE, "the id has %zu digits; the codec's \"width\" is %d.",
					n, c->width);
	if (overflow)
		return fail(err, COSID_ERR_RANGE, "the id's digits are more than 2^64 - 1.");
	*v = acc;
	return COSID_OK;
}

cosid_status
cosid_decode(const cosid_codec *c, const sfl_layout *l, const char *s,
			 size_t len, cosid_decoded *d, cosid_error *err)
{
	size_t		b = 0,
				e = len;

	err->pos = 0;
	d->value = 0;
	d->local_ms = 0;
	d->node = d->seq = 0;
	for (int i = c->nwraps - 1; i >= 0; i--)
	{
		const cosid_wrap *w = &c->wraps[i];

		if (w->kind == COSID_WRAP_SUFFIX)
		{
			if (e - b < w->len || memcmp(s + e - w->len, w->text, w->len) != 0)
				return fail_at(err, e - b < w->len ? b : e - w->len,
							   "the text does not end with the suffix \"%s\" of codec[%d].",
							   w->text, w->index);
			e -= w->len;
			continue;
		}
		if (w->kind == COSID_WRAP_DATE)
		{
			if (e - b < w->date_len)
				return fail_at(err, b, "the text is too short for the date prefix of codec[%d] (%d characters).",
							   w->index, w->date_len);
			/* the last date written has the shape: the common case */
			if (!(w->memo_valid && memcmp(s + b, w->memo, w->date_len) == 0) &&
				check_date_shape(w, s + b, b, err) != COSID_OK)
				return COSID_ERR_SYNTAX;
			d->date_pos[i] = b;
			b += w->date_len;
		}
		if (e - b < w->len || memcmp(s + b, w->text, w->len) != 0)
		{
			size_t		k = 0;

			while (b + k < e && k < w->len && s[b + k] == w->text[k])
				k++;
			if (w->kind == COSID_WRAP_DATE)
				return fail_at(err, b + k, "the date prefix of codec[%d] is followed by its delimiter \"%s\".",
							   w->index, w->text);
			return fail_at(err, b + k, "the text does not start with the prefix \"%s\" of codec[%d].",
						   w->text, w->index);
		}
		b += w->len;
	}
	d->core_pos = b;
	if (c->first == COSID_FIRST_FRIENDLY)
	{
		cosid_status st = cosid_friendly_parse(s + b, e - b, node_digits(l), seq_digits(l),
											   c->pad, sfl_max_node(l), sfl_max_seq(l),
											   &d->local_ms, &d->node, &d->seq, err);

		err->pos += b;
		return st;
	}
	return decode_radix(c, s, b, e, &d->value, err);
}

cosid_status
cosid_check_dates(cosid_codec *c, const char *s, const cosid_decoded *d,
				  int64_t id_local_ms, cosid_error *err)
{
	for (int i = 0; i < c->nwraps; i++)
	{
		cosid_wrap *w = &c->wraps[i];
		char		want[COSID_PATTERN_MAX];

		if (w->kind != COSID_WRAP_DATE || w->source != COSID_SOURCE_ID_TIME)
			continue;
		if (w->memo_valid && w->memo_period == floor_div(id_local_ms, w->period_ms) &&
			memcmp(w->memo, s + d->date_pos[i], w->date_len) == 0)
			continue;			/* the id's date, as last written */
		if (format_date(w, id_local_ms, want, err) != COSID_OK)
			return COSID_ERR_SYNTAX;
		if (memcmp(want, s + d->date_pos[i], w->date_len) != 0)
			return fail_at(err, d->date_pos[i],
						   "the date prefix of codec[%d] (source id_time) is \"%.*s\", not the id's own date \"%.*s\".",
						   w->index, w->date_len, s + d->date_pos[i], w->date_len, want);
	}
	return COSID_OK;
}

/* --- friendly text ------------------------------------------------------ */

#define TIME_DIGITS 17			/* yyyyMMddHHmmssSSS */

bool
cosid_friendly_format(int64_t local_ms, uint64_t node, int wn, uint64_t seq,
					  int ws, bool pad, char *buf, size_t *len)
{
	sfl_civil	cv;
	int			n;

	if (!civil_of(local_ms, &cv))
		return false;
	n = snprintf(buf, 64, "%04d%02d%02d%02d%02d%02d%03d-%0*llu-%0*llu",
				 cv.year, cv.month, cv.day, cv.hour, cv.minute, cv.second, cv.ms,
				 pad ? wn : 1, (unsigned long long) node,
				 pad ? ws : 1, (unsigned long long) seq);
	*len = (size_t) n;
	return true;
}

/* A decimal part at s[b..e): its value, or an error naming it. */
static cosid_status
friendly_part(const char *s, size_t b, size_t e, int w, bool pad, uint64_t max,
			  const char *name, uint64_t *v, cosid_error *err)
{
	size_t		n = e - b;

	*v = 0;
	for (size_t i = b; i < e; i++)
		if (s[i] < '0' || s[i] > '9')
			return fail_at(err, i, "the %s of a friendly id is decimal digits.", name);
	if (n == 0)
		return fail_at(err, b, "the %s of a friendly id has no digits.", name);
	if (pad && n != (size_t) w)
		return fail_at(err, b, "the %s of a friendly id is %d digits; here it has %zu.", name, w, n);
	if (!pad && n > 1 && s[b] == '0')
		return fail_at(err, b, "a leading zero: the codec writes the %s without padding.", name);
	if (n > (size_t) w)
		return fail(err, COSID_ERR_RANGE, "The %s has %zu digits; the largest, %llu, has %d.",
					name, n, (unsigned long long) max, w);
	for (size_t i = b; i < e; i++)
	{
		uint64_t	d = (uint64_t) (s[i] - '0');

		/* 20 digits can pass 2^64 - 1 (a width of 20 is UINT64_MAX's) */
		if (*v > (UINT64_MAX - d) / 10)
			return fail(err, COSID_ERR_RANGE, "The %s %.*s is larger than %llu, the largest there is.",
						name, (int) n, s + b, (unsigned long long) max);
		*v = *v * 10 + d;
	}
	if (*v > max)
		return fail(err, COSID_ERR_RANGE, "The %s %llu is larger than %llu, the largest there is.",
					name, (unsigned long long) *v, (unsigned long long) max);
	return COSID_OK;
}

cosid_status
cosid_friendly_parse(const char *s, size_t len, int wn, int ws, bool pad,
					 uint64_t max_node, uint64_t max_seq, int64_t *local_ms,
					 uint64_t *node, uint64_t *seq, cosid_error *err)
{
	static const int tw[7] = {4, 2, 2, 2, 2, 2, 3};
	int			t[7];
	size_t		p = 0,
				h;
	sfl_civil	cv;
	cosid_status st;

	for (int i = 0; i < 7; i++)
	{
		t[i] = 0;
		for (int k = 0; k < tw[i]; k++, p++)
		{
			if (p >= len || s[p] < '0' || s[p] > '9')
				return fail_at(err, p, "a friendly id starts with 17 digits of local time, yyyyMMddHHmmssSSS.");
			t[i] = t[i] * 10 + (s[p] - '0');
		}
	}
	if (p >= len || s[p] != '-')
		return fail_at(err, p, "a hyphen follows the 17 digits of local time.");
	h = p + 1;
	while (h < len && s[h] != '-')
		h++;
	if (h >= len)
		return fail_at(err, len, "a friendly id is yyyyMMddHHmmssSSS-node-sequence: the second hyphen is missing.");
	cv.year = t[0];
	cv.month = t[1];
	cv.day = t[2];
	cv.hour = t[3];
	cv.minute = t[4];
	cv.second = t[5];
	cv.ms = t[6];
	if ((st = friendly_part(s, TIME_DIGITS + 1, h, wn, pad, max_node, "node", node, err)) != COSID_OK ||
		(st = friendly_part(s, h + 1, len, ws, pad, max_seq, "sequence", seq, err)) != COSID_OK)
		return st;
	if (!sfl_ms_from_civil(&cv, local_ms))
		return fail_at(err, 0, "%.17s is not a valid date and time (yyyyMMddHHmmssSSS).", s);
	return COSID_OK;
}

/* --- COSID_80 ------------------------------------------------------------- */

void
cosid80_layout(sfl_layout *l)
{
	memset(l, 0, sizeof(*l));
	l->epoch_ms = 0;
	l->time_bits = COSID80_TIME_BITS;
	l->unit = SFL_UNIT_MS;
	l->seq_bits = COSID80_SEQ_BITS;
	l->seq_reset = SFL_RESET_CARRY;
	l->nfields = 1;
	memcpy(l->fields[0].name, "node", 5);
	l->fields[0].bits = COSID80_NODE_BITS;
	l->fields[0].shift = COSID80_SEQ_BITS;
	l->preset = SFL_CUSTOM;
	l->node_bits = COSID80_NODE_BITS;
	l->width = COSID80_TIME_BITS + COSID80_NODE_BITS + COSID80_SEQ_BITS;
	l->seq_shift = 0;
	l->node_shift = COSID80_SEQ_BITS;
	l->time_shift = COSID80_SEQ_BITS + COSID80_NODE_BITS;
	l->max_tick = COSID80_MAX_MS;
}

void
cosid80_format(int64_t ms, uint64_t node, uint64_t seq, char *out)
{
	size_t		n;

	(void) ulid_radix_encode((uint64_t) ms, 62, 8, out, &n);
	(void) ulid_radix_encode(node, 62, 4, out + 8, &n);
	(void) ulid_radix_encode(seq, 62, 3, out + 12, &n);
	out[COSID80_TEXT_LEN] = '\0';
}

cosid_status
cosid80_parse(const char *s, size_t len, int64_t *ms, uint64_t *node,
			  uint64_t *seq, cosid_error *err)
{
	size_t		bad = ulid_b62_first_bad(s, len < COSID80_TEXT_LEN ? len : COSID80_TEXT_LEN);
	uint64_t	t;

	err->pos = 0;
	if (bad < len && bad < COSID80_TEXT_LEN)
		return fail_at(err, bad, "COSID_80 text is Base62 (0-9, A-Z, a-z).");
	if (len != COSID80_TEXT_LEN)
		return fail_at(err, len < COSID80_TEXT_LEN ? len : COSID80_TEXT_LEN,
					   "COSID_80 text has 15 characters: time 8, node 4 and sequence 3, in Base62.");
	t = ulid_b62_value_u64(s, 8);
	*node = ulid_b62_value_u64(s + 8, 4);
	*seq = ulid_b62_value_u64(s + 12, 3);
	if (t > (uint64_t) COSID80_MAX_MS)
		return fail(err, COSID_ERR_RANGE, "Its time, %llu ms, is larger than 2^44 - 1, the largest COSID_80 time.",
					(unsigned long long) t);
	if (*node > COSID80_MAX_NODE)
		return fail(err, COSID_ERR_RANGE, "Its node, %llu, is larger than 2^20 - 1, the largest COSID_80 node.",
					(unsigned long long) *node);
	if (*seq > COSID80_MAX_SEQ)
		return fail(err, COSID_ERR_RANGE, "Its sequence, %llu, is larger than 2^16 - 1, the largest COSID_80 sequence.",
					(unsigned long long) *seq);
	*ms = (int64_t) t;
	return COSID_OK;
}
