# Concurrency: pgbench with 1 and 2 clients, a custom script inserting one
# row per transaction, for every key type: TPS and mean latency.  Runs with
# synchronous_commit = off (otherwise it measures fsync).  Sourced by
# test/bench/run.sh.
if [ -n "${ULID_BENCH_QUICK:-}" ]; then
	: "${ULID_BENCH_PGBENCH_SECONDS:=2}"
else
	: "${ULID_BENCH_PGBENCH_SECONDS:=10}"
fi
report ""
report "## Concurrency: pgbench, one INSERT per transaction (${ULID_BENCH_PGBENCH_SECONDS} s per run, synchronous_commit off)"
report ""
report "| key | 1 client TPS | latency ms | 2 clients TPS | latency ms |"
report "|---|---:|---:|---:|---:|"
echo "key,clients,tps,latency_ms" >"$BENCH_OUT/pgbench.csv"

# pgbench_run SCRIPT_FILE CLIENTS: prints "tps latency_ms"
pgbench_run() {
	PGOPTIONS="-c synchronous_commit=off" "$PG_BIN/pgbench" -n -M prepared -c "$2" -j "$2" \
		-T "$ULID_BENCH_PGBENCH_SECONDS" -f "$1" -h "$ULID_WORK/sock" -p "$(pg_port bench)" \
		-U postgres postgres 2>&1 |
		awk '/^latency average/ { lat = $4 } /^tps = / { tps = $3 } END { printf "%.0f %.3f\n", tps, lat }'
}

for key in $(key_names); do
	echo "INSERT INTO k_$key (payload) VALUES (1);" >"$BENCH_OUT/pgbench_$key.sql"
	line="| $key |"
	for c in 1 2; do
		key_table "$key"
		bench_psql -q -c "CHECKPOINT" >/dev/null
		read -r tps lat < <(pgbench_run "$BENCH_OUT/pgbench_$key.sql" "$c")
		echo "$key,$c,$tps,$lat" >>"$BENCH_OUT/pgbench.csv"
		line+=" $tps | $lat |"
	done
	report "$line"
	bench_psql -q -c "DROP TABLE k_$key" >/dev/null
	rm -f "$BENCH_OUT/pgbench_$key.sql"
done
