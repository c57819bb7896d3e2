#!/usr/bin/env bash
# gen_monotonic_ulid() with several sessions at once and with the clock
# behind (through the ulid.clock_offset_ms test hook), and at the end of
# the ULID range.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

S=mono
if ! pg_new $S || ! pg_start $S; then
	not_ok "monotonic: server starts"
	exit 1
fi
psqlx $S -c "CREATE EXTENSION ulid"

# offset_is VALUE: new sessions see ulid.clock_offset_ms = VALUE (after a
# reload; LOAD defines the setting where ulid is not preloaded)
offset_is() { [ "$(psqlx $S -c "LOAD 'ulid'" -c "SHOW ulid.clock_offset_ms")" == "$1" ]; }

# --- 4 sessions x 100k ids at once -------------------------------------------
# Each call is bracketed by two values of one sequence (before, after): when
# after(x) < before(y), call x completed before call y started, so x's id
# must be smaller.  Sorted by id descending, the smallest "after" among the
# larger ids must exceed each row's "before".
psqlx $S -c "CREATE SEQUENCE clk" \
	-c "CREATE UNLOGGED TABLE calls (gen text, sess int, g int, before bigint, id ulid, after bigint)"
run_sessions() {
	local gen=$1 n=$2 i pids=()
	for i in 1 2 3 4; do
		psqlx $S -c "INSERT INTO calls SELECT '$gen', $i, g, nextval('clk'), $gen(), nextval('clk')
			FROM generate_series(1, $n) g" &
		pids+=($!)
	done
	wait "${pids[@]}"
}
run_sessions gen_monotonic_ulid 100000
order_check() {
	psqlx $S -c "
	SELECT count(*), count(DISTINCT id),
	       (SELECT count(*) FROM (SELECT id, lag(id) OVER (PARTITION BY sess ORDER BY g) AS prev
	                              FROM calls WHERE gen = '$1') s WHERE id <= prev),
	       (SELECT count(*) FROM (SELECT before, min(after) OVER (ORDER BY id DESC
	                                  ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS later_after
	                              FROM calls WHERE gen = '$1') s WHERE later_after < before),
	       (SELECT count(*) FROM (SELECT sess, lag(sess) OVER (ORDER BY id) AS prev
	                              FROM calls WHERE gen = '$1') s WHERE sess <> prev)
	FROM calls WHERE gen = '$1'"
}
IFS='|' read -r n ndistinct session_bad order_bad interleaved <<<"$(order_check gen_monotonic_ulid)"
check "monotonic: 4 sessions x 100k ids" 400000 "$n"
check "monotonic: no duplicate" 400000 "$ndistinct"
check "monotonic: each session strictly increasing" 0 "$session_bad"
check "monotonic: sorted by value, ids follow completion order wherever it is known" 0 "$order_bad"
check_interleaved "monotonic" "$interleaved"
# gen_ulid() is increasing per session (across sessions it follows the
# clock to 1/4096 ms since 1.3, which the order check need not catch); the
# same check finds gen_random_ulid()'s disorder within a millisecond: it can
# fail
run_sessions gen_ulid 20000
IFS='|' read -r _ _ session_bad _ _ <<<"$(order_check gen_ulid)"
check "monotonic: gen_ulid() is increasing per session" 0 "$session_bad"
run_sessions gen_random_ulid 20000
IFS='|' read -r _ _ _ order_bad _ <<<"$(order_check gen_random_ulid)"
if [ "$order_bad" -gt 0 ]; then
	ok "monotonic: the order check catches gen_random_ulid()'s disorder ($order_bad rows)"
else
	not_ok "monotonic: the order check catches gen_random_ulid()'s disorder"
fi
psqlx $S -c "DROP TABLE calls" -c "DROP SEQUENCE clk"

# --- the clock 5 s behind ----------------------------------------------------
# The last id before starts a fresh millisecond (top random bit clear), so at
# least 2^15 random steps fit in it: 25,000 ids stay on its time.
last=$(psqlx $S -c "SELECT gen_monotonic_ulid() FROM pg_sleep(0.01)")
borrows0=$(psqlx $S -c "SELECT borrows FROM ulid_generator_state WHERE kind = 'ulid'")
psqlx $S -c "ALTER SYSTEM SET ulid.clock_offset_ms = -5000" -c "SELECT pg_reload_conf()" >/dev/null
check_cmd "clock behind: the offset reaches new sessions" wait_until 10 offset_is -5000
res=$(psqlx $S <<EOF
CREATE TEMP TABLE b (n serial, id ulid);
INSERT INTO b (id) SELECT gen_monotonic_ulid() FROM generate_series(1, 10000);
SELECT pg_sleep(1) \g /dev/null
INSERT INTO b (id) SELECT gen_monotonic_ulid() FROM generate_series(1, 10000);
SELECT pg_sleep(1) \g /dev/null
INSERT INTO b (id) SELECT gen_monotonic_ulid() FROM generate_series(1, 5000);
SELECT count(*), count(DISTINCT id), count(*) FILTER (WHERE id <= prev),
       min(id) > '$last', count(*) FILTER (WHERE ulid_unix_ms(id) <> ulid_unix_ms('$last'))
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM b) s;
EOF
)
IFS='|' read -r n ndistinct bad above moved <<<"$res"
check "clock behind: 25000 ids over 2 s" 25000 "$n"
check "clock behind: no duplicate" 25000 "$ndistinct"
check "clock behind: ids keep rising" 0 "$bad"
check "clock behind: above the last id before the step" t "$above"
check "clock behind: time part frozen at the last issued time" 0 "$moved"
check "clock behind: the view counts them as borrows" 25000 \
	"$(psqlx $S -c "SELECT borrows - $borrows0 FROM ulid_generator_state WHERE kind = 'ulid'")"
check "clock behind: gen_ulid() reads the same shifted clock" t \
	"$(psqlx $S -c "SELECT ulid_unix_ms(gen_ulid()) - (extract(epoch FROM clock_timestamp()) * 1000)::bigint BETWEEN -5500 AND -4900")"

# a forward offset is rejected (it would be persisted into the floor)
out=$(psqlx $S -v VERBOSITY=verbose -c "LOAD 'ulid'" -c "ALTER SYSTEM SET ulid.clock_offset_ms = 5" 2>&1)
case $out in
*22023*"is outside the valid range for parameter \"ulid.clock_offset_ms\""*) ok "clock offset: a forward offset is rejected" ;;
*) not_ok "clock offset: a forward offset is rejected (got: $out)" ;;
esac

# back to the real clock: ids follow it again, above everything before
high=$(psqlx $S -c "SELECT gen_monotonic_ulid()")
psqlx $S -c "ALTER SYSTEM RESET ulid.clock_offset_ms" -c "SELECT pg_reload_conf()" >/dev/null
check_cmd "clock restored: the reset reaches new sessions" wait_until 10 offset_is 0
check "clock restored: the next id is above and on the current time" t \
	"$(psqlx $S -c "SELECT u > '$high' AND ulid_time(u) BETWEEN now() - interval '1 s' AND clock_timestamp()
		FROM (SELECT gen_monotonic_ulid() AS u) s")"

# --- the end of the ULID range: 22008, counted as a failure --------------------
psqlx $S -c "SELECT ulid_monotonic_advance('7ZZZZZZZZZZZZZZZZZZZZZZZZZ')" >/dev/null
out=$(psqlx $S -v VERBOSITY=verbose -c "SELECT gen_monotonic_ulid()" 2>&1)
case $out in
*"22008: gen_monotonic_ulid() has no ULID left above its advanced state"*"ulid_monotonic_reset()"*) ok "exhausted: 22008 after the last ULID, naming the advance that put it there" ;;
*) not_ok "exhausted: 22008 after the last ULID (got: $out)" ;;
esac
check "exhausted: the view counts the failure" 1 \
	"$(psqlx $S -c "SELECT failures FROM ulid_generator_state WHERE kind = 'ulid'")"

pg_stop $S
