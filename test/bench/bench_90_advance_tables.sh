# ulid_advance_from_tables() over many generator-default columns (issue 30,
# P1): 1,500 columns (200 in quick mode), each with a Snowflake layout of its
# own (so a state each), in 15 tables of 100, one row of ids 10 minutes
# ahead; the call advances every state with one floor file write (one
# fsync) and one WAL record per state.  Before, each advance rewrote the file
# with every advanced state's line: quadratic, 60.8 s for 1,500 columns on a
# loaded machine.  Afterwards the floors are lowered again
# (ulid_floor_repair(now(), lower => true)) so that later sections see an
# ordinary table of states.  Sourced by test/bench/run.sh.
if [ -n "${ULID_BENCH_QUICK:-}" ]; then ADV_COLS=200; else ADV_COLS=1500; fi
report ""
report "## ulid_advance_from_tables() over $ADV_COLS columns"
bench_psql -q -c "CREATE DATABASE bench_adv" >/dev/null
adv_psql() { ULID_DB=bench_adv psqlx bench "$@" || exit 1; }
adv_psql -q -c "CREATE EXTENSION ulid" >/dev/null
for ((t = 0; t < ADV_COLS / 100; t++)); do
	cols=""
	vals=""
	for ((c = 0; c < 100; c++)); do
		lay="custom(time=41:ms:$((1500000000000 + (t * 100 + c) * 1000)), fields=shard:10, sequence=12, sign=false)"
		cols+=", c$c bigint DEFAULT snowflake_next('$lay')"
		vals+=", snowflake_pack('$lay', clock_timestamp() + interval '10 minutes', 1, 0)"
	done
	adv_psql -q -c "CREATE TABLE adv_$t (id int$cols)" -c "INSERT INTO adv_$t VALUES (1$vals)" >/dev/null
done
adv_out=$(adv_psql -c "SELECT clock_timestamp()" \
	-c "SELECT count(advanced_to) FROM ulid_advance_from_tables()" -c "SELECT clock_timestamp()")
adv_n=$(sed -n 2p <<<"$adv_out")
adv_s=$(adv_psql -c "SELECT round(extract(epoch FROM '$(sed -n 3p <<<"$adv_out")'::timestamptz - '$(sed -n 1p <<<"$adv_out")'::timestamptz)::numeric, 2)")
adv_psql -q -c "SET client_min_messages = error" -c "SELECT ulid_floor_repair(now(), lower => true)" >/dev/null
bench_psql -q -c "DROP DATABASE bench_adv" >/dev/null
report ""
report "| measure | value | target |"
report "|---|---:|---|"
report "| columns advanced | $adv_n | $ADV_COLS |"
report "| time of the call, s | $adv_s | $(awk -v s="$adv_s" -v n="$ADV_COLS" 'BEGIN { print (s < 5 * n / 1500 ? "meets" : "MISSES") " (under " 5 * n / 1500 " s)" }') |"
summary advance_tables_s "ulid_advance_from_tables(), $ADV_COLS columns (s)" "$adv_s"
