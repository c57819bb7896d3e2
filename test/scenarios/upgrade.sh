#!/usr/bin/env bash
# Releases: every released version updates to the current one and lands
# exactly where a fresh install does (SPEC section 6).
#
# 1. The shared library serves every released script: each C symbol that an
#    installed script (full or upgrade) names is exported by ulid.so.
# 2. For every version CREATE EXTENSION can install but the current one:
#    install it, put data on it of every kind the README names (ulid keys
#    with gen_ulid(), gen_monotonic_ulid() and snowflake_next() defaults, a
#    snowflake_layout column, a table partitioned by ulid range, btree,
#    hash and the three BRIN indexes), ALTER EXTENSION ulid UPDATE, and
#    compare the extension's objects (test/upgrade/objects.sql: markings,
#    owners, privileges, comments, operator families, casts, aggregates)
#    with a fresh install.  The data survives: amcheck passes, every index
#    answers as a sequential scan does, the defaults go on above the old ids,
#    partitions route.  pg_dump of the updated database restores into a
#    fresh install with the same rows and objects.
# 3. Every installed upgrade script lies on one of those paths.
# 4. Self-test: the comparison fails when an upgrade script forgets an
#    object, a marking, a revoke, a comment, an operator family member or
#    a cast (each mutation is an update script that differs from the real one
#    in one statement).
# 5. The released libraries (test/README.md's release table, built from each
#    release commit by test/upgrade/releases.sh, in the background while 1-4
#    run): a cluster made and filled by the release's own library, its
#    generators advanced an hour ahead, is stopped and started on the
#    current library with the clock 60 s behind (ulid.clock_offset_ms), then
#    updated; it is then as 2 demands, and gen_monotonic_ulid() and
#    snowflake_next() issue above the last ids the old library issued (the
#    floors it wrote carry over), before the update and after.  Self-test:
#    the same cluster without its ulid_floor issues below them, and its
#    start-up LOG names pg_upgrade and the remedies.  A tree
#    without git history skips 5 with the reason.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

S=upgrade
if ! pg_new $S "ulid.node_id = 1" || ! pg_start $S; then
	not_ok "upgrade: server starts"
	exit 1
fi
sql() {
	local db=$1
	shift
	ULID_DB=$db psqlx $S "$@"
}
objects() { sql "$1" -f "$ULID_ROOT/test/upgrade/objects.sql"; }

# shellcheck source=../upgrade/releases.sh
source "$ULID_ROOT/test/upgrade/releases.sh"
# 5's libraries build while 1-4 run; each built version's line goes to built
releases=$(release_rows)
built=$ULID_WORK/log/upgrade-releases.built
: >"$built"
(
	trap - EXIT
	while read -r v c; do
		[ -z "$(release_missing "$c")" ] && release_install "$v" "$c" && echo "$v" >>"$built"
	done <<<"$releases"
) 2>"$ULID_WORK/log/upgrade-releases.err" &
builder=$!

extdir=$("$PG_BIN/pg_config" --sharedir)/extension
libdir=$("$PG_BIN/pg_config" --pkglibdir)
default=$(sql postgres -c "SELECT default_version FROM pg_available_extensions WHERE name = 'ulid'")
versions=$(sql postgres -c "SELECT version FROM pg_available_extension_versions WHERE name = 'ulid' AND version <> '$default'" | sort -V)
echo "# default version $default; released versions: ${versions//$'\n'/ }"
check "upgrade: 1.0 is still installable" "1" "$(grep -cx '1.0' <<<"$versions")"

# --- 1. every symbol a script names is exported --------------------------------
exported=$(nm -D --defined-only "$libdir/ulid.so" | awk '{print $3}' | sort -u)
for f in "$extdir"/ulid--*.sql; do
	missing=""
	n=0
	for sym in $(grep -oE "'MODULE_PATHNAME', *'[A-Za-z0-9_]+'" "$f" | sed -E "s/.*'([A-Za-z0-9_]+)'$/\1/" | sort -u); do
		n=$((n + 1))
		grep -qx "$sym" <<<"$exported" || missing="$missing $sym"
	done
	check "upgrade: ulid.so exports all $n symbols $(basename "$f") names" "" "$missing"
done

# --- 2. install each released version, fill it, update, compare -----------------
sql postgres -c "CREATE DATABASE upgrade_fresh"
sql upgrade_fresh -c "CREATE EXTENSION ulid"
fresh=$(objects upgrade_fresh)
check "upgrade: a fresh install is version $default" "$default" \
	"$(sql upgrade_fresh -c "SELECT extversion FROM pg_extension WHERE extname = 'ulid'")"

# the data a user of an older version has: one table of each kind
DATA_SQL=$(
	cat <<'SQL'
CREATE EXTENSION amcheck;
CREATE TABLE orders (
    id ulid PRIMARY KEY DEFAULT gen_ulid(),
    mono ulid NOT NULL DEFAULT gen_monotonic_ulid(),
    sf bigint NOT NULL UNIQUE DEFAULT snowflake_next('twitter'),
    layout snowflake_layout NOT NULL DEFAULT 'discord',
    n int
);
CREATE INDEX orders_mono_hash ON orders USING hash (mono);
CREATE INDEX orders_id_brin ON orders USING brin (id);
CREATE INDEX orders_mono_brin ON orders USING brin (mono ulid_minmax_multi_ops);
CREATE INDEX orders_id_bloom ON orders USING brin (id ulid_bloom_ops);
CREATE INDEX orders_layout ON orders (layout);
CREATE INDEX orders_layout_hash ON orders USING hash (layout);
CREATE TABLE events (id ulid NOT NULL, n int) PARTITION BY RANGE (id);
CREATE TABLE events_2024 PARTITION OF events FOR VALUES FROM (ulid_lower('2024-01-01Z')) TO (ulid_lower('2025-01-01Z'));
CREATE TABLE events_later PARTITION OF events FOR VALUES FROM (ulid_lower('2025-01-01Z')) TO (MAXVALUE);
CREATE INDEX ON events (id);
INSERT INTO orders (n, layout) SELECT g, CASE WHEN g % 3 = 0 THEN 'twitter'::snowflake_layout ELSE 'discord' END FROM generate_series(1, 1000) g;
INSERT INTO events SELECT gen_ulid('2024-01-01Z'::timestamptz + g * interval '1 hour'), g FROM generate_series(1, 2000) g;
SQL
)
# the same answers with and without each index
INDEX_QUERIES=(
	"SELECT count(*) FROM orders WHERE id < (SELECT id FROM orders WHERE n = 500)"
	"SELECT count(*) FROM orders WHERE mono = (SELECT mono FROM orders WHERE n = 7)"
	"SELECT count(*) FROM orders WHERE mono > (SELECT mono FROM orders WHERE n = 900)"
	"SELECT count(*) FROM orders WHERE id = (SELECT id FROM orders WHERE n = 8)"
	"SELECT count(*) FROM orders WHERE layout = 'twitter'"
	"SELECT count(*) FROM orders WHERE sf > (SELECT sf FROM orders WHERE n = 10)"
	"SELECT count(*) FROM events WHERE id >= ulid_lower('2024-03-01Z') AND id < ulid_lower('2024-03-02Z')"
)

# capture DB: before an update, the old ids' maxima (before) and each index
# query's answer by sequential scan (expected_counts)
capture() {
	local q
	before=$(sql "$1" -c "SELECT max(mono)::text || ' ' || max(sf) FROM orders")
	expected_counts=()
	for q in "${INDEX_QUERIES[@]}"; do
		expected_counts+=("$(PGOPTIONS='-c enable_indexscan=off -c enable_bitmapscan=off -c enable_indexonlyscan=off' sql "$1" -c "$q")")
	done
}

# verify_updated DB LABEL: after ALTER EXTENSION ulid UPDATE, DB (filled by
# DATA_SQL, captured before) is a fresh install's equal and its data serves
verify_updated() {
	local db=$1 label=$2 q i=0
	check "$label: version $default" "$default" \
		"$(sql "$db" -c "SELECT extversion FROM pg_extension WHERE extname = 'ulid'")"
	check_same "$label: the same $(wc -l <<<"$fresh") objects as a fresh install" "$fresh" "$(objects "$db")"
	check "$label: every btree index of the old data passes amcheck" "4" \
		"$(sql "$db" -c "SELECT count(bt_index_check(c.oid, true)) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
		                 JOIN pg_am a ON a.oid = c.relam AND a.amname = 'btree'
		                 WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'i' AND i.indrelid IN ('orders'::regclass, 'events_2024'::regclass)")"
	for q in "${INDEX_QUERIES[@]}"; do
		check "$label: by index as by scan: $q" "${expected_counts[$i]}" \
			"$(PGOPTIONS='-c enable_seqscan=off' sql "$db" -c "$q")"
		i=$((i + 1))
	done
	check "$label: the defaults go on above the old ids" "t|t|1000|t" \
		"$(sql "$db" -c "INSERT INTO orders (n) SELECT g FROM generate_series(1001, 2000) g" \
			-c "SELECT min(mono) FILTER (WHERE n > 1000) > max(mono) FILTER (WHERE n <= 1000),
			           min(sf) FILTER (WHERE n > 1000) > max(sf) FILTER (WHERE n <= 1000),
			           count(DISTINCT id) FILTER (WHERE n > 1000),
			           bool_and(snowflake_node(sf, 'twitter') = 1)
			    FROM orders")"
	check "$label: the old ids read back" "t" \
		"$(sql "$db" -c "SELECT max(mono)::text || ' ' || max(sf) = '$before' FROM orders WHERE n <= 1000")"
	check "$label: the snowflake_layout column keeps its values" "twitter 333|discord 667" \
		"$(sql "$db" -c "SELECT layout::text || ' ' || count(*) FROM orders WHERE n <= 1000 GROUP BY layout ORDER BY count(*)" | paste -sd'|')"
	check "$label: ulid partitions route new rows" "events_2024 1|events_later 1" \
		"$(sql "$db" -c "INSERT INTO events VALUES (gen_ulid('2024-06-01Z'), -1), (gen_ulid(), -2)" \
			-c "SELECT tableoid::regclass || ' ' || count(*) FROM events WHERE n < 0 GROUP BY tableoid ORDER BY 1" | paste -sd'|')"
}

walked=""
for v in $versions; do
	db=upgrade_from_${v//[^0-9a-zA-Z]/_}
	label="upgrade from $v"
	sql postgres -c "CREATE DATABASE $db"
	if ! sql "$db" -c "CREATE EXTENSION ulid VERSION '$v'" -c "$DATA_SQL" >/dev/null 2>"$ULID_WORK/$db.err"; then
		not_ok "$label: install and data: $(cat "$ULID_WORK/$db.err")"
		continue
	fi
	capture "$db"
	path=$(sql postgres -c "SELECT path FROM pg_extension_update_paths('ulid') WHERE source = '$v' AND target = '$default'")
	walked="$walked $path"
	if ! sql "$db" -c "ALTER EXTENSION ulid UPDATE" 2>"$ULID_WORK/$db.err"; then
		not_ok "$label: ALTER EXTENSION ulid UPDATE ($path): $(cat "$ULID_WORK/$db.err")"
		continue
	fi
	label="$label ($path)"
	verify_updated "$db" "$label"

	# pg_dump of the updated database restores into a fresh install
	restored=${db}_restored
	dump=$ULID_WORK/log/$db.dump
	if as_pg "$PG_BIN/pg_dump" -Fc -h "$ULID_WORK/sock" -p "$(pg_port $S)" -U postgres -f "$dump" "$db" 2>"$ULID_WORK/$db.err" &&
		sql postgres -c "CREATE DATABASE $restored" &&
		as_pg "$PG_BIN/pg_restore" --exit-on-error -h "$ULID_WORK/sock" -p "$(pg_port $S)" -U postgres -d "$restored" "$dump" 2>"$ULID_WORK/$db.err"; then
		ok "$label: pg_dump restores into a fresh install"
	else
		not_ok "$label: pg_dump restores into a fresh install: $(cat "$ULID_WORK/$db.err")"
	fi
	rows="SELECT md5(string_agg(o::text, ',' ORDER BY id)) FROM orders o UNION ALL SELECT md5(string_agg(e::text, ',' ORDER BY id)) FROM events e"
	check "$label: the restored rows are the dumped rows" "$(sql "$db" -c "$rows")" "$(sql "$restored" -c "$rows")"
	check_same "$label: the restored database has the fresh install's objects" "$fresh" "$(objects "$restored")"
done

# --- 3. every upgrade script is on a tested path --------------------------------
scripts=$(cd "$extdir" && ls ulid--*--*.sql 2>/dev/null)
for f in $scripts; do
	step=${f#ulid--}
	step=${step%.sql}
	from=${step%%--*}
	to=${step#*--}
	if [[ "$walked" =~ (^|[ -])${from//./\\.}--${to//./\\.}(-|$| ) ]]; then
		ok "upgrade: script $f is on a tested path"
	else
		not_ok "upgrade: script $f is on no tested path: keep an install script of a version that leads through it"
	fi
done

# --- 4. self-test: a broken upgrade script is caught ------------------------------
# Each mutation is appended to the real last step, which is restored after.
last=$(ls "$extdir" | grep -E "^ulid--[^-]+--${default//./\\.}\.sql$" | sort -V | tail -1)
first=$(head -1 <<<"$versions")
if [ -z "$last" ] || [ -z "$first" ]; then
	not_ok "upgrade self-test: no upgrade script to $default found"
else
	cp "$extdir/$last" "$ULID_WORK/$last.orig"
	while IFS='|' read -r what stmt; do
		[ -n "$what" ] || continue
		cat "$ULID_WORK/$last.orig" >"$extdir/$last"
		printf '\n%s\n' "$stmt" >>"$extdir/$last"
		db=upgrade_broken
		sql postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" 2>/dev/null
		if ! sql "$db" -c "CREATE EXTENSION ulid VERSION '$first'" -c "ALTER EXTENSION ulid UPDATE" 2>"$ULID_WORK/$db.err"; then
			not_ok "upgrade self-test: the mutation ($what) does not apply: $(cat "$ULID_WORK/$db.err")"
			continue
		fi
		diff_lines=$(diff <(echo "$fresh") <(objects "$db") | grep -c '^[<>]')
		if [ "$diff_lines" -gt 0 ]; then
			ok "upgrade self-test: a script that $what is caught ($diff_lines lines differ)"
		else
			not_ok "upgrade self-test: a script that $what is NOT caught"
		fi
	done <<'MUTATIONS'
forgets a function|DROP FUNCTION ulid_parts(ulid);
forgets a volatility marking|ALTER FUNCTION gen_ulid() STABLE;
forgets a parallel marking|ALTER FUNCTION ulid_time(ulid) PARALLEL UNSAFE;
forgets strictness|ALTER FUNCTION ulid_unix_ms(ulid) CALLED ON NULL INPUT;
makes a function SECURITY DEFINER|ALTER FUNCTION ulid_random(ulid) SECURITY DEFINER;
forgets a revoke from PUBLIC|GRANT EXECUTE ON FUNCTION ulid_floor_repair(timestamptz, boolean) TO PUBLIC;
forgets the view's grant|REVOKE SELECT ON ulid_generator_state FROM pg_monitor;
forgets a comment|COMMENT ON FUNCTION gen_ulid() IS NULL;
forgets an operator family member|ALTER OPERATOR FAMILY ulid_ops USING hash DROP FUNCTION 2 (ulid, ulid);
forgets a cast|DROP CAST (ulid AS timestamp);
forgets a function's cost|ALTER FUNCTION ulid_lower(timestamptz) COST 7;
gives an object another owner|ALTER FUNCTION ulid_upper(timestamptz) OWNER TO pg_monitor;
MUTATIONS
	cp "$ULID_WORK/$last.orig" "$extdir/$last"
	check "upgrade self-test: the real script is back" "" "$(cmp "$ULID_WORK/$last.orig" "$extdir/$last")"
fi

pg_stop $S

# --- 5. the released libraries -------------------------------------------------
# the ulid.so the postmaster of server NAME has mapped
loaded_lib() { grep -oE '/[^ ]*/ulid\.so$' "/proc/$(head -1 "$(pg_data "$1")/postmaster.pid")/maps" | head -1; }
# says TEXT WORDS: t when TEXT holds WORDS, else f
says() { case $1 in *"$2"*) echo t ;; *) echo f ;; esac; }
# above DB "MONO SF": do the generators now issue above these ids?
above() {
	sql "$1" -c "SELECT gen_monotonic_ulid() > '${2% *}'::ulid, snowflake_next('twitter') > ${2#* }" | tr '|' ' '
}
# advance SQL: gen_monotonic_ulid() and snowflake_next('twitter') an hour
# ahead; prints the two ids advanced to
ADVANCE_SQL="SELECT ulid_monotonic_advance(m), snowflake_advance('twitter', 1, s), m::text || ' ' || s
FROM (SELECT gen_ulid(now() + interval '1 hour') m, snowflake_upper('twitter', now() + interval '1 hour') s) t"

# released VERSION: a cluster of the release's library taken over by ours
# (sql and the checks it calls run on server S, the local one)
released() {
	local v=$1 R=released_${1//./_} S=released_${1//./_} db=upgrade_released label="released $1 on its own library"
	local new_bin=$PG_BIN last m s said copy=released_${1//./_}_nofloor
	PG_BIN=$(release_bindir "$v")
	if ! pg_new "$R" "ulid.node_id = 1" || ! pg_start "$R"; then
		PG_BIN=$new_bin
		not_ok "$label: a server starts"
		return
	fi
	check "$label: the server runs the release's ulid.so" "$("$PG_BIN/pg_config" --pkglibdir)/ulid.so" "$(loaded_lib "$R")"
	check "$label: CREATE EXTENSION installs $v" "$v" \
		"$(sql postgres -c "CREATE DATABASE $db" && sql "$db" -c "CREATE EXTENSION ulid" -c "SELECT extversion FROM pg_extension WHERE extname = 'ulid'")"
	if ! sql "$db" -c "$DATA_SQL" >/dev/null 2>"$ULID_WORK/$R.err" ||
		! last=$(sql "$db" -c "$ADVANCE_SQL" 2>"$ULID_WORK/$R.err" | cut -d'|' -f3); then
		not_ok "$label: data and advances: $(cat "$ULID_WORK/$R.err")"
		pg_stop "$R"
		PG_BIN=$new_bin
		return
	fi
	# the last ids it issues, above the advances (1.0 refuses to issue an
	# hour ahead of the clock: then the advances are the bound)
	m=$(sql "$db" -c "SELECT gen_monotonic_ulid()" 2>/dev/null) || m=${last% *}
	s=$(sql "$db" -c "SELECT snowflake_next('twitter')" 2>/dev/null) || s=${last#* }
	check "$label: the last ids are at or above the advances, an hour ahead" "t|t|t|t" \
		"$(sql "$db" -c "SELECT '$m'::ulid >= '${last% *}', $s >= ${last#* }, ulid_time('$m') > now() + interval '59 min', snowflake_time($s, 'twitter') > now() + interval '59 min'")"
	last="$m $s"
	capture "$db"
	pg_stop "$R"
	PG_BIN=$new_bin

	# the self-test's copy: the same cluster without its floor file
	cp -a "$(pg_data "$R")" "$(pg_data "$copy")"
	rm -f "$(pg_data "$copy")/ulid_floor"
	echo "$ULID_NEXT_PORT" >"$ULID_WORK/$copy.port"
	ULID_NEXT_PORT=$((ULID_NEXT_PORT + 1))
	echo "port = $(pg_port "$copy")" >>"$(pg_data "$copy")/postgresql.conf"

	label="released $v, then the current library (clock 60 s behind)"
	echo "ulid.clock_offset_ms = -60000" >>"$(pg_data "$R")/postgresql.conf"
	if ! pg_start "$R"; then
		not_ok "$label: the server starts"
		return
	fi
	check "$label: the server runs the current ulid.so" "$libdir/ulid.so" "$(loaded_lib "$R")"
	check "$label: before the update, $v's functions issue above the old library's last ids" "t t" "$(above "$db" "$last")"
	if ! sql "$db" -c "ALTER EXTENSION ulid UPDATE" 2>"$ULID_WORK/$R.err"; then
		not_ok "$label: ALTER EXTENSION ulid UPDATE: $(cat "$ULID_WORK/$R.err")"
	else
		verify_updated "$db" "$label, updated"
		check "$label, updated: the generators issue above the old library's last ids" "t t" "$(above "$db" "$last")"
	fi
	pg_stop "$R"

	# self-test: the floors are what lifts them
	echo "ulid.clock_offset_ms = -60000" >>"$(pg_data "$copy")/postgresql.conf"
	if ! pg_start "$copy"; then
		not_ok "released $v self-test: the copy without ulid_floor starts"
		return
	fi
	S=$copy
	check "released $v self-test: without the old ulid_floor the new library issues below the old last ids" "f f" \
		"$(above "$db" "$last")"
	said=$(grep -A3 'ulid_floor" does not exist' "$ULID_WORK/log/$copy.log" | tr '\n' ' ')
	check "released $v self-test: the start-up LOG of the missing file names pg_upgrade, the copy and the repair" "t t t" \
		"$(says "$said" pg_upgrade) $(says "$said" "copy the old data directory's ulid_floor") $(says "$said" ulid_floor_repair)"
	pg_stop "$copy"
}

wait "$builder"
while read -r v c; do
	[ -n "$v" ] || continue
	why=$(release_missing "$c")
	if [ -n "$why" ]; then
		skip "upgrade: released $v ($c) not built: $why"
	elif ! grep -qx "$v" "$built"; then
		not_ok "upgrade: released $v builds from $c: $(tail -5 "$ULID_WORK/log/upgrade-releases.err")"
	else
		released "$v"
	fi
done <<<"$releases"
