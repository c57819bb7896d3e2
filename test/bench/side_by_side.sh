#!/usr/bin/env bash
# Two benchmark runs side by side: the key figures (summary.tsv) of each
# run's results directory as one Markdown table, a row per figure, in the
# second run's order (figures only the first run has come last).
#
#   test/bench/side_by_side.sh test/bench/results test/bench/results/pg18 >side-by-side.md
#
# Column titles are the runs' servers ("15.20", "18.1 ..."); a figure one
# run lacks (core uuidv7() before 18) shows as "-".
set -euo pipefail
[ $# -eq 2 ] || {
	echo "usage: $0 RESULTS_DIR_A RESULTS_DIR_B" >&2
	exit 2
}
for d in "$@"; do
	[ -s "$d/summary.tsv" ] || {
		echo "side_by_side: no $d/summary.tsv (run test/bench/run.sh with ULID_BENCH_OUT=$d)" >&2
		exit 1
	}
done
awk -F'\t' '
	FNR == 1 { f++ }
	{
		if (!(($1) in label)) { label[$1] = $2 }
		val[f, $1] = $3
		if (f == 1) { a[++na] = $1 } else { b[++nb] = $1; inb[$1] = 1 }
	}
	END {
		printf "| figure | PostgreSQL %s | PostgreSQL %s |\n", val[1, "server"], val[2, "server"]
		print "|---|---:|---:|"
		for (i = 1; i <= nb; i++) row(b[i])
		for (i = 1; i <= na; i++) if (!(a[i] in inb)) row(a[i])
	}
	function row(k) {
		if (k == "server") return
		printf "| %s | %s | %s |\n", label[k], ((1, k) in val) ? val[1, k] : "-", ((2, k) in val) ? val[2, k] : "-"
	}' "$1/summary.tsv" "$2/summary.tsv"
