/*
 * Unit tests of the Snowflake layout core (src/core/layout*.c, sfcodec.c):
 * presets, the text form, every validation rule, packing and unpacking with
 * public known answers, the generator's rules, the serialized form, the
 * JSON fields list, and the friendly and SCRU64 codecs.
 */
#include <stdint.h>
#include <stdlib.h>

#include "layout.h"
#include "sfcodec.h"
#include "unit.h"

static char msg[SFL_MSG_MAX];
static char text[SFL_TEXT_MAX];

static sfl_status
parse(const char *s, sfl_layout *l)
{
	msg[0] = '\0';
	return sfl_parse(s, strlen(s), l, msg, sizeof(msg));
}

/* s parses, and its canonical text is want */
static void
check_text(const char *s, const char *want)
{
	sfl_layout	l,
				l2;
	sfl_status	st = parse(s, &l);

	if (st != SFL_OK)
	{
		CHECK(0, "%s parses (%s)", s, msg);
		return;
	}
	sfl_format(&l, text);
	CHECK(strcmp(text, want) == 0, "%s prints as %s (got %s)", s, want, text);
	CHECK(parse(text, &l2) == SFL_OK && sfl_equal(&l, &l2),
		  "%s: its text parses back to the same layout", s);
}

static void
check_diagram(const char *s, const char *want)
{
	sfl_layout	l;

	if (parse(s, &l) != SFL_OK)
	{
		CHECK(0, "%s parses (%s)", s, msg);
		return;
	}
	sfl_diagram(&l, text);
	CHECK(strcmp(text, want) == 0, "diagram of %s", s);
	if (strcmp(text, want) != 0)
		printf("# want:\n%s\n# got:\n%s\n", want, text);
}

/* s fails with status st and a message containing part */
static void
check_error(const char *s, sfl_status st, const char *part)
{
	sfl_layout	l;
	sfl_status	got = parse(s, &l);

	CHECK(got == st && strstr(msg, part) != NULL,
		  "%s fails (status %d, want %d): %s", s, got, st, msg);
}

static sfl_layout
must(const char *s)
{
	sfl_layout	l;

	if (parse(s, &l) != SFL_OK)
	{
		printf("not ok - %s does not parse: %s\n", s, msg);
		exit(1);
	}
	return l;
}

static void
test_presets(void)
{
	check_text("twitter", "twitter");
	check_text("discord", "discord");
	check_text("instagram", "instagram");
	check_text("snowflake_ms", "snowflake_ms");
	check_text("snowflake_s", "snowflake_s");
	check_text("js_safe_ms", "js_safe_ms");
	check_text("js_safe_s", "js_safe_s");
	check_text("sonyflake(epoch=2014-09-01T00:00:00.000Z)",
			   "sonyflake(epoch=2014-09-01T00:00:00.000Z)");
	check_text("sonyflake(epoch=1409529600000)",
			   "sonyflake(epoch=2014-09-01T00:00:00.000Z)");
	check_text("scru64(node_bits=8)", "scru64(node_bits=8)");
	check_text("scru64(node_bits=1)", "scru64(node_bits=1)");
	check_text("scru64(node_bits=23)", "scru64(node_bits=23)");
	check_text("snowflake_ms(epoch=1577203200000)", "snowflake_ms");
	check_text("snowflake_ms(epoch=2024-01-01T00:00:00Z)",
			   "snowflake_ms(epoch=2024-01-01T00:00:00.000Z)");
	check_text("js_safe_s(epoch=2024-01-01T00:00:00.000Z)",
			   "js_safe_s(epoch=2024-01-01T00:00:00.000Z)");
	check_text("  twitter ( ) ", "twitter");
	check_text("sonyflake( epoch = 2014-09-01T00:00:00.5Z )",
			   "sonyflake(epoch=2014-09-01T00:00:00.500Z)");

	/* custom definitions equal to a preset are that preset */
	check_text("custom(time=41:ms:1288834974657, fields=datacenter:5+worker:5, sequence=12)",
			   "twitter");
	check_text("custom(time=42:ms:2015-01-01T00:00:00.000Z, fields=worker:5+process:5, sequence=12, sign=false)",
			   "discord");
	check_text("custom(time=39:256ms:0, fields=node:8, sequence=16, sequence_reset=random)",
			   "scru64(node_bits=8)");
	check_text("custom(time=39:10ms:2014-09-01T00:00:00Z, fields=machine:16, sequence=8, sequence_above_node=true)",
			   "sonyflake(epoch=2014-09-01T00:00:00.000Z)");
	check_text("custom(time=41:ms:2019-12-24T16:00:00.000Z, fields=node:3, sequence=9, sequence_reset=carry)",
			   "js_safe_ms");
	/* ... and one bit of difference makes them custom */
	check_text("custom(time=41:ms:1288834974657, fields=datacenter:5+worker:5, sequence=12, sequence_reset=carry)",
			   "custom(time=41:ms:2010-11-04T01:42:54.657Z, fields=datacenter:5+worker:5, sequence=12, sign=true, sequence_above_node=false, sequence_reset=carry)");
	check_text("custom(time=39:256ms:0, fields=n:8, sequence=16, sequence_reset=random)",
			   "custom(time=39:256ms:1970-01-01T00:00:00.000Z, fields=n:8, sequence=16, sign=true, sequence_above_node=false, sequence_reset=random)");
	check_error("custom(time=39:256ms:0, fields=node:8, sequence=16)", SFL_ERR_RULE,
				"The field name \"node\" is reserved");
	check_text("custom(sequence=22, time=41:ms:0)",
			   "custom(time=41:ms:1970-01-01T00:00:00.000Z, sequence=22, sign=true, sequence_above_node=false, sequence_reset=zero)");
	check_text("custom(time=41:ms:2019-12-24T16:00:00.000Z, fields=worker:10, sequence=12, sign=true, sequence_above_node=false, sequence_reset=zero)",
			   "custom(time=41:ms:2019-12-24T16:00:00.000Z, fields=worker:10, sequence=12, sign=true, sequence_above_node=false, sequence_reset=zero)");
	check_text("custom(time=20:s:0,fields=a:1+b_2:2+c3:3,sequence=1,sign=false,sequence_above_node=true,sequence_reset=random)",
			   "custom(time=20:s:1970-01-01T00:00:00.000Z, fields=a:1+b_2:2+c3:3, sequence=1, sign=false, sequence_above_node=true, sequence_reset=random)");
}

static void
test_diagrams(void)
{
	check_diagram("twitter",
				  "| sign 1 | time 41 | datacenter 5 | worker 5 | sequence 12 |\n"
				  "time: ms units from 2010-11-04T01:42:54.657Z");
	check_diagram("discord",
				  "| time 42 | worker 5 | process 5 | sequence 12 |\n"
				  "time: ms units from 2015-01-01T00:00:00.000Z");
	check_diagram("instagram",
				  "| time 41 | shard 13 | sequence 10 |\n"
				  "time: ms units from 2011-08-24T21:07:01.721Z");
	check_diagram("sonyflake(epoch=2014-09-01T00:00:00.000Z)",
				  "| sign 1 | time 39 | sequence 8 | machine 16 |\n"
				  "time: 10ms units from 2014-09-01T00:00:00.000Z");
	check_diagram("scru64(node_bits=8)",
				  "| sign 1 | time 39 | node 8 | sequence 16 |\n"
				  "time: 256ms units from 1970-01-01T00:00:00.000Z");
	check_diagram("snowflake_ms",
				  "| sign 1 | time 41 | node 10 | sequence 12 |\n"
				  "time: ms units from 2019-12-24T16:00:00.000Z");
	check_diagram("snowflake_s",
				  "| sign 1 | time 31 | node 10 | sequence 22 |\n"
				  "time: s units from 2019-12-24T16:00:00.000Z");
	check_diagram("js_safe_ms",
				  "| sign 1 | unused 10 | time 41 | node 3 | sequence 9 |\n"
				  "time: ms units from 2019-12-24T16:00:00.000Z");
	check_diagram("js_safe_s",
				  "| sign 1 | unused 10 | time 31 | node 3 | sequence 19 |\n"
				  "time: s units from 2019-12-24T16:00:00.000Z");
	check_diagram("custom(time=41:ms:0, fields=worker:10, sequence=12)",
				  "| sign 1 | time 41 | worker 10 | sequence 12 |\n"
				  "time: ms units from 1970-01-01T00:00:00.000Z");
	check_diagram("custom(time=40:ms:0, sequence=20, sign=false)",
				  "| unused 4 | time 40 | sequence 20 |\n"
				  "time: ms units from 1970-01-01T00:00:00.000Z");
}

static void
test_rules(void)
{
	/* every rule of SPEC.md section 3, each with its message */
	check_error("custom(time=41:us:0, sequence=12)", SFL_ERR_RULE,
				"The time unit \"us\" is not one of ms, 10ms, 256ms, s.");
	check_error("custom(time=0:ms:0, sequence=12)", SFL_ERR_RULE,
				"The time field has 0 bits; it must have 1 to 53.");
	check_error("custom(time=54:ms:0, sequence=1)", SFL_ERR_RULE,
				"The time field has 54 bits; it must have 1 to 53.");
	check_error("custom(time=41:ms:0, sequence=0)", SFL_ERR_RULE,
				"The sequence has 0 bits; it must have 1 to 31.");
	check_error("custom(time=20:ms:0, sequence=32)", SFL_ERR_RULE,
				"The sequence has 32 bits; it must have 1 to 31.");
	check_error("custom(time=1:ms:0, fields=a:0, sequence=1)", SFL_ERR_RULE,
				"The node field \"a\" has 0 bits; each node field must have 1 to 53.");
	check_error("custom(time=1:ms:0, fields=a:54, sequence=1, sign=false)", SFL_ERR_RULE,
				"The node field \"a\" has 54 bits; each node field must have 1 to 53.");
	check_error("custom(time=1:ms:0, fields=a:30+b:24, sequence=1, sign=false)", SFL_ERR_RULE,
				"The node fields have 54 bits together; they may have at most 53.");
	check_error("custom(time=41:ms:0, fields=node_id:10, sequence=13)", SFL_ERR_RULE,
				"Time, node fields and sequence have 64 bits together; with the sign bit they may have at most 63.");
	check_error("custom(time=42:ms:0, fields=node_id:10, sequence=13, sign=false)", SFL_ERR_RULE,
				"Time, node fields and sequence have 65 bits together; they may have at most 64.");
	check_error("custom(time=31:s:1577203200500, sequence=12)", SFL_ERR_RULE,
				"The epoch 2019-12-24T16:00:00.500Z is not a whole second, as a layout in s units needs.");
	check_error("custom(time=41:ms:0, fields=Worker:10, sequence=12)", SFL_ERR_RULE,
				"The field name \"Worker\" does not match [a-z][a-z0-9_]{0,62}.");
	check_error("custom(time=41:ms:0, fields=9lives:10, sequence=12)", SFL_ERR_RULE,
				"does not match");
	check_error("custom(time=41:ms:0, fields=_x:10, sequence=12)", SFL_ERR_RULE,
				"does not match");
	check_error("custom(time=41:ms:0, fields=w\xc3\xb6rker:10, sequence=12)", SFL_ERR_RULE,
				"The field name \"w\xc3\xb6rker\" does not match");
	check_error("custom(time=1:ms:0, fields=a234567890123456789012345678901234567890123456789012345678901234:1, sequence=1)",
				SFL_ERR_RULE, "does not match [a-z][a-z0-9_]{0,62}");
	check_error("custom(time=41:ms:0, fields=a:5+a:5, sequence=12)", SFL_ERR_RULE,
				"The field name \"a\" appears twice; field names must be unique.");
	check_error("custom(time=41:ms:0, fields=sign:5, sequence=12)", SFL_ERR_RULE,
				"The field name \"sign\" is reserved");
	check_error("custom(time=41:ms:0, fields=time:5, sequence=12)", SFL_ERR_RULE, "reserved");
	check_error("custom(time=41:ms:0, fields=unix_ms:5, sequence=12)", SFL_ERR_RULE, "reserved");
	check_error("custom(time=41:ms:0, fields=sequence:5, sequence=12)", SFL_ERR_RULE, "reserved");
	check_error("custom(time=41:ms:0, fields=node:5, sequence=12)", SFL_ERR_RULE,
				"The field name \"node\" is reserved");
	check_error("custom(time=41:ms:0, fields=node:5+b:5, sequence=12)", SFL_ERR_RULE,
				"The field name \"node\" is reserved");
	check_error("custom(time=41:ms:0, fields=unused:5, sequence=12)", SFL_ERR_RULE, "reserved");
	check_error("custom(time=41:ms:0, sequence=12, sequence_reset=sometimes)", SFL_ERR_RULE,
				"sequence_reset \"sometimes\" is not one of zero, random, carry.");
	check_error("custom(time=41:ms:253402300800000, sequence=12)", SFL_ERR_RULE,
				"The epoch is 253402300800000 Unix ms; it must be from 0");
	/* the limits themselves are fine */
	must("custom(time=53:ms:0, fields=a:1, sequence=9)");
	must("custom(time=1:ms:0, fields=a:53, sequence=9, sign=false)");
	must("custom(time=32:ms:0, sequence=31)");
	must("custom(time=42:ms:0, fields=a:10, sequence=12, sign=false)");
	must("custom(time=41:ms:9999-12-31T23:59:59.999Z, sequence=12)");
	must("custom(time=41:ms:0, fields=a23456789012345678901234567890123456789012345678901234567890123:1, sequence=12)");

	/* preset parameters */
	check_error("sonyflake", SFL_ERR_RULE, "The preset sonyflake needs an epoch");
	check_error("scru64", SFL_ERR_RULE, "The preset scru64 needs node_bits (1 to 23)");
	check_error("scru64(node_bits=0)", SFL_ERR_RULE, "node_bits is 0; scru64's node id has 1 to 23 bits.");
	check_error("scru64(node_bits=24)", SFL_ERR_RULE, "node_bits is 24");
	check_error("twitter(epoch=0)", SFL_ERR_RULE,
				"The preset twitter has a fixed epoch (2010-11-04T01:42:54.657Z); it takes no epoch parameter.");
	check_error("discord(epoch=0)", SFL_ERR_RULE, "fixed epoch");
	check_error("instagram(epoch=0)", SFL_ERR_RULE, "fixed epoch");
	check_error("scru64(node_bits=8, epoch=0)", SFL_ERR_RULE, "fixed epoch");
	check_error("twitter(node_bits=3)", SFL_ERR_RULE,
				"The preset twitter takes no node_bits parameter; node_bits applies to scru64 only.");
	check_error("twitter(sequence=3)", SFL_ERR_RULE,
				"The preset twitter takes no sequence parameter; custom(...) defines other layouts.");
	check_error("snowflake_s(epoch=1577203200001)", SFL_ERR_RULE, "not a whole second");
	check_error("Twitter", SFL_ERR_RULE, "\"Twitter\" is not a preset layout; the presets are twitter");
	check_error("custom(time=41:ms:0, sequence=12, epoch=0)", SFL_ERR_RULE,
				"custom(...) takes no epoch parameter");
	check_error("custom(time=41:ms:0, sequence=12, node_bits=3)", SFL_ERR_RULE,
				"node_bits applies to scru64 only");
	check_error("custom(sequence=12)", SFL_ERR_RULE, "custom(...) needs time=BITS:UNIT:EPOCH.");
	check_error("custom(time=41:ms:0)", SFL_ERR_RULE, "custom(...) needs sequence=BITS.");
	check_error("custom", SFL_ERR_RULE, "custom(...) needs time=");
}

static void
test_syntax(void)
{
	check_error("", SFL_ERR_SYNTAX, "Expected a layout name (such as twitter) or custom(...), found the end.");
	check_error("   ", SFL_ERR_SYNTAX, "found the end");
	check_error("(", SFL_ERR_SYNTAX, "found \"(\"");
	check_error("twitter x", SFL_ERR_SYNTAX, "Unexpected \"x\" after the layout.");
	check_error("twitter(", SFL_ERR_SYNTAX, "Expected a parameter name, found the end.");
	check_error("twitter)", SFL_ERR_SYNTAX, "Unexpected \")\"");
	check_error("sonyflake(epoch 0)", SFL_ERR_SYNTAX, "Expected \"=\" after a parameter name, found \"0\".");
	check_error("sonyflake(epoch=0", SFL_ERR_SYNTAX, "Expected \",\" or \")\" after a parameter, found the end.");
	check_error("sonyflake(epoch=0,)", SFL_ERR_SYNTAX, "Expected a parameter name, found \")\".");
	check_error("sonyflake(epoch=0, epoch=1)", SFL_ERR_SYNTAX, "The parameter epoch is given twice.");
	check_error("sonyflake(epoch=yesterday)", SFL_ERR_SYNTAX, "\"yesterday\" is not an epoch");
	check_error("sonyflake(epoch=2014-09-01)", SFL_ERR_SYNTAX, "is not an epoch");
	check_error("sonyflake(epoch=2014-09-01T00:00:00)", SFL_ERR_SYNTAX, "is not an epoch");
	check_error("sonyflake(epoch=2014-09-01T00:00:00+00:00)", SFL_ERR_SYNTAX, "is not an epoch");
	check_error("sonyflake(epoch=2014-09-01T00:00:00.0001Z)", SFL_ERR_SYNTAX, "is not an epoch");
	check_error("sonyflake(epoch=2014-02-30T00:00:00Z)", SFL_ERR_SYNTAX, "is not an epoch");
	check_error("sonyflake(epoch=2014-09-01T24:00:00Z)", SFL_ERR_SYNTAX, "is not an epoch");
	check_error("sonyflake(epoch=-1)", SFL_ERR_SYNTAX, "is not an epoch");
	check_error("sonyflake(epoch=1234567890123456789)", SFL_ERR_SYNTAX, "The epoch has 19 digits");
	check_error("scru64(node_bits=eight)", SFL_ERR_SYNTAX, "Expected a number for node_bits, found \"eight\".");
	check_error("scru64(node_bits=-1)", SFL_ERR_SYNTAX, "Expected a number for node_bits");
	check_error("scru64(nodebits=8)", SFL_ERR_SYNTAX, "\"nodebits\" is not a layout parameter");
	check_error("custom(time=41ms:0, sequence=12)", SFL_ERR_SYNTAX, "Expected a number for the time bits, found \"41ms\".");
	check_error("custom(time=41:ms, sequence=12)", SFL_ERR_SYNTAX, "Expected \":\" after the time unit");
	check_error("custom(time=41, sequence=12)", SFL_ERR_SYNTAX, "Expected \":\" after the time bits");
	check_error("custom(time=41:ms:0, fields=, sequence=12)", SFL_ERR_SYNTAX, "Expected a field name");
	check_error("custom(time=41:ms:0, fields=a, sequence=12)", SFL_ERR_SYNTAX, "Expected \":\" after a field name");
	check_error("custom(time=41:ms:0, fields=a:5+, sequence=12)", SFL_ERR_SYNTAX, "Expected a field name");
	check_error("custom(time=41:ms:0, sequence=12, sign=yes)", SFL_ERR_SYNTAX, "Expected true or false for sign, found \"yes\".");
	check_error("custom(time=41:ms:0, sequence=12, sequence_reset=)", SFL_ERR_SYNTAX, "Expected zero, random or carry");
	check_error("custom(time=41:ms:0, sequence=99999999999999999999)", SFL_ERR_SYNTAX, "has 20 digits");
}

static void
test_known_answers(void)
{
	sfl_layout	tw = must("twitter"),
				dc = must("discord"),
				ig = must("instagram"),
				sf = must("sonyflake(epoch=2014-09-01T00:00:00.000Z)");
	sfl_parts	p;
	uint64_t	id;

	/*
	 * Discord's API reference: 175928847299117063 is
	 * 2016-04-30T11:18:25.796Z, worker 1, process 0, increment 7.
	 */
	CHECK(sfl_unpack(&dc, UINT64_C(175928847299117063), &p) == SFL_OK &&
		  sfl_tick_unix_ms(&dc, p.tick) == INT64_C(1462015105796) &&
		  sfl_field_of_node(&dc, 0, p.node) == 1 &&
		  sfl_field_of_node(&dc, 1, p.node) == 0 && p.seq == 7,
		  "discord 175928847299117063: 1462015105796 ms, worker 1, process 0, increment 7");

	/*
	 * Wikipedia, "Snowflake ID": tweet 1541815603606036480 by @Wikipedia
	 * was made at 1656432460105 ms (2022-06-28 16:07:40.105 UTC), machine
	 * id 378 (datacenter 11, worker 26), sequence 0.
	 */
	CHECK(sfl_unpack(&tw, UINT64_C(1541815603606036480), &p) == SFL_OK &&
		  sfl_tick_unix_ms(&tw, p.tick) == INT64_C(1656432460105) &&
		  p.node == 378 && sfl_field_of_node(&tw, 0, p.node) == 11 &&
		  sfl_field_of_node(&tw, 1, p.node) == 26 && p.seq == 0,
		  "twitter 1541815603606036480: 1656432460105 ms, datacenter 11, worker 26");

	/* twitter-archive/snowflake IdWorkerSpec's masks */
	CHECK(sfl_unpack(&tw, UINT64_C(0x3E0000), &p) == SFL_OK &&
		  sfl_field_of_node(&tw, 0, p.node) == 0x1F && sfl_field_of_node(&tw, 1, p.node) == 0,
		  "twitter datacenterMask 0x3E0000 is datacenter 31");
	CHECK(sfl_unpack(&tw, UINT64_C(0x1F000), &p) == SFL_OK &&
		  sfl_field_of_node(&tw, 1, p.node) == 0x1F && sfl_field_of_node(&tw, 0, p.node) == 0,
		  "twitter workerMask 0x1F000 is worker 31");

	/*
	 * Instagram Engineering, "Sharding & IDs at Instagram": 1387263000 ms
	 * since the epoch, shard 1341, sequence 5001 % 1024 = 905.
	 */
	id = sfl_pack(&ig, INT64_C(1387263000), 1341, 905);
	CHECK(id == (UINT64_C(1387263000) << 23 | 1341 << 10 | 905),
		  "instagram blog example packs to 1387263000 << 23 | 1341 << 10 | 905");
	CHECK(sfl_unpack(&ig, id, &p) == SFL_OK && p.tick == 1387263000 && p.node == 1341 && p.seq == 905,
		  "instagram blog example unpacks");

	/*
	 * sony/sonyflake's toID: elapsed << 24 | sequence << 16 | machine; its
	 * tests hold no fixed ids, so this checks the order of the fields.
	 */
	id = sfl_pack(&sf, 5, 0xABCD, 3);
	CHECK(id == (UINT64_C(5) << 24 | 3 << 16 | 0xABCD),
		  "sonyflake packs elapsed << 24 | sequence << 16 | machine");
	CHECK(sfl_last_unix_ms(&sf) == INT64_C(1409529600000) + ((INT64_C(1) << 39) * 10) - 1,
		  "sonyflake's 174 years end 2^39 ticks of 10 ms after its epoch");

	/* ids outside the layout */
	CHECK(sfl_unpack(&tw, UINT64_C(1) << 63, &p) == SFL_ERR_RANGE,
		  "twitter: the sign bit set is outside the layout");
	CHECK(sfl_unpack(&dc, UINT64_MAX, &p) == SFL_OK && p.tick == (INT64_C(1) << 42) - 1,
		  "discord: all 64 bits are the layout's (unsigned time)");
	CHECK(sfl_unpack(&ig, UINT64_MAX, &p) == SFL_OK, "instagram uses all 64 bits");
	{
		sfl_layout	js = must("js_safe_ms");

		CHECK(sfl_unpack(&js, (UINT64_C(1) << 53) - 1, &p) == SFL_OK &&
			  sfl_unpack(&js, UINT64_C(1) << 53, &p) == SFL_ERR_RANGE,
			  "js_safe_ms: 53 bits in, bit 53 out");
	}
}

static void
test_scru64(void)
{
	/* scru64/rust src/test_cases.rs: EXAMPLE_IDS (text, num, timestamp, node_ctr) */
	static const struct
	{
		const char *text;
		uint64_t	num;
		int64_t		timestamp;
		uint64_t	node_ctr;
	}			ex[] = {
		{"000000000000", UINT64_C(0x0000000000000000), 0, 0},
		{"00000009zldr", UINT64_C(0x0000000000ffffff), 0, 16777215},
		{"zzzzzzzq0em8", UINT64_C(0x41c21cb8e0000000), INT64_C(282429536480), 0},
		{"zzzzzzzzzzzz", UINT64_C(0x41c21cb8e0ffffff), INT64_C(282429536480), 16777215},
		{"0u375nxqh5cq", UINT64_C(0x0186d52bbe2a635a), INT64_C(6557084606), 2777946},
		{"0u375ny0glr3", UINT64_C(0x0186d52bbf2a4a1f), INT64_C(6557084607), 2771487},
		{"jdsf1we3ui4f", UINT64_C(0x2367c8dfb2e6d23f), INT64_C(152065073074), 15127103},
		{"v0rbps7ay8ks", UINT64_C(0x38a9e683bb4425ec), INT64_C(243368625083), 4466156},
		{"z0jndjt42op2", UINT64_C(0x3ff596748ea77186), INT64_C(274703217806), 10973574},
		{"mkg0fd5p76pp", UINT64_C(0x29391373ab449abd), INT64_C(177051235243), 4496061},
	};

	/* EXAMPLE_NODE_SPECS "restore": node ids of v0rbps7ay8ks and f2bembkd4zrb */
	static const struct
	{
		uint64_t	num;
		int			node_bits;
		uint64_t	node;
	}			ns[] = {
		{UINT64_C(0x38a9e683bb4425ec), 1, 0},
		{UINT64_C(0x38a9e683bb4425ec), 8, 68},
		{UINT64_C(0x38a9e683bb4425ec), 16, 17445},
		{UINT64_C(0x38a9e683bb4425ec), 23, 2233078},
		{UINT64_C(0x1b844eb5d1aebb07), 1, 1},
		{UINT64_C(0x1b844eb5d1aebb07), 8, 174},
		{UINT64_C(0x1b844eb5d1aebb07), 16, 44731},
		{UINT64_C(0x1b844eb5d1aebb07), 23, 5725571},
	};
	char		out[SFL_SCRU64_LEN + 1];
	uint64_t	v;
	long		bad;
	sfl_layout	l;
	sfl_parts	p;

	for (size_t i = 0; i < sizeof(ex) / sizeof(ex[0]); i++)
	{
		CHECK(sfl_scru64_encode(ex[i].num, out) && strcmp(out, ex[i].text) == 0,
			  "scru64 %s encodes (got %s)", ex[i].text, out);
		CHECK(sfl_scru64_decode(ex[i].text, 12, &v, &bad) == SFL_OK && v == ex[i].num,
			  "scru64 %s decodes", ex[i].text);
		for (int nb = 1; nb <= 23; nb += 11)
		{
			sfl_preset_layout(SFL_SCRU64, 0, nb, &l, msg, sizeof(msg));
			CHECK(sfl_unpack(&l, ex[i].num, &p) == SFL_OK && p.tick == ex[i].timestamp &&
				  ((p.node << (24 - nb)) | p.seq) == ex[i].node_ctr,
				  "scru64(node_bits=%d) reads %s: timestamp %lld", nb, ex[i].text,
				  (long long) ex[i].timestamp);
		}
	}
	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
	{
		sfl_preset_layout(SFL_SCRU64, 0, ns[i].node_bits, &l, msg, sizeof(msg));
		CHECK(sfl_unpack(&l, ns[i].num, &p) == SFL_OK && p.node == ns[i].node,
			  "scru64 node_id_size %d of %llx is %llu", ns[i].node_bits,
			  (unsigned long long) ns[i].num, (unsigned long long) ns[i].node);
	}
	CHECK(sfl_scru64_decode("V0RBPS7AY8KS", 12, &v, &bad) == SFL_OK &&
		  v == UINT64_C(0x38a9e683bb4425ec), "scru64 decoding ignores case");
	CHECK(!sfl_scru64_encode(SFL_SCRU64_LIMIT, out), "36^12 has no SCRU64 text");
	CHECK(sfl_scru64_decode("0u375nxqh5c", 11, &v, &bad) == SFL_ERR_SYNTAX && bad == -1,
		  "11 characters are rejected");
	CHECK(sfl_scru64_decode("0u375nxqh5c-", 12, &v, &bad) == SFL_ERR_SYNTAX && bad == 11,
		  "a hyphen at offset 11 is rejected");
	sfl_preset_layout(SFL_SCRU64, 0, 8, &l, msg, sizeof(msg));
	CHECK(sfl_unpack(&l, SFL_SCRU64_LIMIT, &p) == SFL_ERR_RANGE &&
		  sfl_unpack(&l, SFL_SCRU64_LIMIT - 1, &p) == SFL_OK,
		  "scru64 ids end below 36^12");
	CHECK(l.max_tick == SFL_SCRU64_MAX_TICK && sfl_last_unix_ms(&l) == INT64_C(282429536480) * 256 + 255,
		  "scru64's time ends at tick 282429536480");
}

static void
test_time(void)
{
	sfl_layout	tw = must("twitter"),
				sf = must("sonyflake(epoch=2014-09-01T00:00:00.000Z)"),
				s = must("snowflake_s");
	int64_t		tick;

	CHECK(sfl_tick_of_unix_ms(&tw, INT64_C(1288834974657), &tick) == SFL_OK && tick == 0,
		  "twitter epoch is tick 0");
	CHECK(sfl_tick_of_unix_ms(&tw, INT64_C(1288834974656), &tick) == SFL_ERR_RANGE,
		  "a ms before the epoch is outside");
	CHECK(sfl_tick_of_unix_ms(&tw, sfl_last_unix_ms(&tw), &tick) == SFL_OK &&
		  tick == (INT64_C(1) << 41) - 1 &&
		  sfl_tick_of_unix_ms(&tw, sfl_last_unix_ms(&tw) + 1, &tick) == SFL_ERR_RANGE,
		  "twitter's last ms is tick 2^41-1, the next is outside");
	CHECK(sfl_tick_of_unix_ms(&sf, INT64_C(1409529600019), &tick) == SFL_OK && tick == 1,
		  "sonyflake floors 19 ms to tick 1");
	CHECK(sfl_tick_of_unix_ms(&s, INT64_C(1577203201999), &tick) == SFL_OK && tick == 1 &&
		  sfl_tick_unix_ms(&s, tick) == INT64_C(1577203201000),
		  "snowflake_s floors to the second");
}

static void
test_generator_rules(void)
{
	sfl_layout	tw = must("twitter"),
				sc = must("scru64(node_bits=8)"),
				cm = must("snowflake_ms"),
				one = must("custom(time=41:ms:0, sequence=1, sequence_reset=carry)"),
				same_bits = must("custom(time=41:ms:1288834974657, fields=node_id:10, sequence=12, sequence_reset=random)"),
				sony = must("sonyflake(epoch=2014-09-01T00:00:00.000Z)");
	sfl_key		k1,
				k2;
	int64_t		first,
				last;
	bool		below = true;

	CHECK(sfl_seq_start(&tw, 4095, 12345) == 0 && sfl_seq_start(&tw, 3, 0) == 0,
		  "twitter: a new tick starts at 0");
	for (uint64_t r = 0; r < 100000; r += 7)
		below = below && sfl_seq_start(&sc, 0, r * UINT64_C(0x9E3779B97F4A7C15)) < 32768;
	CHECK(below, "scru64(node_bits=8): random start below 2^15, half the 16-bit counter");
	CHECK(sfl_seq_start(&sc, 0, 32767) == 32767 && sfl_seq_start(&sc, 0, 32768) == 0,
		  "scru64: the random value is reduced below half the range");
	CHECK(sfl_seq_start(&cm, 0, 0) == 1 && sfl_seq_start(&cm, 2046, 0) == 2047 &&
		  sfl_seq_start(&cm, 2047, 0) == 2048 && sfl_seq_start(&cm, 2048, 0) == 0 &&
		  sfl_seq_start(&cm, 4095, 0) == 0,
		  "carry: previous + 1 while below 2048 (half of 4096), else 0");
	CHECK(sfl_seq_start(&one, 0, 0) == 1 && sfl_seq_start(&one, 1, 0) == 0,
		  "carry with a 1-bit sequence stays in range");
	CHECK(sfl_max_seq(&tw) == 4095 && sfl_max_node(&tw) == 1023 && sfl_ids_per_tick(&tw) == 4096,
		  "twitter: sequence 0..4095, node 0..1023");
	sfl_issuable_ticks(&sc, &first, &last);
	CHECK(first == 1 && last == INT64_C(282429536479), "scru64 never issues ticks 0 and 282429536480");
	sfl_issuable_ticks(&tw, &first, &last);
	CHECK(first == 0 && last == (INT64_C(1) << 41) - 1, "twitter issues every tick");

	sfl_layout_key(&tw, &k1);
	sfl_layout_key(&same_bits, &k2);
	CHECK(memcmp(&k1, &k2, sizeof(k1)) == 0,
		  "the key ignores field names and reset rules: same bits, same key");
	sfl_layout_key(&cm, &k2);
	CHECK(memcmp(&k1, &k2, sizeof(k1)) != 0, "a different epoch is a different key");
	sfl_layout_key(&sony, &k2);
	CHECK(k2.flags == (SFL_KEY_SIGN | SFL_KEY_SEQ_ABOVE_NODE) && k2.unit == SFL_UNIT_10MS &&
		  k2.node_bits == 16 && k2.seq_bits == 8 && k2.time_bits == 39,
		  "sonyflake's key has its order, unit and widths");
	CHECK(sfl_pack(&tw, 1, 1023, 4095) == ((UINT64_C(1) << 22) | 0x3FFFFF),
		  "pack fills every bit below the time");
}

static void
test_serialize(void)
{
	static const char *const layouts[] = {
		"twitter", "discord", "instagram", "snowflake_ms", "snowflake_s", "js_safe_ms",
		"js_safe_s", "sonyflake(epoch=2014-09-01T00:00:00.000Z)", "scru64(node_bits=8)",
		"custom(time=20:s:0, fields=a:1+b_2:2+c3:3, sequence=1, sign=false, sequence_above_node=true, sequence_reset=random)",
	};
	uint8_t		buf[SFL_SERIAL_MAX];
	sfl_layout	l,
				l2;
	size_t		n;

	for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++)
	{
		l = must(layouts[i]);
		n = sfl_serialize(&l, buf);
		CHECK(sfl_deserialize(buf, n, &l2, msg, sizeof(msg)) == SFL_OK && sfl_equal(&l, &l2) &&
			  l2.preset == l.preset, "%s serializes and reads back", layouts[i]);
	}
	l = must("twitter");
	n = sfl_serialize(&l, buf);
	CHECK(n == 16 + 2 + 10 + 2 + 6 && buf[0] == SFL_FORMAT_VERSION,
		  "twitter is 36 bytes behind version byte 1");
	CHECK(sfl_deserialize(buf, n - 1, &l2, msg, sizeof(msg)) == SFL_ERR_SYNTAX,
		  "a truncated layout is rejected: %s", msg);
	buf[n] = 'x';
	CHECK(sfl_deserialize(buf, n + 1, &l2, msg, sizeof(msg)) == SFL_ERR_SYNTAX,
		  "trailing bytes are rejected: %s", msg);
	buf[0] = 2;
	CHECK(sfl_deserialize(buf, n, &l2, msg, sizeof(msg)) == SFL_ERR_SYNTAX &&
		  strstr(msg, "Format version 2") != NULL, "format version 2 is rejected: %s", msg);
	buf[0] = SFL_FORMAT_VERSION;
	buf[1] = 60;
	CHECK(sfl_deserialize(buf, n, &l2, msg, sizeof(msg)) == SFL_ERR_RULE,
		  "a stored definition breaking a rule is rejected: %s", msg);
	CHECK(sfl_deserialize(buf, 3, &l2, msg, sizeof(msg)) == SFL_ERR_SYNTAX, "3 bytes are rejected");
}

static void
test_json(void)
{
	sfl_spec	spec;

#define JSON(s) (sfl_spec_init(&spec), \
				 sfl_parse_fields_json(s, strlen(s), &spec, msg, sizeof(msg)))

	CHECK(JSON(" { \"datacenter\" : 5 , \"worker\":5 } ") == SFL_OK && spec.nfields == 2 &&
		  strcmp(spec.field_names[0].s, "datacenter") == 0 && spec.field_bits[0] == 5 &&
		  strcmp(spec.field_names[1].s, "worker") == 0, "json keeps the key order");
	CHECK(JSON("{\"worker\": 5, \"datacenter\": 5}") == SFL_OK &&
		  strcmp(spec.field_names[0].s, "worker") == 0, "json order worker, datacenter");
	CHECK(JSON("{}") == SFL_OK && spec.nfields == 0 && spec.has_fields, "{} is no node fields");
	CHECK(JSON("{\"w\\u006frker\": 10}") == SFL_OK && strcmp(spec.field_names[0].s, "worker") == 0,
		  "json escapes of ASCII decode");
	CHECK(JSON("{\"w\\u00f6rker\": 10}") == SFL_OK && strcmp(spec.field_names[0].s, "w\\u00f6rker") == 0,
		  "other escapes stay as written");
	CHECK(JSON("{\"a\": -3}") == SFL_OK && spec.field_bits[0] == -3, "negative bits reach the rules");
	CHECK(JSON("{\"a\": 5.0}") == SFL_ERR_SYNTAX && strstr(msg, "whole number of bits"), "5.0: %s", msg);
	CHECK(JSON("{\"a\": \"5\"}") == SFL_ERR_SYNTAX, "a string of bits is rejected");
	CHECK(JSON("{\"a\": {\"b\": 1}}") == SFL_ERR_SYNTAX, "nested objects are rejected");
	CHECK(JSON("[1, 2]") == SFL_ERR_SYNTAX && strstr(msg, "JSON object"), "arrays are rejected: %s", msg);
	CHECK(JSON("{\"a\": 1") == SFL_ERR_SYNTAX, "an unclosed object is rejected");
	CHECK(JSON("{\"a\": 1} x") == SFL_ERR_SYNTAX, "trailing text is rejected");
	CHECK(JSON("{\"a\": 1, \"a\": 2}") == SFL_OK && spec.nfields == 2,
		  "duplicate keys reach the builder (which rejects them)");
#undef JSON
	{
		sfl_layout	l;

		sfl_word_set(&spec.name, "custom", 6);
		spec.has_time = true;
		spec.time_bits = 41;
		sfl_word_set(&spec.unit, "ms", 2);
		spec.has_sequence = true;
		spec.seq_bits = 12;
		CHECK(sfl_build(&spec, &l, msg, sizeof(msg)) == SFL_ERR_RULE &&
			  strstr(msg, "The field name \"a\" appears twice") != NULL,
			  "duplicate json keys: %s", msg);
	}
}

static void
test_friendly(void)
{
	sfl_layout	tw = must("twitter"),
				js = must("js_safe_s"),
				none = must("custom(time=41:ms:0, sequence=12)");
	char		out[SFL_FRIENDLY_MAX];
	int64_t		ms;
	uint64_t	node,
				seq;

	CHECK(sfl_friendly_format(&tw, INT64_C(1656432460105), 378, 17, out) &&
		  strcmp(out, "20220628160740105-0378-0017") == 0,
		  "twitter friendly: 20220628160740105-0378-0017 (got %s)", out);
	CHECK(sfl_friendly_parse(&tw, out, strlen(out), &ms, &node, &seq, msg, sizeof(msg)) == SFL_OK &&
		  ms == INT64_C(1656432460105) && node == 378 && seq == 17, "and back");
	CHECK(sfl_friendly_format(&js, INT64_C(1577203200000), 7, 524287, out) &&
		  strcmp(out, "20191224160000000-7-524287") == 0, "js_safe_s widths 1 and 6 (got %s)", out);
	CHECK(sfl_friendly_format(&none, 0, 0, 5, out) && strcmp(out, "19700101000000000-0-0005") == 0,
		  "no node fields: node 0 (got %s)", out);
	CHECK(!sfl_friendly_format(&tw, INT64_C(253402300800000), 0, 0, out), "year 10000 has no friendly form");
	CHECK(sfl_friendly_parse(&tw, "20220628160740105-378-0017", 26, &ms, &node, &seq, msg, sizeof(msg)) == SFL_ERR_SYNTAX &&
		  strstr(msg, "yyyyMMddHHmmssSSS-NNNN-SSSS") != NULL, "unpadded node is rejected: %s", msg);
	CHECK(sfl_friendly_parse(&tw, "20221328160740105-0378-0017", 27, &ms, &node, &seq, msg, sizeof(msg)) == SFL_ERR_SYNTAX &&
		  strstr(msg, "20221328160740105 is not a valid date and time") != NULL, "month 13: %s", msg);
	CHECK(sfl_friendly_parse(&tw, "20230229000000000-0000-0000", 27, &ms, &node, &seq, msg, sizeof(msg)) == SFL_ERR_SYNTAX,
		  "2023-02-29 is rejected");
	CHECK(sfl_friendly_parse(&tw, "20240229235959999-0000-0000", 27, &ms, &node, &seq, msg, sizeof(msg)) == SFL_OK,
		  "2024-02-29 23:59:59.999 is fine");
	CHECK(sfl_friendly_parse(&tw, "20220628160740105-1024-0017", 27, &ms, &node, &seq, msg, sizeof(msg)) == SFL_ERR_RANGE &&
		  strstr(msg, "The node 1024 is larger than 1023") != NULL, "node 1024: %s", msg);
	CHECK(sfl_friendly_parse(&tw, "20220628160740105-0378-4096", 27, &ms, &node, &seq, msg, sizeof(msg)) == SFL_ERR_RANGE,
		  "sequence 4096 is outside twitter");
	CHECK(sfl_friendly_parse(&tw, "2022062816074010x-0378-0017", 27, &ms, &node, &seq, msg, sizeof(msg)) == SFL_ERR_SYNTAX,
		  "a letter in the time is rejected");
	CHECK(sfl_friendly_parse(&tw, "20220628160740105+0378-0017", 27, &ms, &node, &seq, msg, sizeof(msg)) == SFL_ERR_SYNTAX,
		  "a plus sign is rejected");
}

static void
test_calendar(void)
{
	sfl_civil	c;
	int64_t		ms;
	bool		ok = true;
	char		iso[32];

	/* every 997th day from year 0000 to 9999 goes both ways */
	for (int64_t d = -719528; d < 2932897; d += 997)
	{
		int64_t		t = d * INT64_C(86400000) + 45296789;

		ok = ok && sfl_civil_from_ms(t, &c) && sfl_ms_from_civil(&c, &ms) && ms == t &&
			c.hour == 12 && c.minute == 34 && c.second == 56 && c.ms == 789;
	}
	CHECK(ok, "civil time round-trips over years 0000-9999");
	CHECK(sfl_civil_from_ms(-62167219200000, &c) && c.year == 0 && c.month == 1 && c.day == 1,
		  "0000-01-01 is the first day");
	CHECK(!sfl_civil_from_ms(-62167219200001, &c), "before 0000-01-01 is outside");
	CHECK(!sfl_civil_from_ms(INT64_C(253402300800000), &c), "10000-01-01 is outside");
	sfl_format_iso(INT64_C(1288834974657), iso);
	CHECK(strcmp(iso, "2010-11-04T01:42:54.657Z") == 0, "twitter's epoch prints as %s", iso);
	sfl_format_iso(0, iso);
	CHECK(strcmp(iso, "1970-01-01T00:00:00.000Z") == 0, "0 prints as %s", iso);
	{
		char		t[SFL_TIME_TEXT_MAX];

		sfl_format_time(INT64_C(1288834974657), t);
		CHECK(strcmp(t, "2010-11-04T01:42:54.657Z") == 0, "a time in 0000-9999 prints as ISO: %s", t);
		sfl_format_time(INT64_C(253402300800000), t);
		CHECK(strcmp(t, "+010000-01-01T00:00:00.000Z") == 0, "10000-01-01 prints expanded: %s", t);
		sfl_format_time(INT64_C(253402300799999), t);
		CHECK(strcmp(t, "9999-12-31T23:59:59.999Z") == 0, "the last ms of 9999 prints as ISO: %s", t);
		/* Java's new Date(Long.MAX_VALUE) is 292278994-08-17T07:12:55.807Z */
		sfl_format_time(INT64_MAX, t);
		CHECK(strcmp(t, "+292278994-08-17T07:12:55.807Z") == 0, "INT64_MAX ms prints as %s", t);
		sfl_format_time(INT64_C(-62167219200001), t);
		CHECK(strcmp(t, "-000001-12-31T23:59:59.999Z") == 0, "the ms before 0000-01-01 prints as %s", t);
	}
}

int
main(void)
{
	test_presets();
	test_diagrams();
	test_rules();
	test_syntax();
	test_known_answers();
	test_scru64();
	test_time();
	test_generator_rules();
	test_serialize();
	test_json();
	test_friendly();
	test_calendar();
	return unit_done();
}
