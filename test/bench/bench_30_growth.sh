# The insert path as the table grows: for every key type, insert
# ULID_BENCH_GROWTH_ROWS rows (10M; 1M in quick mode) in batches into a fresh
# table and record rows/s per batch, the final primary-key size and the WAL
# written.  Writes growth.csv and sizes.csv and, with gnuplot, growth.png
# (rows/s against rows in the table) and sizes.png (index bytes and WAL bytes
# per row).  Sourced by test/bench/run.sh.
if [ -n "${ULID_BENCH_QUICK:-}" ]; then
	: "${ULID_BENCH_GROWTH_ROWS:=1000000}"
else
	: "${ULID_BENCH_GROWTH_ROWS:=10000000}"
fi
batches=20
batch=$((ULID_BENCH_GROWTH_ROWS / batches))

report ""
report "## Inserting as the table grows ($ULID_BENCH_GROWTH_ROWS rows in $batches batches of $batch)"
echo "key,rows,rows_per_s" >"$BENCH_OUT/growth.csv"
echo "key,index_bytes_per_row,wal_bytes_per_row,total_s" >"$BENCH_OUT/sizes.csv"
report ""
report "| key | total s | rows/s first batch | rows/s last batch | pkey MiB | pkey bytes/row | WAL bytes/row |"
report "|---|---:|---:|---:|---:|---:|---:|"
for key in $(key_names); do
	key_table "$key"
	bench_psql -q -c "CHECKPOINT" >/dev/null
	lsn0=$(bench_psql -c "SELECT pg_current_wal_lsn()" | tail -1)
	total_ms=0
	first=""
	for b in $(seq 1 $batches); do
		ms=$(bench_psql -c '\timing on' -c "INSERT INTO k_$key (payload) SELECT 1 FROM generate_series(1, $batch)" |
			sed -nE 's/^Time: ([0-9.]+) ms.*/\1/p')
		rps=$(awk -v n="$batch" -v ms="$ms" 'BEGIN { printf "%.0f", n / (ms / 1000) }')
		[ -n "$first" ] || first=$rps
		total_ms=$(awk -v a="$total_ms" -v b="$ms" 'BEGIN { print a + b }')
		echo "$key,$((b * batch)),$rps" >>"$BENCH_OUT/growth.csv"
	done
	read -r idx wal < <(bench_psql -F ' ' -c "SELECT pg_relation_size('k_${key}_pkey'),
		pg_wal_lsn_diff(pg_current_wal_lsn(), '$lsn0')" | tail -1)
	idx_row=$(awk -v a="$idx" -v n="$ULID_BENCH_GROWTH_ROWS" 'BEGIN { printf "%.1f", a / n }')
	wal_row=$(awk -v a="$wal" -v n="$ULID_BENCH_GROWTH_ROWS" 'BEGIN { printf "%.1f", a / n }')
	total_s=$(awk -v a="$total_ms" 'BEGIN { printf "%.1f", a / 1000 }')
	echo "$key,$idx_row,$wal_row,$total_s" >>"$BENCH_OUT/sizes.csv"
	report "| $key | $total_s | $first | $rps | $((idx / 1048576)) | $idx_row | $wal_row |"
	bench_psql -q -c "DROP TABLE k_$key" >/dev/null
done

if command -v gnuplot >/dev/null; then
	plot_lines=""
	for key in $(key_names); do
		plot_lines+="'< grep ^$key, $BENCH_OUT/growth.csv' using 2:3 with linespoints title '$key', "
	done
	gnuplot <<GP
set terminal pngcairo size 900,500 noenhanced
set yrange [0:*]
set output '$BENCH_OUT/growth.png'
set datafile separator ','
set title 'INSERT rate as the table grows ($batch rows per batch, one session)'
set xlabel 'rows in the table'
set ylabel 'rows per second'
set format x '%.0s%c'
set key outside right
set grid
plot ${plot_lines%, }
GP
	gnuplot <<GP
set terminal pngcairo size 900,450 noenhanced
set yrange [0:*]
set output '$BENCH_OUT/sizes.png'
set datafile separator ','
set title 'Bytes per row after $ULID_BENCH_GROWTH_ROWS rows'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set ylabel 'bytes per row'
set xtics rotate by -20
set key top left
set grid ytics
plot '$BENCH_OUT/sizes.csv' every ::1 using 2:xtic(1) title 'primary key index', '' every ::1 using 3 title 'WAL'
GP
	report ""
	report "![INSERT rate as the table grows](growth.png)"
	report "![Index and WAL bytes per row](sizes.png)"
fi
