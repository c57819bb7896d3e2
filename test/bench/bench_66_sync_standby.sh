# Inserts with a synchronous standby (issue 31): a streaming standby of the
# benchmark server on this machine, named in synchronous_standby_names, and
# pgbench with 4 clients inserting one row per transaction (synchronous
# commit on: each commit waits for the standby), for bigserial and the
# generators that move a floor (each move now waits for the standby before
# it takes effect: one round trip about twice a second, whatever the number
# of ids), and read-only statements minting 1,000 ids each (no commit to
# wait for: only the floor moves wait).  Rows per second; the ratios are
# against bigserial in the same run.  The standby is removed afterwards.
# Sourced by test/bench/run.sh.
if [ -n "${ULID_BENCH_QUICK:-}" ]; then SYNC_SECONDS=2; else SYNC_SECONDS=10; fi
report ""
report "## With a synchronous standby: pgbench, 4 clients, ${SYNC_SECONDS} s per run"
pg_new_standby bench_sync bench || exit 1
echo "cluster_name = 'bench_sync'" >>"$(pg_data bench_sync)/postgresql.conf"
pg_start bench_sync || exit 1
bench_psql -q -c "ALTER SYSTEM SET synchronous_standby_names = 'bench_sync'" -c "SELECT pg_reload_conf()" >/dev/null
sync_on() { [ "$(bench_psql -c "SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'sync'" | tail -1)" == 1 ]; }
wait_until 30 sync_on || {
	echo "bench: the standby did not become synchronous" >&2
	exit 1
}
# sync_run NAME SQL: rows per second of 4 clients running SQL
sync_run() {
	echo "$2" >"$BENCH_OUT/sync_$1.sql"
	"$PG_BIN/pgbench" -n -M prepared -c 4 -j 2 -T "$SYNC_SECONDS" -f "$BENCH_OUT/sync_$1.sql" \
		-h "$ULID_WORK/sock" -p "$(pg_port bench)" -U postgres postgres 2>&1 |
		awk -v rows="$3" '/^tps = / { printf "%.0f\n", $3 * rows }'
	rm -f "$BENCH_OUT/sync_$1.sql"
}
bench_psql -q -c "CREATE TABLE sync_big (id bigserial PRIMARY KEY, n int)" \
	-c "CREATE TABLE sync_sf (id bigint PRIMARY KEY DEFAULT snowflake_next('twitter'), n int)" \
	-c "CREATE TABLE sync_m (id ulid PRIMARY KEY DEFAULT gen_monotonic_ulid(), n int)" >/dev/null
declare -A SYNC
SYNC[bigserial]=$(sync_run big "INSERT INTO sync_big (n) VALUES (1);" 1)
SYNC[snowflake_next]=$(sync_run sf "INSERT INTO sync_sf (n) VALUES (1);" 1)
SYNC[gen_monotonic_ulid]=$(sync_run m "INSERT INTO sync_m (n) VALUES (1);" 1)
SYNC[ro_snowflake_next]=$(sync_run rosf "SELECT count(snowflake_next('twitter')) FROM generate_series(1, 1000);" 1000)
SYNC[ro_nextval]=$(sync_run ronv "SELECT count(nextval('sync_big_id_seq')) FROM generate_series(1, 1000);" 1000)
bench_psql -q -c "ALTER SYSTEM RESET synchronous_standby_names" -c "SELECT pg_reload_conf()" \
	-c "DROP TABLE sync_big, sync_sf, sync_m" >/dev/null
pg_stop bench_sync immediate
report ""
report "| key | rows/s | / bigserial (or nextval) |"
report "|---|---:|---:|"
for k in bigserial snowflake_next gen_monotonic_ulid; do
	report "| INSERT, $k | ${SYNC[$k]} | $(awk -v a="${SYNC[$k]}" -v b="${SYNC[bigserial]}" 'BEGIN { printf "%.2f", a / b }') |"
	summary "sync_$k" "rows/s with a sync standby, INSERT, $k" "${SYNC[$k]}"
done
for k in ro_snowflake_next ro_nextval; do
	report "| read-only SELECT, ${k#ro_}() | ${SYNC[$k]} | $(awk -v a="${SYNC[$k]}" -v b="${SYNC[ro_nextval]}" 'BEGIN { printf "%.2f", a / b }') |"
	summary "sync_$k" "ids/s with a sync standby, read-only SELECT, ${k#ro_}()" "${SYNC[$k]}"
done
