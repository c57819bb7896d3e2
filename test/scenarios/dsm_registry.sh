#!/usr/bin/env bash
# PostgreSQL 17+ without shared_preload_libraries: the shared generator state
# lives in a DSM-registry segment, created by the first backend that needs
# it.  The shared-state scenarios run again on servers that do not preload
# ulid (monotonic: sessions at once, the clock behind, the end of the range;
# floor_damage: a damaged floor file fails closed, per-state floors;
# state_capacity: quotas and reclaiming with the 32,768 states of the segment;
# restart: clean, immediate and kill -9 restarts with the clock set back),
# after a few checks of the path itself.  Their lines are prefixed with
# "no preload:".  On 15 and 16 there is no DSM registry: no_preload.sh checks
# the 55000 error there.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

if [ "${PG_VERSION_NUM:-0}" -lt 17 ]; then
	skip "dsm_registry: PostgreSQL $PG_VERSION_NUM has no DSM registry (17+); no_preload.sh tests this major without preload"
	exit 0
fi

S=dsm
if ! pg_new $S "shared_preload_libraries = ''" "ulid.node_ids = '1'" || ! pg_start $S; then
	not_ok "dsm registry: server starts"
	exit 1
fi
psqlx $S -c "CREATE EXTENSION ulid"
check "dsm registry: ulid is not preloaded" "" "$(psqlx $S -c "SHOW shared_preload_libraries")"
check "dsm registry: gen_monotonic_ulid() works" t \
	"$(psqlx $S -c "SELECT gen_monotonic_ulid() < gen_monotonic_ulid()")"

# one id per session, 20 sessions one after the other: each id is above the
# one the previous session got (one state, shared through the segment)
prev=00000000000000000000000000
rising=t
for _ in $(seq 20); do
	id=$(psqlx $S -c "SELECT gen_monotonic_ulid()")
	[ "$(psqlx $S -c "SELECT '$id'::ulid > '$prev'::ulid")" == t ] || rising=f
	prev=$id
done
check "dsm registry: ids rise from one session to the next" t "$rising"
check "dsm registry: the state view shows the one ulid state" 1 \
	"$(psqlx $S -c "SELECT count(*) FROM ulid_generator_state WHERE kind = 'ulid'")"

# Snowflake generators keep their state in the same segment
if [ "$(psqlx $S -c "SELECT to_regprocedure('snowflake_next(snowflake_layout,bigint)') IS NOT NULL")" == t ]; then
	pids=()
	psqlx $S -c "CREATE UNLOGGED TABLE sf (id bigint)"
	for i in 1 2 3 4; do
		psqlx $S -c "INSERT INTO sf SELECT snowflake_next('twitter', 1) FROM generate_series(1, 20000)" &
		pids+=($!)
	done
	wait "${pids[@]}"
	check "dsm registry: snowflake_next() from 4 sessions at once, no duplicate" "80000|80000" \
		"$(psqlx $S -c "SELECT count(*), count(DISTINCT id) FROM sf")"
else
	echo "# dsm_registry: no snowflake_next() in this build"
fi
pg_stop $S

# the shared-state scenarios, on servers that do not preload ulid; each in
# its own directory (they name their servers alike)
for s in monotonic restart floor_damage state_capacity; do
	sub=$ULID_WORK/no-preload-$s
	mkdir -p "$sub/sock" "$sub/log"
	chown postgres: "$sub/sock" "$sub/log" 2>/dev/null || true
	ULID_WORK=$sub ULID_PRELOAD='' ULID_NEXT_PORT=$((ULID_NEXT_PORT + 10)) bash "$here/$s.sh" |
		sed -u -E 's/^(ok|not ok) - /\1 - no preload: /'
	rc=${PIPESTATUS[0]}
	[ "$rc" -eq 0 ] || not_ok "no preload: scenario $s exited with status $rc"
done
