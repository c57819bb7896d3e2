/*
 * fuzz_public.c: libFuzzer target for the public faces of ids in the
 * pure-C core: the base32hex and Sqids decoders (with alphabets and
 * min_lengths from the input) and the keyed masks (secrets and ids from the
 * input).
 *
 * The first input byte selects what to run.  Beyond "no crash, no
 * sanitizer report": accepted base32hex re-encodes to its uppercase
 * spelling; decoded Sqids encode to an id that decodes to the same numbers;
 * every mask unmasks back, and a Snowflake mask stays within its layout;
 * an AES key wrap unwraps back, an accepted unwrap wraps back to its input,
 * and HKDF of any info gives a prefix of its longer output.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base32hex.h"
#include "bytes.h"
#include "kdf.h"
#include "mask.h"
#include "sqids.h"

#define REQUIRE(cond) do { if (!(cond)) abort(); } while (0)

static void
fuzz_base32hex(const char *s, size_t len)
{
	uint8_t		out[16];
	char		again[ULID_B32HEX_LEN];
	size_t		pos = SIZE_MAX;
	ulid_b32hex_status st = ulid_b32hex_decode(s, len, out, &pos);

	if (st == ULID_B32HEX_BAD_CHAR || st == ULID_B32HEX_BAD_LAST)
		REQUIRE(pos < len);
	if (st != ULID_B32HEX_OK)
		return;
	ulid_b32hex_encode(out, again);
	for (size_t i = 0; i < ULID_B32HEX_LEN; i++)
		REQUIRE(again[i] == ((s[i] >= 'a' && s[i] <= 'z') ? s[i] - 32 : s[i]));
}

static void
sqids_roundtrip(const ulid_sqids *sq, const int64_t *nums, size_t n)
{
	char	   *id = malloc(ulid_sqids_max_len(n));
	int64_t    *back = malloc(sizeof(int64_t) * (ulid_sqids_max_len(n) + 1));
	size_t		len,
				m;
	ulid_sqids_error e;
	ulid_sqids_status st = ulid_sqids_encode(sq, nums, n, id, &len, &e);

	REQUIRE(st == ULID_SQIDS_OK || st == ULID_SQIDS_BLOCKED);
	if (st == ULID_SQIDS_OK)
	{
		/* no numbers: the empty id, whatever min_length says (as the spec) */
		REQUIRE(n == 0 ? len == 0 : len >= (size_t) sq->min_length && len <= ulid_sqids_max_len(n));
		REQUIRE(ulid_sqids_decode(sq, id, len, back, &m, &e) == ULID_SQIDS_OK);
		REQUIRE(m == n && memcmp(back, nums, n * sizeof(int64_t)) == 0);
	}
	free(id);
	free(back);
}

/* [alphabet length, alphabet..., min_length, id...] or the default alphabet */
static void
fuzz_sqids(const uint8_t *data, size_t size, int custom)
{
	ulid_sqids	sq;
	ulid_sqids_error e;
	int64_t    *nums;
	size_t		n;
	size_t		alen = 0;
	int			min_length = 0;

	if (custom)
	{
		if (size < 2)
			return;
		alen = data[0];
		if (size < 2 + alen)
			return;
		min_length = data[1 + alen];
		if (ulid_sqids_init(&sq, (const char *) data + 1, alen, min_length, &e) != ULID_SQIDS_OK)
			return;
		data += 2 + alen;
		size -= 2 + alen;
	}
	else
		ulid_sqids_init(&sq, ULID_SQIDS_DEFAULT_ALPHABET, 62, 0, &e);

	nums = malloc(sizeof(int64_t) * (size + 1));
	if (ulid_sqids_decode(&sq, (const char *) data, size, nums, &n, &e) == ULID_SQIDS_OK)
	{
		REQUIRE(n <= size);
		sqids_roundtrip(&sq, nums, n);
	}
	/* and the input's words as numbers */
	n = size / 8;
	for (size_t i = 0; i < n; i++)
		nums[i] = (int64_t) (ulid_load_be64(data + 8 * i) >> 1);
	sqids_roundtrip(&sq, nums, n);
	free(nums);
}

/* [secret 16, id 16]: every mask round trips */
static void
fuzz_masks(const uint8_t *data, size_t size)
{
	ulid_mask_key key;
	uint8_t		id[16],
				m[16],
				back[16];

	if (size < 32)
		return;
	ulid_mask_key_init(&key, data);
	memcpy(id, data + 16, 16);

	ulid_mask128(&key, id, m);
	ulid_unmask128(&key, m, back);
	REQUIRE(memcmp(back, id, 16) == 0);
	if (ulid_uuidv47_encode(&key, id, m))
	{
		REQUIRE((m[6] >> 4) == 4 && ulid_uuidv47_decode(&key, m, back) && memcmp(back, id, 16) == 0);
	}
	if (ulid_uuidv47_decode(&key, id, m))
	{
		REQUIRE((m[6] >> 4) == 7 && ulid_uuidv47_encode(&key, m, back) && memcmp(back, id, 16) == 0);
	}

	for (int p = SFL_TWITTER; p < SFL_NUM_PRESETS; p++)
	{
		sfl_layout	l;
		char		msg[SFL_MSG_MAX];
		uint64_t	v = ulid_load_be64(id + 8),
					y,
					x;
		sfl_parts	parts;

		sfl_preset_layout((sfl_preset) p, p == SFL_SONYFLAKE ? INT64_C(1409529600000) : sfl_preset_epoch((sfl_preset) p),
						  1 + id[0] % 23, &l, msg, sizeof(msg));
		if (ulid_snowflake_mask(&key, &l, v, &y) == SFL_OK)
		{
			REQUIRE(sfl_unpack(&l, v, &parts) == SFL_OK && sfl_unpack(&l, y, &parts) == SFL_OK);
			REQUIRE((y >> 63) == (v >> 63));
			REQUIRE(ulid_snowflake_unmask(&key, &l, y, &x) == SFL_OK && x == v);
		}
		else
			REQUIRE(sfl_unpack(&l, v, &parts) != SFL_OK);
	}
}

/* the keyring's derivation and key wrap (kdf.h), KEK and data from the input */
static void
fuzz_kdf(const uint8_t *d, size_t len)
{
	uint8_t		kek[16] = {0},
				in[24] = {0},
				out[24],
				back[24],
				a[16],
				b[42];

	memcpy(kek, d, len < 16 ? len : 16);
	if (len > 16)
		memcpy(in, d + 16, len - 16 < 24 ? len - 16 : 24);
	ulid_aes_kw_wrap(kek, in, 2, out);
	REQUIRE(ulid_aes_kw_unwrap(kek, out, 2, back) && memcmp(back, in, 16) == 0);
	if (ulid_aes_kw_unwrap(kek, in, 2, back))
	{
		ulid_aes_kw_wrap(kek, back, 2, out);
		REQUIRE(memcmp(out, in, 24) == 0);
	}
	ulid_hkdf_sha256(kek, 16, d, len / 3, d, len / 2, d + len / 2, len - len / 2, a, sizeof(a));
	ulid_hkdf_sha256(kek, 16, d, len / 3, d, len / 2, d + len / 2, len - len / 2, b, sizeof(b));
	REQUIRE(memcmp(a, b, sizeof(a)) == 0);
}

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	switch (data[0] % 5)
	{
		case 0:
			fuzz_base32hex((const char *) data + 1, size - 1);
			break;
		case 1:
			fuzz_sqids(data + 1, size - 1, 0);
			break;
		case 2:
			fuzz_sqids(data + 1, size - 1, 1);
			break;
		case 3:
			fuzz_masks(data + 1, size - 1);
			break;
		case 4:
			fuzz_kdf(data + 1, size - 1);
			break;
	}
	return 0;
}
