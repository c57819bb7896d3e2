#!/usr/bin/env bash
# The floor writer's lock and its wait for the synchronous standby (issue
# 40: W1, R1/O1, R2/O2): PostgreSQL's own primitives, nothing left held.
#  - storms: a plain role's minting backends (gen_monotonic_ulid(),
#    snowflake_next(), cosid80_next(), through dblink) are terminated and
#    cancelled hundreds of times, the floor writer (waiting in IPC/SyncRep)
#    and the backends sleeping until its floor is confirmed alike, with the
#    synchronous standby absent (synchronous_standby_names = 'nosuch') and
#    present (a streaming standby); with it absent also parallel statements
#    whose only minting processes are workers, cut by statement_timeout (the
#    leader terminates its workers: a FATAL exit of the writer).  A cancel
#    fails the statement with 57014.  Afterwards another role mints within a
#    second (statement_timeout);
#  - switching synchronous replication off at run time (ALTER SYSTEM RESET
#    synchronous_standby_names, pg_reload_conf()) releases the waiting
#    writer and every backend sleeping behind it within seconds;
#  - while one writer waits, 4 other minting backends sleep: the extension's
#    wait event in pg_stat_activity (UlidFloorWrite on 17+, Extension
#    before), and their CPU time (/proc/PID/stat, utime + stime) grows by at
#    most 5 ticks in 3 s (a backend polling every 100 us took 30 to 60).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

P=fw_p
S=fw_s
ROUNDS=${ULID_FLOOR_WAITS_ROUNDS:-200} # kills per storm (two storms)
if ! pg_new $P "ulid.node_id = 7" || ! pg_start $P; then
	not_ok "floor waits: primary starts"
	exit 1
fi
psqlx $P -c "CREATE EXTENSION ulid" -c "CREATE EXTENSION dblink" \
	-c "CREATE ROLE mallory LOGIN" -c "CREATE ROLE victim LOGIN" \
	-c "CREATE TABLE big AS SELECT g FROM generate_series(1, 200000) g" -c "VACUUM ANALYZE big" \
	-c "GRANT SELECT ON big TO mallory" >/dev/null
if ! pg_new_standby $S $P; then
	not_ok "floor waits: standby (pg_basebackup)"
	exit 1
fi
echo "cluster_name = '$S'" >>"$(pg_data $S)/postgresql.conf"
pg_start $S || { not_ok "floor waits: standby starts"; exit 1; }
log=$ULID_WORK/log/$P.log
conninfo="host=$ULID_WORK/sock port=$(pg_port $P) dbname=postgres user=mallory"
if [ "$PG_VERSION_NUM" -ge 17 ]; then sleep_event=UlidFloorWrite; else sleep_event=Extension; fi

# storm(absent, rounds, conninfo): 4 dblink connections of mallory mint
# without pause; each round terminates or cancels one of their backends, by
# turns the writer (waiting in SyncRep) and a backend asleep behind it (wait
# event type Extension); with the standby present, when none is seen within
# 50 ms, any of them.  Returns "kills|writer kills|sleeper kills|cancelled
# statements that failed with 57014|other errors".
psqlx $P <<'SQL' >/dev/null
CREATE FUNCTION storm(absent bool, rounds int, conninfo text) RETURNS text
LANGUAGE plpgsql AS $f$
DECLARE
	q text[] := ARRAY[
		'SELECT count(gen_monotonic_ulid()) FROM generate_series(1, 20000)',
		'SELECT count(snowflake_next(''twitter'')) FROM generate_series(1, 20000)',
		'SELECT count(cosid80_next()) FROM generate_series(1, 20000)',
		'SELECT count(gen_monotonic_ulid()) FROM generate_series(1, 20000)'];
	pids int[] := '{0,0,0,0}';
	running bool[] := '{f,f,f,f}';
	c text; k int; i int; target int; ev text; evt text; t0 timestamptz;
	want_writer bool; terminate bool;
	kills int := 0; writer_kills int := 0; sleeper_kills int := 0;
	n57014 int := 0; other text := ''; misses int := 0;
BEGIN
	FOR i IN 1..rounds LOOP
		-- every connection open and minting
		FOR k IN 1..4 LOOP
			c := 'c' || k;
			IF pids[k] = 0 THEN
				PERFORM dblink_connect_u(c, conninfo);
				pids[k] := (SELECT p FROM dblink(c, 'SELECT pg_backend_pid()') AS t(p int));
				running[k] := false;
			END IF;
			IF running[k] AND dblink_is_busy(c) = 0 THEN
				BEGIN
					PERFORM * FROM dblink_get_result(c) AS t(n bigint);
					PERFORM * FROM dblink_get_result(c) AS t(n bigint);
				EXCEPTION WHEN OTHERS THEN
					other := other || ' ' || SQLSTATE;
				END;
				running[k] := false;
			END IF;
			IF NOT running[k] THEN
				PERFORM dblink_send_query(c, q[k]);
				running[k] := true;
			END IF;
		END LOOP;
		-- the target
		want_writer := i % 2 = 0;
		terminate := i % 4 < 2;
		target := NULL;
		t0 := clock_timestamp();
		LOOP
			PERFORM pg_stat_clear_snapshot();
			SELECT a.pid, a.wait_event_type, a.wait_event INTO target, evt, ev
			FROM pg_stat_activity a
			WHERE a.pid = ANY (pids) AND a.state = 'active'
			  AND CASE WHEN want_writer THEN a.wait_event = 'SyncRep'
			           ELSE a.wait_event_type = 'Extension' END
			ORDER BY random() LIMIT 1;
			EXIT WHEN target IS NOT NULL
				OR clock_timestamp() - t0 > CASE WHEN absent THEN interval '3 s' ELSE interval '50 ms' END;
			PERFORM pg_sleep(0.002);
		END LOOP;
		IF target IS NULL AND absent THEN
			misses := misses + 1;	-- nothing waits as it should: stop early
			IF misses >= 3 THEN
				other := other || ' no-such-wait';
				EXIT;
			END IF;
		END IF;
		IF target IS NULL THEN
			PERFORM pg_stat_clear_snapshot();
			SELECT a.pid, a.wait_event_type, a.wait_event INTO target, evt, ev
			FROM pg_stat_activity a WHERE a.pid = ANY (pids) ORDER BY random() LIMIT 1;
		END IF;
		kills := kills + 1;
		writer_kills := writer_kills + (ev IS NOT DISTINCT FROM 'SyncRep')::int;
		sleeper_kills := sleeper_kills + (evt IS NOT DISTINCT FROM 'Extension')::int;
		k := array_position(pids, target);
		c := 'c' || k;
		IF terminate THEN
			PERFORM pg_terminate_backend(target);
		ELSE
			PERFORM pg_cancel_backend(target);
			BEGIN
				PERFORM * FROM dblink_get_result(c) AS t(n bigint);
			EXCEPTION
				WHEN query_canceled THEN n57014 := n57014 + 1;
				WHEN OTHERS THEN other := other || ' ' || SQLSTATE;
			END;
		END IF;
		BEGIN
			PERFORM dblink_disconnect(c);
		EXCEPTION WHEN OTHERS THEN NULL;
		END;
		pids[k] := 0;
	END LOOP;
	FOR k IN 1..4 LOOP
		IF pids[k] <> 0 THEN
			PERFORM dblink_disconnect('c' || k);
		END IF;
	END LOOP;
	RETURN concat_ws('|', kills, writer_kills, sleeper_kills, n57014, trim(other));
END
$f$;
SQL

set_sync() { # VALUE (empty: RESET)
	if [ -n "$1" ]; then
		psqlx $P -c "ALTER SYSTEM SET synchronous_standby_names = '$1'" -c "SELECT pg_reload_conf()" >/dev/null
	else
		psqlx $P -c "ALTER SYSTEM RESET synchronous_standby_names" -c "SELECT pg_reload_conf()" >/dev/null
	fi
}
# victim_mints LABEL TIMEOUT: another role's generators issue within TIMEOUT
victim_mints() {
	local out
	out=$(psqlx $P -U victim -c "SET statement_timeout = '$2'" \
		-c "SELECT gen_monotonic_ulid() IS NOT NULL AND snowflake_next('twitter') > 0 AND cosid80_next() IS NOT NULL" 2>&1)
	check "$1: another role mints at once (statement_timeout $2)" t "$out"
}
storm_checks() { # LABEL RESULT
	local kills wk sk n57014 other
	IFS='|' read -r kills wk sk n57014 other <<<"$2"
	echo "# $1: $kills kills, $wk of a backend waiting in SyncRep, $sk of one asleep behind the writer, $n57014 cancelled statements failed with 57014"
	check "$1: $ROUNDS terminations and cancels, no error but 57014 from a cancelled statement" "$ROUNDS|" "$kills|$other"
	if [ "$1" == absent ]; then
		check "absent: half the kills hit the writer waiting for the standby, half a backend asleep behind it" t \
			"$([ "$wk" -ge $((ROUNDS / 2)) ] && [ "$sk" -ge $((ROUNDS / 2 - ROUNDS / 10)) ] && echo t || echo f)"
		check "absent: cancelled writers and sleepers fail with 57014" t \
			"$([ "$n57014" -ge $((ROUNDS / 2 - ROUNDS / 10)) ] && echo t || echo f)"
	else
		check "present: the writer was hit waiting for the standby (at least $((ROUNDS / 20)) times)" t \
			"$([ "$wk" -ge $((ROUNDS / 20)) ] && echo t || echo f)"
	fi
}

# --- the synchronous standby absent ------------------------------------------
t_start=$(date +%s)
set_sync nosuch
out=$(psqlx $P -c "SELECT storm(true, $ROUNDS, '$conninfo')")
storm_checks absent "$out"
echo "# absent: the storm took $(($(date +%s) - t_start)) s"
# the storm's last backends (their connections closed) wait on: gone
mallory_gone() {
	psqlx $P -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'mallory'" >/dev/null
	[ "$(psqlx $P -c "SELECT count(*) FROM pg_stat_activity WHERE usename = 'mallory'")" == 0 ]
}
wait_until 5 mallory_gone

# parallel statements whose workers mint, cut by statement_timeout: the
# leader terminates its workers, one of them the writer (which waits for the
# standby whatever the session's synchronous_commit)
par="SET max_parallel_workers_per_gather = 2; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;
	SET min_parallel_table_scan_size = 0; SET parallel_leader_participation = off; SET synchronous_commit = off;"
check "absent: the parallel statement's plan has workers" 1 \
	"$(psqlx $P -U mallory -c "$par" -c "EXPLAIN SELECT snowflake_next('twitter') FROM big LIMIT 50000" | grep -c 'Workers Planned: 2')"
before=$(grep -c 'terminating background worker "parallel worker" due to administrator command' "$log")
for i in 1 2 3; do
	out=$(psqlx $P -U mallory -c "$par" -c "SET statement_timeout = '1s'" \
		-c "SELECT count(*) FROM (SELECT snowflake_next('twitter') FROM big LIMIT 50000) s" 2>&1)
	check "absent: parallel statement $i is cancelled by statement_timeout" "canceling statement due to statement timeout" \
		"$(sed -n 's/^.*ERROR: *//p' <<<"$out" | head -1)"
done
terminated() { [ "$(grep -c 'terminating background worker "parallel worker" due to administrator command' "$log")" -gt "$before" ]; }
check_cmd "absent: the leader terminated its workers (FATAL in the log)" wait_until 5 terminated
set_sync ""
sleep 0.3 # the checkpointer publishes the change
victim_mints absent 1s

# --- switching synchronous replication off releases every waiter -------------
set_sync nosuch
sleep 1.5 # idle: the next id needs a new floor
declare -A PID
pids=()
start_minter() { # NAME (the writer's session has synchronous_commit off: it waits all the same)
	PGOPTIONS="-c synchronous_commit=$([ "$1" == fw_writer ] && echo off || echo on)" PGAPPNAME=$1 "$PG_BIN/psql" -X -q -At -h "$ULID_WORK/sock" -p "$(pg_port $P)" -U mallory -d postgres \
		-c "SELECT gen_monotonic_ulid()" >"$ULID_WORK/fw_$1.out" 2>&1 &
	pids+=($!)
}
pid_of() { psqlx $P -c "SELECT pid FROM pg_stat_activity WHERE application_name = '$1' AND state = 'active'"; }
waits_in() { [ "$(psqlx $P -c "SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE '$1' AND wait_event = '$2'")" == "$3" ]; }
start_minter fw_writer
check_cmd "release: the writer waits for the standby (IPC/SyncRep), its session's synchronous_commit off" wait_until 10 waits_in fw_writer SyncRep 1
for n in 1 2 3 4; do start_minter fw_sleeper$n; done
check_cmd "release: 4 other minting backends sleep with the extension's wait event ($sleep_event)" \
	wait_until 10 waits_in 'fw_sleeper%' "$sleep_event" 4
check "release: ... of type Extension" 4 \
	"$(psqlx $P -c "SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE 'fw_sleeper%' AND wait_event_type = 'Extension'")"
ticks() { awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"; }
for n in 1 2 3 4; do PID[$n]=$(pid_of fw_sleeper$n); done
declare -A T0
for n in 1 2 3 4; do T0[$n]=$(ticks "${PID[$n]}"); done
sleep 3
cpu=""
for n in 1 2 3 4; do cpu+="$(($(ticks "${PID[$n]}") - T0[$n])) "; done
echo "# release: CPU ticks of the 4 sleeping backends in 3 s: $cpu"
check "release: the sleeping backends use no CPU (at most 5 ticks each in 3 s)" t \
	"$(for t in $cpu; do [ "$t" -le 5 ] || echo f; done | grep -q f && echo f || echo t)"
# ulid_health() names the waiting writer (its pid) and the way out
check "release: ulid_health() reports the writer waiting for the standby, with its pid and the fix" \
	"sync_standby_wait|$(pid_of fw_writer)|t" \
	"$(psqlx $P -c "SELECT check_name, substring(detail FROM '^Backend ([0-9]+) has waited'), fix LIKE '%ALTER SYSTEM RESET synchronous_standby_names%' FROM ulid_health() WHERE check_name = 'sync_standby_wait'")"
set_sync ""
all_done() { for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && return 1; done; return 0; }
check_cmd "release: switching synchronous replication off releases the writer and every sleeper within 5 s" wait_until 5 all_done
check "release: each got its id" 5 "$(cat "$ULID_WORK"/fw_fw_*.out | grep -c '^[0-9A-Z]\{26\}$')"
check "release: ulid_health() has no sync_standby_wait row once released" 0 \
	"$(psqlx $P -c "SELECT count(*) FROM ulid_health() WHERE check_name = 'sync_standby_wait'")"
for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done

# --- the synchronous standby present ------------------------------------------
set_sync $S
is_sync() { [ "$(psqlx $P -c "SELECT count(*) FROM pg_stat_replication WHERE application_name = '$S' AND sync_state = 'sync'")" == 1 ]; }
check_cmd "present: the standby is synchronous" wait_until 20 is_sync
# the standby's hiccups (its walreceiver stopped for 0.6 s of every 0.9 s,
# as a slow network would): writers wait long enough to be hit, and others
# sleep behind them once the floor in force is used up
wr=$(psqlx $S -c "SELECT pid FROM pg_stat_wal_receiver")
(while :; do kill -STOP "$wr"; sleep 0.6; kill -CONT "$wr"; sleep 0.3; done) &
hiccups=$!
t_start=$(date +%s)
out=$(psqlx $P -c "SELECT storm(false, $ROUNDS, '$conninfo')")
echo "# present: the storm took $(($(date +%s) - t_start)) s"
kill "$hiccups"
wait "$hiccups" 2>/dev/null
kill -CONT "$wr"
storm_checks present "$out"
victim_mints present 2s
pg_stop $S immediate >/dev/null 2>&1
pg_stop $P >/dev/null 2>&1
