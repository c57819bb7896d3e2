#!/usr/bin/env bash
# CPU instructions per id of the CosId codec chain against radix_encode and
# radix_decode, and of cosid80_next() against snowflake_next(), counted by
# valgrind (callgrind) on a single-user backend: unlike the wall-clock
# figures of bench_27_cosid.sh, these do not move with the machine's load.
# Each query runs once and twice; the difference is one warm run, net of its
# floor query.  Not part of test/run (it needs valgrind and takes minutes):
#
#   test/bench/cosid_instructions.sh          (ULID_INSTR_ROWS, default 100000)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
command -v valgrind >/dev/null || { echo "cosid_instructions: valgrind is not installed" >&2; exit 1; }
harness_init
N=${ULID_INSTR_ROWS:-100000}
ONE='[{"radix": {"radix": 62}}]'
THREE='[{"radix": {"radix": 62}}, {"date_prefix": {"pattern": "yyMMdd", "source": "id_time"}}, {"prefix": "O"}]'
pg_new instr "ulid.node_id = 1" "jit = off" >/dev/null && pg_start instr >/dev/null || exit 1
psqlx instr -c "CREATE EXTENSION ulid" -c "CREATE TABLE cosid_t AS
	SELECT id, radix_encode(id, 62) AS r62, snowflake_encode(id, 'snowflake_ms', '$THREE') AS three,
	       '$ONE'::jsonb AS one_c, '$THREE'::jsonb AS three_c
	FROM (SELECT snowflake_pack('snowflake_ms', now() - g * interval '1.7 s', g % 1024, g % 4096) AS id
	      FROM generate_series(1, $N) g) s" -c "VACUUM ANALYZE cosid_t" -c "CHECKPOINT" >/dev/null
pg_stop instr >/dev/null
declare -A Q=(
	[floor]="SELECT count(id) FROM cosid_t"
	[radix]="SELECT count(radix_encode(id, 62)) FROM cosid_t"
	[one]="SELECT count(snowflake_encode(id, 'snowflake_ms', '$ONE')) FROM cosid_t"
	[floor_col]="SELECT count(one_c), count(three_c) FROM cosid_t"
	[one_col]="SELECT count(snowflake_encode(id, 'snowflake_ms', one_c)), count(three_c) FROM cosid_t"
	[three]="SELECT count(snowflake_encode(id, 'snowflake_ms', '$THREE')) FROM cosid_t"
	[three_col]="SELECT count(one_c), count(snowflake_encode(id, 'snowflake_ms', three_c)) FROM cosid_t"
	[dfloor]="SELECT count(r62), count(three) FROM cosid_t"
	[rdec]="SELECT count(radix_decode(r62, 62)), count(three) FROM cosid_t"
	[one_dec]="SELECT count(snowflake_decode(r62, 'snowflake_ms', '$ONE')), count(three) FROM cosid_t"
	[three_dec]="SELECT count(r62), count(snowflake_decode(three, 'snowflake_ms', '$THREE')) FROM cosid_t"
	[g_floor]="SELECT count(g) FROM (SELECT generate_series(1, $N) AS g) s"
	[g_sf]="SELECT count(snowflake_next('snowflake_ms')) FROM (SELECT generate_series(1, $N) AS g) s"
	[g_c80]="SELECT count(cosid80_next()) FROM (SELECT generate_series(1, $N) AS g) s"
)
# instructions SQL: what a single-user backend executes for SQL (its startup included)
instructions() {
	printf '%s\n' "$1" | as_pg valgrind --tool=callgrind --callgrind-out-file=/dev/null \
		"$PG_BIN/postgres" --single -D "$(pg_data instr)" postgres 2>&1 |
		sed -nE 's/.*Collected : ([0-9]+).*/\1/p'
}
declare -A I
for k in "${!Q[@]}"; do
	once=$(instructions "${Q[$k]};")
	twice=$(instructions "${Q[$k]}; ${Q[$k]};")
	I[$k]=$((twice - once))
done
row() { # LABEL A B FLOOR_A [FLOOR_B] TARGET
	awk -v l="$1" -v a="${I[$2]}" -v b="${I[$3]}" -v f="${I[$4]}" -v g="${I[$5]}" -v t="$6" -v n="$N" 'BEGIN {
		r = (a - f) / (b - g)
		printf "| %s | %.0f vs %.0f | %.3fx | %s |\n", l, (a - f) / n, (b - g) / n, r,
			t == "" ? "(no target)" : (r <= t ? "meets" : "MISSES") " (at most " t "x)" }'
}
echo "| measure | instructions per id | ratio | target |"
echo "|---|---:|---:|---|"
row "one-item chain / radix_encode" one radix floor floor 1.2
row "one-item chain, codec from a column / radix_encode" one_col radix floor_col floor 1.2
row "three-item chain / radix_encode" three radix floor floor 2
row "three-item chain, codec from a column / radix_encode" three_col radix floor_col floor 2
row "one-item decode / radix_decode" one_dec rdec dfloor dfloor 1.2
row "three-item decode / radix_decode" three_dec rdec dfloor dfloor 2
row "cosid80_next() / snowflake_next('snowflake_ms')" g_c80 g_sf g_floor g_floor ""
