/*
 * Unit tests of the floor file's text (src/core/floor_text.c).
 */
#include <stdint.h>

#include "floor_text.h"
#include "unit.h"

static int
parse_str(const char *s, uint64_t *ms)
{
	return ulid_floor_parse(s, strlen(s), ms);
}

int
main(void)
{
	char		buf[ULID_FLOOR_TEXT_MAX + 1];
	uint64_t	ms = 0;
	size_t		n;
	const uint64_t values[] = {0, 1, 9, 10, 1712345678901ULL, 281474976710655ULL + 1000,
	INT64_MAX};

	/* the exact text, and a round trip for edge values */
	n = ulid_floor_format(1712345678901ULL, buf);
	buf[n] = '\0';
	CHECK(strcmp(buf, "ulid floor 1\n1712345678901\n") == 0, "format writes the header line and the number line");
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++)
	{
		n = ulid_floor_format(values[i], buf);
		CHECK(n <= ULID_FLOOR_TEXT_MAX && ulid_floor_parse(buf, n, &ms) == ULID_FLOOR_TEXT_OK &&
			  ms == values[i], "round trip of %llu", (unsigned long long) values[i]);
	}
	n = ulid_floor_format((uint64_t) INT64_MAX + 1, buf);
	CHECK(ulid_floor_parse(buf, n, &ms) == ULID_FLOOR_TEXT_OK && ms == INT64_MAX,
		  "format clamps to INT64_MAX");

	/* rejected: everything that format does not write */
	CHECK(parse_str("", &ms) == ULID_FLOOR_TEXT_BAD_HEADER, "empty file");
	CHECK(parse_str("garbage\n", &ms) == ULID_FLOOR_TEXT_BAD_HEADER, "garbage");
	CHECK(parse_str("ulid floor 2\n5\n", &ms) == ULID_FLOOR_TEXT_BAD_HEADER, "another version");
	CHECK(parse_str("ulid floor 1", &ms) == ULID_FLOOR_TEXT_BAD_HEADER, "header without newline");
	CHECK(parse_str("ulid floor 1\n", &ms) == ULID_FLOOR_TEXT_BAD_NUMBER, "no number");
	CHECK(parse_str("ulid floor 1\n\n", &ms) == ULID_FLOOR_TEXT_BAD_NUMBER, "empty number");
	CHECK(parse_str("ulid floor 1\n123", &ms) == ULID_FLOOR_TEXT_BAD_NUMBER, "no final newline");
	CHECK(parse_str("ulid floor 1\n123\n\n", &ms) == ULID_FLOOR_TEXT_BAD_NUMBER, "two newlines");
	CHECK(parse_str("ulid floor 1\n12a3\n", &ms) == ULID_FLOOR_TEXT_BAD_NUMBER, "a letter");
	CHECK(parse_str("ulid floor 1\n-5\n", &ms) == ULID_FLOOR_TEXT_BAD_NUMBER, "a sign");
	CHECK(parse_str("ulid floor 1\n 5\n", &ms) == ULID_FLOOR_TEXT_BAD_NUMBER, "a space");
	CHECK(parse_str("ulid floor 1\n05\n", &ms) == ULID_FLOOR_TEXT_BAD_NUMBER, "a leading zero");
	CHECK(parse_str("ulid floor 1\n0\n", &ms) == ULID_FLOOR_TEXT_OK && ms == 0, "zero alone");
	CHECK(parse_str("ulid floor 1\n9223372036854775807\n", &ms) == ULID_FLOOR_TEXT_OK &&
		  ms == INT64_MAX, "INT64_MAX");
	CHECK(parse_str("ulid floor 1\n9223372036854775808\n", &ms) == ULID_FLOOR_TEXT_OVERFLOW,
		  "INT64_MAX + 1 overflows");
	CHECK(parse_str("ulid floor 1\n99999999999999999999\n", &ms) == ULID_FLOOR_TEXT_OVERFLOW,
		  "20 digits overflow");
	CHECK(ulid_floor_parse("ulid floor 1\n5\n\0", 16, &ms) == ULID_FLOOR_TEXT_BAD_NUMBER,
		  "a trailing NUL byte");
	return unit_done();
}
