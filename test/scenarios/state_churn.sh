#!/usr/bin/env bash
# A full state table gives way instead of refusing (SPEC section 5, "Capacity
# never refuses"; state_table.c: "GIVING WAY"), at small scale: a table of 64
# states, a quota of 16, and five ordinary roles keeping 80 states hot (the
# breakit report's N1 attack).  Meanwhile two other roles and a superuser mint
# on states made before the attack and on a new state every round:
#  - none of their calls fails (nor the attackers': each is within its quota);
#  - over all ids, attackers' included: 0 duplicates and 0 order violations
#    (each key is minted by one session, so the insertion order is the
#    issuing order), also when the clock steps back during the churn, and
#    across a crash (kill -9 of a backend, then an immediate shutdown) in the
#    middle of it;
#  - a state a superuser advanced keeps its floor (it never gives way);
#  - the cost of a victim's call under churn is measured and printed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

S=state_churn
if ! pg_new $S "ulid.max_generator_states = 64" "ulid.max_states_per_role = 16" \
	"ulid.node_id = 1" "ulid.node_ids = '0-1023'" || ! pg_start $S; then
	not_ok "state churn: server starts"
	exit 1
fi
log=$ULID_WORK/log/$S.log
psqlx $S -c "CREATE EXTENSION ulid" -c "CREATE ROLE v1 LOGIN" -c "CREATE ROLE v2 LOGIN" \
	-c "CREATE ROLE v3 LOGIN" >/dev/null
for i in 1 2 3 4 5; do psqlx $S -c "CREATE ROLE a$i LOGIN"; done
# every id, in each session's issuing order (ord); calls that failed; timings
psqlx $S <<'SQL' >/dev/null
CREATE TABLE ids (ord bigserial, phase text, tag text, node int, id bigint, t text);
CREATE TABLE errs (who text, phase text, state text, msg text);
CREATE TABLE lat (kind text, us float8);
GRANT INSERT, SELECT ON ids, errs, lat TO PUBLIC;
GRANT USAGE ON SEQUENCE ids_ord_seq TO PUBLIC;
-- mint(who, phase, layout epoch, nodes): one Snowflake id per node, in order
CREATE FUNCTION mint(who text, phase text, epoch bigint, nodes int[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE l snowflake_layout := format('custom(time=41:ms:%s, fields=n:10, sequence=12)', epoch);
BEGIN
	INSERT INTO ids (phase, tag, node, id)
		SELECT phase, epoch::text, n, snowflake_next(l, n) FROM unnest(nodes) n;
EXCEPTION WHEN OTHERS THEN
	INSERT INTO errs VALUES (who, phase, SQLSTATE, SQLERRM);
END $$;
-- mint80(who, phase, node): one COSID_80 id
CREATE FUNCTION mint80(who text, phase text, node int) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO ids (phase, tag, node, t) VALUES (phase, 'cosid80', node, cosid80_next(node));
EXCEPTION WHEN OTHERS THEN
	INSERT INTO errs VALUES (who, phase, SQLSTATE, SQLERRM);
END $$;
SQL

# epochs: attacker i's layout, and the victims' and the superuser's
attacker_epoch() { echo $((1314220021721 + $1 * 1000)); }
V1=1400000000000 V2=1400000001000 SU=1400000002000 ADV=1400000003000

# script WHO PHASE ROUNDS: the SQL one session runs, a statement at a time
# (so a reload, the clock offset, reaches it between rounds)
script() {
	local who=$1 phase=$2 rounds=$3 r
	for ((r = 1; r <= rounds; r++)); do
		case $who in
		a*) echo "SELECT mint('$who', '$phase', $(attacker_epoch "${who#a}"), array(SELECT generate_series(0, 15)));"
			echo "SELECT pg_sleep(0.02);" ;;
		# the state made before, and a new one each round
		# (a new state every 75 ms keeps each victim within its quota of
		# 16 states used in the last second, however fast the churn)
		v1) echo "SELECT mint('v1', '$phase', $V1, ARRAY[1, $((100 + r))]);"
			echo "SELECT pg_sleep(0.075);" ;;
		v2) echo "SELECT mint('v2', '$phase', $V2, ARRAY[2, $((100 + r))]);"
			echo "SELECT pg_sleep(0.075);" ;;
		postgres) echo "SELECT mint('postgres', '$phase', $SU, ARRAY[3, $((100 + r))]);"
			echo "SELECT mint80('postgres', '$phase', 7), mint80('postgres', '$phase', $((100 + r)));"
			echo "SELECT pg_sleep(0.05);" ;;
		esac
	done
}
# churn PHASE ATTACKER_ROUNDS VICTIM_ROUNDS: start every session in the
# background; churn_pids holds them
churn() {
	local who
	churn_pids=()
	for who in a1 a2 a3 a4 a5; do
		script $who "$1" "$2" | psqlx $S -U $who >/dev/null 2>&1 &
		churn_pids+=($!)
	done
	sleep 0.5 # the attackers fill the table first
	for who in v1 v2 postgres; do
		script $who "$1" "$3" | psqlx $S -U $who >/dev/null 2>&1 &
		churn_pids+=($!)
	done
}
churn_wait() { for p in "${churn_pids[@]}"; do wait "$p"; done; }

# before the attack: the victims' and the superuser's states, and a state the
# superuser advanced a minute ahead of the clock
psqlx $S -U v1 -c "SELECT mint('v1', 'before', $V1, ARRAY[1, 1, 1])" >/dev/null
psqlx $S -U v2 -c "SELECT mint('v2', 'before', $V2, ARRAY[2, 2, 2])" >/dev/null
psqlx $S -c "SELECT mint('postgres', 'before', $SU, ARRAY[3, 3, 3]), mint80('postgres', 'before', 7)" >/dev/null
adv_layout="custom(time=41:ms:$ADV, fields=n:10, sequence=12)"
adv=$(psqlx $S -c "SELECT snowflake_pack('$adv_layout', clock_timestamp() + interval '60 s', 9, 0)")
psqlx $S -c "SELECT snowflake_advance('$adv_layout', 9, $adv)" >/dev/null 2>&1

# --- phase 1: the attack, while a third role times its calls -------------
churn plain 250 60
psqlx $S -U v3 >/dev/null <<SQL
DO \$\$
DECLARE t0 timestamptz; l snowflake_layout := 'custom(time=41:ms:1400000004000, fields=n:10, sequence=12)';
BEGIN
	PERFORM pg_sleep(0.8);
	PERFORM snowflake_next(l, 1);
	FOR i IN 1..60 LOOP
		t0 := clock_timestamp();
		PERFORM snowflake_next(l, 200 + i);		-- a new state
		INSERT INTO lat VALUES ('new', extract(epoch FROM clock_timestamp() - t0) * 1e6);
		t0 := clock_timestamp();
		PERFORM snowflake_next(l, 1);			-- a state made before
		INSERT INTO lat VALUES ('existing', extract(epoch FROM clock_timestamp() - t0) * 1e6);
		-- a new state every 75 ms: at most 14 of v3's states are not idle
		-- (used in the last second), within its quota of 16 whether or
		-- not the attackers' churn makes them give way meanwhile
		PERFORM pg_sleep(0.075);
	END LOOP;
EXCEPTION WHEN OTHERS THEN
	INSERT INTO errs VALUES ('v3', 'plain', SQLSTATE, SQLERRM);
END \$\$;
SQL
churn_wait
reclaims=$(psqlx $S -c "SELECT max(reclaims) FROM ulid_generator_state")
check "churn: the table is full, and states gave way (more than 200 times)" "64|t" \
	"$(psqlx $S -c "SELECT count(*), $reclaims > 200 FROM ulid_generator_state")"
echo "# phase plain: $reclaims states gave way"

# --- phase 2: the clock steps back 300 ms four times during the churn ----
offset_is() { [ "$(psqlx $S -c "SHOW ulid.clock_offset_ms")" == "$1" ]; }
churn clock 250 60
for off in -300 -600 -900 -1200; do
	sleep 1
	psqlx $S -c "ALTER SYSTEM SET ulid.clock_offset_ms = $off" -c "SELECT pg_reload_conf()" >/dev/null
	wait_until 10 offset_is $off || not_ok "clock: the offset $off is set"
done
churn_wait

# --- phase 3: a crash in the middle of the churn ---------------------------
accepts() { psqlx $S -c "SELECT 1" >/dev/null 2>&1; }
churn crash 250 60
sleep 2
pid=$(psqlx $S -c "SELECT pid FROM pg_stat_activity WHERE usename = 'a1'")
[ -n "$pid" ] && kill -9 "$pid"
wait_until 30 accepts || not_ok "crash: the server comes back after the kill -9"
pg_stop $S immediate
churn_wait
pg_start $S || not_ok "crash: the server starts after the immediate shutdown"
churn after 100 40
churn_wait
if grep -q "terminated by signal 9: Killed" "$log"; then
	ok "crash: a backend was killed mid-churn and the postmaster reset shared memory"
else
	not_ok "crash: a backend was killed mid-churn and the postmaster reset shared memory"
fi
psqlx $S -c "ALTER SYSTEM RESET ulid.clock_offset_ms" -c "SELECT pg_reload_conf()" >/dev/null

# --- results ---------------------------------------------------------------
check "no call of the victims or the superuser failed" "" \
	"$(psqlx $S -c "SELECT who || ' ' || phase || ' ' || state || ' ' || msg FROM errs WHERE who !~ '^a' LIMIT 5")"
check "no call of the attackers failed either (each is within its quota)" "" \
	"$(psqlx $S -c "SELECT who || ' ' || phase || ' ' || state || ' ' || msg FROM errs WHERE who ~ '^a' LIMIT 5")"
check "every phase minted (victims, superuser and attackers)" "5|5|5|4" \
	"$(psqlx $S -c "SELECT count(DISTINCT phase) FILTER (WHERE tag = '$V1'), count(DISTINCT phase) FILTER (WHERE tag = '$SU'),
		count(DISTINCT phase) FILTER (WHERE tag = 'cosid80'), count(DISTINCT phase) FILTER (WHERE tag = '$(attacker_epoch 3)')
		FROM ids")"
echo "# $(psqlx $S -c "SELECT count(*) FROM ids") ids minted"
check "0 duplicates over all ids" "0|0" \
	"$(psqlx $S -c "SELECT count(id) - count(DISTINCT (tag, id)) FILTER (WHERE id IS NOT NULL), count(t) - count(DISTINCT t) FROM ids")"
check "0 order violations over all ids (each key in its issuing order)" "0|0" \
	"$(psqlx $S -c "SELECT count(*) FILTER (WHERE id <= p), count(*) FILTER (WHERE t COLLATE \"C\" <= pt COLLATE \"C\")
		FROM (SELECT id, t, lag(id) OVER w AS p, lag(t) OVER w AS pt FROM ids
			WINDOW w AS (PARTITION BY tag, node ORDER BY ord)) s")"
check "the states made before the attack went on above their first ids" "t|t" \
	"$(psqlx $S -c "SELECT bool_and(id > (SELECT max(id) FROM ids WHERE phase = 'before' AND tag = '$V1')) FILTER (WHERE tag = '$V1' AND node = 1 AND phase <> 'before'),
		bool_and(id > (SELECT max(id) FROM ids WHERE phase = 'before' AND tag = '$SU')) FILTER (WHERE tag = '$SU' AND node = 3 AND phase <> 'before')
		FROM ids")"
check "the advanced state kept its floor (it never gave way)" "1|t" \
	"$(psqlx $S -c "SELECT count(*) FROM ulid_generator_state WHERE node = 9 AND state_floor IS NOT NULL")|$(psqlx $S -c "SELECT snowflake_next('$adv_layout', 9) > $adv")"

# the cost of a victim's call under churn
read -r new_med new_p99 ex_med ex_p99 < <(psqlx $S -F ' ' -c "SELECT
	round(percentile_cont(0.5) WITHIN GROUP (ORDER BY us) FILTER (WHERE kind = 'new')),
	round(percentile_cont(0.99) WITHIN GROUP (ORDER BY us) FILTER (WHERE kind = 'new')),
	round(percentile_cont(0.5) WITHIN GROUP (ORDER BY us) FILTER (WHERE kind = 'existing')),
	round(percentile_cont(0.99) WITHIN GROUP (ORDER BY us) FILTER (WHERE kind = 'existing')) FROM lat")
echo "# a victim's call under churn: a new state median ${new_med:-?} us (p99 ${new_p99:-?}), a state made before median ${ex_med:-?} us (p99 ${ex_p99:-?})"
check "the victim's timed calls all ran" 120 "$(psqlx $S -c "SELECT count(*) FROM lat")"

if grep -q "PANIC\|TRAP" "$log"; then
	not_ok "state churn: no PANIC or assertion failure"
else
	ok "state churn: no PANIC or assertion failure"
fi
pg_stop $S
