#!/usr/bin/env bash
# Point-in-time recovery restores the generators' floors with the data
# (issue 22): a primary (node 7) archives its WAL; after a base backup,
# gen_monotonic_ulid(), snowflake_next('twitter') and cosid80_next() mint
# for about 2 s, a target time is taken, they mint 2 s more.  The base
# backup is recovered to the target time with its clock 30 s behind
# (ulid.clock_offset_ms) and promoted; it then mints 20,000 ids of each kind
# with no step: every new id lies above every id it restored (those
# committed before the target), though the floor file it started from is
# the base backup's.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

P=pitr_p
R=pitr_r
ARCH=$ULID_WORK/pitr_archive
mkdir -p "$ARCH"
chown postgres: "$ARCH" 2>/dev/null || true
if ! pg_new $P "ulid.node_id = 7" "archive_mode = on" "archive_command = 'cp %p $ARCH/%f'" || ! pg_start $P; then
	not_ok "pitr: primary starts"
	exit 1
fi
psqlx $P -c "CREATE EXTENSION ulid" \
	-c "CREATE TABLE m (id ulid PRIMARY KEY DEFAULT gen_monotonic_ulid(), n int)" \
	-c "CREATE TABLE s (id bigint PRIMARY KEY DEFAULT snowflake_next('twitter'), n int)" \
	-c "CREATE TABLE c (id text COLLATE \"C\" PRIMARY KEY DEFAULT cosid80_next(), n int)"

# the base backup (no -R: restored from the archive, not streamed)
pg_new_basebackup $R $P || { not_ok "pitr: base backup"; exit 1; }

# mint SECONDS: batches of 500 rows into each table for about SECONDS
mint() {
	local end=$((SECONDS + $1))
	while [ $SECONDS -lt "$end" ]; do
		psqlx $P -c "INSERT INTO m (n) SELECT g FROM generate_series(1, 500) g" \
			-c "INSERT INTO s (n) SELECT g FROM generate_series(1, 500) g" \
			-c "INSERT INTO c (n) SELECT g FROM generate_series(1, 500) g"
	done
}
mint 2
sleep 0.3
target=$(psqlx $P -c "SELECT clock_timestamp()")
sleep 0.3
mint 2
counts_all=$(psqlx $P -c "SELECT (SELECT count(*) FROM m), (SELECT count(*) FROM s), (SELECT count(*) FROM c)")
psqlx $P -c "SELECT pg_switch_wal()" >/dev/null
pg_stop $P # archives what is left

# recovery to the target time, the clock 30 s behind, then promotion
{
	echo "restore_command = 'cp $ARCH/%f %p'"
	echo "recovery_target_time = '$target'"
	echo "recovery_target_action = 'promote'"
	echo "archive_mode = off"
	echo "ulid.clock_offset_ms = -30000"
} >>"$(pg_data $R)/postgresql.conf"
touch "$(pg_data $R)/recovery.signal"
chown postgres: "$(pg_data $R)/recovery.signal" 2>/dev/null || true
pg_start $R || { not_ok "pitr: the recovered server starts"; exit 1; }
promoted() { [ "$(psqlx $R -c "SELECT pg_is_in_recovery()" 2>/dev/null)" == f ]; }
check_cmd "pitr: recovered to the target time and promoted" wait_until 60 promoted
counts=$(psqlx $R -c "SELECT (SELECT count(*) FROM m), (SELECT count(*) FROM s), (SELECT count(*) FROM c)")
IFS='|' read -r cm cs cc <<<"$counts"
IFS='|' read -r am as ac <<<"$counts_all"
check "pitr: the recovered tables hold the rows up to the target, in the middle of the stream ($counts of $counts_all)" t \
	"$([ "$cm" -gt 0 ] && [ "$cm" -lt "$am" ] && [ "$cs" -gt 0 ] && [ "$cs" -lt "$as" ] && [ "$cc" -gt 0 ] && [ "$cc" -lt "$ac" ] && echo t || echo f)"

for g in m s c; do
	case $g in
	m) call="gen_monotonic_ulid()" coll="" ;;
	s) call="snowflake_next('twitter')" coll="" ;;
	c) call="cosid80_next()" coll=' COLLATE "C"' ;;
	esac
	check "pitr: 20,000 $call at once, with no step and the clock 30 s behind: all above every restored id" \
		"20000|20000|t" "$(psqlx $R -c "SELECT count(*), count(DISTINCT id), min(id$coll) > (SELECT max(id) FROM $g)
			FROM (SELECT $call AS id FROM generate_series(1, 20000)) n" 2>&1)"
done
pg_stop $R
