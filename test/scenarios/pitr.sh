#!/usr/bin/env bash
# Point-in-time recovery restores the generators' floors with the data
# (issue 22): a primary (node 7) archives its WAL; after a base backup,
# gen_monotonic_ulid(), snowflake_next('twitter') and cosid80_next() mint
# for about 2 s, a target time is taken, they mint 3 s more.  The base
# backup is recovered to the target time with its clock 30 s behind
# (ulid.clock_offset_ms) and promoted; it then mints 20,000 ids of each kind
# with no step: every new id lies above every id it restored (those
# committed before the target), though the floor file it started from is
# the base backup's.  Ids the original issued after the target are issued
# again, as with sequences: a layout of 4 ids a millisecond (table r, so
# that the original's ids cover every tick it minted on, as the recovered
# server's do) repeats them; after ulid_floor_repair() above the time the
# original ran to, every generator issues above all of them (the README's
# cure).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

P=pitr_p
R=pitr_r
ARCH=$ULID_WORK/pitr_archive
slow="custom(time=41:ms:1288834974657, fields=host:10, sequence=2)"
mkdir -p "$ARCH"
chown postgres: "$ARCH" 2>/dev/null || true
if ! pg_new $P "ulid.node_id = 7" "archive_mode = on" "archive_command = 'cp %p $ARCH/%f'" || ! pg_start $P; then
	not_ok "pitr: primary starts"
	exit 1
fi
psqlx $P -c "CREATE EXTENSION ulid" \
	-c "CREATE TABLE m (id ulid PRIMARY KEY DEFAULT gen_monotonic_ulid(), n int)" \
	-c "CREATE TABLE s (id bigint PRIMARY KEY DEFAULT snowflake_next('twitter'), n int)" \
	-c "CREATE TABLE c (id text COLLATE \"C\" PRIMARY KEY DEFAULT cosid80_next(), n int)" \
	-c "CREATE TABLE r (id bigint PRIMARY KEY DEFAULT snowflake_next('$slow'), n int)"

# the base backup (no -R: restored from the archive, not streamed)
pg_new_basebackup $R $P || { not_ok "pitr: base backup"; exit 1; }

# mint SECONDS: batches of 500 rows into each table for about SECONDS
mint() {
	local end=$((SECONDS + $1))
	while [ $SECONDS -lt "$end" ]; do
		psqlx $P -c "INSERT INTO m (n) SELECT g FROM generate_series(1, 500) g" \
			-c "INSERT INTO s (n) SELECT g FROM generate_series(1, 500) g" \
			-c "INSERT INTO c (n) SELECT g FROM generate_series(1, 500) g" \
			-c "INSERT INTO r (n) SELECT g FROM generate_series(1, 100) g"
	done
}
mint 2
sleep 0.3
target=$(psqlx $P -c "SELECT clock_timestamp()")
sleep 0.3
mint 3 # past the floor the recovery replays (at most 1 s above the target)
counts_all=$(psqlx $P -c "SELECT (SELECT count(*) FROM m), (SELECT count(*) FROM s), (SELECT count(*) FROM c)")
# everything the original issued, and the time it ran to
psqlx $P -c "COPY (SELECT 'm', id::text FROM m UNION ALL SELECT 's', id::text FROM s
	UNION ALL SELECT 'c', id FROM c UNION ALL SELECT 'r', id::text FROM r) TO STDOUT" >"$ULID_WORK/pitr_issued"
ran_to=$(psqlx $P -c "SELECT clock_timestamp()")
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

psqlx $R -c "CREATE TABLE issued (g text, id text COLLATE \"C\")" -c "COPY issued FROM STDIN" <"$ULID_WORK/pitr_issued"
# new ids of generator g: N of them into new_g (the ids before them move
# to old_g)
mint_new() {
	psqlx $R -c "SET client_min_messages = warning" -c "ALTER TABLE IF EXISTS new_$1 RENAME TO old_$1" \
		-c "CREATE TABLE new_$1 AS SELECT $2 AS id FROM generate_series(1, $3)"
}
# the new ids: count, distinct, all above the restored ones, equal to ids
# the original issued, above every id the original issued
judge() {
	local cmp="" coll=""
	case $1 in m) cmp='::ulid' ;; s | r) cmp='::bigint' ;; c) coll=' COLLATE "C"' ;; esac
	psqlx $R -c "SELECT count(*), count(DISTINCT id), min(id$coll) > (SELECT max(id) FROM $1),
		(SELECT count(*) FROM issued i WHERE i.g = '$1' AND i.id$cmp IN (SELECT id FROM new_$1)),
		min(id$coll) > (SELECT max(id$cmp) FROM issued WHERE g = '$1')
		FROM new_$1" 2>&1
}
declare -A calls=([m]="gen_monotonic_ulid()" [s]="snowflake_next('twitter')" [c]="cosid80_next()" [r]="snowflake_next('$slow')")
for g in m s c r; do
	call=${calls[$g]}
	mint_new $g "$call" 20000
	out=$(judge $g)
	check "pitr: 20,000 $call at once, with no step and the clock 30 s behind: all above every restored id" \
		"20000|20000|t" "$(cut -d'|' -f1-3 <<<"$out")"
	echo "# pitr: $(cut -d'|' -f4 <<<"$out") of the new $call ids equal ids the original issued after the target"
	[ $g = r ] && check "pitr: ids the original issued after the target are issued again (4 ids a millisecond)" \
		t "$([ "$(cut -d'|' -f4 <<<"$out")" -gt 0 ] && echo t || echo "f ($out)")"
done
# the cure: every generator above the time the original ran to
psqlx $R -c "SELECT ulid_floor_repair('$ran_to'::timestamptz + interval '1 s')" >/dev/null 2>&1
for g in m s c r; do
	call=${calls[$g]}
	mint_new $g "$call" 2000
	check "pitr: after ulid_floor_repair() above the time the original ran to, $call issues above every id the original issued" \
		"2000|2000|t|0|t" "$(judge $g)"
done
pg_stop $R
