#!/usr/bin/env bash
# Failover with no manual step (issue 22): the generators' floors travel in
# WAL, so a promoted standby issues above every id of every transaction it
# received, whatever its clock says.
#
# A primary (node 7) with a streaming standby S1 made by pg_basebackup -R
# (the same node id) and a cascading standby S2 streaming from S1; both
# standbys' clocks run 30 s behind (ulid.clock_offset_ms).  Three clients
# mint at full speed, one per generator (gen_monotonic_ulid(),
# snowflake_next('twitter'), cosid80_next()), 100 rows per autocommit INSERT
# ... RETURNING, recording every id they are given and, after each INSERT,
# that its commit was acknowledged.  Then kill -9 of every process of the
# primary mid-stream, S1 is promoted and at once mints 3 x 20,000 ids, with
# no statement in between.  Checked per generator: 0 new ids equal to or
# below any id of an acknowledged commit (what sequences promise); ids the
# clients saw whose commit was never acknowledged are reported separately.
#
# Run twice: synchronous (synchronous_standby_names names S1) and
# asynchronous.  With asynchronous replication the only ids that may repeat
# are ids the standby never received, and only those issued more than half
# a reservation (0.5 s) after the last id it did receive (README "Replicas
# and failover"); with the standby on the same machine that is none.  The
# synchronous run also promotes the cascading standby S2 (after it replayed
# what S1 received, and before S1, so that it has not followed S1's new
# timeline): the same checks.  The asynchronous run also has a standby
# without the library preloaded: core stops its recovery at the first floor
# record, with its error naming the resource manager.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

GENS="m s c" # the tables: m gen_monotonic_ulid(), s snowflake_next(), c cosid80_next()
declare -A TYPE=([m]=ulid [s]=bigint [c]='text COLLATE "C"')
declare -A DEF=([m]="gen_monotonic_ulid()" [s]="snowflake_next('twitter')" [c]="cosid80_next()")

# mint_script TABLE N: N autocommit INSERTs of 100 rows, each followed by an ack line
mint_script() {
	local i
	for ((i = 0; i < $2; i++)); do
		echo "INSERT INTO $1 (n) SELECT g FROM generate_series(1, 100) g RETURNING id;"
		echo '\echo ack'
	done
}

# split_ids OUT PREFIX: the ids of a client's output followed by "ack" go to
# PREFIX.acked, the rest (seen, commit not acknowledged) to PREFIX.seen
split_ids() {
	awk -v a="$2.acked" -v s="$2.seen" '
		$0 == "ack" { for (i = 0; i < n; i++) print buf[i] > a; n = 0; next }
		/^[0-9A-Za-z]+$/ { buf[n++] = $0 }
		END { for (i = 0; i < n; i++) print buf[i] > s; close(a); close(s) }' "$1"
	touch "$2.acked" "$2.seen"
}

# kill_server NAME: kill -9 of the postmaster and every process it started at once
kill_server() {
	local pm
	pm=$(head -1 "$(pg_data "$1")/postmaster.pid")
	# shellcheck disable=SC2046 # one pid per word
	kill -9 "$pm" $(ps -o pid= --ppid "$pm") 2>/dev/null
	gone() { ! kill -0 "$pm" 2>/dev/null; }
	wait_until 10 gone
}

# load_ids SERVER G DIR: the old clients' ids (acknowledged, seen) and the
# ids SERVER minted, into tables chk_acked_G, chk_seen_G and chk_new_G
load_ids() {
	local t
	for t in acked seen new; do
		psqlx "$1" -c "CREATE TABLE chk_${t}_$2 (id ${TYPE[$2]})" -c "\\copy chk_${t}_$2 FROM '$3/$2.$t'"
	done
}

# check_new SERVER LABEL DIR: load the old clients' ids and the ids SERVER
# minted into SERVER and count repeats and ids below
check_new() {
	local srv=$1 label=$2 dir=$3 g out
	for g in $GENS; do
		load_ids "$srv" $g "$dir"
		out=$(psqlx "$srv" -c "SELECT (SELECT count(*) FROM chk_new_$g),
			(SELECT count(*) FROM chk_acked_$g),
			(SELECT count(*) FROM chk_new_$g n JOIN chk_acked_$g o USING (id)),
			(SELECT count(*) FROM chk_new_$g WHERE id <= (SELECT max(id) FROM chk_acked_$g)),
			(SELECT count(*) FROM chk_acked_$g o WHERE NOT EXISTS (SELECT FROM $g WHERE $g.id = o.id))")
		IFS='|' read -r nnew nacked rep below lost <<<"$out"
		check "$label ${DEF[$g]}: $nnew new ids, 0 equal to and 0 below the $nacked ids of acknowledged commits; every acknowledged id is stored" \
			"0|0|0" "$rep|$below|$lost"
		out=$(psqlx "$srv" -c "SELECT (SELECT count(*) FROM chk_seen_$g),
			(SELECT count(*) FROM chk_new_$g n JOIN chk_seen_$g o USING (id)),
			(SELECT count(*) FROM chk_new_$g WHERE id <= (SELECT max(id) FROM chk_seen_$g))")
		echo "# $label ${DEF[$g]}: ids seen without an acknowledged commit|repeated|new below them: $out"
	done
}

# check_async SERVER LABEL DIR: asynchronous replication: repeats only among
# ids the standby never received, within the README's bound
check_async() {
	local srv=$1 label=$2 dir=$3 g out
	for g in $GENS; do
		load_ids "$srv" $g "$dir"
		psqlx "$srv" -c "CREATE VIEW chk_old_$g AS TABLE chk_acked_$g UNION ALL TABLE chk_seen_$g"
		out=$(psqlx "$srv" -c "SELECT
			(SELECT count(*) FROM chk_new_$g n JOIN $g USING (id)),
			(SELECT count(*) FROM chk_new_$g WHERE id <= (SELECT max(id) FROM $g))")
		check "$label ${DEF[$g]}: no new id equals or lies below an id the standby received" "0|0" "$out"
		# the bound: only ids issued more than 0.5 s after the newest received one
		case $g in
		m) tm="ulid_time(%s)" ;;
		s) tm="snowflake_time(%s, 'twitter')" ;;
		c) tm="cosid80_time(%s)" ;;
		esac
		# shellcheck disable=SC2059 # the time expression is a format
		out=$(psqlx "$srv" -c "SELECT
			(SELECT count(*) FROM chk_new_$g n JOIN chk_old_$g o USING (id)),
			(SELECT count(*) FROM chk_old_$g o WHERE $(printf "$tm" o.id) > (SELECT max($(printf "$tm" id)) FROM $g) + interval '500 ms')")
		IFS='|' read -r rep bound <<<"$out"
		check "$label ${DEF[$g]}: repeats of ids the standby never received ($rep) within the bound ($bound ids issued more than 0.5 s after the last one it received)" \
			t "$([ "$rep" -le "$bound" ] && echo t || echo f)"
	done
}

run() { # MODE: sync or async
	local mode=$1 P=fo_${1}_p S1=fo_${1}_s1 S2=fo_${1}_s2 dir g r
	dir=$ULID_WORK/failover_$mode
	mkdir -p "$dir"
	chmod 777 "$dir"
	if ! pg_new $P "ulid.node_id = 7" || ! pg_start $P; then
		not_ok "$mode: primary starts"
		return
	fi
	psqlx $P -c "CREATE EXTENSION ulid" \
		-c "CREATE TABLE m (id ulid PRIMARY KEY DEFAULT gen_monotonic_ulid(), n int)" \
		-c "CREATE TABLE s (id bigint PRIMARY KEY DEFAULT snowflake_next('twitter'), n int)" \
		-c "CREATE TABLE c (id text COLLATE \"C\" PRIMARY KEY DEFAULT cosid80_next(), n int)"
	if ! pg_new_standby $S1 $P; then
		not_ok "$mode: standby S1 (pg_basebackup)"
		return
	fi
	printf "cluster_name = '%s'\nulid.clock_offset_ms = -30000\n" $S1 >>"$(pg_data $S1)/postgresql.conf"
	pg_start $S1 || { not_ok "$mode: standby S1 starts"; return; }
	if [ "$mode" == async ]; then
		# a standby without the library preloaded: core stops its recovery
		pg_new_standby ${P}_nolib $P && echo "shared_preload_libraries = ''" >>"$(pg_data ${P}_nolib)/postgresql.conf" &&
			pg_start ${P}_nolib || not_ok "$mode: a standby without the library starts"
	fi
	if [ "$mode" == sync ]; then
		if ! pg_new_standby $S2 $S1; then
			not_ok "$mode: cascading standby S2 (pg_basebackup from S1)"
			return
		fi
		echo "ulid.clock_offset_ms = -30000" >>"$(pg_data $S2)/postgresql.conf"
		pg_start $S2 || { not_ok "$mode: standby S2 starts"; return; }
		psqlx $P -c "ALTER SYSTEM SET synchronous_standby_names = '$S1'" -c "SELECT pg_reload_conf()" >/dev/null
		is_sync() { [ "$(psqlx $P -c "SELECT count(*) FROM pg_stat_replication WHERE application_name = '$S1' AND sync_state = 'sync'")" == 1 ]; }
		check_cmd "$mode: S1 is a synchronous standby" wait_until 20 is_sync
	fi

	# three clients at full speed; kill -9 of the primary mid-stream
	local pids=()
	for g in $GENS; do
		mint_script $g 5000 >"$dir/$g.sql"
		psqlx $P -f "$dir/$g.sql" >"$dir/$g.out" 2>"$dir/$g.err" &
		pids+=($!)
	done
	sleep 4
	kill_server $P
	wait "${pids[@]}" 2>/dev/null
	for g in $GENS; do split_ids "$dir/$g.out" "$dir/$g"; done
	echo "# $mode: acknowledged ids m/s/c: $(wc -l <"$dir/m.acked")/$(wc -l <"$dir/s.acked")/$(wc -l <"$dir/c.acked"); seen without acknowledgement: $(wc -l <"$dir/m.seen")/$(wc -l <"$dir/s.seen")/$(wc -l <"$dir/c.seen")"

	# the cascading standby first catches up with what S1 received
	if [ "$mode" == sync ]; then
		local lsn
		lsn=$(psqlx $S1 -c "SELECT pg_last_wal_receive_lsn()")
		caught_up() { [ "$(psqlx $S2 -c "SELECT pg_last_wal_replay_lsn() >= '$lsn'")" == t ]; }
		check_cmd "$mode: S2 replayed what S1 received" wait_until 20 caught_up
	fi

	# promotion, then minting at once: no statement in between
	for r in $([ "$mode" == sync ] && echo $S2) $S1; do
		as_pg "$PG_BIN/pg_ctl" -D "$(pg_data $r)" -w -t 60 promote >/dev/null ||
			{ not_ok "$mode: $r promotes"; continue; }
		pids=()
		for g in $GENS; do
			psqlx $r -c "SELECT ${DEF[$g]} FROM generate_series(1, 20000)" >"$dir/$g.new" 2>"$dir/$g.new.err" &
			pids+=($!)
		done
		wait "${pids[@]}"
		for g in $GENS; do
			check "$mode $r: 20,000 ${DEF[$g]} right after promotion, no error" "20000|" \
				"$(wc -l <"$dir/$g.new")|$(head -c 300 "$dir/$g.new.err")"
		done
		if [ "$mode" == sync ]; then
			check_new $r "$mode $r" "$dir"
		else
			check_async $r "$mode $r" "$dir"
		fi
	done
	if [ "$mode" == async ]; then
		nolib_stopped() { ! as_pg "$PG_BIN/pg_ctl" -D "$(pg_data ${P}_nolib)" status >/dev/null 2>&1; }
		check_cmd "$mode: a standby without the library preloaded stops at the first floor record" wait_until 20 nolib_stopped
		check "$mode: ... with core's error naming the resource manager and the fix" 1 \
			"$(grep -c 'resource manager with ID 213 not registered' "$ULID_WORK/log/${P}_nolib.log")"
		grep -A1 'resource manager with ID 213 not registered' "$ULID_WORK/log/${P}_nolib.log" | sed 's/^/# /'
	fi
	for r in $S2 $S1; do pg_stop "$r" immediate >/dev/null 2>&1; done
}

run sync
run async

# The synchronous standby cut off (its walreceiver stopped, the replication
# connection filled with other WAL), after an idle pause: the next ids need a
# new floor, which the standby never gets.  Statements that return ids then
# are what a client treats as issued, with or without a transaction id:
#  - a read-only SELECT of one session while another session's INSERT waits
#    (the INSERT moved the floor; issue 31, 1i);
#  - a parallel read-only SELECT, whose workers mint (1h).
# No such statement may complete with ids under a floor the standby lacks:
# after the primary's kill -9 and the standby's promotion (its clock 30 s
# behind), no new id equals or lies below an id of a completed statement.
run_cut() {
	local P=fo_cut_p S1=fo_cut_s1 dir=$ULID_WORK/failover_cut wr i
	mkdir -p "$dir"
	chmod 777 "$dir"
	if ! pg_new $P "ulid.node_id = 7" || ! pg_start $P; then
		not_ok "cut: primary starts"
		return
	fi
	psqlx $P -c "CREATE EXTENSION ulid" -c "CREATE TABLE big AS SELECT g FROM generate_series(1, 300000) g" \
		-c "VACUUM ANALYZE big" -c "CREATE TABLE filler (t text)" \
		-c "CREATE TABLE s (id bigint PRIMARY KEY DEFAULT snowflake_next('twitter'), n int)" >/dev/null
	if ! pg_new_standby $S1 $P; then
		not_ok "cut: standby (pg_basebackup)"
		return
	fi
	printf "cluster_name = '%s'\nulid.clock_offset_ms = -30000\n" $S1 >>"$(pg_data $S1)/postgresql.conf"
	pg_start $S1 || { not_ok "cut: standby starts"; return; }
	psqlx $P -c "ALTER SYSTEM SET synchronous_standby_names = '$S1'" -c "SELECT pg_reload_conf()" >/dev/null
	is_sync() { [ "$(psqlx $P -c "SELECT count(*) FROM pg_stat_replication WHERE application_name = '$S1' AND sync_state = 'sync'")" == 1 ]; }
	check_cmd "cut: the standby is synchronous" wait_until 20 is_sync
	psqlx $P -c "INSERT INTO s (n) SELECT g FROM generate_series(1, 1000) g RETURNING id" >"$dir/before.acked"
	sleep 2 # idle: the next id needs a new floor
	wr=$(psqlx $S1 -c "SELECT pid FROM pg_stat_wal_receiver")
	kill -STOP "$wr"
	# fill the replication connection with WAL that does not wait for it
	for i in $(seq 1 8); do
		echo "SET synchronous_commit = local; INSERT INTO filler SELECT repeat('x', 500) FROM generate_series(1, 5000);"
	done >"$dir/fill.sql"
	psqlx $P -f "$dir/fill.sql" >/dev/null 2>&1
	# 1i: session A's INSERT moves the floor (its COMMIT would wait); 50 ms
	# later session B mints in read-only statements
	(timeout 4 "$PG_BIN/psql" -X -q -At -h "$ULID_WORK/sock" -p "$(pg_port $P)" -U postgres \
		-c "INSERT INTO s (n) VALUES (1) RETURNING id" >"$dir/a.out" 2>&1 &)
	sleep 0.05
	for i in $(seq 1 400); do
		echo "SELECT snowflake_next('twitter') FROM generate_series(1, 2000);"
		echo '\echo ack'
	done >"$dir/ro.sql"
	timeout 3 "$PG_BIN/psql" -X -q -At -h "$ULID_WORK/sock" -p "$(pg_port $P)" -U postgres \
		-f "$dir/ro.sql" >"$dir/ro.out" 2>/dev/null
	# 1h: parallel read-only statements
	{
		echo "SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0; SET max_parallel_workers_per_gather = 2;"
		for i in $(seq 1 40); do
			echo "SELECT snowflake_next('twitter') FROM big LIMIT 50000;"
			echo '\echo ack'
		done
	} >"$dir/par.sql"
	check "cut: the parallel statement's plan has workers" 1 \
		"$(psqlx $P -c "SET parallel_setup_cost = 0" -c "SET parallel_tuple_cost = 0" -c "SET min_parallel_table_scan_size = 0" \
			-c "SET max_parallel_workers_per_gather = 2" -c "EXPLAIN SELECT snowflake_next('twitter') FROM big LIMIT 50000" | grep -c 'Workers Planned: 2')"
	timeout 3 "$PG_BIN/psql" -X -q -At -h "$ULID_WORK/sock" -p "$(pg_port $P)" -U postgres \
		-f "$dir/par.sql" >"$dir/par.out" 2>/dev/null
	split_ids "$dir/ro.out" "$dir/ro"
	split_ids "$dir/par.out" "$dir/par"
	cat "$dir/before.acked" "$dir/ro.acked" "$dir/par.acked" >"$dir/s.acked"
	echo "# cut: ids of completed statements: read-only $(wc -l <"$dir/ro.acked"), parallel $(wc -l <"$dir/par.acked")"
	kill_server $P
	kill -CONT "$wr"
	as_pg "$PG_BIN/pg_ctl" -D "$(pg_data $S1)" -w -t 60 promote >/dev/null || { not_ok "cut: the standby promotes"; return; }
	psqlx $S1 -c "SELECT snowflake_next('twitter') FROM generate_series(1, 20000)" >"$dir/s.new"
	psqlx $S1 -c "CREATE TABLE chk_acked (id bigint)" -c "\\copy chk_acked FROM '$dir/s.acked'" \
		-c "CREATE TABLE chk_new (id bigint)" -c "\\copy chk_new FROM '$dir/s.new'" >/dev/null
	check "cut: after promotion no new id equals or lies below an id of a completed statement (read-only and parallel ones)" "0|0" \
		"$(psqlx $S1 -c "SELECT (SELECT count(*) FROM chk_new JOIN chk_acked USING (id)),
			(SELECT count(*) FROM chk_new WHERE id <= (SELECT max(id) FROM chk_acked))")"
	pg_stop $S1 immediate >/dev/null 2>&1
}
run_cut
