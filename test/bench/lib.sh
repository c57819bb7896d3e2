#!/usr/bin/env bash
# Benchmark helpers, sourced by test/bench/run.sh (which starts the server).
#
#   bench_queries TITLE NAME SQL [NAME SQL ...]
#       runs every SQL ULID_BENCH_REPS times (plus a warm-up round) in ONE
#       backend, rotating the order every round, and stores the median wall
#       time in ms in MED[NAME] (min and max in MIN/MAX); prints a table.
#   net NAME FLOOR        MED[NAME] - MED[FLOOR]
#   ratio A B FLOOR       (MED[A] - MED[FLOOR]) / (MED[B] - MED[FLOOR])
#   report LINE           prints LINE and appends it to the Markdown report
#   target LABEL VALUE OP LIMIT   reports VALUE against its target (no assert)
#   summary KEY LABEL VALUE       a key figure for test/bench/side_by_side.sh
declare -A MED MIN MAX

BENCH_SQL_SETUP=$(cat <<'SQL'
-- every query once per round, order rotated, round 0 a warm-up; the cleanup
-- (if any) runs untimed after its query.  One row per query and round: wall
-- ms, and the backend's CPU ms (user + system, from /proc/self/stat in
-- 10 ms ticks; NULL where there is no /proc), which other load on a shared
-- machine disturbs far less.
CREATE OR REPLACE FUNCTION bench_cpu_ms() RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE
    f text[];
BEGIN
    f := regexp_split_to_array(split_part(pg_read_file('/proc/self/stat'), ') ', 2), ' ');
    RETURN (f[12]::bigint + f[13]::bigint) * 10.0;  -- fields 14 and 15: utime, stime
EXCEPTION WHEN OTHERS THEN
    RETURN NULL;
END
$$;
CREATE OR REPLACE FUNCTION bench_rounds(names text[], queries text[], cleanups text[], reps int)
RETURNS TABLE (name text, round int, ms float8, cpu_ms float8)
LANGUAGE plpgsql AS $$
DECLARE
    n int := array_length(names, 1);
    t0 timestamptz;
    c0 float8;
    i int;
BEGIN
    FOR r IN 0..reps LOOP
        FOR k IN 0..n - 1 LOOP
            i := (k + r) % n + 1;
            c0 := bench_cpu_ms();
            t0 := clock_timestamp();
            EXECUTE queries[i];
            IF r > 0 THEN
                name := names[i];
                round := r;
                ms := extract(epoch FROM clock_timestamp() - t0) * 1000;
                cpu_ms := bench_cpu_ms() - c0;
                RETURN NEXT;
            END IF;
            IF cleanups[i] <> '' THEN
                EXECUTE cleanups[i];
            END IF;
        END LOOP;
    END LOOP;
END
$$;
-- median, min and max per query, in the order of names
CREATE OR REPLACE FUNCTION bench_run(names text[], queries text[], reps int)
RETURNS TABLE (name text, median_ms float8, min_ms float8, max_ms float8)
LANGUAGE sql AS $$
    SELECT q.name, percentile_cont(0.5) WITHIN GROUP (ORDER BY r.ms), min(r.ms), max(r.ms)
    FROM unnest(names) WITH ORDINALITY q(name, i)
    JOIN bench_rounds(names, queries, NULL, reps) r ON r.name = q.name
    GROUP BY q.name, q.i ORDER BY q.i
$$;
SQL
)

# bench_psql [psql args]: exits the whole benchmark on any SQL error
bench_psql() {
	psqlx bench -c "SET work_mem = '1GB'" -c "SET max_parallel_workers_per_gather = 0" "$@" || {
		echo "bench: psql failed: $*" >&2
		exit 1
	}
}

# summary KEY LABEL VALUE: one key figure of the run, a line of
# summary.tsv (test/bench/side_by_side.sh joins two runs' by KEY)
summary() {
	printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$BENCH_OUT/summary.tsv"
}

report() {
	echo "$*"
	echo "$*" >>"$BENCH_REPORT"
}

bench_queries() {
	local title=$1
	shift
	local names=() queries=() sql out n med mn mx
	while [ $# -gt 0 ]; do
		names+=("$1")
		queries+=("$2")
		shift 2
	done
	sql="SELECT name, round(median_ms::numeric, 2), round(min_ms::numeric, 2), round(max_ms::numeric, 2) FROM bench_run(ARRAY["
	for n in "${names[@]}"; do sql+="\$n\$$n\$n\$,"; done
	sql="${sql%,}]::text[], ARRAY["
	for n in "${queries[@]}"; do sql+="\$q\$$n\$q\$,"; done
	sql="${sql%,}]::text[], $ULID_BENCH_REPS)"
	report ""
	report "#### $title (ms per query: median, min-max over $ULID_BENCH_REPS rounds)"
	report ""
	report "| query | median ms | min | max |"
	report "|---|---:|---:|---:|"
	out=$(bench_psql -F '|' -c "$sql") || exit 1
	while IFS='|' read -r n med mn mx; do
		MED[$n]=$med
		MIN[$n]=$mn
		MAX[$n]=$mx
		report "| $n | $med | $mn | $mx |"
	done <<<"$out"
}

# per-item nanoseconds of NAME net of FLOOR, for COUNT items; a net time
# no larger than the floor's own spread (its max - min over the rounds) is
# noise, not a figure: "n/a" then (test/README.md, "Quoting a figure")
net_ns() {
	awk -v a="${MED[$1]}" -v f="${MED[$2]}" -v s="$(floor_spread "$2")" -v n="$3" \
		'BEGIN { if (a - f <= s) print "n/a"; else printf "%.1f", (a - f) * 1e6 / n }'
}

# the spread (max - min, ms) of FLOOR's rounds; 0 without a floor
floor_spread() {
	awk -v hi="${MAX[${1:-__none}]:-0}" -v lo="${MIN[${1:-__none}]:-0}" 'BEGIN { print hi - lo }'
}

# (A - FLOOR) / (B - FLOOR): "n/a" when either net is within the floor's
# spread, so that a ratio of noise is never quoted
ratio() {
	awk -v a="${MED[$1]}" -v b="${MED[$2]}" -v f="${MED[${3:-__none}]:-0}" -v s="$(floor_spread "${3:-}")" \
		'BEGIN { if (b - f <= s || a - f <= s) print "n/a"; else printf "%.3f", (a - f) / (b - f) }'
}

# (A - FA) / (B - FB), each net of its own floor: "n/a" when either net is
# within its floor's spread
ratio_nets() {
	awk -v a="${MED[$1]}" -v fa="${MED[$2]}" -v sa="$(floor_spread "$2")" \
		-v b="${MED[$3]}" -v fb="${MED[$4]}" -v sb="$(floor_spread "$4")" \
		'BEGIN { if (a - fa <= sa || b - fb <= sb) print "n/a"; else printf "%.3f", (a - fa) / (b - fb) }'
}

# target LABEL VALUE LIMIT: VALUE is a ratio that should be at most LIMIT
# ("at least" targets pass a negative LIMIT: -0.8 means at least 0.8)
target() {
	local verdict
	verdict=$(awk -v v="$2" -v l="$3" 'BEGIN {
		if (v == "n/a" || v == "") print "n/a";
		else if (l < 0) print (v >= -l ? "meets" : "MISSES") " (at least " (0 - l) "x)";
		else print (v <= l ? "meets" : "MISSES") " (at most " l "x)" }')
	report "| $1 | ${2}x | $verdict |"
}

# The primary-key types compared by the growth, concurrency and read
# benchmarks: NAME|COLUMN TYPE|DEFAULT expression ("" for serial types).
BENCH_KEYS=(
	"gen_ulid|ulid|gen_ulid()"
	"gen_random_ulid|ulid|gen_random_ulid()"
	"gen_monotonic_ulid|ulid|gen_monotonic_ulid()"
	"snowflake_twitter|bigint|snowflake_next('twitter')"
	"gen_random_uuid|uuid|gen_random_uuid()"
	"bigserial|bigserial|"
)

# key_table NAME: drop and create table k_NAME (id <key> PRIMARY KEY, payload int)
key_table() {
	local spec name type def
	for spec in "${BENCH_KEYS[@]}"; do
		IFS='|' read -r name type def <<<"$spec"
		[ "$name" = "$1" ] || continue
		bench_psql -q -c "DROP TABLE IF EXISTS k_$name" \
			-c "CREATE TABLE k_$name (id $type PRIMARY KEY ${def:+DEFAULT $def}, payload int)" >/dev/null
		return 0
	done
	echo "bench: unknown key $1" >&2
	exit 1
}
key_names() {
	local spec
	for spec in "${BENCH_KEYS[@]}"; do echo "${spec%%|*}"; done
}

# ins_round NAME TYPE DEFAULT: one timed INSERT of ULID_BENCH_N rows into a
# fresh table ins_NAME (id TYPE PRIMARY KEY DEFAULT ..., payload int), after
# a CHECKPOINT; appends its ms to $BENCH_OUT/ins_NAME.ms and writes its
# primary key's size to ins_NAME.idx.  median_file FILE: the median line.
ins_round() {
	bench_psql -q -c "DROP TABLE IF EXISTS ins_$1" \
		-c "CREATE TABLE ins_$1 (id $2 PRIMARY KEY DEFAULT $3, payload int)" -c "CHECKPOINT" >/dev/null
	bench_psql -c "SELECT round(median_ms::numeric, 1) FROM bench_run(ARRAY['x'],
		ARRAY['INSERT INTO ins_$1 (payload) SELECT 1 FROM generate_series(1, $ULID_BENCH_N)'], 1)" |
		tail -1 >>"$BENCH_OUT/ins_$1.ms"
	bench_psql -c "SELECT pg_relation_size('ins_$1_pkey')" >"$BENCH_OUT/ins_$1.idx"
}
median_file() { sort -n "$1" | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
