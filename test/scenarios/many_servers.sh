#!/usr/bin/env bash
# Many writers, one id space: three servers with ulid.node_id 1, 2 and 3
# each insert from three sessions at once into a table keyed by
# snowflake_next('twitter') and one keyed by gen_monotonic_ulid(), while a
# fourth server subscribes to all three through built-in logical
# replication (a publication per origin, a subscription per origin) into
# ONE shared table per kind, whose primary key makes any duplicate id a
# subscription conflict.
#
# Checks: the subscriptions report no error (pg_stat_subscription_stats, the
# server logs); every row arrives (exact counts per origin); no id repeats
# across the origins; every Snowflake id's node (datacenter 0, worker N)
# names the server that minted it; each origin's order holds, per session
# (by the session's own row counter) and across sessions (each id bracketed
# by two values of one sequence, drawn by the columns' defaults around it);
# and the subscriber's rows of each origin are exactly that origin's table.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

ORIGINS=(ms_origin1 ms_origin2 ms_origin3)
SUB=ms_sub
SESSIONS=3
CYCLES=15 # each session: 15 x (1 + 7 + 50 + 142) = 3000 rows per table, in 60 transactions
ROWS_PER_SESSION=$((CYCLES * 200))
ROWS_PER_ORIGIN=$((SESSIONS * ROWS_PER_SESSION))

for i in 1 2 3; do
	if ! pg_new "${ORIGINS[i - 1]}" "ulid.node_id = $i" "wal_level = logical" ||
		! pg_start "${ORIGINS[i - 1]}"; then
		not_ok "many_servers: origin $i starts"
		exit 1
	fi
done
if ! pg_new $SUB "max_logical_replication_workers = 10" "max_worker_processes = 16" ||
	! pg_start $SUB; then
	not_ok "many_servers: the subscriber starts"
	exit 1
fi

# The origins' tables: the defaults draw before, id and after in this order
# for every row (a row's defaults are evaluated in column order), so when
# after(x) < before(y), x's id was minted before y's.
for o in "${ORIGINS[@]}"; do
	psqlx "$o" <<'SQL'
CREATE EXTENSION ulid;
CREATE SEQUENCE clk;
CREATE TABLE sf (
    before bigint NOT NULL DEFAULT nextval('clk'),
    id bigint PRIMARY KEY DEFAULT snowflake_next('twitter'),
    after bigint NOT NULL DEFAULT nextval('clk'),
    origin int NOT NULL, session int NOT NULL, seq int NOT NULL
);
CREATE TABLE mu (
    before bigint NOT NULL DEFAULT nextval('clk'),
    id ulid PRIMARY KEY DEFAULT gen_monotonic_ulid(),
    after bigint NOT NULL DEFAULT nextval('clk'),
    origin int NOT NULL, session int NOT NULL, seq int NOT NULL
);
CREATE PUBLICATION ids FOR TABLE sf, mu;
SQL
done

# The subscriber: one table per kind for all origins, no defaults (it mints
# nothing and has no node id), a subscription per origin over the unix socket
psqlx $SUB <<'SQL'
CREATE EXTENSION ulid;
CREATE TABLE sf (before bigint NOT NULL, id bigint PRIMARY KEY, after bigint NOT NULL,
                 origin int NOT NULL, session int NOT NULL, seq int NOT NULL);
CREATE TABLE mu (before bigint NOT NULL, id ulid PRIMARY KEY, after bigint NOT NULL,
                 origin int NOT NULL, session int NOT NULL, seq int NOT NULL);
SQL
for i in 1 2 3; do
	psqlx $SUB -c "SET client_min_messages = warning" -c "CREATE SUBSCRIPTION from_origin$i
		CONNECTION 'host=$ULID_WORK/sock port=$(pg_port "${ORIGINS[i - 1]}") dbname=postgres user=postgres'
		PUBLICATION ids"
done
synced() {
	[ "$(psqlx $SUB -c "SELECT count(*) FILTER (WHERE srsubstate = 'r') FROM pg_subscription_rel")" == 6 ]
}
check_cmd "subscriber: 3 subscriptions x 2 tables synchronised" wait_until 60 synced

# --- the writers: 3 sessions on each origin at once -----------------------
# session_sql ORIGIN SESSION: 60 transactions of 1, 7, 50 and 142 rows into
# both tables; seq counts the session's rows
session_sql() {
	local origin=$1 session=$2 c n seq=0
	for ((c = 0; c < CYCLES; c++)); do
		for n in 1 7 50 142; do
			echo "BEGIN;"
			echo "INSERT INTO sf (origin, session, seq) SELECT $origin, $session, g FROM generate_series($((seq + 1)), $((seq + n))) g;"
			echo "INSERT INTO mu (origin, session, seq) SELECT $origin, $session, g FROM generate_series($((seq + 1)), $((seq + n))) g;"
			echo "COMMIT;"
			seq=$((seq + n))
		done
	done
}
start=$(date +%s%N)
pids=()
for i in 1 2 3; do
	for ((s = 1; s <= SESSIONS; s++)); do
		session_sql "$i" "$s" | psqlx "${ORIGINS[i - 1]}" &
		pids+=($!)
	done
done
failed=0
for p in "${pids[@]}"; do wait "$p" || failed=$((failed + 1)); done
check "writers: 9 sessions (3 per origin) inserted without an error" 0 "$failed"
echo "# writers took $((($(date +%s%N) - start) / 1000000)) ms"

for i in 1 2 3; do
	check "origin $i: $ROWS_PER_ORIGIN rows in each table, ids minted once each" \
		"$ROWS_PER_ORIGIN|$ROWS_PER_ORIGIN|snowflake $i $ROWS_PER_ORIGIN,ulid $ROWS_PER_ORIGIN" \
		"$(psqlx "${ORIGINS[i - 1]}" -c "SELECT (SELECT count(*) FROM sf), (SELECT count(*) FROM mu),
			(SELECT string_agg(concat_ws(' ', kind, node, issued), ',' ORDER BY kind) FROM ulid_generator_state)")"
done

# --- catch-up ---------------------------------------------------------------
caught_up() {
	[ "$(psqlx $SUB -c "SELECT (SELECT count(*) FROM sf) + (SELECT count(*) FROM mu)")" == $((6 * ROWS_PER_ORIGIN)) ]
}
start=$(date +%s%N)
check_cmd "subscriber: caught up with the three origins" wait_until 60 caught_up
echo "# catch-up after the writers took $((($(date +%s%N) - start) / 1000000)) ms"

# --- checks -----------------------------------------------------------------
# (19 splits sync_error_count into sync_seq_error_count and
# sync_table_error_count: every sync%error_count column is summed)
check "subscriber: no apply or sync error in any subscription" "3|0|0" \
	"$(psqlx $SUB -c "SELECT count(*), sum(apply_error_count),
		sum((SELECT sum(value::bigint) FROM jsonb_each_text(to_jsonb(s)) WHERE key LIKE 'sync%error_count'))
		FROM pg_stat_subscription_stats s")"
for s in $SUB "${ORIGINS[@]}"; do
	check "$s: no ERROR in the server log" 0 "$(grep -c 'ERROR' "$ULID_WORK/log/$s.log")"
done

for t in sf mu; do
	check "subscriber $t: exact row counts per origin" \
		"1|$ROWS_PER_ORIGIN,2|$ROWS_PER_ORIGIN,3|$ROWS_PER_ORIGIN" \
		"$(psqlx $SUB -c "SELECT string_agg(origin || '|' || n, ',' ORDER BY origin)
			FROM (SELECT origin, count(*) AS n FROM $t GROUP BY origin) s")"
	check "subscriber $t: no duplicate id across the origins" "$((3 * ROWS_PER_ORIGIN))" \
		"$(psqlx $SUB -c "SELECT count(DISTINCT id) FROM $t")"
	# per session: ids strictly increase with the session's own row counter
	check "subscriber $t: each session's ids strictly increase in its insertion order" \
		"$((3 * ROWS_PER_ORIGIN))|0" \
		"$(psqlx $SUB -c "SELECT count(*), count(*) FILTER (WHERE id <= prev)
			FROM (SELECT id, lag(id) OVER (PARTITION BY origin, session ORDER BY seq) AS prev FROM $t) s")"
	# per origin, across sessions: sorted by id (descending), the smallest
	# 'after' of the larger ids must exceed each row's 'before'; and the
	# sessions really interleaved
	check "subscriber $t: each origin's ids follow its minting order wherever it is known, the sessions interleaved" \
		"0|t" \
		"$(psqlx $SUB -c "
			SELECT (SELECT count(*) FROM (SELECT before, min(after) OVER (PARTITION BY origin ORDER BY id DESC
			                                 ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS later_after
			                             FROM $t) s WHERE later_after < before),
			       (SELECT count(*) FROM (SELECT session, lag(session) OVER (PARTITION BY origin ORDER BY id) AS prev
			                             FROM $t) s WHERE session <> prev) > 100")"
done

check "subscriber sf: every Snowflake id's node is its origin's ulid.node_id (datacenter 0, worker N)" \
	"$((3 * ROWS_PER_ORIGIN))|0" \
	"$(psqlx $SUB -c "SELECT count(*), count(*) FILTER (WHERE snowflake_node(id, 'twitter') <> origin
		OR snowflake_field(id, 'twitter', 'worker') <> origin OR snowflake_field(id, 'twitter', 'datacenter') <> 0)
		FROM sf")"
check "subscriber: every id minted during this run" "t|t" \
	"$(psqlx $SUB -c "SELECT (SELECT bool_and(snowflake_time(id, 'twitter') BETWEEN now() - interval '10 min' AND now()) FROM sf),
		(SELECT bool_and(ulid_time(id) BETWEEN now() - interval '10 min' AND now()) FROM mu)")"

# the subscriber's rows of each origin are exactly the origin's table
rows_md5() { echo "SELECT count(*), md5(string_agg(concat_ws(',', before, id, after, origin, session, seq), ';' ORDER BY id)) FROM $1"; }
for i in 1 2 3; do
	for t in sf mu; do
		check "subscriber $t: origin $i's rows equal that origin's table" \
			"$(psqlx "${ORIGINS[i - 1]}" -c "$(rows_md5 $t)")" \
			"$(psqlx $SUB -c "$(rows_md5 "$t WHERE origin = $i")")"
	done
done

psqlx $SUB -c "SET client_min_messages = warning" -c "DROP SUBSCRIPTION from_origin1" -c "DROP SUBSCRIPTION from_origin2" -c "DROP SUBSCRIPTION from_origin3"
pg_stop $SUB
for o in "${ORIGINS[@]}"; do pg_stop "$o"; done
