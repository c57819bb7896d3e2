#!/usr/bin/env bash
# `make installcheck` (PGXS) against servers a user runs, as test/README.md
# documents it: PGHOST/PGPORT name the server, the extension is installed in
# it.  A server with ulid.node_id = 2 (the README's second server), twice:
# every file passes (a file that needs a setting the server lacks matches
# its expected/x_1.out, which says so), and afterwards no generator state has
# a floor of its own, the restart floor is near the clock, and nodes 2, 3, 8
# and 9 mint on the clock (the suite used to leave them 20 minutes ahead).
# Then a server that does not preload ulid: on 15 and 16 the files that need
# the shared state report a skip; on 17+ they run on the DSM registry.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

# a copy of the sources (make installcheck writes results/ where it runs)
src=$ULID_WORK/installcheck-src
mkdir -p "$src"
cp -a "$ULID_ROOT/Makefile" "$ULID_ROOT/ulid.control" "$ULID_ROOT/sql" "$ULID_ROOT/expected" "$ULID_ROOT/src" "$src/"

# installcheck NAME LABEL: make installcheck against server NAME; one ok per
# run, the files that reported a skip as a comment
installcheck() {
	local name=$1 label=$2 log=$ULID_WORK/installcheck-$1-$2.log skipped
	rm -rf "$src/results" "$src/regression.diffs" "$src/regression.out"
	# the server runs the private install; pg_regress and psql are the
	# server's own major's (pg_config's bindir)
	PGHOST=$ULID_WORK/sock PGPORT=$(pg_port "$name") PGUSER=postgres \
		timeout 300 make -C "$src" -s PG_CONFIG="$PG_CONFIG" installcheck >"$log" 2>&1
	local rc=$?
	skipped=$(grep -l '^skipped: ' "$src"/results/*.out 2>/dev/null | xargs -r -n1 basename | sed 's/\.out$//' | tr '\n' ' ')
	echo "# installcheck $label: files that reported a skip: ${skipped:-none}"
	if [ $rc -eq 0 ]; then
		ok "installcheck $label: make installcheck passes"
	else
		not_ok "installcheck $label: make installcheck passes (status $rc)"
		grep -E 'FAILED|failed' "$log" | sed 's/^/# /'
		[ -f "$src/regression.diffs" ] && head -80 "$src/regression.diffs" | sed 's/^/# /'
	fi
	SKIPPED=$skipped
}

# --- a preloaded server with ulid.node_id = 2 ---------------------------------
S=ic_node2
if ! pg_new $S "ulid.node_id = 2" "ulid.node_ids = '0-65535'" || ! pg_start $S; then
	not_ok "installcheck: server with ulid.node_id = 2 starts"
	exit 1
fi
installcheck $S "node 2"
check "installcheck node 2: only settings.sql and snowflake_nodes.sql (defaults, no node id) report a skip" "settings snowflake_nodes " "$SKIPPED"
installcheck $S "node 2, run again"
# (the checks in the database pg_regress leaves, which has the extension)
export ULID_DB=contrib_regression

after=$(psqlx $S -c "SELECT count(*) FILTER (WHERE state_floor IS NOT NULL),
	bool_and(persisted_floor < clock_timestamp() + interval '1 minute'),
	bool_and(last_time < clock_timestamp() + interval '1 minute')
	FROM ulid_generator_state")
check "installcheck node 2: afterwards no state has a floor of its own, floors and last ids near the clock" "0|t|t" "$after"
# the server's own node and its neighbours mint on the clock, on the layouts
# the suite used to leave advanced
near=$(psqlx $S -c "SELECT string_agg(format('%s/%s:%s', l, n,
		abs(extract(epoch FROM snowflake_time(snowflake_next(l::snowflake_layout, n), l::snowflake_layout) - clock_timestamp())) < 1), ' ' ORDER BY l, n)
	FROM unnest(ARRAY['twitter', 'sonyflake(epoch=2014-09-01T00:00:00.000Z)']) l, unnest(ARRAY[2, 3, 8, 9]) n")
check "installcheck node 2: twitter and sonyflake nodes 2, 3, 8 and 9 mint on the clock" \
	"sonyflake(epoch=2014-09-01T00:00:00.000Z)/2:t sonyflake(epoch=2014-09-01T00:00:00.000Z)/3:t sonyflake(epoch=2014-09-01T00:00:00.000Z)/8:t sonyflake(epoch=2014-09-01T00:00:00.000Z)/9:t twitter/2:t twitter/3:t twitter/8:t twitter/9:t" "$near"
check "installcheck node 2: snowflake_next('twitter') (node 2), scru64 node 250, cosid80_next() and gen_monotonic_ulid() on the clock" "t|t|t|t" \
	"$(psqlx $S -c "SELECT abs(extract(epoch FROM snowflake_time(snowflake_next('twitter'), 'twitter') - clock_timestamp())) < 1,
		abs(extract(epoch FROM snowflake_time(snowflake_next('scru64(node_bits=8)', 250), 'scru64(node_bits=8)') - clock_timestamp())) < 1,
		abs(extract(epoch FROM cosid80_time(cosid80_next()) - clock_timestamp())) < 1,
		abs(extract(epoch FROM ulid_time(gen_monotonic_ulid()) - clock_timestamp())) < 1")"
pg_stop $S
unset ULID_DB

# --- a server that does not preload ulid ------------------------------------
S=ic_nopreload
if ! ULID_PRELOAD='' pg_new $S "ulid.node_ids = '0-65535'" || ! pg_start $S; then
	not_ok "installcheck: server without preload starts"
	exit 1
fi
installcheck $S "no preload"
if [ "${PG_VERSION_NUM:-0}" -ge 17 ]; then
	expect="settings "
else
	expect="cosid80 monotonic settings snowflake_next snowflake_nodes snowflake_partitioning snowflake_variables zz_advance_from_tables "
fi
check "installcheck no preload: the files that need what this server lacks report a skip" "$expect" "$SKIPPED"
pg_stop $S
