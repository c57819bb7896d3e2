/*
 * Unit tests of the floor file's text (src/core/floor_text.c).
 */
#include <stdint.h>

#include "floor_text.h"
#include "unit.h"

#define MAXE 4

static ulid_floor_entry entries[MAXE];
static size_t nentries;
static int	version;
static int	line;

static int
parse_str(const char *s, uint64_t *ms)
{
	return ulid_floor_parse(s, strlen(s), &version, ms, entries, MAXE, &nentries, &line);
}

int
main(void)
{
	char		buf[ULID_FLOOR_HEAD_MAX + MAXE * ULID_FLOOR_ENTRY_MAX + 1];
	uint64_t	ms = 0;
	size_t		n;
	ulid_floor_entry e;
	const uint64_t values[] = {0, 1, 9, 10, 1712345678901ULL, 281474976710655ULL + 1000,
	INT64_MAX};

	/* the exact text, and a round trip for edge values */
	n = ulid_floor_format_head(1712345678901ULL, buf);
	buf[n] = '\0';
	CHECK(strcmp(buf, "ulid floor 2\n1712345678901\n") == 0, "format writes the header line and the number line");
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++)
	{
		n = ulid_floor_format_head(values[i], buf);
		CHECK(n <= ULID_FLOOR_HEAD_MAX &&
			  ulid_floor_parse(buf, n, &version, &ms, entries, MAXE, &nentries, &line) == ULID_FLOOR_TEXT_OK &&
			  ms == values[i] && version == 2 && nentries == 0,
			  "round trip of %llu", (unsigned long long) values[i]);
	}
	n = ulid_floor_format_head((uint64_t) INT64_MAX + 1, buf);
	CHECK(ulid_floor_parse(buf, n, &version, &ms, entries, MAXE, &nentries, &line) == ULID_FLOOR_TEXT_OK &&
		  ms == INT64_MAX, "format clamps to INT64_MAX");

	/* entries: exact text, round trip of every byte value of the key */
	memset(&e, 0, sizeof(e));
	e.kind = 2;
	for (int i = 0; i < ULID_FLOOR_KEY_BYTES; i++)
		e.key[i] = (uint8_t) (i * 37 + 250);
	e.ms = 3471292800000ULL;
	n = ulid_floor_format_head(1712345678901ULL, buf);
	n += ulid_floor_format_entry(&e, buf + n);
	e.kind = 1;
	memset(e.key, 0, sizeof(e.key));
	e.ms = 0;
	n += ulid_floor_format_entry(&e, buf + n);
	buf[n] = '\0';
	CHECK(strncmp(buf, "ulid floor 2\n1712345678901\n2 fa1f", 32) == 0 &&
		  strstr(buf, " 3471292800000\n1 0000000000000000000000000000000000000000000000000000000000000000 0\n") != NULL &&
		  strlen(buf) == n, "entries are kind, lowercase hex key, floor");
	CHECK(ulid_floor_parse(buf, n, &version, &ms, entries, MAXE, &nentries, &line) == ULID_FLOOR_TEXT_OK &&
		  nentries == 2 && entries[0].kind == 2 && entries[0].ms == 3471292800000ULL &&
		  entries[0].key[0] == 250 && entries[0].key[31] == (uint8_t) (31 * 37 + 250) &&
		  entries[1].kind == 1 && entries[1].ms == 0 && entries[1].key[5] == 0,
		  "two entries round trip");
	CHECK(ulid_floor_parse(buf, n, &version, &ms, entries, 1, &nentries, &line) == ULID_FLOOR_TEXT_TOO_MANY,
		  "more entries than room: TOO_MANY");
	CHECK(ulid_floor_parse(buf, n - 1, &version, &ms, entries, MAXE, &nentries, &line) == ULID_FLOOR_TEXT_TRUNCATED &&
		  line == 4, "an entry cut before its newline: TRUNCATED on line 4");
	CHECK(ulid_floor_parse(buf, n - 40, &version, &ms, entries, MAXE, &nentries, &line) == ULID_FLOOR_TEXT_TRUNCATED,
		  "an entry cut inside its key: TRUNCATED");
	{
		char		bad[sizeof(buf)];

		memcpy(bad, buf, n);
		bad[n - 3] = 'Z';		/* inside the last entry's number */
		CHECK(ulid_floor_parse(bad, n, &version, &ms, entries, MAXE, &nentries, &line) == ULID_FLOOR_TEXT_BAD_ENTRY,
			  "a letter in an entry: BAD_ENTRY");
		memcpy(bad, buf, n);
		bad[30] = 'G';			/* a key digit of the first entry */
		CHECK(ulid_floor_parse(bad, n, &version, &ms, entries, MAXE, &nentries, &line) == ULID_FLOOR_TEXT_BAD_ENTRY &&
			  line == 3, "a non-hex key digit: BAD_ENTRY on line 3");
		memcpy(bad, buf, n);
		bad[30] = 'A';			/* uppercase hex is not what format writes */
		CHECK(ulid_floor_parse(bad, n, &version, &ms, entries, MAXE, &nentries, &line) == ULID_FLOOR_TEXT_BAD_ENTRY,
			  "an uppercase key digit: BAD_ENTRY");
	}

	/* version 1 (earlier builds): read, two lines only */
	CHECK(parse_str("ulid floor 1\n1712345678901\n", &ms) == ULID_FLOOR_TEXT_OK &&
		  version == 1 && ms == 1712345678901ULL && nentries == 0, "version 1 is read");
	CHECK(parse_str("ulid floor 1\n5\n2 00 5\n", &ms) == ULID_FLOOR_TEXT_BAD_NUMBER,
		  "version 1 has no entries");

	/* rejected: everything that format does not write */
	CHECK(parse_str("", &ms) == ULID_FLOOR_TEXT_BAD_HEADER, "empty file");
	CHECK(parse_str("garbage\n", &ms) == ULID_FLOOR_TEXT_BAD_HEADER, "garbage");
	CHECK(parse_str("ulid floor 3\n5\n", &ms) == ULID_FLOOR_TEXT_BAD_VERSION && version == 3,
		  "an unknown version names it");
	CHECK(parse_str("ulid floor 0\n5\n", &ms) == ULID_FLOOR_TEXT_BAD_VERSION && version == 0,
		  "version 0 is unknown");
	CHECK(parse_str("ulid floor 99999999999\n5\n", &ms) == ULID_FLOOR_TEXT_BAD_VERSION,
		  "a huge version is unknown");
	CHECK(parse_str("ulid floor 02\n5\n", &ms) == ULID_FLOOR_TEXT_BAD_HEADER, "a version with a leading zero");
	CHECK(parse_str("ulid floor x\n5\n", &ms) == ULID_FLOOR_TEXT_BAD_HEADER, "a version that is no number");
	CHECK(parse_str("ulid floor 2", &ms) == ULID_FLOOR_TEXT_TRUNCATED, "header without newline");
	CHECK(parse_str("ulid fl", &ms) == ULID_FLOOR_TEXT_TRUNCATED, "header cut short");
	CHECK(parse_str("ulid floor 2\n", &ms) == ULID_FLOOR_TEXT_TRUNCATED && line == 2, "no number");
	CHECK(parse_str("ulid floor 2\n\n", &ms) == ULID_FLOOR_TEXT_BAD_NUMBER, "empty number");
	CHECK(parse_str("ulid floor 2\n123", &ms) == ULID_FLOOR_TEXT_TRUNCATED, "no final newline");
	CHECK(parse_str("ulid floor 2\n123\n\n", &ms) == ULID_FLOOR_TEXT_BAD_ENTRY, "an empty line after it");
	CHECK(parse_str("ulid floor 2\n12a3\n", &ms) == ULID_FLOOR_TEXT_BAD_NUMBER, "a letter");
	CHECK(parse_str("ulid floor 2\n-5\n", &ms) == ULID_FLOOR_TEXT_BAD_NUMBER, "a sign");
	CHECK(parse_str("ulid floor 2\n 5\n", &ms) == ULID_FLOOR_TEXT_BAD_NUMBER, "a space");
	CHECK(parse_str("ulid floor 2\n05\n", &ms) == ULID_FLOOR_TEXT_BAD_NUMBER, "a leading zero");
	CHECK(parse_str("ulid floor 2\n0\n", &ms) == ULID_FLOOR_TEXT_OK && ms == 0, "zero alone");
	CHECK(parse_str("ulid floor 2\n9223372036854775807\n", &ms) == ULID_FLOOR_TEXT_OK &&
		  ms == INT64_MAX, "INT64_MAX");
	CHECK(parse_str("ulid floor 2\n9223372036854775808\n", &ms) == ULID_FLOOR_TEXT_OVERFLOW,
		  "INT64_MAX + 1 overflows");
	CHECK(parse_str("ulid floor 2\n99999999999999999999\n", &ms) == ULID_FLOOR_TEXT_OVERFLOW,
		  "20 digits overflow");
	CHECK(ulid_floor_parse("ulid floor 2\n5\n\0", 16, &version, &ms, entries, MAXE, &nentries, &line) ==
		  ULID_FLOOR_TEXT_BAD_ENTRY, "a trailing NUL byte");
	for (int s = ULID_FLOOR_TEXT_OK; s <= ULID_FLOOR_TEXT_TOO_MANY; s++)
		CHECK(strlen(ulid_floor_status_text((ulid_floor_text_status) s)) > 5, "status %d has a text", s);
	return unit_done();
}
