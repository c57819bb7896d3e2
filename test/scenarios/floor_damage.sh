#!/usr/bin/env bash
# A damaged restart floor fails closed, and per-state floors keep an advance
# to itself.
#  - a new cluster's missing file is logged;
#  - garbage, a truncated file, an empty one, an unknown format version, a
#    directory, a file with mode 000, a symlink to /dev/null, a dangling
#    symlink and a FIFO in its place (the server starts: nothing blocks):
#    every generator refuses with 55000 naming the file, what is wrong and
#    ulid_floor_repair(), the file is left alone, and nothing is issued until
#    a superuser repairs it (the repair removes a directory, an unreadable
#    file or a symlink in the way); then ids lie above the repair time and
#    above everything issued before;
#  - a directory with contents in its place: the repair's error says what to
#    remove, and where;
#  - a floor far in the future is a WARNING at start, and a repair lowers
#    it only when told to, with a WARNING naming what that drops;
#  - a version 1 file (earlier builds) is read;
#  - an error writing the file names it as the restart floor, with its path;
#  - a FIFO, a symlink or a directory where the temporary file goes: 55000
#    at once (never a hang), and the repair removes it;
#  - snowflake_advance() to 2079 and ulid_monotonic_advance() to the last
#    ULID, across restarts: only the advanced state moves; the resets undo
#    them, and the undo survives the next restart.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

S=floor_damage
if ! pg_new $S "ulid.node_ids = '1,2,9'" || ! pg_start $S; then
	not_ok "floor damage: server starts"
	exit 1
fi
psqlx $S -c "CREATE EXTENSION ulid"
psqlx $S -c "CREATE ROLE plain LOGIN"
data=$(pg_data $S)
floor_file=$data/ulid_floor
log=$ULID_WORK/log/$S.log
preloaded=${ULID_PRELOAD-ulid}

# touch: where ulid is not preloaded the floor is read by the first backend
# that needs the state
touch_state() { [ -n "$preloaded" ] || psqlx $S -c "SELECT gen_monotonic_ulid()" >/dev/null 2>&1 || true; }

touch_state
if grep -q "ulid restart floor file \"$floor_file\" does not exist" "$log"; then
	ok "floor damage: a new cluster's missing file is logged"
else
	not_ok "floor damage: a new cluster's missing file is logged"
fi

error_fields() { sql_error $S "$1"; }

mint() {
	psqlx $S -c "SELECT max(u) FROM (SELECT gen_monotonic_ulid() AS u FROM generate_series(1, 1000)) s"
}
mint_sf() {
	psqlx $S -c "SELECT max(snowflake_next('twitter', 1)) FROM generate_series(1, 1000)"
}

max_u=$(mint)
max_sf=$(mint_sf)

# damaged_round NAME PROBLEM: damage_NAME damages the file; PROBLEM is the errdetail's
damaged_round() {
	local name=$1 problem=$2 fields before_bytes
	pg_stop $S fast
	"damage_$name"
	pg_start $S
	touch_state
	fields=$(error_fields "gen_monotonic_ulid()")
	case $fields in
	"55000|ulid generators are stopped: the restart floor file \"$floor_file\" is damaged|At server start $problem."*"|"*"ulid_floor_repair("*) ok "$name: gen_monotonic_ulid() refuses with 55000, the file, the problem and the repair" ;;
	*) not_ok "$name: gen_monotonic_ulid() refuses with 55000, the file, the problem and the repair (got: $fields)" ;;
	esac
	fields=$(error_fields "snowflake_next('twitter', 1)")
	case $fields in
	"55000|ulid generators are stopped"*) ok "$name: snowflake_next() refuses with 55000" ;;
	*) not_ok "$name: snowflake_next() refuses with 55000 (got: $fields)" ;;
	esac
	fields=$(error_fields "snowflake_next('discord', 9)")
	case $fields in
	"55000|ulid generators are stopped"*) ok "$name: a new Snowflake state refuses too" ;;
	*) not_ok "$name: a new Snowflake state refuses too (got: $fields)" ;;
	esac
	if grep -q "ulid restart floor file \"$floor_file\" is damaged: $problem" "$log"; then
		ok "$name: the damage is logged at start"
	else
		not_ok "$name: the damage is logged at start"
	fi
	before_bytes=$(ls -ld "$floor_file" | awk '{print $5}')
	check "$name: the damaged file is left as it was" "$before_bytes" "$(ls -ld "$floor_file" | awk '{print $5}')"
	case $(psqlx $S -U plain -c "SELECT ulid_floor_repair(now())" 2>&1) in
	*"permission denied for function ulid_floor_repair"*) ok "$name: a plain role cannot repair it" ;;
	*) not_ok "$name: a plain role cannot repair it" ;;
	esac
}

repair() {
	psqlx $S -c "SELECT ulid_floor_repair(ulid_time('$max_u'))" 2>&1
}
repaired_checks() {
	local name=$1 u sf
	u=$(psqlx $S -c "SELECT gen_monotonic_ulid()")
	sf=$(psqlx $S -c "SELECT snowflake_next('twitter', 1)")
	check "$name: after the repair ids lie above the repair time and every id before" t \
		"$(psqlx $S -c "SELECT '$u'::ulid > '$max_u'::ulid AND ulid_time('$u') > ulid_time('$max_u')
			AND $sf > $max_sf")"
	check "$name: the file is rewritten in format version 2" "ulid floor 2" "$(head -1 "$floor_file")"
	max_u=$(mint)
	max_sf=$(mint_sf)
}

damage_garbage() { echo "garbage" >"$floor_file"; }
damage_truncated() { printf 'ulid floor 2\n17' >"$floor_file"; }
damage_empty() { : >"$floor_file"; }
damage_version() { printf 'ulid floor 9\n1712345678901\n' >"$floor_file"; }
damage_directory() { rm -f "$floor_file" && mkdir "$floor_file" && chown postgres: "$floor_file"; }
damage_full_directory() { damage_directory && echo x >"$floor_file/keep" && chown postgres: "$floor_file/keep"; }
damage_mode000() { chmod 000 "$floor_file"; }
damage_symlink() { rm -f "$floor_file" && ln -s /dev/null "$floor_file"; }
damage_dangling() { rm -f "$floor_file" && ln -s "$ULID_WORK/unmounted/ulid_floor" "$floor_file"; }
damage_fifo() { rm -f "$floor_file" && mkfifo "$floor_file" && chown postgres: "$floor_file"; }

damaged_round garbage "its first line is not \"ulid floor N\" (line 1)"
check "garbage: the file still holds the garbage" garbage "$(cat "$floor_file")"
out=$(repair)
case $out in
*"rewritten: every generator issues above"*) ok "garbage: ulid_floor_repair() says what it did" ;;
*) not_ok "garbage: ulid_floor_repair() says what it did (got: $out)" ;;
esac
repaired_checks garbage

damaged_round truncated "it ends in the middle of a line (truncated) (line 2)"
repair >/dev/null
repaired_checks truncated

damaged_round empty "it is empty"
repair >/dev/null
repaired_checks empty

damaged_round version "it has format version 9, which this build does not read (it reads 1 and 2)"
repair >/dev/null
repaired_checks version

# repaired_round NAME REMOVED: the repair removes what stands in the file's
# place (the NOTICE says what), and the generators issue again
repaired_round() {
	local out
	out=$(repair)
	case $out in
	*"rewritten: every generator issues above"*"The repair removed $2 that stood in its place; gen_monotonic_ulid() and snowflake_next() issue ids again."*)
		ok "$1: ulid_floor_repair() removes $2 and says so" ;;
	*) not_ok "$1: ulid_floor_repair() removes $2 and says so (got: $out)" ;;
	esac
	check "$1: a regular file is in its place" "regular file" "$(stat -c %F "$floor_file")"
	repaired_checks "$1"
}
damaged_round directory "it is a directory, not a file"
repaired_round directory "an empty directory"
damaged_round mode000 "it cannot be opened: Permission denied"
repaired_round mode000 "a file that could not be opened"
damaged_round symlink "it is a symbolic link, not a file (the file is kept in the data directory itself)"
repaired_round symlink "a symbolic link"
check "symlink: /dev/null is untouched" "character special file" "$(stat -c %F /dev/null)"
# a dangling symlink (it pointed to a volume that is not mounted) is damage
# too, not a missing file: no id is issued from the clock alone
damaged_round dangling "it is a symbolic link, not a file (the file is kept in the data directory itself)"
repaired_round dangling "a symbolic link"
# a FIFO: the server starts (opening it would block for ever) and refuses
damaged_round fifo "it is not a regular file"
repaired_round fifo "a special file"

# a directory with contents: the repair does not delete them; its error says
# what to remove, and where
damaged_round full_directory "it is a directory, not a file"
out=$(sql_error $S "ulid_floor_repair(ulid_time('$max_u'))")
case $out in
"55000|could not repair the ulid restart floor: \"$floor_file\" is a directory"*"|"*"Move the directory \"$floor_file\" away (or remove it)"*"then run ulid_floor_repair() again.")
	ok "full directory: the repair's error says what to remove, and where" ;;
*) not_ok "full directory: the repair's error says what to remove, and where (got: $out)" ;;
esac
check "full directory: its contents are kept" x "$(cat "$floor_file/keep")"
rm -r "$floor_file"
repair >/dev/null
repaired_checks full_directory

# a version 1 file (earlier builds) is read: ids go above its floor
v1=$(($(psqlx $S -c "SELECT greatest(ulid_unix_ms('$max_u'), (extract(epoch FROM clock_timestamp()) * 1000)::bigint)") + 2000))
pg_stop $S fast
printf 'ulid floor 1\n%s\n' "$v1" >"$floor_file"
pg_start $S
check "version 1: read, ids lie at or above its floor" t \
	"$(psqlx $S -c "SELECT ulid_unix_ms(gen_monotonic_ulid()) >= $v1")"
check "version 1: rewritten as version 2" "ulid floor 2" "$(head -1 "$floor_file")"
sleep 3 # until the clock passes that floor
max_u=$(mint)

# a well-formed floor far in the future (a clock that jumped ahead, a file
# copied from elsewhere): a WARNING at start names it; a repair that only
# raises says it changes nothing; lowering it on purpose brings every
# generator back to the clock, with a WARNING naming what that drops
pg_stop $S fast
printf 'ulid floor 2\n4102444800000\n' >"$floor_file"
pg_start $S
touch_state
if grep -q "WARNING:  ulid restart floor file \"$floor_file\" holds a floor more than a day ahead of the clock: 2100-01-01T00:00:00.000Z" "$log"; then
	ok "far future: a WARNING at start names the floor"
else
	not_ok "far future: a WARNING at start names the floor"
fi
check "far future: ids lie at that floor" t \
	"$(psqlx $S -c "SELECT ulid_time(gen_monotonic_ulid()) >= '2100-01-01Z'")"
out=$(psqlx $S -c "SELECT ulid_floor_repair(now() + interval '1 minute')" 2>&1)
case $out in
*"its floor stays at 2100-01-01T00:00:00."*", above"*"never lowers one"*"lower => true"*) ok "far future: a raising repair says the floor stays, and how to lower it" ;;
*) not_ok "far future: a raising repair says the floor stays, and how to lower it (got: $out)" ;;
esac
out=$(psqlx $S -c "SELECT ulid_floor_repair(now(), lower => true)" 2>&1)
case $out in
*"WARNING:  ulid restart floor lowered from 2100-01-01"*"no id repeats one issued before is dropped"*) ok "far future: lowering it on purpose WARNs what it drops" ;;
*) not_ok "far future: lowering it on purpose WARNs what it drops (got: $out)" ;;
esac
check "far future: after lowering, gen_monotonic_ulid() and snowflake_next() follow the clock" t \
	"$(psqlx $S -c "SELECT abs(extract(epoch FROM ulid_time(gen_monotonic_ulid()) - clock_timestamp())) < 5
		AND abs(extract(epoch FROM snowflake_time(snowflake_next('discord', 2), 'discord') - clock_timestamp())) < 5")"
check "far future: lowering needs a superuser" "42501" \
	"$(sql_error $S "ulid_floor_repair(now(), lower => true)" -U plain | cut -d'|' -f1)"
pg_stop $S fast && pg_start $S
check "far future: the lowered floor survives a restart" t \
	"$(psqlx $S -c "SELECT abs(extract(epoch FROM ulid_time(gen_monotonic_ulid()) - clock_timestamp())) < 5")"
max_u=$(mint)
max_sf=$(mint_sf)

# an error writing the file: the data directory cannot take a new file
sleep 1.2 # the next id needs a new floor
chmod 0555 "$data"
fields=$(error_fields "gen_monotonic_ulid()")
chmod 0700 "$data"
case $fields in
*"could not create file \"ulid_floor.tmp\": Permission denied"*"\"$floor_file\" is the restart floor of gen_monotonic_ulid() and snowflake_next()"*) ok "write error: names the restart floor and its path" ;;
*) not_ok "write error: names the restart floor and its path (got: $fields)" ;;
esac
check "write error: once it can be written, ids are issued again" t \
	"$(psqlx $S -c "SELECT gen_monotonic_ulid() > '$max_u'")"
max_u=$(mint)

# something put where the temporary file goes (issue 40, F1b): a FIFO
# (opening it would block the writer for ever, holding its lock), a symbolic
# link (never followed) or a directory: the first id that needs a new floor
# fails at once with 55000 naming it and the repair, which removes it
tmp_fifo() { mkfifo "$floor_file.tmp" && chown postgres: "$floor_file.tmp"; }
tmp_symlink() { ln -s "$data/elsewhere" "$floor_file.tmp"; }
tmp_directory() { mkdir "$floor_file.tmp" && chown postgres: "$floor_file.tmp"; }
tmp_round() { # NAME WHAT REMOVED
	local fields out
	pg_stop $S fast
	"tmp_$1"
	pg_start $S
	sleep 1.2 # the next id needs a new floor
	fields=$(timeout 10 "$PG_BIN/psql" -X -q -At -h "$ULID_WORK/sock" -p "$(pg_port $S)" -U postgres \
		-c "DO \$\$ DECLARE st text; msg text; det text; hnt text; BEGIN PERFORM gen_monotonic_ulid(); RAISE NOTICE 'ok';
		EXCEPTION WHEN OTHERS THEN GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL, hnt = PG_EXCEPTION_HINT;
		RAISE NOTICE '%|%|%|%', st, msg, det, hnt; END \$\$" 2>&1 | sed -n 's/^.*NOTICE: *//p')
	case $fields in
	"55000|could not write the ulid restart floor: \"$floor_file.tmp\" is $2|"*"renames it to \"$floor_file\""*"|"*"ulid_floor_repair("*) ok "$1 at ulid_floor.tmp: the first id fails at once with 55000, naming it and the repair" ;;
	*) not_ok "$1 at ulid_floor.tmp: the first id fails at once with 55000, naming it and the repair (got: $fields)" ;;
	esac
	out=$(timeout 10 "$PG_BIN/psql" -X -q -At -h "$ULID_WORK/sock" -p "$(pg_port $S)" -U postgres \
		-c "SELECT ulid_floor_repair(ulid_time('$max_u'))" 2>&1)
	case $out in
	*"The repair removed $3 that stood where its temporary file \"$floor_file.tmp\" is written."*) ok "$1 at ulid_floor.tmp: ulid_floor_repair() removes it and says so" ;;
	*) not_ok "$1 at ulid_floor.tmp: ulid_floor_repair() removes it and says so (got: $out)" ;;
	esac
	check "$1 at ulid_floor.tmp: ids again, above every id before; nothing was written through it" "t|f" \
		"$(psqlx $S -c "SELECT gen_monotonic_ulid() > '$max_u'")|$([ -e "$data/elsewhere" ] && echo t || echo f)"
	max_u=$(mint)
}
tmp_round fifo "a FIFO" "a FIFO"
tmp_round symlink "a symbolic link" "a symbolic link"
tmp_round directory "a directory" "an empty directory"

# per-state floors: an advance to 2079 moves only its state, across restarts
max_u=$(mint)
psqlx $S -c "SELECT snowflake_advance('twitter', 1, snowflake_pack('twitter', '2079-01-01Z', 1, 0))" >/dev/null
pg_stop $S immediate && pg_start $S
check "advance 2079: after a restart gen_monotonic_ulid() follows the clock" t \
	"$(psqlx $S -c "SELECT abs(extract(epoch FROM ulid_time(gen_monotonic_ulid()) - clock_timestamp())) < 5")"
check "advance 2079: another layout follows the clock" t \
	"$(psqlx $S -c "SELECT abs(extract(epoch FROM snowflake_time(snowflake_next('discord', 1), 'discord') - clock_timestamp())) < 5")"
check "advance 2079: the advanced state issues above its target" t \
	"$(psqlx $S -c "SELECT snowflake_next('twitter', 1) > snowflake_pack('twitter', '2079-01-01Z', 1, 0)")"
check "advance 2079: the view shows the state's own floor" "t|t" \
	"$(psqlx $S -c "SELECT state_floor > '2079-01-01Z', persisted_floor < now() + interval '1 minute'
		FROM ulid_generator_state WHERE layout = 'twitter' AND node = 1")"
check "advance 2079: the file holds its own floor line" 1 "$(grep -c '^2 ' "$floor_file")"
out=$(psqlx $S -c "SELECT snowflake_reset('twitter', 1)" 2>&1)
case $out in
*"WARNING:  snowflake_next() for layout twitter, node 1, no longer stays above the ids issued since its advance"*"may be issued again once the clock reaches them"*) ok "reset: a WARNING says which guarantee it drops" ;;
*) not_ok "reset: a WARNING says which guarantee it drops (got: $out)" ;;
esac
check "reset: the next id follows the clock" t \
	"$(psqlx $S -c "SELECT abs(extract(epoch FROM snowflake_time(snowflake_next('twitter', 1), 'twitter') - clock_timestamp())) < 5")"
check "reset: the file no longer holds the floor line" 0 "$(grep -c '^2 ' "$floor_file")"
pg_stop $S immediate && pg_start $S
check "reset: it survives a restart" t \
	"$(psqlx $S -c "SELECT abs(extract(epoch FROM snowflake_time(snowflake_next('twitter', 1), 'twitter') - clock_timestamp())) < 5")"

# ulid_monotonic_advance() to the last ULID: after a restart only
# gen_monotonic_ulid() stops, with an error naming the advance
psqlx $S -c "SELECT ulid_monotonic_advance('7ZZZZZZZZZZZZZZZZZZZZZZZZY')" >/dev/null
pg_stop $S fast && pg_start $S
fields=$(error_fields "gen_monotonic_ulid()")
case $fields in
"22008|gen_monotonic_ulid() has no ULID left above its advanced state|"*"ulid_monotonic_reset()"*) ok "monotonic advance: after a restart the error names the advance and the reset" ;;
*) not_ok "monotonic advance: after a restart the error names the advance and the reset (got: $fields)" ;;
esac
check "monotonic advance: Snowflake ids follow the clock" t \
	"$(psqlx $S -c "SELECT abs(extract(epoch FROM snowflake_time(snowflake_next('discord', 2), 'discord') - clock_timestamp())) < 5")"
psqlx $S -c "SET client_min_messages = error" -c "SELECT ulid_monotonic_reset()" >/dev/null
check "monotonic reset: ids above those before the advance, on the clock" t \
	"$(psqlx $S -c "SELECT u > '$max_u' AND abs(extract(epoch FROM ulid_time(u) - clock_timestamp())) < 5 FROM (SELECT gen_monotonic_ulid() AS u) s")"
pg_stop $S fast && pg_start $S
check "monotonic reset: it survives a restart" t \
	"$(psqlx $S -c "SELECT abs(extract(epoch FROM ulid_time(gen_monotonic_ulid()) - clock_timestamp())) < 5")"
pg_stop $S
