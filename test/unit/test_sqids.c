/*
 * Unit tests of Sqids (src/core/sqids.c): the specification's own test
 * suite (sqids_vectors.h), its errors, and round trips of random lists.
 */
#include <stdint.h>
#include <stdlib.h>

#include "rng.h"
#include "sqids.h"
#include "sqids_vectors.h"
#include "unit.h"

static int
count(const int64_t *nums)
{
	int			n = 0;

	while (nums[n] != SQ_END)
		n++;
	return n;
}

/* decode text into nums: its status, the count in *n */
static ulid_sqids_status
dec(const ulid_sqids *s, const char *text, int64_t *nums, size_t *n)
{
	ulid_sqids_error e = {0, 0, 0};

	return ulid_sqids_decode(s, text, strlen(text), nums, n, &e);
}

static int
same(const int64_t *a, size_t n, const int64_t *b)
{
	return (int) n == count(b) && memcmp(a, b, n * sizeof(int64_t)) == 0;
}

static void
check_case(const sqids_case *c)
{
	ulid_sqids	s;
	ulid_sqids_error e = {0, 0, 0};
	const char *alphabet = c->alphabet ? c->alphabet : ULID_SQIDS_DEFAULT_ALPHABET;
	int			nwords = 0;
	int			n = count(c->numbers);
	char	   *out = malloc(ulid_sqids_max_len((size_t) n));
	int64_t    *back = malloc(sizeof(int64_t) * (ulid_sqids_max_len((size_t) n) + 1));
	size_t		len = 0,
				nback = 0;
	ulid_sqids_status st;

	while (c->blocklist[nwords] != NULL)
		nwords++;
	if (c->blocklist[0] == NULL)
		st = ulid_sqids_init(&s, alphabet, strlen(alphabet), c->min_length, &e);
	else
		st = ulid_sqids_init_words(&s, alphabet, strlen(alphabet), c->min_length,
								   c->blocklist, c->blocklist[0][0] ? nwords : 0, &e);
	CHECK(st == ULID_SQIDS_OK, "%s: the alphabet is accepted", c->test);
	st = ulid_sqids_encode(&s, c->numbers, (size_t) n, out, &len, &e);
	CHECK(st == ULID_SQIDS_OK, "%s: encodes", c->test);
	if (c->id)
		CHECK(len == strlen(c->id) && memcmp(out, c->id, len) == 0,
			  "%s: encodes to %s (%.*s)", c->test, c->id, (int) len, out);
	CHECK((int) len >= c->min_length, "%s: at least min_length long", c->test);
	st = ulid_sqids_decode(&s, out, len, back, &nback, &e);
	CHECK(st == ULID_SQIDS_OK && same(back, nback, c->numbers), "%s: decodes back", c->test);
	for (int i = 0; c->decodes[i]; i++)
		CHECK(dec(&s, c->decodes[i], back, &nback) == ULID_SQIDS_OK && same(back, nback, c->numbers),
			  "%s: %s decodes to the numbers", c->test, c->decodes[i]);
	free(out);
	free(back);
}

int
main(void)
{
	ulid_sqids	s;
	ulid_sqids_error e = {0, 0, 0};
	char		out[4096];
	int64_t		nums[4096];
	size_t		len,
				n;

	for (size_t i = 0; i < sizeof(sqids_cases) / sizeof(sqids_cases[0]); i++)
		check_case(&sqids_cases[i]);

	/* minlength.test.ts "min lengths" */
	for (size_t m = 0; m < sizeof(sqids_min_lengths) / sizeof(int); m++)
	{
		int			bad = 0;

		ulid_sqids_init(&s, ULID_SQIDS_DEFAULT_ALPHABET, 62, sqids_min_lengths[m], &e);
		for (size_t k = 0; k < sizeof(sqids_min_length_numbers) / sizeof(sqids_min_length_numbers[0]); k++)
		{
			const int64_t *v = sqids_min_length_numbers[k];

			if (ulid_sqids_encode(&s, v, (size_t) count(v), out, &len, &e) != ULID_SQIDS_OK ||
				(int) len < sqids_min_lengths[m] ||
				ulid_sqids_decode(&s, out, len, nums, &n, &e) != ULID_SQIDS_OK || !same(nums, n, v))
				bad++;
		}
		CHECK(bad == 0, "min length %d: every list decodes back from an id that long", sqids_min_lengths[m]);
	}

	/* the shuffle of the default alphabet (tests/internal/shuffle.test.ts) */
	ulid_sqids_init(&s, ULID_SQIDS_DEFAULT_ALPHABET, 62, 0, &e);
	CHECK(memcmp(s.alphabet, SQ_DEFAULT_SHUFFLED, 62) == 0, "the default alphabet shuffles as the spec's");
	CHECK(s.nblocked == ULID_SQIDS_BLOCKLIST_LEN, "the default alphabet spells all %d words", s.nblocked);

	/* the errors of alphabet.test.ts and minlength.test.ts */
	CHECK(ulid_sqids_init(&s, "\xc3\xab" "1092", 6, 0, &e) == ULID_SQIDS_ALPHABET_NOT_ASCII && e.pos == 0,
		  "a multibyte character is refused, at byte 0");
	CHECK(ulid_sqids_init(&s, "aabcdefg", 8, 0, &e) == ULID_SQIDS_ALPHABET_REPEAT && e.pos == 1 && e.pos2 == 0,
		  "a repeated character is refused, at byte 1 (first at 0)");
	CHECK(ulid_sqids_init(&s, "ab", 2, 0, &e) == ULID_SQIDS_ALPHABET_LENGTH && e.len == 2,
		  "an alphabet of 2 is refused");
	CHECK(ulid_sqids_init(&s, "abc", 3, -1, &e) == ULID_SQIDS_MIN_LENGTH, "min_length -1 is refused");
	CHECK(ulid_sqids_init(&s, "abc", 3, 256, &e) == ULID_SQIDS_MIN_LENGTH, "min_length 256 is refused");
	CHECK(ulid_sqids_init(&s, "abc", 3, 255, &e) == ULID_SQIDS_OK, "min_length 255 is fine");
	{
		char		all[128];

		for (int i = 0; i < 127; i++)
			all[i] = (char) (i + 1);
		CHECK(ulid_sqids_init(&s, all, 127, 0, &e) == ULID_SQIDS_OK, "127 distinct ASCII characters are fine");
		n = 0;
		ulid_sqids_encode(&s, (int64_t[]) {INT64_MAX, 0, 7}, 3, out, &len, &e);
		CHECK(ulid_sqids_decode(&s, out, len, nums, &n, &e) == ULID_SQIDS_OK && n == 3 &&
			  nums[0] == INT64_MAX && nums[2] == 7, "and encode 2^63 - 1, 0, 7 and back");
	}

	/* blocklist.test.ts "max encoding attempts" */
	{
		static const char *const words[] = {"cab", "abc", "bca"};

		ulid_sqids_init_words(&s, "abc", 3, 3, words, 3, &e);
		CHECK(ulid_sqids_encode(&s, (int64_t[]) {0}, 1, out, &len, &e) == ULID_SQIDS_BLOCKED,
			  "every rotation blocked: the encoding fails");
	}

	/* where this implementation says more than the spec */
	ulid_sqids_init(&s, ULID_SQIDS_DEFAULT_ALPHABET, 62, 0, &e);
	CHECK(ulid_sqids_encode(&s, (int64_t[]) {1, -1}, 2, out, &len, &e) == ULID_SQIDS_NEGATIVE && e.pos == 1,
		  "a negative number is refused, naming its index");
	CHECK(dec(&s, "", nums, &n) == ULID_SQIDS_OK && n == 0, "the empty id decodes to no numbers");
	CHECK(dec(&s, "*", nums, &n) == ULID_SQIDS_BAD_CHAR,
		  "a character outside the alphabet is an error (the spec: no numbers)");
	{
		ulid_sqids_error e2 = {0, 0, 0};

		CHECK(ulid_sqids_decode(&s, "86Rf0-7", 7, nums, &n, &e2) == ULID_SQIDS_BAD_CHAR && e2.pos == 5,
			  "the character's byte offset is reported (%zu)", e2.pos);
	}
	ulid_sqids_encode(&s, (int64_t[]) {INT64_MAX}, 1, out, &len, &e);
	CHECK(dec(&s, "86Rf07", nums, &n) == ULID_SQIDS_OK && n == 3, "86Rf07 decodes");
	{
		/* a number past 2^63 - 1: the maximum's id with one more digit */
		char		big[80];
		ulid_sqids_error e2 = {0, 0, 0};

		memcpy(big, out, len);
		big[len] = big[len - 1];
		CHECK(ulid_sqids_decode(&s, big, len + 1, nums, &n, &e2) == ULID_SQIDS_OVERFLOW &&
			  e2.pos == 1 && e2.len == len, "a number above 2^63 - 1 overflows (at %zu, %zu long)", e2.pos, e2.len);
	}

	/* random lists of random sizes, with and without padding */
	{
		int			bad = 0;

		for (int round = 0; round < 20000; round++)
		{
			int64_t		v[8];
			size_t		k = (size_t) (test_rng() % 8);
			int			min = (int) (test_rng() % 3 == 0 ? test_rng() % 256 : 0);

			if (round % 1000 == 0)
				ulid_sqids_init(&s, ULID_SQIDS_DEFAULT_ALPHABET, 62, min, &e);
			for (size_t i = 0; i < k; i++)
				v[i] = (int64_t) (test_rng_any() >> 1);
			if (ulid_sqids_encode(&s, v, k, out, &len, &e) != ULID_SQIDS_OK ||
				ulid_sqids_decode(&s, out, len, nums, &n, &e) != ULID_SQIDS_OK ||
				n != k || memcmp(nums, v, k * sizeof(int64_t)) != 0)
				bad++;
		}
		CHECK(bad == 0, "20000 random lists decode back (%d did not)", bad);
	}
	return unit_done();
}
