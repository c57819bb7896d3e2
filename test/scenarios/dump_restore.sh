#!/usr/bin/env bash
# Dump and restore of a database that uses ulid.
#
# A source server holds a database with ulid columns (a ulid[] and a column
# generated from ulid_time(id) among them), DEFAULT gen_ulid() and
# gen_random_ulid(), an index of every opclass (btree, hash, BRIN minmax,
# minmax_multi and bloom), a hash-partitioned and a range-partitioned table,
# a check constraint and a view over ulid operators.  It is dumped with
# pg_dump in plain and custom format, and restored with psql and pg_restore
# (two jobs) into databases of a second, fresh server.  Each restored
# database must have: the same rows in every table and partition (count and
# md5 of the rows in id order), the same definitions (defaults, constraints,
# indexes, partition bounds, views), valid indexes that the planner uses
# and that return what a sequential scan returns, and working defaults.
#
# Every table of the database has an id column; the checks find the tables
# from the catalog, so a table added to the source is compared too.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

SRC=dr_src
DST=dr_dst
DB=shop
DUMPS=$ULID_WORK/dump_restore
mkdir -p "$DUMPS"

# sql SERVER DB [psql args...]
sql() {
	local server=$1 db=$2
	shift 2
	ULID_DB=$db psqlx "$server" "$@"
}

# conninfo SERVER: connection options for pg_dump, pg_restore and createdb
conninfo() {
	echo -h "$ULID_WORK/sock" -p "$(pg_port "$1")" -U postgres
}

# create_ulid_schema: the ulid tables of the source database, with data
create_ulid_schema() {
	sql $SRC $DB <<'SQL'
CREATE EXTENSION ulid;

-- btree primary key, a hash index, defaults of both generators, an array,
-- a generated column and a check constraint
CREATE TABLE orders (
    id ulid PRIMARY KEY DEFAULT gen_ulid(),
    ref ulid NOT NULL DEFAULT gen_random_ulid(),
    related ulid[],
    placed_at timestamptz GENERATED ALWAYS AS (ulid_time(id)) STORED,
    note text,
    CHECK (id >= ulid_lower('2020-01-01Z'))
);
CREATE INDEX orders_ref_hash ON orders USING hash (ref);
INSERT INTO orders (id, note, related)
SELECT gen_ulid(now() - g * interval '1 minute'), 'order ' || g,
       ARRAY[gen_random_ulid(), gen_random_ulid()]
FROM generate_series(1, 3000) g;

CREATE VIEW orders_this_year AS
SELECT id, placed_at FROM orders WHERE id >= ulid_lower(date_trunc('year', now()));

-- one column per BRIN opclass
CREATE TABLE readings (
    id ulid PRIMARY KEY DEFAULT gen_ulid(),
    mm ulid, mmm ulid, bl ulid, v int
);
CREATE INDEX readings_mm ON readings USING brin (mm) WITH (pages_per_range = 4);
CREATE INDEX readings_mmm ON readings USING brin (mmm ulid_minmax_multi_ops) WITH (pages_per_range = 4);
CREATE INDEX readings_bl ON readings USING brin (bl ulid_bloom_ops) WITH (pages_per_range = 4);
INSERT INTO readings (mm, mmm, bl, v)
SELECT gen_ulid(timestamptz '2026-01-01Z' + g * interval '1 s'),
       gen_ulid(timestamptz '2026-01-01Z' + g * interval '1 s'),
       gen_ulid(timestamptz '2026-01-01Z' + g * interval '1 s'), g
FROM generate_series(1, 10000) g;

-- hash partitions
CREATE TABLE accounts (id ulid PRIMARY KEY DEFAULT gen_ulid(), name text)
    PARTITION BY HASH (id);
CREATE TABLE accounts_0 PARTITION OF accounts FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TABLE accounts_1 PARTITION OF accounts FOR VALUES WITH (MODULUS 4, REMAINDER 1);
CREATE TABLE accounts_2 PARTITION OF accounts FOR VALUES WITH (MODULUS 4, REMAINDER 2);
CREATE TABLE accounts_3 PARTITION OF accounts FOR VALUES WITH (MODULUS 4, REMAINDER 3);
INSERT INTO accounts (name) SELECT 'account ' || g FROM generate_series(1, 2000) g;

-- range partitions around now, and a default one
CREATE TABLE events (id ulid NOT NULL DEFAULT gen_ulid(), kind text)
    PARTITION BY RANGE (id);
CREATE TABLE events_past PARTITION OF events
    FOR VALUES FROM (MINVALUE) TO (ulid_lower(now() - interval '30 days'));
CREATE TABLE events_recent PARTITION OF events
    FOR VALUES FROM (ulid_lower(now() - interval '30 days')) TO (ulid_lower(now() + interval '30 days'));
CREATE TABLE events_default PARTITION OF events DEFAULT;
CREATE INDEX ON events (id);
INSERT INTO events
SELECT gen_ulid(now() - g * interval '1 hour'), 'hourly' FROM generate_series(0, 1500) g;
INSERT INTO events
SELECT gen_ulid(now() + g * interval '1 day'), 'scheduled' FROM generate_series(40, 45) g;
ANALYZE;
SQL
}

# fingerprint SERVER DB: "table rows md5" for every table (partitions
# included), the rows as text in id order
fingerprint() {
	sql "$1" "$2" <<'SQL'
SELECT format('SELECT %L, count(*), md5(coalesce(string_agg(t::text, %L ORDER BY t.id), %L)) FROM %s t',
              c.oid::regclass, E'\n', '', c.oid::regclass)
FROM pg_class c
WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r'
ORDER BY 1 \gexec
SQL
}

# definitions SERVER DB: what the dump must carry over, one line each
definitions() {
	sql "$1" "$2" <<'SQL'
SELECT format('default %s.%s %s', a.attrelid::regclass, a.attname, pg_get_expr(d.adbin, d.adrelid))
FROM pg_attrdef d JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum
UNION ALL
SELECT format('constraint %s %s', conrelid::regclass, pg_get_constraintdef(oid))
FROM pg_constraint WHERE connamespace = 'public'::regnamespace
UNION ALL
SELECT format('index %s', indexdef) FROM pg_indexes WHERE schemaname = 'public'
UNION ALL
SELECT format('partition %s %s', oid::regclass, pg_get_expr(relpartbound, oid))
FROM pg_class WHERE relispartition AND relkind = 'r'
UNION ALL
SELECT format('view %s %s', viewname, definition) FROM pg_views WHERE schemaname = 'public'
ORDER BY 1;
SQL
}

# check_same_data LABEL DB: every table holds the source's rows
check_same_data() {
	local label=$1 db=$2 line table src_line restored
	restored=$(fingerprint $DST "$db")
	while IFS= read -r src_line; do
		table=${src_line%%|*}
		line=$(grep "^$table|" <<<"$restored")
		check "$label: table $table has the same rows (${src_line#*|})" "$src_line" "$line"
	done <<<"$SOURCE_FINGERPRINT"
	check "$label: no other table" "$(wc -l <<<"$SOURCE_FINGERPRINT")" "$(wc -l <<<"$restored")"
}

# check_same_definitions LABEL DB
check_same_definitions() {
	local label=$1 db=$2 restored
	restored=$(definitions $DST "$db")
	check_same "$label: the same $(wc -l <<<"$SOURCE_DEFINITIONS") defaults, constraints, indexes, partition bounds and views" \
		"$SOURCE_DEFINITIONS" "$restored"
	check "$label: every index is valid and ready" "0" \
		"$(sql $DST "$db" -c "SELECT count(*) FROM pg_index WHERE NOT (indisvalid AND indisready)")"
}

# check_index_use LABEL DB INDEX QUERY: with sequential scans disabled the
# plan of QUERY (a count) uses INDEX, and the count is the one a sequential
# scan gives
check_index_use() {
	local label=$1 db=$2 index=$3 query=$4 plan by_index by_seqscan
	plan=$(PGOPTIONS='-c enable_seqscan=off' sql $DST "$db" -c "EXPLAIN (COSTS OFF) $query")
	by_index=$(PGOPTIONS='-c enable_seqscan=off' sql $DST "$db" -c "$query")
	by_seqscan=$(PGOPTIONS='-c enable_indexscan=off -c enable_bitmapscan=off' sql $DST "$db" -c "$query")
	if grep -q " on $index\b\| using $index\b" <<<"$plan" && [ "$by_index" == "$by_seqscan" ] && [ "$by_index" -gt 0 ]; then
		ok "$label: $index is used and finds the $by_index rows a sequential scan finds"
	else
		not_ok "$label: $index (index: '$by_index' rows, sequential scan: '$by_seqscan')"
		sed 's/^/# /' <<<"$plan"
	fi
}

# check_ulid_indexes LABEL DB: one query per index of the ulid tables
check_ulid_indexes() {
	local label=$1 db=$2 id ref r mm mmm bl
	id=$(sql $DST "$db" -c "SELECT id FROM orders ORDER BY note LIMIT 1")
	ref=$(sql $DST "$db" -c "SELECT ref FROM orders ORDER BY note LIMIT 1")
	r=$(sql $DST "$db" -c "SELECT mm || ' ' || mmm || ' ' || bl FROM readings WHERE v = 5000")
	read -r mm mmm bl <<<"$r"
	check_index_use "$label" "$db" orders_pkey "SELECT count(*) FROM orders WHERE id = '$id'"
	check_index_use "$label" "$db" orders_ref_hash "SELECT count(*) FROM orders WHERE ref = '$ref'"
	check_index_use "$label" "$db" readings_mm "SELECT count(*) FROM readings WHERE mm >= '$mm'"
	check_index_use "$label" "$db" readings_mmm "SELECT count(*) FROM readings WHERE mmm < '$mmm'"
	check_index_use "$label" "$db" readings_bl "SELECT count(*) FROM readings WHERE bl = '$bl'"
	check_index_use "$label" "$db" accounts_1_pkey \
		"SELECT count(*) FROM accounts WHERE id = '$(sql $DST "$db" -c "SELECT id FROM accounts_1 LIMIT 1")'"
	check_index_use "$label" "$db" events_recent_id_idx \
		"SELECT count(*) FROM events WHERE id >= ulid_lower(now() - interval '1 day')"
}

# check_ulid_defaults LABEL DB: the gen_ulid() and gen_random_ulid()
# defaults work after the restore, and new rows land where they belong
check_ulid_defaults() {
	local label=$1 db=$2
	check "$label: a new order gets a current ULID above every restored one, a ref and its placed_at" "t" \
		"$(sql $DST "$db" <<'SQL'
WITH before AS (SELECT max(id) AS m FROM orders),
     o AS (INSERT INTO orders (note) VALUES ('after restore') RETURNING id, ref, placed_at)
SELECT o.id > before.m AND o.ref IS NOT NULL AND o.placed_at = ulid_time(o.id)
       AND ulid_time(o.id) BETWEEN now() - interval '1 minute' AND clock_timestamp()
FROM o, before;
SQL
)"
	check "$label: new rows of the hash-partitioned table get ids and the right partition" "t" \
		"$(sql $DST "$db" <<'SQL'
INSERT INTO accounts (name) SELECT 'new ' || g FROM generate_series(1, 100) g;
SELECT count(*) = 100 FROM accounts
WHERE name LIKE 'new %'
  AND satisfies_hash_partition('accounts'::regclass, 4, right(tableoid::regclass::text, 1)::int, id);
SQL
)"
	check "$label: a new event lands in the partition of now" "events_recent" \
		"$(sql $DST "$db" -c "INSERT INTO events (kind) VALUES ('after restore') RETURNING tableoid::regclass")"
	check "$label: a new reading gets an id" "t" \
		"$(sql $DST "$db" -c "INSERT INTO readings (v) VALUES (0) RETURNING id IS NOT NULL")"
}

# check_restored LABEL DB: everything a restored database must have
check_restored() {
	check_same_data "$@"
	check_same_definitions "$@"
	check_ulid_indexes "$@"
	check_ulid_defaults "$@"
}

# --- the source -------------------------------------------------------------
for s in $SRC $DST; do
	if ! pg_new "$s" || ! pg_start "$s"; then
		not_ok "dump_restore: server $s starts"
		exit 1
	fi
done
# shellcheck disable=SC2046
"$PG_BIN/createdb" $(conninfo $SRC) $DB
create_ulid_schema
SOURCE_FINGERPRINT=$(fingerprint $SRC $DB)
SOURCE_DEFINITIONS=$(definitions $SRC $DB)
echo "# source: $(wc -l <<<"$SOURCE_FINGERPRINT") tables, $(wc -l <<<"$SOURCE_DEFINITIONS") definitions"

# --- dump -------------------------------------------------------------------
# shellcheck disable=SC2046
check_cmd "pg_dump, plain format" "$PG_BIN/pg_dump" $(conninfo $SRC) -Fp -f "$DUMPS/shop.sql" $DB
# shellcheck disable=SC2046
check_cmd "pg_dump, custom format" "$PG_BIN/pg_dump" $(conninfo $SRC) -Fc -f "$DUMPS/shop.dump" $DB
check "the dump creates the extension" "1" \
	"$(grep -c '^CREATE EXTENSION IF NOT EXISTS ulid WITH SCHEMA public;$' "$DUMPS/shop.sql")"
check "the dump creates none of the extension's objects itself" "0" \
	"$(grep -Ec '^CREATE (TYPE|FUNCTION|OPERATOR|CAST|AGGREGATE)' "$DUMPS/shop.sql")"

# --- restore and compare ----------------------------------------------------
# shellcheck disable=SC2046
"$PG_BIN/createdb" $(conninfo $DST) shop_plain
check_cmd "psql restores the plain dump without an error" \
	sql $DST shop_plain -v ON_ERROR_STOP=1 -f "$DUMPS/shop.sql" -o /dev/null
check_restored "plain dump restored by psql" shop_plain

# shellcheck disable=SC2046
"$PG_BIN/createdb" $(conninfo $DST) shop_custom
# shellcheck disable=SC2046
check_cmd "pg_restore (2 jobs) restores the custom dump without an error" \
	"$PG_BIN/pg_restore" $(conninfo $DST) --exit-on-error -j 2 -d shop_custom "$DUMPS/shop.dump"
check_restored "custom dump restored by pg_restore" shop_custom

pg_stop $SRC
pg_stop $DST
