#!/usr/bin/env bash
# ulid_health(): one row per problem, each with its fix, and none on a
# healthy server (src/health.c).  On one server (20 states, so a quarter is
# 5 advanced states): the floor file deleted while the server runs, damaged
# while it runs and at start, the floor an hour and two days ahead; 4 and 5
# advanced states; node ids that a default's layout cannot hold, and none
# at all; the table full of states.  Each problem's fix is run and the row
# goes away.  A second server without the library preloaded shows that.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

S=health
if ! pg_new $S "ulid.max_generator_states = 20" "ulid.node_id = 1" "ulid.node_ids = '0-100'" || ! pg_start $S; then
	not_ok "health: server starts"
	exit 1
fi
psqlx $S -c "CREATE EXTENSION ulid"
floor_file=$(pg_data $S)/ulid_floor
rows() { psqlx $S -c "SELECT check_name, severity, detail, fix FROM ulid_health()"; }
mint() { psqlx $S -c "SELECT count(gen_monotonic_ulid()) FROM generate_series(1, 100)" >/dev/null; }
repair="A superuser repairs it with a time after every id any generator of this server issued: SELECT ulid_floor_repair(now() + interval '1 minute'); if the clock was never set back, or the largest stored id's time."

mint
check "health: a healthy server has no rows" "" "$(rows)"
# what a call costs (a monitoring agent polls it)
psqlx $S -c "DO \$\$ DECLARE t0 timestamptz := clock_timestamp(); BEGIN
	FOR i IN 1..100 LOOP PERFORM count(*) FROM ulid_health(); END LOOP;
	RAISE NOTICE 'ulid_health() took % ms a call (100 calls, healthy server)', round(extract(epoch FROM clock_timestamp() - t0)::numeric * 10, 3); END \$\$" 2>&1 | sed 's/^NOTICE: */# /'

# the floor file deleted while the server runs
rm -f "$floor_file"
check "health: the floor file deleted while the server runs: one critical row, the fix rewrites it" \
	"floor_file|critical|The restart floor file \"$floor_file\" does not exist, though the generators reserved a floor since the server started: it was deleted. A server start before they write it again starts them from the clock alone, below ids they issued if the clock is behind.|Write it again from the floors in memory: SELECT ulid_floor_repair(now()); and find what deletes files in the data directory." \
	"$(rows)"
psqlx $S -c "SELECT ulid_floor_repair(now())" >/dev/null 2>&1
check "health: after the fix, the file is there and there are no rows" "yes|" "$([ -f "$floor_file" ] && echo yes)|$(rows)"

# damaged while the server runs, then at start
echo "garbage" >"$floor_file"
out=$(rows)
case $out in
"floor_file|critical|The restart floor file \"$floor_file\" is damaged: "*". The generators rewrite it at their next floor reservation if they can; a server start before that stops them (55000) until it is repaired.|$repair")
	ok "health: the floor file damaged while the server runs: one critical row with the repair" ;;
*) not_ok "health: the floor file damaged while the server runs: one critical row with the repair (got: $out)" ;;
esac
pg_stop $S
echo "garbage" >"$floor_file"
pg_start $S
out=$(rows)
case $out in
"floor_file|critical|The restart floor file \"$floor_file\" was damaged at server start ("*"): gen_monotonic_ulid(), snowflake_next() and cosid80_next() refuse to issue (55000) until it is repaired.|$repair")
	ok "health: the floor file damaged at start: one critical row with the repair" ;;
*) not_ok "health: the floor file damaged at start: one critical row with the repair (got: $out)" ;;
esac
psqlx $S -c "SELECT ulid_floor_repair(now() + interval '1 second')" >/dev/null 2>&1
mint
check "health: repaired, no rows" "" "$(rows)"

# the floor ahead of the clock: an hour (warning), two days (critical); the
# fix lowers it
ahead() { psqlx $S -c "SELECT check_name || '|' || severity || '|' || (regexp_match(detail, 'lies (\d+) ms ahead'))[1]::bigint / 60000 || ' min|' || fix FROM ulid_health()"; }
lower_fix="If the clock is right and no id was issued that late (a floor file copied from elsewhere, a repair with a wrong time), lower it: SELECT ulid_floor_repair(now(), lower => true); (it says which guarantee that drops). If the clock was set back after ids were issued that late, leave it: the generators stay above those ids."
psqlx $S -c "SELECT ulid_floor_repair(now() + interval '1 hour')" >/dev/null 2>&1
check "health: the floor an hour ahead: a warning, with how far and the fix" "floor_ahead|warning|60 min|$lower_fix" "$(ahead)"
psqlx $S -c "SELECT ulid_floor_repair(now() + interval '2 days')" >/dev/null 2>&1
check "health: the floor two days ahead: critical" "floor_ahead|critical|2880 min|$lower_fix" "$(ahead)"
psqlx $S -c "SELECT ulid_floor_repair(now(), lower => true)" >/dev/null 2>&1
check "health: lowered, no rows" "" "$(rows)"

# advanced states: 4 of the 5 a table of 20 allows is a warning, 5 critical
advance() { psqlx $S -c "SELECT snowflake_advance('twitter', $1, snowflake_upper('twitter', now() + interval '1 hour'))" >/dev/null; }
advanced_fix="Undo the advances no longer needed (SELECT * FROM ulid_generator_state WHERE state_floor IS NOT NULL lists them) with snowflake_reset(), cosid80_reset() or ulid_monotonic_reset(), or raise ulid.max_generator_states in postgresql.conf (preloaded) and restart."
for n in 11 12 13; do advance $n; done
check "health: 3 advanced states of 5: no rows" "" "$(rows)"
advance 14
check "health: 4 advanced states of 5: a warning with the fix" \
	"advanced_states|warning|4 states are advanced, of the 5 that may be at once (a quarter of the 20 generator states): an advance beyond that is refused (53400), ulid_advance_from_tables() included.|$advanced_fix" "$(rows)"
advance 15
check "health: 5 advanced states of 5: critical" \
	"advanced_states|critical|5 states are advanced, of the 5 that may be at once (a quarter of the 20 generator states): an advance beyond that is refused (53400), ulid_advance_from_tables() included.|$advanced_fix" "$(rows)"
for n in 11 12 13 14 15; do psqlx $S -c "SELECT snowflake_reset('twitter', $n)" >/dev/null 2>&1; done
check "health: the advances undone, no rows" "" "$(rows)"

# node ids: a default whose layout cannot hold node id 9, then no node id
psqlx $S -c "CREATE TABLE js (id bigint DEFAULT snowflake_next('js_safe_ms'), id2 bigint DEFAULT snowflake_next('js_safe_ms'))"
psqlx $S -c "ALTER SYSTEM SET ulid.node_id = 9" -c "SELECT pg_reload_conf()" >/dev/null
sleep 0.5
check "health: node id 9 and a js_safe_ms default (nodes 0 to 7): critical, with the fix" \
	"node_id|critical|Node id 9 does not fit the layout js_safe_ms (nodes 0 to 7) that the default of public.js.id (and 1 more) mints on: inserts through it fail (22003).|Give the column a layout whose node fields hold more bits (twitter's hold 10: nodes 0 to 1023), or give this server a node id from 0 to 7 that no other server uses." \
	"$(rows)"
psqlx $S -c "ALTER SYSTEM SET ulid.node_id = -1" -c "SELECT pg_reload_conf()" >/dev/null
sleep 0.5
check "health: no node id and a default that mints on it: critical, with the insert's reason and fix" \
	"node_id|critical|Column defaults of this database mint on the node id: public.js.id (and 1 more) (js_safe_ms); this server has no node id for Snowflake ids: ulid.node_id is not set, and snowflake_next(layout) mints ids on it.|Set ulid.node_id in postgresql.conf to a node number no other server minting ids uses (or ALTER SYSTEM SET ulid.node_id = ...), then SELECT pg_reload_conf(); or pass a node this server owns (ulid.node_ids): snowflake_next(layout, node)." \
	"$(rows)"
psqlx $S -c "ALTER SYSTEM SET ulid.node_id = 3" -c "SELECT pg_reload_conf()" >/dev/null
sleep 0.5
check "health: node id 3 fits: no rows" "" "$(rows)"

# the table full of states: a state per node 0..30 of twitter
psqlx $S -c "SELECT count(snowflake_next('twitter', n)) FROM generate_series(0, 30) n" >/dev/null
out=$(rows)
case $out in
"capacity|warning|20 of the 20 generator states are in use, and "*" gave way to others since the server started: a state that gave way and is needed again costs a new state's set-up, and may wait a tick of its layout.|Raise ulid.max_generator_states in postgresql.conf (296 bytes of shared memory a state; it needs ulid preloaded) and restart the server.")
	ok "health: the table full of states: a warning with the fix" ;;
*) not_ok "health: the table full of states: a warning with the fix (got: $out)" ;;
esac

# who may call it: superusers and pg_monitor
psqlx $S -c "CREATE ROLE plain LOGIN" -c "CREATE ROLE mon LOGIN IN ROLE pg_monitor"
check "health: pg_monitor may call it, a plain role gets 42501" "1|42501: permission denied for function ulid_health" \
	"$(psqlx $S -U mon -c "SELECT count(*) FROM ulid_health()")|$(psqlx $S -U plain -v VERBOSITY=verbose -c "SELECT * FROM ulid_health()" 2>&1 | sed -nE 's/^(psql:[^:]*:[0-9]+: )?ERROR: +//p')"

# without the library preloaded
N=health_nopreload
if ULID_PRELOAD='' pg_new $N && pg_start $N; then
	psqlx $N -c "CREATE EXTENSION ulid"
	if [ "$(psqlx $N -c "SELECT current_setting('server_version_num')::int >= 170000")" = t ]; then
		expected="preload|warning|The ulid library is not preloaded: the generators' floors are kept in the floor file only, not in WAL, so a promoted standby or a restored backup starts from the floor file its base backup copied and can issue ids again that this server issued since; the state table has a fixed 32,768 states.|Add ulid to shared_preload_libraries in postgresql.conf and restart the server. Until then, on a promoted standby or a restored backup run SELECT * FROM ulid_advance_from_tables() before it mints."
	else
		expected="preload|critical|The ulid library is not preloaded, and before PostgreSQL 17 gen_monotonic_ulid(), snowflake_next() and cosid80_next() have no shared state without it: they fail (55000).|Add ulid to shared_preload_libraries in postgresql.conf, keeping the libraries it lists, then restart the server."
	fi
	check "health: without the library preloaded: one row with the fix" "$expected" \
		"$(psqlx $N -c "SELECT check_name, severity, detail, fix FROM ulid_health()")"
else
	not_ok "health: a server without the library preloaded starts"
fi
