#!/usr/bin/env bash
# Restart safety of the shared generator state: after a clean restart, an
# immediate-mode stop and the kill -9 of a backend (the postmaster then
# re-creates shared memory), each with the clock set 10 s back, the first
# gen_monotonic_ulid() value is above every value issued before, and is
# issued at once on the persisted floor; so is the first cosid80_next() id
# (the Snowflake generator's states); a burst of snowflake_next() right after
# an immediate restart never fails.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

S=restart
if ! pg_new $S "ulid.node_ids = '5,9'" || ! pg_start $S; then
	not_ok "restart: server starts"
	exit 1
fi
psqlx $S -c "CREATE EXTENSION ulid"
floor_file=$(pg_data $S)/ulid_floor

# offset_is VALUE: new sessions see ulid.clock_offset_ms = VALUE (after a reload)
offset_is() { [ "$(psqlx $S -c "SHOW ulid.clock_offset_ms" 2>/dev/null)" == "$1" ]; }
# accepts: the server accepts connections (again, after a crash)
accepts() { psqlx $S -c "SELECT 1" >/dev/null 2>&1; }
# sleeper_started: sets pid to the backend running SELECT pg_sleep(60)
sleeper_started() {
	pid=$(psqlx $S -c "SELECT pid FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(60)'")
	[ -n "$pid" ]
}

# kill_backend: kill -9 one backend; the postmaster resets shared memory
kill_backend() {
	local bg pid
	psqlx $S -c "SELECT pg_sleep(60)" >/dev/null 2>&1 &
	bg=$!
	wait_until 10 sleeper_started || return 1
	kill -9 "$pid"
	wait "$bg"
	sleep 0.5
	wait_until 30 accepts
}

# round KIND: ids on the real clock, then the clock 10 s back (ids frozen on
# the last time), then KIND; then the first id is checked
round() {
	local kind=$1 max floor first
	psqlx $S -c "ALTER SYSTEM SET ulid.clock_offset_ms = 0" -c "SELECT pg_reload_conf()" >/dev/null
	wait_until 10 offset_is 0 || not_ok "$kind: the clock offset is reset"
	psqlx $S -c "SELECT count(gen_monotonic_ulid()) FROM generate_series(1, 5000)" >/dev/null
	max80=$(psqlx $S -c "SELECT max(c COLLATE \"C\") FROM (SELECT cosid80_next(5) AS c FROM generate_series(1, 5000)) s")
	psqlx $S -c "ALTER SYSTEM SET ulid.clock_offset_ms = -10000" -c "SELECT pg_reload_conf()" >/dev/null
	wait_until 10 offset_is -10000 || not_ok "$kind: the clock offset is set"
	max=$(psqlx $S -c "SELECT max(u) FROM (SELECT gen_monotonic_ulid() AS u FROM generate_series(1, 1000)) s")
	floor=$(sed -n 2p "$floor_file")

	case $kind in
	clean) pg_stop $S fast && pg_start $S ;;
	immediate) pg_stop $S immediate && pg_start $S ;;
	kill9) kill_backend ;;
	esac || not_ok "$kind: the server comes back"

	first=$(psqlx $S -c "SELECT gen_monotonic_ulid()")
	check "$kind: the first COSID_80 id after, with the clock 10 s behind, is above the max before" t \
		"$(psqlx $S -c "SELECT cosid80_next(5) > '$max80' COLLATE \"C\"" 2>&1)"
	check "$kind: the persisted floor lay above the last id" t \
		"$(psqlx $S -c "SELECT $floor > ulid_unix_ms('$max')")"
	check "$kind: the clock is 10 s behind the last id" t \
		"$(psqlx $S -c "SELECT ulid_unix_ms('$max') - (extract(epoch FROM clock_timestamp()) * 1000)::bigint + 10000 > 0
			AND current_setting('ulid.clock_offset_ms') = '-10000'")"
	check "$kind: the first id after is above the max before" t \
		"$(psqlx $S -c "SELECT '$first'::ulid > '$max'::ulid")"
	check "$kind: it is issued at once on the persisted floor" "$floor" \
		"$(psqlx $S -c "SELECT ulid_unix_ms('$first')")"
	check "$kind: ids go on rising" t \
		"$(psqlx $S -c "SELECT min(u) > '$first' FROM (SELECT gen_monotonic_ulid() AS u FROM generate_series(1, 1000)) s")"
}

round clean
round immediate
round kill9
if grep -q "terminated by signal 9: Killed" "$ULID_WORK/log/$S.log" &&
	grep -q "all server processes terminated; reinitializing" "$ULID_WORK/log/$S.log"; then
	ok "kill9: the postmaster re-created shared memory"
else
	not_ok "kill9: the postmaster re-created shared memory"
fi

# an advance survives a crash: its target goes to the floor first
target=$(psqlx $S -c "SELECT ulid_from_parts(ulid_unix_ms(gen_monotonic_ulid()) + 600000, '\\xffffffffffffffffffff')")
psqlx $S -c "SELECT ulid_monotonic_advance('$target')" >/dev/null
pg_stop $S immediate && pg_start $S
check "advance: holds after an immediate stop" t \
	"$(psqlx $S -c "SELECT gen_monotonic_ulid() > '$target'")"

# so does a COSID_80 advance (the state's own floor), 600 s ahead of the
# clock: after the restart the next id is issued on it at once
target80=$(psqlx $S -c "SELECT cosid80_from_friendly(to_char(clock_timestamp() AT TIME ZONE 'UTC' + interval '600 s', 'YYYYMMDDHH24MISSMS') || '-0000009-00005')")
psqlx $S -c "SELECT cosid80_advance(9, '$target80')" >/dev/null
pg_stop $S immediate && pg_start $S
check "cosid80 advance: holds after an immediate stop" t \
	"$(psqlx $S -c "SELECT cosid80_next(9) > '$target80' COLLATE \"C\"" 2>&1)"

# a restart never makes a call fail (one rule for floors ahead of the
# clock): right after an immediate restart the Snowflake state starts on the
# persisted floor, up to a second ahead of the clock (11 s with the clock
# 10 s back), and a burst of 50,000 snowflake_next('discord') (13 ticks of
# 4,096) issues tick after tick from it without waiting or failing
psqlx $S -c "ALTER SYSTEM SET ulid.node_id = 3" -c "SELECT pg_reload_conf()" >/dev/null
for off in 0 -10000; do
	psqlx $S -c "ALTER SYSTEM SET ulid.clock_offset_ms = 0" -c "SELECT pg_reload_conf()" >/dev/null
	wait_until 10 offset_is 0 || not_ok "burst: the clock offset is 0"
	before=$(psqlx $S -c "SELECT max(id) FROM (SELECT snowflake_next('discord') AS id FROM generate_series(1, 5000)) s")
	psqlx $S -c "ALTER SYSTEM SET ulid.clock_offset_ms = $off" >/dev/null
	pg_stop $S immediate
	logpos=$(wc -l <"$ULID_WORK/log/$S.log")	# the log of this run starts after it
	pg_start $S || not_ok "burst: the server comes back"
	check "burst (clock offset $off ms): 50,000 snowflake_next('discord') right after an immediate restart, all distinct and above the ids before" \
		"50000|t" "$(psqlx $S -c "SELECT count(DISTINCT id), min(id) > $before
			FROM (SELECT snowflake_next('discord') AS id FROM generate_series(1, 50000)) s" 2>&1)"
	check "burst (clock offset $off ms): no failure; the ids ahead of the clock are counted as borrows" "0|t" \
		"$(psqlx $S -c "SELECT failures, borrows > 0 FROM ulid_generator_state WHERE layout = 'discord' AND node = 3")"
done
check "burst: the log says once that the state issues ahead of the clock from a floor (clock 10 s behind)" 1 \
	"$(tail -n +$((logpos + 1)) "$ULID_WORK/log/$S.log" | grep -c "snowflake_next() for layout discord, node 3, issues [0-9]* ms ahead of the clock from a floor")"
psqlx $S -c "ALTER SYSTEM RESET ulid.clock_offset_ms" -c "ALTER SYSTEM RESET ulid.node_id" -c "SELECT pg_reload_conf()" >/dev/null

# a damaged floor file fails closed: floor_damage.sh

pg_stop $S
