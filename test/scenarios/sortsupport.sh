#!/usr/bin/env bash
# ulid's own sortsupport (issue 25), seen through trace_sort: the opclass
# switches from core's uuid_sortsupport to ulid's on ALTER EXTENSION ulid
# UPDATE; fresh ids keep abbreviation (their keys vary), keys that do not
# vary abandon it (HyperLogLog estimate below one distinct key per 2,000
# values), and both sorts give byte order.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

S=sortsupport
if ! pg_new $S || ! pg_start $S; then
	not_ok "sortsupport: server starts"
	exit 1
fi
psqlx $S -c "CREATE EXTENSION ulid VERSION '1.0'" >/dev/null
psqlx $S >/dev/null <<'EOF_SQL'
CREATE TABLE fresh AS SELECT gen_ulid() AS id FROM generate_series(1, 200000) ORDER BY random();
-- 50,000 ids of one millisecond that share the first 9 bytes: one key
CREATE TABLE same AS
SELECT ulid_from_parts(1790000000000, decode('abcdef' || substr(md5(g::text), 1, 14), 'hex')) AS id
FROM generate_series(1, 50000) g;
EOF_SQL

# trace_sort's LOG lines of one sort, and whether it gave byte order
sort_trace() {
	psqlx $S 2>&1 <<EOF_SQL
SET client_min_messages = log;
SET trace_sort = on;
SET work_mem = '256MB';
SELECT array_agg(id ORDER BY id) = array_agg(id ORDER BY id::bytea) AS byte_order FROM $1;
EOF_SQL
}

# expect DESCRIPTION OUTPUT PATTERN [ABSENT]: PATTERN in OUTPUT, ABSENT not
expect() {
	if grep -q "$3" <<<"$2" && { [ -z "${4:-}" ] || ! grep -q "$4" <<<"$2"; }; then
		ok "sortsupport: $1"
	else
		not_ok "sortsupport: $1"
		grep abbrev <<<"$2"
	fi
}

out=$(sort_trace fresh)
expect "1.0 sorts with core's uuid_sortsupport" "$out" 'uuid_abbrev: ' 'ulid_abbrev'
psqlx $S -c "ALTER EXTENSION ulid UPDATE" >/dev/null
out=$(sort_trace fresh)
expect "after the update, fresh ids sort with ulid's abbreviated keys, kept" "$out" \
	'ulid_abbrev: estimation ends' 'uuid_abbrev\|ulid_abbrev: aborting'
check "sortsupport: fresh ids in byte order" 1 "$(grep -c '^t$' <<<"$out")"
out=$(sort_trace same)
expect "keys that do not vary abandon abbreviation" "$out" 'ulid_abbrev: aborting abbreviation'
check "sortsupport: after abandoning, byte order" 1 "$(grep -c '^t$' <<<"$out")"

# an index build sorts with it too
out=$(psqlx $S 2>&1 -c "SET client_min_messages = log" -c "SET trace_sort = on" \
	-c "SET max_parallel_maintenance_workers = 0" -c "SET maintenance_work_mem = '256MB'" \
	-c "CREATE INDEX ON fresh (id)" -c "SET enable_seqscan = off" \
	-c "SELECT array_agg(id) = (SELECT array_agg(id ORDER BY id::bytea) FROM fresh) FROM (SELECT id FROM fresh ORDER BY id) s")
expect "CREATE INDEX uses ulid's keys" "$out" 'ulid_abbrev: estimation ends'
check "sortsupport: the index is in byte order" t "$(tail -1 <<<"$out")"

pg_stop $S
