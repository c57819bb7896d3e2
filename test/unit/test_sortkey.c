/*
 * Unit tests of the abbreviated sort key (src/core/sortkey.h): key order
 * never contradicts byte order, for ULIDs over the whole time range (the
 * years around 2039, every exponent class, the maximum) with random low
 * halves, and the key holds the bits its header promises (checked against a
 * bit-by-bit reference built from the definition).
 */
#include <stdint.h>
#include <stdlib.h>

#include "rng.h"
#include "sortkey.h"
#include "unit.h"

typedef unsigned __int128 u128;

typedef struct
{
	u128		v;
	uint64_t	key;
} item;

static uint64_t
key_of(u128 v)
{
	return ulid_sort_key((uint64_t) (v >> 64), (uint64_t) v);
}

/* bit i of v, bit 0 the most significant */
static int
bit(u128 v, int i)
{
	return (int) ((v >> (127 - i)) & 1);
}

/*
 * The key by its definition, one bit at a time: leading zeros z (at most 7),
 * then for z >= 7 a 0 and bits 7..69; for z < 7, k = 7 - z ones, a 0, and
 * the 63 - k bits after the leading one.
 */
static uint64_t
ref_key(u128 v)
{
	int			z = 0;
	int			pos = 0;
	int			from;
	uint64_t	key = 0;

	while (z < 7 && !bit(v, z))
		z++;
	if (z == 7)
		from = 7;
	else
	{
		for (int i = 0; i < 7 - z; i++)
			key |= UINT64_C(1) << (63 - pos++);
		from = z + 1;
	}
	pos++;						/* the terminating 0 of the prefix */
	for (int i = from; pos < 64; i++)
		key |= (uint64_t) bit(v, i) << (63 - pos++);
	return key;
}

static u128
ulid_of(uint64_t ms, uint64_t rand_hi16, uint64_t lo)
{
	return ((u128) ((ms << 16) | (rand_hi16 & 0xFFFF)) << 64) | lo;
}

static int
cmp_item(const void *a, const void *b)
{
	u128		x = ((const item *) a)->v;
	u128		y = ((const item *) b)->v;

	return x < y ? -1 : x > y;
}

/* a time whose bit length is random, so every exponent class occurs */
static uint64_t
any_ms(void)
{
	int			bits = (int) (test_rng() % 49);

	return bits == 0 ? 0 : test_rng() >> (64 - bits);
}

/* ms near 2^p: the top of one class and the bottom of the next */
static uint64_t
near_pow2_ms(void)
{
	int			p = 38 + (int) (test_rng() % 11);	/* 2^38 .. 2^48 */
	int64_t		d = (int64_t) (test_rng() % 2001) - 1000;
	uint64_t	ms = (UINT64_C(1) << p) + (uint64_t) d;

	return ms > UINT64_C(0xFFFFFFFFFFFF) ? UINT64_C(0xFFFFFFFFFFFF) : ms;
}

/*
 * Sort n values bytewise (u128 order is byte order of the big-endian 16
 * bytes) and count adjacent pairs whose keys go down.  Transitivity makes
 * the adjacent pairs enough: no descent means key(a) <= key(b) for all
 * a <= b.
 */
static long
descents(item *it, size_t n)
{
	long		bad = 0;

	for (size_t i = 0; i < n; i++)
		it[i].key = key_of(it[i].v);
	qsort(it, n, sizeof(item), cmp_item);
	for (size_t i = 1; i < n; i++)
		if (it[i - 1].key > it[i].key)
		{
			if (bad < 3)
				printf("# descent: %016llx%016llx -> %016llx, %016llx%016llx -> %016llx\n",
					   (unsigned long long) (uint64_t) (it[i - 1].v >> 64),
					   (unsigned long long) (uint64_t) it[i - 1].v,
					   (unsigned long long) it[i - 1].key,
					   (unsigned long long) (uint64_t) (it[i].v >> 64),
					   (unsigned long long) (uint64_t) it[i].v,
					   (unsigned long long) it[i].key);
			bad++;
		}
	return bad;
}

int
main(void)
{
	enum
	{
		N = 400000
	};
	item	   *it = malloc(sizeof(item) * N);
	u128		max = ~(u128) 0;
	long		bad;
	size_t		n;

	if (!it)
		return 2;

	/* 1. random ULIDs over the whole range: times of every bit length */
	for (n = 0; n < N; n++)
		it[n].v = ulid_of(any_ms(), test_rng(), test_rng());
	bad = descents(it, N);
	CHECK(bad == 0, "key order follows byte order over %d ULIDs of any time (%ld descents)", N, bad);

	/* 2. times around every power of two from 2^38 (2008) to 2^48 */
	for (n = 0; n < N; n++)
		it[n].v = ulid_of(near_pow2_ms(), test_rng_any(), test_rng_any());
	bad = descents(it, N);
	CHECK(bad == 0, "key order follows byte order for %d ULIDs near 2^38..2^48 ms (%ld descents)", N, bad);

	/* 3. the years around 2039-09-07 (2^41 ms), a day either side */
	for (n = 0; n < N; n++)
		it[n].v = ulid_of((UINT64_C(1) << 41) - 86400000 + test_rng() % 172800000,
						  test_rng(), test_rng());
	bad = descents(it, N);
	CHECK(bad == 0, "key order follows byte order for %d ULIDs within a day of 2039-09-07 (%ld descents)", N, bad);

	/* 4. fresh ids: one millisecond, steps below 2^64 (gen_ulid's) */
	{
		u128		v = ulid_of(1790000000000, test_rng(), test_rng());

		for (n = 0; n < N; n++)
		{
			it[n].v = v;
			v += (test_rng() >> 1) + 1;
		}
		bad = descents(it, N);
		CHECK(bad == 0, "key order follows byte order for %d fresh ids of one millisecond (%ld descents)", N, bad);
	}

	/* 5. values that share the key bits and differ below them (ties) */
	for (n = 0; n < N; n++)
		it[n].v = ulid_of(any_ms() | (test_rng() % 2 ? UINT64_C(1) << 41 : 0), 0x1234,
						  (test_rng() % 4) << 57 | test_rng_any());
	bad = descents(it, N);
	CHECK(bad == 0, "key order follows byte order when only the bits below the key differ (%ld descents)", bad);

	/*
	 * 6. adjacency at every class boundary: 2^(127 - z) is the smallest
	 * value with z leading zeros.  Every value within 2^16 either side,
	 * and the same around the 64-bit split of each side.
	 */
	{
		long		bad_adj = 0;
		long		checked = 0;

		for (int z = 0; z <= 8; z++)
		{
			u128		b = (u128) 1 << (127 - z);
			u128		centres[3] = {b, b + ((u128) 1 << 64), b - ((u128) 1 << 64)};

			for (int c = 0; c < 3; c++)
			{
				u128		prev = centres[c] - 65537;
				uint64_t	pk = key_of(prev);

				for (int d = -65536; d <= 65536; d++)
				{
					u128		v = centres[c] + (u128) (__int128) d;
					uint64_t	k = key_of(v);

					if (k < pk)
						bad_adj++;
					pk = k;
					checked++;
				}
			}
			/* the last value of the class above and the first of this */
			if (key_of(b - 1) > key_of(b))
				bad_adj++;
		}
		CHECK(bad_adj == 0, "key of v never exceeds key of v + 1 at the class boundaries (%ld values, %ld descents)",
			  checked, bad_adj);
	}

	/* 7. the key is the definition, bit for bit */
	{
		long		diff = 0;

		for (n = 0; n < N; n++)
		{
			u128		v = ulid_of(n % 2 ? any_ms() : near_pow2_ms(), test_rng_any(), test_rng_any());

			if (key_of(v) != ref_key(v))
				diff++;
		}
		for (int z = 0; z < 128; z++)
		{
			u128		b = (u128) 1 << (127 - z);

			diff += key_of(b) != ref_key(b);
			diff += key_of(b - 1) != ref_key(b - 1);
			diff += key_of(b | (b - 1)) != ref_key(b | (b - 1));
		}
		diff += key_of(0) != ref_key(0);
		diff += key_of(max) != ref_key(max);
		CHECK(diff == 0, "the key equals its bit-by-bit definition (%ld differ)", diff);
	}

	/* 8. the ends of the range */
	CHECK(key_of(0) == 0, "the nil ULID has key 0");
	CHECK(key_of(max) == UINT64_C(0xFEFFFFFFFFFFFFFF),
		  "the largest ULID has key 11111110 and 56 ones (got %016llx)",
		  (unsigned long long) key_of(max));
	CHECK(key_of(max - 1) == key_of(max) && key_of(max) > key_of(max >> 1),
		  "near the maximum the key still orders classes");

	/*
	 * 9. what the key holds: until 2039, bits 7..69 (6 of the low half);
	 * 2039-2109 bits 7..68 (5); 2109-2248 bits 7..66 (3).  A flip of the
	 * last kept bit changes the key, of the next one does not.
	 */
	{
		struct
		{
			uint64_t	ms;
			int			low_bits;
			const char *when;
		}			cls[] = {
			{1790000000000, 6, "2026"},
			{(UINT64_C(1) << 41) - 1, 6, "2039-09-07, last ms of the first class"},
			{UINT64_C(1) << 41, 5, "2039-09-07, first ms of the second class"},
			{UINT64_C(3) << 40, 5, "2074"},
			{UINT64_C(1) << 42, 3, "2109"},
			{UINT64_C(1) << 43, 1, "2248"},
		};

		for (size_t i = 0; i < sizeof(cls) / sizeof(cls[0]); i++)
		{
			int			ok = 1;

			for (int t = 0; t < 1000; t++)
			{
				u128		v = ulid_of(cls[i].ms, test_rng(), test_rng());
				u128		kept = (u128) 1 << (64 - cls[i].low_bits);
				u128		next = kept >> 1;

				ok &= key_of(v ^ kept) != key_of(v);
				ok &= key_of(v ^ next) == key_of(v);
			}
			CHECK(ok, "%s: the key holds %d bits of the low half, not %d",
				  cls[i].when, cls[i].low_bits, cls[i].low_bits + 1);
		}
	}

	/* 10. fresh ids are told apart: distinct keys among neighbours */
	{
		u128		v = ulid_of(1790000000000, test_rng(), test_rng());
		long		ties = 0,
					ties8 = 0;

		for (n = 0; n < 100000; n++)
		{
			u128		w = v + (test_rng() >> 1) + 1;

			ties += key_of(v) == key_of(w);
			ties8 += (uint64_t) (v >> 64) == (uint64_t) (w >> 64);
			v = w;
		}
		printf("# neighbours of one millisecond with equal keys: %ld of 100000 (first 8 bytes: %ld)\n",
			   ties, ties8);
		CHECK(ties * 10 < ties8,
			  "fresh neighbours tie on the key less than a tenth as often as on the first 8 bytes");
	}

	free(it);
	return unit_done();
}
