# WAL written per million ids (issue 22): gen_monotonic_ulid() and
# snowflake_next() log their floors (one record per state per reservation
# window, plus the commit record of the transaction that took a transaction
# id for it), nextval() logs every 32 values.  Each generator draws N ids in
# N/1000 autocommit statements of 1000 ids (one psql session), in the same
# run; the WAL between the insert positions before and after is read with
# pg_walinspect (pg_get_wal_records_info), by resource manager.  Records of other
# processes in that interval (a checkpoint, the bgwriter's running-xacts
# record) are counted too, so a figure is an upper bound.  Sourced by
# test/bench/run.sh.
N=$ULID_BENCH_N
report ""
report "## WAL per million ids"
bench_psql -q -c "CREATE EXTENSION IF NOT EXISTS pg_walinspect" -c "DROP SEQUENCE IF EXISTS wal_seq" \
	-c "CREATE SEQUENCE wal_seq" >/dev/null

declare -A WAL_REC WAL_BYTES WAL_RMGRS
# wal_of NAME EXPR: N ids of EXPR in autocommit statements of 1000
wal_of() {
	local name=$1 expr=$2 start end i script=$BENCH_OUT/wal_$1.sql
	: >"$script"
	for ((i = 0; i < N / 1000; i++)); do
		echo "SELECT count($expr) FROM generate_series(1, 1000);" >>"$script"
	done
	start=$(bench_psql -c "SELECT pg_current_wal_insert_lsn()" | tail -1)
	bench_psql -q -f "$script" >/dev/null
	end=$(bench_psql -c "SELECT pg_current_wal_insert_lsn()" | tail -1)
	rm -f "$script"
	IFS='|' read -r WAL_REC[$name] WAL_BYTES[$name] < <(bench_psql -c "SELECT count(*), sum(record_length)
		FROM pg_get_wal_records_info('$start', '$end')" | tail -1)
	WAL_RMGRS[$name]=$(bench_psql -c "SELECT string_agg(rm || ' ' || n, ', ' ORDER BY n DESC, rm)
		FROM (SELECT resource_manager AS rm, count(*) AS n FROM pg_get_wal_records_info('$start', '$end') GROUP BY 1) r" | tail -1)
}
wal_of nextval "nextval('wal_seq')"
wal_of gen_monotonic_ulid "gen_monotonic_ulid()"
wal_of snowflake_next "snowflake_next('twitter')"
wal_of cosid80_next "cosid80_next()"

per_m() { awk -v v="$1" -v n="$N" 'BEGIN { printf "%.0f", v * 1000000 / n }'; }
report ""
report "$N ids per generator, in statements of 1000 ids (autocommit), one session:"
report ""
report "| generator | WAL records per million ids | WAL bytes per million ids | records by resource manager |"
report "|---|---:|---:|---|"
for name in nextval gen_monotonic_ulid snowflake_next cosid80_next; do
	report "| $name() | $(per_m "${WAL_REC[$name]}") | $(per_m "${WAL_BYTES[$name]}") | ${WAL_RMGRS[$name]} |"
done
report ""
report "| measure | value | target |"
report "|---|---:|---|"
for name in gen_monotonic_ulid snowflake_next cosid80_next; do
	target "$name() / nextval() WAL records (${WAL_REC[$name]} vs ${WAL_REC[nextval]})" \
		"$(awk -v a="${WAL_REC[$name]}" -v b="${WAL_REC[nextval]}" 'BEGIN { printf "%.4f", a / b }')" 0.01
done
