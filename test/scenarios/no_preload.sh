#!/usr/bin/env bash
# Without shared_preload_libraries on a server without the DSM registry
# (PostgreSQL 15 and 16): everything that needs the shared generator state
# fails with 55000 and a hint naming the exact setting; the rest works, and
# following the hint fixes it.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

if [ "${PG_VERSION_NUM:-0}" -ge 17 ]; then
	skip "no_preload: PostgreSQL $PG_VERSION_NUM has the DSM registry; dsm_registry.sh tests that path"
	exit 0
fi

S=nopre
conf=$(pg_data $S)/postgresql.conf
if ! pg_new $S "shared_preload_libraries = ''" || ! pg_start $S; then
	not_ok "no preload: server starts"
	exit 1
fi
psqlx $S -c "CREATE EXTENSION ulid" -c "CREATE ROLE regress_plain LOGIN"

# verbose_error NAME SQL [ROLE]: the ERROR/DETAIL/HINT lines of SQL
verbose_error() {
	"$PG_BIN/psql" -X -q -At -v VERBOSITY=verbose -h "$ULID_WORK/sock" -p "$(pg_port "$1")" \
		-U "${3:-postgres}" -d postgres -c "$2" 2>&1 | grep -E '^(ERROR|DETAIL|HINT)'
}

expect_error() {
	local what=$1 sql=$2 role=${3:-postgres} hint=$4 out
	out=$(verbose_error $S "$sql" "$role")
	check "no preload: $what fails with 55000" \
		"ERROR:  55000: ulid shared generator state is not available" "$(echo "$out" | sed -n 1p)"
	check "no preload: $what says what is missing" \
		"DETAIL:  gen_monotonic_ulid() and snowflake_next() keep their state in shared memory. The ulid library was not loaded through shared_preload_libraries, and before PostgreSQL 17 shared memory cannot be added later." \
		"$(echo "$out" | sed -n 2p)"
	check "no preload: $what hints the exact setting" "HINT:  $hint" "$(echo "$out" | sed -n 3p)"
}

hint="Add ulid to shared_preload_libraries in postgresql.conf (it lists no library now: shared_preload_libraries = 'ulid'), then restart the server."
expect_error "gen_monotonic_ulid()" "SELECT gen_monotonic_ulid()" postgres "$hint"
expect_error "the state view" "SELECT * FROM ulid_generator_state" postgres "$hint"
expect_error "ulid_monotonic_advance()" "SELECT ulid_monotonic_advance('01HTQW311N1KR5G0Y75M3EF00H')" postgres "$hint"

# no node id either: the Snowflake and COSID_80 generators say both at once
# (one restart fixes both)
for call in "snowflake_next('twitter')" "cosid80_next()"; do
	out=$(verbose_error $S "SELECT $call")
	check "no preload: $call without a node id names the node id and the preload at once" \
		"ERROR:  55000: this server has no node id for $([ "$call" == "cosid80_next()" ] && echo COSID_80 || echo Snowflake) ids, and the ulid library is not preloaded
HINT:  In postgresql.conf set ulid.node_id to a node number no other server minting ids uses, and add ulid to shared_preload_libraries, keeping the libraries it lists; then restart the server." \
		"$(grep -E '^(ERROR|HINT)' <<<"$out")"
done

# the per-backend generators need no shared state
check "no preload: gen_ulid() works" t "$(psqlx $S -c "SELECT gen_ulid() < gen_ulid()")"
# the capacity setting is only defined while preloading (defining a
# PGC_POSTMASTER setting later would be FATAL); loading the library is fine
check "no preload: ulid.max_generator_states is not defined" "" \
	"$(psqlx $S -c "SELECT current_setting('ulid.max_generator_states', true)")"
check "no preload: LOAD 'ulid' in a new session works and defines the clock offset" 0 \
	"$(psqlx $S -c "LOAD 'ulid'" -c "SHOW ulid.clock_offset_ms")"

# another library already preloaded: the hint keeps it
sed -i "s/^shared_preload_libraries = ''$/shared_preload_libraries = 'pg_stat_statements'/" "$conf"
pg_stop $S && pg_start $S
expect_error "gen_monotonic_ulid() next to pg_stat_statements" "SELECT gen_monotonic_ulid()" postgres \
	"Add ulid to shared_preload_libraries in postgresql.conf, keeping the libraries it lists now: shared_preload_libraries = 'pg_stat_statements, ulid'; then restart the server."
# a role that may not read the setting is not shown it
expect_error "gen_monotonic_ulid() for a plain role" "SELECT gen_monotonic_ulid()" regress_plain \
	"Add ulid to shared_preload_libraries in postgresql.conf, keeping the libraries it lists (shared_preload_libraries = 'ulid' if it lists none), then restart the server."

# doing what the hint says fixes it
echo "shared_preload_libraries = 'pg_stat_statements, ulid'" >>"$conf"
pg_stop $S && pg_start $S
check "no preload: after following the hint, gen_monotonic_ulid() works" t \
	"$(psqlx $S -c "SELECT gen_monotonic_ulid() < gen_monotonic_ulid()")"

pg_stop $S
