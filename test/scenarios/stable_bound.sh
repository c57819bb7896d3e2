#!/usr/bin/env bash
# ulid_stable_bound() (issue 41) under load: 8 writers for 30 s (a random delay
# between INSERT and COMMIT, 10% ROLLBACK, savepoints rolled back, prepared
# transactions committed from another session) and 2 readers paging by id
# with the bound: each reader's set equals the committed set.  A naive
# reader (the same loop without the bound) misses rows: printed and
# asserted, so the run shows what the bound guards against.  Then a
# backend terminated and one killed with kill -9 (crash restart), a
# prepared transaction held across a restart and a crash, and a long
# transaction holding the bound.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

S=bound
if ! pg_new $S "max_prepared_transactions = 200" || ! pg_start $S; then
	not_ok "stable_bound: server starts"
	exit 1
fi
W=$ULID_WORK/stable_bound
mkdir -p "$W"
chmod 777 "$W"
psqlx $S -c "CREATE EXTENSION ulid" \
	-c "CREATE TABLE events (id ulid PRIMARY KEY DEFAULT gen_monotonic_ulid(), w int, k int, how text)" \
	-c "CREATE TABLE done (at timestamptz)" \
	-c "CREATE TABLE seen (reader text, id ulid)"

# --- writers ----------------------------------------------------------------
# writer_sql W N: N transactions of writer W, as one psql script
writer_sql() {
	local w=$1 n=$2 k r d how
	for ((k = 1; k <= n; k++)); do
		r=$((RANDOM % 100))
		d=0.0$((RANDOM % 40 + 10))
		how=commit
		((r < 10)) && how=rollback
		((r >= 10 && r < 15)) && how=prepared
		echo "BEGIN;"
		# some ids minted before the transaction has an xid
		if ((r % 7 == 0)); then
			echo "SELECT set_config('sb.id', gen_monotonic_ulid()::text, false);"
			echo "SELECT pg_sleep($d);"
			echo "INSERT INTO events VALUES (current_setting('sb.id')::ulid, $w, $k, '$how');"
		else
			echo "INSERT INTO events (w, k, how) VALUES ($w, $k, '$how');"
		fi
		if ((r % 5 == 1)); then
			echo "SAVEPOINT s; INSERT INTO events (w, k) VALUES ($w, -$k); ROLLBACK TO s;"
		fi
		echo "SELECT pg_sleep($d);"
		case $how in
		rollback) echo "ROLLBACK;" ;;
		prepared) echo "PREPARE TRANSACTION 'w${w}_$k';" ;;
		*) echo "COMMIT;" ;;
		esac
	done
}
for w in 1 2 3 4 5 6 7 8; do
	writer_sql $w 2000 >"$W/writer$w.sql"
done

# a reader: pages in one session until done is set and a page comes back
# empty, each page one statement (with the bound, or naive without it)
reader_sql() {
	local name=$1 cond=$2
	cat <<SQL
DO \$\$
DECLARE cur ulid := '00000000000000000000000000'; ids ulid[]; fin boolean := false;
BEGIN
    LOOP
        SELECT array_agg(id ORDER BY id) INTO ids
        FROM (SELECT id FROM events WHERE id > cur $cond ORDER BY id LIMIT 50) p;
        IF ids IS NULL THEN
            EXIT WHEN fin;
            fin := EXISTS (SELECT FROM done);
            PERFORM pg_sleep(0.005);
        ELSE
            INSERT INTO seen SELECT '$name', unnest(ids);
            cur := ids[array_length(ids, 1)];
        END IF;
    END LOOP;
END
\$\$;
SQL
}
reader_sql bound1 "AND id < ulid_stable_bound()" >"$W/bound1.sql"
reader_sql bound2 "AND id < ulid_stable_bound()" >"$W/bound2.sql"
reader_sql naive "" >"$W/naive.sql"

# commits the prepared transactions, each a moment after it was prepared,
# every round's in one session
committer() {
	while [ ! -e "$W/writers.done" ] || [ "$(psqlx $S -c "SELECT count(*) FROM pg_prepared_xacts")" != 0 ]; do
		psqlx $S -c "SELECT pg_sleep(0.02)" \
			-c "SELECT format('COMMIT PREPARED %L;', gid) FROM pg_prepared_xacts WHERE prepared < now() - interval '20 ms'" |
			psqlx $S >/dev/null
	done
}

start=$SECONDS
rpids=()
for r in bound1 bound2 naive; do
	psqlx $S -f "$W/$r.sql" >"$W/$r.out" 2>&1 &
	rpids+=($!)
done
committer &
cpid=$!
wpids=()
for w in 1 2 3 4 5 6 7 8; do
	"$PG_BIN/psql" -X -q -At -h "$ULID_WORK/sock" -p "$(pg_port $S)" -U postgres -d postgres \
		-f "$W/writer$w.sql" >"$W/writer$w.out" 2>&1 &
	wpids+=($!)
done
# the writers run for ULID_BOUND_SECONDS (default 30), then are stopped
# (their open transactions abort as their connections close)
deadline=$((SECONDS + ${ULID_BOUND_SECONDS:-30}))
while [ $SECONDS -lt $deadline ] && kill -0 "${wpids[@]}" 2>/dev/null; do sleep 1; done
kill "${wpids[@]}" 2>/dev/null
for p in "${wpids[@]}"; do wait "$p"; done
touch "$W/writers.done"
wait $cpid
psqlx $S -c "INSERT INTO done VALUES (now())"
readers_ok=true
for p in "${rpids[@]}"; do wait "$p" || readers_ok=false; done
echo "# load: $((SECONDS - start)) s"
check "load: readers ran to the end" true "$readers_ok"
check "load: writers raised no error" "" "$(grep -h ERROR "$W"/writer*.out | head -3)"

counts() {
	psqlx $S -c "SELECT (SELECT count(*) FROM events e WHERE NOT EXISTS (SELECT FROM seen s WHERE s.reader = '$1' AND s.id = e.id))
		|| ' ' || (SELECT count(*) - count(DISTINCT id) FROM seen WHERE reader = '$1')
		|| ' ' || (SELECT count(*) FROM seen s WHERE reader = '$1' AND NOT EXISTS (SELECT FROM events e WHERE e.id = s.id))"
}
echo "# $(psqlx $S -c "SELECT count(*) || ' committed (' || count(*) FILTER (WHERE how = 'prepared') || ' prepared)' FROM events"), $(psqlx $S -c "SELECT count(*) FROM seen WHERE reader = 'naive'") read by the naive reader"
check "load: prepared transactions committed from another session, no rolled-back row" "t 0 0" \
	"$(psqlx $S -F ' ' -c "SELECT count(*) FILTER (WHERE how = 'prepared') > 0, count(*) FILTER (WHERE how = 'rollback'), count(*) FILTER (WHERE k < 0) FROM events")"
for r in bound1 bound2; do
	check "load: reader $r with the bound: 0 missing, 0 duplicate, 0 extra" "0 0 0" "$(counts $r)"
done
naive=$(counts naive)
echo "# the naive reader (WHERE id > cursor, no bound): missing, duplicate, extra = $naive"
if [ "${naive%% *}" -gt 0 ] 2>/dev/null; then
	ok "load: without the bound the same reader skips rows (${naive%% *} skipped for good)"
else
	not_ok "load: without the bound the same reader skips rows (got: $naive)"
fi

# --- one transaction holds it; its backend ends ----------------------------
# hold DESCRIPTION: a session that mints, inserts and waits in its
# transaction; prints its pid and id
bound_le() { psqlx $S -c "SELECT ulid_stable_bound() <= '$1'::ulid"; }
hold() {
	rm -f "$W/hold.fifo" "$W/hold.out"
	mkfifo "$W/hold.fifo"
	stdbuf -oL "$PG_BIN/psql" -X -q -At -F ' ' -h "$ULID_WORK/sock" -p "$(pg_port $S)" -U postgres -d postgres \
		<"$W/hold.fifo" >"$W/hold.out" 2>&1 &
	holder=$!
	exec 9>"$W/hold.fifo"
	echo "BEGIN; INSERT INTO events (w, k) VALUES (0, 0) RETURNING pg_backend_pid(), id;" >&9
	for _ in $(seq 100); do
		[ -s "$W/hold.out" ] && break
		sleep 0.1
	done
	read -r hpid hid <"$W/hold.out"
}
cleanup_holder() {
	exec 9>&-
	wait "$holder" 2>/dev/null
}

hold
check "long transaction: holds the bound at its id" t "$(bound_le "$hid")"
psqlx $S -c "SELECT gen_monotonic_ulid(); SELECT pg_sleep(0.2)" >/dev/null
check "long transaction: still holds it after other ids and a while" t "$(bound_le "$hid")"
check "long transaction: pg_stat_activity names the holder as the oldest transaction" "$hpid" \
	"$(psqlx $S -c "SELECT pid FROM pg_stat_activity WHERE xact_start IS NOT NULL AND pid <> pg_backend_pid() ORDER BY xact_start LIMIT 1")"
check "long transaction: ulid_health() has no stable_bound row within its first 10 s" 0 \
	"$(psqlx $S -c "SELECT count(*) FROM ulid_health() WHERE check_name = 'stable_bound'")"
sleep 10
check "long transaction: after 10 s ulid_health() names its backend, with the fix" "stable_bound|warning|$hpid|t" \
	"$(psqlx $S -c "SELECT check_name, severity, substring(detail FROM '^Backend ([0-9]+)'), fix LIKE '%pg_cancel_backend($hpid)%' FROM ulid_health() WHERE check_name = 'stable_bound'")"
check "long transaction: ulid_health() says since when: its first id's time" t \
	"$(psqlx $S -c "SELECT substring(detail FROM 'since its first id at (.*) \([0-9]+ s\)')::timestamptz = ulid_time('$hid') FROM ulid_health() WHERE check_name = 'stable_bound'")"
psqlx $S -c "SELECT pg_terminate_backend($hpid)" >/dev/null
sleep 0.5
check "pg_terminate_backend: its transaction no longer holds the bound" f "$(bound_le "$hid")"
cleanup_holder

hold
kill -9 "$hpid"
for _ in $(seq 100); do psqlx $S -c "SELECT 1" >/dev/null 2>&1 && break; sleep 0.2; done
check "kill -9 (crash restart): the killed transaction no longer holds the bound" f "$(bound_le "$hid")"
cleanup_holder

# --- a prepared transaction across a restart and a crash -------------------
pid=$(psqlx $S -c "BEGIN" -c "INSERT INTO events (w, k) VALUES (0, 1) RETURNING id" -c "PREPARE TRANSACTION 'held'")
check "prepared: holds the bound" t "$(bound_le "$pid")"
pg_stop $S && pg_start $S
check "prepared: holds it after a restart" t "$(bound_le "$pid")"
hold
kill -9 "$hpid"
for _ in $(seq 100); do psqlx $S -c "SELECT 1" >/dev/null 2>&1 && break; sleep 0.2; done
cleanup_holder
check "prepared: holds it after a crash restart" t "$(bound_le "$pid")"
psqlx $S -c "COMMIT PREPARED 'held'"
check "prepared: released by COMMIT PREPARED" f "$(bound_le "$pid")"
check "prepared: its file is gone once no snapshot sees it running" "" \
	"$(psqlx $S -c "SELECT ulid_stable_bound()" >/dev/null; ls "$(pg_data $S)/ulid_prepared")"
pg_stop $S
