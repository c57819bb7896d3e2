/*-------------------------------------------------------------------------
 *
 * random.c
 *	  The per-backend CSPRNG behind every generator.
 *
 * pg_strong_random costs about 0.8 us a call (an OpenSSL round or a read of
 * /dev/urandom), which is why gen_random_uuid() is slow.  Instead each
 * backend runs a ChaCha20 generator with fast key erasure (csprng.c), keyed
 * from pg_strong_random on first use, again whenever the process id changes
 * (the state is never shared across fork: a child that inherited it rekeys
 * before its first byte), and again every ULID_RESEED_REFILLS refills.
 *
 *-------------------------------------------------------------------------
 */
#include "ulid.h"

#include "miscadmin.h"

#include "csprng.h"

/* rekey from pg_strong_random after this many refills (~2.6 MB of output) */
#define ULID_RESEED_REFILLS 5000

static ulid_csprng rng;
static int	rng_pid = 0;

static void
reseed(void)
{
	uint8		seed[ULID_CSPRNG_SEED_BYTES];

	if (!pg_strong_random(seed, sizeof(seed)))
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not generate random values"),
				 errdetail("pg_strong_random() failed while seeding the ulid generator.")));
	ulid_csprng_seed(&rng, seed);
	explicit_bzero(seed, sizeof(seed));
	rng_pid = MyProcPid;
}

void
ulid_random_bytes(uint8 *out, size_t n)
{
	if (unlikely(rng_pid != MyProcPid || rng.refills >= ULID_RESEED_REFILLS))
		reseed();
	ulid_csprng_bytes(&rng, out, n);
}

uint64
ulid_random_u64(void)
{
	uint8		b[8];

	ulid_random_bytes(b, sizeof(b));
	return ulid_load_be64(b);
}
