/*-------------------------------------------------------------------------
 *
 * sqids.c
 *	  Sqids encoding and decoding (pure C, no PostgreSQL calls), written
 *	  from the specification's reference (sqids-spec, src/index.ts).
 *
 *-------------------------------------------------------------------------
 */
#include "sqids.h"

#include <stdbool.h>
#include <string.h>

static inline unsigned char
ascii_lower(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') ? (unsigned char) (c + ('a' - 'A')) : c;
}

/* The specification's shuffle: the same output for the same alphabet. */
static void
shuffle(char *chars, int len)
{
	for (int i = 0, j = len - 1; j > 0; i++, j--)
	{
		int			r = (i * j + (unsigned char) chars[i] + (unsigned char) chars[j]) % len;
		char		t = chars[i];

		chars[i] = chars[r];
		chars[r] = t;
	}
}

ulid_sqids_status
ulid_sqids_init(ulid_sqids *s, const char *alphabet, size_t len, int min_length,
				ulid_sqids_error *err)
{
	return ulid_sqids_init_words(s, alphabet, len, min_length, ulid_sqids_blocklist,
								 ULID_SQIDS_BLOCKLIST_LEN, err);
}

ulid_sqids_status
ulid_sqids_init_words(ulid_sqids *s, const char *alphabet, size_t len,
					  int min_length, const char *const *words, int nwords,
					  ulid_sqids_error *err)
{
	bool		spells[256] = {false};

	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < len; i++)
	{
		unsigned char c = (unsigned char) alphabet[i];

		if (c >= 0x80)
		{
			err->pos = i;
			return ULID_SQIDS_ALPHABET_NOT_ASCII;
		}
		if (s->index[c])
		{
			err->pos = i;
			err->pos2 = s->index[c] - 1;
			return ULID_SQIDS_ALPHABET_REPEAT;
		}
		s->index[c] = (uint8_t) (i + 1);
		spells[ascii_lower(c)] = true;
	}
	if (len < ULID_SQIDS_MIN_ALPHABET || len > ULID_SQIDS_MAX_ALPHABET)
	{
		err->len = len;
		return ULID_SQIDS_ALPHABET_LENGTH;
	}
	if (min_length < 0 || min_length > ULID_SQIDS_MAX_MIN_LENGTH)
		return ULID_SQIDS_MIN_LENGTH;

	s->len = (int) len;
	s->min_length = min_length;
	memcpy(s->alphabet, alphabet, len);
	shuffle(s->alphabet, s->len);
	memset(s->index, 0, sizeof(s->index));
	for (int i = 0; i < s->len; i++)
		s->index[(unsigned char) s->alphabet[i]] = (uint8_t) (i + 1);

	/* the words of at least 3 characters the alphabet spells, any case */
	s->words = words;
	for (int w = 0; w < nwords && w < ULID_SQIDS_BLOCKLIST_LEN; w++)
	{
		const char *p = words[w];
		size_t		wlen = strlen(p);
		bool		ok = wlen >= 3 && wlen <= UINT8_MAX;

		for (; ok && *p; p++)
			ok = spells[ascii_lower((unsigned char) *p)];
		if (ok)
		{
			s->blocked_len[s->nblocked] = (uint8_t) wlen;
			s->blocked_digit[s->nblocked] = strpbrk(words[w], "0123456789") != NULL;
			s->blocked[s->nblocked++] = (uint16_t) w;
		}
	}
	return ULID_SQIDS_OK;
}

/* Whether id[at..at + wlen) is the word w, both in any case. */
static inline bool
word_at(const char *id, size_t at, const char *w, size_t wlen)
{
	for (size_t i = 0; i < wlen; i++)
		if (ascii_lower((unsigned char) id[at + i]) != ascii_lower((unsigned char) w[i]))
			return false;
	return true;
}

/* Whether id holds a blocked word, matched as the specification matches them. */
static bool
is_blocked(const ulid_sqids *s, const char *id, size_t len)
{
	bool		present[256] = {false};	/* the id's characters, lowercase */

	for (size_t i = 0; i < len; i++)
		present[ascii_lower((unsigned char) id[i])] = true;
	for (int k = 0; k < s->nblocked; k++)
	{
		const char *w = s->words[s->blocked[k]];
		size_t		wlen = s->blocked_len[k];

		/* a word longer than the id, or whose first letter it lacks: no match */
		if (wlen > len || !present[ascii_lower((unsigned char) w[0])])
			continue;
		if (len <= 3 || wlen <= 3)
		{
			/* short ids and words match only whole */
			if (wlen == len && word_at(id, 0, w, wlen))
				return true;
		}
		else if (s->blocked_digit[k])
		{
			/* leet-speak words: only at either end */
			if (word_at(id, 0, w, wlen) || word_at(id, len - wlen, w, wlen))
				return true;
		}
		else
		{
			for (size_t i = 0; i + wlen <= len; i++)
				if (word_at(id, i, w, wlen))
					return true;
		}
	}
	return false;
}

/* One attempt of the specification's encodeNumbers with this increment. */
static size_t
encode_once(const ulid_sqids *s, const int64_t *nums, size_t n, int increment,
			char *out)
{
	int			len = s->len;
	uint64_t	offset = n % (uint64_t) len;
	char		alpha[ULID_SQIDS_MAX_ALPHABET];
	size_t		pos = 0;

	for (size_t i = 0; i < n; i++)
		offset = (offset + (unsigned char) s->alphabet[(uint64_t) nums[i] % (uint64_t) len] +
				  i % (uint64_t) len) % (uint64_t) len;
	offset = (offset + (uint64_t) increment) % (uint64_t) len;

	/* the alphabet rotated to start at offset (whose first is the prefix), reversed */
	out[pos++] = s->alphabet[offset];
	for (int k = 0; k < len; k++)
		alpha[k] = s->alphabet[(offset + (uint64_t) (len - 1 - k)) % (uint64_t) len];

	for (size_t i = 0; i < n; i++)
	{
		/* the number in base len - 1 over alpha[1..]: alpha[0] separates */
		uint64_t	v = (uint64_t) nums[i];
		char		digits[64];
		int			nd = 0;

		do
		{
			digits[nd++] = alpha[1 + v % (uint64_t) (len - 1)];
			v /= (uint64_t) (len - 1);
		} while (v > 0);
		while (nd > 0)
			out[pos++] = digits[--nd];
		if (i + 1 < n)
		{
			out[pos++] = alpha[0];
			shuffle(alpha, len);
		}
	}

	if ((size_t) s->min_length > pos)
	{
		/* a separator, then as much of the reshuffled alphabet as needed */
		out[pos++] = alpha[0];
		while ((size_t) s->min_length > pos)
		{
			size_t		take = (size_t) s->min_length - pos;

			if (take > (size_t) len)
				take = (size_t) len;
			shuffle(alpha, len);
			memcpy(out + pos, alpha, take);
			pos += take;
		}
	}
	return pos;
}

ulid_sqids_status
ulid_sqids_encode(const ulid_sqids *s, const int64_t *nums, size_t n,
				  char *out, size_t *outlen, ulid_sqids_error *err)
{
	*outlen = 0;
	for (size_t i = 0; i < n; i++)
	{
		if (nums[i] < 0)
		{
			err->pos = i;
			return ULID_SQIDS_NEGATIVE;
		}
	}
	if (n == 0)
		return ULID_SQIDS_OK;

	/* each blocked id is made again from the next rotation, len + 1 tries */
	for (int increment = 0; increment <= s->len; increment++)
	{
		size_t		len = encode_once(s, nums, n, increment, out);

		if (!is_blocked(s, out, len))
		{
			*outlen = len;
			return ULID_SQIDS_OK;
		}
	}
	return ULID_SQIDS_BLOCKED;
}

ulid_sqids_status
ulid_sqids_decode(const ulid_sqids *s, const char *id, size_t len,
				  int64_t *nums, size_t *n, ulid_sqids_error *err)
{
	int			alen = s->len;
	uint64_t	base = (uint64_t) (alen - 1);
	char		alpha[ULID_SQIDS_MAX_ALPHABET];
	uint8_t		at[256];		/* position of each character in alpha */
	int			offset;
	size_t		p = 1;

	*n = 0;
	for (size_t i = 0; i < len; i++)
	{
		if (s->index[(unsigned char) id[i]] == 0)
		{
			err->pos = i;
			return ULID_SQIDS_BAD_CHAR;
		}
	}
	if (len == 0)
		return ULID_SQIDS_OK;

	/* the prefix says where the rotated alphabet starts; reversed, as encoded */
	offset = s->index[(unsigned char) id[0]] - 1;
	for (int k = 0; k < alen; k++)
		alpha[k] = s->alphabet[(offset + alen - 1 - k) % alen];

	while (p < len)
	{
		size_t		q = p;
		uint64_t	v = 0;

		while (q < len && id[q] != alpha[0])
			q++;
		if (q == p)
			break;				/* two separators: the rest is padding */
		for (int k = 0; k < alen; k++)
			at[(unsigned char) alpha[k]] = (uint8_t) k;
		for (size_t i = p; i < q; i++)
		{
			uint64_t	d = at[(unsigned char) id[i]] - 1u;

			if (v > (UINT64_C(0x7FFFFFFFFFFFFFFF) - d) / base)
			{
				err->pos = p;
				err->len = q - p;
				return ULID_SQIDS_OVERFLOW;
			}
			v = v * base + d;
		}
		nums[(*n)++] = (int64_t) v;
		if (q < len)
			shuffle(alpha, alen);
		p = q + 1;
	}
	return ULID_SQIDS_OK;
}
