# ulid_advance_from_tables() over many generator-default columns (issue 30,
# P1; issue 40, A4): 9,000 columns (1,500 in quick mode), each with a
# Snowflake layout of its own (so a state each), in 9 tables of 1,000 (6 of
# 250 in quick mode), one row of restored ids a minute old.  Such ids take
# no advanced state (the server-wide floor covers them), so the call
# succeeds at the default ulid.max_generator_states, where more than 8,192
# advanced states are refused; one floor file write.  Before issue 40 it
# was refused with 53400 after 84.7 s (9,000 columns; 1,500: 5.6 s): the
# text of each column's default was deparsed, at a cost growing with the
# table's columns (quadratic per table).  Target: under 10 s for 9,000.
# Afterwards the floors are lowered again (ulid_floor_repair(now(), lower
# => true)) so that later sections see an ordinary table of states.
# Sourced by test/bench/run.sh.
if [ -n "${ULID_BENCH_QUICK:-}" ]; then
	ADV_TABLES=6 ADV_PER=250
else
	ADV_TABLES=9 ADV_PER=1000
fi
ADV_COLS=$((ADV_TABLES * ADV_PER))
report ""
report "## ulid_advance_from_tables() over $ADV_COLS columns"
bench_psql -q -c "CREATE DATABASE bench_adv" >/dev/null
adv_psql() { ULID_DB=bench_adv psqlx bench "$@" || exit 1; }
adv_psql -q -c "CREATE EXTENSION ulid" >/dev/null
for ((t = 0; t < ADV_TABLES; t++)); do
	cols=""
	vals=""
	for ((c = 0; c < ADV_PER; c++)); do
		lay="custom(time=41:ms:$((1500000000000 + (t * ADV_PER + c) * 1000)), fields=shard:10, sequence=12, sign=false)"
		cols+=", c$c bigint DEFAULT snowflake_next('$lay')"
		vals+=", snowflake_pack('$lay', clock_timestamp() - interval '1 minute', 1, 0)"
	done
	# (on stdin: a statement of 1,000 columns is longer than an argument may be)
	adv_psql -q -f - >/dev/null <<<"CREATE TABLE adv_$t (id int$cols); INSERT INTO adv_$t VALUES (1$vals);"
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
report "| columns advanced past | $adv_n | $ADV_COLS |"
report "| time of the call, s | $adv_s | $(awk -v s="$adv_s" -v n="$ADV_COLS" 'BEGIN { print (s != "" && s < 10 * n / 9000 ? "meets" : "MISSES") " (under " 10 * n / 9000 " s)" }') |"
summary advance_tables_s "ulid_advance_from_tables(), $ADV_COLS columns (s)" "$adv_s"
