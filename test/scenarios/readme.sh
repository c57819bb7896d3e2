#!/usr/bin/env bash
# The README's SQL examples: test/readme/check.py runs every ```sql block
# (and every "=# " psql transcript) of README.md on a throwaway server and
# compares the output the README shows; one result per block, skipped blocks
# are listed with their reason.  The convention is at the top of check.py.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

S=readme
# ulid.node_id = 7: the node the README's Snowflake examples show
if ! pg_new $S "ulid.node_id = 7" || ! pg_start $S; then
	not_ok "readme: server starts"
	exit 1
fi
out=$ULID_WORK/readme-check.out
timeout 300 python3 "$ULID_ROOT/test/readme/check.py" --psql "$PG_BIN/psql" \
	--host "$ULID_WORK/sock" --port "$(pg_port $S)" "$ULID_ROOT/README.md" >"$out" 2>&1
rc=$?
while IFS= read -r line; do
	case $line in
	"ok - "*) ok "${line#ok - }" ;;
	"not ok - "*) not_ok "${line#not ok - }" ;;
	"#"*) echo "$line" ;;
	*) echo "# $line" ;;
	esac
done <"$out"
grep -qE '^(ok|not ok) - ' "$out" || not_ok "readme: the checker ran no block (status $rc)"
[ $rc -le 1 ] || not_ok "readme: the checker exited with status $rc"
pg_stop $S
