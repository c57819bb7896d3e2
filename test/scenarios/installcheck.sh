#!/usr/bin/env bash
# `make installcheck` (PGXS) against servers a user runs, as test/README.md
# documents it: PGHOST/PGPORT name the server, the extension is installed in
# it, and an application mints ids all the while.
#
# A server like the README's (preloaded, ulid.node_id = 7) that owns the
# nodes the regression files mint on, with an application that mints in a
# loop on every generator (gen_monotonic_ulid(), every Snowflake preset and
# COSID_80, on the server's own node and on every node it owns) during the
# whole run:
# - make installcheck passes; the files that need what only test/run's own
#   server has (counts, advances, resets) report a skip;
# - every id the application got lies on the clock (within its layout's
#   tick and borrowing allowance) and increases per generator and node:
#   installcheck advanced nothing the application mints on;
# - afterwards no state has a floor of its own, and floors and last ids are
#   near the clock.
# Then the README's restore step puts generators ahead of the clock
# (ulid_advance_from_tables() on tables holding ids 10 minutes ahead), and
# make installcheck passes again with the application still minting: the
# advanced states keep their floors (nothing was reset), the application's
# ids still increase, and new ids lie above the restored ones.
# Last, a server that does not preload ulid: on 15 and 16 the files that
# need the shared state report a skip; on 17+ they run on the DSM registry.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

# a copy of the sources (make installcheck writes results/ where it runs)
src=$ULID_WORK/installcheck-src
mkdir -p "$src"
cp -a "$ULID_ROOT/Makefile" "$ULID_ROOT/ulid.control" "$ULID_ROOT/sql" "$ULID_ROOT/expected" "$ULID_ROOT/src" "$src/"

# installcheck NAME LABEL: make installcheck against server NAME; one ok per
# run, the files that reported a skip as a comment (and in SKIPPED)
installcheck() {
	local name=$1 label=$2 log=$ULID_WORK/installcheck-$1-$2.log skipped
	rm -rf "$src/results" "$src/regression.diffs" "$src/regression.out"
	# the server runs the private install; pg_regress and psql are the
	# server's own major's (pg_config's bindir)
	PGHOST=$ULID_WORK/sock PGPORT=$(pg_port "$name") PGUSER=postgres \
		timeout 300 make -C "$src" -s PG_CONFIG="$PG_CONFIG" installcheck >"$log" 2>&1
	local rc=$?
	# (kept for ULID_KEEP=1: the source of expected/x_1.out and x_2.out)
	cp -a "$src/results" "$ULID_WORK/installcheck-results-${label// /-}" 2>/dev/null
	skipped=$(grep -l '^skipped: ' "$src"/results/*.out 2>/dev/null | xargs -r -n1 basename | sed 's/\.out$//' | tr '\n' ' ')
	echo "# installcheck $label: files that reported a skip: ${skipped:-none}"
	if [ $rc -eq 0 ]; then
		ok "installcheck $label: make installcheck passes"
	else
		not_ok "installcheck $label: make installcheck passes (status $rc)"
		grep -E 'FAILED|failed' "$log" | sed 's/^/# /'
		[ -f "$src/regression.diffs" ] && head -80 "$src/regression.diffs" | sed 's/^/# /'
	fi
	SKIPPED=$skipped
}

# --- a server in use: the README's node 7, owning the files' nodes ----------
# (every node a regression file names in lacks('nodes ...'))
nodes=$(grep -ho "lacks([^)]*'nodes [0-9,-]*'" "$ULID_ROOT"/sql/*.sql | sed -E "s/.*'nodes ([0-9,-]+)'/\1/" | sort -u | paste -sd,)
S=ic_app
if ! pg_new $S "ulid.node_id = 7" "ulid.node_ids = '$nodes'" || ! pg_start $S; then
	not_ok "installcheck: a server with ulid.node_id = 7 starts"
	exit 1
fi
psqlx $S -c "CREATE DATABASE app" >/dev/null
export ULID_DB=app
# the application: one row per id it got, with the time the id names and
# the time it got it; key sorts as the ids do (COLLATE "C")
owned=$(psqlx $S -c "SELECT string_agg(DISTINCT n::text, ',') FROM unnest(string_to_array('$nodes', ',')) r,
	generate_series(split_part(r, '-', 1)::int, coalesce(nullif(split_part(r, '-', 2), ''), r)::int) n")
psqlx $S >/dev/null <<SQL
CREATE EXTENSION ulid;
-- every generator on the server's own node (node NULL: the form without a
-- node) and on every owned node its layout holds; a layout's tick
CREATE TABLE gens (kind text, layout text, node int, tick interval);
INSERT INTO gens VALUES ('ulid', NULL, NULL, '1 ms');
INSERT INTO gens SELECT 'cosid80', NULL, n, '1 ms' FROM unnest(ARRAY[NULL, $owned]::int[]) n;
INSERT INTO gens
SELECT 'snowflake', l, n, tick
FROM (VALUES ('twitter', interval '1 ms', 1023), ('discord', '1 ms', 1023), ('instagram', '1 ms', 8191),
             ('sonyflake(epoch=2014-09-01T00:00:00.000Z)', '10 ms', 65535), ('scru64(node_bits=8)', '256 ms', 255),
             ('snowflake_ms', '1 ms', 1023), ('snowflake_s', '1 s', 1023), ('js_safe_ms', '1 ms', 7),
             ('js_safe_s', '1 s', 7)) p(l, tick, max_node),
     unnest(ARRAY[NULL, $owned]::int[]) n
WHERE n IS NULL OR n <= max_node;
CREATE TABLE app (seq bigserial PRIMARY KEY, kind text, layout text, node int, tick interval,
                  key text COLLATE "C", id_time timestamptz, at timestamptz, phase text);
CREATE TABLE app_control (phase text, stop boolean DEFAULT false);
INSERT INTO app_control VALUES ('on the clock');
CREATE FUNCTION mint(kind text, layout text, node int, OUT key text, OUT t timestamptz) LANGUAGE plpgsql AS \$\$
DECLARE u ulid; c text; i bigint; l snowflake_layout := layout;
BEGIN
    IF kind = 'ulid' THEN
        u := gen_monotonic_ulid(); key := u::text; t := ulid_time(u);
    ELSIF kind = 'cosid80' THEN
        c := CASE WHEN node IS NULL THEN cosid80_next() ELSE cosid80_next(node) END;
        key := c; t := cosid80_time(c);
    ELSE
        i := CASE WHEN node IS NULL THEN snowflake_next(l) ELSE snowflake_next(l, node) END;
        key := lpad(i::text, 20, '0'); t := snowflake_time(i, l);
    END IF;
END \$\$;
CREATE PROCEDURE run_app() LANGUAGE plpgsql AS \$\$
BEGIN
    LOOP
        INSERT INTO app (kind, layout, node, tick, key, id_time, at, phase)
        SELECT g.kind, g.layout, g.node, g.tick, m.key, m.t, clock_timestamp(), (SELECT phase FROM app_control)
        FROM gens g, LATERAL mint(g.kind, g.layout, g.node) m;
        COMMIT;
        EXIT WHEN (SELECT stop FROM app_control);
        PERFORM pg_sleep(0.01);
    END LOOP;
END \$\$;
SQL
echo "# installcheck: the application mints on $(psqlx $S -c "SELECT count(*) FROM gens") generator states per round (nodes: own, $nodes)"

# app_run PHASE: start the application (in the background); app_stop: stop it
app_run() {
	psqlx $S -c "UPDATE app_control SET phase = '$1', stop = false" >/dev/null
	psqlx $S -c "CALL run_app()" >"$ULID_WORK/app.log" 2>&1 &
	APP_PID=$!
	wait_until 30 app_minted "$1" || not_ok "installcheck $1: the application starts minting"
}
app_minted() { [ "$(psqlx $S -c "SELECT count(*) > 0 FROM app WHERE phase = '$1'")" == t ]; }
app_stop() {
	psqlx $S -c "UPDATE app_control SET stop = true" >/dev/null
	wait "$APP_PID"
	check "installcheck $1: the application minted without an error" "" "$(cat "$ULID_WORK/app.log")"
}
# app_increasing PHASE: every generator state's ids increase in the order
# the application got them
app_increasing() {
	check "installcheck $1: the application's ids increase, for every generator and node" "0" \
		"$(psqlx $S -c "SELECT count(*) FROM (SELECT key, lag(key) OVER (PARTITION BY kind, layout, node ORDER BY seq) AS prev
			FROM app WHERE phase = '$1') s WHERE key <= prev")"
}

app_run "on the clock"
ic_start=$(psqlx $S -c "SELECT clock_timestamp()")
installcheck $S "in use"
ic_end=$(psqlx $S -c "SELECT clock_timestamp()")
check "installcheck in use: the files that count or advance shared states report a skip, and settings.sql and snowflake_nodes.sql (defaults)" \
	"cosid80 health monotonic settings snowflake_next snowflake_nodes snowflake_variables stable_bound zz_advance_from_tables " "$SKIPPED"
app_stop "in use"
# (a layout's ids lie on its tick: up to a tick behind the clock, and up to
# its borrowing allowance, the larger of 5 ms and a tick, ahead)
check "installcheck in use: the application minted before, during and after the run, on every generator state" "t|t" \
	"$(psqlx $S -c "SELECT min(at) < '$ic_start' AND max(at) > '$ic_end' AND count(*) FILTER (WHERE at BETWEEN '$ic_start' AND '$ic_end') > 0,
		(SELECT count(*) FROM gens) = count(DISTINCT (kind, layout, node)) FROM app WHERE phase = 'on the clock'")"
check "installcheck in use: every id the application got lies on the clock" "0||" \
	"$(psqlx $S -c "SELECT count(*), min(id_time - at), max(id_time - at) FROM app
		WHERE phase = 'on the clock' AND (id_time > at + greatest(tick, '5 ms') + interval '100 ms' OR id_time < at - tick - interval '100 ms')")"
app_increasing "on the clock"
after=$(psqlx $S -c "SELECT count(*) FILTER (WHERE state_floor IS NOT NULL),
	bool_and(persisted_floor < clock_timestamp() + interval '1 minute'),
	bool_and(last_time < clock_timestamp() + interval '1 minute')
	FROM ulid_generator_state")
check "installcheck in use: afterwards no state has a floor of its own, floors and last ids near the clock" "0|t|t" "$after"

# --- the same server after the README's restore step: generators ahead -------
# tables restored from a server whose clock ran 10 minutes ahead (named as
# trusted: ids more than a minute ahead are advanced to only from those)
psqlx $S >/dev/null <<'SQL'
CREATE TABLE r_mono (id ulid PRIMARY KEY DEFAULT gen_monotonic_ulid());
CREATE TABLE r_tw (id bigint PRIMARY KEY DEFAULT snowflake_next('twitter'));
CREATE TABLE r_ig (id bigint PRIMARY KEY DEFAULT snowflake_next('instagram', 5));
CREATE TABLE r_c80 (id text COLLATE "C" PRIMARY KEY DEFAULT cosid80_next(7));
INSERT INTO r_mono VALUES (gen_ulid(clock_timestamp() + interval '10 min'));
INSERT INTO r_tw VALUES (snowflake_pack('twitter', clock_timestamp() + interval '10 min', 7, 5));
INSERT INTO r_ig VALUES (snowflake_pack('instagram', clock_timestamp() + interval '10 min', 5, 5));
INSERT INTO r_c80 VALUES (cosid80_from_friendly(to_char((clock_timestamp() + interval '10 min') AT TIME ZONE 'UTC', 'YYYYMMDDHH24MISSMS') || '-0000007-00005'));
SQL
check "installcheck ahead: ulid_advance_from_tables() advances the four generators" "4" \
	"$(psqlx $S -c "SELECT count(advanced_to) FROM ulid_advance_from_tables(trusted => '{r_mono, r_tw, r_ig, r_c80}')" 2>/dev/null)"
floors=$(psqlx $S -c "SELECT string_agg(format('%s/%s/%s:%s', kind, layout, node, state_floor), ' ' ORDER BY kind, layout, node)
	FROM ulid_generator_state WHERE state_floor IS NOT NULL")
app_run "ahead"
installcheck $S "ahead"
app_stop "ahead"
app_increasing "ahead"
check_same "installcheck ahead: the advanced states keep their floors (nothing was reset)" "$floors" \
	"$(psqlx $S -c "SELECT string_agg(format('%s/%s/%s:%s', kind, layout, node, state_floor), ' ' ORDER BY kind, layout, node)
		FROM ulid_generator_state WHERE state_floor IS NOT NULL")"
check "installcheck ahead: new ids lie above the restored ones" "t|t|t|t" \
	"$(psqlx $S -c "SELECT gen_monotonic_ulid() > (SELECT max(id) FROM r_mono), snowflake_next('twitter') > (SELECT max(id) FROM r_tw),
		snowflake_next('instagram', 5) > (SELECT max(id) FROM r_ig), cosid80_next(7) > (SELECT max(id) FROM r_c80)")"
pg_stop $S
unset ULID_DB

# --- a server that does not preload ulid ------------------------------------
S=ic_nopreload
if ! ULID_PRELOAD='' pg_new $S "ulid.node_ids = '0-65535'" || ! pg_start $S; then
	not_ok "installcheck: server without preload starts"
	exit 1
fi
installcheck $S "no preload"
if [ "${PG_VERSION_NUM:-0}" -ge 17 ]; then
	expect="cosid80 health monotonic settings snowflake_next snowflake_variables stable_bound zz_advance_from_tables "
else
	expect="cosid80 health monotonic settings snowflake_next snowflake_nodes snowflake_partitioning snowflake_variables stable_bound zz_advance_from_tables "
fi
check "installcheck no preload: the files that need what this server lacks report a skip" "$expect" "$SKIPPED"
pg_stop $S
