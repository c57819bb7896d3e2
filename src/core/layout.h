/*-------------------------------------------------------------------------
 *
 * layout.h
 *	  Snowflake bit layouts as data (pure C, no PostgreSQL calls).
 *
 * A layout splits a 64-bit id into a time field (bits, unit, epoch), named
 * node fields (most significant first), a sequence, and unused top bits
 * (the sign bit of a signed layout, plus any bits a short layout leaves
 * zero).  The sequence sits below the node fields (Twitter and everyone
 * else) or above them (Sonyflake).  A layout also says how a new tick starts
 * its sequence.
 *
 * One builder validates every layout, whichever way it arrives: the text
 * form (sfl_parse_spec), the SQL constructors (which fill an sfl_spec), or
 * the stored bytes (sfl_deserialize).  Each failure returns a status and a
 * message, one complete sentence naming the rule and the offending value.
 *
 * Ids are uint64 here; the SQL glue stores them in bigint, so a layout that
 * uses all 64 bits maps its unsigned value onto int64 two's complement.
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_LAYOUT_H
#define ULID_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* printf-style checking of the message helpers */
#if defined(__GNUC__)
#define SFL_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define SFL_PRINTF(f, a)
#endif

#define SFL_NAME_MAX		63	/* longest node field name */
#define SFL_MAX_FIELDS		53	/* each field has >= 1 bit, 53 in all */
#define SFL_SPEC_MAX_FIELDS 64	/* a spec may carry more, to report them */
#define SFL_MAX_TIME_BITS	53
#define SFL_MAX_NODE_BITS	53
#define SFL_MAX_SEQ_BITS	31
#define SFL_MSG_MAX			256 /* message buffers: at least this long */
#define SFL_TEXT_MAX		8192	/* canonical text and diagram, with NUL */
#define SFL_FORMAT_VERSION	1	/* first byte of the serialized form */
#define SFL_SERIAL_MAX		(16 + SFL_MAX_FIELDS * (2 + SFL_NAME_MAX))

/* epochs: 1970-01-01T00:00:00.000Z .. 9999-12-31T23:59:59.999Z */
#define SFL_EPOCH_MAX_MS	INT64_C(253402300799999)

/* SCRU64: values below 36^12, so its time field ends at tick 3^24 - 1 */
#define SFL_SCRU64_LIMIT	UINT64_C(4738381338321616896)
#define SFL_SCRU64_MAX_TICK INT64_C(282429536480)

typedef enum sfl_status
{
	SFL_OK = 0,
	SFL_ERR_SYNTAX,				/* text that is not a layout or an id form */
	SFL_ERR_RULE,				/* a well-formed definition breaks a rule */
	SFL_ERR_RANGE				/* a value outside the layout */
} sfl_status;

typedef enum sfl_unit
{
	SFL_UNIT_MS = 0,
	SFL_UNIT_10MS,
	SFL_UNIT_256MS,
	SFL_UNIT_S
} sfl_unit;

typedef enum sfl_reset
{
	SFL_RESET_ZERO = 0,			/* a new tick starts at 0 */
	SFL_RESET_RANDOM,			/* at a random value below half the range */
	SFL_RESET_CARRY				/* CosId: previous + 1 while below half, else 0 */
} sfl_reset;

typedef enum sfl_preset
{
	SFL_CUSTOM = 0,
	SFL_TWITTER,
	SFL_DISCORD,
	SFL_INSTAGRAM,
	SFL_SONYFLAKE,
	SFL_SCRU64,
	SFL_SNOWFLAKE_MS,
	SFL_SNOWFLAKE_S,
	SFL_JS_SAFE_MS,
	SFL_JS_SAFE_S,
	SFL_NUM_PRESETS
} sfl_preset;

typedef struct sfl_field
{
	char		name[SFL_NAME_MAX + 1];
	uint8_t		bits;
	uint8_t		shift;			/* of its lowest bit in the id */
} sfl_field;

/*
 * A validated layout.  The definition is time_bits .. seq_reset and the
 * fields; the rest is derived by the builder.
 */
typedef struct sfl_layout
{
	int64_t		epoch_ms;		/* Unix ms of tick 0 */
	uint8_t		time_bits;
	uint8_t		unit;			/* sfl_unit */
	uint8_t		seq_bits;
	uint8_t		seq_reset;		/* sfl_reset */
	bool		sign;			/* top bit reserved (always zero) */
	bool		seq_above_node; /* Sonyflake order */
	uint8_t		nfields;
	sfl_field	fields[SFL_MAX_FIELDS];

	/* derived */
	uint8_t		preset;			/* sfl_preset the definition equals */
	uint8_t		node_bits;		/* all node fields together */
	uint8_t		width;			/* time + node + sequence */
	uint8_t		time_shift;
	uint8_t		node_shift;
	uint8_t		seq_shift;
	int64_t		max_tick;		/* largest readable tick */
} sfl_layout;

/* A word of the text form or a constructor argument, kept for messages. */
typedef struct sfl_word
{
	char		s[SFL_NAME_MAX + 2];	/* at most 64 bytes, NUL-terminated */
	size_t		len;			/* real length (may exceed what s holds) */
} sfl_word;

/*
 * A layout request before validation: what the text form or the SQL
 * constructors said.  has_* tell which parameters were given.
 */
typedef struct sfl_spec
{
	sfl_word	name;			/* preset name or "custom" */
	bool		has_epoch;		/* a preset's epoch parameter */
	int64_t		epoch_ms;
	bool		has_node_bits;	/* scru64's node_bits parameter */
	int64_t		node_bits;
	bool		has_time;		/* custom: time=BITS:UNIT:EPOCH */
	int64_t		time_bits;
	sfl_word	unit;
	int64_t		time_epoch_ms;
	bool		has_fields;
	int			nfields;
	sfl_word	field_names[SFL_SPEC_MAX_FIELDS];
	int64_t		field_bits[SFL_SPEC_MAX_FIELDS];
	bool		has_sequence;
	int64_t		seq_bits;
	bool		has_sign;
	bool		sign;
	bool		has_above;
	bool		seq_above_node;
	bool		has_reset;
	sfl_word	reset;
} sfl_spec;

/*
 * The bit structure that decides which ids a layout mints: two layouts with
 * equal keys mint the same ids, whatever their names or reset rules.  Plain
 * bytes with zeroed padding: compare and hash with memcmp / hash_bytes.
 */
typedef struct sfl_key
{
	int64_t		epoch_ms;
	uint8_t		time_bits;
	uint8_t		unit;
	uint8_t		node_bits;
	uint8_t		seq_bits;
	uint8_t		flags;			/* SFL_KEY_SIGN | SFL_KEY_SEQ_ABOVE_NODE */
	uint8_t		pad[3];
} sfl_key;

#define SFL_KEY_SIGN			1
#define SFL_KEY_SEQ_ABOVE_NODE	2

/* The parts of one id. */
typedef struct sfl_parts
{
	int64_t		tick;			/* the time field: ticks since the epoch */
	uint64_t	node;			/* all node fields together */
	uint64_t	seq;
} sfl_parts;

/* --- building layouts (layout.c) ---------------------------------------- */

extern void sfl_spec_init(sfl_spec *spec);
extern void sfl_word_set(sfl_word *w, const char *s, size_t len);

/* Validate spec and build the layout; on failure a message goes to msg. */
extern sfl_status sfl_build(const sfl_spec *spec, sfl_layout *out,
							char *msg, size_t msglen);

/* A preset by its enum (with its parameters), for tests and callers. */
extern sfl_status sfl_preset_layout(sfl_preset p, int64_t epoch_ms,
									int node_bits, sfl_layout *out,
									char *msg, size_t msglen);

extern const char *sfl_preset_name(sfl_preset p);
extern int64_t sfl_preset_epoch(sfl_preset p);	/* fixed or default */
extern const char *sfl_unit_name(sfl_unit u);
extern int	sfl_unit_ms(sfl_unit u);
extern const char *sfl_reset_name(sfl_reset r);

/* Same definition (so same text form, same serialized bytes)? */
extern bool sfl_equal(const sfl_layout *a, const sfl_layout *b);

/* Serialized form: version byte, definition.  Returns the length. */
extern size_t sfl_serialize(const sfl_layout *l, uint8_t *buf);
extern sfl_status sfl_deserialize(const uint8_t *buf, size_t len,
								  sfl_layout *out, char *msg, size_t msglen);

/* --- reading and packing ids (layout.c) --------------------------------- */

static inline uint64_t
sfl_mask(int bits)
{
	return bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
}

static inline uint64_t
sfl_max_node(const sfl_layout *l)
{
	return sfl_mask(l->node_bits);
}

static inline uint64_t
sfl_max_seq(const sfl_layout *l)
{
	return sfl_mask(l->seq_bits);
}

/* SFL_ERR_RANGE when id has bits outside the layout (or is >= 36^12). */
extern sfl_status sfl_unpack(const sfl_layout *l, uint64_t id,
							 sfl_parts *parts);

/* Pack parts that are in range (tick <= max_tick, node, seq <= max). */
extern uint64_t sfl_pack(const sfl_layout *l, int64_t tick, uint64_t node,
						 uint64_t seq);

/* The value of node field i of a node value. */
extern uint64_t sfl_field_of_node(const sfl_layout *l, int i, uint64_t node);

/* Index of the node field called name, or -1. */
extern int	sfl_field_index(const sfl_layout *l, const char *name, size_t len);

/* Unix ms where a tick starts. */
static inline int64_t
sfl_tick_unix_ms(const sfl_layout *l, int64_t tick)
{
	return l->epoch_ms + tick * sfl_unit_ms((sfl_unit) l->unit);
}

/*
 * The tick of a Unix ms time (floored to its tick): SFL_ERR_RANGE when the
 * time is before the epoch or after the last tick.
 */
extern sfl_status sfl_tick_of_unix_ms(const sfl_layout *l, int64_t unix_ms,
									  int64_t *tick);

/* Last Unix ms the layout can hold (the end of its last tick). */
extern int64_t sfl_last_unix_ms(const sfl_layout *l);

/* --- generator support (layout.c) --------------------------------------- */

/* The ticks a generator may issue (SCRU64 reserves the first and last). */
extern void sfl_issuable_ticks(const sfl_layout *l, int64_t *first,
							   int64_t *last);

/*
 * The sequence the first id of a new tick takes, after a tick whose last
 * sequence was prev_seq; random is a uniformly random value (used by the
 * random rule only).
 */
extern uint64_t sfl_seq_start(const sfl_layout *l, uint64_t prev_seq,
							  uint64_t random);

/* Ids one node can mint per tick at most, and per second. */
extern uint64_t sfl_ids_per_tick(const sfl_layout *l);

extern void sfl_layout_key(const sfl_layout *l, sfl_key *key);

/* --- text (layout_text.c) ----------------------------------------------- */

/* Parse the text form into a spec (syntax only; sfl_build validates). */
extern sfl_status sfl_parse_spec(const char *s, size_t len, sfl_spec *spec,
								 char *msg, size_t msglen);

/* sfl_parse_spec then sfl_build. */
extern sfl_status sfl_parse(const char *s, size_t len, sfl_layout *out,
							char *msg, size_t msglen);

/* Parse a JSON object {"name": bits, ...} into spec's fields, in order. */
extern sfl_status sfl_parse_fields_json(const char *s, size_t len,
										sfl_spec *spec, char *msg,
										size_t msglen);

/* Canonical text and the diagram, NUL-terminated; buf has SFL_TEXT_MAX. */
extern size_t sfl_format(const sfl_layout *l, char *buf);
extern size_t sfl_diagram(const sfl_layout *l, char *buf);

/* --- UTC calendar (layout_text.c) --------------------------------------- */

/* Civil fields of ms (years 0000..9999): false outside that range. */
typedef struct sfl_civil
{
	int			year,
				month,
				day,
				hour,
				minute,
				second,
				ms;
} sfl_civil;

extern bool sfl_civil_from_ms(int64_t ms, sfl_civil *c);

/* ms of valid civil fields (month, day, hour... checked: false if not). */
extern bool sfl_ms_from_civil(const sfl_civil *c, int64_t *ms);

/* "2010-11-04T01:42:54.657Z" (24 chars + NUL) of an epoch-range ms. */
extern void sfl_format_iso(int64_t ms, char *buf);

/*
 * Any ms as a time, for messages: sfl_format_iso() in years 0000..9999,
 * else ISO 8601's expanded form, a sign and at least six year digits
 * ("+285426782-05-12T...Z", as JavaScript writes years past 9999).
 */
#define SFL_TIME_TEXT_MAX	32
extern void sfl_format_time(int64_t ms, char buf[SFL_TIME_TEXT_MAX]);

#endif							/* ULID_LAYOUT_H */
