/*-------------------------------------------------------------------------
 *
 * ulid_sort.c
 *	  The btree sortsupport of ulid_ops: a full comparator of two 64-bit
 *	  loads and an abbreviated key that sees past the first 8 bytes.
 *
 * Core's uuid_sortsupport abbreviates to the first 8 bytes, which fresh
 * ULIDs of one millisecond share about half the time (see sortkey.h), so a
 * sort of fresh ids compared half its neighbours twice.  This one keeps
 * core's design (an order-preserving 64-bit key compared by
 * ssup_datum_unsigned_cmp, which tuplesort specialises; a HyperLogLog
 * estimate of the keys' cardinality that abandons abbreviation when keys do
 * not vary; ties go to the full comparator) with ulid_sort_key as the key.
 * The uuid type and its opclass keep core's; the casts stay binary.
 *
 *-------------------------------------------------------------------------
 */
#include "ulid.h"

#include "common/hashfn.h"
#include "lib/hyperloglog.h"
#include "utils/guc.h"
#include "utils/sortsupport.h"

#include "sortkey.h"

typedef struct ulid_sort_state
{
	int64		input_count;	/* non-null values converted */
	bool		estimating;		/* still feeding the estimator */
	hyperLogLogState abbr_card; /* estimated distinct keys */
} ulid_sort_state;

/* memcmp order of the 16 bytes, as two big-endian 64-bit words */
static int
ulid_fast_cmp(Datum x, Datum y, SortSupport ssup pg_attribute_unused())
{
	const uint8 *a = DatumGetUlidP(x)->data;
	const uint8 *b = DatumGetUlidP(y)->data;
	uint64		ha = ulid_load_be64(a);
	uint64		hb = ulid_load_be64(b);
	uint64		la;
	uint64		lb;

	if (ha != hb)
		return ha < hb ? -1 : 1;
	la = ulid_load_be64(a + 8);
	lb = ulid_load_be64(b + 8);
	if (la != lb)
		return la < lb ? -1 : 1;
	return 0;
}

#if SIZEOF_DATUM == 8
/*
 * Two converters: this one while the cardinality is estimated, then
 * ulid_abbrev_key (ulid_abbrev_abort swaps them when estimation ends, after
 * 100k distinct keys), so that most of a large sort's values pay for the
 * key alone.  The folded key goes through murmurhash32, a bijection of
 * 32-bit values as core's hash_uint32 is (so the estimate counts the same
 * distinct values), at a third of its instructions.
 */
static Datum
ulid_abbrev_convert(Datum original, SortSupport ssup)
{
	ulid_sort_state *st = (ulid_sort_state *) ssup->ssup_extra;
	const uint8 *d = DatumGetUlidP(original)->data;
	uint64		key = ulid_sort_key(ulid_load_be64(d), ulid_load_be64(d + 8));

	st->input_count++;
	addHyperLogLog(&st->abbr_card, murmurhash32((uint32) key ^ (uint32) (key >> 32)));
	return UInt64GetDatum(key);
}

static Datum
ulid_abbrev_key(Datum original, SortSupport ssup pg_attribute_unused())
{
	const uint8 *d = DatumGetUlidP(original)->data;

	return UInt64GetDatum(ulid_sort_key(ulid_load_be64(d), ulid_load_be64(d + 8)));
}

/*
 * Core's rule (uuid_abbrev_abort): check after 10,000 values; above 100k
 * distinct keys stop estimating and keep abbreviation for good; below one
 * distinct key per 2,000 values abandon it (keys that do not vary only add
 * a comparison to every full one).
 */
static bool
ulid_abbrev_abort(int memtupcount, SortSupport ssup)
{
	ulid_sort_state *st = (ulid_sort_state *) ssup->ssup_extra;
	double		card;

	if (memtupcount < 10000 || st->input_count < 10000 || !st->estimating)
		return false;

	card = estimateHyperLogLog(&st->abbr_card);
	if (card > 100000.0)
	{
		if (trace_sort)
			elog(LOG, "ulid_abbrev: estimation ends at cardinality %f after " INT64_FORMAT " values (%d rows)",
				 card, st->input_count, memtupcount);
		st->estimating = false;
		ssup->abbrev_converter = ulid_abbrev_key;
		return false;
	}
	if (card < st->input_count / 2000.0 + 0.5)
	{
		if (trace_sort)
			elog(LOG, "ulid_abbrev: aborting abbreviation at cardinality %f below threshold %f after " INT64_FORMAT " values (%d rows)",
				 card, st->input_count / 2000.0 + 0.5, st->input_count, memtupcount);
		return true;
	}
	if (trace_sort)
		elog(LOG, "ulid_abbrev: cardinality %f after " INT64_FORMAT " values (%d rows)",
			 card, st->input_count, memtupcount);
	return false;
}
#endif

/*
 * SQL's ulid_sortsupport(internal) from 1.1 (1.0 named core's
 * uuid_sortsupport; ALTER EXTENSION ulid UPDATE switches it).
 */
PG_FUNCTION_INFO_V1(ulid_sortsupport);
Datum
ulid_sortsupport(PG_FUNCTION_ARGS)
{
	SortSupport ssup = (SortSupport) PG_GETARG_POINTER(0);

	ssup->comparator = ulid_fast_cmp;
	ssup->ssup_extra = NULL;
#if SIZEOF_DATUM == 8
	if (ssup->abbreviate)
	{
		MemoryContext old = MemoryContextSwitchTo(ssup->ssup_cxt);
		ulid_sort_state *st = palloc(sizeof(ulid_sort_state));

		st->input_count = 0;
		st->estimating = true;
		initHyperLogLog(&st->abbr_card, 10);
		MemoryContextSwitchTo(old);
		ssup->ssup_extra = st;
		ssup->comparator = ssup_datum_unsigned_cmp;
		ssup->abbrev_converter = ulid_abbrev_convert;
		ssup->abbrev_abort = ulid_abbrev_abort;
		ssup->abbrev_full_comparator = ulid_fast_cmp;
	}
#endif
	PG_RETURN_VOID();
}
