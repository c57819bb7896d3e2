/*-------------------------------------------------------------------------
 *
 * keys.c
 *	  Named keys for the masks: the keyring root they come from, the table
 *	  ulid_keyring.keys that names them, ulid_key_create() / ulid_key_drop(),
 *	  ulid_check_keys(), and the per-backend cache the masks read them from.
 *
 * The root.  32 bytes that no SQL reaches: the output of the command
 * ulid.keyring_command (64 hexadecimal digits, for a KMS: a PGC_SIGHUP,
 * superuser-only setting, as ssl_passphrase_command) when it is set, else
 * the file ulid_keyring in the data directory (64 lowercase hexadecimal
 * digits and a newline, mode 0600), opened as the floor file is
 * (ulid_data_file_open: never through a link, never blocking).  The file is
 * made only by ulid_key_create() when it is missing and this database has
 * no key (a temporary file of 32 bytes from pg_strong_random(), fsync'ed,
 * link()ed into place so that a concurrent creator loses cleanly, and the
 * directory fsync'ed); a mask never makes it.  No function returns the
 * root and no message shows it; a backend keeps it, once read, until its
 * key cache is dropped (wiped then).  A base backup and a standby carry
 * the file; pg_upgrade and a new server do not.
 *
 * Keys.  A key's 16-byte secret (the AES-128 and SipHash key of mask.h) is
 *	  - made by name: HKDF-SHA256(ikm = root, salt = "ulid keyring v1",
 *		info = "key:" || name), its first 16 bytes.  Nothing secret is
 *		stored; the same name on the same root is the same key (also after
 *		DROP EXTENSION and CREATE EXTENSION, or on another server with a copy
 *		of the root);
 *	  - imported (ulid_key_create(name, secret)): stored only wrapped, RFC
 *		3394 AES key wrap (24 bytes) under the KEK HKDF-SHA256(root, same
 *		salt, info = "wrap:" || name)[0..16) (the name is bound: a wrapped
 *		secret copied to another row does not unwrap).
 * Each row holds a fingerprint, HMAC-SHA256(secret, "ulid key
 * fingerprint")[0..8), recomputed when a backend loads the key: a key that
 * does not match (another root, a damaged row) fails with 55000 naming the
 * key, the root's source and the fix; it never masks with another secret.
 * The table holds nothing secret, so record comparison, COPY, row_to_json
 * and dumps of it show nothing that leads to a secret; every role may read
 * it (pg_dump by any role needs to).
 *
 * Writes.  PUBLIC may INSERT (so that any role restores a dump of its own,
 * which holds an empty COPY of the table), no more.  A BEFORE ROW trigger
 * refuses every row but a superuser's (and skips, silently, rows a logical
 * replication worker applies: each server makes its keys from its own
 * root, so keys never travel by replication, and a key name on both sides
 * never stops a subscription).  The cache is invalidated by AFTER ROW (and
 * AFTER TRUNCATE) triggers only: a statement that changes no row, such as a
 * plain role's INSERT ... WHERE false, invalidates nothing.
 *
 * The cache.  A backend reads every key of the table into a hash table the
 * first time a mask needs one, and expands each secret into its mask keys
 * (mask.h) then.  A relcache invalidation of the table (sent by the
 * triggers) makes every backend's callback drop the cache (wiping the
 * secrets and the root) and bump ulid_key_generation, which each call site
 * compares with the one it found its key at (keys.h): a mask call costs no
 * lookup while nothing changes.  The table is read with a fresh catalog
 * snapshot, as syscaches read catalogs: what was committed when the cache
 * was loaded, and this transaction's own changes; a rolled-back change
 * invalidates the cache again at its abort (in PGlite, which has no
 * relcache invalidation to send, transaction callbacks forget the cache at
 * the abort of a transaction or subtransaction).
 *
 * Citus.  ulid_key_create() and ulid_key_drop() on a Citus coordinator do
 * the same on every worker (run_command_on_workers, with the row, which
 * holds no secret): every node must read the same root.
 *
 *-------------------------------------------------------------------------
 */
#include "ulid.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "commands/trigger.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#ifndef __PGLITE__
#include "port.h"
#include "replication/logicalworker.h"
#include "storage/fd.h"
#endif
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/tuplestore.h"

#include "floor_file.h"
#include "kdf.h"
#include "keys.h"
#include "randbuf.h"

#define KEY_SCHEMA		"ulid_keyring"
#define KEY_TABLE		"keys"
#define KEY_TABLE_NAME	"ulid_keyring.keys"
#define KEY_NAME_MAX	(NAMEDATALEN - 1)

#define ROOT_BYTES		32
#define ROOT_FILE		"ulid_keyring"
#define WRAPPED_BYTES	(ULID_SECRET_BYTES + 8)
#define FINGERPRINT_BYTES 8
#define KDF_SALT		"ulid keyring v1"
#define FP_LABEL		"ulid key fingerprint"

/* the table's columns */
#define COL_NAME		1
#define COL_WRAPPED		3
#define COL_FINGERPRINT	4

static void require_key_admin(const char *what);

#define HINT_CREATE \
	"A superuser creates it with SELECT ulid_key_create('%s'); SELECT name FROM ulid_keyring.keys lists the keys."

typedef enum key_state
{
	KEY_OK,
	KEY_OTHER_ROOT,				/* the fingerprint differs */
	KEY_UNWRAP_FAILED			/* the wrapped secret fails its integrity check */
} key_state;

typedef struct key_entry
{
	char		name[NAMEDATALEN];	/* hash key, NUL-padded */
	key_state	state;
	bool		imported;
	uint8		fingerprint[FINGERPRINT_BYTES]; /* the row's */
	ulid_mask_key key;
} key_entry;

ULID_HIDDEN uint64 ulid_key_generation = 1;

static char *keyring_command = NULL;	/* ulid.keyring_command */

static HTAB *key_cache = NULL;	/* NULL: not loaded */
static Oid	key_table_oid = InvalidOid;
static bool callback_registered = false;
static uint8 root[ROOT_BYTES];
static bool have_root = false;

/* --- the root ------------------------------------------------------------------ */

static const char *
root_file_path(void)
{
	static char path[MAXPGPATH];

	snprintf(path, sizeof(path), "%s/%s", ULID_DATA_DIR, ROOT_FILE);
	return path;
}

static bool
root_from_command(void)
{
	return keyring_command != NULL && keyring_command[0] != '\0';
}

/* where the root comes from, for messages */
static char *
root_source(void)
{
	if (root_from_command())
		return pstrdup("the output of ulid.keyring_command");
	return pstrdup("the file \"" ROOT_FILE "\" in the data directory");
}

static int
hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* 64 hexadecimal digits, then only white space: the root (false: not so) */
static bool
parse_root(const char *text, size_t len, uint8 out[ROOT_BYTES])
{
	if (len < 2 * ROOT_BYTES)
		return false;
	for (size_t i = 2 * ROOT_BYTES; i < len; i++)
		if (!isspace((unsigned char) text[i]))
			return false;
	for (int i = 0; i < ROOT_BYTES; i++)
	{
		int			hi = hex_digit(text[2 * i]),
					lo = hex_digit(text[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return false;
		out[i] = (uint8) (hi << 4 | lo);
	}
	return true;
}

/*
 * Read the root into out.  Never raises an error (but for running out of
 * memory): false with problem (what is wrong) and fix (what to do) filled,
 * and *missing set when the file is simply not there.
 */
static bool
read_root(uint8 out[ROOT_BYTES], StringInfo problem, StringInfo fix, bool *missing)
{
	char		buf[2 * ROOT_BYTES + 16];
	size_t		n = 0;
	bool		ok;

	*missing = false;
	if (root_from_command())
	{
#ifdef __PGLITE__
		appendStringInfoString(problem, "ulid.keyring_command is not supported in this build");
		appendStringInfoString(fix, "Reset ulid.keyring_command and keep the root in the file ulid_keyring.");
		return false;
#else
		FILE	   *f;
		int			rc;

		fflush(NULL);
		f = OpenPipeStream(keyring_command, "r");
		if (f == NULL)
		{
			appendStringInfo(problem, "ulid.keyring_command could not be run: %s", strerror(errno));
			appendStringInfoString(fix, "Fix ulid.keyring_command (ALTER SYSTEM or postgresql.conf, then SELECT pg_reload_conf()).");
			return false;
		}
		n = fread(buf, 1, sizeof(buf), f);
		rc = ClosePipeStream(f);
		if (rc != 0)
		{
			ulid_wipe(buf, sizeof(buf));
			appendStringInfo(problem, "ulid.keyring_command failed: %s", wait_result_to_str(rc));
			appendStringInfoString(fix, "Fix ulid.keyring_command so that it exits with status 0 (ALTER SYSTEM or postgresql.conf, then SELECT pg_reload_conf()).");
			return false;
		}
		ok = n < sizeof(buf) && parse_root(buf, n, out);
		ulid_wipe(buf, sizeof(buf));
		if (!ok)
		{
			appendStringInfo(problem, "ulid.keyring_command printed %s%zu bytes, not 64 hexadecimal digits",
							 n == sizeof(buf) ? "at least " : "", n);
			appendStringInfoString(fix, "Fix ulid.keyring_command so that it prints the same 64 hexadecimal digits (32 bytes) on every node and every call.");
			return false;
		}
		return true;
#endif
	}
	else
	{
		struct stat sb;
		char		why[256];
		int			fd = ulid_data_file_open(ROOT_FILE, &sb, why, sizeof(why));
		ssize_t		r;

		if (fd < 0 && why[0] == '\0')
		{
			*missing = true;
			appendStringInfo(problem, "the keyring root \"%s\" is missing", root_file_path());
		}
		else if (fd < 0)
			appendStringInfo(problem, "the keyring root \"%s\" is damaged: %s", root_file_path(), why);
		else
		{
			r = read(fd, buf, sizeof(buf));
			n = r < 0 ? 0 : (size_t) r;
			close(fd);
			ok = r >= 0 && n < sizeof(buf) && parse_root(buf, n, out);
			ulid_wipe(buf, sizeof(buf));
			if (ok)
				return true;
			appendStringInfo(problem, "the keyring root \"%s\" is damaged: %s", root_file_path(),
							 r < 0 ? "it cannot be read" : "it does not hold 64 hexadecimal digits");
		}
		appendStringInfo(fix, "Copy the file %s from the data directory of the server where the keys were made "
						 "(pg_upgrade and a new server do not copy it; a base backup and a standby do), "
						 "owned by the server's operating system user, mode 0600. Without it no key can be used.",
						 ROOT_FILE);
		return false;
	}
}

/* the root, read once per cache (55000 when it cannot be) */
static const uint8 *
get_root(void)
{
	StringInfoData problem,
				fix;
	bool		missing;

	if (have_root)
		return root;
	initStringInfo(&problem);
	initStringInfo(&fix);
	if (!read_root(root, &problem, &fix, &missing))
	{
		ulid_wipe(root, sizeof(root));
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("%s", problem.data),
				 errdetail("The keys of the ulid masks are made from the keyring root, %s.", root_source()),
				 errhint("%s", fix.data)));
	}
	have_root = true;
	return root;
}

/*
 * Make the root file: 32 random bytes as text, in a temporary file that is
 * fsync'ed and linked into place (EEXIST: another session made it first,
 * which is as good), then the directory fsync'ed.
 */
static void
create_root_file(void)
{
	char		tmp[64];
	uint8		bytes[ROOT_BYTES];
	char		text[2 * ROOT_BYTES + 1];
	int			fd;
	bool		ok;

	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", ROOT_FILE, MyProcPid);
	(void) unlink(tmp);
	if (!pg_strong_random(bytes, sizeof(bytes)))
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not generate the random bytes of the ulid keyring root")));
	for (int i = 0; i < ROOT_BYTES; i++)
	{
		text[2 * i] = "0123456789abcdef"[bytes[i] >> 4];
		text[2 * i + 1] = "0123456789abcdef"[bytes[i] & 15];
	}
	text[2 * ROOT_BYTES] = '\n';
	ulid_wipe(bytes, sizeof(bytes));

#ifdef __PGLITE__
	/* one backend, and a file system without hard links: the file itself */
	strlcpy(tmp, ROOT_FILE, sizeof(tmp));
#endif
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | PG_BINARY, 0600);
	ok = fd >= 0 && write(fd, text, sizeof(text)) == (ssize_t) sizeof(text) && ulid_fsync(fd) == 0;
	ulid_wipe(text, sizeof(text));
	if (fd >= 0)
		ok = close(fd) == 0 && ok;
#ifndef __PGLITE__
	if (ok && link(tmp, ROOT_FILE) != 0 && errno != EEXIST)
		ok = false;
#endif
	if (!ok)
	{
		int			save_errno = errno;

		if (fd >= 0)			/* never a file this call did not make */
			(void) unlink(tmp);
		errno = save_errno;
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not create the ulid keyring root \"%s\": %m", root_file_path()),
				 errhint("Check the permissions of the data directory and the free space on its file system.")));
	}
#ifndef __PGLITE__
	(void) unlink(tmp);
#endif
	fd = open(".", O_RDONLY | PG_BINARY, 0);
	if (fd >= 0)
	{
		(void) ulid_fsync(fd);
		close(fd);
	}
}

/* bytes as lowercase hexadecimal digits (palloc'd) */
static char *
hex_of(const uint8 *p, int n)
{
	char	   *out = palloc(2 * n + 1);

	for (int i = 0; i < n; i++)
	{
		out[2 * i] = "0123456789abcdef"[p[i] >> 4];
		out[2 * i + 1] = "0123456789abcdef"[p[i] & 15];
	}
	out[2 * n] = '\0';
	return out;
}

/* --- derivation ---------------------------------------------------------------- */

static void
derive(const uint8 *r, const char *label, const char *name, uint8 out[ULID_SECRET_BYTES])
{
	ulid_hkdf_sha256(r, ROOT_BYTES, (const uint8 *) KDF_SALT, strlen(KDF_SALT),
					 label, strlen(label), name, strlen(name), out, ULID_SECRET_BYTES);
}

static void
fingerprint_of(const uint8 secret[ULID_SECRET_BYTES], uint8 out[FINGERPRINT_BYTES])
{
	uint8		mac[ULID_SHA256_BYTES];

	ulid_hmac_sha256(secret, ULID_SECRET_BYTES, FP_LABEL, strlen(FP_LABEL), NULL, 0, mac);
	memcpy(out, mac, FINGERPRINT_BYTES);
	ulid_wipe(mac, sizeof(mac));
}

/*
 * A key's secret from its row: derived from the name, or unwrapped (false
 * when the wrapped bytes do not unwrap under this root).
 */
static bool
key_secret(const uint8 *r, const char *name, const uint8 *wrapped, uint8 secret[ULID_SECRET_BYTES])
{
	uint8		kek[ULID_SECRET_BYTES];
	bool		ok;

	if (wrapped == NULL)
	{
		derive(r, "key:", name, secret);
		return true;
	}
	derive(r, "wrap:", name, kek);
	ok = ulid_aes_kw_unwrap(kek, wrapped, ULID_SECRET_BYTES / 8, secret);
	ulid_wipe(kek, sizeof(kek));
	return ok;
}

/* --- the cache --------------------------------------------------------------- */

/* Drop the cache, wiping the expanded secrets and the root. */
static void
forget_keys(void)
{
	if (key_cache != NULL)
	{
		HASH_SEQ_STATUS seq;
		key_entry  *e;

		hash_seq_init(&seq, key_cache);
		while ((e = (key_entry *) hash_seq_search(&seq)) != NULL)
			ulid_wipe(&e->key, sizeof(e->key));
		hash_destroy(key_cache);
		key_cache = NULL;
	}
	ulid_wipe(root, sizeof(root));
	have_root = false;
	key_table_oid = InvalidOid;
	ulid_key_generation++;
}

/* relcache invalidation: of the key table, or of every relation */
static void
key_table_changed(Datum arg pg_attribute_unused(), Oid relid)
{
	if (relid == InvalidOid || relid == key_table_oid)
		forget_keys();
}

#ifdef __PGLITE__
/*
 * One backend and no relcache invalidation (PGlite exports no
 * CacheInvalidateRelcache): the triggers forget the cache at once, and a
 * rolled-back change, of the transaction or of a subtransaction (ROLLBACK TO
 * SAVEPOINT, an exception block), is forgotten here, where a server's
 * invalidation messages would be processed at abort.
 */
static void
keys_xact_callback(XactEvent event, void *arg pg_attribute_unused())
{
	if (event == XACT_EVENT_ABORT)
		forget_keys();
}

static void
keys_subxact_callback(SubXactEvent event, SubTransactionId mySubid pg_attribute_unused(),
					  SubTransactionId parentSubid pg_attribute_unused(), void *arg pg_attribute_unused())
{
	if (event == SUBXACT_EVENT_ABORT_SUB)
		forget_keys();
}
#endif

/* a new ulid.keyring_command: read the root again */
static void
assign_keyring_command(const char *newval pg_attribute_unused(), void *extra pg_attribute_unused())
{
	if (key_cache != NULL || have_root)
		forget_keys();
}

void
ulid_keys_init(void)
{
	DefineCustomStringVariable("ulid.keyring_command",
							   "A command printing the 64 hexadecimal digits of the ulid keyring root (empty: the file ulid_keyring in the data directory).",
							   "Every key of the masks is made from the keyring root. Set it in postgresql.conf or with ALTER SYSTEM; every node of a cluster needs the same root.",
							   &keyring_command,
							   "",
							   PGC_SIGHUP, GUC_SUPERUSER_ONLY,
							   NULL, assign_keyring_command, NULL);
}

/*
 * The key table: ulid_keyring.keys, the schema the extension created
 * (ERROR when missing, InvalidOid with missing_ok).
 */
static Oid
find_key_table(bool missing_ok)
{
	Oid			nsp = get_namespace_oid(KEY_SCHEMA, true);
	Oid			relid = OidIsValid(nsp) ? get_relname_relid(KEY_TABLE, nsp) : InvalidOid;

	if (!OidIsValid(relid) && !missing_ok)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("the key table %s of extension ulid does not exist", KEY_TABLE_NAME),
				 errhint("Run ALTER EXTENSION ulid UPDATE.")));
	return relid;
}

/* Open the key table, checking that no one but a superuser owns it. */
static Relation
open_key_table(LOCKMODE mode)
{
	Relation	rel = table_open(find_key_table(false), mode);

	if (!superuser_arg(rel->rd_rel->relowner))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("the key table %s is not owned by a superuser", KEY_TABLE_NAME),
				 errdetail("Its owner is %s; only superusers may decide which keys exist.",
						   GetUserNameFromId(rel->rd_rel->relowner, false))));
	return rel;
}

/* a bytea column of a key row: its bytes, or NULL (when null or not len bytes) */
static const uint8 *
row_bytes(HeapTuple tup, TupleDesc desc, int col, int len)
{
	bool		isnull;
	Datum		d = heap_getattr(tup, col, desc, &isnull);
	bytea	   *b;

	if (isnull)
		return NULL;
	b = DatumGetByteaPP(d);
	return (int) VARSIZE_ANY_EXHDR(b) == len ? (const uint8 *) VARDATA_ANY(b) : NULL;
}

/* a column of a key row is null (heap_attisnull is not exported to PGlite) */
static bool
column_is_null(HeapTuple tup, int col, TupleDesc desc)
{
	bool		isnull;

	(void) heap_getattr(tup, col, desc, &isnull);
	return isnull;
}

/* Read every key into a new cache (55000 when there are keys and no root). */
static void
load_keys(void)
{
	HASHCTL		ctl;
	HTAB	   *cache;
	Relation	rel;
	SysScanDesc scan;
	HeapTuple	tup;

	if (!callback_registered)
	{
		CacheRegisterRelcacheCallback(key_table_changed, (Datum) 0);
#ifdef __PGLITE__
		RegisterXactCallback(keys_xact_callback, NULL);
		RegisterSubXactCallback(keys_subxact_callback, NULL);
#endif
		callback_registered = true;
	}

	ctl.keysize = NAMEDATALEN;
	ctl.entrysize = sizeof(key_entry);
	ctl.hcxt = TopMemoryContext;
	cache = hash_create("ulid keys", 16, &ctl, HASH_ELEM | HASH_STRINGS | HASH_CONTEXT);

	PG_TRY();
	{
		rel = open_key_table(AccessShareLock);
		/* no snapshot: the catalog snapshot, as syscaches read catalogs */
		scan = systable_beginscan(rel, InvalidOid, false, NULL, 0, NULL);
		while ((tup = systable_getnext(scan)) != NULL)
		{
			TupleDesc	desc = RelationGetDescr(rel);
			bool		isnull;
			char	   *s = TextDatumGetCString(heap_getattr(tup, COL_NAME, desc, &isnull));
			bool		imported = !column_is_null(tup, COL_WRAPPED, desc);
			const uint8 *wrapped = row_bytes(tup, desc, COL_WRAPPED, WRAPPED_BYTES);
			const uint8 *fp = row_bytes(tup, desc, COL_FINGERPRINT, FINGERPRINT_BYTES);
			char		key[NAMEDATALEN] = {0};
			uint8		secret[ULID_SECRET_BYTES];
			uint8		mine[FINGERPRINT_BYTES];
			key_entry  *e;

			if (strlen(s) > KEY_NAME_MAX)
				continue;		/* the table's check keeps these out */
			strlcpy(key, s, NAMEDATALEN);
			e = (key_entry *) hash_search(cache, key, HASH_ENTER, NULL);
			e->imported = imported;
			memset(e->fingerprint, 0, sizeof(e->fingerprint));
			if (fp)
				memcpy(e->fingerprint, fp, FINGERPRINT_BYTES);
			if ((imported && wrapped == NULL) || !key_secret(get_root(), key, wrapped, secret))
				e->state = KEY_UNWRAP_FAILED;
			else
			{
				fingerprint_of(secret, mine);
				e->state = fp && memcmp(mine, fp, FINGERPRINT_BYTES) == 0 ? KEY_OK : KEY_OTHER_ROOT;
				if (e->state == KEY_OK)
					ulid_mask_key_init(&e->key, secret);
				ulid_wipe(secret, sizeof(secret));
			}
		}
		systable_endscan(scan);
		key_table_oid = RelationGetRelid(rel);
		table_close(rel, AccessShareLock);
	}
	PG_CATCH();
	{
		hash_destroy(cache);
		PG_RE_THROW();
	}
	PG_END_TRY();
	key_cache = cache;
}

/* ERROR 55000 for a key that the root does not verify */
static void
report_bad_key(const key_entry *e)
{
	char	   *src = root_source();

	if (e->state == KEY_UNWRAP_FAILED)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("key \"%s\" was wrapped under another keyring root", e->name),
				 errdetail("Its imported secret does not unwrap under the keyring root, %s.", src),
				 errhint("Restore the keyring root the key was made under (copy the file %s from the server where it was made, or fix ulid.keyring_command); a key is never used with another secret.",
						 ROOT_FILE)));
	ereport(ERROR,
			(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			 errmsg("key \"%s\" was made under another keyring root", e->name),
			 errdetail("Its fingerprint does not match the key made from the keyring root, %s: its masks would differ from every mask made before.", src),
			 errhint("Restore the keyring root the key was made under (copy the file %s from the server where it was made, or fix ulid.keyring_command); a key is never used with another secret.",
					 ROOT_FILE)));
}

const ulid_mask_key *
ulid_key_find(ulid_key_site *site, text *name)
{
	int			len = VARSIZE_ANY_EXHDR(name);
	char		key[NAMEDATALEN] = {0};
	key_entry  *e = NULL;

	if (key_cache == NULL)
		load_keys();
	if (len <= KEY_NAME_MAX && memchr(VARDATA_ANY(name), '\0', len) == NULL)
	{
		memcpy(key, VARDATA_ANY(name), len);
		e = (key_entry *) hash_search(key_cache, key, HASH_FIND, NULL);
	}
	if (e == NULL)
	{
		char	   *s = text_to_cstring(name);

		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("key \"%s\" does not exist", s),
				 errhint(HINT_CREATE, s)));
	}
	if (e->state != KEY_OK)
	{
		/* read the root again next time: a fixed root takes effect at once */
		key_entry	bad = *e;

		forget_keys();
		report_bad_key(&bad);
	}
	site->key = &e->key;
	site->namelen = len;
	memcpy(site->name, key, len);
	site->generation = ulid_key_generation;
	return site->key;
}

bool
ulid_keyring_root_problem(StringInfo problem, StringInfo fix)
{
	Oid			relid = find_key_table(true);
	Relation	rel;
	SysScanDesc scan;
	bool		any;
	uint8		r[ROOT_BYTES];
	bool		missing;
	HASH_SEQ_STATUS seq;
	key_entry  *e;
	int			bad = 0;

	if (!OidIsValid(relid))
		return false;
	rel = table_open(relid, AccessShareLock);
	scan = systable_beginscan(rel, InvalidOid, false, NULL, 0, NULL);
	any = systable_getnext(scan) != NULL;
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	if (!any)
		return false;
	if (!read_root(r, problem, fix, &missing))
		return true;
	ulid_wipe(r, sizeof(r));
	if (key_cache == NULL)
		load_keys();
	hash_seq_init(&seq, key_cache);
	while ((e = (key_entry *) hash_seq_search(&seq)) != NULL)
		if (e->state != KEY_OK)
		{
			appendStringInfo(problem, "%s\"%s\"", bad++ ? ", " : "", e->name);
		}
	if (bad == 0)
		return false;
	appendStringInfo(problem, ": %s made under another keyring root than %s", bad > 1 ? "keys were" : "a key was",
					 root_source());
	appendStringInfo(fix, "Restore the keyring root these keys were made under: copy the file %s from the server where they were made (pg_upgrade and new servers do not copy it), or fix ulid.keyring_command.",
					 ROOT_FILE);
	return true;
}

/*
 * ulid_keys_trigger(): the triggers of the key table.
 * - BEFORE each row inserted, updated or deleted (ENABLE ALWAYS): a row a
 *	 logical replication worker applies is skipped (keys never travel by
 *	 replication); otherwise every role but superusers is refused.
 * - AFTER each row, and after TRUNCATE: every backend forgets its keys.
 */
PG_FUNCTION_INFO_V1(ulid_keys_trigger);
Datum
ulid_keys_trigger(PG_FUNCTION_ARGS)
{
	TriggerData *trig = (TriggerData *) fcinfo->context;

	if (!CALLED_AS_TRIGGER(fcinfo))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("ulid_keys_trigger() is a trigger function")));
	if (TRIGGER_FIRED_BEFORE(trig->tg_event))
	{
#ifndef __PGLITE__
		if (IsLogicalWorker())
			return PointerGetDatum(NULL);
#endif
		require_key_admin("add, change or remove a row of ulid_keyring.keys");
		return PointerGetDatum(TRIGGER_FIRED_BY_UPDATE(trig->tg_event) ?
							   trig->tg_newtuple : trig->tg_trigtuple);
	}
#ifdef __PGLITE__
	/* one backend, and no CacheInvalidateRelcache() exported: forget here */
	key_table_changed((Datum) 0, RelationGetRelid(trig->tg_relation));
#else
	CacheInvalidateRelcache(trig->tg_relation);
#endif
	return PointerGetDatum(NULL);
}

/* --- ulid_key_create, ulid_key_drop and ulid_check_keys --------------------------- */

static void
require_key_admin(const char *what)
{
	if (!superuser())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("must be superuser to %s", what),
				 errdetail("Keys are created and dropped by superusers."),
				 errhint("A superuser grants the use of keys: GRANT EXECUTE ON FUNCTION ulid_mask(ulid, text) TO a role, and likewise for the other mask functions.")));
}

/* the name argument: 1 to 63 bytes (22004 when NULL, 22023 otherwise) */
static char *
key_name_arg(FunctionCallInfo fcinfo)
{
	char	   *name;

	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("a key's name cannot be NULL")));
	name = text_to_cstring(PG_GETARG_TEXT_PP(0));
	if (name[0] == '\0' || strlen(name) > KEY_NAME_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("a key's name is 1 to %d bytes, not %d", KEY_NAME_MAX, (int) strlen(name))));
	return name;
}

/*
 * Run sql (%s: the key table; $1: name, $2: wrapped or NULL, $3:
 * fingerprint or NULL) with SPI, returning SPI_processed.
 */
static uint64
key_table_exec(const char *fmt, const char *name, const uint8 *wrapped,
			   const uint8 *fp)
{
	Relation	rel = open_key_table(RowExclusiveLock);
	char	   *table = quote_qualified_identifier(get_namespace_name(RelationGetNamespace(rel)),
												   RelationGetRelationName(rel));
	Oid			types[3] = {TEXTOID, BYTEAOID, BYTEAOID};
	Datum		values[3] = {CStringGetTextDatum(name), 0, 0};
	char		nulls[3] = {' ', 'n', 'n'};
	int			rc;
	uint64		n;

	if (wrapped)
	{
		bytea	   *b = palloc(VARHDRSZ + WRAPPED_BYTES);

		SET_VARSIZE(b, VARHDRSZ + WRAPPED_BYTES);
		memcpy(VARDATA(b), wrapped, WRAPPED_BYTES);
		values[1] = PointerGetDatum(b);
		nulls[1] = ' ';
	}
	if (fp)
	{
		bytea	   *b = palloc(VARHDRSZ + FINGERPRINT_BYTES);

		SET_VARSIZE(b, VARHDRSZ + FINGERPRINT_BYTES);
		memcpy(VARDATA(b), fp, FINGERPRINT_BYTES);
		values[2] = PointerGetDatum(b);
		nulls[2] = ' ';
	}
	table_close(rel, NoLock);
	SPI_connect();
	rc = SPI_execute_with_args(psprintf(fmt, table, table), 3, types, values, nulls, false, 0);
	if (rc < 0)
		elog(ERROR, "SPI_execute_with_args on %s failed: %s", KEY_TABLE_NAME, SPI_result_code_string(rc));
	n = SPI_processed;
	SPI_finish();
	return n;
}

/* where this server is in a Citus cluster (nothing here links to Citus: SQL only) */
typedef enum citus_role
{
	CITUS_NONE,					/* no Citus in this database */
	CITUS_COORDINATOR,			/* group 0 */
	CITUS_WORKER				/* another group */
} citus_role;

static citus_role
citus_role_here(void)
{
	citus_role	r = CITUS_NONE;

	SPI_connect();
	if (SPI_execute("SELECT FROM pg_catalog.pg_extension WHERE extname = 'citus'", true, 1) == SPI_OK_SELECT &&
		SPI_processed == 1)
		r = SPI_execute("SELECT FROM pg_dist_local_group WHERE groupid = 0", true, 1) == SPI_OK_SELECT &&
			SPI_processed == 1 ? CITUS_COORDINATOR : CITUS_WORKER;
	SPI_finish();
	return r;
}

/*
 * On a Citus coordinator: run cmd (a format() string, %1$L: the key's
 * name) on every worker; when check, then ask each worker whether its root
 * verifies the key.  ERROR 55000 naming the first worker that failed.  The
 * workers' changes commit on their own (rows hold no secret, and a row
 * left on a worker is replaced by the next ulid_key_create of its name).
 */
static void
key_on_workers(const char *cmd, const char *name, bool check)
{
	Oid			types[2] = {TEXTOID, TEXTOID};
	Datum		values[2] = {CStringGetTextDatum(cmd), CStringGetTextDatum(name)};
	const char *q = "SELECT r.nodename || ':' || r.nodeport || ': ' || r.result "
		"FROM run_command_on_workers(pg_catalog.format($1, $2)) r "
		"WHERE NOT r.success OR r.result <> 'ok'";
	char	   *failed = NULL;

	SPI_connect();
	if (SPI_execute_with_args(q, 2, types, values, NULL, false, 1) == SPI_OK_SELECT && SPI_processed > 0)
		failed = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
	if (failed == NULL && check)
	{
		values[0] = CStringGetTextDatum("SELECT coalesce((SELECT coalesce(problem, 'ok') FROM ulid_check_local_keys() WHERE name = %1$L), 'the key is missing')");
		if (SPI_execute_with_args(q, 2, types, values, NULL, false, 1) == SPI_OK_SELECT && SPI_processed > 0)
			failed = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
	}
	if (failed)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("could not make key \"%s\" on a Citus worker: %s", name, failed),
				 errdetail("ulid_key_create() and ulid_key_drop() on the coordinator do the same on every worker, and every node must mask with the same key."),
				 errhint("Give every node the coordinator's keyring root (copy its file %s, or set the same ulid.keyring_command), then try again; SELECT * FROM ulid_check_keys() compares the nodes.",
						 ROOT_FILE)));
	SPI_finish();
}

/* ulid_key_create(name text, secret bytea DEFAULT NULL) */
PG_FUNCTION_INFO_V1(ulid_key_create);
Datum
ulid_key_create(PG_FUNCTION_ARGS)
{
	char	   *name;
	uint8		secret[ULID_SECRET_BYTES];
	uint8		kek[ULID_SECRET_BYTES];
	uint8		wrapped[WRAPPED_BYTES];
	uint8		fp[FINGERPRINT_BYTES];
	const uint8 *r;
	bool		imported;
	citus_role	citus;

	require_key_admin("create a ulid key");
	name = key_name_arg(fcinfo);
	citus = citus_role_here();
	if (citus == CITUS_WORKER)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("key \"%s\" cannot be created on a Citus worker", name),
				 errdetail("Keys are created on the coordinator, which creates them on every worker, so that every node masks with the same key."),
				 errhint("Run SELECT ulid_key_create('%s') on the coordinator.", name)));
	imported = !PG_ARGISNULL(1);
	if (imported)
	{
		bytea	   *b = PG_GETARG_BYTEA_PP(1);

		if (VARSIZE_ANY_EXHDR(b) != ULID_SECRET_BYTES)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("a key's secret is %d bytes, not %d", ULID_SECRET_BYTES,
							(int) VARSIZE_ANY_EXHDR(b)),
					 errhint("Omit the secret (or pass NULL) for a key made from the keyring root, or pass the 16 bytes of the key to import.")));
		memcpy(secret, VARDATA_ANY(b), ULID_SECRET_BYTES);
	}

	if (key_table_exec("SELECT FROM %s WHERE name = $1", name, NULL, NULL) > 0)
		ereport(ERROR,
				(errcode(ERRCODE_DUPLICATE_OBJECT),
				 errmsg("key \"%s\" already exists", name),
				 errhint("Rotate with a new name: create a key of another name and unmask with both while old masks are in use.")));

	/* the root; the file is made here only, and only for a database without keys */
	if (!have_root && !root_from_command())
	{
		StringInfoData problem,
					fix;
		bool		missing;
		uint8		probe[ROOT_BYTES];

		initStringInfo(&problem);
		initStringInfo(&fix);
		if (read_root(probe, &problem, &fix, &missing))
			ulid_wipe(probe, sizeof(probe));
		else if (missing && key_table_exec("SELECT FROM %s LIMIT 1", name, NULL, NULL) == 0)
			create_root_file();
	}
	r = get_root();

	if (imported)
	{
		derive(r, "wrap:", name, kek);
		ulid_aes_kw_wrap(kek, secret, ULID_SECRET_BYTES / 8, wrapped);
		ulid_wipe(kek, sizeof(kek));
	}
	else
		derive(r, "key:", name, secret);
	fingerprint_of(secret, fp);
	ulid_wipe(secret, sizeof(secret));

	key_table_exec("INSERT INTO %s (name, wrapped, fingerprint) VALUES ($1, $2, $3)",
				   name, imported ? wrapped : NULL, fp);
	if (citus == CITUS_COORDINATOR)
		key_on_workers(psprintf("INSERT INTO ulid_keyring.keys AS k (name, wrapped, fingerprint) VALUES (%%1$L, %s, '\\x%s') "
								"ON CONFLICT (name) DO UPDATE SET created = now(), wrapped = excluded.wrapped, fingerprint = excluded.fingerprint "
								"RETURNING 'ok'",
								imported ? psprintf("'\\x%s'", hex_of(wrapped, WRAPPED_BYTES)) : "NULL",
								hex_of(fp, FINGERPRINT_BYTES)),
					   name, true);
	PG_RETURN_VOID();
}

/* ulid_key_drop(name text) */
PG_FUNCTION_INFO_V1(ulid_key_drop);
Datum
ulid_key_drop(PG_FUNCTION_ARGS)
{
	char	   *name;

	require_key_admin("drop a ulid key");
	name = key_name_arg(fcinfo);
	if (key_table_exec("DELETE FROM %s WHERE name = $1 AND $2 IS NULL AND $3 IS NULL",
					   name, NULL, NULL) == 0)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("key \"%s\" does not exist", name),
				 errhint("SELECT name FROM ulid_keyring.keys lists the keys.")));
	if (citus_role_here() == CITUS_COORDINATOR)
		key_on_workers("WITH d AS (DELETE FROM ulid_keyring.keys WHERE name = %1$L RETURNING 1) SELECT 'ok'", name, false);
	PG_RETURN_VOID();
}

/*
 * ulid_check_keys(): this server's keys, each with its fingerprint and
 * what is wrong with it (NULL: the root verifies it).  Superusers and
 * pg_monitor (EXECUTE granted in the script).
 */
PG_FUNCTION_INFO_V1(ulid_check_keys);
Datum
ulid_check_keys(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	HASH_SEQ_STATUS seq;
	key_entry  *e;
	StringInfoData problem,
				fix;
	bool		missing;
	uint8		r[ROOT_BYTES];
	bool		root_ok;

	InitMaterializedSRF(fcinfo, 0);
	initStringInfo(&problem);
	initStringInfo(&fix);
	root_ok = read_root(r, &problem, &fix, &missing);
	ulid_wipe(r, sizeof(r));
	if (root_ok && key_cache == NULL)
		load_keys();
	if (!root_ok)
	{
		/* the rows as they are, each with the root's problem */
		Relation	rel = open_key_table(AccessShareLock);
		SysScanDesc scan = systable_beginscan(rel, InvalidOid, false, NULL, 0, NULL);
		HeapTuple	tup;

		while ((tup = systable_getnext(scan)) != NULL)
		{
			TupleDesc	desc = RelationGetDescr(rel);
			Datum		values[4];
			bool		nulls[4] = {false, false, false, false};

			values[0] = heap_getattr(tup, COL_NAME, desc, &nulls[0]);
			values[1] = BoolGetDatum(!column_is_null(tup, COL_WRAPPED, desc));
			values[2] = heap_getattr(tup, COL_FINGERPRINT, desc, &nulls[2]);
			values[3] = CStringGetTextDatum(problem.data);
			tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
		}
		systable_endscan(scan);
		table_close(rel, AccessShareLock);
		return (Datum) 0;
	}
	hash_seq_init(&seq, key_cache);
	while ((e = (key_entry *) hash_seq_search(&seq)) != NULL)
	{
		Datum		values[4];
		bool		nulls[4] = {false, false, false, e->state == KEY_OK};
		bytea	   *fp = palloc(VARHDRSZ + FINGERPRINT_BYTES);

		SET_VARSIZE(fp, VARHDRSZ + FINGERPRINT_BYTES);
		memcpy(VARDATA(fp), e->fingerprint, FINGERPRINT_BYTES);
		values[0] = CStringGetTextDatum(e->name);
		values[1] = BoolGetDatum(e->imported);
		values[2] = PointerGetDatum(fp);
		values[3] = CStringGetTextDatum(e->state == KEY_UNWRAP_FAILED ?
										"it was wrapped under another keyring root" :
										"it was made under another keyring root");
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
