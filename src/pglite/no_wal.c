/*-------------------------------------------------------------------------
 *
 * no_wal.c
 *	  PGlite's stand-in for floor_wal.c (test/pglite/build.sh compiles this
 *	  file instead of it; the PGXS build never sees it): no WAL resource
 *	  manager.  PGlite does not export RegisterCustomRmgr (src/compat.h), and
 *	  one instance has no standby and no point-in-time recovery to carry
 *	  floors to; the floor file alone keeps them (floors.c).
 *
 *-------------------------------------------------------------------------
 */
#include "ulid.h"

#include "floor_wal.h"

void
ulid_wal_init(void)
{
}

bool
ulid_wal_logging(void)
{
	return false;
}

/* the others are called only while ulid_wal_logging() */

void
ulid_wal_prepare(void)
{
}

XLogRecPtr
ulid_wal_log_floor(int64 global, uint32 kind, const uint8 *key, int64 own)
{
	return InvalidXLogRecPtr;
}

void
ulid_wal_confirm(XLogRecPtr lsn)
{
}

void
ulid_wal_log_lower(int64 global)
{
}

void
ulid_wal_log_reset(uint32 kind, const uint8 *key)
{
}
