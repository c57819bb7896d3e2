/*-------------------------------------------------------------------------
 *
 * randbuf.c
 *	  Refilling the buffer of strong random bytes (pure C, no PostgreSQL).
 *
 *-------------------------------------------------------------------------
 */
#include "randbuf.h"

#if defined(__GNUC__)
void
ulid_wipe(void *p, size_t n)
{
	memset(p, 0, n);
	/* the buffer "is read" here, so the stores above are not dead */
	__asm__ __volatile__("" : : "r"(p) : "memory");
}
#else
/* a memset called through a volatile pointer cannot be proven dead */
static void *(*const volatile wipe_memset) (void *, int, size_t) = memset;

void
ulid_wipe(void *p, size_t n)
{
	wipe_memset(p, 0, n);
}
#endif

bool
ulid_randbuf_take_slow(ulid_randbuf *b, int pid, uint8_t *out, size_t n,
					   ulid_randbuf_fill fill)
{
	uint8_t    *start = out;
	size_t		total = n;

	if (b->pid != pid)
	{
		/*
		 * never serve bytes another process may also serve; pid 0 (no
		 * process) is a buffer never filled, zero from the start: not
		 * written, so its pages stay untouched until the fill
		 */
		if (b->pid != 0)
			ulid_wipe(b->buf, ULID_RANDOM_BATCH);
		b->pos = ULID_RANDOM_BATCH;
		b->pid = pid;
	}
	while (n > 0)
	{
		size_t		take;

		if (b->pos >= ULID_RANDOM_BATCH)
		{
			if (!fill(b->buf, ULID_RANDOM_BATCH))
			{
				ulid_wipe(b->buf, ULID_RANDOM_BATCH);
				ulid_wipe(start, total);
				return false;
			}
			b->pos = 0;
		}
		take = ULID_RANDOM_BATCH - b->pos;
		if (take > n)
			take = n;
		ulid_randbuf_serve(b, out, take);
		out += take;
		n -= take;
	}
	return true;
}
