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
# The generators' part: both servers have ulid.node_id = 4; tables keyed by
# DEFAULT gen_monotonic_ulid() and DEFAULT snowflake_next('twitter'), and a
# table of snowflake_layout values (presets and custom layouts, with a
# btree and a hash index) whose binary images must match.  On the target,
# with its clock set 30 s behind the newest restored id: without the
# step, both generators issue below the restored ids; after the one call
# ulid_advance_from_tables(), every new id is above them, at once; a table
# converted from random UUIDs (uuid DEFAULT gen_monotonic_ulid()) is
# skipped with a WARNING that names it.
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

-- the generators with state: the server's monotonic order and its node id
CREATE TABLE mono (id ulid PRIMARY KEY DEFAULT gen_monotonic_ulid(), n int);
CREATE TABLE flakes (id bigint PRIMARY KEY DEFAULT snowflake_next('twitter'), n int);
INSERT INTO mono (n) SELECT g FROM generate_series(1, 2000) g;
INSERT INTO flakes (n) SELECT g FROM generate_series(1, 2000) g;
-- a table converted from random UUIDs to a monotonic default: its ids were
-- not made by the generator, and most lie far ahead of the clock
CREATE TABLE conv (id uuid PRIMARY KEY DEFAULT gen_monotonic_ulid(), n int);
INSERT INTO conv SELECT gen_random_uuid(), g FROM generate_series(1, 100) g;

-- layouts of every kind: presets, presets with their own epoch or node
-- bits, custom layouts from the text form and from the constructor
CREATE TABLE layouts (id ulid PRIMARY KEY DEFAULT gen_ulid(), layout snowflake_layout NOT NULL);
CREATE UNIQUE INDEX layouts_layout ON layouts (layout);
CREATE INDEX layouts_layout_hash ON layouts USING hash (layout);
INSERT INTO layouts (layout) VALUES
    ('twitter'), ('discord'), ('instagram'), ('snowflake_ms'), ('snowflake_s'),
    ('js_safe_ms'), ('js_safe_s'),
    ('sonyflake(epoch=2014-09-01T00:00:00.000Z)'), ('scru64(node_bits=8)'),
    (snowflake_layout('scru64', node_bits => 16)),
    (snowflake_layout('snowflake_ms', '2024-01-01Z')),
    ('custom(time=41:ms:2019-12-24T16:00:00.000Z, fields=worker:10, sequence=12, sign=true, sequence_above_node=false, sequence_reset=random)'),
    (snowflake_layout(39, '10ms', '2020-01-01Z', '{"region": 4, "machine": 12}', 8, true, true, 'random')),
    (snowflake_layout(32, 's', '2020-01-01Z', '{"dc": 3, "host": 7}', 20, false, false, 'carry')),
    (snowflake_layout(40, '256ms', '1970-01-01Z', '{"shard": 10}', 13));
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
	check_index_use "$label" "$db" layouts_layout "SELECT count(*) FROM layouts WHERE layout >= 'twitter'"
	check_index_use "$label" "$db" layouts_layout_hash "SELECT count(*) FROM layouts WHERE layout = 'scru64(node_bits=8)'"
}

# layout_images SERVER DB: each layout's binary image, diagram and an id
# packed with it, as one checksum
layout_images() {
	sql "$1" "$2" -c "SELECT count(*), md5(string_agg(concat_ws(' ', snowflake_layout_send(layout),
		snowflake_layout_diagram(layout), snowflake_pack(layout, '2026-01-01Z', 1, 1)), E'\n' ORDER BY id)) FROM layouts"
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
	check "$1: the layouts have the same binary images, diagrams and packed ids" \
		"$(layout_images $SRC $DB)" "$(layout_images $DST "$2")"
}

# --- the source -------------------------------------------------------------
for s in $SRC $DST; do
	if ! pg_new "$s" "ulid.node_id = 4" || ! pg_start "$s"; then
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

# --- the generators after a restore ------------------------------------------
# The target's clock goes 30 s behind the newest restored id (of both
# tables), the same node id.  Nothing on the target has issued a monotonic
# ULID or a Snowflake id yet.
newest_ms=$(sql $DST shop_plain -c "SELECT greatest(ulid_unix_ms(max(id)), (SELECT snowflake_unix_ms(max(id), 'twitter') FROM flakes)) FROM mono")
offset=$((newest_ms - 30000 - $(date +%s%3N)))
sql $DST shop_plain -c "ALTER SYSTEM SET ulid.clock_offset_ms = $offset" -c "SELECT pg_reload_conf()" >/dev/null
offset_set() { [ "$(sql $DST shop_plain -c "SHOW ulid.clock_offset_ms")" == "$offset" ]; }
check_cmd "target: the clock set 30 s behind the newest restored id (ulid.clock_offset_ms = $offset)" wait_until 10 offset_set
check "target: nothing issued yet by gen_monotonic_ulid() or snowflake_next()" 0 \
	"$(sql $DST shop_plain -c "SELECT count(*) FROM ulid_generator_state WHERE issued > 0")"

# without the step: below the restored ids
check "without ulid_advance_from_tables(): a new monotonic ULID and a new node-4 Snowflake id lie below the restored ones" \
	"t|t" "$(sql $DST shop_plain -c "SELECT gen_monotonic_ulid() < (SELECT max(id) FROM mono),
		snowflake_next('twitter') < (SELECT max(id) FROM flakes)")"

# the one call: every generator column advanced, the converted one skipped
# with a WARNING that names it
out=$(sql $DST shop_plain -c "SELECT table_name, column_name, generator, advanced_to IS NOT NULL
	FROM ulid_advance_from_tables() ORDER BY 1" 2>&1)
check_same "ulid_advance_from_tables(): mono and flakes advanced, conv skipped" \
	"conv|id|gen_monotonic_ulid()|f
flakes|id|snowflake_next('twitter', 4)|t
mono|id|gen_monotonic_ulid()|t" "$(grep -v '^WARNING\|^DETAIL\|^HINT' <<<"$out")"
case $out in
*"WARNING:  column public.conv.id skipped: its largest id "*" lies more than a minute ahead of the clock"*) ok "ulid_advance_from_tables(): the converted table's WARNING names it" ;;
*) not_ok "ulid_advance_from_tables(): the converted table's WARNING names it (got: $out)" ;;
esac

# then 1000 new rows in each table, with the clock 30 s behind and the
# default policy: every new id above every restored one, at once
res=$(sql $DST shop_plain <<'SQL'
CREATE TEMP TABLE before AS SELECT (SELECT max(id) FROM mono) AS mono_max, (SELECT max(id) FROM flakes) AS flakes_max;
WITH m AS (INSERT INTO mono (n) SELECT g FROM generate_series(1, 1000) g RETURNING id)
SELECT count(*), min(id) > (SELECT mono_max FROM before) FROM m;
WITH f AS (INSERT INTO flakes (n) SELECT g FROM generate_series(1, 1000) g RETURNING id)
SELECT count(*), min(id) > (SELECT flakes_max FROM before) AND bool_and(snowflake_node(id, 'twitter') = 4) FROM f;
SQL
)
check "after ulid_advance_from_tables(): 1000 new ids in each table above every restored one" \
	"1000|t,1000|t" "${res//$'\n'/,}"

pg_stop $SRC
pg_stop $DST
