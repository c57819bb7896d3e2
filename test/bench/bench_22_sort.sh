# Sorting and index builds of shuffled values (issue 25): ulid's own
# sortsupport (ulid_sortsupport, the abbreviated key of src/core/sortkey.h)
# against core's uuid_sortsupport on the same bytes (a uuid column holding
# them, sorted by uuid_ops: how 1.0 sorted ulid), and against uuid v4
# values.  Times: every query once per round, the order
# rotated, ratios paired per round and their median reported.  Instructions:
# callgrind of the load phase (which makes the abbreviated keys) and of the
# sort phase, and of a whole CREATE INDEX (btbuild), in a single-user backend.  Sourced by test/bench/run.sh.
#   ULID_BENCH_SORT_N     values per table (default 2 x ULID_BENCH_N)
#   ULID_BENCH_SORT_CG_N  values of the callgrind sorts (default 500000; 0: none)
#   ULID_BENCH_SORT_CACHESIM=1  the index builds' callgrind with --cache-sim=yes
#                         (data cache misses per build, D1 and last level)
SN=${ULID_BENCH_SORT_N:-$((2 * ULID_BENCH_N))}
SCG_N=${ULID_BENCH_SORT_CG_N:-$([ -n "${ULID_BENCH_QUICK:-}" ] && echo 20000 || echo 500000)}

# kind|column type|generator
SORT_KINDS=(
	"fresh|ulid|gen_ulid()"
	"monotonic|ulid|gen_monotonic_ulid()"
	"random|ulid|gen_random_ulid()"
	"v4|uuid|gen_random_uuid()"
)
# On 18+, core's uuidv7() values too (issue 42 item 4): index builds only,
# against fresh gen_ulid() values (the same time-ordered layout in another
# type and opclass)
[ "${PG_VERSION_NUM:-0}" -ge 18 ] && SORT_KINDS+=("v7core|uuid|pg_catalog.uuidv7()")
# sort_tables_sql N: the SQL that makes, per kind, N values shuffled (the
# same permutation for every kind) in two one-column tables, srt_KIND_u
# (as ulid) and srt_KIND_v (as uuid), so that every sort and index build
# reads its values from the first column of a table of the same shape
sort_tables_sql() {
	local spec kind type gen
	for spec in "${SORT_KINDS[@]}"; do
		IFS='|' read -r kind type gen <<<"$spec"
		echo "SELECT setseed(0.5);"
		echo "CREATE TABLE srt_$kind AS SELECT x::ulid AS u, x::uuid AS v FROM (SELECT $gen AS x FROM generate_series(1, $1)) s ORDER BY random();"
		echo "CREATE TABLE srt_${kind}_u AS SELECT u FROM srt_$kind;"
		echo "CREATE TABLE srt_${kind}_v AS SELECT v FROM srt_$kind;"
		echo "DROP TABLE srt_$kind;"
	done
}

bench_psql -q -c "$(sort_tables_sql "$SN")" -c "VACUUM ANALYZE" >/dev/null

# sort_rounds OUT NAME QUERY CLEANUP ...: rows "name round ms cpu-ms" into OUT
# (bench_rounds in lib.sh)
sort_rounds() {
	local out=$1 names="" queries="" cleanups=""
	shift
	while [ $# -gt 0 ]; do
		names+="\$n\$$1\$n\$,"
		queries+="\$q\$$2\$q\$,"
		cleanups+="\$q\$$3\$q\$,"
		shift 3
	done
	bench_psql -F ' ' -c "SET maintenance_work_mem = '1GB'" -c "SET max_parallel_maintenance_workers = 0" \
		-c "SELECT name, round, round(ms::numeric, 2), coalesce(cpu_ms, 0) FROM bench_rounds(ARRAY[${names%,}]::text[],
			ARRAY[${queries%,}]::text[], ARRAY[${cleanups%,}]::text[], $ULID_BENCH_REPS)" >"$out"
}
# columns of OUT: name round wall-ms cpu-ms.  median_of OUT NAME [COL],
# range_of OUT NAME [COL], paired OUT A B [COL]: the median over rounds of
# A / B (COL 3: wall ms, the default; 4: the backend's CPU ms)
median_of() {
	awk -v n="$2" -v c="${3:-3}" '$1 == n { print $c }' "$1" | median_file /dev/stdin | awk '{ printf "%.0f", $1 }'
}
range_of() {
	awk -v n="$2" -v c="${3:-3}" '$1 == n { print $c }' "$1" | sort -n |
		awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.0f-%.0f", lo, hi }'
}
paired_range() { # OUT A B [COL]: the lowest and highest of the rounds' A / B
	awk -v a="$2" -v b="$3" -v c="${4:-3}" '$1 == a { x[$2] = $c } $1 == b { y[$2] = $c }
		END { for (r in x) if (y[r] > 0) print x[r] / y[r] }' "$1" | sort -g |
		awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.3f-%.3f", lo, hi }'
}
paired() {
	awk -v a="$2" -v b="$3" -v c="${4:-3}" '$1 == a { x[$2] = $c } $1 == b { y[$2] = $c }
		END { for (r in x) if (y[r] > 0) print x[r] / y[r] }' "$1" | median_file /dev/stdin | awk '{ printf "%.3f", $1 }'
}

report ""
report "## Sorting and index builds ($SN shuffled values)"
report ""
report "ulid's own sortsupport against core's \`uuid_sortsupport\` on the same bytes (a \`uuid\` column holding"
report "them: how 1.0 sorted ulid) and against uuid v4 values.  Each round runs every query once, order rotated;"
report "medians over $ULID_BENCH_REPS rounds of wall ms (min-max) and of the backend's CPU ms (user + system: less"
report "disturbed by other load on a shared machine), and the medians of the per-round ratios."

# --- sorts ---------------------------------------------------------------------
sort_q() { echo "SELECT count(*) FROM (SELECT $2 FROM srt_$1_$2 ORDER BY $2 OFFSET 0) s"; } # KIND COLUMN
rows=$BENCH_OUT/sort_rounds.txt
sort_rounds "$rows" \
	fresh "$(sort_q fresh u)" "" fresh_core "$(sort_q fresh v)" "" \
	monotonic "$(sort_q monotonic u)" "" monotonic_core "$(sort_q monotonic v)" "" \
	random "$(sort_q random u)" "" random_core "$(sort_q random v)" "" \
	v4 "$(sort_q v4 v)" ""
# --- index builds (in memory, no parallel workers) ------------------------------
idx_q() { echo "CREATE INDEX srt_$1_i ON srt_$1_$2 ($2)"; } # KIND COLUMN
irows=$BENCH_OUT/index_rounds.txt
V7CORE=''
[ "${PG_VERSION_NUM:-0}" -ge 18 ] && V7CORE=1
sort_load_start=$(cut -d' ' -f1 /proc/loadavg)
sort_rounds "$irows" \
	fresh "$(idx_q fresh u)" "DROP INDEX srt_fresh_i" fresh_core "$(idx_q fresh v)" "DROP INDEX srt_fresh_i" \
	monotonic "$(idx_q monotonic u)" "DROP INDEX srt_monotonic_i" \
	monotonic_core "$(idx_q monotonic v)" "DROP INDEX srt_monotonic_i" \
	random "$(idx_q random u)" "DROP INDEX srt_random_i" random_core "$(idx_q random v)" "DROP INDEX srt_random_i" \
	v4 "$(idx_q v4 v)" "DROP INDEX srt_v4_i" \
	${V7CORE:+v7core "$(idx_q v7core v)" "DROP INDEX srt_v7core_i"}
sort_load_end=$(cut -d' ' -f1 /proc/loadavg)

for what in sort index; do
	f=$rows
	[ $what = index ] && f=$irows
	report ""
	if [ $what = sort ]; then
		report "#### ORDER BY of $SN shuffled values (work_mem 1GB: in-memory quicksort)"
	else
		report "#### CREATE INDEX on $SN shuffled values (maintenance_work_mem 1GB, no parallel workers)"
	fi
	report ""
	report "| values | ulid's sortsupport: wall ms (min-max); CPU ms | 1.0 (core's uuid_sortsupport): wall; CPU | ulid / 1.0, paired: wall; CPU | ulid / uuid v4, paired: wall; CPU |"
	report "|---|---:|---:|---:|---:|"
	for k in fresh monotonic random; do
		report "| $k ($(grep "^$k|" <(printf '%s\n' "${SORT_KINDS[@]}") | cut -d'|' -f3)) | $(median_of "$f" $k) ($(range_of "$f" $k)); $(median_of "$f" $k 4) | $(median_of "$f" ${k}_core) ($(range_of "$f" ${k}_core)); $(median_of "$f" ${k}_core 4) | $(paired "$f" $k ${k}_core)x; $(paired "$f" $k ${k}_core 4)x | $(paired "$f" $k v4)x; $(paired "$f" $k v4 4)x |"
		MED[${what}_${k}_vs_v4]=$(paired "$f" $k v4)
		MED[${what}_${k}_vs_v4_cpu]=$(paired "$f" $k v4 4)
		MED[${what}_${k}_vs_core_cpu]=$(paired "$f" $k ${k}_core 4)
	done
	report "| uuid v4 (gen_random_uuid(), uuid_ops) | $(median_of "$f" v4) ($(range_of "$f" v4)); $(median_of "$f" v4 4) | | | 1 |"
	if [ $what = index ] && [ -n "$V7CORE" ]; then
		report "| core uuidv7() values (uuid_ops) | $(median_of "$f" v7core) ($(range_of "$f" v7core)); $(median_of "$f" v7core 4) | | | $(paired "$f" v7core v4)x; $(paired "$f" v7core v4 4)x |"
		report ""
		report "Fresh gen_ulid() values (ulid's sortsupport) / core uuidv7() values (uuid_ops), paired per round over"
		report "$ULID_BENCH_REPS rounds: wall $(paired "$f" fresh v7core)x ($(paired_range "$f" fresh v7core)), backend CPU"
		report "$(paired "$f" fresh v7core 4)x ($(paired_range "$f" fresh v7core 4)); load (1-minute) $sort_load_start at the start of the builds, $sort_load_end at the end."
		summary index_fresh_v7core_cpu "CREATE INDEX on $SN shuffled fresh ids / core uuidv7() values, CPU (rounds' range)" "$(paired "$f" fresh v7core 4)x ($(paired_range "$f" fresh v7core 4))"
	fi
done
report ""
report "| sort target | value | verdict |"
report "|---|---:|---|"
target "sort of fresh gen_ulid() values / uuid v4, CPU (wall: ${MED[sort_fresh_vs_v4]}x)" "${MED[sort_fresh_vs_v4_cpu]}" 1.0
target "sort of gen_random_ulid() values / the same with 1.0's sortsupport, CPU" "${MED[sort_random_vs_core_cpu]}" 1.0
target "CREATE INDEX on fresh gen_ulid() values / uuid v4, CPU (wall: ${MED[index_fresh_vs_v4]}x)" "${MED[index_fresh_vs_v4_cpu]}" 1.0
bench_psql -q -c "DROP TABLE srt_fresh_u, srt_fresh_v, srt_monotonic_u, srt_monotonic_v, srt_random_u, srt_random_v, srt_v4_u, srt_v4_v${V7CORE:+, srt_v7core_u, srt_v7core_v}" >/dev/null

# --- instructions of the sort (callgrind, single-user backend) -----------------
[ "$SCG_N" -gt 0 ] || return 0
# One valgrind run per sort: collection on inside tuplesort_puttupleslot
# (the load phase, which converts each value to its abbreviated key) and
# inside tuplesort_performsort (the sort phase); both are exported, so they
# are named even in a stripped server binary.
scg_dir=$ULID_WORK/sort_callgrind
mkdir -p "$scg_dir"
chown postgres: "$scg_dir" 2>/dev/null || true
pg_new scg "ulid.node_id = 1" || exit 1
scg_single() { as_pg "$@" "$PG_BIN/postgres" --single -D "$(pg_data scg)" postgres; }
{
	echo "CREATE EXTENSION ulid"
	sort_tables_sql "$SCG_N" | sed 's/;$//'
} | scg_single >"$scg_dir/setup.log" 2>&1
grep -q ERROR "$scg_dir/setup.log" && { cat "$scg_dir/setup.log" >&2; exit 1; }
# scg_ir NAME QUERY: "sort-phase-Ir load-phase-Ir"
scg_ir() {
	local out=$scg_dir/callgrind.$1.out
	echo "SET work_mem = '1GB'
$2" | scg_single valgrind --tool=callgrind --collect-atstart=no \
		--toggle-collect=tuplesort_performsort --toggle-collect=tuplesort_puttupleslot \
		--callgrind-out-file="$out" >"$scg_dir/$1.log" 2>&1 || {
		tail -20 "$scg_dir/$1.log" >&2
		exit 1
	}
	callgrind_annotate --inclusive=yes --threshold=100 "$out" 2>/dev/null |
		awk '/tuplesort_performsort/ { gsub(",", "", $1); s = $1 } /tuplesort_puttupleslot/ { gsub(",", "", $1); c = $1 }
			END { printf "%d %d\n", s, c }'
}
report ""
report "#### Instructions of one sort of $SCG_N shuffled values (callgrind)"
report ""
report "| values, sortsupport | load phase (tuplesort_puttupleslot), Ir | sort phase (tuplesort_performsort), Ir | sort phase / uuid v4 |"
report "|---|---:|---:|---:|"
read -r v4_sort v4_conv < <(scg_ir v4 "$(sort_q v4 v)")
for k in fresh monotonic random; do
	for how in ulid core; do
		col=u
		[ $how = core ] && col=v
		read -r s c < <(scg_ir "$k.$how" "$(sort_q $k $col)")
		MED[scg_${k}_$how]=$s
		report "| $k, $([ $how = ulid ] && echo "ulid's" || echo "core's (1.0)") | $(awk -v c="$c" 'BEGIN { printf "%.1fM", c / 1e6 }') | $(awk -v s="$s" 'BEGIN { printf "%.1fM", s / 1e6 }') | $(awk -v s="$s" -v b="$v4_sort" 'BEGIN { printf "%.3f", s / b }')x |"
	done
done
report "| uuid v4, core's | $(awk -v c="$v4_conv" 'BEGIN { printf "%.1fM", c / 1e6 }') | $(awk -v s="$v4_sort" 'BEGIN { printf "%.1fM", s / 1e6 }') | 1 |"

# CREATE INDEX (issue 34): collection on inside btbuild (the heap scan that
# makes the abbreviated keys, the sort and writing the pages), as timed above
# (fresh ids in their ulid column and with 1.0's sortsupport in the uuid
# column, uuid v4 values in a uuid column)
scg_build() { # NAME KIND COLUMN: Ir of btbuild
	local out=$scg_dir/callgrind.build.$1.out
	printf '%s\n' "SET maintenance_work_mem = '1GB'" "SET max_parallel_maintenance_workers = 0" \
		"CREATE INDEX srt_$2_b ON srt_$2_$3 ($3)" "DROP INDEX srt_$2_b" |
		scg_single valgrind --tool=callgrind --collect-atstart=no --toggle-collect=btbuild \
			${ULID_BENCH_SORT_CACHESIM:+--cache-sim=yes} --callgrind-out-file="$out" >"$scg_dir/build.$1.log" 2>&1 || {
		tail -20 "$scg_dir/build.$1.log" >&2
		exit 1
	}
	callgrind_annotate --inclusive=yes --threshold=100 "$out" 2>/dev/null |
		awk '/btbuild/ { gsub(",", "", $1); print $1; exit }'
}
# scg_misses NAME: "D1 LL" data cache misses (reads + writes) inside btbuild,
# from the totals line of a --cache-sim=yes run (collection was on only there)
scg_misses() {
	awk '/^events:/ { for (i = 2; i <= NF; i++) e[$i] = i } /^totals:/ {
		printf "%d %d", $e["D1mr"] + $e["D1mw"], $e["DLmr"] + $e["DLmw"] }' "$scg_dir/callgrind.build.$1.out"
}
v4_build=$(scg_build v4 v4 v)
fresh_build=$(scg_build fresh fresh u)
core_build=$(scg_build fresh_core fresh v)
[ -n "$v4_build" ] && [ -n "$fresh_build" ] && [ -n "$core_build" ] || {
	echo "bench: no instruction count of an index build" >&2
	exit 1
}
build_vs_v4=$(awk -v a="$fresh_build" -v b="$v4_build" 'BEGIN { printf "%.4f", a / b }')
report ""
report "#### Instructions of one CREATE INDEX on $SCG_N shuffled values (callgrind, inside btbuild)"
report ""
scg_rows=("fresh, ulid's|$fresh_build|fresh" "fresh, core's (1.0)|$core_build|fresh_core" "uuid v4, core's|$v4_build|v4")
if [ -n "$V7CORE" ]; then
	v7core_build=$(scg_build v7core v7core v)
	scg_rows+=("core uuidv7() values, core's|$v7core_build|v7core")
fi
if [ -n "${ULID_BENCH_SORT_CACHESIM:-}" ]; then
	report "| values, sortsupport | Ir | / uuid v4 | D1 misses | LL misses |"
	report "|---|---:|---:|---:|---:|"
else
	report "| values, sortsupport | Ir | / uuid v4 |"
	report "|---|---:|---:|"
fi
for row in "${scg_rows[@]}"; do
	IFS='|' read -r label ir name <<<"$row"
	line="| $label | $(awk -v a="$ir" -v b="$v4_build" 'BEGIN { printf "%.1fM | %.4fx", a / 1e6, a / b }') |"
	[ -n "${ULID_BENCH_SORT_CACHESIM:-}" ] && line+=" $(scg_misses "$name" | awk '{ printf "%.2fM | %.2fM", $1 / 1e6, $2 / 1e6 }') |"
	report "$line"
done
report ""
report "| index build target | value | verdict |"
report "|---|---:|---|"
target "CREATE INDEX on fresh gen_ulid() values / uuid v4, instructions" "$build_vs_v4" 1.0
summary ir_build_fresh_v4 "CREATE INDEX on $SCG_N shuffled fresh ids / uuid v4, instructions" "${build_vs_v4}x"
