# Generation cost: net ns per id over the loop floor, for every generator in
# one backend.  Sourced by test/bench/run.sh.
N=$ULID_BENCH_N
bench_psql -q -c "DROP SEQUENCE IF EXISTS bench_seq" -c "CREATE SEQUENCE bench_seq" >/dev/null

report ""
report "## Generators"
bench_queries "Generating $N ids" \
	floor "SELECT count(g) FROM generate_series(1, $N) g" \
	gen_ulid "SELECT count(gen_ulid()) FROM generate_series(1, $N) g" \
	gen_random_ulid "SELECT count(gen_random_ulid()) FROM generate_series(1, $N) g" \
	gen_monotonic_ulid "SELECT count(gen_monotonic_ulid()) FROM generate_series(1, $N) g" \
	gen_random_uuid "SELECT count(gen_random_uuid()) FROM generate_series(1, $N) g" \
	uuid_generate_v4 "SELECT count(uuid_generate_v4()) FROM generate_series(1, $N) g" \
	uuid_generate_v1mc "SELECT count(uuid_generate_v1mc()) FROM generate_series(1, $N) g" \
	nextval "SELECT count(nextval('bench_seq')) FROM generate_series(1, $N) g" \
	snowflake_twitter "SELECT count(snowflake_next('twitter')) FROM generate_series(1, $N) g"

report ""
report "| generator | net ns per id | vs gen_random_uuid() |"
report "|---|---:|---:|"
for g in gen_ulid gen_random_ulid gen_monotonic_ulid gen_random_uuid uuid_generate_v4 uuid_generate_v1mc nextval; do
	report "| $g | $(net_ns "$g" floor "$N") | $(ratio "$g" gen_random_uuid floor)x |"
	summary "ns_$g" "\`$g()\`, net ns per id" "$(net_ns "$g" floor "$N")"
done
summary ratio_gen_ulid_v4 "\`gen_ulid()\` / \`gen_random_uuid()\`, time" "$(ratio gen_ulid gen_random_uuid floor)x"
report "| snowflake_next('twitter') | $(net_ns snowflake_twitter floor "$N") | $(ratio snowflake_twitter gen_random_uuid floor)x (capped: 4,096 ids per ms per node, so at least 244 ns per id sustained) |"
report ""
report "The loop floor (\`SELECT count(g) FROM generate_series(1, $N) g\`) costs $(awk -v m="${MED[floor]}" -v n="$N" 'BEGIN { printf "%.1f", m * 1e6 / n }') ns per row and is subtracted."
