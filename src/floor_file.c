/*-------------------------------------------------------------------------
 *
 * floor_file.c
 *	  Reading and writing the persisted floors.
 *
 * The text (floor_text.c) holds the format version, a Unix millisecond
 * above the time of every id any generator of this data directory issued
 * on the clock, and the own floor of every advanced state.  It is replaced
 * atomically (a temporary file, fsync, durable_rename), so a crash leaves
 * either the old or the new text, never a torn one: a file that does not
 * parse was damaged from outside, and the generators refuse to issue until
 * a superuser repairs it (floors.c).
 *
 *-------------------------------------------------------------------------
 */
#include "ulid.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "miscadmin.h"
#include "storage/fd.h"

#include "floor_file.h"

#define FLOOR_TMP_FILE		ULID_FLOOR_FILE ".tmp"

#define WRITE_DETAIL \
	"\"%s\" is the restart floor of gen_monotonic_ulid() and snowflake_next(): no id is issued past the floor it holds until it is written."
#define WRITE_HINT \
	"Check the permissions of the data directory and the free space on its file system."

const char *
ulid_floor_file_path(void)
{
	static char path[MAXPGPATH];

	snprintf(path, sizeof(path), "%s/%s", ULID_DATA_DIR, ULID_FLOOR_FILE);
	return path;
}

/* ERROR (at elevel) 55000: what stands where the temporary file goes */
static void
report_tmp_damage(const char *what, int elevel)
{
	char		tmp[MAXPGPATH];

	snprintf(tmp, sizeof(tmp), "%s/%s", ULID_DATA_DIR, FLOOR_TMP_FILE);
	ereport(elevel,
			(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			 errmsg("could not write the ulid restart floor: \"%s\" is %s", tmp, what),
			 errdetail("The server writes the restart floor of gen_monotonic_ulid() and snowflake_next() to this temporary file, which it creates itself, and renames it to \"%s\"; something else was put in its place. No id is issued past the floor in force until the file is written.",
					   ulid_floor_file_path()),
			 errhint("A superuser removes it: SELECT ulid_floor_repair(now()); (a repair never lowers a floor), or remove it as the operating system user that runs the server.")));
}

int
ulid_data_file_open(const char *rel, struct stat *sb, char *problem, size_t problemlen)
{
	int			fd;

	problem[0] = '\0';

	/*
	 * What stands at the path, before opening it: only a missing path is
	 * missing.  A symbolic link (dangling or not: it may point to a volume
	 * that is not mounted) and anything but a regular file are damage, and
	 * opening a FIFO would block the postmaster for ever.
	 */
	if (lstat(rel, sb) != 0)
	{
		if (errno != ENOENT)
			snprintf(problem, problemlen, "it cannot be examined: %s", strerror(errno));
		return -1;
	}
	if (S_ISLNK(sb->st_mode))
	{
		snprintf(problem, problemlen,
				 "it is a symbolic link, not a file (the file is kept in the data directory itself)");
		return -1;
	}
	if (!S_ISREG(sb->st_mode))
	{
		snprintf(problem, problemlen, "%s",
				 S_ISDIR(sb->st_mode) ? "it is a directory, not a file" : "it is not a regular file");
		return -1;
	}
	/* never blocks, never follows a link put there since */
	fd = open(rel, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | PG_BINARY, 0);
	if (fd < 0)
	{
		snprintf(problem, problemlen, "it cannot be opened: %s", strerror(errno));
		return -1;
	}
	if (fstat(fd, sb) != 0)
	{
		int			save_errno = errno;

		close(fd);
		snprintf(problem, problemlen, "it cannot be examined: %s", strerror(save_errno));
		return -1;
	}
	if (!S_ISREG(sb->st_mode))
	{
		close(fd);
		snprintf(problem, problemlen, "%s",
				 S_ISDIR(sb->st_mode) ? "it is a directory, not a file" : "it is not a regular file");
		return -1;
	}
	return fd;
}

void
ulid_floor_file_read(UlidFloorRead *out, size_t max_entries)
{
	int			fd;
	struct stat sb;
	char	   *buf;
	ssize_t		n;
	int			version;
	int			line;
	uint64		ms;
	ulid_floor_text_status st;
	/* the largest text max_entries can make */
	size_t		max_len = ULID_FLOOR_HEAD_MAX + max_entries * ULID_FLOOR_ENTRY_MAX;

	memset(out, 0, sizeof(*out));

	fd = ulid_data_file_open(ULID_FLOOR_FILE, &sb, out->problem, sizeof(out->problem));
	if (fd < 0)
	{
		out->status = out->problem[0] ? ULID_FLOOR_READ_DAMAGED : ULID_FLOOR_READ_MISSING;
		return;
	}
	if ((size_t) sb.st_size > max_len)
	{
		close(fd);
		out->status = ULID_FLOOR_READ_DAMAGED;
		snprintf(out->problem, sizeof(out->problem),
				 "it has %lld bytes, more than the floors of %zu states take",
				 (long long) sb.st_size, max_entries);
		return;
	}
	buf = palloc((size_t) sb.st_size + 1);
	n = read(fd, buf, (size_t) sb.st_size + 1);	/* one more: a file that grew */
	if (n < 0)
	{
		int			save_errno = errno;

		close(fd);
		pfree(buf);
		out->status = ULID_FLOOR_READ_DAMAGED;
		snprintf(out->problem, sizeof(out->problem), "it cannot be read: %s", strerror(save_errno));
		return;
	}
	close(fd);
	out->entries = palloc(Max(max_entries, 1) * sizeof(ulid_floor_entry));
	st = ulid_floor_parse(buf, (size_t) n, &version, &ms, out->entries, max_entries,
						  &out->nentries, &line);
	pfree(buf);
	if (st != ULID_FLOOR_TEXT_OK)
	{
		out->status = ULID_FLOOR_READ_DAMAGED;
		if (n == 0)
			snprintf(out->problem, sizeof(out->problem), "it is empty");
		else if (st == ULID_FLOOR_TEXT_BAD_VERSION)
			snprintf(out->problem, sizeof(out->problem),
					 "it has format version %d, which this build does not read (it reads 1 and 2)",
					 version);
		else
			snprintf(out->problem, sizeof(out->problem), "%s (line %d)",
					 ulid_floor_status_text(st), line);
		return;
	}
	out->status = ULID_FLOOR_READ_OK;
	out->ms = (int64) ms;
}

/* What stands at a path that should hold a regular file of the server's. */
static const char *
kind_of(const struct stat *sb)
{
	if (S_ISLNK(sb->st_mode))
		return "a symbolic link";
	if (S_ISDIR(sb->st_mode))
		return "a directory";
	if (S_ISFIFO(sb->st_mode))
		return "a FIFO";
	if (!S_ISREG(sb->st_mode))
		return "a special file";
	return "a file of another operating system user";
}

/*
 * Clear one path (relative to the data directory) for the writer: remove a
 * symlink, anything that is neither a file nor a directory, a file this
 * process cannot open for reading and writing, or an empty directory; at
 * the temporary file's path (temporary) also any file.  Returns what was
 * removed (NULL: nothing, or the server's own leftover temporary file);
 * ERROR when it cannot.
 */
static const char *
clear_path(const char *rel, bool temporary)
{
	char		abs[MAXPGPATH];
	struct stat sb;
	const char *what;
	int			fd;

	snprintf(abs, sizeof(abs), "%s/%s", ULID_DATA_DIR, rel);
	if (lstat(rel, &sb) != 0)
	{
		if (errno == ENOENT)
			return NULL;
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not inspect \"%s\" to repair the ulid restart floor: %m", abs),
				 errhint("Remove \"%s\" by hand as the operating system user that runs the server, then run ulid_floor_repair() again.", abs)));
	}
	if (S_ISDIR(sb.st_mode))
	{
		if (rmdir(rel) == 0)
			return "an empty directory";
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("could not repair the ulid restart floor: \"%s\" is a directory: %m", abs),
				 errdetail("The restart floor of gen_monotonic_ulid() and snowflake_next() is the file \"%s\"; a repair removes an empty directory in its place, not one with contents.",
						   ulid_floor_file_path()),
				 errhint("Move the directory \"%s\" away (or remove it) as the operating system user that runs the server, then run ulid_floor_repair() again.", abs)));
	}
	if (temporary)
	{
		/* a leftover of the server's own is removed without a word */
		what = S_ISREG(sb.st_mode) && sb.st_uid == geteuid() ? NULL : kind_of(&sb);
		if (unlink(rel) != 0 && errno != ENOENT)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not remove %s at \"%s\" to repair the ulid restart floor: %m",
							what ? what : "a file", abs),
					 errhint("Remove \"%s\" by hand as the operating system user that runs the server, then run ulid_floor_repair() again.", abs)));
		return what;
	}
	if (S_ISLNK(sb.st_mode))
		what = "a symbolic link";
	else if (!S_ISREG(sb.st_mode))
		what = "a special file";
	else if ((fd = open(rel, O_RDWR | PG_BINARY, 0)) < 0)
		what = "a file that could not be opened";
	else
	{
		close(fd);
		return NULL;			/* a file durable_rename() can replace */
	}
	if (unlink(rel) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not remove %s at \"%s\" to repair the ulid restart floor: %m", what, abs),
				 errhint("Remove \"%s\" by hand as the operating system user that runs the server, then run ulid_floor_repair() again.", abs)));
	return what;
}

const char *
ulid_floor_file_clear(void)
{
	const char *what = clear_path(ULID_FLOOR_FILE, false);
	const char *tmp = clear_path(FLOOR_TMP_FILE, true);

	if (what != NULL)
		what = psprintf("%s that stood in its place", what);
	if (tmp != NULL)
		tmp = psprintf("%s that stood where its temporary file \"%s/%s\" is written",
					   tmp, ULID_DATA_DIR, FLOOR_TMP_FILE);
	if (what != NULL && tmp != NULL)
		return psprintf("%s, and %s", what, tmp);
	return what != NULL ? what : tmp;
}

/*
 * Before the temporary file is created: nothing may stand at its path.  A
 * regular file of the server's own user is a write that a crash cut short:
 * it is removed.  Anything else (a symbolic link, a FIFO, a directory,
 * another user's file) was put there from outside: damage, reported at
 * elevel with 55000, naming it and the repair (ulid_floor_file_clear()
 * removes it).  Returns whether the path is clear.
 */
static bool
clear_tmp(int elevel)
{
	struct stat sb;

	if (lstat(FLOOR_TMP_FILE, &sb) != 0)
	{
		if (errno == ENOENT)
			return true;
		ereport(elevel,
				(errcode_for_file_access(),
				 errmsg("could not inspect file \"%s\": %m", FLOOR_TMP_FILE),
				 errdetail(WRITE_DETAIL, ulid_floor_file_path()), errhint(WRITE_HINT)));
		return false;
	}
	if (S_ISREG(sb.st_mode) && sb.st_uid == geteuid())
	{
		if (unlink(FLOOR_TMP_FILE) == 0 || errno == ENOENT)
			return true;
		ereport(elevel,
				(errcode_for_file_access(),
				 errmsg("could not remove the leftover file \"%s\": %m", FLOOR_TMP_FILE),
				 errdetail(WRITE_DETAIL, ulid_floor_file_path()), errhint(WRITE_HINT)));
		return false;
	}
	report_tmp_damage(kind_of(&sb), elevel);
	return false;
}

bool
ulid_floor_file_write(const char *text, size_t len, int elevel)
{
	const char *path = ulid_floor_file_path();
	int			fd;

	/*
	 * A new file, created here: never a FIFO's open (which would block for
	 * ever, holding the writer's lock) nor a symbolic link followed.
	 */
	if (!clear_tmp(elevel))
		return false;
	fd = OpenTransientFile(FLOOR_TMP_FILE,
						   O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | PG_BINARY);
	if (fd < 0 && (errno == EEXIST || errno == ELOOP))
	{
		struct stat sb;

		/* put there since clear_tmp() looked */
		report_tmp_damage(lstat(FLOOR_TMP_FILE, &sb) == 0 ? kind_of(&sb) : "something",
						  elevel);
		return false;
	}
	if (fd < 0)
	{
		ereport(elevel,
				(errcode_for_file_access(),
				 errmsg("could not create file \"%s\": %m", FLOOR_TMP_FILE),
				 errdetail(WRITE_DETAIL, path), errhint(WRITE_HINT)));
		return false;
	}
	errno = 0;
	if (write(fd, text, len) != (ssize_t) len)
	{
		int			save_errno = errno ? errno : ENOSPC;

		CloseTransientFile(fd);
		errno = save_errno;
		ereport(elevel,
				(errcode_for_file_access(),
				 errmsg("could not write file \"%s\": %m", FLOOR_TMP_FILE),
				 errdetail(WRITE_DETAIL, path), errhint(WRITE_HINT)));
		return false;
	}
	if (CloseTransientFile(fd) != 0)
	{
		ereport(elevel,
				(errcode_for_file_access(),
				 errmsg("could not close file \"%s\": %m", FLOOR_TMP_FILE),
				 errdetail(WRITE_DETAIL, path), errhint(WRITE_HINT)));
		return false;
	}

	/*
	 * fsyncs the file, renames it, fsyncs the directory.  durable_rename's
	 * own message names the files; a context line says what the file is.
	 */
	if (durable_rename(FLOOR_TMP_FILE, ULID_FLOOR_FILE, elevel >= ERROR ? LOG : elevel) != 0)
	{
		ereport(elevel,
				(errcode_for_file_access(),
				 errmsg("could not replace the ulid restart floor file \"%s\"", path),
				 errdetail(WRITE_DETAIL, path), errhint(WRITE_HINT)));
		return false;
	}
	return true;
}
