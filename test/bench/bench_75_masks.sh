# The public faces of ids (issue 36): what a mask plus unmask round trip
# costs (targets: 50 ns for uuidv47_* and ulid_*, 100 ns for snowflake_*),
# in the C core and per SQL call, and the instructions per call of every
# function.  Sourced by test/bench/run.sh.
#
# 1. The C core, built with the server's compiler and CFLAGS (as PGXS builds
#    the extension): each round trip feeds the next one (a chain, so the
#    figure is latency, not throughput); 201 runs of 5,000 round trips (of
#    500 in quick mode), short enough that the least of them is seldom
#    interrupted on a shared machine: the median and the least.
# 2. Outside quick mode, the unit test of the masks at full size
#    (ULID_MASK_FULL=1: every value of every domain up to 24 bits and 10^7
#    random ids of each Snowflake preset), built the same way.
# 3. SQL: N values each, net of a query reading the same column.
# 4. Instructions per call: bench_15_instructions.sh's callgrind pass
#    (cg_pass) on its scratch cluster, when it ran before in this run.
N=$ULID_BENCH_N
mb=$ULID_WORK/masks-bench
mkdir -p "$mb"
cat >"$mb/round_trip.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mask.h"

static double
now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static int
cmp(const void *a, const void *b)
{
	double		x = *(const double *) a,
				y = *(const double *) b;

	return (x > y) - (x < y);
}

#define RUNS 201
static long n;
static ulid_mask_key key;

/* median and least ns per round trip of RUNS chains of n round trips */
#define MEASURE(label, body) \
	do { \
		double		ns[RUNS]; \
		for (int r = 0; r < RUNS; r++) \
		{ \
			double		t0 = now_ns(); \
			for (long i = 0; i < n; i++) \
				body; \
			ns[r] = (now_ns() - t0) / n; \
		} \
		qsort(ns, RUNS, sizeof(double), cmp); \
		printf("%s %.1f\n%s_min %.1f\n", label, ns[RUNS / 2], label, ns[0]); \
	} while (0)

static void
snowflake(const char *label, sfl_preset p)
{
	sfl_layout	l;
	char		msg[SFL_MSG_MAX];
	uint64_t	id = 1541815603606036480u % ((uint64_t) 1 << 52),
				m;

	sfl_preset_layout(p, sfl_preset_epoch(p), 8, &l, msg, sizeof(msg));
	MEASURE(label, {
		ulid_snowflake_mask(&key, &l, id, &m);
		ulid_snowflake_unmask(&key, &l, m, &id);
		id = (id + 1) % ((uint64_t) 1 << 52);
	});
	if (id == 42)
		puts("");
}

int
main(int argc, char **argv)
{
	uint8_t		secret[16],
				u[16],
				m[16];

	n = argc > 1 ? atol(argv[1]) : 1000000;
	for (int i = 0; i < 16; i++)
		secret[i] = (uint8_t) (i * 37 + 1);
	ulid_mask_key_init(&key, secret);
	memset(u, 0x5a, 16);
	u[6] = 0x70;
	u[8] = 0x80;
	MEASURE("uuidv47", {
		ulid_uuidv47_encode(&key, u, m);
		ulid_uuidv47_decode(&key, m, u);
		u[15]++;
	});
	MEASURE("ulid", {
		ulid_mask128(&key, u, m);
		ulid_unmask128(&key, m, u);
		u[15]++;
	});
	key.aes.hw = false;
	MEASURE("ulid_portable", {
		ulid_mask128(&key, u, m);
		ulid_unmask128(&key, m, u);
		u[15]++;
	});
	snowflake("snowflake_twitter", SFL_TWITTER);
	snowflake("snowflake_js_safe_ms", SFL_JS_SAFE_MS);
	snowflake("snowflake_discord", SFL_DISCORD);
	snowflake("snowflake_scru64", SFL_SCRU64);
	printf("aes_instructions %d\n", ulid_aes128_hw_available() ? 1 : 0);
	return u[0] == 0x42 && m[0] == 0x42;
}
C
# shellcheck disable=SC2046 # the server's CFLAGS, as PGXS builds the extension
"$("$PG_CONFIG" --cc)" $("$PG_CONFIG" --cflags) -I"$ULID_ROOT/src/core" -o "$mb/round_trip" \
	"$mb/round_trip.c" "$ULID_ROOT"/src/core/*.c || {
	echo "bench: the round-trip program does not build" >&2
	exit 1
}
declare -A RT
while read -r k v; do RT[$k]=$v; done < <("$mb/round_trip" "$([ -n "${ULID_BENCH_QUICK:-}" ] && echo 500 || echo 5000)")

report ""
report "## Masks, Sqids and base32hex (issue 36)"
report ""
report "Mask plus unmask, one round trip after another, in the C core: the median and the least of 201"
report "runs (on a shared machine the least is the machine's own speed; the target is checked on it);"
report "AES instructions $([ "${RT[aes_instructions]}" = 1 ] && echo used || echo "not available: portable AES")."
report ""
report "| round trip | ns, median | ns, least | target |"
report "|---|---:|---:|---|"
rt_row() { # LABEL KEY LIMIT
	report "| $1 | ${RT[$2]} | ${RT[$2_min]} | $(awk -v v="${RT[$2_min]}" -v l="$3" 'BEGIN { if (l == "") print ""; else print (v <= l ? "meets" : "MISSES") " (at most " l " ns)" }') |"
	summary "rt_$2" "$1, ns per mask + unmask (least of 201 runs)" "${RT[$2_min]}"
}
rt_row "uuidv47_encode + uuidv47_decode" uuidv47 50
rt_row "ulid_mask + ulid_unmask" ulid 50
rt_row "ulid_mask + ulid_unmask, portable AES (no AES instructions)" ulid_portable ""
rt_row "snowflake_mask + unmask, twitter (63 bits)" snowflake_twitter 100
rt_row "snowflake_mask + unmask, js_safe_ms (53 bits)" snowflake_js_safe_ms 100
rt_row "snowflake_mask + unmask, discord (64 bits: 63 masked)" snowflake_discord 100
rt_row "snowflake_mask + unmask, scru64 (below 36^12: 1.95 passes on average)" snowflake_scru64 ""

if [ -z "${ULID_BENCH_QUICK:-}" ]; then
	# shellcheck disable=SC2046
	"$("$PG_CONFIG" --cc)" $("$PG_CONFIG" --cflags) -I"$ULID_ROOT/src/core" -o "$mb/test_mask" \
		"$ULID_ROOT/test/unit/test_mask.c" "$ULID_ROOT"/src/core/*.c && {
		start=$(date +%s)
		ULID_MASK_FULL=1 "$mb/test_mask" >"$mb/test_mask.out" 2>&1
		rc=$?
		report ""
		report "Bijection at full size (\`ULID_MASK_FULL=1 test/unit/test_mask.c\`: every value of every domain up to"
		report "24 bits, 10^7 random ids of each preset): $(grep -c '^ok' "$mb/test_mask.out") checks passed,"
		report "$(grep -c '^not ok' "$mb/test_mask.out") failed, exit status $rc, $(($(date +%s) - start)) s."
	}
fi

bench_psql -q -c "DROP TABLE IF EXISTS mask_t" -c "SELECT ulid_key_create('bench', '\\x000102030405060708090a0b0c0d0e0f') WHERE NOT EXISTS (SELECT FROM ulid_keyring.keys WHERE name = 'bench')" \
	-c "CREATE TABLE mask_t AS
	SELECT u, u::uuid AS v7, uuidv47_encode(u::uuid, 'bench') AS facade, ulid_mask(u, 'bench') AS um,
	       snowflake_pack('twitter', ulid_time(u), i % 1024, i % 4096) AS sf, ulid_to_base32hex(u) AS b32h,
	       ARRAY[i::bigint] AS nums, sqids_encode(ARRAY[i::bigint]) AS sq
	FROM (SELECT gen_uuidv7()::ulid AS u, i FROM generate_series(1, $N) i) s" \
	-c "UPDATE mask_t SET sf = snowflake_mask(sf, 'twitter', 'bench')" -c "VACUUM ANALYZE mask_t" >/dev/null
bench_queries "Masks, $N values (each query unmasks what it masks)" \
	mask_floor "SELECT count(u) FROM mask_t" \
	mask_uuid_out "SELECT count(v7::text) FROM mask_t" \
	mask_uuidv47 "SELECT count(uuidv47_decode(uuidv47_encode(v7, 'bench'), 'bench')) FROM mask_t" \
	mask_ulid "SELECT count(ulid_unmask(ulid_mask(u, 'bench'), 'bench')) FROM mask_t" \
	mask_snowflake "SELECT count(snowflake_unmask(snowflake_mask(sf, 'twitter', 'bench'), 'twitter', 'bench')) FROM mask_t"
bench_queries "Sqids and base32hex, $N values" \
	pub_floor "SELECT count(u) FROM mask_t" \
	pub_b32h_enc "SELECT count(ulid_to_base32hex(u)) FROM mask_t" \
	pub_b32h_dec "SELECT count(ulid_from_base32hex(b32h)) FROM mask_t" \
	pub_sqids_enc "SELECT count(sqids_encode(nums)) FROM mask_t" \
	pub_sqids_dec "SELECT count(sqids_decode(sq)) FROM mask_t"
report ""
report "| SQL | net ns per value | vs core uuid_out |"
report "|---|---:|---:|"
for k in uuidv47 ulid snowflake; do
	report "| $k mask + unmask (two calls) | $(net_ns "mask_$k" mask_floor "$N") | $(ratio "mask_$k" mask_uuid_out mask_floor)x |"
done
report "| core uuid_out (the base) | $(net_ns mask_uuid_out mask_floor "$N") | 1x |"
for k in b32h_enc b32h_dec sqids_enc sqids_dec; do
	report "| $k | $(net_ns "pub_$k" pub_floor "$N") | $(awk -v a="${MED[pub_$k]}" -v f="${MED[pub_floor]}" -v b="${MED[mask_uuid_out]}" -v g="${MED[mask_floor]}" 'BEGIN { printf "%.3f", (a - f) / (b - g) }')x |"
done

if declare -F cg_pass >/dev/null; then
	cg_setup "$cg_dir/masks-setup.log" <<SQL
SELECT ulid_key_create('bench', '\\x000102030405060708090a0b0c0d0e0f')
CREATE TABLE cg_mask AS SELECT u, u::uuid AS v7, uuidv47_encode(u::uuid, 'bench') AS facade, ulid_mask(u, 'bench') AS um, snowflake_pack('twitter', ulid_time(u), i % 1024, i % 4096) AS sf, ulid_to_base32hex(u) AS b32h, ARRAY[i::bigint] AS nums, sqids_encode(ARRAY[i::bigint]) AS sq FROM (SELECT gen_uuidv7()::ulid AS u, i FROM generate_series(1, $CG_N) i) s
SQL
	MASK_ROWS=(
		"uuidv47_encode|ulid_uuidv47_encode_sql|SELECT count(uuidv47_encode(v7, 'bench')) FROM cg_mask"
		"uuidv47_decode|ulid_uuidv47_decode_sql|SELECT count(uuidv47_decode(facade, 'bench')) FROM cg_mask"
		"ulid_mask|ulid_mask_sql|SELECT count(ulid_mask(u, 'bench')) FROM cg_mask"
		"ulid_unmask|ulid_unmask_sql|SELECT count(ulid_unmask(um, 'bench')) FROM cg_mask"
		"snowflake_mask (twitter)|ulid_snowflake_mask_sql|SELECT count(snowflake_mask(sf, 'twitter', 'bench')) FROM cg_mask"
		"snowflake_unmask (twitter)|ulid_snowflake_unmask_sql|SELECT count(snowflake_unmask(sf, 'twitter', 'bench')) FROM cg_mask"
		"ulid_to_base32hex|ulid_to_base32hex|SELECT count(ulid_to_base32hex(u)) FROM cg_mask"
		"ulid_from_base32hex|ulid_from_base32hex|SELECT count(ulid_from_base32hex(b32h)) FROM cg_mask"
		"sqids_encode (one number)|ulid_sqids_encode_sql|SELECT count(sqids_encode(nums)) FROM cg_mask"
		"sqids_decode (one number)|ulid_sqids_decode_sql|SELECT count(sqids_decode(sq)) FROM cg_mask"
	)
	cg_pass masks "${MASK_ROWS[@]}"
	report ""
	report "Instructions per call (callgrind, as in \"Instructions per call\" above, $CG_N calls each):"
	report ""
	report "| function | Ir per call | vs core uuid_out |"
	report "|---|---:|---:|"
	for row in "${MASK_ROWS[@]}"; do
		IFS='|' read -r label fn _ <<<"$row"
		MED[ir_$fn]=$(awk -v t="${IR[$fn]:-0}" -v n="$CG_N" 'BEGIN { printf "%.0f", t / n }')
		report "| $label | ${MED[ir_$fn]} | $(ratio "ir_$fn" ir_uuid_out)x |"
		summary "ir_$fn" "$label, instructions per call" "${MED[ir_$fn]}"
		if [ "${MED[ir_$fn]}" -le 0 ]; then
			echo "bench: no instruction count for $fn" >&2
			exit 1
		fi
	done
fi
bench_psql -q -c "DROP TABLE mask_t" -c "SELECT ulid_key_drop('bench')" >/dev/null
