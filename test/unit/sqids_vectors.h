/*
 * sqids_vectors.h: the test suite of the Sqids specification as data,
 * transcribed from the tests/ files (*.test.ts) of sqids/sqids-spec at commit
 * 49b8ad8ea0725ee79c374ceb098cf100b52b0ec5 (tests/internal are the
 * algorithm's own: its shuffle vector for the default alphabet is here too).
 *
 * A case is an alphabet (NULL: the default), a min_length, a blocklist
 * (NULL: the default; "" alone: empty), the numbers (-1 ends them) and the
 * id that encoding gives (NULL: only decode(encode(numbers)) == numbers is
 * specified).  decodes lists ids that decode to the numbers without being
 * what encoding gives (decoding never checks the blocklist).
 */
#define SQ_END (-1)
#define SQ_MAX_SAFE INT64_C(9007199254740991)

typedef struct sqids_case
{
	const char *test;
	const char *alphabet;
	int			min_length;
	const char *blocklist[8];
	int64_t		numbers[101];
	const char *id;
	const char *decodes[6];
} sqids_case;


#define LONG_ALPHABET "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!@#$%^&*()-_+|{}[];:'\"/?.>,<`~"

static const sqids_case sqids_cases[] = {
	/* alphabet.test.ts */
	{"alphabet: simple", "0123456789abcdef", 0, {NULL}, {1, 2, 3, SQ_END}, "489158", {NULL}},
	{"alphabet: short alphabet", "abc", 0, {NULL}, {1, 2, 3, SQ_END}, NULL, {NULL}},
	{"alphabet: long alphabet", LONG_ALPHABET, 0, {NULL}, {1, 2, 3, SQ_END}, NULL, {NULL}},

	/* blocklist.test.ts */
	{"blocklist: the default", NULL, 0, {NULL}, {4572721, SQ_END}, "JExTR", {"aho1e", NULL}},
	{"blocklist: an empty one", NULL, 0, {"", NULL}, {4572721, SQ_END}, "aho1e", {NULL}},
	{"blocklist: a non-empty one replaces the default", NULL, 0, {"ArUO", NULL}, {4572721, SQ_END}, "aho1e", {NULL}},
	{"blocklist: a non-empty one is used", NULL, 0, {"ArUO", NULL}, {100000, SQ_END}, "QyG4", {"ArUO", NULL}},
	{"blocklist: blocklist", NULL, 0, {"JSwXFaosAN", "OCjV9JK64o", "rBHf", "79SM", "7tE6", NULL},
	{1000000, 2000000, SQ_END}, "1aYeB7bRUt", {NULL}},
	{"blocklist: decoding blocked words still works", NULL, 0,
	{"86Rf07", "se8ojk", "ARsz1p", "Q8AI49", "5sQRZO", NULL},
	{1, 2, 3, SQ_END}, NULL, {"86Rf07", "se8ojk", "ARsz1p", "Q8AI49", "5sQRZO", NULL}},
	{"blocklist: a short word", NULL, 0, {"pnd", NULL}, {1000, SQ_END}, NULL, {NULL}},
	{"blocklist: filtering by the alphabet, in any case", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", 0, {"sxnzkl", NULL},
	{1, 2, 3, SQ_END}, "IBSHOZ", {NULL}},
	{"isBlockedId: a word of 3 matches only a whole id (hey)", NULL, 0, {"hey", NULL}, {100, SQ_END}, "86u", {NULL}},
	{"isBlockedId: a word of 3 matches a whole id (86u)", NULL, 0, {"86u", NULL}, {100, SQ_END}, "sec", {NULL}},
	{"isBlockedId: a word of 3 in a longer id does not match", NULL, 0, {"vFo", NULL}, {1000000, SQ_END}, "gMvFo", {NULL}},
	{"isBlockedId: a word with digits matches at the start", NULL, 0, {"lP3i", NULL},
	{100, 202, 303, 404, SQ_END}, "oDqljxrokxRt", {NULL}},
	{"isBlockedId: a word with digits matches at the end", NULL, 0, {"1HkYs", NULL},
	{100, 202, 303, 404, SQ_END}, "oDqljxrokxRt", {NULL}},
	{"isBlockedId: a word with digits does not match in the middle", NULL, 0, {"0hfxX", NULL},
	{101, 202, 303, 404, 505, 606, 707, SQ_END}, "862REt0hfxXVdsLG8vGWD", {NULL}},
	{"isBlockedId: a word without digits matches in the middle", NULL, 0, {"hfxX", NULL},
	{101, 202, 303, 404, 505, 606, 707, SQ_END}, "seu8n1jO9C4KQQDxdOxsK", {NULL}},

	/* encoding.test.ts */
	{"encoding: simple", NULL, 0, {NULL}, {1, 2, 3, SQ_END}, "86Rf07", {NULL}},
	{"encoding: different inputs", NULL, 0, {NULL},
	{0, 0, 0, 1, 2, 3, 100, 1000, 100000, 1000000, SQ_MAX_SAFE, SQ_END}, NULL, {NULL}},
	{"encoding: incremental 0", NULL, 0, {NULL}, {0, SQ_END}, "bM", {NULL}},
	{"encoding: incremental 1", NULL, 0, {NULL}, {1, SQ_END}, "Uk", {NULL}},
	{"encoding: incremental 2", NULL, 0, {NULL}, {2, SQ_END}, "gb", {NULL}},
	{"encoding: incremental 3", NULL, 0, {NULL}, {3, SQ_END}, "Ef", {NULL}},
	{"encoding: incremental 4", NULL, 0, {NULL}, {4, SQ_END}, "Vq", {NULL}},
	{"encoding: incremental 5", NULL, 0, {NULL}, {5, SQ_END}, "uw", {NULL}},
	{"encoding: incremental 6", NULL, 0, {NULL}, {6, SQ_END}, "OI", {NULL}},
	{"encoding: incremental 7", NULL, 0, {NULL}, {7, SQ_END}, "AX", {NULL}},
	{"encoding: incremental 8", NULL, 0, {NULL}, {8, SQ_END}, "p6", {NULL}},
	{"encoding: incremental 9", NULL, 0, {NULL}, {9, SQ_END}, "nJ", {NULL}},
	{"encoding: same index 0, 0", NULL, 0, {NULL}, {0, 0, SQ_END}, "SvIz", {NULL}},
	{"encoding: same index 0, 1", NULL, 0, {NULL}, {0, 1, SQ_END}, "n3qa", {NULL}},
	{"encoding: same index 0, 2", NULL, 0, {NULL}, {0, 2, SQ_END}, "tryF", {NULL}},
	{"encoding: same index 0, 3", NULL, 0, {NULL}, {0, 3, SQ_END}, "eg6q", {NULL}},
	{"encoding: same index 0, 4", NULL, 0, {NULL}, {0, 4, SQ_END}, "rSCF", {NULL}},
	{"encoding: same index 0, 5", NULL, 0, {NULL}, {0, 5, SQ_END}, "sR8x", {NULL}},
	{"encoding: same index 0, 6", NULL, 0, {NULL}, {0, 6, SQ_END}, "uY2M", {NULL}},
	{"encoding: same index 0, 7", NULL, 0, {NULL}, {0, 7, SQ_END}, "74dI", {NULL}},
	{"encoding: same index 0, 8", NULL, 0, {NULL}, {0, 8, SQ_END}, "30WX", {NULL}},
	{"encoding: same index 0, 9", NULL, 0, {NULL}, {0, 9, SQ_END}, "moxr", {NULL}},
	{"encoding: same index 1, 0", NULL, 0, {NULL}, {1, 0, SQ_END}, "nWqP", {NULL}},
	{"encoding: same index 2, 0", NULL, 0, {NULL}, {2, 0, SQ_END}, "tSyw", {NULL}},
	{"encoding: same index 3, 0", NULL, 0, {NULL}, {3, 0, SQ_END}, "eX68", {NULL}},
	{"encoding: same index 4, 0", NULL, 0, {NULL}, {4, 0, SQ_END}, "rxCY", {NULL}},
	{"encoding: same index 5, 0", NULL, 0, {NULL}, {5, 0, SQ_END}, "sV8a", {NULL}},
	{"encoding: same index 6, 0", NULL, 0, {NULL}, {6, 0, SQ_END}, "uf2K", {NULL}},
	{"encoding: same index 7, 0", NULL, 0, {NULL}, {7, 0, SQ_END}, "7Cdk", {NULL}},
	{"encoding: same index 8, 0", NULL, 0, {NULL}, {8, 0, SQ_END}, "3aWP", {NULL}},
	{"encoding: same index 9, 0", NULL, 0, {NULL}, {9, 0, SQ_END}, "m2xn", {NULL}},
	{"encoding: multi input", NULL, 0, {NULL},
	{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
	 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49,
	 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73,
	 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97,
	 98, 99, SQ_END}, NULL, {NULL}},
	{"encoding: no numbers", NULL, 0, {NULL}, {SQ_END}, "", {NULL}},

	/* minlength.test.ts */
	{"minlength: simple", NULL, 62, {NULL}, {1, 2, 3, SQ_END},
	"86Rf07xd4zBmiJXQG6otHEbew02c3PWsUOLZxADhCpKj7aVFv9I8RquYrNlSTM", {NULL}},
	{"minlength: incremental 6", NULL, 6, {NULL}, {1, 2, 3, SQ_END}, "86Rf07", {NULL}},
	{"minlength: incremental 7", NULL, 7, {NULL}, {1, 2, 3, SQ_END}, "86Rf07x", {NULL}},
	{"minlength: incremental 8", NULL, 8, {NULL}, {1, 2, 3, SQ_END}, "86Rf07xd", {NULL}},
	{"minlength: incremental 9", NULL, 9, {NULL}, {1, 2, 3, SQ_END}, "86Rf07xd4", {NULL}},
	{"minlength: incremental 10", NULL, 10, {NULL}, {1, 2, 3, SQ_END}, "86Rf07xd4z", {NULL}},
	{"minlength: incremental 11", NULL, 11, {NULL}, {1, 2, 3, SQ_END}, "86Rf07xd4zB", {NULL}},
	{"minlength: incremental 12", NULL, 12, {NULL}, {1, 2, 3, SQ_END}, "86Rf07xd4zBm", {NULL}},
	{"minlength: incremental 13", NULL, 13, {NULL}, {1, 2, 3, SQ_END}, "86Rf07xd4zBmi", {NULL}},
	{"minlength: incremental 62", NULL, 62, {NULL}, {1, 2, 3, SQ_END},
	"86Rf07xd4zBmiJXQG6otHEbew02c3PWsUOLZxADhCpKj7aVFv9I8RquYrNlSTM", {NULL}},
	{"minlength: incremental 63", NULL, 63, {NULL}, {1, 2, 3, SQ_END},
	"86Rf07xd4zBmiJXQG6otHEbew02c3PWsUOLZxADhCpKj7aVFv9I8RquYrNlSTMy", {NULL}},
	{"minlength: incremental 64", NULL, 64, {NULL}, {1, 2, 3, SQ_END},
	"86Rf07xd4zBmiJXQG6otHEbew02c3PWsUOLZxADhCpKj7aVFv9I8RquYrNlSTMyf", {NULL}},
	{"minlength: incremental 65", NULL, 65, {NULL}, {1, 2, 3, SQ_END},
	"86Rf07xd4zBmiJXQG6otHEbew02c3PWsUOLZxADhCpKj7aVFv9I8RquYrNlSTMyf1", {NULL}},
	{"minlength: incremental numbers 0, 0", NULL, 62, {NULL}, {0, 0, SQ_END},
	"SvIzsqYMyQwI3GWgJAe17URxX8V924Co0DaTZLtFjHriEn5bPhcSkfmvOslpBu", {NULL}},
	{"minlength: incremental numbers 0, 1", NULL, 62, {NULL}, {0, 1, SQ_END},
	"n3qafPOLKdfHpuNw3M61r95svbeJGk7aAEgYn4WlSjXURmF8IDqZBy0CT2VxQc", {NULL}},
	{"minlength: incremental numbers 0, 2", NULL, 62, {NULL}, {0, 2, SQ_END},
	"tryFJbWcFMiYPg8sASm51uIV93GXTnvRzyfLleh06CpodJD42B7OraKtkQNxUZ", {NULL}},
	{"minlength: incremental numbers 0, 3", NULL, 62, {NULL}, {0, 3, SQ_END},
	"eg6ql0A3XmvPoCzMlB6DraNGcWSIy5VR8iYup2Qk4tjZFKe1hbwfgHdUTsnLqE", {NULL}},
	{"minlength: incremental numbers 0, 4", NULL, 62, {NULL}, {0, 4, SQ_END},
	"rSCFlp0rB2inEljaRdxKt7FkIbODSf8wYgTsZM1HL9JzN35cyoqueUvVWCm4hX", {NULL}},
	{"minlength: incremental numbers 0, 5", NULL, 62, {NULL}, {0, 5, SQ_END},
	"sR8xjC8WQkOwo74PnglH1YFdTI0eaf56RGVSitzbjuZ3shNUXBrqLxEJyAmKv2", {NULL}},
	{"minlength: incremental numbers 0, 6", NULL, 62, {NULL}, {0, 6, SQ_END},
	"uY2MYFqCLpgx5XQcjdtZK286AwWV7IBGEfuS9yTmbJvkzoUPeYRHr4iDs3naN0", {NULL}},
	{"minlength: incremental numbers 0, 7", NULL, 62, {NULL}, {0, 7, SQ_END},
	"74dID7X28VLQhBlnGmjZrec5wTA1fqpWtK4YkaoEIM9SRNiC3gUJH0OFvsPDdy", {NULL}},
	{"minlength: incremental numbers 0, 8", NULL, 62, {NULL}, {0, 8, SQ_END},
	"30WXpesPhgKiEI5RHTY7xbB1GnytJvXOl2p0AcUjdF6waZDo9Qk8VLzMuWrqCS", {NULL}},
	{"minlength: incremental numbers 0, 9", NULL, 62, {NULL}, {0, 9, SQ_END},
	"moxr3HqLAK0GsTND6jowfZz3SUx7cQ8aC54Pl1RbIvFXmEJuBMYVeW9yrdOtin", {NULL}},
};

/* minlength.test.ts "min lengths": every pair decodes back, at least this long */
static const int sqids_min_lengths[] = {0, 1, 5, 10, 62};
static const int64_t sqids_min_length_numbers[][11] = {
	{0, SQ_END},
	{0, 0, 0, 0, 0, SQ_END},
	{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, SQ_END},
	{100, 200, 300, SQ_END},
	{1000, 2000, 3000, SQ_END},
	{1000000, SQ_END},
	{SQ_MAX_SAFE, SQ_END},
};

/* tests/internal/shuffle.test.ts: the default alphabet shuffled */
#define SQ_DEFAULT_SHUFFLED "fwjBhEY2uczNPDiloxmvISCrytaJO4d71T0W3qnMZbXVHg6eR8sAQ5KkpLUGF9"
