#!/usr/bin/env bash
# From pg_uuidv7 to ulid (SPEC section 4, "Drop-in names"; README "Coming
# from pg_uuidv7 or PostgreSQL 18").
#
# pg_uuidv7 cannot be installed here, so a stand-in takes its place: an
# extension named pg_uuidv7, version 1.6, with its five functions, their
# signatures and its markings (STABLE readers and converters), written in
# SQL for this test.  What the test needs of it is that stored objects
# (column defaults, views) depend on its functions, as on a user's server.
#
# 1. After the swap, the schema its users write: CREATE EXTENSION ulid, then
#    tables with DEFAULT uuid_generate_v7() and uuidv7(), a generated column
#    and an expression index on uuid_v7_to_timestamptz(id) (which pg_uuidv7's
#    STABLE marking refuses: shown on the stand-in), range partitions with
#    uuid_timestamptz_to_v7(..., true) bounds, a view with the range query
#    of pg_uuidv7's README; inserts and queries work, the index serves the
#    range query and the partitions are pruned.  Then pg_dump (plain and
#    custom) and restore (psql, pg_restore -j 2) into new databases: the
#    same rows, the same definitions, defaults and views still work.
# 2. A database made with the stand-in pg_uuidv7 (defaults, a view):
#    DROP EXTENSION pg_uuidv7 is refused while they depend on it; the two
#    ways the README gives both end with every row kept and every default
#    and view calling ulid's functions:
#    a. pg_dump, the dump's CREATE EXTENSION pg_uuidv7 line made ulid's and
#       its COMMENT ON EXTENSION pg_uuidv7 line deleted (without that the
#       restore stops there),
#       restore;
#    b. in place, one transaction: DROP EXTENSION pg_uuidv7 CASCADE (which
#       drops the defaults and views that call it), CREATE EXTENSION ulid,
#       the defaults and views set again.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

S=uuidv7mig
if ! pg_new $S || ! pg_start $S; then
	not_ok "pg_uuidv7 migration: server starts"
	exit 1
fi
sql() {
	local db=$1
	shift
	ULID_DB=$db psqlx $S "$@"
}
sqlstate() { sqlstate_of $S "$@"; }
conn=(-h "$ULID_WORK/sock" -p "$(pg_port $S)" -U postgres)
D=$ULID_WORK/uuidv7mig
mkdir -p "$D"
chmod 777 "$D"

# --- the stand-in pg_uuidv7 1.6 -------------------------------------------------
extdir=$("$PG_BIN/pg_config" --sharedir)/extension
cat >"$extdir/pg_uuidv7.control" <<'EOF'
comment = 'stand-in for pg_uuidv7 1.6 (ulid test only)'
default_version = '1.6'
relocatable = true
EOF
cat >"$extdir/pg_uuidv7--1.6.sql" <<'EOF'
-- pg_uuidv7 1.6's signatures and markings; bodies in PL/pgSQL for this test
-- (as its C functions, never inlined into the calling query)
CREATE FUNCTION uuid_generate_v7() RETURNS uuid LANGUAGE plpgsql VOLATILE STRICT PARALLEL SAFE AS $$
BEGIN
    RETURN (lpad(to_hex((extract(epoch FROM clock_timestamp()) * 1000)::bigint), 12, '0')
            || '7' || substr(replace(gen_random_uuid()::text, '-', ''), 14, 19))::uuid;
END $$;
CREATE FUNCTION uuid_v7_to_timestamptz(uuid) RETURNS timestamptz LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE AS $$
BEGIN
    RETURN to_timestamp(('x' || substr(replace($1::text, '-', ''), 1, 12))::bit(48)::bigint / 1000.0);
END $$;
CREATE FUNCTION uuid_timestamptz_to_v7(timestamptz, zero bool = false) RETURNS uuid LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE AS $$
BEGIN
    RETURN (lpad(to_hex(floor(extract(epoch FROM $1) * 1000)::bigint), 12, '0')
            || CASE WHEN zero THEN '70008000000000000000'
                    ELSE '7' || substr(replace(gen_random_uuid()::text, '-', ''), 14, 19) END)::uuid;
END $$;
CREATE FUNCTION uuid_v7_to_timestamp(uuid) RETURNS timestamp LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE AS $$
BEGIN
    RETURN uuid_v7_to_timestamptz($1) AT TIME ZONE 'UTC';
END $$;
CREATE FUNCTION uuid_timestamp_to_v7(timestamp, zero bool = false) RETURNS uuid LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE AS $$
BEGIN
    RETURN uuid_timestamptz_to_v7($1 AT TIME ZONE 'UTC', zero);
END $$;
EOF

# --- 1. after the swap: the schema pg_uuidv7's users write ----------------------
sql postgres -c "CREATE DATABASE app"
sql app <<'SQL'
CREATE EXTENSION ulid;
CREATE TABLE events (
    id uuid PRIMARY KEY DEFAULT uuid_generate_v7(),
    payload text NOT NULL,
    created_at timestamptz GENERATED ALWAYS AS (uuid_v7_to_timestamptz(id)) STORED
);
CREATE INDEX events_created ON events (uuid_v7_to_timestamptz(id));
CREATE TABLE audit (
    id uuid PRIMARY KEY DEFAULT uuidv7(),
    event uuid NOT NULL REFERENCES events,
    at timestamp GENERATED ALWAYS AS (uuid_v7_to_timestamp(id)) STORED
);
CREATE TABLE logs (id uuid NOT NULL DEFAULT uuid_generate_v7(), msg text) PARTITION BY RANGE (id);
CREATE TABLE logs_old PARTITION OF logs FOR VALUES FROM (MINVALUE) TO (uuid_timestamptz_to_v7('2026-01-01Z', true));
CREATE TABLE logs_new PARTITION OF logs FOR VALUES FROM (uuid_timestamptz_to_v7('2026-01-01Z', true)) TO (MAXVALUE);
CREATE VIEW recent_events AS
SELECT id, payload, uuid_v7_to_timestamptz(id) AS at FROM events
WHERE id >= uuid_timestamptz_to_v7(now() - interval '1 day', true);

INSERT INTO events (payload) SELECT 'new ' || g FROM generate_series(1, 500) g;
INSERT INTO events (id, payload)
SELECT uuid_timestamptz_to_v7(now() - g * interval '1 hour'), 'old ' || g FROM generate_series(1, 500) g;
INSERT INTO audit (event) SELECT id FROM events WHERE payload LIKE 'new %';
INSERT INTO logs (msg) SELECT 'now ' || g FROM generate_series(1, 100) g;
INSERT INTO logs (id, msg) SELECT uuid_timestamptz_to_v7('2025-06-01Z'::timestamptz + g * interval '1 day'), 'then ' || g FROM generate_series(1, 100) g;
ANALYZE;
SQL

# plan_has DB LABEL TEXT QUERY: QUERY's plan (no sequential or bitmap scans)
# shows TEXT
plan_has() {
	local plan
	plan=$(sql "$1" -c "SET enable_seqscan = off" -c "SET enable_bitmapscan = off" -c "EXPLAIN (COSTS OFF) $4")
	if grep -qF "$3" <<<"$plan"; then
		ok "$2"
	else
		not_ok "$2"
		sed 's/^/# /' <<<"$plan"
	fi
}

# check_app DB LABEL: the rows, defaults, generated columns, view and plans
check_app() {
	local db=$1 label=$2 plan
	check "$label: events, audit, logs rows" "1000|500|100|100" \
		"$(sql "$db" -c "SELECT (SELECT count(*) FROM events), (SELECT count(*) FROM audit),
		                        (SELECT count(*) FROM logs_old), (SELECT count(*) FROM logs_new)")"
	check "$label: the generated columns are the ids' times" "0|0" \
		"$(sql "$db" -c "SELECT (SELECT count(*) FROM events WHERE created_at IS DISTINCT FROM uuidv7_time(id)),
		                        (SELECT count(*) FROM audit WHERE at IS DISTINCT FROM uuidv7_time(id) AT TIME ZONE 'UTC')")"
	check "$label: DEFAULT uuid_generate_v7() and uuidv7() give new ids of now, in order" "t|t|7" \
		"$(sql "$db" -c "INSERT INTO events (payload) VALUES ('x1'), ('x2')" \
			-c "INSERT INTO audit (event) SELECT id FROM events WHERE payload = 'x1'" \
			-c "SELECT (SELECT id FROM events WHERE payload = 'x1') < (SELECT id FROM events WHERE payload = 'x2'),
			           (SELECT created_at > now() - interval '1 minute' FROM events WHERE payload = 'x2'),
			           (SELECT uuid_extract_version(id) FROM audit ORDER BY id DESC LIMIT 1)")"
	check "$label: the view (pg_uuidv7's README range query) sees the last day" "525" \
		"$(sql "$db" -c "SELECT count(*) FROM recent_events")"
	check "$label: a new row of now goes to the new partition" "logs_new" \
		"$(sql "$db" -c "INSERT INTO logs (msg) VALUES ('x') RETURNING tableoid::regclass")"
	plan_has "$db" "$label: the range query on the key is an index range scan" "Index Cond: (id >= uuidv7_lower((now() -" \
		"SELECT count(*) FROM events WHERE id >= uuid_timestamptz_to_v7(now() - interval '2 hours', true)"
	plan_has "$db" "$label: the expression index serves a query on uuid_v7_to_timestamptz(id)" "events_created" \
		"SELECT count(*) FROM events WHERE uuid_v7_to_timestamptz(id) >= now() - interval '2 hours'"
	plan=$(sql "$db" -c "EXPLAIN (COSTS OFF) SELECT count(*) FROM logs WHERE id < uuid_timestamptz_to_v7('2025-12-01Z', true)")
	if grep -q "logs_old" <<<"$plan" && ! grep -q "logs_new" <<<"$plan"; then
		ok "$label: the partitions are pruned by a uuid_timestamptz_to_v7(..., true) bound"
	else
		not_ok "$label: the partitions are not pruned"
		sed 's/^/# /' <<<"$plan"
	fi
}
check_app app "after the swap"
# (and the same rows again after the checks' inserts, for the dumps below)
definitions() {
	sql "$1" -c "SELECT string_agg(format('%s.%s default %s', table_name, column_name, column_default), '; ' ORDER BY table_name, column_name)
	             FROM information_schema.columns WHERE table_schema = 'public' AND column_default IS NOT NULL" \
		-c "SELECT string_agg(indexdef, '; ' ORDER BY indexdef) FROM pg_indexes WHERE schemaname = 'public'" \
		-c "SELECT string_agg(c.relname || ' ' || pg_get_expr(c.relpartbound, c.oid), '; ' ORDER BY c.relname)
		    FROM pg_class c WHERE c.relispartition" \
		-c "SELECT pg_get_viewdef('recent_events')"
}
rows() {
	sql "$1" -c "SELECT md5(string_agg(id::text || payload || created_at, ',' ORDER BY id)) FROM events" \
		-c "SELECT md5(string_agg(id::text || event || at, ',' ORDER BY id)) FROM audit" \
		-c "SELECT md5(string_agg(id::text || msg, ',' ORDER BY id)) FROM logs"
}
sql app -c "DELETE FROM events WHERE payload LIKE 'x%' AND NOT EXISTS (SELECT FROM audit WHERE event = events.id)" \
	-c "DELETE FROM audit WHERE event IN (SELECT id FROM events WHERE payload LIKE 'x%')" \
	-c "DELETE FROM events WHERE payload LIKE 'x%'" -c "DELETE FROM logs WHERE msg = 'x'"
src_defs=$(definitions app)
src_rows=$(rows app)
as_pg "$PG_BIN/pg_dump" "${conn[@]}" -d app -f "$D/app.sql" && ok "pg_dump (plain) of the migrated schema" ||
	not_ok "pg_dump (plain) of the migrated schema"
as_pg "$PG_BIN/pg_dump" "${conn[@]}" -d app -Fc -f "$D/app.dump" && ok "pg_dump (custom) of the migrated schema" ||
	not_ok "pg_dump (custom) of the migrated schema"
sql postgres -c "CREATE DATABASE app_plain" -c "CREATE DATABASE app_custom"
check_cmd "restore with psql" sql app_plain -o /dev/null -f "$D/app.sql"
check_cmd "restore with pg_restore -j 2" as_pg "$PG_BIN/pg_restore" "${conn[@]}" -j 2 -d app_custom "$D/app.dump"
for db in app_plain app_custom; do
	sql "$db" -c "ANALYZE" >/dev/null
	check_same "$db: the same definitions" "$src_defs" "$(definitions "$db")"
	check_same "$db: the same rows" "$src_rows" "$(rows "$db")"
	check_app "$db" "$db"
done

# --- 2. a database made with pg_uuidv7 (the stand-in) ----------------------------
legacy_schema() {
	sql "$1" <<'SQL'
CREATE EXTENSION pg_uuidv7;
CREATE TABLE orders (id uuid PRIMARY KEY DEFAULT uuid_generate_v7(), note text);
CREATE VIEW orders_today AS
SELECT id, note, uuid_v7_to_timestamptz(id) AS placed_at FROM orders
WHERE id >= uuid_timestamptz_to_v7(date_trunc('day', now()), true);
INSERT INTO orders (note) SELECT 'order ' || g FROM generate_series(1, 300) g;
INSERT INTO orders (id, note) SELECT uuid_timestamptz_to_v7(now() - interval '3 days'), 'older ' || g FROM generate_series(1, 30) g;
SQL
}
sql postgres -c "CREATE DATABASE legacy"
legacy_schema legacy
check "pg_uuidv7's STABLE uuid_v7_to_timestamptz() cannot make a generated column" \
	"42P17: generation expression is not immutable" \
	"$(sqlstate legacy "ALTER TABLE orders ADD COLUMN at timestamptz GENERATED ALWAYS AS (uuid_v7_to_timestamptz(id)) STORED")"
check "DROP EXTENSION pg_uuidv7 is refused while defaults and views call it" \
	"2BP01: cannot drop extension pg_uuidv7 because other objects depend on it" \
	"$(sqlstate legacy "DROP EXTENSION pg_uuidv7")"
legacy_rows=$(sql legacy -c "SELECT md5(string_agg(id::text || note, ',' ORDER BY id)) FROM orders")

# on_ulid DB LABEL: every default and view calls ulid's functions, they work
on_ulid() {
	local db=$1 label=$2
	check "$label: pg_uuidv7 is gone, ulid is there" "ulid" \
		"$(sql "$db" -c "SELECT string_agg(extname, ',') FROM pg_extension WHERE extname IN ('ulid', 'pg_uuidv7')")"
	check "$label: the rows are kept" "$legacy_rows" \
		"$(sql "$db" -c "SELECT md5(string_agg(id::text || note, ',' ORDER BY id)) FROM orders WHERE note NOT LIKE 'new%'")"
	check "$label: every function the default and the view call is ulid's" "ulid" \
		"$(sql "$db" -c "SELECT string_agg(DISTINCT e.extname, ',')
		                 FROM pg_depend d JOIN pg_depend x ON x.objid = d.refobjid AND x.classid = 'pg_proc'::regclass AND x.deptype = 'e'
		                 JOIN pg_extension e ON e.oid = x.refobjid
		                 WHERE d.refclassid = 'pg_proc'::regclass AND d.classid IN ('pg_attrdef'::regclass, 'pg_rewrite'::regclass)")"
	check "$label: DEFAULT uuid_generate_v7() gives ids in order, the view sees them" "t|303" \
		"$(sql "$db" -c "INSERT INTO orders (note) VALUES ('new 1'), ('new 2'), ('new 3')" \
			-c "SELECT (SELECT id FROM orders WHERE note = 'new 1') < (SELECT id FROM orders WHERE note = 'new 3'),
			           (SELECT count(*) FROM orders_today)")"
}

# a. dump, the CREATE EXTENSION line made ulid's and the COMMENT ON
# EXTENSION line deleted (the README's recipe), restore
as_pg "$PG_BIN/pg_dump" "${conn[@]}" -d legacy -f "$D/legacy.sql"
check "the dump names pg_uuidv7 in a CREATE EXTENSION and a COMMENT ON EXTENSION line" "1 1" \
	"$(grep -c '^CREATE EXTENSION IF NOT EXISTS pg_uuidv7 ' "$D/legacy.sql") $(grep -c '^COMMENT ON EXTENSION pg_uuidv7 ' "$D/legacy.sql")"
sed -e 's/^CREATE EXTENSION IF NOT EXISTS pg_uuidv7 /CREATE EXTENSION IF NOT EXISTS ulid /' "$D/legacy.sql" >"$D/legacy-create-only.sql"
sql postgres -c "CREATE DATABASE legacy_half"
check "with only the CREATE EXTENSION line changed, the restore stops at COMMENT ON EXTENSION pg_uuidv7" \
	'ERROR:  extension "pg_uuidv7" does not exist' \
	"$(sql legacy_half -o /dev/null -f "$D/legacy-create-only.sql" 2>&1 | sed -n 's/^psql:[^:]*:[0-9]*: //p' | head -1)"
sed -e '/^COMMENT ON EXTENSION pg_uuidv7 /d' "$D/legacy-create-only.sql" >"$D/legacy-ulid.sql"
sql postgres -c "CREATE DATABASE legacy_restored"
check_cmd "restore of the edited dump" sql legacy_restored -o /dev/null -f "$D/legacy-ulid.sql"
on_ulid legacy_restored "dump and restore"

# b. in place, one transaction
check_cmd "in place: DROP EXTENSION pg_uuidv7 CASCADE, CREATE EXTENSION ulid, defaults and views again" \
	sql legacy -o /dev/null -v ON_ERROR_STOP=1 <<'SQL'
BEGIN;
SET LOCAL client_min_messages = warning;
DROP EXTENSION pg_uuidv7 CASCADE;
CREATE EXTENSION ulid;
ALTER TABLE orders ALTER id SET DEFAULT uuid_generate_v7();
CREATE VIEW orders_today AS
SELECT id, note, uuid_v7_to_timestamptz(id) AS placed_at FROM orders
WHERE id >= uuid_timestamptz_to_v7(date_trunc('day', now()), true);
COMMIT;
SQL
on_ulid legacy "in place"

rm -f "$extdir/pg_uuidv7.control" "$extdir/pg_uuidv7--1.6.sql"
pg_stop $S
