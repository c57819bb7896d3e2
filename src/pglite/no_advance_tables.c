/*-------------------------------------------------------------------------
 *
 * no_advance_tables.c
 *	  The PGlite build's ulid_advance_from_tables() (in place of
 *	  advance_tables.c): PGlite exports neither the index scan functions it
 *	  reads tables with nor pg_get_expr(), so it refuses and names the
 *	  functions that advance one generator at a time.
 *
 *-------------------------------------------------------------------------
 */
#include "ulid.h"

PG_FUNCTION_INFO_V1(ulid_advance_from_tables);
Datum
ulid_advance_from_tables(PG_FUNCTION_ARGS)
{
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("ulid_advance_from_tables() is not available in PGlite"),
			 errdetail("PGlite does not export the index scan functions it reads the tables with."),
			 errhint("Advance each generator with snowflake_advance(), cosid80_advance() or ulid_monotonic_advance().")));
	PG_RETURN_VOID();
}
