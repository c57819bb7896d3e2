# Instructions per call: valgrind's callgrind on a single-user backend
# (postgres --single) of a scratch cluster of its own, collection toggled on
# only inside each measured C function (--toggle-collect), so a figure is the
# function's own code plus everything it calls, user space only (syscalls are
# not counted).  An inlined helper's lines name their own source file
# (fi=/fe= in callgrind.out) but stay under the function's fn=, so the parser
# below sums every cost line under fn=, whatever file it names, plus the
# inclusive cost of every call.
# ULID_BENCH_CG_N sets the calls per function (default 100000, quick 2000),
# ULID_BENCH_CG_ONLY="gen_ulid ulid_in" measures only those C functions.
# Sourced by test/bench/run.sh; the timings of the other files are unaffected
# (this cluster is never started as a server).
#
# The "floor" is a C function built here, in the run's work dir, for this
# benchmark only: palloc(16) and clock_gettime(CLOCK_REALTIME), the least a
# time-stamped 16-byte generator does, compiled with the server's CFLAGS as
# PGXS compiles the extension.  It is never installed.
CG_N=${ULID_BENCH_CG_N:-$([ -n "${ULID_BENCH_QUICK:-}" ] && echo 2000 || echo 100000)}
cg_dir=$ULID_WORK/callgrind
mkdir -p "$cg_dir"

# --- the floor function, a tiny .so of its own ---------------------------------
cat >"$cg_dir/bench_floor.c" <<'C'
#include "postgres.h"
#include <time.h>
#include "fmgr.h"
PG_MODULE_MAGIC;
PG_FUNCTION_INFO_V1(bench_floor);
Datum
bench_floor(PG_FUNCTION_ARGS)
{
	struct timespec ts;
	char	   *p = palloc(16);

	clock_gettime(CLOCK_REALTIME, &ts);
	memcpy(p, &ts.tv_sec, 8);
	memcpy(p + 8, &ts.tv_nsec, 8);
	PG_RETURN_POINTER(p);
}
C
# shellcheck disable=SC2046 # the server's CFLAGS, as PGXS builds the extension
"$("$PG_CONFIG" --cc)" $("$PG_CONFIG" --cflags) $("$PG_CONFIG" --cflags_sl) -shared \
	-I"$("$PG_CONFIG" --includedir-server)" -o "$cg_dir/bench_floor.so" "$cg_dir/bench_floor.c" || {
	echo "bench: the floor function does not build" >&2
	exit 1
}

# the CosId codec chains measured against radix_encode/radix_decode
CG_ONE='[{"radix": {"radix": 62}}]'
CG_THREE='[{"radix": {"radix": 62}}, {"date_prefix": {"pattern": "yyMMdd", "source": "id_time"}}, {"prefix": "O"}]'

# --- a scratch cluster, prepared by one plain single-user run ------------------
# the explicit-node rows mint on node 1 (ulid.node_id) and node 2 (owned
# through ulid.node_ids)
pg_new cg "ulid.node_id = 1" "ulid.node_ids = '2'" || exit 1
CG_OPTS=() # more server options for a run (cg_pass: a row's fifth field)
cg_single() { # postgres --single with SQL on stdin, one statement a line
	as_pg "$@" "$PG_BIN/postgres" --single "${CG_OPTS[@]}" -D "$(pg_data cg)" postgres
}
cg_setup() { # LOG: cg_single with the SQL on stdin; exits the benchmark on a failure or an ERROR
	cg_single >"$1" 2>&1 && ! grep -q 'ERROR' "$1" && return 0
	cat "$1" >&2
	exit 1
}
cg_setup "$cg_dir/setup.log" <<SQL
CREATE EXTENSION ulid
CREATE FUNCTION bench_floor() RETURNS uuid AS '$cg_dir/bench_floor.so', 'bench_floor' LANGUAGE C VOLATILE
CREATE SEQUENCE cg_seq
CREATE TABLE cg_t AS SELECT u, u::uuid AS v, u::text AS ut, u::uuid::text AS vt, ulid_to_base62(u) AS b62, ulid_to_typeid(u, 'user') AS tid FROM (SELECT gen_random_ulid() AS u FROM generate_series(1, $CG_N)) s
CREATE TABLE cg_sf AS SELECT id, radix_encode(id) AS r62, snowflake_encode(id, 'snowflake_ms', '$CG_THREE') AS three FROM (SELECT snowflake_pack('snowflake_ms', now() - g * interval '1.7 s', g % 1024, g % 4096) AS id FROM generate_series(1, $CG_N) g) s
SQL

# ROW|C function to toggle on|SQL calling it CG_N times[|alone]
# (The drop-in names are called schema-qualified: on 18+ an unqualified
# uuidv7() is core's, whose C function of the same name is not ours.)
# A toggle flips collection, so a toggled function called inside another
# would switch it off: such a caller ("alone": gen_gsid calls gen_ulid) gets
# a valgrind run of its own.  "fn@case" measures C function fn in a case of
# its own (always alone: the same function in another row would add up).
CG_ROWS=(
	"floor (palloc 16 + clock_gettime)|bench_floor|SELECT count(bench_floor()) FROM generate_series(1, $CG_N)"
	"gen_ulid()|gen_ulid|SELECT count(gen_ulid()) FROM generate_series(1, $CG_N)"
	"gen_random_ulid()|gen_random_ulid|SELECT count(gen_random_ulid()) FROM generate_series(1, $CG_N)"
	"gen_ulid(at)|gen_ulid_at|SELECT count(gen_ulid('2026-01-01Z'::timestamptz)) FROM generate_series(1, $CG_N)"
	"gen_monotonic_ulid()|gen_monotonic_ulid|SELECT count(gen_monotonic_ulid()) FROM generate_series(1, $CG_N)"
	"snowflake_next('twitter')|snowflake_next|SELECT count(snowflake_next('twitter')) FROM generate_series(1, $CG_N)"
	"snowflake_next('twitter', 1) (ulid.node_id)|snowflake_next_node@own|SELECT count(snowflake_next('twitter', 1)) FROM generate_series(1, $CG_N)"
	"snowflake_next('twitter', 2) (ulid.node_ids)|snowflake_next_node@ids|SELECT count(snowflake_next('twitter', 2)) FROM generate_series(1, $CG_N)"
	"gen_gsid('usr', 1)|gen_gsid|SELECT count(gen_gsid('usr', 1)) FROM generate_series(1, $CG_N)|alone"
	"ulid_in|ulid_in|SELECT count(ut::ulid) FROM cg_t"
	"ulid_out|ulid_out|SELECT count(u::text) FROM cg_t"
	"ulid_to_base62|ulid_to_base62|SELECT count(ulid_to_base62(u)) FROM cg_t"
	"ulid_from_base62|ulid_from_base62|SELECT count(ulid_from_base62(b62)) FROM cg_t"
	"ulid_to_typeid|ulid_to_typeid|SELECT count(ulid_to_typeid(u, 'user')) FROM cg_t"
	"typeid_to_ulid|typeid_to_ulid|SELECT count(typeid_to_ulid(tid)) FROM cg_t"
	"ulid_to_gsid(u, 'usr', 1)|ulid_to_gsid|SELECT count(ulid_to_gsid(u, 'usr', 1)) FROM cg_t"
	"ulid_parse (canonical text)|ulid_parse|SELECT count(ulid_parse(ut)) FROM cg_t"
	"gen_uuidv7()|gen_uuidv7|SELECT count(gen_uuidv7()) FROM generate_series(1, $CG_N)"
	"uuidv7() (PostgreSQL 18's name; gen_uuidv7's C function)|gen_uuidv7@uuidv7|SELECT count(public.uuidv7()) FROM generate_series(1, $CG_N)"
	"uuid_generate_v7() (pg_uuidv7's name; gen_uuidv7's C function)|gen_uuidv7@uuid_generate_v7|SELECT count(public.uuid_generate_v7()) FROM generate_series(1, $CG_N)"
	"uuidv4()|ulid_uuidv4|SELECT count(public.uuidv4()) FROM generate_series(1, $CG_N)"
	"uuidv7(shift)|ulid_uuidv7_shift|SELECT count(public.uuidv7('-1 hour'::interval)) FROM generate_series(1, $CG_N)"
	"gen_typeid('user')|gen_typeid|SELECT count(gen_typeid('user')) FROM generate_series(1, $CG_N)"
	"cosid80_next()|cosid80_next|SELECT count(cosid80_next()) FROM generate_series(1, $CG_N)"
	"radix_encode(id)|ulid_radix_encode_sql|SELECT count(radix_encode(id)) FROM cg_sf"
	"radix_decode(text)|ulid_radix_decode_sql|SELECT count(radix_decode(r62)) FROM cg_sf"
	"snowflake_encode, one-item chain|snowflake_encode@one|SELECT count(snowflake_encode(id, 'snowflake_ms', '$CG_ONE')) FROM cg_sf"
	"snowflake_encode, three-item chain|snowflake_encode@three|SELECT count(snowflake_encode(id, 'snowflake_ms', '$CG_THREE')) FROM cg_sf"
	"snowflake_decode, one-item chain|snowflake_decode@one|SELECT count(snowflake_decode(r62, 'snowflake_ms', '$CG_ONE')) FROM cg_sf"
	"snowflake_decode, three-item chain|snowflake_decode@three|SELECT count(snowflake_decode(three, 'snowflake_ms', '$CG_THREE')) FROM cg_sf"
	"core gen_random_uuid()|gen_random_uuid|SELECT count(gen_random_uuid()) FROM generate_series(1, $CG_N)"
	"core uuid_in|uuid_in|SELECT count(vt::uuid) FROM cg_t"
	"core uuid_out|uuid_out|SELECT count(v::text) FROM cg_t"
	"core nextval (a plain sequence)|nextval_oid|SELECT count(nextval('cg_seq')) FROM generate_series(1, $CG_N)"
	"gen_uuidv7(at)|gen_uuidv7_at|SELECT count(gen_uuidv7('2026-01-01Z'::timestamptz)) FROM generate_series(1, $CG_N)"
	# the stable bound's cost (issue 41): "TX:" runs the statement CG_TX_N
	# times, each its own transaction (postgres --single), so every call is
	# its transaction's first id; the rows above mint in one transaction
	# (its clock 60 s behind: the state stays ahead of it, so that every
	# first id takes the fast path in both builds; on the clock the share of
	# calls that find it past the state's millisecond, and go to issue(),
	# depends on the run's speed)
	"gen_monotonic_ulid(), a transaction's first id|gen_monotonic_ulid@first|TX:SELECT gen_monotonic_ulid()|alone|ulid.clock_offset_ms=-60000"
	"snowflake_next('twitter'), a transaction's first id|snowflake_next@first|TX:SELECT snowflake_next('twitter')"
	"stable-bound transaction callback, per transaction that minted|bound_xact_callback@minted|TX:SELECT gen_monotonic_ulid()"
	"stable-bound transaction callback, per transaction that minted nothing|bound_xact_callback@idle|TX:SELECT 1"
)
CG_TX_N=$((CG_N / 10 > 200 ? CG_N / 10 : 200))
# Not counted inside a "TX:" row's function (a toggle nested in the toggled
# function switches collection off until it returns): what a statement's
# first call does whatever the build (decoding the layout argument) and what
# the time between statements decides (moving the restart floor), which
# would drown a difference of a few instructions between two builds.
CG_TX_EXCLUDE="ulid_floor_reserve sf_layout_arg_decode"
# PostgreSQL 18's own UUIDv7 generators
if [ "${PG_VERSION_NUM:-0}" -ge 18 ]; then
	CG_ROWS+=(
		"core uuidv7()|uuidv7|SELECT count(uuidv7()) FROM generate_series(1, $CG_N)"
		"core uuidv7(interval)|uuidv7_interval|SELECT count(uuidv7(interval '-1 hour')) FROM generate_series(1, $CG_N)"
	)
fi
# ULID_BENCH_CG_ONLY="gen_ulid ulid_in": only the rows of these C functions
if [ -n "${ULID_BENCH_CG_ONLY:-}" ]; then
	cg_all=("${CG_ROWS[@]}")
	CG_ROWS=()
	for row in "${cg_all[@]}"; do
		IFS='|' read -r _ fn _ <<<"$row"
		[[ " $ULID_BENCH_CG_ONLY " == *" ${fn%%@*} "* ]] && CG_ROWS+=("$row")
	done
fi
chown postgres: "$cg_dir" 2>/dev/null || true
declare -A IR
# calls per row: CG_N, or CG_TX_N for a "TX:" row
cg_calls() { [[ $1 == TX:* ]] && echo "$CG_TX_N" || echo "$CG_N"; }
# cg_pass NAME ROW...: one valgrind run toggling the rows' functions; adds
# each function's inclusive Ir to IR (under the key $CG_KEY_PREFIX$fn)
CG_KEY_PREFIX=
cg_pass() {
	local pass=$1 row fn sql opt toggles=() queries="" out keys=() i
	shift
	out=$cg_dir/callgrind.$pass.out
	CG_OPTS=()
	for row in "$@"; do
		IFS='|' read -r _ fn sql _ opt <<<"$row"
		[ -n "$opt" ] && CG_OPTS+=(-c "$opt")
		toggles+=("--toggle-collect=${fn%%@*}")
		keys+=("$fn")
		if [[ $sql == TX:* ]]; then
			for ((i = 0; i < CG_TX_N; i++)); do queries+="${sql#TX:}"$'\n'; done
			for i in $CG_TX_EXCLUDE; do toggles+=("--toggle-collect=$i"); done
		else
			queries+="$sql"$'\n'
		fi
	done
	cg_single valgrind --tool=callgrind --collect-atstart=no "${toggles[@]}" \
		--callgrind-out-file="$out" <<<"$queries" >"$cg_dir/run.$pass.log" 2>&1 || {
		tail -30 "$cg_dir/run.$pass.log" >&2
		echo "bench: the callgrind run $pass failed" >&2
		exit 1
	}
	if grep -q 'ERROR' "$cg_dir/run.$pass.log"; then
		grep -B2 -A4 'ERROR' "$cg_dir/run.$pass.log" >&2
		echo "bench: a query of the callgrind run $pass failed" >&2
		exit 1
	fi
	# Inclusive Ir of each function, read from callgrind.out itself: the
	# cost lines under its fn= (whatever fi=/fe= file an inlined helper
	# switches to) plus the inclusive cost of every call it makes (the line
	# after calls=, which is a cost line too).
	local -A pass_ir=()
	while read -r fn ir; do pass_ir[$fn]=$ir; done < <(awk '
		function name(s,   id) {
			if (match(s, /^\([0-9]+\)/)) {
				id = substr(s, 2, RLENGTH - 2)
				s = substr(s, RLENGTH + 1)
				sub(/^ /, "", s)
				if (s != "") names[id] = s
				return names[id]
			}
			return s
		}
		/^fn=/ { cur = name(substr($0, 4)); next }
		/^cfn=/ { name(substr($0, 5)); next }
		/^[0-9+*-]/ { if (cur != "") ir[cur] += $2; next }
		END { for (f in ir) print f, ir[f] }' "$out")
	for fn in "${keys[@]}"; do IR[$CG_KEY_PREFIX$fn]=${pass_ir[${fn%%@*}]:-0}; done
}
# cg_rows ROW...: the rows in as few valgrind runs as their toggles allow
cg_rows() {
	local row fn cg_together=() cg_alone=()
	for row in "$@"; do
		IFS='|' read -r _ fn _ <<<"$row"
		if [[ $row == *"|alone" || $fn == *@* ]]; then cg_alone+=("$row"); else cg_together+=("$row"); fi
	done
	[ ${#cg_together[@]} -gt 0 ] && cg_pass "${CG_KEY_PREFIX:+${CG_KEY_PREFIX%:}.}together" "${cg_together[@]}"
	for row in "${cg_alone[@]}"; do
		IFS='|' read -r _ fn _ <<<"$row"
		cg_pass "${CG_KEY_PREFIX:+${CG_KEY_PREFIX%:}.}${fn/@/.}" "$row"
	done
}
cg_rows "${CG_ROWS[@]}"

# The stable bound's baseline: the same rows on a build with
# -DULID_NO_STABLE_BOUND (no note, no transaction callback), made in a copy
# of the tree (only the files that include stable_bound.h recompile) and
# swapped in for the single-user runs (a rename: the running bench server
# keeps its mapping), then swapped back.
CG_BOUND_FNS=" gen_monotonic_ulid snowflake_next bound_xact_callback "
cg_bound_rows=()
for row in "${CG_ROWS[@]}"; do
	IFS='|' read -r _ fn _ <<<"$row"
	[[ $CG_BOUND_FNS == *" ${fn%%@*} "* ]] && [[ $fn != *@own && $fn != *@ids ]] && cg_bound_rows+=("$row")
done
cg_so=$ULID_WORK/install$("$PG_CONFIG" --pkglibdir)/ulid.so
cg_nobound=false
if [ ${#cg_bound_rows[@]} -gt 0 ] && [ -f "$cg_so" ]; then
	nb=$cg_dir/nobound
	rm -rf "$nb"
	mkdir -p "$nb"
	(cd "$ULID_ROOT" && tar --exclude=./.git -cf - .) | (cd "$nb" && tar -xf -)
	for f in $(grep -l '"stable_bound.h"' "$nb"/src/*.c); do rm -f "${f%.c}.o"; done
	rm -f "$nb/ulid.so"
	if make -C "$nb" -s PG_CONFIG="$PG_CONFIG" PG_CFLAGS="${PG_CFLAGS:-} -DULID_NO_STABLE_BOUND" ulid.so \
		>"$cg_dir/nobound.build.log" 2>&1; then
		mv "$cg_so" "$cg_so.bound"
		cp "$nb/ulid.so" "$cg_so.nobound"
		mv "$cg_so.nobound" "$cg_so"
		CG_KEY_PREFIX=nobound:
		cg_rows "${cg_bound_rows[@]}"
		CG_KEY_PREFIX=
		mv "$cg_so.bound" "$cg_so"
		cg_nobound=true
	else
		cat "$cg_dir/nobound.build.log" >&2
		echo "bench: the -DULID_NO_STABLE_BOUND build failed: no baseline for the stable bound" >&2
	fi
fi

report ""
report "## Instructions per call (callgrind)"
report ""
report "valgrind $(valgrind --version | sed 's/^valgrind-//'), callgrind on \`postgres --single\` of a scratch cluster"
report "(\`shared_preload_libraries = 'ulid'\`), $CG_N calls each, collection on only inside the named C"
report "function: its own code, its callees and inlined helpers, user space only (syscalls not counted)."
report ""
report "| function | C function | Ir per call | vs floor | vs gen_random_uuid() |"
report "|---|---|---:|---:|---:|"
cg_missing=0
for row in "${CG_ROWS[@]}"; do
	IFS='|' read -r label fn sql _ <<<"$row"
	MED[ir_$fn]=$(awk -v t="${IR[$fn]:-0}" -v n="$(cg_calls "$sql")" 'BEGIN { printf "%.0f", t / n }')
	if [ "${MED[ir_$fn]}" -le 0 ]; then
		cg_missing=$((cg_missing + 1))
		echo "bench: no instruction count for $fn" >&2
	fi
done
for row in "${CG_ROWS[@]}"; do
	IFS='|' read -r label fn _ <<<"$row"
	vs_floor=n/a vs_uuid=n/a
	[ -n "${MED[ir_bench_floor]:-}" ] && vs_floor=$(ratio "ir_$fn" ir_bench_floor)x
	[ -n "${MED[ir_gen_random_uuid]:-}" ] && vs_uuid=$(ratio "ir_$fn" ir_gen_random_uuid)x
	report "| $label | \`${fn%%@*}\` | ${MED[ir_$fn]} | $vs_floor | $vs_uuid |"
	summary "ir_$fn" "$label, instructions per call" "${MED[ir_$fn]}"
done
if $cg_nobound; then
	report ""
	report "The stable bound's cost (issue 41): the same rows on a build with \`-DULID_NO_STABLE_BOUND\`"
	report "(no note, no transaction callback); \"first id\" rows run $CG_TX_N one-call transactions (not"
	report "counting $CG_TX_EXCLUDE inside them), the callback's rows give Ir per transaction"
	report "(its PRE_COMMIT and COMMIT calls together)."
	report ""
	report "| row | with the bound | without | added | target |"
	report "|---|---:|---:|---:|---|"
	for row in "${cg_bound_rows[@]}"; do
		IFS='|' read -r label fn sql _ <<<"$row"
		with=${MED[ir_$fn]}
		without=$(awk -v t="${IR[nobound:$fn]:-0}" -v n="$(cg_calls "$sql")" 'BEGIN { printf "%.0f", t / n }')
		added=$((with - without))
		case $fn in
		*@first) limit=10 ;;
		bound_xact_callback@*) limit= ;;
		*) limit=2 ;;
		esac
		verdict=
		[ -n "$limit" ] && verdict="$([ "$added" -le "$limit" ] && echo meets || echo MISSES) (at most +$limit)"
		[ "$fn" = gen_monotonic_ulid ] || [ "$fn" = snowflake_next ] && label="$label, later ids of a transaction"
		report "| $label | $with | $without | +$added | $verdict |"
		summary "ir_bound_$fn" "$label, Ir added by the stable bound" "$added"
	done
fi
if [ -z "${ULID_BENCH_CG_ONLY:-}" ]; then
	report ""
	report "| instruction target | value | verdict |"
	report "|---|---:|---|"
	target "gen_ulid() vs the floor" "$(ratio ir_gen_ulid ir_bench_floor)" 1.5
	target "gen_ulid() vs gen_random_uuid()" "$(ratio ir_gen_ulid ir_gen_random_uuid)" 0.04
	target "gen_monotonic_ulid() vs the floor" "$(ratio ir_gen_monotonic_ulid ir_bench_floor)" 1.8
	target "gen_random_ulid() vs the floor" "$(ratio ir_gen_random_ulid ir_bench_floor)" 1.8
	target "gen_uuidv7() vs gen_random_uuid()" "$(ratio ir_gen_uuidv7 ir_gen_random_uuid)" 0.1
	target "uuidv7() vs gen_random_uuid()" "$(ratio ir_gen_uuidv7@uuidv7 ir_gen_random_uuid)" 0.05
	target "uuid_generate_v7() vs gen_random_uuid()" "$(ratio ir_gen_uuidv7@uuid_generate_v7 ir_gen_random_uuid)" 0.05
	target "uuidv4() vs gen_random_uuid()" "$(ratio ir_ulid_uuidv4 ir_gen_random_uuid)" 0.1
	target "one-item codec chain vs radix_encode" "$(ratio ir_snowflake_encode@one ir_ulid_radix_encode_sql)" 1.2
	target "three-item codec chain vs radix_encode" "$(ratio ir_snowflake_encode@three ir_ulid_radix_encode_sql)" 2
	report "| ulid_in Ir per call | ${MED[ir_ulid_in]} | $([ "${MED[ir_ulid_in]}" -le 420 ] && echo meets || echo MISSES) (at most 420) |"
	report "| ulid_out Ir per call | ${MED[ir_ulid_out]} | $([ "${MED[ir_ulid_out]}" -le 195 ] && echo meets || echo MISSES) (at most 195 on 15, issue 27) |"
fi
if [ "$cg_missing" -gt 0 ]; then
	echo "bench: $cg_missing functions have no instruction count" >&2
	exit 1
fi
