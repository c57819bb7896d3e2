#!/usr/bin/env bash
# snowflake_next() under load: 4 sessions x 100k twitter ids at once on the
# server's node (ulid.node_id); a sequence of 2 bits exhausted by one and by
# two sessions (borrow, then wait); a 1 s tick exhausted (waits for the next
# second), cancelled by statement_timeout and pg_cancel_backend while the
# state stays readable.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

S=sfload
if ! pg_new $S "ulid.node_id = 7" || ! pg_start $S; then
	not_ok "snowflake load: server starts"
	exit 1
fi
psqlx $S -c "CREATE EXTENSION ulid"
TINY="custom(time=41:ms:2020-01-01T00:00:00.000Z, fields=host:4, sequence=2)"
TINY_S="custom(time=31:s:2020-01-01T00:00:00.000Z, fields=host:4, sequence=2)"

check "node id: snowflake_next(layout) mints on ulid.node_id" "7|7" \
	"$(psqlx $S -c "SELECT current_setting('ulid.node_id'), snowflake_node(snowflake_next('twitter'), 'twitter')")"

# --- 4 sessions x 100k ids at once -------------------------------------------
# Each call is bracketed by two values of one sequence (before, after): when
# after(x) < before(y), call x completed before call y started, so x's id
# must be smaller (see monotonic.sh).
psqlx $S -c "CREATE SEQUENCE clk" \
	-c "CREATE UNLOGGED TABLE calls (sess int, g int, t0 timestamptz, before bigint, id bigint, after bigint, t1 timestamptz)"
pids=()
for i in 1 2 3 4; do
	psqlx $S -c "INSERT INTO calls SELECT $i, g, clock_timestamp(), nextval('clk'), snowflake_next('twitter'),
		nextval('clk'), clock_timestamp() FROM generate_series(1, 100000) g" &
	pids+=($!)
done
wait "${pids[@]}"
# order_stats TABLE: count, distinct ids, ids not above their session's
# previous one, ids against completion order, how often the sessions
# interleaved (switches between sessions in id order)
order_stats() {
	echo "count(*), count(DISTINCT id),
	       (SELECT count(*) FROM (SELECT id, lag(id) OVER (PARTITION BY sess ORDER BY g) AS prev
	                              FROM $1) s WHERE id <= prev),
	       (SELECT count(*) FROM (SELECT before, min(after) OVER (ORDER BY id DESC
	                                  ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS later_after
	                              FROM $1) s WHERE later_after < before),
	       (SELECT count(*) FROM (SELECT sess, lag(sess) OVER (ORDER BY id) AS prev FROM $1) s
	        WHERE sess <> prev)"
}
res=$(psqlx $S -c "
	SELECT $(order_stats calls),
	       bool_and(snowflake_node(id, 'twitter') = 7),
	       bool_and(snowflake_time(id, 'twitter') >= date_trunc('milliseconds', t0)
	                AND snowflake_time(id, 'twitter') <= t1 + interval '5 ms')
	FROM calls")
IFS='|' read -r n ndistinct session_bad order_bad interleaved node_ok time_ok <<<"$res"
check "4 sessions: 400k twitter ids" 400000 "$n"
check "4 sessions: no duplicate" 400000 "$ndistinct"
check "4 sessions: each session strictly increasing" 0 "$session_bad"
check "4 sessions: sorted by value, ids follow completion order wherever it is known" 0 "$order_bad"
check_interleaved "4 sessions" "$interleaved"
check "4 sessions: every id on node 7" t "$node_ok"
check "4 sessions: every id on the clock's millisecond or at most 5 ms ahead" t "$time_ok"
check "4 sessions: the view counts every id of the state" 400001 \
	"$(psqlx $S -c "SELECT issued FROM ulid_generator_state WHERE layout = 'twitter' AND node = 7")"

# --- COSID_80: 4 sessions x 50k ids at once on the server's node -------------
# the same generator: unique, each session increasing, completion order kept
# (the text sorts like the id under COLLATE "C")
psqlx $S -c "CREATE UNLOGGED TABLE calls80 (sess int, g int, before bigint, id text COLLATE \"C\", after bigint)"
pids=()
for i in 1 2 3 4; do
	psqlx $S -c "INSERT INTO calls80 SELECT $i, g, nextval('clk'), cosid80_next(), nextval('clk')
		FROM generate_series(1, 50000) g" &
	pids+=($!)
done
wait "${pids[@]}"
res=$(psqlx $S -c "SELECT $(order_stats calls80), bool_and((cosid80_parts(id) ->> 'node')::int = 7) FROM calls80")
IFS='|' read -r n ndistinct session_bad order_bad interleaved node_ok <<<"$res"
check "COSID_80, 4 sessions: 200k ids, no duplicate" "200000 200000" "$n $ndistinct"
check "COSID_80, 4 sessions: each session strictly increasing" 0 "$session_bad"
check "COSID_80, 4 sessions: ids follow completion order wherever it is known" 0 "$order_bad"
check_interleaved "COSID_80, 4 sessions" "$interleaved"
check "COSID_80, 4 sessions: every id on node 7" t "$node_ok"
check "COSID_80, 4 sessions: the view's cosid80 state counts every id" 200000 \
	"$(psqlx $S -c "SELECT issued FROM ulid_generator_state WHERE kind = 'cosid80' AND node = 7")"
rate=$(psqlx $S -c "SELECT round(count(*) / (extract(epoch FROM max(t1) - min(t0)) * 1000)) FROM calls")
echo "# 4 sessions: $rate ids per ms together (twitter's cap: 4096)"
psqlx $S -c "DROP TABLE calls"

# --- a 2-bit sequence: 4 ids per ms -------------------------------------------
# 2000 ids need 500 ticks: the first ones borrow up to 5 ms ahead, then each
# call waits for the clock; never more than 4 ids on one tick.
counts() { psqlx $S -c "SELECT borrows, waits FROM ulid_generator_state WHERE node = 7 AND layout LIKE '$1'"; }
res=$(psqlx $S <<EOF
SELECT clock_timestamp() AS t0 \gset
CREATE TEMP TABLE tiny AS
SELECT g, snowflake_next('$TINY') AS id, clock_timestamp() AS t1 FROM generate_series(1, 2000) g;
SELECT count(*), count(DISTINCT id),
       (SELECT count(*) FROM (SELECT id, lag(id) OVER (ORDER BY g) AS prev FROM tiny) s WHERE id <= prev),
       (SELECT max(n) FROM (SELECT count(*) AS n FROM tiny GROUP BY snowflake_field(id, '$TINY', 'time')) s),
       bool_and(snowflake_time(id, '$TINY') <= t1 + interval '5 ms'),
       (extract(epoch FROM max(t1) - :'t0') * 1000)::int BETWEEN 480 AND 10000
FROM tiny;
EOF
)
IFS='|' read -r n ndistinct bad per_tick ahead elapsed <<<"$res"
check "2-bit sequence: 2000 ids, no duplicate, increasing" "2000|2000|0" "$n|$ndistinct|$bad"
check "2-bit sequence: at most 4 ids per tick" 4 "$per_tick"
check "2-bit sequence: never more than the 5 ms allowance ahead of the clock" t "$ahead"
check "2-bit sequence: the rate is capped (2000 ids took at least 480 ms)" t "$elapsed"
IFS='|' read -r borrows waits <<<"$(counts 'custom(time=41:ms:2020-01-01%')"
check "2-bit sequence: the view counts borrows and waits" "t|t" \
	"$([ "$borrows" -gt 0 ] && echo t)|$([ "$waits" -gt 400 ] && echo t)"

# two sessions on the exhausted state at once: both wait, no duplicate
psqlx $S -c "CREATE UNLOGGED TABLE tiny2 (sess int, g int, id bigint)"
pids=()
for i in 1 2; do
	psqlx $S -c "INSERT INTO tiny2 SELECT $i, g, snowflake_next('$TINY') FROM generate_series(1, 1000) g" &
	pids+=($!)
done
wait "${pids[@]}"
check "2-bit sequence, 2 sessions: 2000 ids, no duplicate, each session increasing, at most 4 per tick" \
	"2000|2000|0|4" "$(psqlx $S -c "
	SELECT count(*), count(DISTINCT id),
	       (SELECT count(*) FROM (SELECT id, lag(id) OVER (PARTITION BY sess ORDER BY g) AS prev FROM tiny2) s
	        WHERE id <= prev),
	       (SELECT max(n) FROM (SELECT count(*) AS n FROM tiny2 GROUP BY snowflake_field(id, '$TINY', 'time')) s)
	FROM tiny2")"

# --- a 1 s tick with a 2-bit sequence: 4 ids per second ------------------------
# 20 ids: ticks T and T+1 (borrowed: one tick is the allowance) at once, then
# each later tick when the clock enters the one before it: 2 to 3 s in all.
res=$(psqlx $S <<EOF
SELECT clock_timestamp() AS t0 \gset
CREATE TEMP TABLE tick_s AS
SELECT g, snowflake_next('$TINY_S') AS id FROM generate_series(1, 20) g;
SELECT count(DISTINCT id), count(DISTINCT snowflake_field(id, '$TINY_S', 'time')),
       (SELECT count(*) FROM (SELECT id, lag(id) OVER (ORDER BY g) AS prev FROM tick_s) s WHERE id <= prev),
       extract(epoch FROM clock_timestamp() - :'t0') BETWEEN 2.0 AND 3.5
FROM tick_s;
EOF
)
check "1 s ticks: 20 ids on 5 ticks, increasing, waiting for the next second (2 to 3 s)" "20|5|0|t" "$res"

# statement_timeout cancels a call waiting for the next second, cleanly
max_before=$(psqlx $S -c "SELECT snowflake_next('$TINY_S')")
out=$(psqlx $S -v VERBOSITY=verbose <<EOF 2>&1
SELECT clock_timestamp() AS t0 \gset
SET statement_timeout = '1500ms';
\set ON_ERROR_STOP 0
SELECT count(snowflake_next('$TINY_S')) FROM generate_series(1, 100);
RESET statement_timeout;
SELECT 'elapsed ' || (extract(epoch FROM clock_timestamp() - :'t0') < 3.0);
SELECT 'next ' || (snowflake_next('$TINY_S', 7) > $max_before);
EOF
)
case $out in
*"57014: canceling statement due to statement timeout"*) ok "1 s ticks: statement_timeout cancels the wait (57014)" ;;
*) not_ok "1 s ticks: statement_timeout cancels the wait (got: $out)" ;;
esac
check "1 s ticks: cancelled within the timeout, the session goes on, ids above" "elapsed true next true" \
	"$(echo "$out" | grep -E '^(elapsed|next) ' | tr '\n' ' ' | sed 's/ $//')"

# pg_cancel_backend while waiting; meanwhile the state view (which takes the
# state's spinlock) answers at once: nobody waits holding it
psqlx $S -c "SELECT count(snowflake_next('$TINY_S')) FROM generate_series(1, 100)" >"$ULID_WORK/sf_cancel.out" 2>&1 &
bg=$!
waiting() { [ "$(psqlx $S -c "SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'SELECT count(snowflake_next(%' AND pid <> pg_backend_pid()")" == 1 ]; }
wait_until 10 waiting
sleep 0.5
check "1 s ticks: the view answers at once while a call waits" t \
	"$(psqlx $S <<'EOF'
SELECT clock_timestamp() AS t0 \gset
SELECT count(*) FROM ulid_generator_state \g /dev/null
SELECT clock_timestamp() - :'t0' < interval '200 ms';
EOF
)"
psqlx $S -c "SELECT pg_cancel_backend(pid) FROM pg_stat_activity
	WHERE query LIKE 'SELECT count(snowflake_next(%' AND pid <> pg_backend_pid()" >/dev/null
start=$(date +%s%N)
wait $bg
check "1 s ticks: pg_cancel_backend ends the wait within 0.5 s" t \
	"$([ $(($(date +%s%N) - start)) -lt 500000000 ] && echo t)"
if grep -q "canceling statement due to user request" "$ULID_WORK/sf_cancel.out"; then
	ok "1 s ticks: the cancelled call reports 57014"
else
	not_ok "1 s ticks: the cancelled call reports 57014 (got: $(cat "$ULID_WORK/sf_cancel.out"))"
fi

pg_stop $S
