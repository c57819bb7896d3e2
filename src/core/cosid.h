/*-------------------------------------------------------------------------
 *
 * cosid.h
 *	  CosId 5.0's codec chain and COSID_80 text (pure C, no PostgreSQL).
 *
 * A codec chain is an ordered list of items applied in the order written.
 * The first item turns the id into text (radix with width and padding, or
 * friendly yyyyMMddHHmmssSSS-node-seq); without one the text is the
 * decimal of the id's unsigned value.  The items after it wrap that text:
 * prefix, suffix and date prefix (a date, a delimiter, then the text).
 * Decoding undoes the items in reverse and accepts exactly the texts
 * encoding writes (one text per id).
 *
 * The glue walks the jsonb and hands each item over as a cosid_item (its
 * one key and its value, an object's members flattened); the grammar's
 * rules, the messages and the codecs themselves live here.  Times are local
 * times (the caller converts with the time zone) in Unix-ms arithmetic.
 *
 * COSID_80: 44 bits of Unix ms, a 20-bit node, a 16-bit sequence; its text
 * is each part in Base62 at a fixed width (8 + 4 + 3 = 15 characters), so
 * it sorts like the id under byte-wise comparison.
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_COSID_H
#define ULID_COSID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "layout.h"

#define COSID_MAX_ITEMS		16	/* items in one chain */
#define COSID_MAX_MEMBERS	8	/* members of one item's object */
#define COSID_AFFIX_MAX		64	/* bytes of a prefix, suffix or delimiter */
#define COSID_PATTERN_MAX	32	/* bytes of a date pattern */
#define COSID_ZONE_MAX		64	/* bytes of a time zone name */
#define COSID_MSG_MAX		320
/* the longest text: friendly core + every item at its longest, with NUL */
#define COSID_OUT_MAX		(64 + COSID_MAX_ITEMS * (COSID_PATTERN_MAX + COSID_AFFIX_MAX) + 1)

typedef enum cosid_status
{
	COSID_OK = 0,
	COSID_ERR_SYNTAX,			/* malformed text (22P02) */
	COSID_ERR_RANGE,			/* a value that does not fit (22003) */
	COSID_ERR_CODEC				/* a codec that breaks the grammar (22023) */
} cosid_status;

/* Where and why: byte offset of the problem in the text, and a sentence. */
typedef struct cosid_error
{
	size_t		pos;
	char		msg[COSID_MSG_MAX];
} cosid_error;

/* --- the codec chain ----------------------------------------------------- */

typedef enum cosid_first
{
	COSID_FIRST_DECIMAL = 0,	/* no first item */
	COSID_FIRST_RADIX,
	COSID_FIRST_FRIENDLY
} cosid_first;

typedef enum cosid_wrap_kind
{
	COSID_WRAP_PREFIX = 0,
	COSID_WRAP_SUFFIX,
	COSID_WRAP_DATE
} cosid_wrap_kind;

typedef enum cosid_source
{
	COSID_SOURCE_ID_TIME = 0,	/* the id's own time */
	COSID_SOURCE_NOW			/* the time the caller passes (the clock) */
} cosid_source;

/* a date pattern's fields: yyyy yy MM dd HH mm ss SSS, or a literal byte */
typedef struct cosid_token
{
	uint8_t		field;			/* COSID_F_* */
	uint8_t		width;			/* digits (1 for a literal) */
	char		literal;
} cosid_token;

typedef struct cosid_wrap
{
	uint8_t		kind;			/* cosid_wrap_kind */
	uint8_t		source;			/* date: cosid_source */
	uint8_t		ntokens;		/* date: its pattern */
	uint8_t		date_len;		/* date: bytes of the date text */
	uint8_t		len;			/* bytes of text */
	char		text[COSID_AFFIX_MAX + 1];	/* prefix, suffix; date: delimiter */
	cosid_token tokens[COSID_PATTERN_MAX];
	int			index;			/* the item's index in the chain */
	int64_t		period_ms;		/* date: the unit of its finest field */
	/* date: the last date written (encoding may update it) */
	bool		memo_valid;
	int64_t		memo_period;
	char		memo[COSID_PATTERN_MAX];
} cosid_wrap;

typedef struct cosid_codec
{
	uint8_t		first;			/* cosid_first */
	uint8_t		radix;			/* radix: 2..62; decimal: 10 */
	uint8_t		width;			/* radix: most digits (0: 64-bit limit) */
	bool		pad;			/* radix: pad to width; friendly: node, seq */
	bool		has_zone;		/* friendly: its zone (else UTC) */
	char		zone[COSID_ZONE_MAX + 1];
	bool		uses_id_time;	/* friendly or an id_time date prefix */
	bool		uses_now;		/* a now date prefix */
	bool		id_dates;		/* an id_time date prefix */
	int			nwraps;
	cosid_wrap	wraps[COSID_MAX_ITEMS];
} cosid_codec;

/* What the glue read from the jsonb. */
typedef enum cosid_jtype
{
	COSID_J_NULL = 0,
	COSID_J_BOOL,
	COSID_J_NUMBER,
	COSID_J_STRING,
	COSID_J_ARRAY,
	COSID_J_OBJECT
} cosid_jtype;

typedef struct cosid_jval
{
	cosid_jtype type;
	bool		b;				/* bool */
	bool		is_int;			/* number: integral and within int64 */
	int64_t		i;
	const char *s;				/* string (not NUL-terminated) */
	size_t		len;
} cosid_jval;

/* One item of the chain: an object with one key, kind, and its value. */
typedef struct cosid_item
{
	int			nkeys;			/* keys of the item (exactly 1 is valid) */
	const char *kind;
	size_t		kind_len;
	cosid_jval	value;
	/* when value is an object: its members (nmembers may exceed the max) */
	int			nmembers;
	const char *names[COSID_MAX_MEMBERS];
	size_t		name_lens[COSID_MAX_MEMBERS];
	cosid_jval	members[COSID_MAX_MEMBERS];
} cosid_item;

/* Name of a JSON type, for messages ("a string", "an object"). */
extern const char *cosid_jtype_name(cosid_jtype t);

extern void cosid_codec_init(cosid_codec *c);

/*
 * Add item number index (0-based) to the chain: COSID_ERR_CODEC with a
 * message naming the item ("codec[2] (\"date_prefix\"): ...") when it breaks
 * the grammar.
 */
extern cosid_status cosid_codec_add(cosid_codec *c, int index,
									const cosid_item *it, cosid_error *err);

/* The message of a chain-level problem ("the codec is a string: ..."). */
extern void cosid_codec_shape_error(cosid_error *err, int index,
									const char *kind, size_t kind_len,
									const char *what);

/*
 * Encode id (of layout l; in range) into out (COSID_OUT_MAX bytes, NUL
 * added).  id_local_ms: the id's time as local time in the codec's zone
 * (when c->uses_id_time); now_local_ms: the time of a now date prefix, the
 * same way (when c->uses_now).  COSID_ERR_RANGE when a radix width or a
 * date's year cannot hold the value.  c keeps the last date of each date
 * prefix, so ids of one period format their date once.
 */
extern cosid_status cosid_encode(cosid_codec *c, const sfl_layout *l,
								 uint64_t id, int64_t id_local_ms,
								 int64_t now_local_ms, char *out, size_t *len,
								 cosid_error *err);

/* What cosid_decode found. */
typedef struct cosid_decoded
{
	uint64_t	value;			/* decimal, radix: the id */
	int64_t		local_ms;		/* friendly: the local time */
	uint64_t	node;			/* friendly */
	uint64_t	seq;			/* friendly */
	size_t		core_pos;		/* where the first item's text starts */
	size_t		date_pos[COSID_MAX_ITEMS];	/* each date wrap's date text */
} cosid_decoded;

/*
 * Undo the wraps and decode the first item's text.  COSID_ERR_SYNTAX for a
 * text the codec cannot have written (err->pos at the first offending
 * byte), COSID_ERR_RANGE for a value above 2^64 - 1 or a friendly node or
 * sequence too large for l.  Date prefixes are checked for shape only; the
 * caller then checks the id_time ones with cosid_check_dates().
 */
extern cosid_status cosid_decode(const cosid_codec *c, const sfl_layout *l,
								 const char *s, size_t len, cosid_decoded *d,
								 cosid_error *err);

/* Each id_time date prefix must be the id's own date (id_local_ms). */
extern cosid_status cosid_check_dates(cosid_codec *c, const char *s,
									  const cosid_decoded *d,
									  int64_t id_local_ms, cosid_error *err);

/* --- friendly text, any widths (COSID_80 and the chain) ------------------ */

/*
 * yyyyMMddHHmmssSSS-node-seq with node and seq zero-padded to wn and ws
 * digits (0: unpadded); false outside years 0000..9999.  buf holds 64.
 */
extern bool cosid_friendly_format(int64_t local_ms, uint64_t node, int wn,
								  uint64_t seq, int ws, bool pad, char *buf,
								  size_t *len);

/*
 * Parse it back: with pad exactly wn and ws digits, else 1..wn and 1..ws
 * without leading zeros.  RANGE when node > max_node or seq > max_seq.
 */
extern cosid_status cosid_friendly_parse(const char *s, size_t len, int wn,
										 int ws, bool pad, uint64_t max_node,
										 uint64_t max_seq, int64_t *local_ms,
										 uint64_t *node, uint64_t *seq,
										 cosid_error *err);

/* --- COSID_80 ------------------------------------------------------------- */

#define COSID80_TIME_BITS	44
#define COSID80_NODE_BITS	20
#define COSID80_SEQ_BITS	16
#define COSID80_TEXT_LEN	15	/* Base62: time 8, node 4, sequence 3 */
#define COSID80_MAX_MS		((INT64_C(1) << COSID80_TIME_BITS) - 1)
#define COSID80_MAX_NODE	((UINT64_C(1) << COSID80_NODE_BITS) - 1)
#define COSID80_MAX_SEQ		((UINT64_C(1) << COSID80_SEQ_BITS) - 1)
#define COSID80_NODE_DIGITS 7	/* decimal digits of the friendly form */
#define COSID80_SEQ_DIGITS	5

/* The generator's view of COSID_80: a layout of 80 bits (never packed). */
extern void cosid80_layout(sfl_layout *l);

/* The 15 characters and a NUL of parts in range. */
extern void cosid80_format(int64_t ms, uint64_t node, uint64_t seq, char *out);

/* 15 Base62 characters: SYNTAX at a bad length or byte, RANGE for a part. */
extern cosid_status cosid80_parse(const char *s, size_t len, int64_t *ms,
								  uint64_t *node, uint64_t *seq,
								  cosid_error *err);

#endif							/* ULID_COSID_H */
