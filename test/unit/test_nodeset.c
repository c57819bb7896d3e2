/*
 * Unit tests of node sets, ulid.node_ids's text (src/core/nodeset.c).
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>

#include "nodeset.h"
#include "unit.h"

static nodeset_range r[64];
static size_t n;
static size_t pos;
static char msg[NODESET_MSG_MAX];

static int
parse(const char *s)
{
	return nodeset_parse(s, strlen(s), r, 64, &n, &pos, msg, sizeof(msg));
}

/* the canonical text of s, or "error at POS: MSG" */
static const char *
canon(const char *s)
{
	static char out[256];

	if (!parse(s))
		snprintf(out, sizeof(out), "error at %zu: %s", pos, msg);
	else
		nodeset_format(r, n, out, sizeof(out));
	return out;
}

#define CANON(in, want) \
	CHECK(strcmp(canon(in), want) == 0, "'%s' -> '%s' (got '%s')", in, want, canon(in))

int
main(void)
{
	/* accepted forms, printed canonically: sorted, merged */
	CANON("", "");
	CANON("   ", "");
	CANON("0-8191", "0-8191");
	CANON("3,7,100-199", "3,7,100-199");
	CANON(" 100 - 199 , 7,3 ", "3,7,100-199");
	CANON("5,5,5", "5");
	CANON("1-10,5-20", "1-20");
	CANON("1-10,11-20", "1-20");
	CANON("1-10,12-20", "1-10,12-20");
	CANON("4,3,2,1", "1-4");
	CANON("7-7", "7");
	CANON("0", "0");
	CANON("9007199254740991", "9007199254740991");
	CANON("0-9007199254740991,5", "0-9007199254740991");
	CANON("007", "7");
	CANON("\t1\t,\t2", "1-2");

	/* refused, with the byte and the reason */
	CANON("1,", "error at 2: a node number is missing");
	CANON(",1", "error at 0: a node number is missing");
	CANON("1,,2", "error at 2: a node number is missing");
	CANON("1-", "error at 2: a node number is missing");
	CANON("-1", "error at 0: expected a node number, found \"-\"");
	CANON("10-5", "error at 0: the range 10-5 runs backwards");
	CANON("1, 20-3", "error at 3: the range 20-3 runs backwards");
	CANON("1 2", "error at 2: expected \",\" or \"-\" after a number, found \"2\"");
	CANON("1;2", "error at 1: expected \",\" or \"-\" after a number, found \";\"");
	CANON("1-2-3", "error at 3: expected \",\" or \"-\" after a number, found \"-\"");
	CANON("a", "error at 0: expected a node number, found \"a\"");
	CANON("+1", "error at 0: expected a node number, found \"+\"");
	CANON("9007199254740992", "error at 0: the number is above 9007199254740991, the largest node a layout has");
	CANON("1,99999999999999999999999", "error at 2: the number is above 9007199254740991, the largest node a layout has");
	CANON("1.5", "error at 1: expected \",\" or \"-\" after a number, found \".\"");

	/* the caller's capacity: nodeset_max_ranges covers every text */
	CHECK(nodeset_max_ranges("", 0) == 1 && nodeset_max_ranges("1,2,3", 5) == 3,
		  "nodeset_max_ranges counts the items");
	{
		nodeset_range one[1];

		CHECK(!nodeset_parse("1,2", 3, one, 1, &n, &pos, msg, sizeof(msg)),
			  "a text with more ranges than the capacity is refused, not overrun");
	}

	/* membership */
	parse("3,7,100-199,1000-1000");
	{
		static const int64_t in[] = {3, 7, 100, 150, 199, 1000};
		static const int64_t out[] = {-1, 0, 2, 4, 6, 8, 99, 200, 999, 1001, INT64_MAX};
		bool		all_in = true,
					none_out = true;

		for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++)
			all_in &= nodeset_contains(r, n, in[i]);
		for (size_t i = 0; i < sizeof(out) / sizeof(out[0]); i++)
			none_out &= !nodeset_contains(r, n, out[i]);
		CHECK(all_in, "every node of 3,7,100-199,1000 is in the set");
		CHECK(none_out, "no other node is in the set");
		CHECK(!nodeset_contains(r, 0, 3), "the empty set holds nothing");
	}
	/* every node of a random set agrees with a bitmap */
	{
		unsigned	seed = 12345;
		bool		agree = true;

		for (int round = 0; round < 200 && agree; round++)
		{
			char		text[512];
			size_t		len = 0;
			bool		bits[300] = {false};
			int			items = 1 + (int) ((seed = seed * 1103515245 + 12345) >> 16) % 12;

			for (int i = 0; i < items; i++)
			{
				int			a = (int) ((seed = seed * 1103515245 + 12345) >> 16) % 300;
				int			b = a + (int) ((seed = seed * 1103515245 + 12345) >> 16) % 20;

				if (b >= 300)
					b = 299;
				for (int v = a; v <= b; v++)
					bits[v] = true;
				len += (size_t) snprintf(text + len, sizeof(text) - len, "%s%d-%d",
										 i ? "," : "", a, b);
			}
			if (!parse(text))
				agree = false;
			for (int v = 0; v < 300 && agree; v++)
				agree = nodeset_contains(r, n, v) == bits[v];
			for (size_t j = 1; j < n && agree; j++)
				agree = r[j].lo > r[j - 1].hi + 1;	/* sorted, merged */
		}
		CHECK(agree, "200 random sets: membership equals a bitmap, ranges sorted and merged");
	}

	/* overlaps */
	{
		nodeset_range a[8],
					b[8];
		size_t		na,
					nb;

		nodeset_parse("1-10,20", 7, a, 8, &na, &pos, msg, sizeof(msg));
		nodeset_parse("11-19,21", 8, b, 8, &nb, &pos, msg, sizeof(msg));
		CHECK(!nodeset_overlaps(a, na, b, nb), "1-10,20 and 11-19,21 share no node");
		nodeset_parse("11-20", 5, b, 8, &nb, &pos, msg, sizeof(msg));
		CHECK(nodeset_overlaps(a, na, b, nb), "1-10,20 and 11-20 share node 20");
		CHECK(!nodeset_overlaps(a, na, b, 0), "nothing overlaps the empty set");
	}

	/* formatting into a short buffer ends in "..." and reports the length */
	{
		char		small[12];
		size_t		len;

		parse("1,3,5,7,9,11,13");
		len = nodeset_format(r, n, small, sizeof(small));
		CHECK(len == strlen("1,3,5,7,9,11,13"), "the whole text's length is returned");
		CHECK(strcmp(small, "1,3,5,7...") == 0, "a truncated text ends in ... (got '%s')", small);
	}
	return unit_done();
}
