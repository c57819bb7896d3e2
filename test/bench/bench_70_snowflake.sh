# snowflake_next() (issue 4's targets): per-call cost on a layout whose
# sequence is not the limit against nextval() on a plain sequence, and
# twitter's sustained throughput against its cap (4,096 ids per ms per node)
# for one and two sessions.  The bench server has ulid.node_id = 1.
# Sourced by test/bench/run.sh.
N=$ULID_BENCH_N
WIDE="custom(time=41:ms:2019-12-24T16:00:00.000Z, sequence=22)"
bench_psql -q -c "DROP SEQUENCE IF EXISTS sf_seq" -c "CREATE SEQUENCE sf_seq" >/dev/null

report ""
report "## snowflake_next()"
# FROM (SELECT generate_series(...)): the series streams, so the generator
# is called from the first row on (generate_series in FROM is materialized
# first, which would make the cap-bound twitter run look slower than it is)
bench_queries "Per-call cost, $N calls" \
	sf_floor "SELECT count(g) FROM (SELECT generate_series(1, $N) AS g) s" \
	sf_nextval "SELECT count(nextval('sf_seq')) FROM (SELECT generate_series(1, $N) AS g) s" \
	sf_wide "SELECT count(snowflake_next('$WIDE', 0)) FROM (SELECT generate_series(1, $N) AS g) s" \
	sf_twitter "SELECT count(snowflake_next('twitter')) FROM (SELECT generate_series(1, $N) AS g) s"
twitter_rate=$(awk -v ms="${MED[sf_twitter]}" -v n="$N" 'BEGIN { printf "%.0f", n / ms }')

# two sessions on the same (layout, node): total ids per ms over the run
echo "SELECT count(snowflake_next('twitter')) FROM (SELECT generate_series(1, 10000)) s;" >"$BENCH_OUT/sf.sql"
two_rate=$("$PG_BIN/pgbench" -n -M prepared -c 2 -j 2 -T "${ULID_BENCH_PGBENCH_SECONDS:-5}" -f "$BENCH_OUT/sf.sql" \
	-h "$ULID_WORK/sock" -p "$(pg_port bench)" -U postgres postgres 2>&1 |
	awk '/^tps = / { printf "%.0f", $3 * 10000 / 1000 }')
rm -f "$BENCH_OUT/sf.sql"

report ""
report "| measure | value | target |"
report "|---|---:|---|"
target "snowflake_next('$WIDE', 0) / nextval(), net ns per call ($(net_ns sf_wide sf_floor "$N") vs $(net_ns sf_nextval sf_floor "$N"))" \
	"$(ratio sf_wide sf_nextval sf_floor)" 0.3
summary ratio_sf_wide_nextval "\`snowflake_next(wide layout)\` / \`nextval()\`, time" "$(ratio sf_wide sf_nextval sf_floor)x"
summary ns_sf_nextval "\`nextval()\`, net ns per call (snowflake section)" "$(net_ns sf_nextval sf_floor "$N")"
target "twitter, one session: $twitter_rate ids/ms of the 4,096 cap" \
	"$(awk -v r="$twitter_rate" 'BEGIN { printf "%.3f", r / 4096 }')" -0.9
target "twitter, two sessions on one node: $two_rate ids/ms together of the 4,096 cap" \
	"$(awk -v r="$two_rate" 'BEGIN { printf "%.3f", r / 4096 }')" -0.9
