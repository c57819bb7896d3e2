#!/usr/bin/env bash
# No ordinary role can exhaust or block the shared generator states, and
# real schemes fit (state_table.c: "CAPACITY, QUOTAS AND RECLAIMING"), with the
# default settings:
#  - an attacker role asking for tens of thousands of distinct Snowflake
#    states (epochs and nodes) stops at ulid.max_states_per_role with 53400
#    naming the setting, while other roles' gen_monotonic_ulid(),
#    snowflake_next() on existing and on new states go on, also during the
#    attack;
#  - one ordinary role mints on all 8,192 shards of instagram;
#  - states idle for a second come back without a restart (the view counts
#    the reclaims), and a reclaimed state that is needed again issues above
#    everything it issued before; with the clock set back it refuses as a
#    state that never gave way does (the clock policy), never below.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

S=state_capacity
if ! pg_new $S "ulid.node_ids = '0-8191'" || ! pg_start $S; then
	not_ok "state capacity: server starts"
	exit 1
fi
psqlx $S -c "CREATE EXTENSION ulid" \
	-c "CREATE ROLE attacker LOGIN" -c "CREATE ROLE victim LOGIN" -c "CREATE ROLE shards LOGIN" \
	-c "CREATE ROLE small LOGIN"
log=$ULID_WORK/log/$S.log

as() {
	local role=$1
	shift
	psqlx $S -U "$role" "$@"
}
# fields ROLE SQL: the error SQL raises for ROLE (sql_error)
fields() { sql_error $S "$2" -U "$1"; }
# layouts N FROM: N distinct custom layouts (one epoch each) from epoch FROM
epochs() {
	echo "format('custom(time=41:ms:%s, fields=n:10, sequence=12)', 1500000000000 + $2 + g)::snowflake_layout
		FROM generate_series(1, $1) g"
}

# setting NAME [psql args]: the setting as a session sees it once ulid is
# loaded (without preloading, the library and its settings arrive on first use)
setting() { psqlx $S "${@:2}" -c 'DO $$BEGIN PERFORM gen_ulid(); END$$' -c "SHOW $1"; }
quota=$(setting ulid.max_states_per_role)
check "defaults: 10,000 states per role" 10000 "$quota"
[ -z "${ULID_PRELOAD-ulid}" ] ||
	check "defaults: 32,768 states in all" 32768 "$(setting ulid.max_generator_states)"

# the victim's states exist before the attack
as victim -c "SELECT snowflake_next('twitter', 5), gen_monotonic_ulid()" >/dev/null

# the attack: 30,000 new epochs in one statement, while the victim mints
start=$(date +%s)
victim_errors=$ULID_WORK/victim.err
(
	for i in $(seq 40); do
		as victim -c "SELECT gen_monotonic_ulid(), snowflake_next('twitter', 5),
			snowflake_next('discord', $i), snowflake_next('custom(time=41:ms:1577836800000, fields=n:10, sequence=12)', $i)" \
			>/dev/null 2>>"$victim_errors" || echo "statement $i failed" >>"$victim_errors"
	done
) &
victim_pid=$!
out=$(fields attacker "(SELECT count(snowflake_next(l, 1)) FROM (SELECT $(epochs 30000 0)) s(l))")
wait $victim_pid
case $out in
"53400|role \"attacker\" has created 10000 ulid generator states, the most ulid.max_states_per_role allows|"*"ulid.max_states_per_role"*) ok "attack: stops at its quota with 53400 naming ulid.max_states_per_role" ;;
*) not_ok "attack: stops at its quota with 53400 naming ulid.max_states_per_role (got: $out)" ;;
esac
check "attack: the victim's 40 statements during the attack all worked" "" "$(cat "$victim_errors" 2>/dev/null)"
echo "# the attack took $(($(date +%s) - start)) s"

# other roles after the attack: existing and new states, and gen_monotonic_ulid()
check "after the attack: the victim mints on its states and on new ones" "t|t|t" \
	"$(as victim -c "SELECT gen_monotonic_ulid() < gen_monotonic_ulid(), snowflake_next('twitter', 5) > 0,
		count(snowflake_next('sonyflake(epoch=2014-09-01T00:00:00.000Z)', n)) = 100 FROM generate_series(1, 100) n")"
check "instagram: one ordinary role mints on all 8,192 shards" "8192|8192|8192" \
	"$(as shards -c "SELECT count(*), count(DISTINCT id), count(DISTINCT snowflake_node(id, 'instagram'))
		FROM (SELECT snowflake_next('instagram', n) AS id FROM generate_series(0, 8191) n) s")"
check "instagram: each shard's state serves again, no new state" "16384|8192|8192" \
	"$(as shards -c "SELECT count(DISTINCT id), count(DISTINCT snowflake_node(id, 'instagram'))
		FROM (SELECT snowflake_next('instagram', n % 8192) AS id FROM generate_series(0, 16383) n) s")|$(psqlx $S -c "SELECT count(*) FROM ulid_generator_state WHERE layout = 'instagram'")"

# after a second of idling, the attacker's states come back: a new batch
# of 10,000 epochs and nodes reclaims them, and the others are untouched
# (more at once is more live states than its quota: 53400 again)
sleep 1.2
reclaims_before=$(psqlx $S -c "SELECT reclaims FROM ulid_generator_state WHERE kind = 'ulid'")
check "reclaim: 10,000 new epochs and nodes after the attacker's states went idle" "10000|10000" \
	"$(as attacker -c "SELECT count(*), count(DISTINCT id) FROM (SELECT snowflake_next(l, g % 1024) AS id
		FROM (SELECT g, $(epochs 10000 100000)) s(g, l)) t")"
check "reclaim: the attacker still holds at most its quota" t \
	"$(psqlx $S -c "SELECT count(*) <= 10000 FROM ulid_generator_state WHERE layout LIKE 'custom(time=41:ms:2017-07-14T%'")"
check "reclaim: the view counts them" t \
	"$(psqlx $S -c "SELECT reclaims - $reclaims_before = 10000 FROM ulid_generator_state WHERE kind = 'ulid'")"
check "reclaim: the victim's and the shards' states were not taken (they are not the attacker's)" "t|8192" \
	"$(psqlx $S -c "SELECT bool_or(layout = 'twitter' AND node = 5), count(*) FILTER (WHERE layout = 'instagram')
		FROM ulid_generator_state")"

# a reclaimed state needed again issues above what it issued before, even
# with the clock set 10 s back: a small quota, 50 states, idle, 50 others
psqlx $S -c "ALTER SYSTEM SET ulid.max_states_per_role = 50" -c "SELECT pg_reload_conf()" >/dev/null
quota_is() { [ "$(setting ulid.max_states_per_role -U small)" == "$1" ]; }
wait_until 10 quota_is 50 || not_ok "reclaim: the quota is lowered"
L="custom(time=41:ms:1609459200000, fields=n:10, sequence=12)"
first=$(as small -c "SELECT max(snowflake_next('$L', 1)) FROM generate_series(1, 100)")
check "reclaim: a role fills its quota of 50" 49 \
	"$(as small -c "SELECT count(snowflake_next('$L', n)) FROM generate_series(2, 50) n")"
out=$(fields small "snowflake_next('$L', 51)")
case $out in
"53400|"*) ok "reclaim: at its quota, with no idle state, the next one is 53400" ;;
*) not_ok "reclaim: at its quota, with no idle state, the next one is 53400 (got: $out)" ;;
esac
sleep 1.2
check "reclaim: 50 new nodes take the role's own idle states" 50 \
	"$(as small -c "SELECT count(snowflake_next('$L', n)) FROM generate_series(100, 149) n")"
check "reclaim: node 1's state was reclaimed" 0 \
	"$(psqlx $S -c "SELECT count(*) FROM ulid_generator_state WHERE layout LIKE 'custom(time=41:ms:2021-01-01%' AND node = 1")"
# COSID_80 states (one per node) count in the same quota and take idle states
out=$(fields small "cosid80_next(1)")
case $out in
"53400|"*"ulid.max_states_per_role"*) ok "reclaim: at its quota, a new COSID_80 node is 53400 too" ;;
*) not_ok "reclaim: at its quota, a new COSID_80 node is 53400 too (got: $out)" ;;
esac
sleep 1.2
check "reclaim: 50 COSID_80 nodes take the role's idle Snowflake states" 50 \
	"$(as small -c "SELECT count(cosid80_next(n)) FROM generate_series(1, 50) n")"
check "reclaim: the view shows them as kind cosid80" 50 \
	"$(psqlx $S -c "SELECT count(*) FROM ulid_generator_state WHERE kind = 'cosid80' AND node BETWEEN 1 AND 50")"
psqlx $S -c "ALTER SYSTEM SET ulid.clock_offset_ms = -10000" -c "ALTER SYSTEM RESET ulid.max_states_per_role" \
	-c "SELECT pg_reload_conf()" >/dev/null
offset_is() { [ "$(psqlx $S -c "SHOW ulid.clock_offset_ms")" == "$1" ]; }
wait_until 10 offset_is -10000 || not_ok "reclaim: the clock is set back"
wait_until 10 quota_is 10000 || not_ok "reclaim: the quota is reset"
# what it issued before lies 10 s ahead of the clock now: as if it had
# never given way, the clock policy refuses (a gone floor never lets a state
# run ahead of the clock: issue 30, T1) rather than issue at or below it
out=$(fields small "snowflake_next('$L', 1)")
case $out in
"55000|the clock ("*") is "*" ms behind the last Snowflake id's time"*) ok "reclaim: node 1 again, with the clock 10 s back, refuses as a state that never gave way would (55000)" ;;
*) not_ok "reclaim: node 1 again, with the clock 10 s back, refuses as a state that never gave way would (got: $out)" ;;
esac
psqlx $S -c "ALTER SYSTEM RESET ulid.clock_offset_ms" -c "SELECT pg_reload_conf()" >/dev/null
wait_until 10 offset_is 0 || not_ok "reclaim: the clock is set right again"
check "reclaim: node 1 again, with the clock right, issues above its ids from before" t \
	"$(as small -c "SELECT min(id) > $first FROM (SELECT snowflake_next('$L', 1) AS id FROM generate_series(1, 100)) s")"

if grep -q "PANIC\|server process .* was terminated" "$log"; then
	not_ok "state capacity: no backend crashed"
else
	ok "state capacity: no backend crashed"
fi
pg_stop $S
