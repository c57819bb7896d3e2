/*-------------------------------------------------------------------------
 *
 * floor_file.c
 *	  Reading and writing the persisted server-wide floor.
 *
 * The text (floor_text.c) holds the format version and a Unix millisecond
 * above the time of every id any generator of this data directory has
 * returned.  It is replaced atomically (a temporary file, fsync,
 * durable_rename), so a crash leaves either the old or the new floor, never
 * a torn one.
 *
 *-------------------------------------------------------------------------
 */
#include "ulid.h"

#include <fcntl.h>
#include <unistd.h>

#include "storage/fd.h"

#include "floor_file.h"
#include "floor_text.h"

#define FLOOR_TMP_FILE		ULID_FLOOR_FILE ".tmp"

#define FLOOR_LOST_DETAIL \
	"Until it is rewritten, gen_monotonic_ulid() and snowflake_next() start from the clock and cannot guarantee values above those issued before this start."
#define FLOOR_LOST_HINT \
	"If the clock may have been set back, call ulid_monotonic_advance() with the largest stored ULID."

int64
ulid_floor_file_read(void)
{
	char		buf[ULID_FLOOR_TEXT_MAX + 1];	/* one more: a longer file fails */
	int			fd;
	ssize_t		n;
	int			save_errno;
	uint64		ms;

	fd = open(ULID_FLOOR_FILE, O_RDONLY | PG_BINARY, 0);
	if (fd < 0)
	{
		if (errno != ENOENT)	/* no file: nothing was ever issued */
			ereport(WARNING,
					(errcode_for_file_access(),
					 errmsg("could not open file \"%s\": %m", ULID_FLOOR_FILE),
					 errdetail(FLOOR_LOST_DETAIL), errhint(FLOOR_LOST_HINT)));
		return 0;
	}
	n = read(fd, buf, sizeof(buf));
	save_errno = errno;
	close(fd);
	if (n < 0)
	{
		errno = save_errno;
		ereport(WARNING,
				(errcode_for_file_access(),
				 errmsg("could not read file \"%s\": %m", ULID_FLOOR_FILE),
				 errdetail(FLOOR_LOST_DETAIL), errhint(FLOOR_LOST_HINT)));
		return 0;
	}
	if (ulid_floor_parse(buf, (size_t) n, &ms) != ULID_FLOOR_TEXT_OK)
	{
		ereport(WARNING,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("invalid contents in file \"%s\"", ULID_FLOOR_FILE),
				 errdetail(FLOOR_LOST_DETAIL), errhint(FLOOR_LOST_HINT)));
		return 0;
	}
	return (int64) ms;
}

bool
ulid_floor_file_write(int64 ms, int elevel)
{
	char		buf[ULID_FLOOR_TEXT_MAX];
	int			len;
	int			fd;

	Assert(ms >= 0);
	len = (int) ulid_floor_format((uint64) ms, buf);
	fd = OpenTransientFile(FLOOR_TMP_FILE, O_WRONLY | O_CREAT | O_TRUNC | PG_BINARY);
	if (fd < 0)
	{
		ereport(elevel,
				(errcode_for_file_access(),
				 errmsg("could not create file \"%s\": %m", FLOOR_TMP_FILE)));
		return false;
	}
	errno = 0;
	if (write(fd, buf, len) != len)
	{
		int			save_errno = errno ? errno : ENOSPC;

		CloseTransientFile(fd);
		errno = save_errno;
		ereport(elevel,
				(errcode_for_file_access(),
				 errmsg("could not write file \"%s\": %m", FLOOR_TMP_FILE)));
		return false;
	}
	if (CloseTransientFile(fd) != 0)
	{
		ereport(elevel,
				(errcode_for_file_access(),
				 errmsg("could not close file \"%s\": %m", FLOOR_TMP_FILE)));
		return false;
	}
	/* fsyncs the file, renames it, fsyncs the directory */
	return durable_rename(FLOOR_TMP_FILE, ULID_FLOOR_FILE, elevel) == 0;
}
