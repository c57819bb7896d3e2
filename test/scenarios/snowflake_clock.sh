#!/usr/bin/env bash
# snowflake_next() when the clock steps back (through the ulid.clock_offset_ms
# test hook): each branch of the clock policy (fail, wait, borrow), restarts
# (clean and immediate) with the clock behind (ids issued from the floor,
# tick after tick, never failing), and snowflake_advance() after restoring
# ids minted ahead of this server's clock, also across a restart.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

S=sfclock
if ! pg_new $S "ulid.node_id = 7" || ! pg_start $S; then
	not_ok "snowflake clock: server starts"
	exit 1
fi
psqlx $S -c "CREATE EXTENSION ulid"
floor_file=$(pg_data $S)/ulid_floor

# offset_is VALUE: new sessions see ulid.clock_offset_ms = VALUE (after a reload)
offset_is() { [ "$(psqlx $S -c "SHOW ulid.clock_offset_ms" 2>/dev/null)" == "$1" ]; }
set_offset() {
	psqlx $S -c "ALTER SYSTEM SET ulid.clock_offset_ms = $1" -c "SELECT pg_reload_conf()" >/dev/null
	wait_until 10 offset_is "$1" || not_ok "the clock offset $1 reaches new sessions"
}
# counts: borrows|waits|failures of the twitter state of node 7
counts() { psqlx $S -c "SELECT borrows, waits, failures FROM ulid_generator_state WHERE layout = 'twitter' AND node = 7"; }
# delta BEFORE AFTER: the difference of two counts lines
delta() {
	local b w f b2 w2 f2
	IFS='|' read -r b w f <<<"$1"
	IFS='|' read -r b2 w2 f2 <<<"$2"
	echo "$((b2 - b))|$((w2 - w))|$((f2 - f))"
}
accepts() { psqlx $S -c "SELECT 1" >/dev/null 2>&1; }

# --- fail: the clock 3 s behind the last id, beyond ulid.clock_wait_ms (1 s) ---
a=$(psqlx $S -c "SELECT snowflake_next('twitter')")
a_ms=$(psqlx $S -c "SELECT snowflake_unix_ms($a, 'twitter')")
set_offset -3000
c0=$(counts)
out=$(psqlx $S -v VERBOSITY=verbose -c "SELECT snowflake_next('twitter')" 2>&1)
if [[ $out =~ 55000:\ the\ clock\ \(([0-9T:.-]+Z)\)\ is\ ([0-9]+)\ ms\ behind\ the\ last\ Snowflake\ id\'s\ time\ \(([0-9T:.-]+Z)\) ]]; then
	ok "fail: 55000 giving both times"
	check "fail: the times are the shifted clock and the last id's" t \
		"$(psqlx $S -c "SELECT '${BASH_REMATCH[3]}'::timestamptz = snowflake_time($a, 'twitter')
			AND snowflake_time($a, 'twitter') - '${BASH_REMATCH[1]}'::timestamptz BETWEEN interval '2 s' AND interval '3 s'
			AND ${BASH_REMATCH[2]} BETWEEN 2000 AND 3000")"
else
	not_ok "fail: 55000 giving both times (got: $out)"
fi
check "fail: counted as a failure" "0|0|1" "$(delta "$c0" "$(counts)")"

# --- wait: the same, with ulid.clock_wait_ms = 5 s -------------------------------
# the call waits until the shifted clock is within the 5 ms allowance of the
# last tick, i.e. until about 2995 ms after that tick on the real clock, then
# issues on that tick (the id after the last), up to the allowance ahead of
# the clock: also a borrow.  A waiter the scheduler wakes more than 5 ms late
# (a loaded machine) finds the clock on or past that tick: no borrow then, and
# past it a new tick; it still issues just above the last id.
c0=$(counts)
res=$(psqlx $S <<EOF
SET ulid.clock_wait_ms = 5000;
SELECT snowflake_next('twitter') AS b \gset
SELECT :b - $a BETWEEN 1 AND 50::bigint << 22,
       (extract(epoch FROM clock_timestamp()) * 1000)::bigint - $a_ms BETWEEN 2990 AND 3400, :b - $a;
EOF
)
IFS='|' read -r w_near w_time w_step <<<"$res"
check "wait: then issues just above the last id (within 50 ms of its tick), after about 3 s" "t|t" "$w_near|$w_time"
IFS='|' read -r w_b w_w w_f <<<"$(delta "$c0" "$(counts)")"
check "wait: counted as a wait, no failure" "1|0" "$w_w|$w_f"
check "wait: a borrow only on the last tick (the id after the last)" t \
	"$([ "$w_b" -eq 0 ] || { [ "$w_b" -eq 1 ] && [ "$w_step" = 1 ]; } && echo t || echo "f (borrows $w_b, step $w_step)")"

# --- borrow: the clock 10 s behind, within ulid.clock_borrow_ms = 30 s ------------
set_offset -10000
c0=$(counts)
res=$(psqlx $S <<EOF
SET ulid.clock_borrow_ms = 30000;
SELECT clock_timestamp() AS t0 \gset
CREATE TEMP TABLE b AS SELECT g, snowflake_next('twitter') AS id FROM generate_series(1, 10000) g;
SELECT count(DISTINCT id), count(*) FILTER (WHERE id <= prev), min(id) > $a + 1,
       min(snowflake_unix_ms(id, 'twitter')) >= $a_ms,
       clock_timestamp() - :'t0' < interval '1 s'
FROM (SELECT id, lag(id) OVER (ORDER BY g) AS prev FROM b) s;
EOF
)
check "borrow: 10000 ids at once, increasing, above the last, on its time and after (not the clock's)" \
	"10000|0|t|t|t" "$res"
check "borrow: counted as borrows, no wait" "10000|0|0" "$(delta "$c0" "$(counts)")"

# --- restarts with the clock 10 s behind ------------------------------------------
round() {
	local kind=$1 max floor first
	max=$(psqlx $S -c "SET ulid.clock_borrow_ms = 30000" -c "SELECT max(id) FROM (SELECT snowflake_next('twitter') AS id FROM generate_series(1, 1000)) s")
	floor=$(sed -n 2p "$floor_file")
	case $kind in
	clean) pg_stop $S fast && pg_start $S ;;
	immediate) pg_stop $S immediate && pg_start $S ;;
	esac || not_ok "$kind: the server comes back"
	wait_until 30 accepts
	first=$(psqlx $S -c "SELECT snowflake_next('twitter')")
	check "$kind restart: the clock is still 10 s behind" -10000 "$(psqlx $S -c "SHOW ulid.clock_offset_ms")"
	check "$kind restart: the persisted floor lay above the last id's tick" t \
		"$(psqlx $S -c "SELECT $floor > snowflake_unix_ms($max, 'twitter')")"
	check "$kind restart: the first id after is above the max before" t \
		"$(psqlx $S -c "SELECT $first > $max")"
	check "$kind restart: it is issued at once on the persisted floor" "$floor" \
		"$(psqlx $S -c "SELECT snowflake_unix_ms($first, 'twitter')")"
	check "$kind restart: ids go on rising with the default policy" "1000|t" \
		"$(psqlx $S -c "SELECT count(DISTINCT id), min(id) > $first
			FROM (SELECT snowflake_next('twitter') AS id FROM generate_series(1, 1000)) s")"
	# one rule for a floor ahead of the clock: past the floor's tick and the
	# allowance after it (6 x 4096 ids), ids go on tick after tick ahead of
	# the clock, 10 s behind, with no failure (the policy is for real steps)
	check "$kind restart: past the floor's ticks, ids go on tick after tick ahead of the clock" "30000|30000|t" \
		"$(psqlx $S -c "SELECT count(*), count(DISTINCT id), min(id) > $first
			FROM (SELECT snowflake_next('twitter') AS id FROM generate_series(1, 30000)) s" 2>&1)"

}
round clean
round immediate

# --- snowflake_advance() after restoring ids ---------------------------------------
# ids of node 7 restored from a server whose clock ran 500 ms ahead: after
# the advance the next id is above them (issued at once: one rule for a
# floor ahead of the clock), also after a restart.
set_offset 0
psqlx $S -c "CREATE TABLE restored AS
	SELECT snowflake_pack('twitter', clock_timestamp() + interval '500 ms', 7, g) AS id
	FROM generate_series(0, 999) g"
max=$(psqlx $S -c "SELECT max(id) FROM restored")
psqlx $S -c "SELECT snowflake_advance('twitter', 7, max(id)) FROM restored" >/dev/null
res=$(psqlx $S <<EOF
SELECT clock_timestamp() AS t0 \gset
SELECT snowflake_next('twitter') AS n \gset
SELECT :n > $max, clock_timestamp() - :'t0' < interval '600 ms',
       (SELECT count(*) FROM restored WHERE id >= :n);
EOF
)
check "advance: the next id is above every restored id" "t|t|0" "$res"
pg_stop $S immediate && pg_start $S
wait_until 30 accepts
check "advance: after an immediate stop, still above" t \
	"$(psqlx $S -c "SELECT snowflake_next('twitter') > $max")"

# --- COSID_80: the same policy (fail, wait, borrow) on its own state ------------------
c80() { psqlx $S -c "SELECT borrows, waits, failures FROM ulid_generator_state WHERE kind = 'cosid80' AND node = 7"; }
set_offset 0
# a new state starts on the restart floor while that lies ahead: first let
# the clock pass it, so that the policy, not the floor, is what is checked
floor_ms=$(sed -n 2p "$floor_file")
past_floor() { [ "$(date +%s%3N)" -gt $((floor_ms + 100)) ]; }
check_cmd "COSID_80: the clock passes the restart floor" wait_until 5 past_floor
a80=$(psqlx $S -c "SELECT cosid80_next()")
set_offset -3000
c0=$(c80)
out=$(psqlx $S -v VERBOSITY=verbose -c "SELECT cosid80_next()" 2>&1)
case $out in
*"55000: the clock"*"ms behind the last COSID_80 id's time"*"Layout COSID_80, node 7"*) ok "COSID_80 fail: 55000 giving both times" ;;
*) not_ok "COSID_80 fail: 55000 giving both times (got: $out)" ;;
esac
check "COSID_80 fail: counted as a failure" "0|0|1" "$(delta "$c0" "$(c80)")"
c0=$(c80)
check "COSID_80 wait (ulid.clock_wait_ms = 5 s): then issues above the last id" t \
	"$(psqlx $S -c "SET ulid.clock_wait_ms = 5000" -c "SELECT cosid80_next() > '$a80' COLLATE \"C\"")"
IFS='|' read -r w_b w_w w_f <<<"$(delta "$c0" "$(c80)")"
# (a borrow too, unless the waiter woke late: see the twitter wait above)
check "COSID_80 wait: counted as a wait, no failure, at most one borrow" "1|0|t" \
	"$w_w|$w_f|$([ "$w_b" -le 1 ] && echo t || echo "f ($w_b borrows)")"
set_offset -10000
check "COSID_80 borrow (ulid.clock_borrow_ms = 30 s): 1000 increasing ids at once, 10 s ahead of the clock" "1000|0|t" \
	"$(psqlx $S <<EOF
SET ulid.clock_borrow_ms = 30000;
SELECT clock_timestamp() AS t0 \gset
CREATE TEMP TABLE b80 AS SELECT g, cosid80_next() COLLATE "C" AS id FROM generate_series(1, 1000) g;
SELECT count(DISTINCT id), count(*) FILTER (WHERE id <= prev), clock_timestamp() - :'t0' < interval '1 s'
FROM (SELECT id, lag(id) OVER (ORDER BY g) AS prev FROM b80) s;
EOF
)"
set_offset 0

pg_stop $S
