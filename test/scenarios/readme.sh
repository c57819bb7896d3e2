#!/usr/bin/env bash
# The README's SQL examples: test/readme/check.py runs every ```sql block
# (and every "=# " psql transcript) of README.md on a throwaway server and
# compares the output the README shows; one result per block, skipped blocks
# are listed with their reason.  The convention is at the top of check.py.
# Then the checker itself: on test/readme/selftest.md it must pass, fail and
# skip each block as the block's "<!-- expect: ... -->" comment says.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

S=readme
# ulid.node_id = 7: the node the README's Snowflake examples show;
# ulid.node_ids = '0-8191': the nodes its explicit-node examples mint on
# (README "Node identity": Instagram's logical shards)
if ! pg_new $S "ulid.node_id = 7" "ulid.node_ids = '0-8191'" || ! pg_start $S; then
	not_ok "readme: server starts"
	exit 1
fi
check=$ULID_ROOT/test/readme/check.py
run_check() {
	timeout 300 python3 "$check" --psql "$PG_BIN/psql" --host "$ULID_WORK/sock" --port "$(pg_port $S)" "$1" 2>&1
}

# README.md first, on a fresh server: its examples see the shared generator
# state a reader's new server has
out=$(run_check "$ULID_ROOT/README.md")
rc=$?
while IFS= read -r line; do
	case $line in
	"ok - "*) ok "${line#ok - }" ;;
	"not ok - "*) not_ok "${line#not ok - }" ;;
	"#"*) echo "$line" ;;
	*) echo "# $line" ;;
	esac
done <<<"$out"
grep -qE '^(ok|not ok) - ' <<<"$out" || not_ok "readme: the checker ran no block (status $rc)"
[ $rc -le 1 ] || not_ok "readme: the checker exited with status $rc"

fixture=$ULID_ROOT/test/readme/selftest.md
want=$(awk '/^<!-- expect: .* -->$/ { e = $3; if ($4 == "ok") e = "not ok"; next }
	/^```/ && e != "" { print e, NR + 0; e = "" }' "$fixture")
self=$(run_check "$fixture")
got=$(sed -nE 's/^(ok|not ok) - readme: block at selftest\.md:([0-9]+) .*/\1 \2/p;
	s/^# (skip) - readme: block at selftest\.md:([0-9]+):.*/\1 \2/p' <<<"$self")
check_same "readme: the checker passes, fails and skips each block of test/readme/selftest.md as it expects" "$want" "$got"
[ "$want" == "$got" ] || sed 's/^/# /' <<<"$self"
pg_stop $S
