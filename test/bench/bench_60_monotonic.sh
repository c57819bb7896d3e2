# gen_monotonic_ulid() against gen_ulid() (issue 3's targets): cost per id in
# one session, total throughput of 2 concurrent sessions drawing many ids per
# transaction, and the primary key a bulk insert builds.  Sourced by
# test/bench/run.sh after bench_10_generators.sh.
N=$ULID_BENCH_N
if [ -n "${ULID_BENCH_QUICK:-}" ]; then
	: "${ULID_BENCH_PGBENCH_SECONDS:=2}"
else
	: "${ULID_BENCH_PGBENCH_SECONDS:=10}"
fi
report ""
report "## gen_monotonic_ulid() vs gen_ulid()"

# 2 pgbench clients, each transaction drawing 1000 ids; ids per second
ids_per_s() { # GENERATOR
	echo "SELECT count($1) FROM generate_series(1, 1000);" >"$BENCH_OUT/draw.sql"
	"$PG_BIN/pgbench" -n -M prepared -c 2 -j 2 -T "$ULID_BENCH_PGBENCH_SECONDS" -f "$BENCH_OUT/draw.sql" \
		-h "$ULID_WORK/sock" -p "$(pg_port bench)" -U postgres postgres 2>&1 |
		awk '/^tps = / { printf "%.0f\n", $3 * 1000 }'
}
rounds=$(( ULID_BENCH_REPS < 3 ? ULID_BENCH_REPS : 3 ))
: >"$BENCH_OUT/draw_ulid" ; : >"$BENCH_OUT/draw_mono"
for r in $(seq 1 "$rounds"); do
	ids_per_s "gen_ulid()" >>"$BENCH_OUT/draw_ulid"
	ids_per_s "gen_monotonic_ulid()" >>"$BENCH_OUT/draw_mono"
done
rm -f "$BENCH_OUT/draw.sql"
med() { sort -n "$1" | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
draw_ulid=$(med "$BENCH_OUT/draw_ulid")
draw_mono=$(med "$BENCH_OUT/draw_mono")

# bulk insert with the generator as primary-key default
pkey_bytes() { # NAME TYPE DEFAULT
	bench_psql -q -c "DROP TABLE IF EXISTS mono_$1" \
		-c "CREATE TABLE mono_$1 (id $2 PRIMARY KEY DEFAULT $3, payload int)" \
		-c "INSERT INTO mono_$1 (payload) SELECT 1 FROM generate_series(1, $N)" >/dev/null
	bench_psql -c "SELECT pg_relation_size('mono_$1_pkey')" | tail -1
	bench_psql -q -c "DROP TABLE mono_$1" >/dev/null
}
idx_mono=$(pkey_bytes mono ulid "gen_monotonic_ulid()")
idx_uuid=$(pkey_bytes uuid uuid "gen_random_uuid()")

report ""
report "| measure | value | target |"
report "|---|---:|---|"
target "gen_monotonic_ulid() / gen_ulid(), net ns per id in one session ($(net_ns gen_monotonic_ulid floor "$N") vs $(net_ns gen_ulid floor "$N"))" \
	"$(ratio gen_monotonic_ulid gen_ulid floor)" 2
target "2 sessions, ids/s: gen_monotonic_ulid() / gen_ulid() ($draw_mono vs $draw_ulid)" \
	"$(awk -v a="$draw_mono" -v b="$draw_ulid" 'BEGIN { printf "%.3f", a / b }')" -0.8
target "pkey after INSERT of $N rows: gen_monotonic_ulid() / gen_random_uuid() ($idx_mono vs $idx_uuid bytes)" \
	"$(awk -v a="$idx_mono" -v b="$idx_uuid" 'BEGIN { printf "%.3f", a / b }')" 0.85
