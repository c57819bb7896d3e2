/*-------------------------------------------------------------------------
 *
 * random.c
 *	  The per-backend buffer of pg_strong_random() output behind every
 *	  generator (fast path: random.h; the buffer's rules: core/randbuf.h).
 *
 * pg_strong_random() is the generator PostgreSQL itself vouches for
 * (OpenSSL's RAND_bytes in most builds, else the kernel).  A call costs
 * about 1 us even for a few bytes, which is the whole cost of
 * gen_random_uuid(), while one call for ULID_RANDOM_BATCH bytes costs a few
 * ns per id.  So the buffer is refilled a batch at a time, in one call, and
 * served in order, each served byte zeroed as it goes; the backend's pid
 * decides whose buffer it is, so a child of fork never serves its parent's
 * bytes.
 *
 * Every generator draws from it: gen_ulid(), gen_random_ulid(),
 * gen_ulid(at), gen_monotonic_ulid(), gen_uuidv7(), gen_gsid() and the
 * random sequence start of scru64.  A backend that never generates an id
 * never touches the buffer, so the kernel never allocates its pages.  If
 * pg_strong_random() fails, the call fails with "could not generate random
 * values" (DETAIL naming pg_strong_random()); nothing half-filled is kept
 * and the next call tries again.  The extension has no cryptography of its
 * own: a ChaCha20 of its own, used before 1.1, cost more per id than these
 * batches and had to be trusted on its own.  The batch size (16 KiB) was
 * chosen by measurement: gen_random_ulid() took 648, 395, 341 and 325
 * instructions per call at batches of 256 B, 1 KiB, 4 KiB and 16 KiB.
 *
 *-------------------------------------------------------------------------
 */
#include "ulid.h"

/* all zero: pid 0 is no process, so the first take refills */
ulid_randbuf ulid_random_buffer;

static bool
fill(void *buf, size_t len)
{
	return pg_strong_random(buf, len);
}

void
ulid_random_bytes_slow(uint8 *out, size_t n)
{
	if (!ulid_randbuf_take_slow(&ulid_random_buffer, MyProcPid, out, n, fill))
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not generate random values"),
				 errdetail("pg_strong_random() failed to fill the ulid generators' buffer of %d bytes.",
						   ULID_RANDOM_BATCH),
				 errhint("PostgreSQL's strong random source (OpenSSL, or /dev/urandom in builds without it) is not working; the server log may say why.")));
}

uint64
ulid_random_u64_slow(void)
{
	uint64		v;

	ulid_random_bytes_slow((uint8 *) &v, sizeof(v));
	return v;
}

uint64
ulid_random_u80_slow(uint64 *low64)
{
	uint16		t;

	ulid_random_bytes_slow((uint8 *) &t, sizeof(t));
	ulid_random_bytes_slow((uint8 *) low64, sizeof(*low64));
	return t;
}

uint64
ulid_random_u72_slow(uint64 hi, uint8 *low8)
{
	uint8		t;

	ulid_random_bytes_slow(&t, sizeof(t));
	ulid_random_bytes_slow(low8, 8);
	return hi | (t & 0xF);
}
