/*-------------------------------------------------------------------------
 *
 * aes128.c
 *	  AES-128 on one block (pure C, no PostgreSQL calls), written from
 *	  FIPS 197: a portable implementation and, on x86, the AES-NI one.
 *
 * The state is the 16 bytes in FIPS 197's order (column-major: byte r + 4c
 * is row r of column c), which is also the order the instructions load.
 * The key schedule is computed in C for both; decryption runs the
 * "equivalent inverse cipher" (FIPS 197 section 5.3.5), whose middle round
 * keys are InvMixColumns of the encryption keys, in reverse order.
 *
 *-------------------------------------------------------------------------
 */
#include "aes128.h"

#include <string.h>

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define ULID_AES_NI 1
#include <wmmintrin.h>
#endif

/* SubBytes and its inverse: the multiplicative inverse in GF(2^8), then the affine map */
static const uint8_t sbox[256] = {
	0x63, 0x7c, 0x77, 0x7b, 0xf2, 0x6b, 0x6f, 0xc5, 0x30, 0x01, 0x67, 0x2b, 0xfe, 0xd7, 0xab, 0x76,
	0xca, 0x82, 0xc9, 0x7d, 0xfa, 0x59, 0x47, 0xf0, 0xad, 0xd4, 0xa2, 0xaf, 0x9c, 0xa4, 0x72, 0xc0,
	0xb7, 0xfd, 0x93, 0x26, 0x36, 0x3f, 0xf7, 0xcc, 0x34, 0xa5, 0xe5, 0xf1, 0x71, 0xd8, 0x31, 0x15,
	0x04, 0xc7, 0x23, 0xc3, 0x18, 0x96, 0x05, 0x9a, 0x07, 0x12, 0x80, 0xe2, 0xeb, 0x27, 0xb2, 0x75,
	0x09, 0x83, 0x2c, 0x1a, 0x1b, 0x6e, 0x5a, 0xa0, 0x52, 0x3b, 0xd6, 0xb3, 0x29, 0xe3, 0x2f, 0x84,
	0x53, 0xd1, 0x00, 0xed, 0x20, 0xfc, 0xb1, 0x5b, 0x6a, 0xcb, 0xbe, 0x39, 0x4a, 0x4c, 0x58, 0xcf,
	0xd0, 0xef, 0xaa, 0xfb, 0x43, 0x4d, 0x33, 0x85, 0x45, 0xf9, 0x02, 0x7f, 0x50, 0x3c, 0x9f, 0xa8,
	0x51, 0xa3, 0x40, 0x8f, 0x92, 0x9d, 0x38, 0xf5, 0xbc, 0xb6, 0xda, 0x21, 0x10, 0xff, 0xf3, 0xd2,
	0xcd, 0x0c, 0x13, 0xec, 0x5f, 0x97, 0x44, 0x17, 0xc4, 0xa7, 0x7e, 0x3d, 0x64, 0x5d, 0x19, 0x73,
	0x60, 0x81, 0x4f, 0xdc, 0x22, 0x2a, 0x90, 0x88, 0x46, 0xee, 0xb8, 0x14, 0xde, 0x5e, 0x0b, 0xdb,
	0xe0, 0x32, 0x3a, 0x0a, 0x49, 0x06, 0x24, 0x5c, 0xc2, 0xd3, 0xac, 0x62, 0x91, 0x95, 0xe4, 0x79,
	0xe7, 0xc8, 0x37, 0x6d, 0x8d, 0xd5, 0x4e, 0xa9, 0x6c, 0x56, 0xf4, 0xea, 0x65, 0x7a, 0xae, 0x08,
	0xba, 0x78, 0x25, 0x2e, 0x1c, 0xa6, 0xb4, 0xc6, 0xe8, 0xdd, 0x74, 0x1f, 0x4b, 0xbd, 0x8b, 0x8a,
	0x70, 0x3e, 0xb5, 0x66, 0x48, 0x03, 0xf6, 0x0e, 0x61, 0x35, 0x57, 0xb9, 0x86, 0xc1, 0x1d, 0x9e,
	0xe1, 0xf8, 0x98, 0x11, 0x69, 0xd9, 0x8e, 0x94, 0x9b, 0x1e, 0x87, 0xe9, 0xce, 0x55, 0x28, 0xdf,
	0x8c, 0xa1, 0x89, 0x0d, 0xbf, 0xe6, 0x42, 0x68, 0x41, 0x99, 0x2d, 0x0f, 0xb0, 0x54, 0xbb, 0x16,
};

static const uint8_t inv_sbox[256] = {
	0x52, 0x09, 0x6a, 0xd5, 0x30, 0x36, 0xa5, 0x38, 0xbf, 0x40, 0xa3, 0x9e, 0x81, 0xf3, 0xd7, 0xfb,
	0x7c, 0xe3, 0x39, 0x82, 0x9b, 0x2f, 0xff, 0x87, 0x34, 0x8e, 0x43, 0x44, 0xc4, 0xde, 0xe9, 0xcb,
	0x54, 0x7b, 0x94, 0x32, 0xa6, 0xc2, 0x23, 0x3d, 0xee, 0x4c, 0x95, 0x0b, 0x42, 0xfa, 0xc3, 0x4e,
	0x08, 0x2e, 0xa1, 0x66, 0x28, 0xd9, 0x24, 0xb2, 0x76, 0x5b, 0xa2, 0x49, 0x6d, 0x8b, 0xd1, 0x25,
	0x72, 0xf8, 0xf6, 0x64, 0x86, 0x68, 0x98, 0x16, 0xd4, 0xa4, 0x5c, 0xcc, 0x5d, 0x65, 0xb6, 0x92,
	0x6c, 0x70, 0x48, 0x50, 0xfd, 0xed, 0xb9, 0xda, 0x5e, 0x15, 0x46, 0x57, 0xa7, 0x8d, 0x9d, 0x84,
	0x90, 0xd8, 0xab, 0x00, 0x8c, 0xbc, 0xd3, 0x0a, 0xf7, 0xe4, 0x58, 0x05, 0xb8, 0xb3, 0x45, 0x06,
	0xd0, 0x2c, 0x1e, 0x8f, 0xca, 0x3f, 0x0f, 0x02, 0xc1, 0xaf, 0xbd, 0x03, 0x01, 0x13, 0x8a, 0x6b,
	0x3a, 0x91, 0x11, 0x41, 0x4f, 0x67, 0xdc, 0xea, 0x97, 0xf2, 0xcf, 0xce, 0xf0, 0xb4, 0xe6, 0x73,
	0x96, 0xac, 0x74, 0x22, 0xe7, 0xad, 0x35, 0x85, 0xe2, 0xf9, 0x37, 0xe8, 0x1c, 0x75, 0xdf, 0x6e,
	0x47, 0xf1, 0x1a, 0x71, 0x1d, 0x29, 0xc5, 0x89, 0x6f, 0xb7, 0x62, 0x0e, 0xaa, 0x18, 0xbe, 0x1b,
	0xfc, 0x56, 0x3e, 0x4b, 0xc6, 0xd2, 0x79, 0x20, 0x9a, 0xdb, 0xc0, 0xfe, 0x78, 0xcd, 0x5a, 0xf4,
	0x1f, 0xdd, 0xa8, 0x33, 0x88, 0x07, 0xc7, 0x31, 0xb1, 0x12, 0x10, 0x59, 0x27, 0x80, 0xec, 0x5f,
	0x60, 0x51, 0x7f, 0xa9, 0x19, 0xb5, 0x4a, 0x0d, 0x2d, 0xe5, 0x7a, 0x9f, 0x93, 0xc9, 0x9c, 0xef,
	0xa0, 0xe0, 0x3b, 0x4d, 0xae, 0x2a, 0xf5, 0xb0, 0xc8, 0xeb, 0xbb, 0x3c, 0x83, 0x53, 0x99, 0x61,
	0x17, 0x2b, 0x04, 0x7e, 0xba, 0x77, 0xd6, 0x26, 0xe1, 0x69, 0x14, 0x63, 0x55, 0x21, 0x0c, 0x7d,
};

/* multiplication by x (2) in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1, without a branch */
static inline uint8_t
xtime(uint8_t b)
{
	return (uint8_t) ((b << 1) ^ (0x1b & -(b >> 7)));
}

static void
expand_key(const uint8_t key[16], uint8_t rk[11][16])
{
	uint8_t		rcon = 1;

	memcpy(rk[0], key, 16);
	for (int r = 1; r <= 10; r++)
	{
		const uint8_t *p = rk[r - 1];
		uint8_t    *w = rk[r];

		/* RotWord, SubWord, Rcon on the previous key's last word */
		w[0] = p[0] ^ sbox[p[13]] ^ rcon;
		w[1] = p[1] ^ sbox[p[14]];
		w[2] = p[2] ^ sbox[p[15]];
		w[3] = p[3] ^ sbox[p[12]];
		for (int i = 4; i < 16; i++)
			w[i] = p[i] ^ w[i - 4];
		rcon = xtime(rcon);
	}
}

static inline void
mix_columns(uint8_t s[16])
{
	for (int c = 0; c < 4; c++)
	{
		uint8_t    *a = s + 4 * c;
		uint8_t		all = a[0] ^ a[1] ^ a[2] ^ a[3];
		uint8_t		a0 = a[0];

		/* b_i = a_i ^ all ^ 2 (a_i ^ a_i+1) */
		a[0] ^= all ^ xtime(a[0] ^ a[1]);
		a[1] ^= all ^ xtime(a[1] ^ a[2]);
		a[2] ^= all ^ xtime(a[2] ^ a[3]);
		a[3] ^= all ^ xtime(a[3] ^ a0);
	}
}

static inline void
inv_mix_columns(uint8_t s[16])
{
	/* {0e,0b,0d,09} = {02,03,01,01} x {05,00,04,00}: premultiply, then mix */
	for (int c = 0; c < 4; c++)
	{
		uint8_t    *a = s + 4 * c;
		uint8_t		u = xtime(xtime(a[0] ^ a[2]));
		uint8_t		v = xtime(xtime(a[1] ^ a[3]));

		a[0] ^= u;
		a[1] ^= v;
		a[2] ^= u;
		a[3] ^= v;
	}
	mix_columns(s);
}

/*
 * The portable rounds: a column is a 32-bit word (its first byte on top),
 * and SubBytes, ShiftRows and MixColumns of a round are four lookups per
 * column in te (MixColumns' column (2, 1, 1, 3) times S[x]), rotated for
 * the other three rows; td likewise for the inverse (InvS[x] times
 * (0e, 09, 0d, 0b)).  The tables are made from the S-boxes on first use.
 */
static uint32_t te[256],
			td[256];
static bool tables_made = false;

static uint8_t
gmul(uint8_t a, uint8_t b)
{
	uint8_t		p = 0;

	for (; b; b >>= 1, a = xtime(a))
		if (b & 1)
			p ^= a;
	return p;
}

static void
make_tables(void)
{
	for (int x = 0; x < 256; x++)
	{
		uint8_t		s = sbox[x],
					i = inv_sbox[x];

		te[x] = (uint32_t) gmul(s, 2) << 24 | (uint32_t) s << 16 | (uint32_t) s << 8 | gmul(s, 3);
		td[x] = (uint32_t) gmul(i, 14) << 24 | (uint32_t) gmul(i, 9) << 16 |
			(uint32_t) gmul(i, 13) << 8 | gmul(i, 11);
	}
	tables_made = true;
}

#define ROTR(w, n) (((w) >> (n)) | ((w) << (32 - (n))))
#define B0(w) ((w) >> 24)
#define B1(w) (((w) >> 16) & 0xff)
#define B2(w) (((w) >> 8) & 0xff)
#define B3(w) ((w) & 0xff)

static inline uint32_t
load_col(const uint8_t *p)
{
	return (uint32_t) p[0] << 24 | (uint32_t) p[1] << 16 | (uint32_t) p[2] << 8 | p[3];
}

static inline void
store_col(uint8_t *p, uint32_t w)
{
	p[0] = (uint8_t) (w >> 24);
	p[1] = (uint8_t) (w >> 16);
	p[2] = (uint8_t) (w >> 8);
	p[3] = (uint8_t) w;
}

/*
 * One direction: k the 11 round keys in the order used, t the table, sb
 * the S-box of the last round; dir 1 takes row r from column c + r
 * (ShiftRows), 3 from column c - r (InvShiftRows).
 */
static void
rounds_portable(const uint8_t k[11][16], const uint32_t *t, const uint8_t *sb,
				int dir, const uint8_t in[16], uint8_t out[16])
{
	uint32_t	s[4],
				n[4];

	for (int c = 0; c < 4; c++)
		s[c] = load_col(in + 4 * c) ^ load_col(k[0] + 4 * c);
	for (int r = 1; r < 10; r++)
	{
		for (int c = 0; c < 4; c++)
			n[c] = t[B0(s[c])] ^ ROTR(t[B1(s[(c + dir) & 3])], 8) ^
				ROTR(t[B2(s[(c + 2 * dir) & 3])], 16) ^ ROTR(t[B3(s[(c + 3 * dir) & 3])], 24) ^
				load_col(k[r] + 4 * c);
		memcpy(s, n, sizeof(s));
	}
	for (int c = 0; c < 4; c++)
		store_col(out + 4 * c,
				  ((uint32_t) sb[B0(s[c])] << 24 | (uint32_t) sb[B1(s[(c + dir) & 3])] << 16 |
				   (uint32_t) sb[B2(s[(c + 2 * dir) & 3])] << 8 | sb[B3(s[(c + 3 * dir) & 3])]) ^
				  load_col(k[10] + 4 * c));
}

static void
encrypt_portable(const ulid_aes128 *ctx, const uint8_t in[16], uint8_t out[16])
{
	rounds_portable(ctx->enc, te, sbox, 1, in, out);
}

static void
decrypt_portable(const ulid_aes128 *ctx, const uint8_t in[16], uint8_t out[16])
{
	rounds_portable(ctx->dec, td, inv_sbox, 3, in, out);
}

#ifdef ULID_AES_NI

__attribute__((target("aes,sse2")))
static void
encrypt_ni(const ulid_aes128 *ctx, const uint8_t in[16], uint8_t out[16])
{
	__m128i		b = _mm_loadu_si128((const __m128i *) in);

	b = _mm_xor_si128(b, _mm_loadu_si128((const __m128i *) ctx->enc[0]));
	for (int r = 1; r < 10; r++)
		b = _mm_aesenc_si128(b, _mm_loadu_si128((const __m128i *) ctx->enc[r]));
	b = _mm_aesenclast_si128(b, _mm_loadu_si128((const __m128i *) ctx->enc[10]));
	_mm_storeu_si128((__m128i *) out, b);
}

__attribute__((target("aes,sse2")))
static void
decrypt_ni(const ulid_aes128 *ctx, const uint8_t in[16], uint8_t out[16])
{
	__m128i		b = _mm_loadu_si128((const __m128i *) in);

	b = _mm_xor_si128(b, _mm_loadu_si128((const __m128i *) ctx->dec[0]));
	for (int r = 1; r < 10; r++)
		b = _mm_aesdec_si128(b, _mm_loadu_si128((const __m128i *) ctx->dec[r]));
	b = _mm_aesdeclast_si128(b, _mm_loadu_si128((const __m128i *) ctx->dec[10]));
	_mm_storeu_si128((__m128i *) out, b);
}

bool
ulid_aes128_hw_available(void)
{
	static int	known = -1;

	if (known < 0)
	{
		__builtin_cpu_init();
		known = __builtin_cpu_supports("aes") && __builtin_cpu_supports("sse2");
	}
	return known;
}

#else

bool
ulid_aes128_hw_available(void)
{
	return false;
}

#endif

void
ulid_aes128_init(ulid_aes128 *ctx, const uint8_t key[16])
{
	memset(ctx, 0, sizeof(*ctx));
	expand_key(key, ctx->enc);
	/* the equivalent inverse cipher's keys: InvMixColumns of the middle ones */
	memcpy(ctx->dec[0], ctx->enc[10], 16);
	for (int r = 1; r < 10; r++)
	{
		memcpy(ctx->dec[r], ctx->enc[10 - r], 16);
		inv_mix_columns(ctx->dec[r]);
	}
	memcpy(ctx->dec[10], ctx->enc[0], 16);
	ctx->hw = ulid_aes128_hw_available();
	if (!tables_made)
		make_tables();
}

void
ulid_aes128_encrypt(const ulid_aes128 *ctx, const uint8_t in[16], uint8_t out[16])
{
#ifdef ULID_AES_NI
	if (ctx->hw)
	{
		encrypt_ni(ctx, in, out);
		return;
	}
#endif
	encrypt_portable(ctx, in, out);
}

void
ulid_aes128_decrypt(const ulid_aes128 *ctx, const uint8_t in[16], uint8_t out[16])
{
#ifdef ULID_AES_NI
	if (ctx->hw)
	{
		decrypt_ni(ctx, in, out);
		return;
	}
#endif
	decrypt_portable(ctx, in, out);
}
