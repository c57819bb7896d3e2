/*
 * Unit tests of CosId's codec chain and COSID_80 text (src/core/cosid.c):
 * the seed's example strings, against independent references (a plain
 * radix encoder, libc's gmtime_r/strftime for dates), round trips, and the
 * grammar's and the decoders' errors.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cosid_items.h"
#include "rng.h"
#include "unit.h"

static const char *ref62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
static const char *ref36 = "0123456789abcdefghijklmnopqrstuvwxyz";

#define DAY_MS		INT64_C(86400000)
#define SHANGHAI_MS	(INT64_C(8) * 3600000)
/* 2026-10-27T07:30:12.123Z (15:30:12.123 in Asia/Shanghai) */
#define SEED_MS		INT64_C(1793086212123)

static void
ref_encode(uint64_t v, int radix, int width, char *out)
{
	char		tmp[65];
	int			n = 0,
				o = 0;

	do
	{
		tmp[n++] = (radix <= 36 ? ref36 : ref62)[v % (uint64_t) radix];
		v /= (uint64_t) radix;
	} while (v);
	for (; o < width - n; o++)
		out[o] = '0';
	for (int i = 0; i < n; i++)
		out[o++] = tmp[n - 1 - i];
	out[o] = '\0';
}

/* reference text of a dated chain: strftime(fmt) of ms, between, base 36 of id, suffix */
static void
ref_dated(uint64_t id, int64_t ms, const char *fmt, const char *between,
		  const char *suffix, char *want, size_t n)
{
	time_t		t = (time_t) (ms / 1000);
	struct tm	tm;
	char		date[64],
				digits[70];

	gmtime_r(&t, &tm);
	strftime(date, sizeof(date), fmt, &tm);
	ref_encode(id, 36, 0, digits);
	snprintf(want, n, "%s%s%s%s", date, between, digits, suffix);
}

static sfl_layout
preset(sfl_preset p)
{
	sfl_layout	l;
	char		msg[SFL_MSG_MAX];

	if (sfl_preset_layout(p, sfl_preset_epoch(p), 8, &l, msg, sizeof(msg)) != SFL_OK)
		abort();
	return l;
}

static const char *
enc(cosid_codec *c, const sfl_layout *l, uint64_t id, int64_t id_local,
	int64_t now_local, cosid_status *st)
{
	static char out[COSID_OUT_MAX];
	size_t		len;
	cosid_error err;

	*st = cosid_encode(c, l, id, id_local, now_local, out, &len, &err);
	if (*st != COSID_OK)
		snprintf(out, sizeof(out), "%s", err.msg);
	return out;
}

/* decode and return the value (radix) or pack the friendly parts as UTC */
static cosid_status
dec(const cosid_codec *c, const sfl_layout *l, const char *s, uint64_t *v,
	cosid_error *err)
{
	cosid_decoded d;
	cosid_status st = cosid_decode(c, l, s, strlen(s), &d, err);

	if (st != COSID_OK)
		return st;
	*v = d.value;
	if (c->first == COSID_FIRST_FRIENDLY)
		*v = sfl_pack(l, d.local_ms - l->epoch_ms, d.node, d.seq);
	return COSID_OK;
}

static void
test_seed_examples(void)
{
	sfl_layout	l = preset(SFL_SNOWFLAKE_MS);
	cosid_codec c;
	cosid_error err;
	cosid_status st;
	uint64_t	v = 0;
	const char *s;
	int64_t		day = SEED_MS;	/* "now" for the examples: 2026-10-27 UTC */

	/* O261027qZ: base 62, a yyMMdd date prefix (NOW), the prefix O */
	{
		cosid_item items[3] = {
			item_obj("radix", "radix", j_int(62), NULL),
			item_obj("date_prefix", "pattern", j_str("yyMMdd"), "delimiter", j_str(""),
					 "source", j_str("now"), NULL),
			item_scalar("prefix", j_str("O")),
		};

		CHECK(build_chain(&c, 3, items, &err) == COSID_OK, "seed order codec builds: %s", err.msg);
		s = enc(&c, &l, 3259, 0, day, &st);
		CHECK(st == COSID_OK && strcmp(s, "O261027qZ") == 0, "seed: 3259 -> O261027qZ (got %s)", s);
		CHECK(dec(&c, &l, "O261027qZ", &v, &err) == COSID_OK && v == 3259,
			  "seed: O261027qZ decodes to 3259 (got %llu)", (unsigned long long) v);
		CHECK(build_chain(&c, 2, items, &err) == COSID_OK &&
			  strcmp(enc(&c, &l, 3259, 0, day, &st), "261027qZ") == 0,
			  "seed: the step before the prefix is 261027qZ");
		CHECK(build_chain(&c, 1, items, &err) == COSID_OK &&
			  strcmp(enc(&c, &l, 3259, 0, day, &st), "qZ") == 0, "seed: base 62 of 3259 is qZ");
	}
	/* 20261027153012123-0003-0017: friendly in Asia/Shanghai */
	{
		cosid_item items[1] = {item_obj("friendly", "zone", j_str("Asia/Shanghai"), NULL)};
		uint64_t	id = ((uint64_t) (SEED_MS - 1577203200000) << 22) | (3 << 12) | 17;
		cosid_decoded d;

		CHECK(id == UINT64_C(905478981279559697), "seed friendly id is 905478981279559697");
		CHECK(build_chain(&c, 1, items, &err) == COSID_OK, "friendly codec builds");
		s = enc(&c, &l, id, SEED_MS + SHANGHAI_MS, 0, &st);
		CHECK(st == COSID_OK && strcmp(s, "20261027153012123-0003-0017") == 0,
			  "seed: friendly in Asia/Shanghai is 20261027153012123-0003-0017 (got %s)", s);
		st = cosid_decode(&c, &l, s, strlen(s), &d, &err);
		CHECK(st == COSID_OK && d.local_ms == SEED_MS + SHANGHAI_MS && d.node == 3 && d.seq == 17,
			  "seed: the friendly text decodes to its local time, node 3, sequence 17");
	}
	/* 20261027-000042: GroupedCodec, a yyyyMMdd period then the value */
	{
		cosid_item items[2] = {
			item_obj("radix", "radix", j_int(10), "width", j_int(6), "pad", j_bool(true), NULL),
			item_obj("date_prefix", "pattern", j_str("yyyyMMdd"), "delimiter", j_str("-"),
					 "source", j_str("now"), NULL),
		};

		CHECK(build_chain(&c, 2, items, &err) == COSID_OK, "grouped codec builds");
		s = enc(&c, &l, 42, 0, day, &st);
		CHECK(st == COSID_OK && strcmp(s, "20261027-000042") == 0, "seed: 42 -> 20261027-000042 (got %s)", s);
		CHECK(dec(&c, &l, "20261027-000042", &v, &err) == COSID_OK && v == 42, "seed: 20261027-000042 -> 42");
	}
	/* Radix.of(62, 11, true): 4.x's Radix62IdConverter.PAD_START */
	{
		cosid_item items[1] = {item_obj("radix", "radix", j_int(62), "width", j_int(11),
										"pad", j_bool(true), NULL)};

		build_chain(&c, 1, items, &err);
		CHECK(strcmp(enc(&c, &l, 905478981279559697, 0, 0, &st), "14t6PEysfWT") == 0,
			  "Radix.of(62, 11, true) of the seed's friendly id is 14t6PEysfWT");
		CHECK(strcmp(enc(&c, &l, 3259, 0, 0, &st), "000000000qZ") == 0, "PAD_START pads qZ to 11");
	}
	/* COSID_80 */
	{
		char		out[COSID80_TEXT_LEN + 1];
		int64_t		ms;
		uint64_t	node,
					seq;

		cosid80_format(SEED_MS, 3, 17, out);
		CHECK(strcmp(out, "0VZEV0mp000300H") == 0, "COSID_80 of the seed time, node 3, seq 17 is 0VZEV0mp000300H (got %s)", out);
		CHECK(cosid80_parse(out, 15, &ms, &node, &seq, &err) == COSID_OK && ms == SEED_MS &&
			  node == 3 && seq == 17, "COSID_80 text parses back");
		cosid80_format(COSID80_MAX_MS, COSID80_MAX_NODE, COSID80_MAX_SEQ, out);
		CHECK(strcmp(out, "4ziepp2F4OmVH31") == 0, "COSID_80 largest is 4ziepp2F4OmVH31 (got %s)", out);
		CHECK(cosid80_parse("4ziepp2G4OmVH31", 15, &ms, &node, &seq, &err) == COSID_ERR_RANGE,
			  "COSID_80 time 2^44 is out of range");
		CHECK(cosid80_parse("4ziepp2F4OmWH31", 15, &ms, &node, &seq, &err) == COSID_ERR_RANGE,
			  "COSID_80 node 2^20 is out of range");
		CHECK(cosid80_parse("4ziepp2F4OmVH32", 15, &ms, &node, &seq, &err) == COSID_ERR_RANGE,
			  "COSID_80 sequence 2^16 is out of range");
		CHECK(cosid80_parse("0VZEV0mp000300-", 15, &ms, &node, &seq, &err) == COSID_ERR_SYNTAX &&
			  err.pos == 14, "COSID_80 bad character at offset 14");
		CHECK(cosid80_parse("0VZEV0mp000300", 14, &ms, &node, &seq, &err) == COSID_ERR_SYNTAX &&
			  err.pos == 14, "COSID_80 short text");
	}
}

/* random ids and radixes against the reference encoder, and back */
static void
test_radix_reference(void)
{
	sfl_layout	l = preset(SFL_DISCORD);
	int			bad = 0,
				back = 0;

	for (int i = 0; i < 20000; i++)
	{
		int			radix = 2 + (int) (test_rng() % 61);
		uint64_t	id = test_rng_any();
		int			width = (int) (test_rng() % 3 == 0 ? 64 : 0);
		cosid_item	items[1];
		cosid_codec c;
		cosid_error err;
		cosid_status st;
		char		want[70];
		uint64_t	v;
		const char *s;

		if (width)
			items[0] = item_obj("radix", "radix", j_int(radix), "width", j_int(width), "pad", j_bool(true), NULL);
		else
			items[0] = item_obj("radix", "radix", j_int(radix), NULL);
		build_chain(&c, 1, items, &err);
		ref_encode(id, radix, width, want);
		s = enc(&c, &l, id, 0, 0, &st);
		bad += st != COSID_OK || strcmp(s, want) != 0;
		back += dec(&c, &l, want, &v, &err) != COSID_OK || v != id;
	}
	CHECK(bad == 0, "20000 radix encodes agree with the reference (%d differ)", bad);
	CHECK(back == 0, "and decode back (%d fail)", back);
}

/* dates against gmtime_r + strftime */
static void
test_dates_reference(void)
{
	sfl_layout	l = preset(SFL_SNOWFLAKE_MS);
	cosid_item	items[3] = {
		item_obj("radix", "radix", j_int(36), NULL),
		item_obj("date_prefix", "pattern", j_str("yyyy-MM-dd HH:mm:ss"), "delimiter", j_str("/"),
				 "source", j_str("id_time"), NULL),
		item_scalar("suffix", j_str(".x")),
	};
	cosid_codec c;
	cosid_error err;
	int			bad = 0,
				back = 0;

	CHECK(build_chain(&c, 3, items, &err) == COSID_OK, "date chain builds");
	for (int i = 0; i < 5000; i++)
	{
		uint64_t	id = test_rng() >> 1;
		int64_t		ms = (int64_t) (id >> 22) + l.epoch_ms;
		char		want[200];
		cosid_status st;
		const char *s;
		cosid_decoded d;

		ref_dated(id, ms, "%Y-%m-%d %H:%M:%S", "/", ".x", want, sizeof(want));
		s = enc(&c, &l, id, ms, 0, &st);
		bad += st != COSID_OK || strcmp(s, want) != 0;
		st = cosid_decode(&c, &l, want, strlen(want), &d, &err);
		back += st != COSID_OK || d.value != id ||
			cosid_check_dates(&c, want, &d, ms, &err) != COSID_OK;
	}
	/* ids a few hours apart, in order: the memo of the last date is renewed at each day */
	{
		cosid_item	day_items[2] = {
			item_obj("radix", "radix", j_int(36), NULL),
			item_obj("date_prefix", "pattern", j_str("yyMMdd"), "source", j_str("id_time"), NULL),
		};

		CHECK(build_chain(&c, 2, day_items, &err) == COSID_OK, "day chain builds");
	}
	for (int i = 0; i < 3000; i++)
	{
		int64_t		ms = SEED_MS + (int64_t) i * 7 * 3600000 / 3 - 40 * DAY_MS;
		uint64_t	id = (uint64_t) (ms - l.epoch_ms) << 22;
		char		want[200];
		cosid_status st;

		ref_dated(id, ms, "%y%m%d", "", "", want, sizeof(want));
		bad += strcmp(enc(&c, &l, id, ms, 0, &st), want) != 0;
	}
	CHECK(bad == 0, "5000 random and 3000 consecutive id_time date prefixes agree with strftime (%d differ)", bad);
	CHECK(back == 0, "and decode back with their own date (%d fail)", back);
	CHECK(build_chain(&c, 3, items, &err) == COSID_OK, "date chain builds again");
	{
		const char *s = "2026-10-27 07:30:12/abc.x";
		cosid_decoded d;

		CHECK(cosid_decode(&c, &l, s, strlen(s), &d, &err) == COSID_OK &&
			  cosid_check_dates(&c, s, &d, SEED_MS + DAY_MS, &err) == COSID_ERR_SYNTAX && err.pos == 0 &&
			  strstr(err.msg, "2026-10-28 07:30:12") != NULL,
			  "an id_time date that is not the id's date is refused: %s", err.msg);
	}
}

/* friendly forms of every preset round-trip; unpadded too */
static void
test_friendly(void)
{
	int			bad = 0;

	for (int p = SFL_TWITTER; p < SFL_NUM_PRESETS; p++)
		for (int pad = 0; pad <= 1; pad++)
		{
			sfl_layout	l = preset((sfl_preset) p);
			cosid_item	items[1] = {item_obj("friendly", "zone", j_str("UTC"), "pad", j_bool(pad), NULL)};
			cosid_codec c;
			cosid_error err;

			build_chain(&c, 1, items, &err);
			for (int i = 0; i < 500; i++)
			{
				sfl_parts	parts;
				uint64_t	id = test_rng() & sfl_mask(l.width);
				int64_t		local;
				cosid_status st;
				char		s[COSID_OUT_MAX];
				cosid_decoded d;

				if (sfl_unpack(&l, id, &parts) != SFL_OK)
					continue;
				local = sfl_tick_unix_ms(&l, parts.tick);
				strcpy(s, enc(&c, &l, id, local, 0, &st));
				if (st != COSID_OK)
					continue;	/* past year 9999 */
				st = cosid_decode(&c, &l, s, strlen(s), &d, &err);
				bad += st != COSID_OK || d.local_ms != local || d.node != parts.node || d.seq != parts.seq;
			}
		}
	CHECK(bad == 0, "friendly texts of every preset, padded and not, decode back (%d fail)", bad);

	/* a 20-digit node past 2^64 - 1 (fuzz_cosid's finding): a range error, not a wrapped value */
	{
		static const char s[] = "20261027153024246-60061027152423012123-7";
		int64_t		local;
		uint64_t	node,
					seq;
		cosid_error err;

		CHECK(cosid_friendly_parse(s, strlen(s), 20, 6, false, UINT64_MAX, 999999,
								   &local, &node, &seq, &err) == COSID_ERR_RANGE,
			  "a friendly node of 20 digits above 2^64 - 1 is out of range");
	}
}

static cosid_status
one(cosid_item it, cosid_error *err)
{
	cosid_codec c;

	return build_chain(&c, 1, &it, err);
}

static void
test_grammar_errors(void)
{
	cosid_error err;
	cosid_codec c;
	cosid_item	two[2] = {item_scalar("prefix", j_str("O")), item_obj("radix", "radix", j_int(62), NULL)};

	CHECK(one(item_obj("radix", "radix", j_int(63), NULL), &err) == COSID_ERR_CODEC &&
		  strstr(err.msg, "codec[0] (\"radix\")") && strstr(err.msg, "2 to 62"), "radix 63: %s", err.msg);
	CHECK(one(item_obj("radix", NULL), &err) == COSID_ERR_CODEC && strstr(err.msg, "\"radix\" is missing"),
		  "radix missing: %s", err.msg);
	CHECK(one(item_obj("radix", "radix", j_int(62), "pad", j_bool(true), NULL), &err) == COSID_ERR_CODEC &&
		  strstr(err.msg, "needs a \"width\""), "pad without width: %s", err.msg);
	CHECK(one(item_obj("radix", "radix", j_str("62"), NULL), &err) == COSID_ERR_CODEC,
		  "radix as a string: %s", err.msg);
	CHECK(one(item_obj("radix", "base", j_int(62), NULL), &err) == COSID_ERR_CODEC &&
		  strstr(err.msg, "unknown member \"base\""), "unknown member: %s", err.msg);
	CHECK(one(item_obj("friendly", NULL), &err) == COSID_ERR_CODEC && strstr(err.msg, "zone"),
		  "friendly without zone: %s", err.msg);
	CHECK(one(item_scalar("radix", j_int(62)), &err) == COSID_ERR_CODEC && strstr(err.msg, "an object"),
		  "radix: 62 (not an object): %s", err.msg);
	CHECK(one(item_scalar("prefix", j_str("")), &err) == COSID_ERR_CODEC, "empty prefix: %s", err.msg);
	CHECK(one(item_scalar("prefix", j_int(1)), &err) == COSID_ERR_CODEC && strstr(err.msg, "a number"),
		  "numeric prefix: %s", err.msg);
	CHECK(one(item_scalar("uuid", j_int(1)), &err) == COSID_ERR_CODEC && strstr(err.msg, "unknown item \"uuid\""),
		  "unknown item: %s", err.msg);
	CHECK(build_chain(&c, 2, two, &err) == COSID_ERR_CODEC && strstr(err.msg, "codec[1] (\"radix\")") &&
		  strstr(err.msg, "comes first"), "radix second: %s", err.msg);
	CHECK(one(item_obj("date_prefix", "pattern", j_str("yyyMMdd"), "source", j_str("now"), NULL), &err) ==
		  COSID_ERR_CODEC && strstr(err.msg, "\"yyy\""), "pattern yyy: %s", err.msg);
	CHECK(one(item_obj("date_prefix", "pattern", j_str("--"), "source", j_str("now"), NULL), &err) ==
		  COSID_ERR_CODEC && strstr(err.msg, "no date field"), "pattern without field: %s", err.msg);
	CHECK(one(item_obj("date_prefix", "pattern", j_str("yyMMdd"), NULL), &err) == COSID_ERR_CODEC &&
		  strstr(err.msg, "\"source\" is missing"), "date without source: %s", err.msg);
	CHECK(one(item_obj("date_prefix", "pattern", j_str("yyMMdd"), "source", j_str("NOW"), NULL), &err) ==
		  COSID_ERR_CODEC && strstr(err.msg, "\"NOW\""), "source NOW: %s", err.msg);
	{
		cosid_item	it = item_scalar("prefix", j_str("O"));

		it.nkeys = 2;
		CHECK(one(it, &err) == COSID_ERR_CODEC && strstr(err.msg, "one key"), "two keys: %s", err.msg);
	}
}

static void
test_decode_errors(void)
{
	sfl_layout	l = preset(SFL_SNOWFLAKE_MS);
	cosid_item	items[3] = {
		item_obj("radix", "radix", j_int(36), NULL),
		item_obj("date_prefix", "pattern", j_str("yyMMdd"), "delimiter", j_str("-"), "source", j_str("now"), NULL),
		item_scalar("prefix", j_str("ord_")),
	};
	cosid_codec c;
	cosid_error err;
	uint64_t	v;

	build_chain(&c, 3, items, &err);
	CHECK(dec(&c, &l, "ord_261027-zz", &v, &err) == COSID_OK && v == 36 * 36 - 1, "ord_261027-zz is 1295");
	CHECK(dec(&c, &l, "orx_261027-zz", &v, &err) == COSID_ERR_SYNTAX && err.pos == 2, "wrong prefix at offset 2");
	CHECK(dec(&c, &l, "ord_261327-zz", &v, &err) == COSID_ERR_SYNTAX && err.pos == 6 && strstr(err.msg, "MM"),
		  "month 13 at offset 6: %s", err.msg);
	CHECK(dec(&c, &l, "ord_26102x-zz", &v, &err) == COSID_ERR_SYNTAX && err.pos == 9, "letter in the date");
	CHECK(dec(&c, &l, "ord_261027+zz", &v, &err) == COSID_ERR_SYNTAX && err.pos == 10, "wrong delimiter");
	CHECK(dec(&c, &l, "ord_261027-", &v, &err) == COSID_ERR_SYNTAX && err.pos == 11, "no digits");
	CHECK(dec(&c, &l, "ord_261027-0zz", &v, &err) == COSID_ERR_SYNTAX && err.pos == 11, "leading zero");
	CHECK(dec(&c, &l, "ord_261027-Zz", &v, &err) == COSID_ERR_SYNTAX && err.pos == 11, "uppercase in base 36");
	CHECK(dec(&c, &l, "ord_2610", &v, &err) == COSID_ERR_SYNTAX && err.pos == 4, "too short for the date");
	CHECK(dec(&c, &l, "ord_261027-3w5e11264sgsg", &v, &err) == COSID_ERR_RANGE, "2^64 is out of range");
	CHECK(dec(&c, &l, "ord_261027-3w5e11264sgsf", &v, &err) == COSID_OK && v == UINT64_MAX, "2^64 - 1 decodes");
	{
		cosid_item	f[2] = {item_obj("friendly", "zone", j_str("UTC"), NULL), item_scalar("suffix", j_str("!"))};

		build_chain(&c, 2, f, &err);
		CHECK(dec(&c, &l, "20261027153012123-0003-0017", &v, &err) == COSID_ERR_SYNTAX && err.pos == 26,
			  "missing suffix at the end");
		CHECK(dec(&c, &l, "20261027153012123-1024-0017!", &v, &err) == COSID_ERR_RANGE &&
			  strstr(err.msg, "1023"), "node 1024: %s", err.msg);
		CHECK(dec(&c, &l, "20261027153012123-0003-017!", &v, &err) == COSID_ERR_SYNTAX && err.pos == 23,
			  "3-digit padded sequence");
		CHECK(dec(&c, &l, "20261327153012123-0003-0017!", &v, &err) == COSID_ERR_SYNTAX && err.pos == 0,
			  "month 13 in a friendly id");
		CHECK(dec(&c, &l, "2026102715301212-0003-0017!", &v, &err) == COSID_ERR_SYNTAX && err.pos == 16,
			  "16 time digits");
	}
	{
		cosid_item	r[1] = {item_obj("radix", "radix", j_int(62), "width", j_int(3), NULL)};

		build_chain(&c, 1, r, &err);
		CHECK(dec(&c, &l, "zzzz", &v, &err) == COSID_ERR_RANGE, "more digits than width is out of range");
		{
			cosid_status st;

			enc(&c, &l, 62 * 62 * 62, 0, 0, &st);
			CHECK(st == COSID_ERR_RANGE, "encoding 62^3 in width 3 is out of range");
		}
	}
}

int
main(void)
{
	test_seed_examples();
	test_radix_reference();
	test_dates_reference();
	test_friendly();
	test_grammar_errors();
	test_decode_errors();
	return unit_done();
}
