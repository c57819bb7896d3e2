/*
 * fuzz_cosid.c: libFuzzer target for CosId's codec chain and COSID_80
 * (src/core/cosid.c): every decoder (the chain over a set of codecs and
 * layouts, COSID_80 text, the friendly form of any widths) and the
 * grammar (items built from the input).
 *
 * The first input byte selects what to run.  Beyond "no crash, no
 * sanitizer report": every text a decoder accepts re-encodes to itself
 * (decoding accepts exactly what encoding writes), and every chain the
 * grammar accepts encodes an id to a text that decodes back to that id.
 * A violation aborts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/cosid_items.h"

#define REQUIRE(cond) do { if (!(cond)) abort(); } while (0)

static void
check_error(cosid_status st, const cosid_error *e, size_t len)
{
	if (st == COSID_ERR_SYNTAX)
		REQUIRE(e->pos <= len);
	REQUIRE(strlen(e->msg) < sizeof(e->msg));
}

static sfl_layout
layout_of(unsigned k)
{
	static const sfl_preset presets[] = {SFL_TWITTER, SFL_DISCORD, SFL_SNOWFLAKE_S, SFL_JS_SAFE_MS, SFL_SCRU64};
	sfl_preset	p = presets[k % 5];
	sfl_layout	l;
	char		msg[SFL_MSG_MAX];

	REQUIRE(sfl_preset_layout(p, sfl_preset_epoch(p), 8, &l, msg, sizeof(msg)) == SFL_OK);
	return l;
}

/* a fixed set of chains covering every item */
static int
fixed_codec(unsigned k, cosid_codec *c)
{
	cosid_item	it[4];
	int			n = 0;
	cosid_error err;

	switch (k % 8)
	{
		case 0:
			break;
		case 1:
			it[n++] = item_obj("radix", "radix", j_int(62), NULL);
			it[n++] = item_obj("date_prefix", "pattern", j_str("yyMMdd"), "source", j_str("id_time"), NULL);
			it[n++] = item_scalar("prefix", j_str("O"));
			break;
		case 2:
			it[n++] = item_obj("radix", "radix", j_int(36), "width", j_int(13), "pad", j_bool(true), NULL);
			it[n++] = item_scalar("suffix", j_str("_x"));
			break;
		case 3:
			it[n++] = item_obj("friendly", "zone", j_str("UTC"), NULL);
			break;
		case 4:
			it[n++] = item_obj("friendly", "zone", j_str("UTC"), "pad", j_bool(false), NULL);
			it[n++] = item_obj("date_prefix", "pattern", j_str("yyyy-MM-dd HH:mm:ss.SSS"), "delimiter", j_str("/"),
							   "source", j_str("id_time"), NULL);
			break;
		case 5:
			it[n++] = item_obj("radix", "radix", j_int(2), "width", j_int(64), NULL);
			it[n++] = item_scalar("prefix", j_str("a"));
			it[n++] = item_scalar("suffix", j_str("a"));
			it[n++] = item_scalar("prefix", j_str("\xc3\xa9"));
			break;
		case 6:
			it[n++] = item_obj("radix", "radix", j_int(10), "width", j_int(6), "pad", j_bool(true), NULL);
			it[n++] = item_obj("date_prefix", "pattern", j_str("yyyyMMdd"), "delimiter", j_str("-"), "source", j_str("now"), NULL);
			break;
		default:
			it[n++] = item_obj("radix", "radix", j_int(16), NULL);
			it[n++] = item_obj("date_prefix", "pattern", j_str("HHmm"), "source", j_str("id_time"), NULL);
			it[n++] = item_obj("date_prefix", "pattern", j_str("yy"), "delimiter", j_str("."), "source", j_str("id_time"), NULL);
			break;
	}
	REQUIRE(build_chain(c, n, it, &err) == COSID_OK);
	return n;
}

/* The id of decoded parts in UTC, or false when they are not one (off a tick). */
static bool
id_of(const cosid_codec *c, const sfl_layout *l, const cosid_decoded *d, uint64_t *id)
{
	int			unit = sfl_unit_ms((sfl_unit) l->unit);
	int64_t		tick;

	if (c->first != COSID_FIRST_FRIENDLY)
	{
		sfl_parts	p;

		*id = d->value;
		return sfl_unpack(l, d->value, &p) == SFL_OK;
	}
	if (d->local_ms < l->epoch_ms || (d->local_ms - l->epoch_ms) % unit != 0)
		return false;
	tick = (d->local_ms - l->epoch_ms) / unit;
	if (tick > l->max_tick || (l->preset == SFL_SCRU64 && tick >= SFL_SCRU64_MAX_TICK))
		return false;
	*id = sfl_pack(l, tick, d->node, d->seq);
	return true;
}

static int64_t
id_ms(const sfl_layout *l, uint64_t id)
{
	sfl_parts	p;

	REQUIRE(sfl_unpack(l, id, &p) == SFL_OK);
	return sfl_tick_unix_ms(l, p.tick);
}

/* decode with a fixed codec; an accepted text re-encodes to itself */
static void
fuzz_chain(const uint8_t *data, size_t size)
{
	cosid_codec c;
	sfl_layout	l;
	cosid_decoded d;
	cosid_error err;
	cosid_status st;
	const char *s = (const char *) data + 1;
	size_t		len = size - 1;
	uint64_t	id;
	char		out[COSID_OUT_MAX];
	size_t		n;

	if (size < 1)
		return;
	fixed_codec(data[0], &c);
	l = layout_of(data[0] >> 3);
	/* half the time the codec has written a date already (its memo) */
	if (data[0] & 0x40)
	{
		sfl_parts	p;
		uint64_t	seed = UINT64_C(905478981279559697) & sfl_mask(l.width);

		if (sfl_unpack(&l, seed, &p) == SFL_OK)
			(void) cosid_encode(&c, &l, seed, id_ms(&l, seed), 86400000, out, &n, &err);
	}
	st = cosid_decode(&c, &l, s, len, &d, &err);
	check_error(st, &err, len);
	if (st != COSID_OK || !id_of(&c, &l, &d, &id))
		return;
	st = cosid_check_dates(&c, s, &d, id_ms(&l, id), &err);
	check_error(st, &err, len);
	if (st != COSID_OK || c.uses_now)
		return;
	REQUIRE(cosid_encode(&c, &l, id, id_ms(&l, id), 0, out, &n, &err) == COSID_OK);
	REQUIRE(n == len && memcmp(out, s, len) == 0);
}

static void
fuzz_cosid80(const char *s, size_t len)
{
	int64_t		ms;
	uint64_t	node,
				seq;
	cosid_error err;
	cosid_status st = cosid80_parse(s, len, &ms, &node, &seq, &err);
	char		out[COSID80_TEXT_LEN + 1];

	check_error(st, &err, len);
	if (st != COSID_OK)
		return;
	REQUIRE(ms >= 0 && ms <= COSID80_MAX_MS && node <= COSID80_MAX_NODE && seq <= COSID80_MAX_SEQ);
	cosid80_format(ms, node, seq, out);
	REQUIRE(len == COSID80_TEXT_LEN && memcmp(out, s, len) == 0);
}

static void
fuzz_friendly(const uint8_t *data, size_t size)
{
	int			wn,
				ws;
	bool		pad;
	int64_t		local;
	uint64_t	node,
				seq,
				max_node,
				max_seq;
	cosid_error err;
	cosid_status st;
	char		out[64];
	size_t		n;

	if (size < 2)
		return;
	wn = 1 + data[0] % 20;
	ws = 1 + data[1] % 10;
	pad = (data[0] & 0x80) != 0;
	max_node = wn >= 20 ? UINT64_MAX : 1;
	for (int i = 0; i < wn && wn < 20; i++)
		max_node *= 10;
	if (wn < 20)
		max_node--;
	max_seq = 1;
	for (int i = 0; i < ws; i++)
		max_seq *= 10;
	max_seq--;
	st = cosid_friendly_parse((const char *) data + 2, size - 2, wn, ws, pad, max_node, max_seq,
							  &local, &node, &seq, &err);
	check_error(st, &err, size - 2);
	if (st != COSID_OK)
		return;
	REQUIRE(node <= max_node && seq <= max_seq);
	REQUIRE(cosid_friendly_format(local, node, wn, seq, ws, pad, out, &n));
	REQUIRE(n == size - 2 && memcmp(out, data + 2, n) == 0);
}

/* the grammar: items from the input; an accepted chain round-trips an id */
static void
fuzz_grammar(const uint8_t *data, size_t size)
{
	static const char *const kinds[] = {"radix", "friendly", "prefix", "suffix", "date_prefix", "uuid", ""};
	static const char *const names[] = {"radix", "width", "pad", "zone", "pattern", "delimiter", "source", "x"};
	static const char *const strs[] = {"62", "UTC", "yyMMdd", "yyyy-MM-dd", "HH:mm:ss.SSS", "now", "id_time",
	"", "O", "-", "yyy", "SSSS", "\xc3\xa9", "a\"b", "MMdd", "yy'Q"};
	cosid_item	items[6];
	int			nitems = 0;
	size_t		p = 0;
	cosid_codec c;
	cosid_error err;
	cosid_status st;
	sfl_layout	l;
	uint64_t	id = 0;
	char		out[COSID_OUT_MAX];
	size_t		n;
	cosid_decoded d;
	uint64_t	back;

#define NEXT() (p < size ? data[p++] : 0)
	l = layout_of(NEXT());
	for (int i = 0; i < 8; i++)
		id = (id << 8) | NEXT();
	while (p < size && nitems < 6)
	{
		uint8_t		b = NEXT();
		cosid_item *it = &items[nitems++];
		int			nm;

		memset(it, 0, sizeof(*it));
		it->nkeys = b & 0x80 ? 1 + (b >> 5 & 1) : 1;
		it->kind = kinds[b % 7];
		it->kind_len = strlen(it->kind);
		nm = NEXT() % 5;
		if (nm == 4)
			it->value = j_str(strs[NEXT() % 16]);
		else
		{
			it->value.type = COSID_J_OBJECT;
			it->nmembers = nm;
			for (int m = 0; m < nm; m++)
			{
				uint8_t		v = NEXT();

				it->names[m] = names[v % 8];
				it->name_lens[m] = strlen(it->names[m]);
				switch (v >> 3 & 3)
				{
					case 0:
						it->members[m] = j_int((int8_t) NEXT());
						break;
					case 1:
						it->members[m] = j_bool(NEXT() & 1);
						break;
					default:
						it->members[m] = j_str(strs[NEXT() % 16]);
						break;
				}
			}
		}
	}
#undef NEXT
	st = build_chain(&c, nitems, items, &err);
	check_error(st, &err, 0);
	if (st != COSID_OK)
		return;
	id &= sfl_mask(l.width);
	{
		sfl_parts	parts;

		if (sfl_unpack(&l, id, &parts) != SFL_OK)
			return;
	}
	st = cosid_encode(&c, &l, id, id_ms(&l, id), 86400000, out, &n, &err);
	check_error(st, &err, 0);
	if (st != COSID_OK)
		return;
	REQUIRE(n < COSID_OUT_MAX && strlen(out) <= n);
	st = cosid_decode(&c, &l, out, n, &d, &err);
	REQUIRE(st == COSID_OK);
	REQUIRE(id_of(&c, &l, &d, &back) && back == id);
	REQUIRE(cosid_check_dates(&c, out, &d, id_ms(&l, id), &err) == COSID_OK);
}

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	switch (data[0] % 4)
	{
		case 0:
			fuzz_chain(data + 1, size - 1);
			break;
		case 1:
			fuzz_cosid80((const char *) data + 1, size - 1);
			break;
		case 2:
			fuzz_friendly(data + 1, size - 1);
			break;
		case 3:
			fuzz_grammar(data + 1, size - 1);
			break;
	}
	return 0;
}
