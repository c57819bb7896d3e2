/*-------------------------------------------------------------------------
 *
 * randbuf.h
 *	  A buffer of strong random bytes, refilled a batch at a time (pure C,
 *	  no PostgreSQL: the caller passes the fill function and its pid).
 *
 * The buffer belongs to the process that filled it.  A take by any other
 * pid (a child that inherited the buffer through fork) wipes it and refills
 * before serving a byte, so two processes never serve the same bytes.  Every
 * byte is served once and zeroed as it is served; a refill is one call of
 * the fill function for the whole batch.  The fast path (ready, serve) is
 * inline; the refill is ulid_randbuf_take_slow() in randbuf.c.
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_RANDBUF_H
#define ULID_RANDBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * Bytes per fill: pg_strong_random()'s fixed cost (about 1 us, 8,500
 * instructions with OpenSSL) is shared by about 1,600 ids at 16 KiB, where
 * the bytes themselves cost about 3 instructions each (measured: README
 * "Performance").
 */
#ifndef ULID_RANDOM_BATCH
#define ULID_RANDOM_BATCH 16384
#endif

typedef struct ulid_randbuf
{
	int			pid;			/* the process that filled buf, 0 if none */
	uint32_t	pos;			/* next unserved byte; ULID_RANDOM_BATCH: empty */
	uint8_t		buf[ULID_RANDOM_BATCH];
} ulid_randbuf;

/* fills len bytes with strong randomness; false if the source failed */
typedef bool (*ulid_randbuf_fill) (void *buf, size_t len);

/* true when pid can be served n bytes without a refill */
static inline bool
ulid_randbuf_ready(const ulid_randbuf *b, int pid, size_t n)
{
	/* pos <= BATCH - n: one comparison with a constant for a constant n */
	return b->pid == pid && n <= ULID_RANDOM_BATCH &&
		b->pos <= (size_t) ULID_RANDOM_BATCH - n;
}

/* the next n bytes to out, zeroed in the buffer (only after ready) */
static inline void
ulid_randbuf_serve(ulid_randbuf *b, void *out, size_t n)
{
	memcpy(out, b->buf + b->pos, n);
	memset(b->buf + b->pos, 0, n);
	b->pos += (uint32_t) n;
}

/*
 * Serve n bytes to pid, refilling as needed.  False if fill failed: then the
 * buffer is wiped and empty, out is zeroed, and a later take tries again.
 */
extern bool ulid_randbuf_take_slow(ulid_randbuf *b, int pid, uint8_t *out,
								   size_t n, ulid_randbuf_fill fill);

/* memset that the compiler may not drop as a dead store */
extern void ulid_wipe(void *p, size_t n);

#endif							/* ULID_RANDBUF_H */
