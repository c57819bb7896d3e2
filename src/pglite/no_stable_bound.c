/*-------------------------------------------------------------------------
 *
 * no_stable_bound.c
 *	  The PGlite build's stable bound (in place of stable_bound.c): PGlite
 *	  exports neither the transaction callbacks nor the snapshot and
 *	  process-array functions the bound is built on, so the generators
 *	  record nothing and ulid_stable_bound(), snowflake_stable_bound() and
 *	  cosid80_stable_bound() refuse.
 *
 *-------------------------------------------------------------------------
 */
#include "ulid.h"

#include "stable_bound.h"

ULID_HIDDEN const UlidGenState *ulid_bound_noted = NULL;
ULID_HIDDEN const UlidGenState *ulid_bound_last_st = NULL;	/* never taken */
ULID_HIDDEN UlidBoundEntry *ulid_bound_last = NULL;

void
ulid_bound_note_first(const UlidGenState *st, uint64 w0 pg_attribute_unused(),
					  uint64 w1 pg_attribute_unused(), int64 ms pg_attribute_unused())
{
	ulid_bound_noted = st;		/* nothing to record: check once */
}

void
ulid_bound_attach(void)
{
}

void
ulid_stable_bound_init(void)
{
}

bool
ulid_bound_oldest_holder(UlidBoundHolder *out pg_attribute_unused())
{
	return false;
}

static void
refuse(const char *fn)
{
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("%s is not available in PGlite", fn),
			 errdetail("PGlite does not export the transaction callbacks and snapshot functions the bound is built on."),
			 errhint("Page by id on a PostgreSQL server, or by a commit-time column in PGlite.")));
}

void
ulid_sf_stable_bound(const sfl_layout *l pg_attribute_unused(),
					 UlidStateKind kind pg_attribute_unused(),
					 int64 node pg_attribute_unused(), const char *fn,
					 int64 *tick pg_attribute_unused(),
					 uint64 *seq pg_attribute_unused())
{
	refuse(fn);					/* cosid80_stable_bound() */
}

PG_FUNCTION_INFO_V1(ulid_stable_bound);
Datum
ulid_stable_bound(PG_FUNCTION_ARGS)
{
	refuse("ulid_stable_bound()");
	PG_RETURN_NULL();
}

PG_FUNCTION_INFO_V1(snowflake_stable_bound);
Datum
snowflake_stable_bound(PG_FUNCTION_ARGS)
{
	refuse("snowflake_stable_bound()");
	PG_RETURN_NULL();
}
