/*-------------------------------------------------------------------------
 *
 * floor_file.h
 *	  The persisted server-wide floor: $PGDATA/ulid_floor (see shmem.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_FLOOR_FILE_H
#define ULID_FLOOR_FILE_H

#include "ulid.h"

/* the file's name, relative to the data directory */
#define ULID_FLOOR_FILE		"ulid_floor"

/*
 * The floor stored in the file, 0 when there is none.  Never raises an
 * error (it runs in the postmaster and in the DSM registry's init
 * callback): a file that cannot be read or parsed is reported as a WARNING
 * and read as 0.
 */
extern int64 ulid_floor_file_read(void);

/*
 * Durably replace the file's floor by ms (temporary file, then
 * durable_rename).  On failure reports at elevel and returns false.
 */
extern bool ulid_floor_file_write(int64 ms, int elevel);

#endif							/* ULID_FLOOR_FILE_H */
