#!/usr/bin/env bash
# Node identity on one server (SPEC section 5), what a reload changes:
# ulid.node_ids takes effect for sessions already open; a plain role mints on
# the owned nodes and on no other, and cannot change the set; a bad value in
# postgresql.conf is refused at reload with a clear log line and the old set
# stays; ulid.node_id_source = 'citus' without Citus refuses like a server
# without a node id, naming why, and switching back works at once.  (The
# regression test sql/snowflake_nodes.sql covers the calls; a Citus cluster:
# test/scenarios/citus.sh.)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

S=nodeid
if ! pg_new $S "ulid.node_id = 1" || ! pg_start $S; then
	not_ok "node identity: server starts"
	exit 1
fi
psqlx $S -c "CREATE EXTENSION ulid" -c "CREATE ROLE plain LOGIN" >/dev/null
reload() {
	psqlx $S -c "SELECT pg_reload_conf()" >/dev/null
	sleep 0.5
}
conf() { # replace the ulid.node_* lines of postgresql.auto.conf by "$@"
	psqlx $S -c "ALTER SYSTEM RESET ulid.node_ids" -c "ALTER SYSTEM RESET ulid.node_id_source" >/dev/null
	local line
	for line in "$@"; do psqlx $S -c "ALTER SYSTEM SET $line" >/dev/null; done
	reload
}

check "node identity: by default the server owns its ulid.node_id alone" "1|setting|1|" \
	"$(psqlx $S -c "SELECT node_id, source, owned_nodes, problem FROM ulid_node_identity()")"
check "node identity: a plain role mints on the server's node, named or not" "1|1" \
	"$(psqlx $S -U plain -c "SELECT snowflake_node(snowflake_next('twitter'), 'twitter'), snowflake_node(snowflake_next('twitter', 1), 'twitter')")"
check "node identity: an explicit NULL node is the server's node, for snowflake_next() as for cosid80_next(); a NULL layout gives NULL" "1|1|t" \
	"$(psqlx $S -U plain -c "SELECT snowflake_node(snowflake_next('twitter', NULL), 'twitter'), cosid80_parts(cosid80_next(NULL)) ->> 'node', snowflake_next(NULL, 1) IS NULL")"
out=$(sql_error $S "snowflake_next('twitter', 2)" -U plain)
check "node identity: a plain role cannot mint on node 2, which another server owns" \
	"55000|this server does not own node 2|snowflake_next(layout, node) mints only on the nodes this server owns: 1 (ulid.node_id). Two servers minting on one node can issue equal ids.|If no other server mints on node 2, add it to ulid.node_ids in postgresql.conf (or ALTER SYSTEM SET ulid.node_ids = '2'), then SELECT pg_reload_conf()." \
	"$out"
out=$(sql_error $S "snowflake_next('twitter', 2)")
check "node identity: nor can a superuser" "55000|this server does not own node 2" "$(cut -d'|' -f1,2 <<<"$out")"
check "node identity: a plain role cannot change the owned set" \
	"ERROR:  permission denied to set parameter \"ulid.node_ids\"" \
	"$(psqlx $S -U plain -c "ALTER SYSTEM SET ulid.node_ids = '0-1023'" 2>&1)"

# a reload reaches a session that is already open
coproc SESSION { ULID_DB=postgres psqlx $S -U plain -qAt 2>&1; }
echo "SELECT 'before', owned_nodes FROM ulid_node_identity();" >&"${SESSION[1]}"
read -r -t 10 before <&"${SESSION[0]}"
conf "ulid.node_ids = '2,100-199'"
echo "SELECT 'after', owned_nodes, snowflake_node(snowflake_next('twitter', 150), 'twitter') FROM ulid_node_identity();" >&"${SESSION[1]}"
read -r -t 10 after <&"${SESSION[0]}"
echo "\\q" >&"${SESSION[1]}"
wait "$SESSION_PID" 2>/dev/null
check "node identity: ulid.node_ids = '2,100-199' reaches an open session at reload" "before|1 -> after|1-2,100-199|150" \
	"$before -> $after"
check "node identity: the owned nodes mint, node 200 is still refused" "2|199|55000" \
	"$(psqlx $S -U plain -c "SELECT snowflake_node(snowflake_next('twitter', 2), 'twitter'), snowflake_node(snowflake_next('twitter', 199), 'twitter')")|$(sql_error $S "snowflake_next('twitter', 200)" -U plain | cut -d'|' -f1)"
check "node identity: the view shows the owned set" "1-2,100-199" \
	"$(psqlx $S -c "SELECT DISTINCT owned_nodes FROM ulid_generator_state")"

# a bad value written into the configuration by hand (ALTER SYSTEM would
# refuse it): refused at reload, logged, the old set stays.  (Into
# postgresql.auto.conf, read last: a line in postgresql.conf would be
# overridden by the ALTER SYSTEM line above.)
echo "ulid.node_ids = '5-3'" >>"$(pg_data $S)/postgresql.auto.conf"
reload
check "node identity: a bad ulid.node_ids in the configuration keeps the old set" "1-2,100-199" \
	"$(psqlx $S -c "SELECT owned_nodes FROM ulid_node_identity()")"
log=$(cat "$ULID_WORK/log/$S.log" 2>/dev/null || cat "$(pg_data $S)"/log/* 2>/dev/null)
case $log in
*'invalid value for parameter "ulid.node_ids": "5-3"'*'the range 5-3 runs backwards'*)
	ok "node identity: the log names the bad value and why" ;;
*) not_ok "node identity: the log names the bad value and why (log: $(grep -i 'node_ids' <<<"$log" | tail -3))" ;;
esac
sed -i '$d' "$(pg_data $S)/postgresql.auto.conf"
reload

# ulid.node_id_source = 'citus' where Citus is not installed
conf "ulid.node_id_source = 'citus'"
check "node identity: 'citus' without Citus: no node id, and why" \
	"|citus||Citus is not installed in the database \"postgres\" (there is no pg_catalog.pg_dist_local_group)" \
	"$(psqlx $S -c "SELECT node_id, source, owned_nodes, problem FROM ulid_node_identity()")"
check "node identity: snowflake_next(layout) refuses like a server without a node id, naming why" \
	"55000|this server has no node id for Snowflake ids|ulid.node_id_source is 'citus', so snowflake_next(layout) mints ids on this node's Citus group id, and Citus is not installed in the database \"postgres\" (there is no pg_catalog.pg_dist_local_group).|Create the citus extension in this database (a Citus cluster uses one database), or set ulid.node_id_source = 'setting' and a ulid.node_id no other server uses; then SELECT pg_reload_conf()." \
	"$(sql_error $S "snowflake_next('twitter')" -U plain)"
check "node identity: so does cosid80_next()" "55000|this server has no node id for COSID_80 ids" \
	"$(sql_error $S "cosid80_next()" | cut -d'|' -f1,2)"
check "node identity: ulid.node_id no longer counts as owned under 'citus'" "55000|this server does not own node 1" \
	"$(sql_error $S "snowflake_next('twitter', 1)" | cut -d'|' -f1,2)"
# a table named like Citus's in another schema is not Citus's
psqlx $S -c "CREATE TABLE public.pg_dist_local_group (groupid int)" -c "INSERT INTO public.pg_dist_local_group VALUES (5)" >/dev/null
check "node identity: a look-alike table outside pg_catalog is not read" "55000" \
	"$(sql_error $S "snowflake_next('twitter')" -U plain | cut -d'|' -f1)"
conf
# a node id that does not fit the layout: 22003, and the hint says where it
# comes from
psqlx $S -c "ALTER SYSTEM SET ulid.node_id = 2000" >/dev/null
reload
check "node identity: a node id that does not fit twitter is 22003, naming where it comes from" \
	"22003|node 2000 does not fit the layout twitter|Its node fields hold 10 bits together: nodes 0 to 1023.|The node is this server's node id (ulid.node_id): set one that fits, or pass a node this server owns that fits: snowflake_next(layout, node)." \
	"$(sql_error $S "snowflake_next('twitter')")"
psqlx $S -c "ALTER SYSTEM RESET ulid.node_id" >/dev/null
reload
check "node identity: back to 'setting', node 1 again" "1|1" \
	"$(psqlx $S -U plain -c "SELECT node_id, snowflake_node(snowflake_next('twitter'), 'twitter') FROM ulid_node_identity()")"
