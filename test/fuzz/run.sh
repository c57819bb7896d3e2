#!/usr/bin/env bash
# Build and run every libFuzzer target test/fuzz/fuzz_*.c against the pure-C
# core (src/core) with AddressSanitizer and UBSan, each for a bounded time
# (ULID_FUZZ_SECONDS, default 15), starting from its committed seed corpus
# test/fuzz/corpus/<name>/ (copied, so the committed corpus is not changed).
# Prints one ok / not ok line per target, with the executions it ran.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=../lib.sh
source "$root/test/lib.sh"
secs=${ULID_FUZZ_SECONDS:-15}
work=$(mktemp -d /tmp/ulid-fuzz.XXXXXX)
trap 'rm -rf "$work"' EXIT

for src in "$here"/fuzz_*.c; do
	[ -e "$src" ] || continue
	name=$(basename "$src" .c)
	bin=$work/$name
	if ! clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-I"$root/src/core" -o "$bin" "$src" "$root"/src/core/*.c 2>"$bin.log"; then
		cat "$bin.log"
		not_ok "fuzzer $name builds"
		continue
	fi
	mkdir -p "$work/corpus-$name" "$work/artifacts-$name"
	[ -d "$here/corpus/$name" ] && cp -a "$here/corpus/$name/." "$work/corpus-$name/"
	"$bin" -max_total_time="$secs" -print_final_stats=1 -timeout=10 -rss_limit_mb=1024 \
		-artifact_prefix="$work/artifacts-$name/" "$work/corpus-$name" >"$bin.out" 2>&1
	rc=$?
	execs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+).*/\1/p' "$bin.out" | tail -1)
	if [ $rc -eq 0 ] && [ -z "$(ls -A "$work/artifacts-$name")" ]; then
		ok "fuzzer $name: ${execs:-0} executions in ${secs}s, no finding"
	else
		tail -40 "$bin.out"
		not_ok "fuzzer $name found a failure (exit $rc); artifacts: $(ls "$work/artifacts-$name")"
	fi
done
