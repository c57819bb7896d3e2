/*-------------------------------------------------------------------------
 *
 * kdf.c
 *	  SHA-256, HMAC-SHA256, HKDF-SHA256 and RFC 3394 AES key wrap (kdf.h).
 *
 * Straight from the specifications, for 32-byte roots and 16-byte keys:
 * nothing here is on a mask's path (keys are derived once, when a backend
 * loads its key cache).  Intermediate values that depend on a key are
 * wiped with ulid_wipe() before returning.
 *
 *-------------------------------------------------------------------------
 */
#include "kdf.h"

#include <string.h>

#include "aes128.h"
#include "randbuf.h"

static const uint32_t K256[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
};

#define ROR(x, n)	(((x) >> (n)) | ((x) << (32 - (n))))

static void
sha256_block(uint32_t h[8], const uint8_t *p)
{
	uint32_t	w[64];
	uint32_t	a = h[0], b = h[1], c = h[2], d = h[3],
				e = h[4], f = h[5], g = h[6], k = h[7];

	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t) p[4 * i] << 24 | (uint32_t) p[4 * i + 1] << 16 |
			(uint32_t) p[4 * i + 2] << 8 | p[4 * i + 3];
	for (int i = 16; i < 64; i++)
	{
		uint32_t	s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t	s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);

		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	for (int i = 0; i < 64; i++)
	{
		uint32_t	t1 = k + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) + ((e & f) ^ (~e & g)) + K256[i] + w[i];
		uint32_t	t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));

		k = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
	h[4] += e;
	h[5] += f;
	h[6] += g;
	h[7] += k;
	ulid_wipe(w, sizeof(w));
}

void
ulid_sha256_init(ulid_sha256 *ctx)
{
	static const uint32_t iv[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
	};

	memcpy(ctx->h, iv, sizeof(iv));
	ctx->bytes = 0;
	ctx->used = 0;
}

void
ulid_sha256_update(ulid_sha256 *ctx, const void *data, size_t len)
{
	const uint8_t *p = data;

	ctx->bytes += len;
	while (len > 0)
	{
		size_t		n = 64 - ctx->used;

		if (n > len)
			n = len;
		memcpy(ctx->buf + ctx->used, p, n);
		ctx->used += n;
		p += n;
		len -= n;
		if (ctx->used == 64)
		{
			sha256_block(ctx->h, ctx->buf);
			ctx->used = 0;
		}
	}
}

void
ulid_sha256_final(ulid_sha256 *ctx, uint8_t out[ULID_SHA256_BYTES])
{
	uint64_t	bits = ctx->bytes * 8;
	uint8_t		pad = 0x80;
	uint8_t		len[8];

	ulid_sha256_update(ctx, &pad, 1);
	pad = 0;
	while (ctx->used != 56)
		ulid_sha256_update(ctx, &pad, 1);
	for (int i = 0; i < 8; i++)
		len[i] = (uint8_t) (bits >> (56 - 8 * i));
	ulid_sha256_update(ctx, len, 8);
	for (int i = 0; i < 8; i++)
	{
		out[4 * i] = (uint8_t) (ctx->h[i] >> 24);
		out[4 * i + 1] = (uint8_t) (ctx->h[i] >> 16);
		out[4 * i + 2] = (uint8_t) (ctx->h[i] >> 8);
		out[4 * i + 3] = (uint8_t) ctx->h[i];
	}
	ulid_wipe(ctx, sizeof(*ctx));
}

/* HMAC-SHA256 of the concatenation of n parts */
static void
hmac_parts(const uint8_t *key, size_t keylen, int n, const void *const parts[],
		   const size_t lens[], uint8_t out[ULID_SHA256_BYTES])
{
	uint8_t		k[64] = {0};
	uint8_t		pad[64];
	uint8_t		inner[ULID_SHA256_BYTES];
	ulid_sha256 ctx;

	if (keylen > 64)
	{
		ulid_sha256_init(&ctx);
		ulid_sha256_update(&ctx, key, keylen);
		ulid_sha256_final(&ctx, k);
	}
	else if (keylen > 0)
		memcpy(k, key, keylen);

	for (int i = 0; i < 64; i++)
		pad[i] = k[i] ^ 0x36;
	ulid_sha256_init(&ctx);
	ulid_sha256_update(&ctx, pad, 64);
	for (int i = 0; i < n; i++)
		ulid_sha256_update(&ctx, parts[i], lens[i]);
	ulid_sha256_final(&ctx, inner);

	for (int i = 0; i < 64; i++)
		pad[i] = k[i] ^ 0x5c;
	ulid_sha256_init(&ctx);
	ulid_sha256_update(&ctx, pad, 64);
	ulid_sha256_update(&ctx, inner, sizeof(inner));
	ulid_sha256_final(&ctx, out);

	ulid_wipe(k, sizeof(k));
	ulid_wipe(pad, sizeof(pad));
	ulid_wipe(inner, sizeof(inner));
}

void
ulid_hmac_sha256(const uint8_t *key, size_t keylen,
				 const void *m1, size_t len1, const void *m2, size_t len2,
				 uint8_t out[ULID_SHA256_BYTES])
{
	const void *parts[2] = {m1, m2};
	size_t		lens[2] = {len1, len2};

	hmac_parts(key, keylen, 2, parts, lens, out);
}

void
ulid_hkdf_sha256(const uint8_t *ikm, size_t ikmlen,
				 const uint8_t *salt, size_t saltlen,
				 const void *info1, size_t info1len,
				 const void *info2, size_t info2len,
				 uint8_t *out, size_t len)
{
	static const uint8_t zeros[ULID_SHA256_BYTES] = {0};
	uint8_t		prk[ULID_SHA256_BYTES];
	uint8_t		t[ULID_SHA256_BYTES];
	uint8_t		counter = 0;
	const void *parts[4] = {t, info1, info2, &counter};
	size_t		lens[4] = {0, info1len, info2len, 1};

	/* extract: PRK = HMAC(salt, IKM) (no salt: 32 zero bytes) */
	if (saltlen == 0)
		ulid_hmac_sha256(zeros, sizeof(zeros), ikm, ikmlen, NULL, 0, prk);
	else
		ulid_hmac_sha256(salt, saltlen, ikm, ikmlen, NULL, 0, prk);

	/* expand: T(i) = HMAC(PRK, T(i-1) | info | i), T(0) empty */
	while (len > 0)
	{
		size_t		n = len < sizeof(t) ? len : sizeof(t);

		counter++;
		hmac_parts(prk, sizeof(prk), 4, parts, lens, t);
		lens[0] = sizeof(t);
		memcpy(out, t, n);
		out += n;
		len -= n;
	}
	ulid_wipe(prk, sizeof(prk));
	ulid_wipe(t, sizeof(t));
}

/* RFC 3394 section 2.2.1, with the index notation of section 2.2.3's alternative */
void
ulid_aes_kw_wrap(const uint8_t kek[16], const uint8_t *in, int n, uint8_t *out)
{
	ulid_aes128 aes;
	uint8_t		b[16];

	ulid_aes128_init(&aes, kek);
	memset(out, 0xa6, 8);
	memmove(out + 8, in, (size_t) n * 8);
	for (int j = 0; j <= 5; j++)
		for (int i = 1; i <= n; i++)
		{
			uint64_t	t = (uint64_t) n * j + i;

			memcpy(b, out, 8);
			memcpy(b + 8, out + 8 * i, 8);
			ulid_aes128_encrypt(&aes, b, b);
			for (int k = 0; k < 8; k++)
				out[k] = b[k] ^ (uint8_t) (t >> (56 - 8 * k));
			memcpy(out + 8 * i, b + 8, 8);
		}
	ulid_wipe(&aes, sizeof(aes));
	ulid_wipe(b, sizeof(b));
}

bool
ulid_aes_kw_unwrap(const uint8_t kek[16], const uint8_t *in, int n, uint8_t *out)
{
	ulid_aes128 aes;
	uint8_t		a[8];
	uint8_t		b[16];
	uint8_t		diff = 0;

	ulid_aes128_init(&aes, kek);
	memcpy(a, in, 8);
	memmove(out, in + 8, (size_t) n * 8);
	for (int j = 5; j >= 0; j--)
		for (int i = n; i >= 1; i--)
		{
			uint64_t	t = (uint64_t) n * j + i;

			for (int k = 0; k < 8; k++)
				b[k] = a[k] ^ (uint8_t) (t >> (56 - 8 * k));
			memcpy(b + 8, out + 8 * (i - 1), 8);
			ulid_aes128_decrypt(&aes, b, b);
			memcpy(a, b, 8);
			memcpy(out + 8 * (i - 1), b + 8, 8);
		}
	for (int k = 0; k < 8; k++)
		diff |= a[k] ^ 0xa6;
	if (diff != 0)
		ulid_wipe(out, (size_t) n * 8);
	ulid_wipe(&aes, sizeof(aes));
	ulid_wipe(b, sizeof(b));
	return diff == 0;
}
