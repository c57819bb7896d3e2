/*
 * Unit tests of the keyed masks (src/core/mask.c) and what they are built
 * from (siphash.c, aes128.c): published vectors (SipHash's paper, FIPS 197,
 * OpenSSL, the UUIDv47 reference), round trips, and bijection: every value
 * of every domain up to 16 bits (24 with ULID_MASK_FULL=1) and 10^5 random
 * ids of each Snowflake preset (10^7 with ULID_MASK_FULL=1, which
 * test/bench/bench_75_masks.sh runs).
 */
#include <stdint.h>
#include <stdlib.h>

#include "bytes.h"
#include "mask.h"
#include "rng.h"
#include "unit.h"
#include "uuidv47_vectors.h"

static int	full = 0;

static void
unhex(const char *h, uint8_t *out, int n)
{
	for (int i = 0, j = 0; i < n; j++)
	{
		if (h[j] == '-')
			continue;
		unsigned int b;

		sscanf(h + j, "%2x", &b);
		out[i++] = (uint8_t) b;
		j++;
	}
}

/* SipHash-2-4 of 00 01 02 ... (length 0..63) with key 00..0f: the paper's vectors */
static const uint64_t sip24_vectors[64] = {
	UINT64_C(0x726fdb47dd0e0e31),	UINT64_C(0x74f839c593dc67fd),
	UINT64_C(0x0d6c8009d9a94f5a),	UINT64_C(0x85676696d7fb7e2d),
	UINT64_C(0xcf2794e0277187b7),	UINT64_C(0x18765564cd99a68d),
	UINT64_C(0xcbc9466e58fee3ce),	UINT64_C(0xab0200f58b01d137),
	UINT64_C(0x93f5f5799a932462),	UINT64_C(0x9e0082df0ba9e4b0),
	UINT64_C(0x7a5dbbc594ddb9f3),	UINT64_C(0xf4b32f46226bada7),
	UINT64_C(0x751e8fbc860ee5fb),	UINT64_C(0x14ea5627c0843d90),
	UINT64_C(0xf723ca908e7af2ee),	UINT64_C(0xa129ca6149be45e5),
	UINT64_C(0x3f2acc7f57c29bdb),	UINT64_C(0x699ae9f52cbe4794),
	UINT64_C(0x4bc1b3f0968dd39c),	UINT64_C(0xbb6dc91da77961bd),
	UINT64_C(0xbed65cf21aa2ee98),	UINT64_C(0xd0f2cbb02e3b67c7),
	UINT64_C(0x93536795e3a33e88),	UINT64_C(0xa80c038ccd5ccec8),
	UINT64_C(0xb8ad50c6f649af94),	UINT64_C(0xbce192de8a85b8ea),
	UINT64_C(0x17d835b85bbb15f3),	UINT64_C(0x2f2e6163076bcfad),
	UINT64_C(0xde4daaaca71dc9a5),	UINT64_C(0xa6a2506687956571),
	UINT64_C(0xad87a3535c49ef28),	UINT64_C(0x32d892fad841c342),
	UINT64_C(0x7127512f72f27cce),	UINT64_C(0xa7f32346f95978e3),
	UINT64_C(0x12e0b01abb051238),	UINT64_C(0x15e034d40fa197ae),
	UINT64_C(0x314dffbe0815a3b4),	UINT64_C(0x027990f029623981),
	UINT64_C(0xcadcd4e59ef40c4d),	UINT64_C(0x9abfd8766a33735c),
	UINT64_C(0x0e3ea96b5304a7d0),	UINT64_C(0xad0c42d6fc585992),
	UINT64_C(0x187306c89bc215a9),	UINT64_C(0xd4a60abcf3792b95),
	UINT64_C(0xf935451de4f21df2),	UINT64_C(0xa9538f0419755787),
	UINT64_C(0xdb9acddff56ca510),	UINT64_C(0xd06c98cd5c0975eb),
	UINT64_C(0xe612a3cb9ecba951),	UINT64_C(0xc766e62cfcadaf96),
	UINT64_C(0xee64435a9752fe72),	UINT64_C(0xa192d576b245165a),
	UINT64_C(0x0a8787bf8ecb74b2),	UINT64_C(0x81b3e73d20b49b6f),
	UINT64_C(0x7fa8220ba3b2ecea),	UINT64_C(0x245731c13ca42499),
	UINT64_C(0xb78dbfaf3a8d83bd),	UINT64_C(0xea1ad565322a1a0b),
	UINT64_C(0x60e61c23a3795013),	UINT64_C(0x6606d7e446282b93),
	UINT64_C(0x6ca4ecb15c5f91e1),	UINT64_C(0x9f626da15c9625f3),
	UINT64_C(0xe51b38608ef25f57),	UINT64_C(0x958a324ceb064572),
};

/* a plain SipHash-1-3, written apart from siphash.c: byte by byte */
static uint64_t
naive_siphash13(uint64_t k0, uint64_t k1, const uint8_t *m, size_t len)
{
	uint64_t	v[4] = {k0 ^ UINT64_C(0x736f6d6570736575), k1 ^ UINT64_C(0x646f72616e646f6d),
	k0 ^ UINT64_C(0x6c7967656e657261), k1 ^ UINT64_C(0x7465646279746573)};
	size_t		blocks = len / 8 + 1;

	for (size_t b = 0; b < blocks; b++)
	{
		uint64_t	w = 0;

		for (int i = 0; i < 8; i++)
		{
			size_t		at = b * 8 + (size_t) i;

			if (at < len)
				w |= (uint64_t) m[at] << (8 * i);
		}
		if (b + 1 == blocks)
			w |= (uint64_t) (len & 0xff) << 56;
		v[3] ^= w;
		ULID_SIPROUND(v[0], v[1], v[2], v[3]);
		v[0] ^= w;
	}
	v[2] ^= 0xff;
	for (int r = 0; r < 3; r++)
		ULID_SIPROUND(v[0], v[1], v[2], v[3]);
	return v[0] ^ v[1] ^ v[2] ^ v[3];
}

/* key, plaintext, ciphertext: FIPS 197 appendices C.1 and B, then OpenSSL 3.0 (aes-128-ecb -nopad) */
static const char *const aes_vectors[][3] = {
	{"000102030405060708090a0b0c0d0e0f", "00112233445566778899aabbccddeeff", "69c4e0d86a7b0430d8cdb78070b4c55a"},
	{"2b7e151628aed2a6abf7158809cf4f3c", "3243f6a8885a308d313198a2e0370734", "3925841d02dc09fbdc118597196a0b32"},
	{"c2e9398f513113b039abf0e3222f5b78", "0c3a788a7d89ae088fdded0dc29abdbb", "bdf31c46555f22bef669114d7fe09538"},
	{"3701c7b070e719951e7f1988b0c37258", "5f4b7ec425a57aad13c19ebc4e46e6d9", "0e190c280b95d4ca56e28732deb636f0"},
	{"7dd9be7ee79e106d90f8f6fcae02ddbf", "4552cd12d3c64e20efc1de8d9dc20b15", "6bfc324a4e4fd2d5d00ffb4ff841167b"},
	{"b3a34da7e3f2c713fb30c53ce161ab94", "349fb385253448be7b386d729dc1a002", "0bbd0a9f61fbf7a964c802c2ef6ce73e"},
	{"ad3d864c2b472840bdee08e7c0c2d278", "febf08adc9806aff3fda8c74ec836790", "6ca7c7d9afc13e1399018665e4d21f0f"},
	{"b82508027100b511e34ba2153d0a0910", "644150ea030dc370699e41fe2327f2aa", "9c01a30e0e67eaed34323077e7c16fae"},
};

static void
test_siphash(void)
{
	uint8_t		m[64];
	ulid_sipkey k;
	int			bad = 0;

	for (int i = 0; i < 64; i++)
		m[i] = (uint8_t) i;
	ulid_sip_init(&k, UINT64_C(0x0706050403020100), UINT64_C(0x0f0e0d0c0b0a0908));
	for (int n = 0; n < 64; n++)
		bad += ulid_siphash24(&k, m, (size_t) n) != sip24_vectors[n];
	CHECK(bad == 0, "SipHash-2-4: the paper's 64 vectors (%d differ)", bad);

	bad = 0;
	for (int round = 0; round < 2000; round++)
	{
		uint64_t	k0 = test_rng(),
					k1 = test_rng();
		size_t		len = (size_t) (test_rng() % 40);
		uint8_t		msg[40];

		for (size_t i = 0; i < len; i++)
			msg[i] = (uint8_t) test_rng();
		ulid_sip_init(&k, k0, k1);
		bad += ulid_siphash13(&k, msg, len) != naive_siphash13(k0, k1, msg, len);
		if (len < 8)
		{
			uint64_t	block = (uint64_t) len << 56;

			for (size_t i = 0; i < len; i++)
				block |= (uint64_t) msg[i] << (8 * i);
			bad += ulid_siphash13_block(&k, block) != naive_siphash13(k0, k1, msg, len);
		}
	}
	CHECK(bad == 0, "SipHash-1-3 (and its one-block form) agrees with a plain one on 2000 messages (%d differ)", bad);
}

static void
test_aes(void)
{
	bool		hw = ulid_aes128_hw_available();
	int			bad = 0;

	printf("# AES instructions: %s\n", hw ? "used" : "not available, portable C only");
	for (size_t v = 0; v < sizeof(aes_vectors) / sizeof(aes_vectors[0]); v++)
	{
		uint8_t		key[16],
					pt[16],
					ct[16],
					out[16];
		ulid_aes128 ctx;

		unhex(aes_vectors[v][0], key, 16);
		unhex(aes_vectors[v][1], pt, 16);
		unhex(aes_vectors[v][2], ct, 16);
		ulid_aes128_init(&ctx, key);
		for (int pass = 0; pass < 2; pass++)
		{
			ctx.hw = pass == 0 ? hw : false;
			ulid_aes128_encrypt(&ctx, pt, out);
			CHECK(memcmp(out, ct, 16) == 0, "AES-128 vector %zu encrypts (%s)", v, ctx.hw ? "AES-NI" : "portable");
			ulid_aes128_decrypt(&ctx, ct, out);
			CHECK(memcmp(out, pt, 16) == 0, "AES-128 vector %zu decrypts (%s)", v, ctx.hw ? "AES-NI" : "portable");
		}
	}

	/* the instructions and the portable code agree, and decrypting inverts */
	for (int round = 0; round < 5000; round++)
	{
		uint8_t		key[16],
					in[16],
					a[16],
					b[16],
					back[16];
		ulid_aes128 ctx;

		ulid_store_be64(key, test_rng());
		ulid_store_be64(key + 8, test_rng());
		ulid_store_be64(in, test_rng());
		ulid_store_be64(in + 8, test_rng());
		ulid_aes128_init(&ctx, key);
		ulid_aes128_encrypt(&ctx, in, a);
		ctx.hw = false;
		ulid_aes128_encrypt(&ctx, in, b);
		ulid_aes128_decrypt(&ctx, b, back);
		bad += memcmp(a, b, 16) != 0 || memcmp(back, in, 16) != 0;
		ctx.hw = hw;
		ulid_aes128_decrypt(&ctx, a, back);
		bad += memcmp(back, in, 16) != 0;
	}
	CHECK(bad == 0, "AES-128: both implementations agree and invert on 5000 random keys and blocks (%d differ)", bad);
}

static void
test_uuidv47(void)
{
	int			bad = 0,
				n = (int) (sizeof(uuidv47_vectors) / sizeof(uuidv47_vectors[0]));
	ulid_mask_key key;
	uint8_t		secret[16],
				v7[16],
				facade[16],
				out[16];

	for (int i = 0; i < n; i++)
	{
		unhex(uuidv47_vectors[i][0], secret, 16);
		unhex(uuidv47_vectors[i][1], v7, 16);
		unhex(uuidv47_vectors[i][2], facade, 16);
		ulid_mask_key_init(&key, secret);
		bad += !ulid_uuidv47_encode(&key, v7, out) || memcmp(out, facade, 16) != 0;
		bad += !ulid_uuidv47_decode(&key, facade, out) || memcmp(out, v7, 16) != 0;
	}
	CHECK(bad == 0, "UUIDv47: the reference's %d vectors encode and decode (%d differ)", n, bad);

	unhex("000102030405060708090a0b0c0d0e0f", secret, 16);
	ulid_mask_key_init(&key, secret);
	memset(out, 0xAA, 16);
	unhex("018eafc1-8435-495c-a58c-d434d0641a13", v7, 16);	/* version 4 */
	CHECK(!ulid_uuidv47_encode(&key, v7, out) && out[0] == 0xAA, "encode refuses a version 4 UUID");
	unhex("018eafc1-8435-795c-e58c-d434d0641a13", v7, 16);	/* variant 111 */
	CHECK(!ulid_uuidv47_encode(&key, v7, out), "encode refuses a UUIDv7 bit pattern of another variant");
	unhex("1ace649f-4282-795c-a58c-d434d0641a13", facade, 16);	/* version 7 */
	CHECK(!ulid_uuidv47_decode(&key, facade, out) && out[0] == 0xAA, "decode refuses a version 7 UUID");
	unhex("1ace649f-4282-495c-258c-d434d0641a13", facade, 16);	/* variant 0 */
	CHECK(!ulid_uuidv47_decode(&key, facade, out), "decode refuses a version 4 bit pattern of variant 0");

	/* any UUIDv7 round trips; the facade keeps the random bits and is version 4 */
	bad = 0;
	for (int round = 0; round < 100000; round++)
	{
		uint8_t		back[16];

		ulid_store_be64(v7, (test_rng() & ~UINT64_C(0xF000)) | 0x7000);
		ulid_store_be64(v7 + 8, (test_rng() >> 2) | (UINT64_C(2) << 62));
		bad += !ulid_uuidv47_encode(&key, v7, facade) || (facade[6] >> 4) != 4 ||
			memcmp(facade + 6, v7 + 6, 0) != 0 || (facade[6] & 15) != (v7[6] & 15) ||
			memcmp(facade + 7, v7 + 7, 9) != 0 ||
			!ulid_uuidv47_decode(&key, facade, back) || memcmp(back, v7, 16) != 0;
	}
	CHECK(bad == 0, "UUIDv47: 100000 random UUIDv7s round trip, keeping the random bits (%d did not)", bad);
}

static void
test_ulid_mask(void)
{
	ulid_mask_key key;
	uint8_t		secret[16] = {0},
				id[16],
				masked[16],
				back[16],
				prev[16] = {0};
	int			bad = 0,
				same_time = 0;

	ulid_mask_key_init(&key, secret);
	/* 10000 consecutive ids of one millisecond (a monotonic generator's) */
	ulid_store_be64(id, (UINT64_C(1712345678901) << 16) | 0x1234);
	ulid_store_be64(id + 8, UINT64_C(0x0cf05803c72d06e7));
	for (int i = 0; i < 10000; i++)
	{
		ulid_store_be64(id + 8, ulid_load_be64(id + 8) + 1);
		ulid_mask128(&key, id, masked);
		ulid_unmask128(&key, masked, back);
		bad += memcmp(back, id, 16) != 0;
		same_time += memcmp(masked, prev, 6) == 0;
		memcpy(prev, masked, 16);
	}
	CHECK(bad == 0, "ulid mask: 10000 consecutive ids unmask back");
	CHECK(same_time == 0, "ulid mask: no two consecutive masks share their time bytes");

	/* the mask is AES-128 under the secret: FIPS 197's C.1 vector */
	unhex("000102030405060708090a0b0c0d0e0f", secret, 16);
	unhex("00112233445566778899aabbccddeeff", id, 16);
	ulid_mask_key_init(&key, secret);
	ulid_mask128(&key, id, masked);
	unhex("69c4e0d86a7b0430d8cdb78070b4c55a", back, 16);
	CHECK(memcmp(masked, back, 16) == 0, "ulid mask is AES-128 of the 16 bytes under the secret");
}

/* a bitmap of 2^bits values: every y = F(x) seen once and F^-1(y) = x */
static int
check_fpe_domain(const ulid_sipkey *k, int bits, int tag)
{
	uint64_t	n = UINT64_C(1) << bits;
	uint8_t    *seen = calloc((size_t) (n / 8 + 1), 1);
	int			bad = 0;

	for (uint64_t x = 0; x < n; x++)
	{
		uint64_t	y = ulid_fpe_encrypt(k, x, bits, tag);

		if (y >= n || (seen[y / 8] & (1 << (y % 8))) || ulid_fpe_decrypt(k, y, bits, tag) != x)
			bad++;
		else
			seen[y / 8] |= (uint8_t) (1 << (y % 8));
	}
	free(seen);
	return bad;
}

static sfl_layout
layout(const char *text)
{
	sfl_layout	l;
	char		msg[SFL_MSG_MAX];

	if (sfl_parse(text, strlen(text), &l, msg, sizeof(msg)) != SFL_OK)
	{
		printf("# %s: %s\n", text, msg);
		fflush(stdout);
		abort();
	}
	return l;
}

static void
test_snowflake(void)
{
	ulid_mask_key key;
	uint8_t		secret[16];
	int			max_bits = full ? 24 : 16;
	long		per_preset = full ? 10000000L : 100000L;

	for (int i = 0; i < 16; i++)
		secret[i] = (uint8_t) (0xA0 + i);
	ulid_mask_key_init(&key, secret);

	for (int bits = 1; bits <= max_bits; bits++)
	{
		int			bad = check_fpe_domain(&key.snowflake, bits, 0);

		CHECK(bad == 0, "Feistel on %d bits: a bijection on all %llu values", bits,
			  (unsigned long long) (UINT64_C(1) << bits));
	}
	CHECK(check_fpe_domain(&key.snowflake, 15, 1) == 0, "Feistel on 15 bits, SCRU64's tag: a bijection");
	CHECK(ulid_fpe_encrypt(&key.snowflake, 12345, 20, 0) != ulid_fpe_encrypt(&key.snowflake, 12345, 20, 1),
		  "the domain tag changes the permutation");
	CHECK(ulid_fpe_encrypt(&key.snowflake, 12345, 20, 0) != ulid_fpe_encrypt(&key.snowflake, 12345, 21, 0),
		  "the width changes the permutation");

	/* small custom layouts, every id through the layout's mask */
	{
		const char *small[] = {
			"custom(time=1:ms:0, fields=n:1, sequence=1)",
			"custom(time=5:ms:0, fields=n:2, sequence=3)",
			"custom(time=8:ms:0, fields=dc:2+w:3, sequence=3, sequence_above_node=true)",
			"custom(time=12:s:0, fields=n:4, sequence=4)",
			"custom(time=14:10ms:0, fields=n:3, sequence=7)",
		};

		for (size_t i = 0; i < sizeof(small) / sizeof(small[0]); i++)
		{
			sfl_layout	l = layout(small[i]);
			uint64_t	n = UINT64_C(1) << l.width;
			uint8_t    *seen;
			int			bad = 0;
			uint64_t	y,
						x;

			if (l.width > max_bits)
				continue;
			seen = calloc((size_t) (n / 8 + 1), 1);
			for (uint64_t id = 0; id < n; id++)
			{
				if (ulid_snowflake_mask(&key, &l, id, &y) != SFL_OK || y >= n ||
					(seen[y / 8] & (1 << (y % 8))) ||
					ulid_snowflake_unmask(&key, &l, y, &x) != SFL_OK || x != id)
					bad++;
				else
					seen[y / 8] |= (uint8_t) (1 << (y % 8));
			}
			free(seen);
			CHECK(bad == 0, "%s (%d bits): every id masks to a distinct id and back", small[i], l.width);
			CHECK(ulid_snowflake_mask(&key, &l, n, &y) == SFL_ERR_RANGE,
				  "%s: an id past the layout's bits is out of range", small[i]);
		}
	}

	/* every preset: random valid ids mask to valid ids of the layout and back */
	for (int p = SFL_TWITTER; p < SFL_NUM_PRESETS; p++)
	{
		sfl_layout	l;
		char		msg[SFL_MSG_MAX];
		int			bad = 0,
					negative = 0,
					moved = 0;
		sfl_parts	parts;

		sfl_preset_layout((sfl_preset) p, p == SFL_SONYFLAKE ? INT64_C(1409529600000) : sfl_preset_epoch((sfl_preset) p),
						  8, &l, msg, sizeof(msg));
		for (long i = 0; i < per_preset; i++)
		{
			uint64_t	id = test_rng() & sfl_mask(l.width),
						y,
						x;

			if (p == SFL_SCRU64)
				id %= SFL_SCRU64_LIMIT;
			if (l.width == 64)
				id >>= 1;		/* a non-negative bigint */
			if (ulid_snowflake_mask(&key, &l, id, &y) != SFL_OK ||
				sfl_unpack(&l, y, &parts) != SFL_OK ||
				ulid_snowflake_unmask(&key, &l, y, &x) != SFL_OK || x != id)
				bad++;
			negative += (int64_t) y < 0;
			moved += y != id;
		}
		CHECK(bad == 0, "%s: %ld random ids mask to ids of the layout and back (%d did not)",
			  sfl_preset_name((sfl_preset) p), per_preset, bad);
		CHECK(negative == 0, "%s: no masked id is negative", sfl_preset_name((sfl_preset) p));
		CHECK(moved == per_preset, "%s: no id masks to itself", sfl_preset_name((sfl_preset) p));
	}
	{
		/* a 64-bit layout keeps the top bit; js_safe stays below 2^53 */
		sfl_layout	l;
		char		msg[SFL_MSG_MAX];
		uint64_t	y;

		sfl_preset_layout(SFL_DISCORD, sfl_preset_epoch(SFL_DISCORD), 0, &l, msg, sizeof(msg));
		CHECK(l.width == 64 && ulid_snowflake_mask(&key, &l, UINT64_MAX, &y) == SFL_OK && (y >> 63) == 1,
			  "discord (64 bits): a negative bigint stays negative");
		sfl_preset_layout(SFL_JS_SAFE_MS, sfl_preset_epoch(SFL_JS_SAFE_MS), 0, &l, msg, sizeof(msg));
		CHECK(ulid_snowflake_mask(&key, &l, (UINT64_C(1) << 53) - 1, &y) == SFL_OK && y < (UINT64_C(1) << 53),
			  "js_safe_ms: the largest id masks below 2^53");
		CHECK(ulid_snowflake_mask(&key, &l, UINT64_C(1) << 53, &y) == SFL_ERR_RANGE,
			  "js_safe_ms: 2^53 is out of range");
		sfl_preset_layout(SFL_SCRU64, 0, 8, &l, msg, sizeof(msg));
		CHECK(ulid_snowflake_mask(&key, &l, SFL_SCRU64_LIMIT, &y) == SFL_ERR_RANGE &&
			  ulid_snowflake_unmask(&key, &l, SFL_SCRU64_LIMIT, &y) == SFL_ERR_RANGE,
			  "scru64: 36^12 is out of range both ways");
	}

	/* another key gives another permutation */
	{
		ulid_mask_key other;
		int			same = 0;

		secret[0] ^= 1;
		ulid_mask_key_init(&other, secret);
		for (uint64_t x = 0; x < 1000; x++)
			same += ulid_fpe_encrypt(&key.snowflake, x, 63, 0) == ulid_fpe_encrypt(&other.snowflake, x, 63, 0);
		CHECK(same == 0, "a secret one bit apart masks 1000 ids differently");
	}
}

int
main(void)
{
	full = getenv("ULID_MASK_FULL") != NULL && strcmp(getenv("ULID_MASK_FULL"), "1") == 0;
	test_siphash();
	test_aes();
	test_uuidv47();
	test_ulid_mask();
	test_snowflake();
	return unit_done();
}
