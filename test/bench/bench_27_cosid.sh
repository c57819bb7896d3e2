# CosId's codec chain (issue 14's targets) against radix_encode: a one-item
# chain within 1.2x of radix_encode, a three-item chain within 2x (net of
# the scan), with the codec as a literal and from a column (compared byte
# for byte on every row); the decode side; and cosid80_next() against
# snowflake_next().  Sourced by test/bench/run.sh (ulid.node_id = 1).
N=$ULID_BENCH_N
ONE='[{"radix": {"radix": 62}}]'
THREE='[{"radix": {"radix": 62}}, {"date_prefix": {"pattern": "yyMMdd", "source": "id_time"}}, {"prefix": "O"}]'
bench_psql -q -c "DROP TABLE IF EXISTS cosid_t" -c "CREATE TABLE cosid_t AS
	SELECT id, radix_encode(id, 62) AS r62, snowflake_encode(id, 'snowflake_ms', '$THREE') AS three,
	       '$ONE'::jsonb AS one_c, '$THREE'::jsonb AS three_c
	FROM (SELECT snowflake_pack('snowflake_ms', now() - g * interval '1.7 s', g % 1024, g % 4096) AS id
	      FROM generate_series(1, $N) g) s" -c "VACUUM ANALYZE cosid_t" >/dev/null

report ""
report "## CosId codec chain and COSID_80"
bench_queries "Encoding and decoding $N Snowflake ids" \
	cz_floor "SELECT count(id) FROM cosid_t" \
	cz_radix "SELECT count(radix_encode(id, 62)) FROM cosid_t" \
	cz_one "SELECT count(snowflake_encode(id, 'snowflake_ms', '$ONE')) FROM cosid_t" \
	cz_floor_col "SELECT count(one_c), count(three_c) FROM cosid_t" \
	cz_one_col "SELECT count(snowflake_encode(id, 'snowflake_ms', one_c)), count(three_c) FROM cosid_t" \
	cz_three "SELECT count(snowflake_encode(id, 'snowflake_ms', '$THREE')) FROM cosid_t" \
	cz_three_col "SELECT count(one_c), count(snowflake_encode(id, 'snowflake_ms', three_c)) FROM cosid_t" \
	cz_dfloor "SELECT count(r62), count(three) FROM cosid_t" \
	cz_rdec "SELECT count(radix_decode(r62, 62)), count(three) FROM cosid_t" \
	cz_one_dec "SELECT count(snowflake_decode(r62, 'snowflake_ms', '$ONE')), count(three) FROM cosid_t" \
	cz_three_dec "SELECT count(r62), count(snowflake_decode(three, 'snowflake_ms', '$THREE')) FROM cosid_t"
bench_queries "Generating $N ids" \
	c8_floor "SELECT count(g) FROM (SELECT generate_series(1, $N) AS g) s" \
	c8_snowflake "SELECT count(snowflake_next('snowflake_ms')) FROM (SELECT generate_series(1, $N) AS g) s" \
	c8_cosid80 "SELECT count(cosid80_next()) FROM (SELECT generate_series(1, $N) AS g) s"
bench_psql -q -c "DROP TABLE cosid_t" >/dev/null

# Each ratio twice: of the medians (the report's usual measure) and of the
# fastest rounds (on a loaded machine the minimum is the steadier estimate
# of a function's own cost).  The codec-from-a-column rows are net of a
# floor that reads the jsonb columns too.
ratio_min() {
	awk -v a="${MIN[$1]}" -v b="${MIN[$2]}" -v f="${MIN[$3]}" -v g="${MIN[${4:-$3}]}" \
		'BEGIN { if (b - g <= 0) print "n/a"; else printf "%.3f", (a - f) / (b - g) }'
}
ratio_col() {
	awk -v a="${MED[$1]}" -v b="${MED[$2]}" -v f="${MED[$3]}" -v g="${MED[$4]}" \
		'BEGIN { if (b - g <= 0) print "n/a"; else printf "%.3f", (a - f) / (b - g) }'
}
report ""
report "| measure | ratio | target |"
report "|---|---:|---|"
target "one-item chain / radix_encode, medians, net ns per id ($(net_ns cz_one cz_floor "$N") vs $(net_ns cz_radix cz_floor "$N"))" \
	"$(ratio cz_one cz_radix cz_floor)" 1.2
target "one-item chain / radix_encode, fastest rounds" "$(ratio_min cz_one cz_radix cz_floor)" 1.2
target "one-item chain, codec from a column / radix_encode, medians ($(net_ns cz_one_col cz_floor_col "$N") ns)" \
	"$(ratio_col cz_one_col cz_radix cz_floor_col cz_floor)" 1.2
target "one-item chain, codec from a column / radix_encode, fastest rounds" \
	"$(ratio_min cz_one_col cz_radix cz_floor_col cz_floor)" 1.2
target "three-item chain (radix, id_time date prefix, prefix) / radix_encode, medians ($(net_ns cz_three cz_floor "$N") ns)" \
	"$(ratio cz_three cz_radix cz_floor)" 2
target "three-item chain / radix_encode, fastest rounds" "$(ratio_min cz_three cz_radix cz_floor)" 2
target "three-item chain, codec from a column / radix_encode, medians ($(net_ns cz_three_col cz_floor_col "$N") ns)" \
	"$(ratio_col cz_three_col cz_radix cz_floor_col cz_floor)" 2
target "three-item chain, codec from a column / radix_encode, fastest rounds" \
	"$(ratio_min cz_three_col cz_radix cz_floor_col cz_floor)" 2
target "one-item decode / radix_decode, medians ($(net_ns cz_one_dec cz_dfloor "$N") vs $(net_ns cz_rdec cz_dfloor "$N") ns)" \
	"$(ratio cz_one_dec cz_rdec cz_dfloor)" 1.2
target "one-item decode / radix_decode, fastest rounds" "$(ratio_min cz_one_dec cz_rdec cz_dfloor)" 1.2
target "three-item decode / radix_decode, medians ($(net_ns cz_three_dec cz_dfloor "$N") ns)" \
	"$(ratio cz_three_dec cz_rdec cz_dfloor)" 2
target "three-item decode / radix_decode, fastest rounds" "$(ratio_min cz_three_dec cz_rdec cz_dfloor)" 2
# no target: cosid80_next() returns text (a palloc'd varlena), not a bigint
report "| cosid80_next() / snowflake_next('snowflake_ms'), medians, net ns per id ($(net_ns c8_cosid80 c8_floor "$N") vs $(net_ns c8_snowflake c8_floor "$N")) | $(ratio c8_cosid80 c8_snowflake c8_floor)x | (no target) |"
report "| cosid80_next() / snowflake_next('snowflake_ms'), fastest rounds | $(ratio_min c8_cosid80 c8_snowflake c8_floor)x | (no target) |"
