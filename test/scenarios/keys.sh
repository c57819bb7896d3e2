#!/usr/bin/env bash
# Keys for the masks (issues 36 and 39): no secret in SQL, the keyring
# root, dumps, the cache, logs.
#
# A database owner who is no superuser installs the (trusted) extension;
# a superuser creates keys in it.  Checked:
# 1. The key table belongs to a superuser and holds no secret: every route
#    a plain role or the owner has to the rows (record image comparison
#    (breakit K1), COPY text and binary, row_to_json, arrays) shows none,
#    and nothing they read masks as the key does (pgcrypto's AES under every
#    16 bytes they can read).  They cannot create, drop, change or detach
#    keys, nor invalidate other sessions' key caches (K4).
# 2. pg_stat_statements normalises a superuser's ulid_key_create() call, and
#    the README's import path leaves the secret out of a server log that
#    logs every statement (log_statement = 'all', log_min_duration_statement = 0).
# 3. The owner's pg_dump succeeds and holds no key; it restores.  A
#    superuser's dump (plain and custom format) holds the keys (names,
#    wrapped imports; no secret), and in the restored database masks made
#    before still unmask.
# 4. A session's key cache follows another session's drop and re-create.
# 5. The keyring root: missing, replaced, a symlink, or from
#    ulid.keyring_command (which plain roles cannot SHOW): 55000 naming the
#    file or setting, never another mask; the same root gives the same
#    masks.  After the owner's DROP EXTENSION and CREATE EXTENSION a key
#    made again by its name masks as before (K2).
# 6. A FOR ALL TABLES subscription skips the key table's rows: a key name on
#    both sides stops nothing, and no key travels.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

S=keys
if ! ULID_PRELOAD='ulid,pg_stat_statements' pg_new $S "pg_stat_statements.track_utility = on" || ! pg_start $S; then
	not_ok "keys: server starts"
	exit 1
fi
psqlx $S -c "CREATE ROLE dbowner LOGIN" -c "CREATE ROLE plain LOGIN" -c "CREATE DATABASE owned OWNER dbowner" >/dev/null
# as ROLE DB [psql args...]
as() {
	local role=$1 db=$2
	shift 2
	ULID_DB=$db psqlx $S -U "$role" "$@"
}
error_of() { sed -nE 's/^(psql:[^:]*:[0-9]+: )?ERROR: +//p' <<<"$1" | head -1; }

SECRET=00112233445566778899aabbccddeeff
as dbowner owned -c "CREATE EXTENSION ulid" >/dev/null
as postgres owned -c "SELECT ulid_key_create('api', '\\x$SECRET')" -c "SELECT ulid_key_create('other')" \
	-c "GRANT EXECUTE ON FUNCTION ulid_mask(ulid, text), ulid_unmask(ulid, text) TO plain" >/dev/null

# --- 1. who reads and changes keys ---------------------------------------------
check "keys: the key table belongs to a superuser, not to the database owner" "t|f" \
	"$(as postgres owned -c "SELECT r.rolsuper, c.relowner = 'dbowner'::regrole FROM pg_class c JOIN pg_roles r ON r.oid = c.relowner WHERE c.oid = 'ulid_keyring.keys'::regclass")"
for role in dbowner plain; do
	check "keys: $role lists the keys" "api,other" "$(as $role owned -c "SELECT string_agg(name, ',' ORDER BY name) FROM ulid_keyring.keys")"
	# breakit K1: the record image of a row against a probe of the secret
	out=$(as $role owned -c "SELECT name FROM ulid_keyring.keys k WHERE k *= ROW(k.name, '\\x$SECRET'::ulid_secret, k.created)::ulid_keyring.keys" 2>&1)
	case $out in
	api*) not_ok "keys: $role confirms the secret by comparing record images" ;;
	*ERROR*) ok "keys: $role cannot compare a secret's record image ($(error_of "$out"))" ;;
	*) not_ok "keys: $role: the record image probe gives: $out" ;;
	esac
	for q in "SELECT k::text FROM ulid_keyring.keys k" "COPY ulid_keyring.keys TO STDOUT" \
		"SELECT row_to_json(k) FROM ulid_keyring.keys k" "SELECT ARRAY(SELECT k FROM ulid_keyring.keys k)::text" \
		"SELECT string_agg(k::text, ',') FROM ulid_keyring.keys k WHERE k *<= k"; do
		out=$(as $role owned -c "$q" 2>&1)
		case $out in
		*"$SECRET"*) not_ok "keys: $role reads the secret with: $q" ;;
		*ERROR*) not_ok "keys: $role: $q fails: $out" ;;
		*api*) ok "keys: $role reads the rows, and no secret, with: $q" ;;
		*) not_ok "keys: $role: $q shows no key: $out" ;;
		esac
	done
	as $role owned -c "COPY ulid_keyring.keys TO STDOUT (FORMAT binary)" >"$ULID_WORK/keys-$role.bin" 2>&1
	check "keys: $role: COPY (FORMAT binary) holds the rows and no secret" "1 0" \
		"$(grep -c api "$ULID_WORK/keys-$role.bin") $(od -An -tx1 -v "$ULID_WORK/keys-$role.bin" | tr -d ' \n' | grep -c "$SECRET")"
	for q in "SELECT ulid_key_create('mine')" "SELECT ulid_key_drop('api')" "DELETE FROM ulid_keyring.keys" \
		"UPDATE ulid_keyring.keys SET name = 'x'" "INSERT INTO ulid_keyring.keys SELECT 'x', now(), wrapped, fingerprint FROM ulid_keyring.keys" "TRUNCATE ulid_keyring.keys" \
		"ALTER TABLE ulid_keyring.keys DISABLE TRIGGER ALL" "DROP TABLE ulid_keyring.keys" "ALTER EXTENSION ulid DROP TABLE ulid_keyring.keys" \
		"GRANT EXECUTE ON FUNCTION ulid_unmask(ulid, text) TO PUBLIC"; do
		out=$(as $role owned -c "$q" 2>&1)
		case $out in
		*ERROR*) ok "keys: $role may not: $q ($(error_of "$out"))" ;;
		*"no privileges were granted"*) ok "keys: $role may not: $q (no privileges were granted)" ;;
		*) not_ok "keys: $role may: $q ($out)" ;;
		esac
	done
done
check "keys: the keys are intact" "api,other" "$(as postgres owned -c "SELECT string_agg(name, ',' ORDER BY name) FROM ulid_keyring.keys")"
# breakit K4: a plain role cannot make other sessions reload their keys.  To
# see a reload, the superuser changes a row unseen (session_replication_role
# = replica: the invalidating triggers do not fire): a session that reloads
# sees the change (another secret, or a fingerprint that no longer
# verifies); one that does not keeps its mask.
cat >"$ULID_WORK/keys-k4-change.sql" <<'SQL'
SET session_replication_role = replica;
DO $$ BEGIN
IF EXISTS (SELECT FROM pg_attribute WHERE attrelid = 'ulid_keyring.keys'::regclass AND attname = 'fingerprint') THEN
    UPDATE ulid_keyring.keys SET fingerprint = '\x0000000000000000' WHERE name = 'k4';
ELSE
    EXECUTE $u$UPDATE ulid_keyring.keys SET secret = '\xffffffffffffffffffffffffffffffff' WHERE name = 'k4'$u$;
END IF;
END $$;
SQL
psql_plain="$PG_BIN/psql -X -q -At -h $ULID_WORK/sock -p $(pg_port $S) -U plain -d owned"
psql_super="$PG_BIN/psql -X -q -At -h $ULID_WORK/sock -p $(pg_port $S) -U postgres -d owned"
k4_refused=0
for q in "INSERT INTO ulid_keyring.keys SELECT * FROM ulid_keyring.keys" "DELETE FROM ulid_keyring.keys" \
	"UPDATE ulid_keyring.keys SET name = name" "TRUNCATE ulid_keyring.keys"; do
	$psql_plain -c "$q" >/dev/null 2>&1 || k4_refused=$((k4_refused + 1))
done
check "keys: K4: a plain role's INSERT, DELETE, UPDATE and TRUNCATE of rows are refused" 4 "$k4_refused"
as postgres owned -c "SELECT ulid_key_create('k4')" >/dev/null
out=$(as postgres owned 2>"$ULID_WORK/keys-k4.err" <<SQL
SELECT ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'k4');
\\! $psql_super -f $ULID_WORK/keys-k4-change.sql
SELECT ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'k4');
\\! $psql_plain -c "INSERT INTO ulid_keyring.keys SELECT * FROM ulid_keyring.keys WHERE false" >/dev/null 2>&1
\\! $psql_plain -c "INSERT INTO ulid_keyring.keys SELECT * FROM ulid_keyring.keys ON CONFLICT DO NOTHING" >/dev/null 2>&1
\\! $psql_plain -c "DELETE FROM ulid_keyring.keys WHERE false" >/dev/null 2>&1
\\! $psql_plain -c "UPDATE ulid_keyring.keys SET name = name WHERE false" >/dev/null 2>&1
\\! $psql_plain -c "TRUNCATE ulid_keyring.keys" >/dev/null 2>&1
SELECT ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'k4');
\\! $psql_super -c "SELECT ulid_key_create('k4b')" >/dev/null
\\set ON_ERROR_STOP 0
SELECT 'reloaded: ' || ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'k4');
SQL
)
k4_first=$(sed -n 1p <<<"$out")
check "keys: K4: the session kept its key while the row changed unseen" "$k4_first" "$(sed -n 2p <<<"$out")"
check "keys: K4: after a plain role's writes of no row (INSERT ... WHERE false and more), the session masks as before (no reload)" \
	"$k4_first" "$(sed -n 3p <<<"$out")"
check "keys: K4: control: an invalidation makes the session reload, and the changed row no longer masks as before" "" \
	"$(sed -n 4p <<<"$out" | grep -x "reloaded: $k4_first")"
as postgres owned -c "SELECT ulid_key_drop('k4')" -c "SELECT ulid_key_drop('k4b')" >/dev/null

MASK=$(as plain owned -c "SELECT ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'api')")
# the value: openssl enc -aes-128-ecb -nopad -K 00112233445566778899aabbccddeeff of the 16 bytes
check "keys: a role granted EXECUTE masks (AES-128 under the secret, as OpenSSL computes it)" "0P7BRQC5ZSTMV1Q237YX3EF18V" "$MASK"
# nothing a plain role reads masks as the key: AES-128 under every 16 bytes of every value it reads
as postgres owned -c "CREATE EXTENSION pgcrypto" >/dev/null
aes_probe="SELECT count(*) FILTER (WHERE encrypt(uuid_send('01HTQW311N1KR5G0Y75M3EF00H'::ulid::uuid), c, 'aes-ecb/pad:none') = uuid_send('$MASK'::ulid::uuid)) || ' of ' || count(*)
	FROM (SELECT substr(coalesce(k.wrapped, '') || k.fingerprint, i, 16) AS c FROM ulid_keyring.keys k, generate_series(1, 17) i WHERE k.name = 'api'"
check "keys: control: pgcrypto's AES-128 under the secret computes the mask" "1 of 18" \
	"$(as postgres owned -c "$aes_probe UNION ALL SELECT '\\x$SECRET'::bytea) s")"
check "keys: plain: no 16 bytes of the row it reads are the key" "0 of 17" "$(as plain owned -c "$aes_probe) s")"
check "keys: the owner was not granted EXECUTE" "permission denied for function ulid_unmask" \
	"$(error_of "$(as dbowner owned -c "SELECT ulid_unmask('$MASK', 'api')" 2>&1)")"

# --- 2. pg_stat_statements -------------------------------------------------------
as postgres owned -c "CREATE EXTENSION pg_stat_statements" -c "SELECT pg_stat_statements_reset()" >/dev/null
as postgres owned -c "SELECT ulid_key_create('pss', '\\x0123456789abcdef0123456789abcdef')" >/dev/null
check "keys: pg_stat_statements shows ulid_key_create() with its constants normalised" \
	'SELECT ulid_key_create($1, $2)' \
	"$(as postgres owned -c "SELECT query FROM pg_stat_statements WHERE query LIKE '%ulid_key_create%' AND query NOT LIKE '%pg_stat%'")"
check "keys: no query text holds the secret" 0 \
	"$(as postgres owned -c "SELECT count(*) FROM pg_stat_statements WHERE query LIKE '%0123456789abcdef%'")"
as postgres owned -c "SELECT ulid_key_drop('pss')" -c "DROP EXTENSION pg_stat_statements" >/dev/null

# the README's import path: no log line holds the secret, though the server
# logs every statement and its duration; a control call logs it
LOGSECRET=5ec2e75ec2e75ec2e75ec2e75ec2e701
as postgres owned -c "ALTER SYSTEM SET log_statement = 'all'" -c "ALTER SYSTEM SET log_min_duration_statement = 0" \
	-c "SELECT pg_reload_conf()" >/dev/null
sleep 1
as postgres owned -v secret=$LOGSECRET >/dev/null 2>&1 <<'SQL'
BEGIN;
SET LOCAL log_statement = 'none';
SET LOCAL log_min_duration_statement = -1;
SET LOCAL log_min_error_statement = panic;
SET LOCAL log_parameter_max_length = 0;
SELECT ulid_key_create('partner', decode(:'secret', 'hex'));
COMMIT;
\set ON_ERROR_STOP 0
BEGIN;
SET LOCAL log_statement = 'none';
SET LOCAL log_min_duration_statement = -1;
SET LOCAL log_min_error_statement = panic;
SET LOCAL log_parameter_max_length = 0;
SELECT ulid_key_create('partner', decode(:'secret', 'hex'));
COMMIT;
SQL
check "keys: the README's import path made the key" 1 "$(as postgres owned -c "SELECT count(*) FROM ulid_keyring.keys WHERE name = 'partner' AND wrapped IS NOT NULL")"
as postgres owned -c "SELECT ulid_key_create('logged', '\\x${LOGSECRET%01}02')" >/dev/null
as postgres owned -c "ALTER SYSTEM RESET log_statement" -c "ALTER SYSTEM RESET log_min_duration_statement" -c "SELECT pg_reload_conf()" >/dev/null
check "keys: control: a plain call's secret is in the log" 1 "$(grep -c "${LOGSECRET%01}02" "$ULID_WORK/log/$S.log")"
check "keys: the import path's secret is in no log line (a successful and a failing call)" 0 "$(grep -c "$LOGSECRET" "$ULID_WORK/log/$S.log")"
as postgres owned -c "SELECT ulid_key_drop('logged')" -c "SELECT ulid_key_drop('partner')" >/dev/null

# --- 3. dumps ---------------------------------------------------------------------
DUMPS=$ULID_WORK/keys-dumps
mkdir -p "$DUMPS"
chmod 777 "$DUMPS"
conn=(-h "$ULID_WORK/sock" -p "$(pg_port $S)")
if "$PG_BIN/pg_dump" "${conn[@]}" -U dbowner -Fp -f "$DUMPS/owner.sql" owned 2>"$DUMPS/owner.err"; then
	ok "keys: the database owner's pg_dump succeeds"
else
	not_ok "keys: the database owner's pg_dump fails: $(cat "$DUMPS/owner.err")"
fi
# (it also holds the superuser's GRANT EXECUTE on ulid_mask, which only a
# superuser can restore, as for any grant on an extension's function: the
# owner restores a dump without privileges)
check "keys: the owner's dump holds the grants of the masks" 2 "$(grep -c '^GRANT ALL ON FUNCTION public.ulid_.*mask' "$DUMPS/owner.sql")"
check_cmd "keys: the database owner's pg_dump --no-privileges succeeds" \
	"$PG_BIN/pg_dump" "${conn[@]}" -U dbowner -Fp --no-privileges -f "$DUMPS/owner-x.sql" owned
check "keys: the owner's dump holds no secret" 0 "$(grep -c "$SECRET" "$DUMPS/owner.sql")"
check "keys: the owner's dump holds no key" 0 "$(grep -c "^api" "$DUMPS/owner.sql")"
as postgres postgres -c "CREATE DATABASE owner_restored OWNER dbowner" >/dev/null
if as dbowner owner_restored -f "$DUMPS/owner-x.sql" >"$DUMPS/owner.restore" 2>&1; then
	ok "keys: the owner restores the owner's dump"
else
	not_ok "keys: the owner's dump does not restore: $(tail -3 "$DUMPS/owner.restore")"
fi
check "keys: the owner's restored database has no key" 0 "$(as dbowner owner_restored -c "SELECT count(*) FROM ulid_keyring.keys")"

check_cmd "keys: a superuser's pg_dump, plain" "$PG_BIN/pg_dump" "${conn[@]}" -U postgres -Fp -f "$DUMPS/super.sql" owned
check "keys: the superuser's dump holds the keys, and no secret" "2 0" \
	"$(grep -cE "^(api|other)\s" "$DUMPS/super.sql") $(grep -c "$SECRET" "$DUMPS/super.sql")"
check_cmd "keys: a superuser's pg_dump, custom" "$PG_BIN/pg_dump" "${conn[@]}" -U postgres -Fc -f "$DUMPS/super.dump" owned
as postgres postgres -c "CREATE DATABASE super_plain OWNER dbowner" -c "CREATE DATABASE super_custom OWNER dbowner" >/dev/null
if as postgres super_plain -f "$DUMPS/super.sql" >"$DUMPS/super.restore" 2>&1; then
	ok "keys: the superuser's plain dump restores"
else
	not_ok "keys: the superuser's plain dump does not restore: $(tail -3 "$DUMPS/super.restore")"
fi
check_cmd "keys: pg_restore restores the superuser's custom dump" \
	"$PG_BIN/pg_restore" "${conn[@]}" -U postgres --exit-on-error -d super_custom "$DUMPS/super.dump"
for db in super_plain super_custom; do
	check "keys: $db: the keys came back as they were (names, creation times, wrapped imports, fingerprints)" \
		"$(as postgres owned -c "SELECT k FROM ulid_keyring.keys k ORDER BY name")" \
		"$(as postgres $db -c "SELECT k FROM ulid_keyring.keys k ORDER BY name")"
	check "keys: $db: a mask made before the dump unmasks" "01HTQW311N1KR5G0Y75M3EF00H" \
		"$(as plain $db -c "SELECT ulid_unmask('$MASK', 'api')")"
	check "keys: $db: the other key, random, came back the same" \
		"$(as postgres owned -c "SELECT ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'other')")" \
		"$(as postgres $db -c "SELECT ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'other')")"
	check "keys: $db: the key table has the extension's triggers" "ulid_keys_changed O,ulid_keys_superuser A,ulid_keys_truncated O" \
		"$(as postgres $db -c "SELECT string_agg(tgname || ' ' || tgenabled::text, ',' ORDER BY tgname) FROM pg_trigger WHERE tgrelid = 'ulid_keyring.keys'::regclass")"
done

# --- 4. the cache follows other sessions ------------------------------------------
# one session masks, another drops and re-creates the key, the first masks again
psql_other="$PG_BIN/psql -X -q -At -h $ULID_WORK/sock -p $(pg_port $S) -U postgres -d owned"
out=$(as postgres owned 2>"$ULID_WORK/keys-cache.err" <<SQL
SELECT ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'api');
\\! $psql_other -c "SELECT ulid_key_drop('api')" -c "SELECT ulid_key_create('api', '\\\\xffffffffffffffffffffffffffffffff')" >/dev/null
SELECT ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'api');
\\! $psql_other -c "SELECT ulid_key_create('later', '\\\\x$SECRET')" >/dev/null
SELECT ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'later');
\\! $psql_other -c "SELECT ulid_key_drop('later')" >/dev/null
SELECT 'gone: ' || ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'later');
SQL
)
first=$(sed -n 1p <<<"$out")
check "keys: a session's first mask is the old secret's" "$MASK" "$first"
check "keys: after another session re-created the key, the new secret's" \
	"$(as postgres owned -c "SELECT ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'api')")" "$(sed -n 2p <<<"$out")"
check "keys: the new secret's mask differs" t "$([ "$first" != "$(sed -n 2p <<<"$out")" ] && echo t || echo f)"
check "keys: a key another session created meanwhile is found" "$MASK" "$(sed -n 3p <<<"$out")"
check "keys: a key another session dropped meanwhile is gone" 'key "later" does not exist' "$(error_of "$(cat "$ULID_WORK/keys-cache.err")")"

# --- 5. the keyring root ---------------------------------------------------------
ROOT=$(pg_data $S)/ulid_keyring
check "keys: the root file: 64 hex digits and a newline, mode 0600, the server's user's" "65 600 postgres" \
	"$(wc -c <"$ROOT" | tr -d ' ') $(stat -c '%a %U' "$ROOT")"
cp -p "$ROOT" "$ULID_WORK/keys-root.saved"
as postgres owned -c "SELECT ulid_key_create('named')" >/dev/null
NAMED=$(as postgres owned -c "SELECT ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'named')")
API=$(as postgres owned -c "SELECT ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'api')")
mv "$ROOT" "$ULID_WORK/keys-root.moved"
check "keys: without the root a mask fails closed, naming the file" \
	"the keyring root \"$ROOT\" is missing" "$(error_of "$(as postgres owned -c "SELECT ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'named')" 2>&1)")"
check "keys: ... with SQLSTATE 55000" "55000" \
	"$(as postgres owned -v VERBOSITY=verbose -c "SELECT ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'api')" 2>&1 | sed -nE 's/^.*ERROR: +([0-9A-Z]{5}):.*/\1/p' | head -1)"
check "keys: ... and its hint says to copy the file" 1 \
	"$(as postgres owned -c "SELECT ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'api')" 2>&1 | grep -c '^HINT: *Copy the file ulid_keyring from the data directory')"
check "keys: ulid_key_create does not make a new root while the database has keys" \
	"the keyring root \"$ROOT\" is missing" "$(error_of "$(as postgres owned -c "SELECT ulid_key_create('fresh')" 2>&1)")"
check "keys: ... and no file appeared" "no" "$([ -e "$ROOT" ] && echo yes || echo no)"
check "keys: ulid_check_keys() names the problem for each key" "api|the keyring root \"$ROOT\" is missing" \
	"$(as postgres owned -c "SELECT name, problem FROM ulid_check_keys() WHERE name = 'api'")"
check "keys: ulid_health() reports the missing root as critical, naming the file" "keyring|critical|t|t" \
	"$(as postgres owned -c "SELECT check_name, severity, strpos(detail, '$ROOT') > 0, fix <> '' FROM ulid_health() WHERE check_name = 'keyring'")"
# another root (a new server's): fails closed, never another mask
printf '%064d\n' 7 >"$ROOT"
chown postgres: "$ROOT"
chmod 600 "$ROOT"
check "keys: with another root a key made by name fails closed" 'key "named" was made under another keyring root' \
	"$(error_of "$(as postgres owned -c "SELECT ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'named')" 2>&1)")"
check "keys: with another root an imported key fails closed" 'key "api" was wrapped under another keyring root' \
	"$(error_of "$(as postgres owned -c "SELECT ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'api')" 2>&1)")"
rm -f "$ROOT"
ln -s "$ULID_WORK/keys-root.saved" "$ROOT"
check "keys: a symbolic link is not read" "the keyring root \"$ROOT\" is damaged: it is a symbolic link, not a file (the file is kept in the data directory itself)" \
	"$(error_of "$(as postgres owned -c "SELECT ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'named')" 2>&1)")"
rm -f "$ROOT"
cp -p "$ULID_WORK/keys-root.saved" "$ROOT"
check "keys: ulid_health() has no keyring row while the root serves every key" 0 \
	"$(as postgres owned -c "SELECT count(*) FROM ulid_health() WHERE check_name = 'keyring'")"
check "keys: the original root back: the same masks" "$NAMED $API" \
	"$(as postgres owned -c "SELECT ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'named') || ' ' || ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'api')")"
# the root from a command
as postgres owned -c "ALTER SYSTEM SET ulid.keyring_command = 'cat $ULID_WORK/keys-root.saved'" -c "SELECT pg_reload_conf()" >/dev/null
rm -f "$ROOT"
sleep 1
check "keys: the root from ulid.keyring_command: the same masks" "$NAMED $API" \
	"$(as postgres owned -c "SELECT ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'named') || ' ' || ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'api')")"
check "keys: a plain role cannot SHOW ulid.keyring_command" "must be superuser or have privileges of pg_read_all_settings to examine \"ulid.keyring_command\"" \
	"$(error_of "$(as plain owned -c "SHOW ulid.keyring_command" 2>&1)")"
as postgres owned -c "ALTER SYSTEM SET ulid.keyring_command = 'exit 3'" -c "SELECT pg_reload_conf()" >/dev/null
sleep 1
check "keys: a failing command fails closed, naming the setting" "ulid.keyring_command failed: child process exited with exit code 3" \
	"$(error_of "$(as postgres owned -c "SELECT ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'named')" 2>&1)")"
as postgres owned -c "ALTER SYSTEM SET ulid.keyring_command = 'echo 0123'" -c "SELECT pg_reload_conf()" >/dev/null
sleep 1
check "keys: a command printing something else fails closed" "ulid.keyring_command printed 5 bytes, not 64 hexadecimal digits" \
	"$(error_of "$(as postgres owned -c "SELECT ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'named')" 2>&1)")"
as postgres owned -c "ALTER SYSTEM RESET ulid.keyring_command" -c "SELECT pg_reload_conf()" >/dev/null
cp -p "$ULID_WORK/keys-root.saved" "$ROOT"
sleep 1

# breakit K2: the owner's DROP EXTENSION drops the table; a key made again by its name masks as before
as dbowner owned -c "DROP EXTENSION ulid CASCADE" -c "CREATE EXTENSION ulid" >/dev/null 2>&1
check "keys: K2: after the owner's DROP EXTENSION and CREATE EXTENSION, no key" 0 "$(as postgres owned -c "SELECT count(*) FROM ulid_keyring.keys")"
as postgres owned -c "SELECT ulid_key_create('named')" >/dev/null
check "keys: K2: the key made again by its name masks as before" "$NAMED" \
	"$(as postgres owned -c "SELECT ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'named')")"

# --- 6. logical replication: FOR ALL TABLES carries no key, and a key name on
# both sides stops nothing (each server makes its keys from its own root)
P=keys_pub R=keys_sub
if pg_new $P "wal_level = logical" && pg_start $P && pg_new $R && pg_start $R; then
	for n in $P $R; do
		psqlx $n -c "CREATE EXTENSION ulid" -c "CREATE TABLE t (id int PRIMARY KEY)" -c "SELECT ulid_key_create('api')" >/dev/null
	done
	psqlx $P -c "SELECT ulid_key_create('only_pub')" -c "INSERT INTO t VALUES (1)" -c "CREATE PUBLICATION p FOR ALL TABLES" >/dev/null
	psqlx $R -c "CREATE SUBSCRIPTION s CONNECTION 'host=$ULID_WORK/sock port=$(pg_port $P) dbname=postgres user=postgres' PUBLICATION p" >/dev/null 2>&1
	sub_q() { "$PG_BIN/psql" -X -At -h "$ULID_WORK/sock" -p "$(pg_port $R)" -U postgres -c "$1"; }
	synced() { [ "$(sub_q "SELECT count(*) FROM t")|$(sub_q "SELECT count(*) FROM pg_subscription_rel WHERE srsubstate NOT IN ('r', 's')")" = "1|0" ]; }
	wait_until 30 synced
	# a key made on both sides once the subscription runs, one dropped, one made, then a row
	psqlx $R -c "SELECT ulid_key_create('both')" >/dev/null
	psqlx $P -c "SELECT ulid_key_create('both')" -c "SELECT ulid_key_drop('api')" -c "SELECT ulid_key_create('later')" \
		-c "INSERT INTO t VALUES (2)" >/dev/null
	applied() { [ "$(sub_q "SELECT count(*) FROM t")" = 2 ]; }
	wait_until 30 applied
	check "keys: a FOR ALL TABLES subscription applies the application's rows, though both sides have keys of the same names" 2 \
		"$(psqlx $R -c "SELECT count(*) FROM t")"
	check "keys: the subscriber's keys are its own (none of the publisher's arrived, none dropped)" "api,both" \
		"$(psqlx $R -c "SELECT string_agg(name, ',' ORDER BY name) FROM ulid_keyring.keys")"
	check "keys: the subscriber's key still masks" 1 "$(psqlx $R -c "SELECT count(ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'api'))")"
	check "keys: no apply or table sync error in the subscriber's log" 0 "$(grep -c 'ERROR' "$ULID_WORK/log/$R.log")"
	psqlx $R -c "DROP SUBSCRIPTION s" >/dev/null
	pg_stop $R
	pg_stop $P
else
	not_ok "keys: the publisher and subscriber start"
fi

pg_stop $S
