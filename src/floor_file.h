/*-------------------------------------------------------------------------
 *
 * floor_file.h
 *	  The persisted floors: $PGDATA/ulid_floor (see floors.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_FLOOR_FILE_H
#define ULID_FLOOR_FILE_H

#include "ulid.h"

#include "floor_text.h"

/* the file's name, relative to the data directory */
#define ULID_FLOOR_FILE		"ulid_floor"

typedef enum UlidFloorReadStatus
{
	ULID_FLOOR_READ_OK,
	ULID_FLOOR_READ_MISSING,	/* no file: a new cluster (or deleted) */
	ULID_FLOOR_READ_DAMAGED		/* unreadable, garbage, an unknown version */
} UlidFloorReadStatus;

typedef struct UlidFloorRead
{
	UlidFloorReadStatus status;
	int64		ms;				/* the server-wide floor (OK) */
	size_t		nentries;		/* advanced states' floors (OK) */
	ulid_floor_entry *entries;	/* palloc'd in the current context */
	char		problem[256];	/* DAMAGED: what is wrong, for errdetail */
} UlidFloorRead;

/*
 * Read the file, with room for max_entries state floors.  Never raises an
 * error (it runs in the postmaster and in the DSM registry's init
 * callback): the status says what was found.
 */
extern void ulid_floor_file_read(UlidFloorRead *out, size_t max_entries);

/*
 * Durably replace the file by len bytes of text (temporary file, fsync,
 * durable_rename).  On failure reports at elevel, naming the file as the
 * generators' restart floor, and returns false.  The temporary file is
 * created new (O_EXCL, O_NOFOLLOW, O_NONBLOCK): anything but a leftover
 * file of the server's at its path is damage (55000, naming it and
 * ulid_floor_repair()), never followed nor waited on.
 */
extern bool ulid_floor_file_write(const char *text, size_t len, int elevel);

/*
 * For ulid_floor_repair(), before it writes: remove what stands in the
 * way of writing the file (a symlink, a special file, a file the server
 * cannot open, an empty directory) at its path, and anything at the
 * temporary file's.  Returns what was removed and where ("a symbolic link
 * that stood in its place" ...), or NULL.  ERROR 55000 for a directory
 * with contents, naming what to remove by hand and where.
 */
extern const char *ulid_floor_file_clear(void);

/*
 * Open a file of the data directory (rel: relative to it) for reading, as
 * the floor file and the keyring root are opened: lstat'ed first, never
 * through a symbolic link, never blocking (O_NONBLOCK), a regular file
 * only.  Returns the descriptor (sb: its fstat), or -1 with problem empty
 * when nothing is at the path, or saying what is wrong ("it is a symbolic
 * link, ...") otherwise.  Never raises an error.
 */
struct stat;
extern int	ulid_data_file_open(const char *rel, struct stat *sb, char *problem,
								size_t problemlen);

/* The file's absolute path, for messages. */
extern const char *ulid_floor_file_path(void);

#endif							/* ULID_FLOOR_FILE_H */
