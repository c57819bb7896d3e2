# The ulid type against uuid: text I/O, sorting, bulk insert, and the ratio
# table with issue 2's targets (generation comes from bench_10_generators.sh).
# Sourced by test/bench/run.sh.
N=$ULID_BENCH_N

report ""
report "## The ulid type vs uuid"

# --- text I/O ------------------------------------------------------------------
bench_psql -q -c "DROP TABLE IF EXISTS io_t" -c "CREATE TABLE io_t AS
	SELECT u, u::uuid AS v, u::text AS ut, u::uuid::text AS vt
	FROM (SELECT gen_random_ulid() AS u FROM generate_series(1, $N)) s" -c "VACUUM ANALYZE io_t" >/dev/null
bench_queries "Text output of $N values" \
	out_floor_ulid "SELECT count(u) FROM io_t" \
	out_ulid "SELECT count(u::text) FROM io_t" \
	out_floor_uuid "SELECT count(v) FROM io_t" \
	out_uuid "SELECT count(v::text) FROM io_t"
# Text output paired by round (issue 34): the output functions called
# directly (ulid_out(u), uuid_out(v): the function and its call) and the
# casts to text (which add textin, alike for both), each net of the plain
# column's count in the same round.  Per measure the median (min-max) of the
# rounds' ratios, and the ratio of the best rounds (the least disturbed by
# other load), in wall and in the backend's CPU ms.
bench_psql -F ' ' -c "SELECT name, round, ms, coalesce(cpu_ms, 0) FROM bench_rounds(
	ARRAY['fu', 'fn_u', 'cast_u', 'fv', 'fn_v', 'cast_v'], ARRAY['SELECT count(u) FROM io_t',
	'SELECT count(ulid_out(u)) FROM io_t', 'SELECT count(u::text) FROM io_t', 'SELECT count(v) FROM io_t',
	'SELECT count(uuid_out(v)) FROM io_t', 'SELECT count(v::text) FROM io_t'], ARRAY['', '', '', '', '', ''],
	$ULID_BENCH_REPS)" >"$BENCH_OUT/out_rounds.txt"
out_paired() { # MEASURE (fn, cast) COLUMN (3 wall, 4 CPU): "median (min-max); best"
	awk -v m="$1" -v c="$2" '{ x[$2, $1] = $c; r[$2] = 1
			if (!($1 in best) || $c < best[$1]) best[$1] = $c }
		END { for (k in r) if (x[k, m "_v"] > x[k, "fv"]) a[++n] = (x[k, m "_u"] - x[k, "fu"]) / (x[k, m "_v"] - x[k, "fv"])
			for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
			d = best[m "_v"] - best["fv"]
			# the rule of net_ns (lib.sh): a ratio of nets within the plain
			# count spread over the rounds is noise, not a figure
			for (k in r) { if (lo == "" || x[k, "fu"] < lo) lo = x[k, "fu"]; if (x[k, "fu"] > hi) hi = x[k, "fu"] }
			if (best[m "_u"] - best["fu"] <= hi - lo) { print "n/a (net within the spread of the plain count)"; exit }
			if (n && d > 0) printf "%.3f (%.3f-%.3f); %.3f\n", (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2, a[1], a[n],
				(best[m "_u"] - best["fu"]) / d
			else print "n/a (n/a); n/a" }' "$BENCH_OUT/out_rounds.txt"
}
report ""
report "#### Text output paired by round ($ULID_BENCH_REPS rounds of $N values): ulid / uuid, net of the column's count"
report ""
report "| measure | wall: median of the rounds' ratios (min-max); best rounds | CPU: the same |"
report "|---|---:|---:|"
for m in "fn|the output function: \`ulid_out(u)\` / \`uuid_out(v)\`" "cast|the cast: \`u::text\` / \`v::text\`"; do
	MED[out_${m%%|*}_wall]=$(out_paired "${m%%|*}" 3)
	MED[out_${m%%|*}_cpu]=$(out_paired "${m%%|*}" 4)
	report "| ${m#*|} | ${MED[out_${m%%|*}_wall]} | ${MED[out_${m%%|*}_cpu]} |"
done
bench_queries "Text input of $N values" \
	in_floor_ulid "SELECT count(ut) FROM io_t" \
	in_ulid "SELECT count(ut::ulid) FROM io_t" \
	in_floor_uuid "SELECT count(vt) FROM io_t" \
	in_uuid "SELECT count(vt::uuid) FROM io_t"

# --- sorting shuffled values ---------------------------------------------------
bench_psql -q -c "DROP TABLE IF EXISTS sort_t" -c "CREATE TABLE sort_t AS
	SELECT u, u::uuid AS v FROM io_t ORDER BY random()" -c "VACUUM ANALYZE sort_t" >/dev/null
bench_queries "Sorting $N shuffled values" \
	sort_ulid "SELECT count(*) FROM (SELECT u FROM sort_t ORDER BY u) s" \
	sort_uuid "SELECT count(*) FROM (SELECT v FROM sort_t ORDER BY v) s"
bench_psql -q -c "DROP TABLE io_t" -c "DROP TABLE sort_t" >/dev/null

# --- bulk insert with the generator as primary-key default ---------------------
# fresh table and CHECKPOINT before every round (ins_round in lib.sh);
# rounds alternate the two
rm -f "$BENCH_OUT"/ins_*.ms
for r in $(seq 1 "$(( ULID_BENCH_REPS < 5 ? ULID_BENCH_REPS : 5 ))"); do
	if [ $((r % 2)) -eq 1 ]; then
		ins_round uuid uuid "gen_random_uuid()"
		ins_round ulid ulid "gen_ulid()"
	else
		ins_round ulid ulid "gen_ulid()"
		ins_round uuid uuid "gen_random_uuid()"
	fi
done
MED[ins_ulid]=$(median_file "$BENCH_OUT/ins_ulid.ms")
MED[ins_uuid]=$(median_file "$BENCH_OUT/ins_uuid.ms")
idx_ulid=$(cat "$BENCH_OUT/ins_ulid.idx")
idx_uuid=$(cat "$BENCH_OUT/ins_uuid.idx")
bench_psql -q -c "DROP TABLE ins_ulid" -c "DROP TABLE ins_uuid" >/dev/null
report ""
report "#### INSERT $N rows, primary key from the generator (median ms; pkey size)"
report ""
report "| key | median ms | primary key index |"
report "|---|---:|---:|"
report "| ulid DEFAULT gen_ulid() | ${MED[ins_ulid]} | $((idx_ulid / 1048576)) MiB |"
report "| uuid DEFAULT gen_random_uuid() | ${MED[ins_uuid]} | $((idx_uuid / 1048576)) MiB |"

report ""
report "#### Ratios against uuid (same server, same run)"
report ""
report "| measure | ulid / uuid | target |"
report "|---|---:|---|"
# generation was measured by bench_10_generators.sh in this run
target "gen_ulid() net ns/id ($(net_ns gen_ulid floor "$N") vs $(net_ns gen_random_uuid floor "$N"))" \
	"$(ratio gen_ulid gen_random_uuid floor)" 0.1
target "gen_random_ulid() net ns/id ($(net_ns gen_random_ulid floor "$N"))" \
	"$(ratio gen_random_ulid gen_random_uuid floor)" 0.1
summary ns_out_ulid "text output: \`ulid_out\`, net ns per value" "$(net_ns out_ulid out_floor_ulid "$N")"
summary ns_out_uuid "text output: core \`uuid_out\`, net ns per value" "$(net_ns out_uuid out_floor_uuid "$N")"
summary ratio_out "text output, \`ulid_out\` / \`uuid_out\`, time" "$(ratio_nets out_ulid out_floor_ulid out_uuid out_floor_uuid)x"
summary ratio_out_fn "\`ulid_out\` / \`uuid_out\` called directly, wall: median of paired rounds (range); best rounds" "${MED[out_fn_wall]}"
summary ns_in_ulid "text input: \`ulid_in\`, net ns per value" "$(net_ns in_ulid in_floor_ulid "$N")"
summary ns_in_uuid "text input: core \`uuid_in\`, net ns per value" "$(net_ns in_uuid in_floor_uuid "$N")"
summary ratio_in "text input, \`ulid_in\` / \`uuid_in\`, time" "$(ratio_nets in_ulid in_floor_ulid in_uuid in_floor_uuid)x"
summary ratio_sort "sort $N shuffled random values, ulid / uuid" "$(ratio sort_ulid sort_uuid)x"
summary ratio_insert_v4 "INSERT $N rows, \`DEFAULT gen_ulid()\` / \`DEFAULT gen_random_uuid()\`" "$(ratio ins_ulid ins_uuid)x"
target "text output, net ns/value ($(net_ns out_ulid out_floor_ulid "$N") vs $(net_ns out_uuid out_floor_uuid "$N"))" \
	"$(ratio_nets out_ulid out_floor_ulid out_uuid out_floor_uuid)" 0.5
target "\`ulid_out\` / \`uuid_out\`, wall, median of paired rounds" "${MED[out_fn_wall]%% *}" 0.6
target "\`ulid_out\` / \`uuid_out\`, wall, best rounds" "${MED[out_fn_wall]##*; }" 0.6
target "text input, net ns/value ($(net_ns in_ulid in_floor_ulid "$N") vs $(net_ns in_uuid in_floor_uuid "$N"))" \
	"$(ratio_nets in_ulid in_floor_ulid in_uuid in_floor_uuid)" 0.25
target "sort $N shuffled values (${MED[sort_ulid]} vs ${MED[sort_uuid]} ms)" "$(ratio sort_ulid sort_uuid)" 1.0
target "INSERT $N rows (${MED[ins_ulid]} vs ${MED[ins_uuid]} ms)" "$(ratio ins_ulid ins_uuid)" 0.6
target "primary key size ($idx_ulid vs $idx_uuid bytes)" \
	"$(awk -v a="$idx_ulid" -v b="$idx_uuid" 'BEGIN { printf "%.3f", a / b }')" 0.85
