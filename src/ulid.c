/*-------------------------------------------------------------------------
 *
 * ulid.c
 *	  The library's entry point: the module magic block and _PG_init, which
 *	  sets up every module's settings and hooks.
 *
 *-------------------------------------------------------------------------
 */
#include "ulid.h"

#include "utils/guc.h"

#include "keys.h"
#include "modules.h"
#include "node.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

void
_PG_init(void)
{
	ulid_clock_init();
	ulid_state_table_init();
	ulid_wal_init();
	ulid_gen_monotonic_init();
	ulid_node_init();
	ulid_gen_snowflake_init();
	ulid_cosid80_init();
	ulid_keys_init();
	ulid_stable_bound_init();

	/* after every ulid.* setting is defined */
	MarkGUCPrefixReserved("ulid");
}
