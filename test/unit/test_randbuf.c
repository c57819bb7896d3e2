/*
 * Unit tests of the buffer of strong random bytes (src/core/randbuf.c):
 * one fill per batch, served bytes zeroed, never shared across a pid
 * change, a failed fill leaves nothing behind.
 */
#include <stdint.h>
#include <stdlib.h>

#include "randbuf.h"
#include "unit.h"

static int	fills = 0;			/* calls of fake_fill */
static size_t last_len = 0;
static bool fail_next = false;
static bool wiped_on_entry = true;	/* every fill found the buffer all zero */
static uint8_t seq = 0;			/* fill pattern: 1, 2, ..., 255, 1, ... */

static bool
all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != 0)
			return false;
	return true;
}

static bool
fake_fill(void *buf, size_t len)
{
	uint8_t    *p = buf;

	fills++;
	last_len = len;
	if (fail_next)
	{
		fail_next = false;
		memset(buf, 0xAA, len);	/* a source that left garbage behind */
		return false;
	}
	for (size_t i = 0; i < len; i++)
	{
		seq = (uint8_t) (seq % 255 + 1);
		p[i] = seq;
	}
	return true;
}

/* fills found the buffer wiped when the pid changed: checked in the test */
static bool
checking_fill(void *buf, size_t len)
{
	if (!all_zero(buf, len))
		wiped_on_entry = false;
	return fake_fill(buf, len);
}

/* take through the inline fast path when it can, as random.h does */
static bool
take(ulid_randbuf *b, int pid, uint8_t *out, size_t n, ulid_randbuf_fill f)
{
	if (ulid_randbuf_ready(b, pid, n))
	{
		ulid_randbuf_serve(b, out, n);
		return true;
	}
	return ulid_randbuf_take_slow(b, pid, out, n, f);
}

int
main(void)
{
	static ulid_randbuf b;		/* zero: no process has filled it */
	uint8_t		out[32];
	uint8_t		first[10];
	bool		ok;

	/* the first take fills the whole batch in one call */
	CHECK(!ulid_randbuf_ready(&b, 100, 1), "an empty buffer is not ready");
	ok = take(&b, 100, first, sizeof(first), fake_fill);
	CHECK(ok && fills == 1 && last_len == ULID_RANDOM_BATCH,
		  "first take: one fill of the whole batch (%d fills, %zu bytes)", fills, last_len);
	CHECK(first[0] == 1 && first[9] == 10, "first take serves the first bytes of the fill");
	CHECK(all_zero(b.buf, 10) && b.buf[10] == 11, "served bytes are zeroed, the rest kept");

	/* served in order, no fill while bytes remain */
	ok = take(&b, 100, out, 8, fake_fill);
	CHECK(ok && fills == 1 && out[0] == 11 && out[7] == 18, "next take continues without a fill");

	/* drain to 6 bytes before the end; a take of 10 spans a refill */
	{
		int			bad = 0;

		while (ULID_RANDOM_BATCH - b.pos > 6)
		{
			size_t		n = ULID_RANDOM_BATCH - b.pos - 6;

			if (n > sizeof(out))
				n = sizeof(out);
			if (!take(&b, 100, out, n, fake_fill))
				bad++;
		}
		CHECK(bad == 0 && fills == 1 && all_zero(b.buf, ULID_RANDOM_BATCH - 6),
			  "every served byte of the batch is zero (%d failed takes, %d fills)", bad, fills);
	}
	{
		uint8_t		tail[6];

		memcpy(tail, b.buf + ULID_RANDOM_BATCH - 6, 6);
		ok = take(&b, 100, out, 10, fake_fill);
		CHECK(ok && fills == 2 && memcmp(out, tail, 6) == 0,
			  "a take across the end serves the last 6 bytes, then refills once");
		CHECK(b.pos == 4 && all_zero(b.buf, 4), "and 4 bytes of the new batch, zeroed");
	}

	/* another pid (a child after fork) never gets the parent's bytes */
	{
		uint8_t		parent_next[10];

		memcpy(parent_next, b.buf + b.pos, sizeof(parent_next));
		CHECK(!ulid_randbuf_ready(&b, 200, 1), "another pid is never ready on an inherited buffer");
		wiped_on_entry = true;
		ok = take(&b, 200, out, 10, checking_fill);
		CHECK(ok && fills == 3 && wiped_on_entry,
			  "another pid wipes the inherited buffer, then refills (%d fills)", fills);
		CHECK(memcmp(out, parent_next, 10) != 0 && b.pid == 200 && b.pos == 10,
			  "the child's bytes are not the parent's next bytes");
	}

	/* a failed fill: error for the caller, nothing left behind, retried */
	b.pos = ULID_RANDOM_BATCH;	/* force a refill */
	memset(out, 0x55, sizeof(out));
	fail_next = true;
	ok = take(&b, 200, out, 10, fake_fill);
	CHECK(!ok, "a failed fill is reported");
	CHECK(all_zero(b.buf, ULID_RANDOM_BATCH) && b.pos == ULID_RANDOM_BATCH,
		  "a failed fill leaves the buffer wiped and empty");
	CHECK(all_zero(out, 10), "a failed take leaves no bytes in out");
	ok = take(&b, 200, out, 10, fake_fill);
	CHECK(ok && fills == 5 && b.pos == 10 && out[0] != 0, "the next take fills again and serves");

	/* a take larger than a batch: several fills, all bytes served */
	{
		static uint8_t big[2 * ULID_RANDOM_BATCH + 100];
		int			before = fills;
		size_t		left = ULID_RANDOM_BATCH - b.pos;	/* 16374: served first */

		ok = ulid_randbuf_take_slow(&b, 200, big, sizeof(big), fake_fill);
		CHECK(ok && left == ULID_RANDOM_BATCH - 10 && fills == before + 2 &&
			  b.pos == sizeof(big) - left - ULID_RANDOM_BATCH && all_zero(b.buf, b.pos) &&
			  big[sizeof(big) - 1] != 0,
			  "a take of 2 batches + 100 bytes: the rest, then 2 fills, served bytes zeroed (%d fills)",
			  fills - before);
	}

	/*
	 * a buffer no process filled (pid 0, zero from the start) is not
	 * written before its first fill, so its pages stay untouched: a marker
	 * that breaks the all-zero start survives until the fill
	 */
	{
		static ulid_randbuf fresh;

		fresh.buf[5000] = 0xEE;
		wiped_on_entry = true;
		ok = take(&fresh, 300, out, 10, checking_fill);
		CHECK(ok && !wiped_on_entry && fresh.pid == 300 && fresh.pos == 10,
			  "a never-filled buffer (pid 0) is filled without a wipe first");
	}

	/* ulid_wipe zeroes */
	memset(out, 0x77, sizeof(out));
	ulid_wipe(out, sizeof(out));
	CHECK(all_zero(out, sizeof(out)), "ulid_wipe zeroes");

	return unit_done();
}
