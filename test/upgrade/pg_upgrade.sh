#!/usr/bin/env bash
# pg_upgrade from one PostgreSQL major to the next with ulid in use (README
# "Upgrades", "A new PostgreSQL major"); run by `test/compat.sh --pg-upgrade`
# in a chroot that has both majors' Debian packages, or by hand:
#
#   PG_CONFIG=<old major's pg_config> ULID_NEW_PG_CONFIG=<new major's> \
#       test/upgrade/pg_upgrade.sh
#
# ulid is built against each major into a private server copy (lib.sh's
# pg_mirror).  The old cluster (node 1, node 8 owned too) fills tables whose
# defaults are gen_ulid(), gen_monotonic_ulid() (btree, hash, BRIN),
# snowflake_next('twitter') and snowflake_next('twitter', 8), the last one
# advanced an hour ahead (snowflake_advance), and masks of both kinds under a
# key.  It stops; then three new clusters are made from it with pg_upgrade,
# each started with its ulid clock 60 s behind the time the old server
# stopped (ulid.clock_offset_ms):
#   copy-nostep  --copy, nothing carried: the start-up LOG names pg_upgrade,
#                and the new ids fall below the old ones (the self-test:
#                the check below can fail)
#   copy         --copy, then ulid_floor (and ulid_keyring, where the
#   link         --link   library made one) copied from the old data
#                directory before the first start: every new id above
#                every old one, node 8 above its advance; data, keys,
#                masks, amcheck, indexes as before
# The last line is "N passed, N failed".
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${ULID_NEW_PG_CONFIG:?set it to the new major pg_config}"
ULID_RESULTS=$(mktemp /tmp/ulid-results.XXXXXX)
export ULID_RESULTS
# shellcheck source=test/lib.sh
source "$here/../lib.sh"
summary() {
	local counts
	counts=$(count_results "$ULID_RESULTS")
	rm -f "$ULID_RESULTS"
	echo "${counts% *} passed, ${counts#* } failed"
	[ "${counts#* }" -eq 0 ] && [ "${counts% *}" -gt 0 ]
}
if ! harness_init; then
	not_ok "build and temporary install for $("$PG_CONFIG" --version)"
	summary
	exit 1
fi
OLD_BIN=$PG_BIN
# the new major: the same tree built against it, in a copy of its own
new_src=$ULID_WORK/src-new
mkdir -p "$new_src"
tar -C "$ULID_ROOT" --exclude=.git -cf - . | tar -C "$new_src" -xf -
if ! make -C "$new_src" -s clean PG_CONFIG="$ULID_NEW_PG_CONFIG" >/dev/null 2>&1 ||
	! make -C "$new_src" -s PG_CONFIG="$ULID_NEW_PG_CONFIG" >"$ULID_WORK/build-new.log" 2>&1 ||
	! make -C "$new_src" -s PG_CONFIG="$ULID_NEW_PG_CONFIG" install DESTDIR="$ULID_WORK/install-new" >>"$ULID_WORK/build-new.log" 2>&1; then
	tail -30 "$ULID_WORK/build-new.log"
	not_ok "build and temporary install for $("$ULID_NEW_PG_CONFIG" --version)"
	summary
	exit 1
fi
PG_CONFIG=$ULID_NEW_PG_CONFIG pg_mirror "$ULID_WORK/install-new"
NEW_BIN=$ULID_WORK/install-new$("$ULID_NEW_PG_CONFIG" --bindir)
old_v=$("$OLD_BIN/postgres" -V) new_v=$("$NEW_BIN/postgres" -V)
echo "# pg_upgrade: $old_v -> $new_v"

sql() {
	local name=$1
	shift
	ULID_DB=app psqlx "$name" "$@"
}
S=old
conf=("ulid.node_id = 1" "ulid.node_ids = '1,8'")
if ! pg_new $S "${conf[@]}" || ! pg_start $S; then
	not_ok "pg_upgrade: the old server starts"
	summary
	exit 1
fi
psqlx $S -c "CREATE DATABASE app"
if ! sql "$S" -c "CREATE EXTENSION ulid" -c "CREATE EXTENSION amcheck" -c "SELECT ulid_key_create('api')" -c "
CREATE TABLE a (id ulid PRIMARY KEY DEFAULT gen_ulid(), n int);
CREATE TABLE m (id ulid PRIMARY KEY DEFAULT gen_monotonic_ulid(), n int);
CREATE INDEX m_brin ON m USING brin (id);
CREATE INDEX m_hash ON m USING hash (id);
CREATE TABLE s (id bigint PRIMARY KEY DEFAULT snowflake_next('twitter'), n int);
CREATE TABLE s8 (id bigint PRIMARY KEY DEFAULT snowflake_next('twitter', 8), n int);
SELECT snowflake_advance('twitter', 8, snowflake_upper('twitter', now() + interval '1 hour'));
INSERT INTO a (n) SELECT g FROM generate_series(1, 20000) g;
INSERT INTO m (n) SELECT g FROM generate_series(1, 20000) g;
INSERT INTO s (n) SELECT g FROM generate_series(1, 20000) g;
INSERT INTO s8 (n) SELECT g FROM generate_series(1, 1000) g;
CREATE TABLE pub AS SELECT m.n, ulid_mask(m.id, 'api') AS um, snowflake_mask(s.id, 'twitter', 'api') AS sm
FROM m JOIN s USING (n);" >/dev/null 2>"$ULID_WORK/old.err"; then
	not_ok "pg_upgrade: the old cluster's data: $(cat "$ULID_WORK/old.err")"
	summary
	exit 1
fi
# the largest id of each generator the old server issued
maxima="SELECT (SELECT max(id) FROM m)::text || ' ' || (SELECT max(id) FROM s) || ' ' || (SELECT max(id) FROM s8)"
old_max=$(sql "$S" -c "$maxima")
old_rows=$(sql "$S" -c "SELECT md5(string_agg(x, ',' ORDER BY x)) FROM (SELECT 'a' || a::text x FROM a UNION ALL SELECT 'm' || m::text FROM m UNION ALL SELECT 's' || s::text FROM s UNION ALL SELECT 's8' || s8::text FROM s8 UNION ALL SELECT 'p' || pub::text FROM pub) t")
check "pg_upgrade: the old node 8 is an hour ahead (advanced)" "t" \
	"$(sql "$S" -c "SELECT snowflake_time(max(id), 'twitter') > now() + interval '59 min' FROM s8")"
pg_stop $S
stopped_ms=$(date +%s%3N)
check_cmd "pg_upgrade: the old cluster has its ulid_floor" test -f "$(pg_data old)/ulid_floor"

# upgrade NAME MODE STEP: pg_upgrade --MODE of the old cluster into NAME;
# STEP "copy" copies ulid_floor (and ulid_keyring) before the first start;
# the new server starts with its clock 60 s behind the old one's stop
upgrade() {
	local name=$1 mode=$2 step=$3 f rc opt=--$2
	PG_BIN=$NEW_BIN
	# (--copy is the default, named from 16 on)
	"$NEW_BIN/pg_upgrade" --help | grep -q -- "$opt" || opt=''
	pg_new "$name" "${conf[@]}" || return 1
	(cd "$ULID_WORK/log" && as_pg "$NEW_BIN/pg_upgrade" -b "$OLD_BIN" -B "$NEW_BIN" -d "$(pg_data old)" -D "$(pg_data "$name")" \
		-s "$ULID_WORK/sock" -p "$(pg_port old)" -P "$(pg_port "$name")" -U postgres ${opt:+"$opt"}) >"$ULID_WORK/log/$name.pg_upgrade.log" 2>&1
	rc=$?
	if [ $rc -ne 0 ]; then
		tail -20 "$ULID_WORK/log/$name.pg_upgrade.log" | sed 's/^/# /'
		return 1
	fi
	if [ "$step" == copy ]; then
		for f in ulid_floor ulid_keyring; do
			[ -e "$(pg_data old)/$f" ] && cp -p "$(pg_data old)/$f" "$(pg_data "$name")/$f"
		done
	fi
	echo "ulid.clock_offset_ms = -$((60000 + $(date +%s%3N) - stopped_ms))" >>"$(pg_data "$name")/postgresql.conf"
	pg_start "$name"
}

# says TEXT WORDS: t when TEXT holds WORDS, else f
says() { case $1 in *"$2"*) echo t ;; *) echo f ;; esac; }

for run in "copy-nostep copy none" "copy copy copy" "link link copy"; do
	read -r name mode step <<<"$run"
	label="pg_upgrade --$mode, $([ "$step" == copy ] && echo "ulid_floor copied" || echo "nothing carried")"
	start=$(date +%s%3N)
	if ! upgrade "$name" "$mode" "$step"; then
		not_ok "$label: pg_upgrade and the new server's start"
		continue
	fi
	ok "$label: pg_upgrade and the first start ($(($(date +%s%3N) - start)) ms)"
	S=$name
	check "$label: the clock is 60 s behind the old server's stop" "t" \
		"$(sql "$S" -c "SELECT current_setting('ulid.clock_offset_ms')::int <= -60000")"
	# new ids, one statement each, compared with the old server's largest
	news=$(sql "$S" -c "SELECT gen_monotonic_ulid() > '${old_max%% *}'::ulid, snowflake_next('twitter') > $(cut -d' ' -f2 <<<"$old_max"),
	                         snowflake_next('twitter', 8) > ${old_max##* }" | tr '|' ' ')
	if [ "$step" == copy ]; then
		check "$label: no new id falls below an old one (monotonic, twitter, advanced node 8)" "t t t" "$news"
		check "$label: after 1,000 rows each, still none below" "t|t|t" \
			"$(sql "$S" -c "INSERT INTO m (n) SELECT -g FROM generate_series(1, 1000) g" \
				-c "INSERT INTO s (n) SELECT -g FROM generate_series(1, 1000) g" \
				-c "INSERT INTO s8 (n) SELECT -g FROM generate_series(1, 1000) g" \
				-c "SELECT min(id) FILTER (WHERE n < 0) > max(id) FILTER (WHERE n > 0) FROM m" \
				-c "SELECT min(id) FILTER (WHERE n < 0) > max(id) FILTER (WHERE n > 0) FROM s" \
				-c "SELECT min(id) FILTER (WHERE n < 0) > max(id) FILTER (WHERE n > 0) FROM s8" | paste -sd'|')"
		check "$label: the data, keys and masks came across" "$old_rows" \
			"$(sql "$S" -c "SELECT md5(string_agg(x, ',' ORDER BY x)) FROM (SELECT 'a' || a::text x FROM a UNION ALL SELECT 'm' || m::text FROM m WHERE n > 0 UNION ALL SELECT 's' || s::text FROM s WHERE n > 0 UNION ALL SELECT 's8' || s8::text FROM s8 WHERE n > 0 UNION ALL SELECT 'p' || pub::text FROM pub) t")"
		check "$label: the masks unmask under the key (20000 of 20000 each)" "20000|20000" \
			"$(sql "$S" -c "SELECT count(*) FILTER (WHERE ulid_unmask(um, 'api') = m.id), count(*) FILTER (WHERE snowflake_unmask(sm, 'twitter', 'api') = s.id)
			              FROM pub JOIN m USING (n) JOIN s USING (n)")"
		check "$label: amcheck passes on the 4 btree indexes" "4" \
			"$(sql "$S" -c "SELECT count(bt_index_check(c.oid, true)) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
			              JOIN pg_am am ON am.oid = c.relam AND am.amname = 'btree' WHERE c.relnamespace = 'public'::regnamespace")"
	else
		said=$(grep -A3 'ulid_floor" does not exist' "$ULID_WORK/log/$name.log" | tr '\n' ' ')
		check "$label: the start-up LOG names pg_upgrade, the copy and the repair" "t t t" \
			"$(says "$said" pg_upgrade) $(says "$said" "copy the old") $(says "$said" ulid_floor_repair)"
		check "$label (self-test): without the step the new ids fall below the old (monotonic, twitter, node 8)" "f f f" "$news"
	fi
	pg_stop "$S"
done
summary
