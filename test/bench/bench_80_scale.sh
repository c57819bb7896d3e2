# Keys at scale (issue 34): what a key does to a big table under concurrent
# load, the benchmark users quote (ardentperf's "UUID Benchmark War": 1M
# inserts into a 20M-row table with concurrent reads).  On a server of its
# own, every key gets a table t_KEY (id KEY PRIMARY KEY, payload int) grown
# to ULID_BENCH_SCALE_ROWS rows (20M) by one session in INSERT ... SELECT
# chunks (a table that grew over months: a few rows per millisecond, so
# time-ordered keys grew at the index's right edge), VACUUM ANALYZE, and a
# probe table of about 100,000 of its keys sampled uniformly.  Then the
# phases, each on the server restarted with the phase's shared_buffers:
# ULID_BENCH_SCALE_INSERTS rows (1M; a phase may name another count) per
# key inserted by ULID_BENCH_SCALE_SESSIONS pgbench sessions (4;
# synchronous_commit off) while ULID_BENCH_SCALE_READERS sessions (1) look
# up random rows of the grown table by primary key.  The inserts run in ULID_BENCH_SCALE_ROUNDS
# slices (5) per key, the keys' slices alternating round by round (the
# order rotated), so that load from other jobs on the machine falls on every
# key alike; ratios between keys are medians of the rounds' ratios.  Before
# each slice: the key's table and index prewarmed (pg_prewarm), a CHECKPOINT
# (so full-page images count a checkpoint cycle's first touches of the
# slice), statistics reset.  Phases run one after the other on the same
# tables (the second phase inserts into 21M rows, and so on).  Per key and
# phase:
#   rows/s      inserted rows / the inserting pgbench's time, over the
#               slices; "/ bigserial" and "/ uuid v4": the median of the
#               rounds' ratios (each round's slices ran minutes apart)
#   reads       lookups/s and latency p50/p99 (pgbench's per-transaction
#               log, the lookups that completed while a slice's inserts ran)
#   sizes       primary key and table (pg_relation_size) after the phase
#   leaf fill   pgstatindex()'s avg_leaf_density after the phase, and the
#               leaf pages the phase added per 10,000 inserted rows
#   WAL         pg_stat_wal: bytes, records and full-page images per 1,000
#               inserted rows (server-wide: the readers' hint bits too)
#   hit ratio   pg_statio_user_indexes/_tables: the share of the index's and
#               the table's block accesses found in shared buffers
#   load        /proc/loadavg's 1-minute figure at the slices' starts and
#               ends, lowest and highest
# ULID_BENCH_SCALE_PHASES: "SHARED_BUFFERS/ROWS_PER_TRANSACTION[/INSERTS] ..."
# (default "2GB/1 128MB/1 128MB/100/5000000": shared buffers above and below
# every key's index with one row per transaction, and 100 rows per
# transaction, where concurrent gen_ulid() sessions split leaf pages in the
# middle, with 5M inserts per key: 1M of them take seconds);
# ULID_BENCH_SCALE_KEYS names the keys (default: all of SCALE_KEYS below).
# The goals (issue 34) are printed with the measured ratios, never asserted.
# Results: scale.csv (per key and phase), scale_slices.csv (per slice),
# scale_grown.csv, scale_rate.csv and, with gnuplot, scale_rate_PHASE.png
# (rows/s over the seconds of inserting) and scale_index.png (index sizes).
#
# Runs when ULID_BENCH_ONLY names "scale" (about 25 minutes at 20M rows on 2 cores),
# and in quick mode shrunk to about a minute; a full run without it skips
# it.  Sourced by test/bench/run.sh.
if [ -z "${ULID_BENCH_QUICK:-}" ] && [[ " ${ULID_BENCH_ONLY:-} " != *" scale "* ]]; then
	report ""
	report "## Keys at scale: not run (ULID_BENCH_ONLY=scale runs it; 25 minutes at 20M rows)"
	return 0
fi
sc_full="20000000 rows, 1000000 inserts, 5 rounds, phases 2GB/1 128MB/1 128MB/100/5000000"
if [ -n "${ULID_BENCH_QUICK:-}" ]; then
	: "${ULID_BENCH_SCALE_ROWS:=20000}" "${ULID_BENCH_SCALE_INSERTS:=4000}" "${ULID_BENCH_SCALE_ROUNDS:=1}"
	: "${ULID_BENCH_SCALE_PHASES:=64MB/1 1MB/1 1MB/100/8000}"
fi
: "${ULID_BENCH_SCALE_ROWS:=20000000}" "${ULID_BENCH_SCALE_INSERTS:=1000000}" "${ULID_BENCH_SCALE_ROUNDS:=5}"
: "${ULID_BENCH_SCALE_PHASES:=2GB/1 128MB/1 128MB/100/5000000}"
: "${ULID_BENCH_SCALE_SESSIONS:=4}" "${ULID_BENCH_SCALE_READERS:=1}"
SC_ROWS=$ULID_BENCH_SCALE_ROWS SC_SESS=$ULID_BENCH_SCALE_SESSIONS SC_ROUNDS=$ULID_BENCH_SCALE_ROUNDS
sc_size="$SC_ROWS rows, $ULID_BENCH_SCALE_INSERTS inserts, $SC_ROUNDS rounds, phases $ULID_BENCH_SCALE_PHASES"
read -ra sc_phases <<<"$ULID_BENCH_SCALE_PHASES"
sc_sb=() sc_rpt=() sc_ins=() sc_labels=() # per phase: shared_buffers, rows per transaction, inserts, label
for p in "${sc_phases[@]}"; do
	IFS=/ read -r sb rpt ins <<<"$p"
	sc_sb+=("$sb") sc_rpt+=("$rpt") sc_ins+=("${ins:-$ULID_BENCH_SCALE_INSERTS}") sc_labels+=("sb${sb}_$rpt")
done
sc_read_s=5 # seconds of one readers' pgbench run
[ -n "${ULID_BENCH_QUICK:-}" ] && sc_read_s=1

# NAME|COLUMN TYPE|DEFAULT expression ("" for serial types); the ratios
# are against bigserial and gen_random_uuid (uuid v4)
SCALE_KEYS=(
	"gen_ulid|ulid|gen_ulid()"
	"gen_monotonic_ulid|ulid|gen_monotonic_ulid()"
	"gen_uuidv7|uuid|gen_uuidv7()"
	"uuidv7|uuid|pg_catalog.uuidv7()"
	"gen_random_uuid|uuid|gen_random_uuid()"
	"bigserial|bigserial|"
	"snowflake_next|bigint|snowflake_next('twitter')"
)
# the keys of this extension, held to the goals
SC_OURS="gen_ulid gen_monotonic_ulid gen_uuidv7 snowflake_next"
sc_dir=$ULID_WORK/scale
mkdir -p "$sc_dir"
chmod 777 "$sc_dir"

pg_new scale "max_wal_size = '4GB'" "checkpoint_timeout = '30min'" "autovacuum = off" "jit = off" \
	"fsync = on" "max_parallel_workers_per_gather = 0" "ulid.node_id = 1" "ulid.node_ids = '0'" || exit 1
pg_start scale || exit 1
sc_psql() { # [psql args]: exits the benchmark on any SQL error
	PGOPTIONS="-c client_min_messages=warning" psqlx scale "$@" || {
		echo "bench: scale: psql failed: $*" >&2
		exit 1
	}
}
sc_pgbench() { "$PG_BIN/pgbench" -h "$ULID_WORK/sock" -p "$(pg_port scale)" -U postgres "$@" postgres; }
sc_buffers='' # the running server's shared_buffers
sc_restart() { # SHARED_BUFFERS
	[ "$sc_buffers" == "$1" ] && return 0
	sc_psql -q -c "ALTER SYSTEM SET shared_buffers = '$1'" >/dev/null
	pg_stop scale && pg_start scale || exit 1
	sc_buffers=$1
}
sc_load() { cut -d' ' -f1 /proc/loadavg; }
sc_idle() { [ "$(sc_psql -c "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'pgbench'")" == 0 ]; }
sc_is_pg18=$(sc_psql -c "SELECT current_setting('server_version_num')::int >= 180000")
sc_keys=()
for spec in "${SCALE_KEYS[@]}"; do
	name=${spec%%|*}
	[ "$name" == uuidv7 ] && [ "$sc_is_pg18" != t ] && continue
	[ -n "${ULID_BENCH_SCALE_KEYS:-}" ] && [[ " $ULID_BENCH_SCALE_KEYS " != *" $name "* ]] && continue
	sc_keys+=("$spec")
done
sc_names=("${sc_keys[@]%%|*}")

report ""
report "## Keys at scale: $SC_ROWS rows, then $ULID_BENCH_SCALE_INSERTS inserts from $SC_SESS sessions with concurrent reads"
report ""
if [ "$sc_size" != "$sc_full" ]; then
	report "**Shrunk** (quick mode or ULID_BENCH_SCALE_*): $sc_size; the full size is $sc_full."
	report "Below full size the figures show that the scripts work, not what keys do at scale."
	report ""
fi
report "Each key's table \`(id KEY PRIMARY KEY, payload int)\` is grown by one session in INSERT ... SELECT"
report "chunks, vacuumed and analyzed.  Each phase restarts the server with its \`shared_buffers\`; then per"
report "key the phase's inserts (rows per transaction and count: the phase's heading) by $SC_SESS pgbench sessions (synchronous_commit off) while"
report "$ULID_BENCH_SCALE_READERS session(s) look up random rows of the grown table by primary key, in $SC_ROUNDS slices per key"
report "alternating between the keys round by round, each after pg_prewarm of the key's table and index"
report "and a CHECKPOINT.  Ratios between keys are medians of the rounds' ratios.  Block reads that miss"
report "shared buffers are served by the OS page cache or the disk.  Load: /proc/loadavg's 1-minute figure"
report "(lowest-highest at the slices' starts and ends; other jobs share this machine).  Definitions: the"
report "header of test/bench/bench_80_scale.sh."

SC_CSV=$BENCH_OUT/scale.csv
SC_SLICES=$BENCH_OUT/scale_slices.csv
SC_GROWN=$BENCH_OUT/scale_grown.csv
SC_RATE=$BENCH_OUT/scale_rate.csv
echo "key,grow_s,rows,index_bytes,table_bytes,leaf_pages,leaf_density" >"$SC_GROWN"
echo "phase,round,key,rows,seconds,reads,wal_bytes,wal_records,wal_fpi,idx_hit,idx_read,heap_hit,heap_read,load_start,load_end" >"$SC_SLICES"
echo "phase,key,second,rows_per_s" >"$SC_RATE"
declare -A SC_NP SC_LEAVES # probe rows; leaf pages before the phase

# --- growing the tables ----------------------------------------------------------
sc_restart "${sc_sb[0]}"
sc_psql -q -c "CREATE EXTENSION ulid" -c "CREATE EXTENSION pgstattuple" -c "CREATE EXTENSION pg_prewarm" >/dev/null
chunk=$((SC_ROWS / 20))
[ $chunk -gt 1000000 ] && chunk=1000000
[ $chunk -lt 1 ] && chunk=1
for spec in "${sc_keys[@]}"; do
	IFS='|' read -r name type def <<<"$spec"
	cmds=(-c "CREATE TABLE t_$name (id $type PRIMARY KEY ${def:+DEFAULT $def}, payload int)")
	for ((left = SC_ROWS; left > 0; left -= n)); do
		n=$((left < chunk ? left : chunk))
		cmds+=(-c "INSERT INTO t_$name (payload) SELECT g FROM generate_series(1, $n) g")
	done
	t0=$(date +%s.%N)
	sc_psql -q "${cmds[@]}" >/dev/null
	t1=$(date +%s.%N)
	# about 100,000 keys (or a tenth of the rows), uniformly over the rows
	sc_psql -q -c "SET maintenance_work_mem = '1GB'" -c "VACUUM (ANALYZE) t_$name" \
		-c "CREATE TABLE probe_$name AS SELECT row_number() OVER () AS i, id FROM t_$name TABLESAMPLE BERNOULLI
			($(awk -v n="$SC_ROWS" 'BEGIN { p = 100000 / n; if (p > 0.1) p = 0.1; printf "%.6f", 100 * p }'))" \
		-c "ALTER TABLE probe_$name ADD PRIMARY KEY (i)" -c "VACUUM (ANALYZE) probe_$name" >/dev/null
	stat=$(sc_psql -c "SELECT pg_relation_size('t_${name}_pkey'), pg_relation_size('t_$name'),
		s.leaf_pages, s.avg_leaf_density, (SELECT count(*) FROM probe_$name) FROM pgstatindex('t_${name}_pkey') s") || exit 1
	IFS='|' read -r idx tbl leaves dens np <<<"$stat"
	SC_NP[$name]=$np
	grow_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
	echo "$name,$grow_s,$SC_ROWS,$idx,$tbl,$leaves,$dens" >>"$SC_GROWN"
	echo "# scale: $(date +%T) $name grown: $SC_ROWS rows in $grow_s s" >&2
done

# --- the phases --------------------------------------------------------------------
# sc_slice NAME ROWS_PER_TXN LABEL ROUND INSERTS: one slice (INSERTS / rounds
# rows), a line of scale_slices.csv
sc_slice() {
	local name=$1 rows=$2 label=$3 round=$4 d l0 l1 tps ndone t0 t1 stat readers
	local tx=$(($5 / SC_ROUNDS / SC_SESS / $2))
	d=$sc_dir/$label.$name.$round
	mkdir -p "$d"
	chmod 777 "$d"
	sc_psql -q -c "SELECT pg_prewarm('t_$name'), pg_prewarm('t_${name}_pkey'), pg_prewarm('probe_$name'), pg_prewarm('probe_${name}_pkey')" \
		-c "CHECKPOINT" -c "SELECT pg_stat_reset(), pg_stat_reset_shared('wal')" >/dev/null
	echo "INSERT INTO t_$name (payload) SELECT g FROM generate_series(1, $rows) g;" >"$d/ins.sql"
	printf '%s\n' '\set i random(1, :np)' "SELECT payload FROM t_$name WHERE id = (SELECT id FROM probe_$name WHERE i = :i);" >"$d/read.sql"
	l0=$(sc_load)
	# readers: short pgbench runs until the inserts are done (each run's log
	# is complete; lookups outside the inserts' time are left out below)
	(
		while [ ! -e "$d/stop" ]; do
			sc_pgbench -n -M prepared -c "$ULID_BENCH_SCALE_READERS" -j "$ULID_BENCH_SCALE_READERS" -T "$sc_read_s" \
				-D np="${SC_NP[$name]}" -f "$d/read.sql" -l --log-prefix="$d/read" >>"$d/read.out" 2>&1
		done
	) &
	readers=$!
	t0=$(date +%s.%N)
	PGOPTIONS="-c synchronous_commit=off" sc_pgbench -n -M prepared -c "$SC_SESS" -j "$SC_SESS" -t "$tx" \
		-f "$d/ins.sql" -l --aggregate-interval=1 --log-prefix="$d/ins" >"$d/ins.out" 2>&1
	t1=$(date +%s.%N)
	touch "$d/stop"
	wait "$readers"
	l1=$(sc_load)
	tps=$(awk '/^tps = / { print $3; exit }' "$d/ins.out")
	ndone=$(awk '/^number of transactions actually processed/ { split($NF, a, "/"); print a[1] }' "$d/ins.out")
	if [ -z "$tps" ] || [ "$ndone" != $((tx * SC_SESS)) ]; then
		cat "$d/ins.out" >&2
		echo "bench: scale: $name, phase $label: the inserts did not all run" >&2
		exit 1
	fi
	# the backends' statistics are flushed when they exit
	wait_until 30 sc_idle
	stat=$(sc_psql -F , -c "SELECT w.wal_bytes, w.wal_records, w.wal_fpi, i.idx_blks_hit, i.idx_blks_read,
		h.heap_blks_hit, h.heap_blks_read FROM pg_statio_user_indexes i, pg_statio_user_tables h, pg_stat_wal w
		WHERE i.indexrelname = 't_${name}_pkey' AND h.relname = 't_$name'") || exit 1
	# seconds: the rows over pgbench's rate (its time without connecting)
	echo "$label,$round,$name,$((tx * SC_SESS * rows)),$(awk -v n=$((tx * SC_SESS)) -v t="$tps" 'BEGIN { printf "%.3f", n / t }'),$(
		cat "$d"/read.[0-9]* 2>/dev/null | awk -v a="$t0" -v b="$t1" '$5 + $6 / 1e6 >= a && $5 + $6 / 1e6 <= b' |
			tee -a "$sc_dir/$label.$name.reads" | wc -l),$stat,$l0,$l1" >>"$SC_SLICES"
	# rows per second of the inserting sessions, per second of the slice
	cat "$d"/ins.[0-9]* | awk -v r="$rows" '$1 ~ /^[0-9]+$/ { n[$1] += $2 * r } END { for (s in n) print s, n[s] }' |
		sort -n | awk 'NR == 1 { s0 = $1 } { print $1 - s0, $2 }' >"$sc_dir/$label.$name.$round.rate"
	echo "# scale: $(date +%T) $label round $round $name: $(awk -v t="$tps" -v r="$rows" 'BEGIN { printf "%.0f", t * r }') rows/s, load $l0 -> $l1" >&2
}

for ((i = 0; i < ${#sc_phases[@]}; i++)); do
	label=${sc_labels[$i]}
	sc_restart "${sc_sb[$i]}"
	for name in "${sc_names[@]}"; do
		SC_LEAVES[$name]=$(sc_psql -c "SELECT leaf_pages FROM pgstatindex('t_${name}_pkey')") || exit 1
	done
	n=${#sc_names[@]}
	for ((r = 1; r <= SC_ROUNDS; r++)); do
		for ((k = 0; k < n; k++)); do
			sc_slice "${sc_names[$(((k + r) % n))]}" "${sc_rpt[$i]}" "$label" "$r" "${sc_ins[$i]}"
		done
	done
	# per key: the slices summed, the sizes after the phase
	for name in "${sc_names[@]}"; do
		stat=$(sc_psql -F , -c "SELECT pg_relation_size('t_${name}_pkey'), pg_relation_size('t_$name'), s.leaf_pages,
			s.avg_leaf_density FROM pgstatindex('t_${name}_pkey') s") || exit 1
		reads=$(awk '{ print $3 / 1000 }' "$sc_dir/$label.$name.reads" 2>/dev/null | sort -n |
			awk '{ x[NR] = $1 } END { if (NR == 0) print ","; else printf "%.3f,%.3f\n", x[int((NR + 1) * 0.5)], x[int((NR - 1) * 0.99) + 1] }')
		awk -F, -v p="$label" -v k="$name" -v st="$stat" -v rd="$reads" -v l0="${SC_LEAVES[$name]}" '$1 == p && $3 == k {
				rows += $4; s += $5; reads += $6; wb += $7; wr += $8; wf += $9; ih += $10; ir += $11; hh += $12; hr += $13
				if (lo == "" || $14 < lo) lo = $14; if ($15 < lo) lo = $15; if ($14 > hi) hi = $14; if ($15 > hi) hi = $15 }
			END { split(st, z, ",")
				printf "%s,%s,%.0f,%.0f,%s,%s,%s,%s,%.2f,%.0f,%.1f,%.1f,%.2f,%.2f,%s-%s\n", p, k, rows / s, reads / s, rd, z[1], z[2], z[4],
					(z[3] - l0) * 10000 / rows, wb * 1000 / rows, wr * 1000 / rows, wf * 1000 / rows,
					100 * ih / (ih + ir), 100 * hh / (hh + hr), lo, hi }' "$SC_SLICES" >>"$SC_CSV.tmp"
		# the slices' per-second rates end to end
		off=0
		for ((r = 1; r <= SC_ROUNDS; r++)); do
			awk -v p="$label" -v k="$name" -v o="$off" '{ printf "%s,%s,%d,%d\n", p, k, $1 + o, $2 }' "$sc_dir/$label.$name.$r.rate" >>"$SC_RATE"
			off=$((off + $(wc -l <"$sc_dir/$label.$name.$r.rate")))
		done
	done
done
pg_stop scale
{
	echo "phase,key,rows_per_s,reads_per_s,read_p50_ms,read_p99_ms,index_bytes,table_bytes,leaf_density,leaf_pages_per_10k_added,wal_bytes_per_1k,wal_records_per_1k,fpi_per_1k,index_hit,table_hit,load"
	cat "$SC_CSV.tmp"
} >"$SC_CSV"
rm -f "$SC_CSV.tmp"

# --- the report ----------------------------------------------------------------------
report ""
report "#### The grown tables ($SC_ROWS rows, one session)"
report ""
report "| key | grow s | primary key MiB | table MiB | leaf pages | leaf density % |"
report "|---|---:|---:|---:|---:|---:|"
while IFS=, read -r k s _ idx tbl lp dens; do
	report "| $k | $s | $(awk -v b="$idx" 'BEGIN { printf "%.1f", b / 1048576 }') | $(awk -v b="$tbl" 'BEGIN { printf "%.1f", b / 1048576 }') | $lp | $dens |"
done < <(tail -n +2 "$SC_GROWN")

sc_val() { # PHASE KEY COLUMN: a figure of scale.csv
	awk -F, -v p="$1" -v k="$2" -v c="$3" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$1 == p && $2 == k { print $col[c] }' "$SC_CSV"
}
sc_paired() { # PHASE KEY BASE: "median (min-max)" over the rounds of KEY's rows/s / BASE's
	awk -F, -v p="$1" -v a="$2" -v b="$3" '$1 == p && $3 == a { x[$2] = $4 / $5 } $1 == p && $3 == b { y[$2] = $4 / $5 }
		END { for (r in x) if (r in y) print x[r] / y[r] }' "$SC_SLICES" | sort -n |
		awk '{ v[NR] = $1 } END { if (NR) printf "%.3f (%.2f-%.2f)", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2, v[1], v[NR] }'
}
sc_ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b == 0) print "n/a"; else printf "%.3f", a / b }'; }
sc_mib() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }
for ((i = 0; i < ${#sc_phases[@]}; i++)); do
	label=${sc_labels[$i]}
	report ""
	report "#### Phase $((i + 1)): shared_buffers ${sc_sb[$i]}, ${sc_rpt[$i]} row(s) per transaction, ${sc_ins[$i]} inserts per key"
	report ""
	report "| key | rows/s | / bigserial, rounds: median (min-max) | / uuid v4, the same | reads/s | read p50 ms | read p99 ms | primary key MiB | / uuid v4 | table MiB | leaf density % | leaf pages added per 10k rows | WAL bytes per 1k rows | WAL records per 1k | full-page images per 1k | index hit % | table hit % | load |"
	report "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
	v4i=$(sc_val "$label" gen_random_uuid index_bytes)
	while IFS=, read -r _ k rps rds p50 p99 idx tbl dens lp10k wb wr wf ih th ld; do
		vb=$(sc_paired "$label" "$k" bigserial)
		report "| $k | $rps | $vb | $(sc_paired "$label" "$k" gen_random_uuid) | $rds | $p50 | $p99 | $(sc_mib "$idx") | $(sc_ratio "$idx" "$v4i") | $(sc_mib "$tbl") | $dens | $lp10k | $wb | $wr | $wf | $ih | $th | $ld |"
		summary "scale_rows_${k}_$label" "at scale, $label: \`$k\` rows/s (/ bigserial)" "$rps (${vb}x)"
		summary "scale_index_${k}_$label" "at scale, $label: \`$k\` primary key MiB, leaf density %" "$(sc_mib "$idx"), $dens"
	done < <(awk -F, -v p="$label" '$1 == p' "$SC_CSV")
	report ""
	report "| goal ($label) | value | verdict |"
	report "|---|---:|---|"
	for k in $SC_OURS; do
		[ -n "$(sc_val "$label" "$k" rows_per_s)" ] || continue
		vb=$(sc_paired "$label" "$k" bigserial)
		v4=$(sc_paired "$label" "$k" gen_random_uuid)
		target "\`$k\` rows/s / bigserial's, median of the rounds ${vb#* }" "${vb%% *}" -0.95
		target "\`$k\` rows/s / uuid v4's, median of the rounds ${v4#* }" "${v4%% *}" -1.25
		target "\`$k\` primary key / uuid v4's" "$(sc_ratio "$(sc_val "$label" "$k" index_bytes)" "$v4i")" 0.85
	done
done

command -v gnuplot >/dev/null || return 0
sc_h() { awk -v n="$1" 'BEGIN { if (n >= 1e6 && n % 1e6 == 0) printf "%dM", n / 1e6; else if (n >= 1e3 && n % 1e3 == 0) printf "%dk", n / 1e3; else print n }'; }
for ((i = 0; i < ${#sc_phases[@]}; i++)); do
	label=${sc_labels[$i]}
	plot=""
	for k in "${sc_names[@]}"; do
		# means over 5 seconds
		awk -F, -v p="$label" -v k="$k" '$1 == p && $2 == k { b = int($3 / 5); s[b] += $4; n[b]++ }
			END { for (b in s) print b * 5 + 2.5, s[b] / n[b] }' "$SC_RATE" | sort -n >"$sc_dir/$label.$k.plot"
		plot+="'$sc_dir/$label.$k.plot' using 1:2 with linespoints lw 2 title '$k', "
	done
	gnuplot 2>>"$sc_dir/gnuplot.log" <<GP
set terminal pngcairo size 900,480 noenhanced
set output '$BENCH_OUT/scale_rate_$label.png'
set title '$(sc_h "${sc_ins[$i]}") inserts into $(sc_h "$SC_ROWS")+ rows: $SC_SESS sessions, ${sc_rpt[$i]} row(s) per transaction, shared_buffers ${sc_sb[$i]}'
set xlabel 'seconds of inserting ($SC_ROUNDS slices end to end; means over 5 s)'
set ylabel 'rows per second'
set yrange [0:*]
set key outside bottom center horizontal
set grid
plot ${plot%, }
GP
	report ""
	report "![Inserts per second, $label](scale_rate_$label.png)"
done
# primary key MiB per key: grown, then after each phase
for k in "${sc_names[@]}"; do
	line="$k $(awk -F, -v k="$k" '$1 == k { printf "%.1f", $4 / 1048576 }' "$SC_GROWN")"
	for label in "${sc_labels[@]}"; do line+=" $(sc_mib "$(sc_val "$label" "$k" index_bytes)")"; done
	echo "$line"
done >"$BENCH_OUT/scale_index.dat"
plot="'$BENCH_OUT/scale_index.dat' using 2:xtic(1) title 'grown ($(sc_h "$SC_ROWS") rows)'"
for ((i = 0; i < ${#sc_labels[@]}; i++)); do plot+=", '' using $((i + 3)) title 'after phase $((i + 1)) (${sc_labels[$i]})'"; done
gnuplot 2>>"$sc_dir/gnuplot.log" <<GP
set terminal pngcairo size 900,480 noenhanced
set output '$BENCH_OUT/scale_index.png'
set title 'Primary key size: $(sc_h "$SC_ROWS") rows grown, then the inserts of each phase from $SC_SESS sessions'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set ylabel 'MiB'
set yrange [0:*]
set xtics rotate by -20
set key outside bottom center horizontal
set grid ytics
plot $plot
GP
report ""
report "![Primary key size per key](scale_index.png)"
