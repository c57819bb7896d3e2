/*-------------------------------------------------------------------------
 *
 * layout_text.c
 *	  The text form of Snowflake layouts, their diagram, the JSON list of
 *	  node fields, and the UTC calendar they use (pure C).
 *
 * Text form (whitespace allowed between tokens):
 *
 *	 twitter | discord | instagram | snowflake_ms | snowflake_s | js_safe_ms
 *	 | js_safe_s | sonyflake(epoch=E) | scru64(node_bits=N)
 *	 | custom(time=BITS:UNIT:E, fields=NAME:BITS+NAME:BITS, sequence=BITS,
 *			  sign=true|false, sequence_above_node=true|false,
 *			  sequence_reset=zero|random|carry)
 *
 * E is a UTC ISO-8601 time ending in Z (2014-09-01T00:00:00.000Z, 0 to 3
 * fraction digits) or integer Unix milliseconds.  The CosId presets take an
 * optional epoch=E.  In custom(...) time and sequence are required, fields
 * may be left out (no node fields), sign defaults to true,
 * sequence_above_node to false and sequence_reset to zero.  The parser only
 * reads; sfl_build() decides whether the definition is valid, so every
 * source of layouts shares one set of rules and messages.
 *
 * Output is canonical: the preset form when the definition equals a preset
 * (epoch shown only when it is not the preset's default), else custom(...)
 * with every parameter, fields left out only when there are none.
 *
 *-------------------------------------------------------------------------
 */
#include "layout.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define MS_PER_DAY		INT64_C(86400000)
#define MAX_DIGITS		18		/* numbers of the text form fit int64 */

/* --- UTC calendar ---------------------------------------------------------- */

/* Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant). */
static int64_t
days_from_civil(int64_t y, int m, int d)
{
	int64_t		era,
				yoe,
				doy,
				doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* The proleptic Gregorian date of a day number (H. Hinnant). */
static void
civil_from_days(int64_t z, int *year, int *month, int *day)
{
	int64_t		era,
				doe,
				yoe,
				doy,
				mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*day = (int) (doy - (153 * mp + 2) / 5 + 1);
	*month = (int) (mp < 10 ? mp + 3 : mp - 9);
	*year = (int) (yoe + era * 400 + (*month <= 2));
}

/* Days in month m of year y. */
static int
days_in_month(int y, int m)
{
	static const int dm[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

	if (m == 2 && (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)))
		return 29;
	return dm[m - 1];
}

/* Civil UTC fields of a Unix ms time in years 0000..9999. */
bool
sfl_civil_from_ms(int64_t ms, sfl_civil *c)
{
	int64_t		days,
				rem;

	if (ms < days_from_civil(0, 1, 1) * MS_PER_DAY ||
		ms >= days_from_civil(10000, 1, 1) * MS_PER_DAY)
		return false;
	days = ms / MS_PER_DAY;
	rem = ms % MS_PER_DAY;
	if (rem < 0)
	{
		rem += MS_PER_DAY;
		days--;
	}
	civil_from_days(days, &c->year, &c->month, &c->day);
	c->hour = (int) (rem / 3600000);
	c->minute = (int) (rem / 60000 % 60);
	c->second = (int) (rem / 1000 % 60);
	c->ms = (int) (rem % 1000);
	return true;
}

/* Unix ms of civil UTC fields, or false when they are not a valid time. */
bool
sfl_ms_from_civil(const sfl_civil *c, int64_t *ms)
{
	if (c->year < 0 || c->year > 9999 || c->month < 1 || c->month > 12 ||
		c->day < 1 || c->day > days_in_month(c->year, c->month) ||
		c->hour < 0 || c->hour > 23 || c->minute < 0 || c->minute > 59 ||
		c->second < 0 || c->second > 59 || c->ms < 0 || c->ms > 999)
		return false;
	*ms = days_from_civil(c->year, c->month, c->day) * MS_PER_DAY +
		c->hour * INT64_C(3600000) + c->minute * 60000 + c->second * 1000 + c->ms;
	return true;
}

/* YYYY-MM-DDTHH:MM:SS.sssZ, or the number when outside years 0000..9999. */
void
sfl_format_iso(int64_t ms, char *buf)
{
	sfl_civil	c;

	if (!sfl_civil_from_ms(ms, &c))
	{
		snprintf(buf, 25, "%lld", (long long) ms);
		return;
	}
	snprintf(buf, 25, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
			 c.year, c.month, c.day, c.hour, c.minute, c.second, c.ms);
}

void
sfl_format_time(int64_t ms, char buf[SFL_TIME_TEXT_MAX])
{
	int64_t		days = ms / MS_PER_DAY;
	int64_t		rem = ms % MS_PER_DAY;
	int			year,
				month,
				day;

	if (sfl_civil_from_ms(ms, &(sfl_civil) {0}))
	{
		sfl_format_iso(ms, buf);
		return;
	}
	if (rem < 0)
	{
		rem += MS_PER_DAY;
		days--;
	}
	civil_from_days(days, &year, &month, &day);
	snprintf(buf, SFL_TIME_TEXT_MAX, "%c%06d-%02d-%02dT%02d:%02d:%02d.%03dZ",
			 year < 0 ? '-' : '+', year < 0 ? -year : year, month, day,
			 (int) (rem / 3600000), (int) (rem / 60000 % 60),
			 (int) (rem / 1000 % 60), (int) (rem % 1000));
}

/* Digits s[0..n) as a number (caller checked they are digits). */
static int
digits_value(const char *s, int n)
{
	int			v = 0;

	for (int i = 0; i < n; i++)
		v = v * 10 + (s[i] - '0');
	return v;
}

/* Are s[0..n) all decimal digits (and n > 0)? */
static bool
all_digits(const char *s, size_t n)
{
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/*
 * YYYY-MM-DDTHH:MM:SS[.f{1,3}]Z, a valid UTC time in years 0000..9999.
 */
static bool
parse_iso(const char *s, size_t n, int64_t *ms)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:dd";
	sfl_civil	c;
	size_t		i,
				frac;

	if (n < 20 || (s[n - 1] != 'Z' && s[n - 1] != 'z'))
		return false;
	for (i = 0; i < 19; i++)
	{
		if (shape[i] == 'd' ? (s[i] < '0' || s[i] > '9') :
			shape[i] == 'T' ? (s[i] != 'T' && s[i] != 't') : s[i] != shape[i])
			return false;
	}
	frac = n - 20;				/* '.' and digits before the Z */
	c.ms = 0;
	if (frac > 0)
	{
		if (frac < 2 || frac > 4 || s[19] != '.' || !all_digits(s + 20, frac - 1))
			return false;
		c.ms = digits_value(s + 20, (int) frac - 1);
		for (size_t k = frac - 1; k < 3; k++)
			c.ms *= 10;
	}
	c.year = digits_value(s, 4);
	c.month = digits_value(s + 5, 2);
	c.day = digits_value(s + 8, 2);
	c.hour = digits_value(s + 11, 2);
	c.minute = digits_value(s + 14, 2);
	c.second = digits_value(s + 17, 2);
	return sfl_ms_from_civil(&c, ms);
}

/* --- the parser ------------------------------------------------------------ */

typedef struct lexer
{
	const char *p;
	const char *end;
	char	   *msg;
	size_t		msglen;
} lexer;

static sfl_status syntax(lexer *lx, const char *fmt,...) SFL_PRINTF(2, 3);

/* Report a syntax error and return SFL_ERR_SYNTAX. */
static sfl_status
syntax(lexer *lx, const char *fmt,...)
{
	va_list		ap;

	if (lx->msg && lx->msglen)
	{
		va_start(ap, fmt);
		vsnprintf(lx->msg, lx->msglen, fmt, ap);
		va_end(ap);
	}
	return SFL_ERR_SYNTAX;
}

/* ASCII whitespace, allowed between tokens. */
static bool
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* Skip whitespace. */
static void
skip_ws(lexer *lx)
{
	while (lx->p < lx->end && is_space(*lx->p))
		lx->p++;
}

/* Length of the run at p of bytes that are not whitespace or in stops. */
static size_t
run_length(const lexer *lx, const char *stops)
{
	const char *q = lx->p;

	while (q < lx->end && !is_space(*q) && *q != '\0' && !strchr(stops, *q))
		q++;
	return (size_t) (q - lx->p);
}

#define WORD_STOPS	":+,()="
#define EPOCH_STOPS ",()"

/* How much of s[0..n) to quote: at most 40 bytes, not cutting a character. */
static size_t
quote_length(const char *s, size_t n)
{
	size_t		q = n > 40 ? 40 : n;

	while (q < n && q > 1 && ((unsigned char) s[q] & 0xC0) == 0x80)
		q--;					/* a UTF-8 continuation byte */
	return q;
}

/* What comes next, for messages: a word, one character, or the end. */
static const char *
found(const lexer *lx, char *buf, size_t buflen)
{
	size_t		full,
				n;

	if (lx->p >= lx->end)
		return "the end";
	full = run_length(lx, WORD_STOPS);
	n = full == 0 ? 1 : quote_length(lx->p, full);
	snprintf(buf, buflen, "\"%.*s%s\"", (int) n, lx->p, n < full ? "..." : "");
	return buf;
}

/* Read a word (possibly empty) into w. */
static size_t
read_word(lexer *lx, sfl_word *w)
{
	size_t		n = run_length(lx, WORD_STOPS);

	sfl_word_set(w, lx->p, n);
	lx->p += n;
	return n;
}

/* Consume character c (with whitespace around it), or report what came instead. */
static sfl_status
expect(lexer *lx, char c, const char *context)
{
	char		buf[64];

	skip_ws(lx);
	if (lx->p < lx->end && *lx->p == c)
	{
		lx->p++;
		skip_ws(lx);
		return SFL_OK;
	}
	return syntax(lx, "Expected \"%c\" %s, found %s.", c, context,
				  found(lx, buf, sizeof(buf)));
}

/* A non-negative decimal number of bits. */
static sfl_status
read_number(lexer *lx, int64_t *v, const char *what)
{
	size_t		n = run_length(lx, WORD_STOPS);
	char		buf[64];

	if (!all_digits(lx->p, n))
		return syntax(lx, "Expected a number for %s, found %s.", what,
					  found(lx, buf, sizeof(buf)));
	if (n > MAX_DIGITS)
		return syntax(lx, "The number for %s has %zu digits; that is too large.",
					  what, n);
	*v = 0;
	for (size_t i = 0; i < n; i++)
		*v = *v * 10 + (lx->p[i] - '0');
	lx->p += n;
	return SFL_OK;
}

/* An epoch: UTC ISO-8601 with Z, or integer Unix ms. */
static sfl_status
read_epoch(lexer *lx, int64_t *ms)
{
	size_t		n = run_length(lx, EPOCH_STOPS);
	const char *s = lx->p;
	char		buf[64];

	if (n == 0)
		return syntax(lx, "Expected an epoch, found %s.", found(lx, buf, sizeof(buf)));
	if (all_digits(s, n))
	{
		if (n > MAX_DIGITS)
			return syntax(lx, "The epoch has %zu digits; that is too large.", n);
		*ms = 0;
		for (size_t i = 0; i < n; i++)
			*ms = *ms * 10 + (s[i] - '0');
	}
	else if (!parse_iso(s, n, ms))
		return syntax(lx, "\"%.*s%s\" is not an epoch: write a UTC time such as 2014-09-01T00:00:00.000Z (ending in Z, at most 3 fraction digits) or integer Unix milliseconds.",
					  (int) quote_length(s, n), s, quote_length(s, n) < n ? "..." : "");
	lx->p += n;
	return SFL_OK;
}

/* true or false */
static sfl_status
read_bool(lexer *lx, bool *v, const char *what)
{
	sfl_word	w;
	char		buf[64];
	const char *at = lx->p;

	read_word(lx, &w);
	if (w.len == 4 && strcmp(w.s, "true") == 0)
		*v = true;
	else if (w.len == 5 && strcmp(w.s, "false") == 0)
		*v = false;
	else
	{
		lx->p = at;
		return syntax(lx, "Expected true or false for %s, found %s.", what,
					  found(lx, buf, sizeof(buf)));
	}
	return SFL_OK;
}

/* time=BITS:UNIT:EPOCH */
static sfl_status
read_time(lexer *lx, sfl_spec *spec)
{
	sfl_status	st;

	if ((st = read_number(lx, &spec->time_bits, "the time bits")) != SFL_OK ||
		(st = expect(lx, ':', "after the time bits (time=BITS:UNIT:EPOCH)")) != SFL_OK)
		return st;
	read_word(lx, &spec->unit);
	if ((st = expect(lx, ':', "after the time unit (time=BITS:UNIT:EPOCH)")) != SFL_OK)
		return st;
	return read_epoch(lx, &spec->time_epoch_ms);
}

/* fields=NAME:BITS+NAME:BITS... */
static sfl_status
read_fields(lexer *lx, sfl_spec *spec)
{
	sfl_status	st;
	char		buf[64];

	for (;;)
	{
		int			i = spec->nfields;

		if (i == SFL_SPEC_MAX_FIELDS)
			return syntax(lx, "More than %d node fields; a layout has at most 53 node bits.",
						  SFL_SPEC_MAX_FIELDS);
		if (read_word(lx, &spec->field_names[i]) == 0)
			return syntax(lx, "Expected a field name (fields=NAME:BITS+NAME:BITS), found %s.",
						  found(lx, buf, sizeof(buf)));
		if ((st = expect(lx, ':', "after a field name (fields=NAME:BITS)")) != SFL_OK ||
			(st = read_number(lx, &spec->field_bits[i], "a field's bits")) != SFL_OK)
			return st;
		spec->nfields++;
		skip_ws(lx);
		if (lx->p >= lx->end || *lx->p != '+')
			return SFL_OK;
		lx->p++;
		skip_ws(lx);
	}
}

/* One parameter: KEY=VALUE. */
static sfl_status
read_param(lexer *lx, sfl_spec *spec)
{
	sfl_word	key;
	sfl_status	st;
	bool	   *seen;
	char		buf[64];

	if (read_word(lx, &key) == 0)
		return syntax(lx, "Expected a parameter name, found %s.", found(lx, buf, sizeof(buf)));

#define IS(k) (key.len == strlen(k) && strcmp(key.s, k) == 0)
	if (IS("time"))
		seen = &spec->has_time;
	else if (IS("fields"))
		seen = &spec->has_fields;
	else if (IS("sequence"))
		seen = &spec->has_sequence;
	else if (IS("sign"))
		seen = &spec->has_sign;
	else if (IS("sequence_above_node"))
		seen = &spec->has_above;
	else if (IS("sequence_reset"))
		seen = &spec->has_reset;
	else if (IS("epoch"))
		seen = &spec->has_epoch;
	else if (IS("node_bits"))
		seen = &spec->has_node_bits;
	else
		return syntax(lx, "\"%s%s\" is not a layout parameter; they are epoch and node_bits (presets), time, fields, sequence, sign, sequence_above_node and sequence_reset (custom).",
					  key.s, key.len > strlen(key.s) ? "..." : "");
	if (*seen)
		return syntax(lx, "The parameter %s is given twice.", key.s);
	*seen = true;
	if ((st = expect(lx, '=', "after a parameter name")) != SFL_OK)
		return st;

	if (IS("time"))
		return read_time(lx, spec);
	if (IS("fields"))
		return read_fields(lx, spec);
	if (IS("sequence"))
		return read_number(lx, &spec->seq_bits, "sequence");
	if (IS("sign"))
		return read_bool(lx, &spec->sign, "sign");
	if (IS("sequence_above_node"))
		return read_bool(lx, &spec->seq_above_node, "sequence_above_node");
	if (IS("sequence_reset"))
	{
		if (read_word(lx, &spec->reset) == 0)
			return syntax(lx, "Expected zero, random or carry for sequence_reset, found %s.",
						  found(lx, buf, sizeof(buf)));
		return SFL_OK;
	}
	if (IS("epoch"))
		return read_epoch(lx, &spec->epoch_ms);
	return read_number(lx, &spec->node_bits, "node_bits");
#undef IS
}

/* Parse the text form: a name, then optionally (KEY=VALUE, ...). */
sfl_status
sfl_parse_spec(const char *s, size_t len, sfl_spec *spec, char *msg,
			   size_t msglen)
{
	lexer		lx = {s, s + len, msg, msglen};
	sfl_status	st;
	char		buf[64];

	sfl_spec_init(spec);
	skip_ws(&lx);
	if (read_word(&lx, &spec->name) == 0)
		return syntax(&lx, "Expected a layout name (such as twitter) or custom(...), found %s.",
					  found(&lx, buf, sizeof(buf)));
	skip_ws(&lx);
	if (lx.p < lx.end && *lx.p == '(')
	{
		lx.p++;
		skip_ws(&lx);
		if (lx.p < lx.end && *lx.p == ')')
			lx.p++;
		else
		{
			for (;;)
			{
				if ((st = read_param(&lx, spec)) != SFL_OK)
					return st;
				skip_ws(&lx);
				if (lx.p < lx.end && *lx.p == ')')
				{
					lx.p++;
					break;
				}
				if (lx.p >= lx.end || *lx.p != ',')
					return syntax(&lx, "Expected \",\" or \")\" after a parameter, found %s.",
								  found(&lx, buf, sizeof(buf)));
				lx.p++;
				skip_ws(&lx);
			}
		}
	}
	skip_ws(&lx);
	if (lx.p < lx.end)
		return syntax(&lx, "Unexpected %s after the layout.", found(&lx, buf, sizeof(buf)));
	return SFL_OK;
}

/* Parse and validate the text form. */
sfl_status
sfl_parse(const char *s, size_t len, sfl_layout *out, char *msg, size_t msglen)
{
	sfl_spec	spec;
	sfl_status	st = sfl_parse_spec(s, len, &spec, msg, msglen);

	if (st != SFL_OK)
		return st;
	return sfl_build(&spec, out, msg, msglen);
}

/* --- JSON node fields (the custom constructor's fields json) --------------- */

/* Skip JSON whitespace. */
static void
json_ws(lexer *lx)
{
	while (lx->p < lx->end && (*lx->p == ' ' || *lx->p == '\t' ||
							   *lx->p == '\n' || *lx->p == '\r'))
		lx->p++;
}

/*
 * A JSON string into w.  Escapes of ASCII characters are decoded; any other
 * \uXXXX stays as written (no field name can contain it anyway).
 */
static bool
json_string(lexer *lx, sfl_word *w)
{
	char		buf[256];
	size_t		n = 0,
				total = 0;

	if (lx->p >= lx->end || *lx->p != '"')
		return false;
	lx->p++;
	while (lx->p < lx->end && *lx->p != '"')
	{
		char		c = *lx->p++;
		size_t		keep = 1;
		const char *raw = lx->p - 1;

		if (c == '\\')
		{
			if (lx->p >= lx->end)
				return false;
			c = *lx->p++;
			switch (c)
			{
				case '"':
				case '\\':
				case '/':
					break;
				case 'b':
					c = '\b';
					break;
				case 'f':
					c = '\f';
					break;
				case 'n':
					c = '\n';
					break;
				case 'r':
					c = '\r';
					break;
				case 't':
					c = '\t';
					break;
				case 'u':
					{
						unsigned	v = 0;

						if (lx->end - lx->p < 4)
							return false;
						for (int i = 0; i < 4; i++)
						{
							char		h = lx->p[i];

							v = v * 16 + (unsigned) (h >= '0' && h <= '9' ? h - '0' :
													 h >= 'a' && h <= 'f' ? h - 'a' + 10 :
													 h >= 'A' && h <= 'F' ? h - 'A' + 10 : 99);
						}
						if (v > 0xFFFF)
							return false;
						lx->p += 4;
						if (v < 0x80)
							c = (char) v;
						else
							keep = 6;	/* the escape as written */
						break;
					}
				default:
					return false;
			}
		}
		for (size_t i = 0; i < keep; i++)
		{
			if (n < sizeof(buf))
				buf[n++] = keep == 1 ? c : raw[i];
			total++;
		}
	}
	if (lx->p >= lx->end)
		return false;
	lx->p++;
	sfl_word_set(w, buf, n);
	w->len = total;
	return true;
}

/* {"name": bits, ...} into spec's node fields, in key order, duplicates kept. */
sfl_status
sfl_parse_fields_json(const char *s, size_t len, sfl_spec *spec, char *msg,
					  size_t msglen)
{
	lexer		lx = {s, s + len, msg, msglen};

#define JSON_SHAPE "fields must be a JSON object of node field names and their bits, most significant first, such as {\"datacenter\": 5, \"worker\": 5}."

	spec->has_fields = true;
	spec->nfields = 0;
	json_ws(&lx);
	if (lx.p >= lx.end || *lx.p != '{')
		return syntax(&lx, JSON_SHAPE);
	lx.p++;
	json_ws(&lx);
	if (lx.p < lx.end && *lx.p == '}')
		lx.p++;
	else
	{
		for (;;)
		{
			int			i = spec->nfields;
			const char *num;
			int64_t		v = 0;
			bool		neg = false;

			if (i == SFL_SPEC_MAX_FIELDS)
				return syntax(&lx, "More than %d node fields; a layout has at most 53 node bits.",
							  SFL_SPEC_MAX_FIELDS);
			if (!json_string(&lx, &spec->field_names[i]))
				return syntax(&lx, JSON_SHAPE);
			json_ws(&lx);
			if (lx.p >= lx.end || *lx.p != ':')
				return syntax(&lx, JSON_SHAPE);
			lx.p++;
			json_ws(&lx);
			if (lx.p < lx.end && *lx.p == '-')
			{
				neg = true;
				lx.p++;
			}
			num = lx.p;
			while (lx.p < lx.end && *lx.p >= '0' && *lx.p <= '9')
			{
				if (lx.p - num < MAX_DIGITS)
					v = v * 10 + (*lx.p - '0');
				lx.p++;
			}
			if (lx.p == num || (lx.p < lx.end && (*lx.p == '.' || *lx.p == 'e' || *lx.p == 'E')))
				return syntax(&lx, "The node field \"%s%s\" must have a whole number of bits.",
							  spec->field_names[i].s,
							  spec->field_names[i].len > strlen(spec->field_names[i].s) ? "..." : "");
			if (lx.p - num > MAX_DIGITS)
				v = INT64_MAX;
			spec->field_bits[i] = neg ? -v : v;
			spec->nfields++;
			json_ws(&lx);
			if (lx.p < lx.end && *lx.p == '}')
			{
				lx.p++;
				break;
			}
			if (lx.p >= lx.end || *lx.p != ',')
				return syntax(&lx, JSON_SHAPE);
			lx.p++;
			json_ws(&lx);
		}
	}
	json_ws(&lx);
	if (lx.p < lx.end)
		return syntax(&lx, JSON_SHAPE);
	return SFL_OK;
#undef JSON_SHAPE
}

/* --- output ---------------------------------------------------------------- */

typedef struct outbuf
{
	char	   *buf;
	size_t		len;
} outbuf;

static void put(outbuf *o, const char *fmt,...) SFL_PRINTF(2, 3);

/* Append formatted text to o (bounded by SFL_TEXT_MAX). */
static void
put(outbuf *o, const char *fmt,...)
{
	va_list		ap;
	int			n;

	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->len, SFL_TEXT_MAX - o->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (size_t) n;
	if (o->len >= SFL_TEXT_MAX)
		o->len = SFL_TEXT_MAX - 1;	/* cannot happen: 53 fields fit */
}

/* The canonical text form of a layout. */
size_t
sfl_format(const sfl_layout *l, char *buf)
{
	outbuf		o = {buf, 0};
	char		iso[32];

	buf[0] = '\0';
	sfl_format_iso(l->epoch_ms, iso);
	switch ((sfl_preset) l->preset)
	{
		case SFL_SONYFLAKE:
			put(&o, "sonyflake(epoch=%s)", iso);
			break;
		case SFL_SCRU64:
			put(&o, "scru64(node_bits=%d)", l->node_bits);
			break;
		case SFL_SNOWFLAKE_MS:
		case SFL_SNOWFLAKE_S:
		case SFL_JS_SAFE_MS:
		case SFL_JS_SAFE_S:
			/* the epoch only when it differs from the preset's default */
			put(&o, "%s", sfl_preset_name((sfl_preset) l->preset));
			if (l->epoch_ms != sfl_preset_epoch((sfl_preset) l->preset))
				put(&o, "(epoch=%s)", iso);
			break;
		case SFL_TWITTER:
		case SFL_DISCORD:
		case SFL_INSTAGRAM:
			put(&o, "%s", sfl_preset_name((sfl_preset) l->preset));
			break;
		case SFL_CUSTOM:
		case SFL_NUM_PRESETS:
			put(&o, "custom(time=%d:%s:%s", l->time_bits,
				sfl_unit_name((sfl_unit) l->unit), iso);
			for (int i = 0; i < l->nfields; i++)
				put(&o, "%s%s:%d", i == 0 ? ", fields=" : "+",
					l->fields[i].name, l->fields[i].bits);
			put(&o, ", sequence=%d, sign=%s, sequence_above_node=%s, sequence_reset=%s)",
				l->seq_bits, l->sign ? "true" : "false",
				l->seq_above_node ? "true" : "false",
				sfl_reset_name((sfl_reset) l->seq_reset));
			break;
	}
	return o.len;
}

/* The printed diagram: the cells, a newline, the unit and epoch. */
size_t
sfl_diagram(const sfl_layout *l, char *buf)
{
	outbuf		o = {buf, 0};
	char		iso[32];
	int			unused = 64 - l->width - (l->sign ? 1 : 0);

	buf[0] = '\0';
	put(&o, "|");
	if (l->sign)
		put(&o, " sign 1 |");
	if (unused > 0)
		put(&o, " unused %d |", unused);
	put(&o, " time %d |", l->time_bits);
	if (l->seq_above_node)
		put(&o, " sequence %d |", l->seq_bits);
	for (int i = 0; i < l->nfields; i++)
		put(&o, " %s %d |", l->fields[i].name, l->fields[i].bits);
	if (!l->seq_above_node)
		put(&o, " sequence %d |", l->seq_bits);
	sfl_format_iso(l->epoch_ms, iso);
	put(&o, "\ntime: %s units from %s", sfl_unit_name((sfl_unit) l->unit), iso);
	return o.len;
}
