#!/usr/bin/env bash
# Keys for the masks (issue 36): who can read a secret, dumps, the cache.
#
# A database owner who is no superuser installs the (trusted) extension;
# a superuser creates keys in it.  Checked:
# 1. The key table belongs to a superuser; the owner and a plain role read
#    names but no secret (also not as the owner of the schema and the
#    extension), cannot create, drop, change or detach keys.
# 2. pg_stat_statements shows a superuser's ulid_key_create() call without
#    its secret (the constants are normalised).
# 3. The owner's pg_dump succeeds and holds no secret and no key; it
#    restores.  A superuser's dump (plain and custom format) holds the keys,
#    and in the restored database masks made before still unmask.
# 4. A session's key cache follows another session's drop and re-create,
#    and a session that never used a key sees one created meanwhile.
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
	for q in "SELECT secret FROM ulid_keyring.keys" "SELECT k::text FROM ulid_keyring.keys k" "COPY ulid_keyring.keys TO STDOUT" \
		"COPY ulid_keyring.keys TO STDOUT (FORMAT binary)" "SELECT string_agg(secret::text, ',') FROM ulid_keyring.keys"; do
		out=$(as $role owned -c "$q" 2>&1)
		case $out in
		*"$SECRET"*) not_ok "keys: $role reads the secret with: $q" ;;
		*ERROR*) ok "keys: $role cannot read a secret with: $q ($(error_of "$out"))" ;;
		*) not_ok "keys: $role: $q gives no error: $out" ;;
		esac
	done
	for q in "SELECT ulid_key_create('mine')" "SELECT ulid_key_drop('api')" "DELETE FROM ulid_keyring.keys" \
		"UPDATE ulid_keyring.keys SET name = 'x'" "INSERT INTO ulid_keyring.keys VALUES ('x', '\\x$SECRET')" "TRUNCATE ulid_keyring.keys" \
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
MASK=$(as plain owned -c "SELECT ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'api')")
# the value: openssl enc -aes-128-ecb -nopad -K 00112233445566778899aabbccddeeff of the 16 bytes
check "keys: a role granted EXECUTE masks (AES-128 under the secret, as OpenSSL computes it)" "0P7BRQC5ZSTMV1Q237YX3EF18V" "$MASK"
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
check "keys: the superuser's dump holds the secrets" 1 "$(grep -c "$SECRET" "$DUMPS/super.sql")"
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
	check "keys: $db: the keys, their secrets and creation times came back" \
		"$(as postgres owned -c "SELECT name, secret, created FROM ulid_keyring.keys WHERE name = 'api'")" \
		"$(as postgres $db -c "SELECT name, secret, created FROM ulid_keyring.keys WHERE name = 'api'")"
	check "keys: $db: a mask made before the dump unmasks" "01HTQW311N1KR5G0Y75M3EF00H" \
		"$(as plain $db -c "SELECT ulid_unmask('$MASK', 'api')")"
	check "keys: $db: the other key, random, came back the same" \
		"$(as postgres owned -c "SELECT ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'other')")" \
		"$(as postgres $db -c "SELECT ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'other')")"
	check "keys: $db: the key table has its two triggers, the extension's" "ulid_keys_changed,ulid_keys_superuser" \
		"$(as postgres $db -c "SELECT string_agg(tgname, ',' ORDER BY tgname) FROM pg_trigger WHERE tgrelid = 'ulid_keyring.keys'::regclass")"
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

pg_stop $S
