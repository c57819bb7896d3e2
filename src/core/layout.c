/*-------------------------------------------------------------------------
 *
 * layout.c
 *	  Snowflake layouts: presets, validation, packing and unpacking ids,
 *	  the serialized form and the generator's rules (pure C).
 *
 * Every layout, preset or custom, goes through build_custom(): a preset is
 * turned into the custom definition it stands for and validated like any
 * other, so there is exactly one validator.  After validation the builder
 * derives the shifts and which preset (if any) the definition equals.
 *
 * Presets are frozen: a changed preset must get a new name, because stored
 * layouts keep their definition, not their name.
 *
 *-------------------------------------------------------------------------
 */
#include "layout.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bytes.h"

/* Epochs of the presets (Unix ms). */
#define TWITTER_EPOCH	INT64_C(1288834974657)	/* 2010-11-04T01:42:54.657Z */
#define DISCORD_EPOCH	INT64_C(1420070400000)	/* 2015-01-01T00:00:00.000Z */
#define INSTAGRAM_EPOCH INT64_C(1314220021721)	/* 2011-08-24T21:07:01.721Z */
#define COSID_EPOCH		INT64_C(1577203200000)	/* 2019-12-24T16:00:00.000Z */

/* How a preset treats its parameters. */
typedef enum param_rule
{
	PARAM_NONE,					/* not accepted */
	PARAM_OPTIONAL,				/* accepted, with a default */
	PARAM_REQUIRED
} param_rule;

typedef struct preset_def
{
	const char *name;
	uint8_t		time_bits;
	uint8_t		unit;
	int64_t		epoch;			/* default (or fixed) epoch */
	param_rule	epoch_rule;
	param_rule	node_bits_rule; /* scru64: one field "node" of node_bits */
	int			nfields;
	const char *field_names[2];
	uint8_t		field_bits[2];
	uint8_t		seq_bits;		/* scru64: 24 - node_bits */
	bool		sign;
	bool		seq_above_node;
	uint8_t		reset;
} preset_def;

/* SPEC.md section 3; frozen forever. */
static const preset_def presets[SFL_NUM_PRESETS] = {
	[SFL_CUSTOM] = {.name = "custom"},
	[SFL_TWITTER] = {"twitter", 41, SFL_UNIT_MS, TWITTER_EPOCH, PARAM_NONE, PARAM_NONE,
	2, {"datacenter", "worker"}, {5, 5}, 12, true, false, SFL_RESET_ZERO},
	[SFL_DISCORD] = {"discord", 42, SFL_UNIT_MS, DISCORD_EPOCH, PARAM_NONE, PARAM_NONE,
	2, {"worker", "process"}, {5, 5}, 12, false, false, SFL_RESET_ZERO},
	[SFL_INSTAGRAM] = {"instagram", 41, SFL_UNIT_MS, INSTAGRAM_EPOCH, PARAM_NONE, PARAM_NONE,
	1, {"shard"}, {13}, 10, false, false, SFL_RESET_ZERO},
	[SFL_SONYFLAKE] = {"sonyflake", 39, SFL_UNIT_10MS, 0, PARAM_REQUIRED, PARAM_NONE,
	1, {"machine"}, {16}, 8, true, true, SFL_RESET_ZERO},
	[SFL_SCRU64] = {"scru64", 39, SFL_UNIT_256MS, 0, PARAM_NONE, PARAM_REQUIRED,
	1, {"node"}, {0}, 0, true, false, SFL_RESET_RANDOM},
	[SFL_SNOWFLAKE_MS] = {"snowflake_ms", 41, SFL_UNIT_MS, COSID_EPOCH, PARAM_OPTIONAL, PARAM_NONE,
	1, {"node"}, {10}, 12, true, false, SFL_RESET_CARRY},
	[SFL_SNOWFLAKE_S] = {"snowflake_s", 31, SFL_UNIT_S, COSID_EPOCH, PARAM_OPTIONAL, PARAM_NONE,
	1, {"node"}, {10}, 22, true, false, SFL_RESET_CARRY},
	[SFL_JS_SAFE_MS] = {"js_safe_ms", 41, SFL_UNIT_MS, COSID_EPOCH, PARAM_OPTIONAL, PARAM_NONE,
	1, {"node"}, {3}, 9, true, false, SFL_RESET_CARRY},
	[SFL_JS_SAFE_S] = {"js_safe_s", 31, SFL_UNIT_S, COSID_EPOCH, PARAM_OPTIONAL, PARAM_NONE,
	1, {"node"}, {3}, 19, true, false, SFL_RESET_CARRY},
};

#define SCRU64_COUNTER_BITS 24	/* node + counter */

static const char *const unit_names[] = {"ms", "10ms", "256ms", "s"};
static const int unit_ms[] = {1, 10, 256, 1000};
static const char *const reset_names[] = {"zero", "random", "carry"};
static const char *const reserved_names[] = {
	"sign", "time", "unix_ms", "sequence", "node", "unused"
};

#define RESERVED_MSG "The field name \"%s\" is reserved (sign, time, unix_ms, sequence, node and unused are; only presets call their one node field node)."

#define PRESET_LIST "twitter, discord, instagram, sonyflake(epoch=...), " \
	"scru64(node_bits=...), snowflake_ms, snowflake_s, js_safe_ms, js_safe_s"

/* The name of a preset. */
const char *
sfl_preset_name(sfl_preset p)
{
	return presets[p].name;
}

/* A preset's fixed or default epoch, Unix ms. */
int64_t
sfl_preset_epoch(sfl_preset p)
{
	return presets[p].epoch;
}

/* The text form of a unit. */
const char *
sfl_unit_name(sfl_unit u)
{
	return unit_names[u];
}

/* Milliseconds per tick of a unit. */
int
sfl_unit_ms(sfl_unit u)
{
	return unit_ms[u];
}

/* The text form of a sequence reset rule. */
const char *
sfl_reset_name(sfl_reset r)
{
	return reset_names[r];
}

/* Write a message (when msg is given) and return st. */
static sfl_status fail(char *msg, size_t msglen, sfl_status st,
					   const char *fmt,...) SFL_PRINTF(4, 5);

static sfl_status
fail(char *msg, size_t msglen, sfl_status st, const char *fmt,...)
{
	va_list		ap;

	if (msg && msglen)
	{
		va_start(ap, fmt);
		vsnprintf(msg, msglen, fmt, ap);
		va_end(ap);
	}
	return st;
}

/* An empty spec: nothing given. */
void
sfl_spec_init(sfl_spec *spec)
{
	memset(spec, 0, sizeof(*spec));
}

/*
 * Keep up to 64 bytes of a word for messages, cut at a UTF-8 character
 * boundary; len remembers the real length.
 */
void
sfl_word_set(sfl_word *w, const char *s, size_t len)
{
	size_t		n = len;

	if (n > sizeof(w->s) - 1)
	{
		n = sizeof(w->s) - 1;
		while (n > 0 && ((unsigned char) s[n] & 0xC0) == 0x80)
			n--;
	}
	memcpy(w->s, s, n);
	w->s[n] = '\0';
	w->len = len;
}

/* The word as quoted in messages: "..." appended when it was cut. */
static const char *
word_ellipsis(const sfl_word *w)
{
	return w->len > strlen(w->s) ? "..." : "";
}

/* Is w exactly s? */
static bool
word_is(const sfl_word *w, const char *s)
{
	return w->len == strlen(s) && strcmp(w->s, s) == 0;
}

/* Does w match [a-z][a-z0-9_]{0,62}? */
static bool
valid_field_name(const sfl_word *w)
{
	if (w->len < 1 || w->len > SFL_NAME_MAX || strlen(w->s) != w->len)
		return false;
	if (w->s[0] < 'a' || w->s[0] > 'z')
		return false;
	for (size_t i = 1; i < w->len; i++)
	{
		char		c = w->s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
			return false;
	}
	return true;
}

/* Fill the definition of preset p (no validation, nothing derived). */
static void
fill_preset(sfl_preset p, int64_t epoch_ms, int node_bits, sfl_layout *l)
{
	const preset_def *d = &presets[p];

	memset(l, 0, sizeof(*l));
	l->epoch_ms = d->epoch_rule == PARAM_NONE ? d->epoch : epoch_ms;
	l->time_bits = d->time_bits;
	l->unit = d->unit;
	l->nfields = (uint8_t) d->nfields;
	for (int i = 0; i < d->nfields; i++)
	{
		strcpy(l->fields[i].name, d->field_names[i]);
		l->fields[i].bits = d->field_bits[i];
	}
	l->seq_bits = d->seq_bits;
	if (d->node_bits_rule != PARAM_NONE)
	{
		l->fields[0].bits = (uint8_t) node_bits;
		l->seq_bits = (uint8_t) (SCRU64_COUNTER_BITS - node_bits);
	}
	l->sign = d->sign;
	l->seq_above_node = d->seq_above_node;
	l->seq_reset = d->reset;
}

/* Same definition: the derived fields follow from it. */
bool
sfl_equal(const sfl_layout *a, const sfl_layout *b)
{
	if (a->epoch_ms != b->epoch_ms || a->time_bits != b->time_bits ||
		a->unit != b->unit || a->seq_bits != b->seq_bits ||
		a->seq_reset != b->seq_reset || a->sign != b->sign ||
		a->seq_above_node != b->seq_above_node || a->nfields != b->nfields)
		return false;
	for (int i = 0; i < a->nfields; i++)
		if (a->fields[i].bits != b->fields[i].bits ||
			strcmp(a->fields[i].name, b->fields[i].name) != 0)
			return false;
	return true;
}

/* The preset whose definition l equals, or SFL_CUSTOM. */
static sfl_preset
detect_preset(const sfl_layout *l)
{
	sfl_layout	t;

	for (int p = SFL_CUSTOM + 1; p < SFL_NUM_PRESETS; p++)
	{
		if (presets[p].node_bits_rule != PARAM_NONE &&
			(l->nfields != 1 || l->fields[0].bits >= SCRU64_COUNTER_BITS))
			continue;
		fill_preset((sfl_preset) p, l->epoch_ms,
					l->nfields ? l->fields[0].bits : 0, &t);
		if (sfl_equal(l, &t))
			return (sfl_preset) p;
	}
	return SFL_CUSTOM;
}

/* Derive shifts, widths and the preset of a validated definition. */
static void
finish(sfl_layout *l)
{
	int			shift;

	l->node_bits = 0;
	for (int i = 0; i < l->nfields; i++)
		l->node_bits += l->fields[i].bits;
	l->width = l->time_bits + l->node_bits + l->seq_bits;
	if (l->seq_above_node)
	{
		l->node_shift = 0;
		l->seq_shift = l->node_bits;
	}
	else
	{
		l->seq_shift = 0;
		l->node_shift = l->seq_bits;
	}
	l->time_shift = l->node_bits + l->seq_bits;
	shift = l->node_shift + l->node_bits;
	for (int i = 0; i < l->nfields; i++)
	{
		shift -= l->fields[i].bits;
		l->fields[i].shift = (uint8_t) shift;
	}
	l->preset = (uint8_t) detect_preset(l);
	l->max_tick = (int64_t) sfl_mask(l->time_bits);
	if (l->preset == SFL_SCRU64)
		l->max_tick = SFL_SCRU64_MAX_TICK;
}

/* Index of w in names[0..n), or -1. */
static int
lookup(const sfl_word *w, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (word_is(w, names[i]))
			return i;
	return -1;
}

/*
 * Validate a custom definition and build it: SPEC.md section 3's rules, in
 * a fixed order, the first broken one reported.
 */
static sfl_status
build_custom(const sfl_spec *spec, sfl_layout *l, char *msg, size_t msglen)
{
	int			unit;
	int			reset = SFL_RESET_ZERO;
	int64_t		node_total = 0;
	int64_t		total;
	bool		sign = spec->has_sign ? spec->sign : true;
	char		iso[32];

	if (spec->has_epoch)
		return fail(msg, msglen, SFL_ERR_RULE,
					"custom(...) takes no epoch parameter; give the epoch in time=BITS:UNIT:EPOCH.");
	if (spec->has_node_bits)
		return fail(msg, msglen, SFL_ERR_RULE,
					"node_bits applies to scru64 only; custom(...) names its node fields in fields=NAME:BITS+NAME:BITS.");
	if (!spec->has_time)
		return fail(msg, msglen, SFL_ERR_RULE,
					"custom(...) needs time=BITS:UNIT:EPOCH.");
	if (!spec->has_sequence)
		return fail(msg, msglen, SFL_ERR_RULE,
					"custom(...) needs sequence=BITS.");

	unit = lookup(&spec->unit, unit_names, 4);
	if (unit < 0)
		return fail(msg, msglen, SFL_ERR_RULE,
					"The time unit \"%s%s\" is not one of ms, 10ms, 256ms, s.",
					spec->unit.s, word_ellipsis(&spec->unit));
	if (spec->time_bits < 1 || spec->time_bits > SFL_MAX_TIME_BITS)
		return fail(msg, msglen, SFL_ERR_RULE,
					"The time field has %lld bits; it must have 1 to 53.",
					(long long) spec->time_bits);
	if (spec->time_epoch_ms < 0 || spec->time_epoch_ms > SFL_EPOCH_MAX_MS)
		return fail(msg, msglen, SFL_ERR_RULE,
					"The epoch is %lld Unix ms; it must be from 0 (1970-01-01T00:00:00.000Z) to 253402300799999 (9999-12-31T23:59:59.999Z).",
					(long long) spec->time_epoch_ms);
	if (unit == SFL_UNIT_S && spec->time_epoch_ms % 1000 != 0)
	{
		sfl_format_iso(spec->time_epoch_ms, iso);
		return fail(msg, msglen, SFL_ERR_RULE,
					"The epoch %s is not a whole second, as a layout in s units needs.",
					iso);
	}

	for (int i = 0; i < spec->nfields; i++)
	{
		const sfl_word *w = &spec->field_names[i];

		if (!valid_field_name(w))
			return fail(msg, msglen, SFL_ERR_RULE,
						"The field name \"%s%s\" does not match [a-z][a-z0-9_]{0,62}.",
						w->s, word_ellipsis(w));
		if (lookup(w, reserved_names, 6) >= 0 && !word_is(w, "node"))
			return fail(msg, msglen, SFL_ERR_RULE, RESERVED_MSG, w->s);
		for (int j = 0; j < i; j++)
			if (word_is(&spec->field_names[j], w->s))
				return fail(msg, msglen, SFL_ERR_RULE,
							"The field name \"%s\" appears twice; field names must be unique.",
							w->s);
		if (spec->field_bits[i] < 1 || spec->field_bits[i] > SFL_MAX_NODE_BITS)
			return fail(msg, msglen, SFL_ERR_RULE,
						"The node field \"%s\" has %lld bits; each node field must have 1 to 53.",
						w->s, (long long) spec->field_bits[i]);
		node_total += spec->field_bits[i];
	}
	if (node_total > SFL_MAX_NODE_BITS)
		return fail(msg, msglen, SFL_ERR_RULE,
					"The node fields have %lld bits together; they may have at most 53.",
					(long long) node_total);
	if (spec->seq_bits < 1 || spec->seq_bits > SFL_MAX_SEQ_BITS)
		return fail(msg, msglen, SFL_ERR_RULE,
					"The sequence has %lld bits; it must have 1 to 31.",
					(long long) spec->seq_bits);
	total = spec->time_bits + node_total + spec->seq_bits;
	if (total > (sign ? 63 : 64))
		return fail(msg, msglen, SFL_ERR_RULE,
					sign ? "Time, node fields and sequence have %lld bits together; with the sign bit they may have at most 63."
					: "Time, node fields and sequence have %lld bits together; they may have at most 64.",
					(long long) total);
	if (spec->has_reset)
	{
		reset = lookup(&spec->reset, reset_names, 3);
		if (reset < 0)
			return fail(msg, msglen, SFL_ERR_RULE,
						"sequence_reset \"%s%s\" is not one of zero, random, carry.",
						spec->reset.s, word_ellipsis(&spec->reset));
	}

	memset(l, 0, sizeof(*l));
	l->epoch_ms = spec->time_epoch_ms;
	l->time_bits = (uint8_t) spec->time_bits;
	l->unit = (uint8_t) unit;
	l->nfields = (uint8_t) spec->nfields;
	for (int i = 0; i < spec->nfields; i++)
	{
		strcpy(l->fields[i].name, spec->field_names[i].s);
		l->fields[i].bits = (uint8_t) spec->field_bits[i];
	}
	l->seq_bits = (uint8_t) spec->seq_bits;
	l->sign = sign;
	l->seq_above_node = spec->has_above && spec->seq_above_node;
	l->seq_reset = (uint8_t) reset;
	finish(l);

	/*
	 * "node" names all node fields together (snowflake_field, the state
	 * view); only the presets whose single node field is called node may
	 * use it, and there it means exactly that.
	 */
	if (l->preset == SFL_CUSTOM && sfl_field_index(l, "node", 4) >= 0)
		return fail(msg, msglen, SFL_ERR_RULE, RESERVED_MSG, "node");
	return SFL_OK;
}

/* The custom definition a (checked) preset stands for. */
static void
preset_as_spec(const sfl_layout *t, sfl_spec *c)
{
	sfl_spec_init(c);
	sfl_word_set(&c->name, "custom", 6);
	c->has_time = true;
	c->time_bits = t->time_bits;
	sfl_word_set(&c->unit, unit_names[t->unit], strlen(unit_names[t->unit]));
	c->time_epoch_ms = t->epoch_ms;
	c->has_fields = true;
	c->nfields = t->nfields;
	for (int i = 0; i < t->nfields; i++)
	{
		sfl_word_set(&c->field_names[i], t->fields[i].name, strlen(t->fields[i].name));
		c->field_bits[i] = t->fields[i].bits;
	}
	c->has_sequence = true;
	c->seq_bits = t->seq_bits;
	c->has_sign = true;
	c->sign = t->sign;
	c->has_above = true;
	c->seq_above_node = t->seq_above_node;
	c->has_reset = true;
	sfl_word_set(&c->reset, reset_names[t->seq_reset], strlen(reset_names[t->seq_reset]));
}

/* Validate a spec from any source and build its layout (a preset via build_custom). */
sfl_status
sfl_build(const sfl_spec *spec, sfl_layout *out, char *msg, size_t msglen)
{
	const preset_def *d;
	const char *custom_param = NULL;
	int			p;
	sfl_layout	t;
	sfl_spec	c;

	if (word_is(&spec->name, "custom"))
		return build_custom(spec, out, msg, msglen);

	for (p = SFL_CUSTOM + 1; p < SFL_NUM_PRESETS; p++)
		if (word_is(&spec->name, presets[p].name))
			break;
	if (p == SFL_NUM_PRESETS)
		return fail(msg, msglen, SFL_ERR_RULE,
					"\"%s%s\" is not a preset layout; the presets are " PRESET_LIST ", and custom(...) defines any other.",
					spec->name.s, word_ellipsis(&spec->name));
	d = &presets[p];

	if (spec->has_time)
		custom_param = "time";
	else if (spec->has_fields)
		custom_param = "fields";
	else if (spec->has_sequence)
		custom_param = "sequence";
	else if (spec->has_sign)
		custom_param = "sign";
	else if (spec->has_above)
		custom_param = "sequence_above_node";
	else if (spec->has_reset)
		custom_param = "sequence_reset";
	if (custom_param)
		return fail(msg, msglen, SFL_ERR_RULE,
					"The preset %s takes no %s parameter; custom(...) defines other layouts.",
					d->name, custom_param);

	if (d->epoch_rule == PARAM_NONE && spec->has_epoch)
	{
		char		iso[32];

		sfl_format_iso(d->epoch, iso);
		return fail(msg, msglen, SFL_ERR_RULE,
					"The preset %s has a fixed epoch (%s); it takes no epoch parameter.",
					d->name, iso);
	}
	if (d->epoch_rule == PARAM_REQUIRED && !spec->has_epoch)
		return fail(msg, msglen, SFL_ERR_RULE,
					"The preset %s needs an epoch, such as %s(epoch=2014-09-01T00:00:00.000Z): its reference implementation changed its default start time between releases.",
					d->name, d->name);
	if (d->node_bits_rule == PARAM_NONE && spec->has_node_bits)
		return fail(msg, msglen, SFL_ERR_RULE,
					"The preset %s takes no node_bits parameter; node_bits applies to scru64 only.",
					d->name);
	if (d->node_bits_rule == PARAM_REQUIRED)
	{
		if (!spec->has_node_bits)
			return fail(msg, msglen, SFL_ERR_RULE,
						"The preset %s needs node_bits (1 to 23), such as %s(node_bits=8).",
						d->name, d->name);
		if (spec->node_bits < 1 || spec->node_bits > SCRU64_COUNTER_BITS - 1)
			return fail(msg, msglen, SFL_ERR_RULE,
						"node_bits is %lld; %s's node id has 1 to 23 bits.",
						(long long) spec->node_bits, d->name);
	}

	fill_preset((sfl_preset) p, spec->has_epoch ? spec->epoch_ms : d->epoch,
				(int) spec->node_bits, &t);
	preset_as_spec(&t, &c);
	return build_custom(&c, out, msg, msglen);
}

/* Build preset p with its parameters (ignored when it takes none). */
sfl_status
sfl_preset_layout(sfl_preset p, int64_t epoch_ms, int node_bits,
				  sfl_layout *out, char *msg, size_t msglen)
{
	sfl_spec	spec;

	sfl_spec_init(&spec);
	sfl_word_set(&spec.name, presets[p].name, strlen(presets[p].name));
	spec.has_epoch = presets[p].epoch_rule != PARAM_NONE;
	spec.epoch_ms = epoch_ms;
	spec.has_node_bits = presets[p].node_bits_rule != PARAM_NONE;
	spec.node_bits = node_bits;
	return sfl_build(&spec, out, msg, msglen);
}

/*
 * Serialized form (also the binary send/recv form):
 *   byte 0      format version (1)
 *   byte 1      time bits
 *   byte 2      unit (sfl_unit)
 *   byte 3      sequence bits
 *   byte 4      flags: 1 = sign bit, 2 = sequence above the node fields
 *   byte 5      sequence reset (sfl_reset)
 *   byte 6      number of node fields
 *   byte 7      zero
 *   bytes 8-15  epoch, Unix ms, big-endian
 *   per field   bits, name length, name
 */
size_t
sfl_serialize(const sfl_layout *l, uint8_t *buf)
{
	size_t		n = 16;

	buf[0] = SFL_FORMAT_VERSION;
	buf[1] = l->time_bits;
	buf[2] = l->unit;
	buf[3] = l->seq_bits;
	buf[4] = (uint8_t) ((l->sign ? 1 : 0) | (l->seq_above_node ? 2 : 0));
	buf[5] = l->seq_reset;
	buf[6] = l->nfields;
	buf[7] = 0;
	ulid_store_be64(buf + 8, (uint64_t) l->epoch_ms);
	for (int i = 0; i < l->nfields; i++)
	{
		size_t		len = strlen(l->fields[i].name);

		buf[n++] = l->fields[i].bits;
		buf[n++] = (uint8_t) len;
		memcpy(buf + n, l->fields[i].name, len);
		n += len;
	}
	return n;
}

/* Read serialized bytes back, through the same validation as any input. */
sfl_status
sfl_deserialize(const uint8_t *buf, size_t len, sfl_layout *out,
				char *msg, size_t msglen)
{
	sfl_spec	spec;
	size_t		n = 16;

	if (len < 16)
		return fail(msg, msglen, SFL_ERR_SYNTAX,
					"A serialized layout has at least 16 bytes; this has %zu.", len);
	if (buf[0] != SFL_FORMAT_VERSION)
		return fail(msg, msglen, SFL_ERR_SYNTAX,
					"Format version %d is not supported (this release reads version %d).",
					buf[0], SFL_FORMAT_VERSION);
	if (buf[2] > SFL_UNIT_S || buf[4] > 3 || buf[5] > SFL_RESET_CARRY ||
		buf[6] > SFL_MAX_FIELDS || buf[7] != 0)
		return fail(msg, msglen, SFL_ERR_SYNTAX,
					"The serialized layout has an invalid header.");

	sfl_spec_init(&spec);
	sfl_word_set(&spec.name, "custom", 6);
	spec.has_time = true;
	spec.time_bits = buf[1];
	sfl_word_set(&spec.unit, unit_names[buf[2]], strlen(unit_names[buf[2]]));
	spec.time_epoch_ms = (int64_t) ulid_load_be64(buf + 8);
	spec.has_sequence = true;
	spec.seq_bits = buf[3];
	spec.has_sign = true;
	spec.sign = (buf[4] & 1) != 0;
	spec.has_above = true;
	spec.seq_above_node = (buf[4] & 2) != 0;
	spec.has_reset = true;
	sfl_word_set(&spec.reset, reset_names[buf[5]], strlen(reset_names[buf[5]]));
	spec.has_fields = true;
	spec.nfields = buf[6];
	for (int i = 0; i < spec.nfields; i++)
	{
		size_t		flen;

		if (len - n < 2 || len - n - 2 < buf[n + 1])
			return fail(msg, msglen, SFL_ERR_SYNTAX,
						"The serialized layout ends inside node field %d.", i + 1);
		spec.field_bits[i] = buf[n];
		flen = buf[n + 1];
		sfl_word_set(&spec.field_names[i], (const char *) buf + n + 2, flen);
		n += 2 + flen;
	}
	if (n != len)
		return fail(msg, msglen, SFL_ERR_SYNTAX,
					"The serialized layout has %zu bytes after its last field.", len - n);
	return build_custom(&spec, out, msg, msglen);
}

/* The parts of an id, or SFL_ERR_RANGE when it has bits outside the layout. */
sfl_status
sfl_unpack(const sfl_layout *l, uint64_t id, sfl_parts *parts)
{
	if (l->width < 64 && (id >> l->width) != 0)
		return SFL_ERR_RANGE;
	if (l->preset == SFL_SCRU64 && id >= SFL_SCRU64_LIMIT)
		return SFL_ERR_RANGE;
	parts->tick = (int64_t) ((id >> l->time_shift) & sfl_mask(l->time_bits));
	parts->node = (id >> l->node_shift) & sfl_mask(l->node_bits);
	parts->seq = (id >> l->seq_shift) & sfl_mask(l->seq_bits);
	return SFL_OK;
}

/* An id from parts the caller checked against the layout. */
uint64_t
sfl_pack(const sfl_layout *l, int64_t tick, uint64_t node, uint64_t seq)
{
	return ((uint64_t) tick << l->time_shift) | (node << l->node_shift) |
		(seq << l->seq_shift);
}

/* Node field i of a node value (all node fields together). */
uint64_t
sfl_field_of_node(const sfl_layout *l, int i, uint64_t node)
{
	return (node >> (l->fields[i].shift - l->node_shift)) &
		sfl_mask(l->fields[i].bits);
}

/* Index of the node field called name[0..len), or -1. */
int
sfl_field_index(const sfl_layout *l, const char *name, size_t len)
{
	for (int i = 0; i < l->nfields; i++)
		if (strlen(l->fields[i].name) == len &&
			memcmp(l->fields[i].name, name, len) == 0)
			return i;
	return -1;
}

/* The tick holding a Unix ms time, floored; SFL_ERR_RANGE outside the layout. */
sfl_status
sfl_tick_of_unix_ms(const sfl_layout *l, int64_t unix_ms, int64_t *tick)
{
	int64_t		t;

	if (unix_ms < l->epoch_ms)
		return SFL_ERR_RANGE;
	t = (unix_ms - l->epoch_ms) / sfl_unit_ms((sfl_unit) l->unit);
	if (t > l->max_tick)
		return SFL_ERR_RANGE;
	*tick = t;
	return SFL_OK;
}

/* The last Unix ms of the layout's last tick. */
int64_t
sfl_last_unix_ms(const sfl_layout *l)
{
	return sfl_tick_unix_ms(l, l->max_tick) + sfl_unit_ms((sfl_unit) l->unit) - 1;
}

/* The first and last tick a generator may issue. */
void
sfl_issuable_ticks(const sfl_layout *l, int64_t *first, int64_t *last)
{
	*first = 0;
	*last = l->max_tick;
	if (l->preset == SFL_SCRU64)
	{
		/* SCRU64 reserves timestamps 0 and 282429536480 */
		*first = 1;
		*last = SFL_SCRU64_MAX_TICK - 1;
	}
}

/*
 * The rules of SPEC.md: zero; random (SCRU64) below half the range; carry
 * (CosId) continues from the previous tick while its last sequence is below
 * half the range, so ids spread over their low bits, else restarts at 0.
 * CosId's own code uses threshold 2^(bits-1) - 1 and restarts at 1 (it
 * keeps 0 as its overflow marker); the SPEC's rule is the one here.
 */
uint64_t
sfl_seq_start(const sfl_layout *l, uint64_t prev_seq, uint64_t random)
{
	uint64_t	half = UINT64_C(1) << (l->seq_bits - 1);

	switch ((sfl_reset) l->seq_reset)
	{
		case SFL_RESET_RANDOM:
			return random & (half - 1);
		case SFL_RESET_CARRY:
			return prev_seq < half ? prev_seq + 1 : 0;
		case SFL_RESET_ZERO:
			break;
	}
	return 0;
}

/* The most ids one node mints in one tick. */
uint64_t
sfl_ids_per_tick(const sfl_layout *l)
{
	return UINT64_C(1) << l->seq_bits;
}

/* The bit structure of a layout, for keying shared generator state. */
void
sfl_layout_key(const sfl_layout *l, sfl_key *key)
{
	memset(key, 0, sizeof(*key));
	key->epoch_ms = l->epoch_ms;
	key->time_bits = l->time_bits;
	key->unit = l->unit;
	key->node_bits = l->node_bits;
	key->seq_bits = l->seq_bits;
	key->flags = (uint8_t) ((l->sign ? SFL_KEY_SIGN : 0) |
							(l->seq_above_node ? SFL_KEY_SEQ_ABOVE_NODE : 0));
}
