/*-------------------------------------------------------------------------
 *
 * sqids.h
 *	  Sqids (sqids.org): short ids of lists of non-negative integers, as the
 *	  Sqids specification (github.com/sqids/sqids-spec, src/index.ts)
 *	  encodes and decodes them (pure C, no PostgreSQL calls).
 *
 * An alphabet of 3 to 127 distinct ASCII characters is shuffled once
 * (ulid_sqids_init); an id is a prefix character that rotates the
 * alphabet, then each number in base (alphabet size - 1) with a separator
 * character between numbers, the alphabet reshuffled after each.  An id
 * shorter than min_length is padded after a separator; one that contains a
 * word of the blocklist is made again from the next rotation.  Numbers are
 * 0 .. 2^63 - 1 here (the specification leaves the largest to each
 * implementation).  Decoding follows the specification, which accepts ids
 * that encoding would not make (blocked ones, padding, leading "zeros"):
 * the one difference is a character outside the alphabet, which the
 * specification answers with no numbers and this decoder with an error.
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_SQIDS_H
#define ULID_SQIDS_H

#include <stddef.h>
#include <stdint.h>

#define ULID_SQIDS_MIN_ALPHABET		3
#define ULID_SQIDS_MAX_ALPHABET		127 /* distinct ASCII bytes but NUL */
#define ULID_SQIDS_MAX_MIN_LENGTH	255
#define ULID_SQIDS_BLOCKLIST_LEN	560
#define ULID_SQIDS_DEFAULT_ALPHABET \
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

/* the specification's default blocklist (sqids_blocklist.c) */
extern const char *const ulid_sqids_blocklist[ULID_SQIDS_BLOCKLIST_LEN];

typedef enum ulid_sqids_status
{
	ULID_SQIDS_OK = 0,
	ULID_SQIDS_ALPHABET_LENGTH, /* fewer than 3 or more than 127 bytes */
	ULID_SQIDS_ALPHABET_NOT_ASCII,	/* byte at pos is not ASCII */
	ULID_SQIDS_ALPHABET_REPEAT, /* byte at pos occurs earlier, at pos2 */
	ULID_SQIDS_MIN_LENGTH,		/* min_length is not 0..255 */
	ULID_SQIDS_NEGATIVE,		/* encode: number at pos is negative */
	ULID_SQIDS_BLOCKED,			/* encode: every rotation has a blocked word */
	ULID_SQIDS_BAD_CHAR,		/* decode: byte at pos is not in the alphabet */
	ULID_SQIDS_OVERFLOW			/* decode: the number at pos (len bytes) >= 2^63 */
} ulid_sqids_status;

/* Where a status points: byte offsets in the alphabet, numbers or id. */
typedef struct ulid_sqids_error
{
	size_t		pos;
	size_t		pos2;
	size_t		len;
} ulid_sqids_error;

/* An alphabet ready to use: shuffled, with the blocklist words it can spell. */
typedef struct ulid_sqids
{
	int			len;
	int			min_length;
	char		alphabet[ULID_SQIDS_MAX_ALPHABET];
	uint8_t		index[256];		/* position + 1 in alphabet, 0: absent */
	const char *const *words;	/* the blocklist */
	int			nblocked;
	uint16_t	blocked[ULID_SQIDS_BLOCKLIST_LEN];	/* the words it spells */
	uint8_t		blocked_len[ULID_SQIDS_BLOCKLIST_LEN];	/* their lengths */
	uint8_t		blocked_digit[ULID_SQIDS_BLOCKLIST_LEN];	/* 1: has a digit */
} ulid_sqids;

/* With the specification's default blocklist. */
extern ulid_sqids_status ulid_sqids_init(ulid_sqids *s, const char *alphabet,
										 size_t len, int min_length,
										 ulid_sqids_error *err);

/*
 * With a blocklist of nwords (at most ULID_SQIDS_BLOCKLIST_LEN) words of
 * any case, which must outlive s (the specification's own tests use this).
 */
extern ulid_sqids_status ulid_sqids_init_words(ulid_sqids *s,
											   const char *alphabet, size_t len,
											   int min_length,
											   const char *const *words,
											   int nwords,
											   ulid_sqids_error *err);

/* Room encode needs for n numbers: an upper bound of the id's length. */
static inline size_t
ulid_sqids_max_len(size_t n)
{
	/* prefix, 63 binary digits and a separator per number; or the padding */
	return 1 + 64 * n + ULID_SQIDS_MAX_MIN_LENGTH;
}

/*
 * Encode nums[0..n) (each >= 0) into out (ulid_sqids_max_len(n) bytes, no
 * terminator), its length in *outlen.  n = 0 gives the empty id.
 */
extern ulid_sqids_status ulid_sqids_encode(const ulid_sqids *s,
										   const int64_t *nums, size_t n,
										   char *out, size_t *outlen,
										   ulid_sqids_error *err);

/*
 * Decode id[0..len) into nums (room for len numbers: an id never holds
 * more), their count in *n.
 */
extern ulid_sqids_status ulid_sqids_decode(const ulid_sqids *s,
										   const char *id, size_t len,
										   int64_t *nums, size_t *n,
										   ulid_sqids_error *err);

#endif							/* ULID_SQIDS_H */
