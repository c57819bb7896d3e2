# Text codecs against the ulid type's own text output and input (issue 5's
# targets): encode and decode of N values each.  Sourced by test/bench/run.sh.
N=$ULID_BENCH_N
bench_psql -q -c "DROP TABLE IF EXISTS codec_t" -c "CREATE TABLE codec_t AS
	SELECT u, u::text AS t, ulid_to_base62(u) AS b62, ulid_to_typeid(u, 'user') AS tid,
	       ulid_to_gsid(u, 'usr', 3757087090) AS gsid
	FROM (SELECT gen_random_ulid() AS u FROM generate_series(1, $N)) s" -c "VACUUM ANALYZE codec_t" >/dev/null

report ""
report "## Text codecs vs the ulid type's text I/O"
bench_queries "Encoding $N ULIDs" \
	enc_floor "SELECT count(u) FROM codec_t" \
	enc_text "SELECT count(u::text) FROM codec_t" \
	enc_base62 "SELECT count(ulid_to_base62(u)) FROM codec_t" \
	enc_typeid "SELECT count(ulid_to_typeid(u, 'user')) FROM codec_t" \
	enc_gsid "SELECT count(ulid_to_gsid(u, 'usr', 3757087090)) FROM codec_t"
bench_queries "Decoding $N texts" \
	dec_floor_t "SELECT count(t) FROM codec_t" \
	dec_text "SELECT count(t::ulid) FROM codec_t" \
	dec_floor_b62 "SELECT count(b62) FROM codec_t" \
	dec_base62 "SELECT count(ulid_from_base62(b62)) FROM codec_t" \
	dec_floor_tid "SELECT count(tid) FROM codec_t" \
	dec_typeid "SELECT count(typeid_to_ulid(tid)) FROM codec_t" \
	dec_floor_gsid "SELECT count(gsid) FROM codec_t" \
	dec_gsid "SELECT count(gsid_to_ulid(gsid)) FROM codec_t" \
	dec_parse_gsid "SELECT count(ulid_parse(gsid)) FROM codec_t"
bench_psql -q -c "DROP TABLE codec_t" >/dev/null

# net ms over each query's own floor
netms() { awk -v a="${MED[$1]}" -v f="${MED[$2]}" 'BEGIN { print a - f }'; }
for x in base62 typeid gsid; do MED[enc_${x}_net]=$(netms "enc_$x" enc_floor); done
MED[enc_text_net]=$(netms enc_text enc_floor)
MED[dec_text_net]=$(netms dec_text dec_floor_t)
MED[dec_base62_net]=$(netms dec_base62 dec_floor_b62)
MED[dec_typeid_net]=$(netms dec_typeid dec_floor_tid)
MED[dec_gsid_net]=$(netms dec_gsid dec_floor_gsid)
MED[dec_parse_gsid_net]=$(netms dec_parse_gsid dec_floor_gsid)
report ""
report "| codec | net ns per value | vs ulid text I/O | target |"
report "|---|---:|---:|---|"
codec_row() { # LABEL NET_NAME BASE_NAME [no-target]
	local r verdict=""
	r=$(ratio "$2" "$3")
	[ -n "${4:-}" ] || verdict=$(awk -v v="$r" 'BEGIN { print (v <= 1.5 ? "meets" : "MISSES") " (at most 1.5x)" }')
	report "| $1 | $(awk -v a="${MED[$2]}" -v n="$N" 'BEGIN { printf "%.1f", a * 1e6 / n }') | ${r}x | $verdict |"
}
report "| ulid text output (the base) | $(awk -v a="${MED[enc_text_net]}" -v n="$N" 'BEGIN { printf "%.1f", a * 1e6 / n }') | 1x | |"
codec_row "ulid_to_base62" enc_base62_net enc_text_net
codec_row "ulid_to_typeid" enc_typeid_net enc_text_net
codec_row "ulid_to_gsid" enc_gsid_net enc_text_net
report "| ulid text input (the base) | $(awk -v a="${MED[dec_text_net]}" -v n="$N" 'BEGIN { printf "%.1f", a * 1e6 / n }') | 1x | |"
codec_row "ulid_from_base62" dec_base62_net dec_text_net
codec_row "typeid_to_ulid" dec_typeid_net dec_text_net
codec_row "gsid_to_ulid" dec_gsid_net dec_text_net
codec_row "ulid_parse (GSID text; no target: it tells five forms apart)" dec_parse_gsid_net dec_text_net no-target
