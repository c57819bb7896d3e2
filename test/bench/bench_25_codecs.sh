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

# Net figures (lib.sh's net_ns and ratio_nets): each query minus its own
# floor (the same column read without a codec), "n/a" when a net is within
# the floor's spread (test/README.md, "Quoting a figure"); the whole-query
# ratio beside it is always quotable.
report ""
report "| codec | net ns per value | net vs ulid text I/O | whole query vs ulid text I/O's | target (net, at most 1.5x) |"
report "|---|---:|---:|---:|---|"
codec_row() { # LABEL NAME FLOOR BASE BASE_FLOOR [no-target]
	local r verdict=""
	r=$(ratio_nets "$2" "$3" "$4" "$5")
	[ -n "${6:-}" ] || verdict=$(awk -v v="$r" 'BEGIN {
		if (v == "n/a") print "n/a (a net within its floor'"'"'s spread)";
		else print (v <= 1.5 ? "meets" : "MISSES") }')
	[ "$r" = n/a ] || r+=x
	report "| $1 | $(net_ns "$2" "$3" "$N") | $r | $(awk -v a="${MED[$2]}" -v b="${MED[$4]}" 'BEGIN { printf "%.3f", a / b }')x | $verdict |"
}
report "| ulid text output (the base) | $(net_ns enc_text enc_floor "$N") | 1x | 1x | |"
for x in base62 typeid gsid; do codec_row "ulid_to_$x" "enc_$x" enc_floor enc_text enc_floor; done
report "| ulid text input (the base) | $(net_ns dec_text dec_floor_t "$N") | 1x | 1x | |"
codec_row "ulid_from_base62" dec_base62 dec_floor_b62 dec_text dec_floor_t
codec_row "typeid_to_ulid" dec_typeid dec_floor_tid dec_text dec_floor_t
codec_row "gsid_to_ulid" dec_gsid dec_floor_gsid dec_text dec_floor_t
codec_row "ulid_parse (GSID text; no target: it tells five forms apart)" dec_parse_gsid dec_floor_gsid dec_text dec_floor_t no-target
