/*-------------------------------------------------------------------------
 *
 * random.h
 *	  The randomness every generator draws: PostgreSQL's pg_strong_random(),
 *	  a batch at a time, from one buffer per backend (core/randbuf.h says
 *	  how the buffer is served, wiped and never shared across fork).
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_RANDOM_H
#define ULID_RANDOM_H

#include "miscadmin.h"

#include "randbuf.h"

extern ULID_HIDDEN ulid_randbuf ulid_random_buffer;

/* refill, then serve n bytes (an ERROR if pg_strong_random fails): random.c */
extern pg_attribute_cold void ulid_random_bytes_slow(uint8 *out, size_t n);

/* Copy n bytes of strong randomness to out. */
static inline void
ulid_random_bytes(uint8 *out, size_t n)
{
	if (likely(ulid_randbuf_ready(&ulid_random_buffer, MyProcPid, n)))
		ulid_randbuf_serve(&ulid_random_buffer, out, n);
	else
		ulid_random_bytes_slow(out, n);
}

/*
 * the slow paths of ulid_random_u64 and ulid_random_u80 (random.c), which
 * keep the addresses of their locals out of the inline fast paths: no
 * stack-protector canary in a generator
 */
extern pg_attribute_cold uint64 ulid_random_u64_slow(void);

/* 64 random bits (in whatever byte order: they are random) */
static inline uint64
ulid_random_u64(void)
{
	uint64		v;

	if (unlikely(!ulid_randbuf_ready(&ulid_random_buffer, MyProcPid, sizeof(v))))
		return ulid_random_u64_slow();
	ulid_randbuf_serve(&ulid_random_buffer, &v, sizeof(v));
	return v;
}

extern pg_attribute_cold uint64 ulid_random_u80_slow(uint64 *low64);

/* 80 random bits: the top 16 returned, the low 64 in *low64 */
static inline uint64
ulid_random_u80(uint64 *low64)
{
	uint16		t;

	if (likely(ulid_randbuf_ready(&ulid_random_buffer, MyProcPid, 10)))
	{
		ulid_randbuf_serve(&ulid_random_buffer, &t, sizeof(t));
		ulid_randbuf_serve(&ulid_random_buffer, low64, sizeof(*low64));
		return t;
	}
	return ulid_random_u80_slow(low64);
}

extern pg_attribute_cold uint64 ulid_random_u72_slow(uint64 hi, uint8 *low8);

/*
 * 68 random bits in one serve of 9 bytes (gen_ulid()'s start: a byte less to
 * draw than ulid_random_u80): the first 8 bytes copied to low8 as they are
 * (any byte order of random bytes is random), 4 bits of the ninth or'ed into
 * hi, which is returned.  hi goes in and out as an argument, so that no
 * value of the caller lives across the slow path's call.
 */
static inline uint64
ulid_random_u72(uint64 hi, uint8 *low8)
{
	if (likely(ulid_randbuf_ready(&ulid_random_buffer, MyProcPid, 9)))
	{
		uint8	   *p = ulid_random_buffer.buf + ulid_random_buffer.pos;

		hi |= p[8] & 0xF;
		memcpy(low8, p, 8);
		/* two constant-size stores inline, not a call of memset(9) */
		memset(p, 0, 8);
		p[8] = 0;
		ulid_random_buffer.pos += 9;
		return hi;
	}
	return ulid_random_u72_slow(hi, low8);
}

#endif							/* ULID_RANDOM_H */
