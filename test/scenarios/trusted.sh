#!/usr/bin/env bash
# ulid is a trusted extension: a database owner who is no superuser installs
# it with CREATE EXTENSION; that owner and a plain role use every public
# function; the superuser-only functions refuse both of them at run time,
# even when EXECUTE is granted; the state view is for superusers, pg_monitor
# and roles granted SELECT on it; the owner drops the extension again.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

S=trusted
if ! pg_new $S "ulid.node_id = 3" "ulid.node_ids = '9'" || ! pg_start $S; then
	not_ok "trusted: server starts"
	exit 1
fi
psqlx $S -c "CREATE ROLE dbowner LOGIN" -c "CREATE ROLE plain LOGIN" -c "CREATE ROLE monitor LOGIN IN ROLE pg_monitor" \
	-c "CREATE DATABASE owned OWNER dbowner" >/dev/null
as() {
	local role=$1
	shift
	ULID_DB=owned psqlx $S -U "$role" "$@"
}

check "trusted: the control file says trusted, for every installable version" t \
	"$(psqlx $S -c "SELECT bool_and(trusted) FROM pg_available_extension_versions WHERE name = 'ulid'")"
check "trusted: the database owner is no superuser" f "$(as dbowner -c "SELECT rolsuper FROM pg_roles WHERE rolname = current_user")"
out=$(as dbowner -c "CREATE EXTENSION ulid" 2>&1)
check "trusted: the database owner installs it" "" "$out"
check "trusted: the extension belongs to the database owner" dbowner \
	"$(as dbowner -c "SELECT extowner::regrole FROM pg_extension WHERE extname = 'ulid'")"

# every public function: each call returns true for the owner and a plain role
calls=$(
	cat <<'SQL'
SELECT bool_and(ok) AS all_ok, string_agg(name, ', ') FILTER (WHERE NOT ok) AS failed FROM (VALUES
    ('gen_ulid', ulid_time(gen_ulid()) > now() - interval '1 minute'),
    ('gen_random_ulid', ulid_unix_ms(gen_random_ulid()) > 0),
    ('gen_ulid(at)', ulid_time(gen_ulid('2024-04-05 19:34:38.901Z')) = '2024-04-05 19:34:38.901Z'),
    ('gen_monotonic_ulid', gen_monotonic_ulid() < gen_monotonic_ulid()),
    ('ulid_random', ulid_random('01HTQW311N1KR5G0Y75M3EF00H') = '\x0cf05803c72d06e78011'),
    ('ulid_from_parts', ulid_from_parts(1712345678901, '\x0cf05803c72d06e78011') = '01HTQW311N1KR5G0Y75M3EF00H'),
    ('ulid_lower/upper', ulid_lower('2024-04-05 19:34:38.901Z') < ulid_upper('2024-04-05 19:34:38.901Z')),
    ('ulid_parts', (SELECT unix_ms = 1712345678901 FROM ulid_parts('01HTQW311N1KR5G0Y75M3EF00H'))),
    ('ulid_to_bytea/from_bytea', ulid_from_bytea(ulid_to_bytea('01HTQW311N1KR5G0Y75M3EF00H')) = '01HTQW311N1KR5G0Y75M3EF00H'),
    ('base62', ulid_from_base62(ulid_to_base62('01HTQW311N1KR5G0Y75M3EF00H')) = '01HTQW311N1KR5G0Y75M3EF00H'),
    ('gsid', gsid_to_ulid('usr_0UfgmdjM46GLys2pzvVCof2nyJ8Y') = ulid_parse('usr_0UfgmdjM46GLys2pzvVCof2nyJ8Y')
             AND gsid_prefix(ulid_to_gsid('01JPHM2B0RF0YRM2H2C0VAG3WE', 'usr', 3757087090)) = 'usr'
             AND gsid_namespace(gen_gsid('ord', 7)) = 7),
    ('typeid', typeid_to_ulid(ulid_to_typeid('01HTQW311N1KR5G0Y75M3EF00H', 'user')) = '01HTQW311N1KR5G0Y75M3EF00H'
               AND typeid_prefix('user_01htqw311n1kr5g0y75m3ef00h') = 'user'),
    ('ulid_try_parse', ulid_try_parse('nope') IS NULL),
    ('radix', radix_decode(radix_encode(255, 16, 4), 16) = 255),
    ('scru64', scru64_from_text(scru64_text(110009624767914842)) = 110009624767914842),
    ('snowflake_layout', snowflake_layout('twitter') = snowflake_layout(41, 'ms', '2010-11-04T01:42:54.657Z', '{"datacenter": 5, "worker": 5}', 12)),
    ('snowflake_layout_diagram', snowflake_layout_diagram('twitter') LIKE '| sign 1 |%'),
    ('snowflake readers', snowflake_time(175928847299117063, 'discord') = '2016-04-30 11:18:25.796Z'
                          AND snowflake_unix_ms(175928847299117063, 'discord') = 1462015105796
                          AND snowflake_node(175928847299117063, 'discord') = 32
                          AND snowflake_field(175928847299117063, 'discord', 'worker') = 1
                          AND snowflake_sequence(175928847299117063, 'discord') = 7
                          AND snowflake_parts(175928847299117063, 'discord')->>'sequence' = '7'),
    ('snowflake_pack/lower/upper', snowflake_lower('twitter', '2022-06-28T16:07:40.105Z') <= snowflake_pack('twitter', '2022-06-28T16:07:40.105Z', 378, 0)
                                   AND snowflake_upper('twitter', '2022-06-28T16:07:40.105Z') >= 1541815603606036480),
    ('snowflake friendly', snowflake_from_friendly(snowflake_friendly(1541815603606036480, 'twitter'), 'twitter') = 1541815603606036480),
    ('snowflake_next', snowflake_node(snowflake_next('twitter'), 'twitter') = 3 AND snowflake_next('discord', 9) > 0),
    ('operators and aggregates', (SELECT max(u) > min(u) FROM (VALUES (gen_ulid()), (gen_ulid())) v(u))),
    ('sqids and base32hex', sqids_decode(sqids_encode('{1,2,3}')) = '{1,2,3}'
                            AND ulid_from_base32hex(ulid_to_base32hex('01HTQW311N1KR5G0Y75M3EF00H')) = '01HTQW311N1KR5G0Y75M3EF00H')
) c(name, ok);
SQL
)
for role in dbowner plain; do
	check "trusted: $role calls every public function" "t|" "$(as $role -c "$calls" 2>&1)"
done
check "trusted: dbowner creates a table keyed by ulid with gen_ulid() and indexes it" "3|3" \
	"$(as dbowner -c "CREATE TABLE t_dbowner (id ulid PRIMARY KEY DEFAULT gen_ulid(), s bigint DEFAULT snowflake_next('twitter'))" \
		-c "INSERT INTO t_dbowner SELECT FROM generate_series(1, 3)" \
		-c "SELECT count(*), count(DISTINCT s) FROM t_dbowner WHERE id > ulid_lower(now() - interval '1 hour')" 2>&1)"
as dbowner -c "GRANT CREATE ON SCHEMA public TO plain" >/dev/null 2>&1
check "trusted: plain creates a table keyed by ulid (CREATE granted on public)" "3|3" \
	"$(as plain -c "CREATE TABLE t_plain2 (id ulid PRIMARY KEY DEFAULT gen_ulid(), s bigint DEFAULT snowflake_next('twitter'))" \
		-c "INSERT INTO t_plain2 SELECT FROM generate_series(1, 3)" \
		-c "SELECT count(*), count(DISTINCT s) FROM t_plain2" 2>&1)"

# the superuser-only functions refuse the owner and a plain role, also with EXECUTE granted
superuser_calls=(
	"snowflake_advance('twitter', 3, 1)"
	"snowflake_reset('twitter', 3)"
	"ulid_monotonic_advance('01HTQW311N1KR5G0Y75M3EF00H')"
	"ulid_monotonic_reset()"
	"ulid_floor_repair(now())"
	"ulid_advance_from_tables()"
	"ulid_key_create('k')"
	"ulid_key_drop('k')"
	"ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'k')"
)
for role in dbowner plain; do
	for c in "${superuser_calls[@]}"; do
		out=$(as $role -c "SELECT $c" 2>&1)
		case $out in
		*"permission denied for function"*) ok "trusted: $role may not call $c" ;;
		*) not_ok "trusted: $role may not call $c (got: $out)" ;;
		esac
	done
done
out=$(as dbowner -c "GRANT EXECUTE ON FUNCTION snowflake_advance(snowflake_layout, bigint, bigint) TO plain" 2>&1)
case $out in
*"permission denied for function snowflake_advance"*) ok "trusted: the owner cannot grant EXECUTE on the superuser-only functions (it does not own them)" ;;
*) not_ok "trusted: the owner cannot grant what the extension's script revoked (got: $out)" ;;
esac
ULID_DB=owned psqlx $S -c "GRANT EXECUTE ON FUNCTION snowflake_advance(snowflake_layout, bigint, bigint), ulid_floor_repair(timestamptz, boolean), ulid_advance_from_tables(interval, boolean, regclass[], regclass[], regnamespace[]) TO plain" >/dev/null
for c in "snowflake_advance('twitter', 3, 1)|advance snowflake_next()" "ulid_floor_repair(now())|repair the ulid restart floor" \
	"ulid_advance_from_tables()|advance the ulid generators from tables"; do
	out=$(as plain -c "SELECT ${c%%|*}" 2>&1)
	case $out in
	*"must be superuser to ${c#*|}"*) ok "trusted: granted EXECUTE, plain is still refused ${c%%|*} at run time" ;;
	*) not_ok "trusted: granted EXECUTE, plain is still refused ${c%%|*} at run time (got: $out)" ;;
	esac
done

# the state view
for role in dbowner plain; do
	out=$(as $role -c "SELECT count(*) FROM ulid_generator_state" 2>&1)
	case $out in
	*"permission denied for view ulid_generator_state"*) ok "trusted: $role may not read the state view" ;;
	*) not_ok "trusted: $role may not read the state view (got: $out)" ;;
	esac
done
check "trusted: a pg_monitor member reads the state view" t \
	"$(as monitor -c "SELECT count(*) >= 2 FROM ulid_generator_state")"
ULID_DB=owned psqlx $S -c "GRANT SELECT ON ulid_generator_state TO plain" >/dev/null
check "trusted: a role granted SELECT reads it" t \
	"$(as plain -c "SELECT bool_or(kind = 'snowflake') FROM ulid_generator_state")"

# the owner drops it again (with the tables that use the type)
check "trusted: the owner drops it" "" \
	"$(as dbowner -c "DROP TABLE t_dbowner" -c "DROP EXTENSION ulid CASCADE" 2>&1 | grep -v '^NOTICE\|^DETAIL\|^drop cascades')"
check "trusted: gone" 0 "$(as dbowner -c "SELECT count(*) FROM pg_extension WHERE extname = 'ulid'")"
pg_stop $S
