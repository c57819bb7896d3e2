#!/usr/bin/env bash
# ulid's benchmarks: one throwaway server, every test/bench/bench_*.sh in
# order, ratios against PostgreSQL's own functions measured in the same
# server in the same run.  Times are medians of alternating rounds with the
# loop overhead subtracted; nothing here asserts a timing.  The instructions
# section (bench_15_instructions.sh) counts instructions per call with
# callgrind in a single-user backend of a scratch cluster of its own; it
# fails when a function got no count.
#
#   test/bench/run.sh              default size (about 20 minutes)
#   ULID_BENCH_QUICK=1 test/bench/run.sh   small sizes, proves the scripts work
#   ULID_BENCH_ONLY="generators ulid_type" ...   only those bench_NN_<name>.sh
#                                  (ulid_type's ratio table needs generators)
#   ULID_BENCH_CG_N, ULID_BENCH_CG_ONLY   calls per function and functions
#                                  of the instructions section
#   ULID_BENCH_PG=18 test/bench/run.sh   the same on PostgreSQL 18: Debian's
#                                  binary packages from sid (no assertions,
#                                  OpenSSL), in test/compat.sh's chroot
#                                  (made on first use; as root); the report
#                                  goes to test/bench/results/pg18/
#
# The Markdown report goes to test/bench/results/report.md (or
# $ULID_BENCH_OUT/report.md), the key figures also to summary.csv, which
# test/bench/side_by_side.sh puts side by side for two runs.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ -n "${ULID_BENCH_PG:-}" ] && [ "$ULID_BENCH_PG" != 15 ]; then
	exec "$here/../compat.sh" --bench "$ULID_BENCH_PG"
fi
# shellcheck source=../lib.sh
source "$here/../lib.sh"
# shellcheck source=lib.sh
source "$here/lib.sh"

if [ -n "${ULID_BENCH_QUICK:-}" ]; then
	: "${ULID_BENCH_N:=100000}" "${ULID_BENCH_REPS:=3}"
else
	: "${ULID_BENCH_N:=1000000}" "${ULID_BENCH_REPS:=7}"
fi
export ULID_BENCH_N ULID_BENCH_REPS
BENCH_OUT=${ULID_BENCH_OUT:-$here/results}
mkdir -p "$BENCH_OUT"
BENCH_REPORT=$BENCH_OUT/report.md
: >"$BENCH_REPORT"
: >"$BENCH_OUT/summary.tsv"

harness_attach
pg_new bench "shared_buffers = '1GB'" "max_wal_size = '8GB'" "checkpoint_timeout = '30min'" \
	"autovacuum = off" "jit = off" "fsync = on" "ulid.node_id = 1" "ulid.node_ids = '0'"
pg_start bench
psqlx bench -c "CREATE EXTENSION ulid" -c "CREATE EXTENSION \"uuid-ossp\"" -c "$BENCH_SQL_SETUP" >/dev/null

report "# ulid benchmark report"
report ""
report "- when: $(date -u '+%Y-%m-%d %H:%M UTC'); server: $("$PG_BIN/postgres" -V)"
summary server "server" "$("$PG_BIN/postgres" -V | sed 's/^postgres (PostgreSQL) //')"
summary when "run (UTC)" "$(date -u '+%Y-%m-%d %H:%M')"
report "- machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(sed -n 's/^model name\t: //p' /proc/cpuinfo | head -1)"
report "- sizes: N = $ULID_BENCH_N values per query, $ULID_BENCH_REPS measured rounds (plus a warm-up), order rotated every round"

for b in "$here"/bench_*.sh; do
	name=$(basename "$b" .sh)
	name=${name#bench_[0-9][0-9]_}
	if [ -n "${ULID_BENCH_ONLY:-}" ] && [[ " $ULID_BENCH_ONLY " != *" $name "* ]]; then
		continue
	fi
	# shellcheck source=/dev/null
	source "$b" || {
		echo "bench: $b failed" >&2
		exit 1
	}
done
echo
echo "report: $BENCH_REPORT"
