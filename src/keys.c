/*-------------------------------------------------------------------------
 *
 * keys.c
 *	  Named secret keys: the ulid_secret type, the ulid_keyring.keys table behind
 *	  them, ulid_key_create() / ulid_key_drop(), and the per-backend cache
 *	  the masks read them from.
 *
 * Who may see a secret.  The table ulid_keyring.keys (name, secret, created) is
 * owned by the superuser who created the extension (the bootstrap
 * superuser when a database owner installed the trusted extension);
 * PUBLIC may SELECT it, so that pg_dump run by any role succeeds.  The
 * secret column has the type ulid_secret, whose output function is the
 * only way to its bytes (it has no binary output, no casts, no operators):
 * it raises 42501 unless the current user is a superuser.  So a plain
 * role, the database owner included, reads names and creation times and
 * never a secret.  pg_extension_config_dump() dumps the rows WHERE the
 * dumping role is a superuser: a superuser's dump holds the keys (and
 * restores them), any other role's dump holds none and succeeds.  Secrets
 * reach the server only as a bind parameter or literal of
 * ulid_key_create(), or are made there (16 bytes from pg_strong_random());
 * no message ever shows one.
 *
 * The cache.  A backend reads every key of the table into a hash table the
 * first time a mask needs one, and expands each secret into its mask keys
 * (mask.h) then.  A statement trigger on the table sends a relcache
 * invalidation of it whenever rows change (ulid_key_create/drop, or a
 * restore's COPY); every backend's callback then drops the cache (wiping
 * the secrets) and bumps ulid_key_generation, which each call site
 * compares with the one it found its key at (keys.h): a mask call costs no
 * lookup while nothing changes.  The table is read with a fresh catalog
 * snapshot, as syscaches read catalogs: what was committed when the cache
 * was loaded, and this transaction's own changes; a rolled-back change
 * invalidates the cache again at its abort.
 *
 *-------------------------------------------------------------------------
 */
#include "ulid.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "commands/trigger.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "keys.h"
#include "randbuf.h"
#include "random.h"

#define KEY_SCHEMA		"ulid_keyring"
#define KEY_TABLE		"keys"
#define KEY_TABLE_NAME	"ulid_keyring.keys"
#define KEY_NAME_MAX	(NAMEDATALEN - 1)

static void require_key_admin(const char *what);

#define HINT_CREATE \
	"A superuser creates it with SELECT ulid_key_create('%s'); SELECT name FROM ulid_keyring.keys lists the keys."

typedef struct key_entry
{
	char		name[NAMEDATALEN];	/* hash key, NUL-padded */
	ulid_mask_key key;
} key_entry;

ULID_HIDDEN uint64 ulid_key_generation = 1;

static HTAB *key_cache = NULL;	/* NULL: not loaded */
static Oid	key_table_oid = InvalidOid;
static bool callback_registered = false;

/* --- the cache --------------------------------------------------------------- */

/* Drop the cache, wiping the expanded secrets. */
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

/*
 * The key table: ulid_keyring.keys, the schema the extension created
 * (ERROR when missing).
 */
static Oid
find_key_table(void)
{
	Oid			nsp = get_namespace_oid(KEY_SCHEMA, true);
	Oid			relid = OidIsValid(nsp) ? get_relname_relid(KEY_TABLE, nsp) : InvalidOid;

	if (!OidIsValid(relid))
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
	Relation	rel = table_open(find_key_table(), mode);

	if (!superuser_arg(rel->rd_rel->relowner))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("the key table %s is not owned by a superuser", KEY_TABLE_NAME),
				 errdetail("Its owner is %s; secrets are kept only in a table that plain roles cannot read.",
						   GetUserNameFromId(rel->rd_rel->relowner, false))));
	return rel;
}

/* Read every key into a new cache. */
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
			bool		isnull;		/* never: both columns are NOT NULL */
			char	   *s = TextDatumGetCString(heap_getattr(tup, 1, RelationGetDescr(rel), &isnull));
			Datum		secret = heap_getattr(tup, 2, RelationGetDescr(rel), &isnull);
			char		key[NAMEDATALEN] = {0};
			key_entry  *e;

			if (strlen(s) > KEY_NAME_MAX)
				continue;		/* the table's check keeps these out */
			strlcpy(key, s, NAMEDATALEN);
			e = (key_entry *) hash_search(cache, key, HASH_ENTER, NULL);
			ulid_mask_key_init(&e->key, (const uint8 *) DatumGetPointer(secret));
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
	site->key = &e->key;
	site->namelen = len;
	memcpy(site->name, key, len);
	site->generation = ulid_key_generation;
	return site->key;
}

/*
 * ulid_keys_trigger(): the triggers of the key table.  Before each row
 * inserted or updated: refuse every role but superusers.  (PUBLIC may
 * INSERT only so that restoring a dump taken by a role that is no
 * superuser, which holds an empty COPY of the table, succeeds; the rows
 * themselves need a superuser, as ulid_key_create() does.)  After each
 * statement: every backend forgets its cached keys.
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
	if (TRIGGER_FIRED_FOR_ROW(trig->tg_event))
	{
		require_key_admin("add or change a row of ulid_keyring.keys");
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

/* --- the ulid_secret type ------------------------------------------------------ */

/* a 16-byte secret of a bytea (22023 naming its length otherwise) */
static const uint8 *
secret_bytes(bytea *b)
{
	if (VARSIZE_ANY_EXHDR(b) != ULID_SECRET_BYTES)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("a key's secret is %d bytes, not %d", ULID_SECRET_BYTES,
						(int) VARSIZE_ANY_EXHDR(b)),
				 errhint("Omit the secret (or pass NULL) for 16 random bytes, or pass 16 bytes such as gen_random_bytes(16) from pgcrypto.")));
	return (const uint8 *) VARDATA_ANY(b);
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

/* ulid_secret_in(cstring): '\x' and 32 hexadecimal digits (no message shows them) */
PG_FUNCTION_INFO_V1(ulid_secret_in);
Datum
ulid_secret_in(PG_FUNCTION_ARGS)
{
	const char *s = PG_GETARG_CSTRING(0);
	uint8	   *out = palloc(ULID_SECRET_BYTES);
	size_t		len = strlen(s);

	bool		ok = len == 2 + 2 * ULID_SECRET_BYTES && s[0] == '\\' && s[1] == 'x';

	for (int i = 0; ok && i < ULID_SECRET_BYTES; i++)
	{
		int			hi = hex_digit(s[2 + 2 * i]),
					lo = hex_digit(s[3 + 2 * i]);

		ok = hi >= 0 && lo >= 0;
		out[i] = (uint8) (hi << 4 | lo);
	}
	if (!ok)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid input syntax for type %s", "ulid_secret"),
				 errdetail("A secret is \\x and 32 hexadecimal digits (16 bytes); the value is not shown.")));
	PG_RETURN_POINTER(out);
}

/* ulid_secret_out(ulid_secret): the hex text, for superusers only */
PG_FUNCTION_INFO_V1(ulid_secret_out);
Datum
ulid_secret_out(PG_FUNCTION_ARGS)
{
	const char *p = (const char *) PG_GETARG_POINTER(0);
	char	   *out;

	if (!superuser())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to read a secret of a ulid key"),
				 errdetail("Only superusers read secrets; SELECT name, created FROM ulid_keyring.keys lists the keys.")));
	out = palloc(3 + 2 * ULID_SECRET_BYTES);
	out[0] = '\\';
	out[1] = 'x';
	for (int i = 0; i < ULID_SECRET_BYTES; i++)
	{
		out[2 + 2 * i] = "0123456789abcdef"[(uint8) p[i] >> 4];
		out[3 + 2 * i] = "0123456789abcdef"[(uint8) p[i] & 15];
	}
	out[2 + 2 * ULID_SECRET_BYTES] = '\0';
	PG_RETURN_CSTRING(out);
}

/* --- ulid_key_create and ulid_key_drop ----------------------------------------- */

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

/* Run sql on the key table ($1: name, $2: secret), returning SPI_processed. */
static uint64
key_table_exec(const char *fmt, const char *name,
			   const uint8 *secret)
{
	Relation	rel = open_key_table(RowExclusiveLock);
	char	   *table = quote_qualified_identifier(get_namespace_name(RelationGetNamespace(rel)),
												   RelationGetRelationName(rel));
	Oid			types[2] = {TEXTOID, get_atttype(RelationGetRelid(rel), 2)};
	Datum		values[2] = {CStringGetTextDatum(name), PointerGetDatum(secret)};
	int			rc;
	uint64		n;

	table_close(rel, NoLock);
	SPI_connect();
	rc = SPI_execute_with_args(psprintf(fmt, table), secret ? 2 : 1, types, values,
							   NULL, false, 0);
	if (rc < 0)
		elog(ERROR, "SPI_execute_with_args on %s failed: %s", KEY_TABLE_NAME, SPI_result_code_string(rc));
	n = SPI_processed;
	SPI_finish();
	return n;
}

/* ulid_key_create(name text, secret bytea DEFAULT NULL) */
PG_FUNCTION_INFO_V1(ulid_key_create);
Datum
ulid_key_create(PG_FUNCTION_ARGS)
{
	char	   *name;
	uint8		secret[ULID_SECRET_BYTES];

	require_key_admin("create a ulid key");
	name = key_name_arg(fcinfo);
	if (PG_ARGISNULL(1))
		ulid_random_bytes(secret, sizeof(secret));
	else
		memcpy(secret, secret_bytes(PG_GETARG_BYTEA_PP(1)), sizeof(secret));

	if (key_table_exec("SELECT FROM %s WHERE name = $1", name, NULL) > 0)
		ereport(ERROR,
				(errcode(ERRCODE_DUPLICATE_OBJECT),
				 errmsg("key \"%s\" already exists", name),
				 errhint("Drop it first with ulid_key_drop('%s'), or rotate: create a key of another name and unmask with both while old masks are in use.", name)));
	key_table_exec("INSERT INTO %s (name, secret) VALUES ($1, $2)", name, secret);
	ulid_wipe(secret, sizeof(secret));
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
	if (key_table_exec("DELETE FROM %s WHERE name = $1", name, NULL) == 0)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("key \"%s\" does not exist", name),
				 errhint("SELECT name FROM ulid_keyring.keys lists the keys.")));
	PG_RETURN_VOID();
}
