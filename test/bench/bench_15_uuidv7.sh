# UUIDv7: gen_uuidv7() against gen_random_uuid() and, on PostgreSQL 18+,
# core uuidv7() (and gen_uuidv7(at) against core uuidv7(interval)): net
# generation cost, and INSERT of N rows with the
# generator as a uuid primary key's default.  Sourced by test/bench/run.sh.
N=$ULID_BENCH_N
core_v7=$(bench_psql -c "SELECT current_setting('server_version_num')::int >= 180000")

declare -A v7_label
report ""
report "## UUIDv7"
v7_queries=(
	v7_floor "SELECT count(g) FROM generate_series(1, $N) g"
	v7_gen_uuidv7 "SELECT count(gen_uuidv7()) FROM generate_series(1, $N) g"
	v7_gen_typeid "SELECT count(gen_typeid('user')) FROM generate_series(1, $N) g"
	v7_gen_ulid "SELECT count(gen_ulid()) FROM generate_series(1, $N) g"
	v7_gen_random_uuid "SELECT count(gen_random_uuid()) FROM generate_series(1, $N) g"
	v7_gen_uuidv7_at "SELECT count(gen_uuidv7(now() - interval '1 hour')) FROM generate_series(1, $N) g"
)
[ "$core_v7" = t ] && v7_queries+=(v7_uuidv7 "SELECT count(uuidv7()) FROM generate_series(1, $N) g"
	v7_uuidv7_interval "SELECT count(uuidv7(interval '-1 hour')) FROM generate_series(1, $N) g")
bench_queries "Generating $N UUIDv7s" "${v7_queries[@]}"

report ""
report "| generator | net ns per id | vs gen_random_uuid() | vs core uuidv7() |"
report "|---|---:|---:|---:|"
v7_label=([gen_uuidv7_at]="gen_uuidv7(now() - '1 hour')" [uuidv7_interval]="uuidv7('-1 hour')")
for g in gen_uuidv7 gen_typeid gen_ulid gen_random_uuid uuidv7 gen_uuidv7_at uuidv7_interval; do
	[ -n "${MED[v7_$g]:-}" ] || continue
	vs_core=n/a
	[ "$core_v7" = t ] && vs_core="$(ratio "v7_$g" v7_uuidv7 v7_floor)x"
	report "| ${v7_label[$g]:-$g} | $(net_ns "v7_$g" v7_floor "$N") | $(ratio "v7_$g" v7_gen_random_uuid v7_floor)x | $vs_core |"
	summary "ns_v7_$g" "\`${v7_label[$g]:-$g()}\`, net ns per id (UUIDv7 section)" "$(net_ns "v7_$g" v7_floor "$N")"
done
summary ratio_v7_v4 "\`gen_uuidv7()\` / \`gen_random_uuid()\`, time" "$(ratio v7_gen_uuidv7 v7_gen_random_uuid v7_floor)x"
[ "$core_v7" = t ] && summary ratio_v7_core "\`gen_uuidv7()\` / core \`uuidv7()\`, time" "$(ratio v7_gen_uuidv7 v7_uuidv7 v7_floor)x"
[ "$core_v7" = t ] && summary ratio_v7_at_core "\`gen_uuidv7(at)\` / core \`uuidv7(interval)\`, time" "$(ratio v7_gen_uuidv7_at v7_uuidv7_interval v7_floor)x"

# --- INSERT with the generator as a uuid primary key's default ---------------
# fresh table and CHECKPOINT before every round; the order rotates
keys=("v7_gen_uuidv7|gen_uuidv7()" "v7_gen_random_uuid|gen_random_uuid()")
[ "$core_v7" = t ] && keys+=("v7_uuidv7|uuidv7()")
rm -f "$BENCH_OUT"/ins_v7_*.ms
rounds=$(( ULID_BENCH_REPS < 5 ? ULID_BENCH_REPS : 5 ))
for r in $(seq 1 "$rounds"); do
	for k in $(seq 0 $(( ${#keys[@]} - 1 ))); do
		IFS='|' read -r name def <<<"${keys[$(( (k + r) % ${#keys[@]} ))]}"
		ins_round "$name" uuid "$def"
	done
done
report ""
report "#### INSERT $N rows into a uuid primary key, the generator as its default (median of $rounds rounds; pkey size)"
report ""
report "| default | median ms | primary key index |"
report "|---|---:|---:|"
for spec in "${keys[@]}"; do
	IFS='|' read -r name def <<<"$spec"
	MED[ins_$name]=$(median_file "$BENCH_OUT/ins_$name.ms")
	report "| $def | ${MED[ins_$name]} | $(( $(cat "$BENCH_OUT/ins_$name.idx") / 1048576 )) MiB |"
	bench_psql -q -c "DROP TABLE ins_$name" >/dev/null
done

report ""
report "| measure | ratio | target |"
report "|---|---:|---|"
target "gen_uuidv7() / gen_random_uuid(), net ns/id ($(net_ns v7_gen_uuidv7 v7_floor "$N") vs $(net_ns v7_gen_random_uuid v7_floor "$N"))" \
	"$(ratio v7_gen_uuidv7 v7_gen_random_uuid v7_floor)" 0.1
report "| INSERT: DEFAULT gen_uuidv7() / DEFAULT gen_random_uuid() (${MED[ins_v7_gen_uuidv7]} vs ${MED[ins_v7_gen_random_uuid]} ms) | $(ratio ins_v7_gen_uuidv7 ins_v7_gen_random_uuid)x | |"
summary ratio_insert_v7_v4 "INSERT $N rows, \`DEFAULT gen_uuidv7()\` / \`DEFAULT gen_random_uuid()\`" "$(ratio ins_v7_gen_uuidv7 ins_v7_gen_random_uuid)x"
if [ "$core_v7" = t ]; then
	target "gen_uuidv7() / core uuidv7(), net ns/id ($(net_ns v7_gen_uuidv7 v7_floor "$N") vs $(net_ns v7_uuidv7 v7_floor "$N"))" \
		"$(ratio v7_gen_uuidv7 v7_uuidv7 v7_floor)" 0.1
	report "| INSERT: DEFAULT gen_uuidv7() / DEFAULT uuidv7() (${MED[ins_v7_gen_uuidv7]} vs ${MED[ins_v7_uuidv7]} ms) | $(ratio ins_v7_gen_uuidv7 ins_v7_uuidv7)x | |"
	summary ratio_insert_v7_core "INSERT $N rows, \`DEFAULT gen_uuidv7()\` / \`DEFAULT uuidv7()\`" "$(ratio ins_v7_gen_uuidv7 ins_v7_uuidv7)x"
else
	report ""
	report "(core uuidv7() exists from PostgreSQL 18 on: its rows appear on 18+.)"
fi
