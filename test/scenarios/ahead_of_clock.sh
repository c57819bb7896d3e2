#!/usr/bin/env bash
# No ordinary role moves anything but its own state ahead of the clock
# (issue 30, T1).  A role mints on a layout of 1 s ticks with a 1-bit
# sequence (2 ids a second) while other roles make its state give way,
# again and again, and bursts at it: the old code let a state that came back
# from its gone floor issue tick after tick, however far ahead, and the
# server-wide restart floor followed, so after a restart every generator of
# every role issued minutes in the future.  Now:
#  - a state coming back from a gone floor follows the clock policy (the
#    borrow allowance, a wait), so its ids stay within a tick or two of the
#    clock, however often it gives way;
#  - the server-wide floor lies at most a reservation (1 s) ahead of the
#    clock;
#  - after the bursts and a restart, the first id of every generator lies
#    within 1 s of the clock.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

S=ahead
if ! pg_new $S "ulid.node_id = 2" "ulid.max_generator_states = 64" "ulid.max_states_per_role = 16" ||
	! pg_start $S; then
	not_ok "ahead of the clock: server starts"
	exit 1
fi
psqlx $S -f - >/dev/null <<'SQL'
CREATE EXTENSION ulid;
CREATE ROLE a1 LOGIN; CREATE ROLE a5 LOGIN;
-- mint on l for secs seconds, as fast as the generator lets it: the largest id
CREATE FUNCTION burst(l snowflake_layout, secs float8) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    m bigint := 0;
    t0 timestamptz := clock_timestamp();
BEGIN
    WHILE clock_timestamp() < t0 + secs * interval '1 second' LOOP
        m := greatest(m, snowflake_next(l));
    END LOOP;
    RETURN m;
END $$;
SQL
L="custom(time=40:s:2020-01-01T00:00:00Z, fields=shard:2, sequence=1, sign=false)"
as() {
	local role=$1
	shift
	psqlx $S -U "$role" "$@"
}
# four new roles take 16 new states each: a full table, a1's state gives way
churn() {
	local r i=0
	for r in "c${1}a" "c${1}b" "c${1}c" "c${1}d"; do
		i=$((i + 1))
		psqlx $S -c "CREATE ROLE $r LOGIN" >/dev/null
		as $r -c "SELECT count(snowflake_next(format('custom(time=41:ms:%s, fields=shard:10, sequence=12, sign=false)', 1400000000000 + $1 * 100000 + $i * 100 + g)::snowflake_layout))
			FROM generate_series(1, 16) g" >/dev/null
	done
}
lead_of() { psqlx $S -c "SELECT round(extract(epoch FROM snowflake_time($1, '$L') - clock_timestamp()) * 1000)"; }

as a1 -c "SELECT snowflake_next('$L')" >/dev/null
gone() { psqlx $S -c "SELECT count(*) = 0 FROM ulid_generator_state WHERE layout LIKE 'custom(time=40:s:2020%'"; }
worst=0
gave_way=0
for round in 1 2 3 4 5 6; do
	churn "$round"
	[ "$(gone)" == t ] && gave_way=$((gave_way + 1))
	m=$(as a1 -c "SELECT burst('$L', 1.5)")
	lead=$(lead_of "$m")
	[ "$lead" -gt "$worst" ] && worst=$lead
done
check "T1: the role's state gave way before each burst" 6 "$gave_way"
echo "# T1: the state's largest lead over the clock in 6 bursts, each after giving way: $worst ms"
check "T1: coming back from giving way, the state's ids stay within two ticks (2 s) of the clock" t \
	"$([ "$worst" -le 2000 ] && echo t || echo f)"
check "T1: the server-wide floor lies at most a reservation (1 s) ahead of the clock" t \
	"$(psqlx $S -c "SELECT bool_and(persisted_floor <= clock_timestamp() + interval '1.05 seconds') FROM ulid_generator_state")"

pg_stop $S fast && pg_start $S
check "T1: after a restart, every generator's first id lies within 1 s of the clock" "t|t|t" \
	"$(as a5 -c "SELECT ulid_time(gen_monotonic_ulid()) - clock_timestamp() < interval '1 second',
		snowflake_time(snowflake_next('twitter'), 'twitter') - clock_timestamp() < interval '1 second',
		cosid80_time(cosid80_next()) - clock_timestamp() < interval '1 second'")"

# right after a restart the floor lies up to a reservation ahead: a state
# starting there may run that far ahead (the restart floor is trusted), on
# the first tick at or after it and one tick borrowed beyond, no further,
# however it is hammered
m=$(as a1 -c "SELECT burst('$L', 3)")
lead=$(lead_of "$m")
echo "# T1: after the restart, the state's lead over the clock: $lead ms"
check "T1: after a restart the burst stays within the restart floor's lead and two ticks (3 s)" t \
	"$([ "$lead" -le 3000 ] && echo t || echo f)"
pg_stop $S
