# Concurrency in batches: pgbench with 1, 2 and 4 clients, 100 rows per
# transaction into a primary key from each generator, and what the index
# does meanwhile.  Two crossed keys tell the value from the type:
# gen_ulid()'s values in a uuid column, gen_uuidv7()'s in a ulid column.
# Runs with synchronous_commit = off.  Rounds alternate the keys' order;
# each run starts on a fresh table after a CHECKPOINT.  Per run:
#   rows/s         pgbench's tps x 100
#   leaf pages     pgstatindex()'s leaf_pages, and leaf pages per 10,000 rows
#   leaf density   pgstatindex()'s avg_leaf_density (%)
#   WAL bytes/row  pg_current_wal_lsn() before and after the run
#   waits          a sampler backend reads pg_stat_activity every 10 ms
#                  during the run: the share of the pgbench backends'
#                  samples waiting on a buffer's content lock
#                  (LWLock BufferContent: a page another backend holds) and
#                  on anything else
#   session run    the rows in key order, the pgbench backend that inserted
#                  each (its pid in payload): rows per run of one backend's
#                  rows, so how far apart the sessions insert (a leaf page
#                  holds about 290 16-byte keys when full)
# ULID_BENCH_BATCH_SECONDS, _ROUNDS, _CLIENTS ("1 2 4") and _KEYS (names of
# BT_KEYS below) narrow it.  Sourced by test/bench/run.sh.
if [ -n "${ULID_BENCH_QUICK:-}" ]; then
	: "${ULID_BENCH_BATCH_SECONDS:=1}" "${ULID_BENCH_BATCH_ROUNDS:=1}"
else
	: "${ULID_BENCH_BATCH_SECONDS:=6}" "${ULID_BENCH_BATCH_ROUNDS:=3}"
fi
: "${ULID_BENCH_BATCH_CLIENTS:=1 2 4}"
bt_pg18=$(bench_psql -c "SELECT current_setting('server_version_num')::int >= 180000")
bench_psql -q -c "CREATE EXTENSION IF NOT EXISTS pgstattuple" >/dev/null
# NAME|COLUMN TYPE|DEFAULT expression ("" for serial types)
BT_KEYS=(
	"gen_ulid|ulid|gen_ulid()"
	"gen_uuidv7|uuid|gen_uuidv7()"
	"gen_ulid_as_uuid|uuid|gen_ulid()::uuid"
	"gen_uuidv7_as_ulid|ulid|gen_uuidv7()::ulid"
	"gen_monotonic_ulid|ulid|gen_monotonic_ulid()"
	"bigserial|bigserial|"
)
[ "$bt_pg18" = t ] && BT_KEYS+=("uuidv7|uuid|uuidv7()")
# ULID_BENCH_BATCH_KEYS="gen_ulid gen_uuidv7": only these keys
if [ -n "${ULID_BENCH_BATCH_KEYS:-}" ]; then
	bt_all=("${BT_KEYS[@]}")
	BT_KEYS=()
	for spec in "${bt_all[@]}"; do
		[[ " $ULID_BENCH_BATCH_KEYS " == *" ${spec%%|*} "* ]] && BT_KEYS+=("$spec")
	done
fi
BT_CSV=$BENCH_OUT/batch.csv
echo "key,clients,round,rows_per_s,leaf_pages,leaf_pages_per_10k_rows,avg_leaf_density,wal_bytes_per_row,samples,buffer_content_share,other_wait_share,rows_per_session_run" >"$BT_CSV"

# bt_run NAME TYPE DEFAULT CLIENTS ROUND: one run, one line of batch.csv
bt_run() {
	local name=$1 type=$2 def=$3 c=$4 r=$5 lsn tps sampler rows
	bench_psql -q -c "DROP TABLE IF EXISTS bt_$name" \
		-c "CREATE TABLE bt_$name (id $type PRIMARY KEY ${def:+DEFAULT $def}, payload int)" \
		-c "TRUNCATE bt_waits" -c "CHECKPOINT" >/dev/null
	echo "INSERT INTO bt_$name (payload) SELECT pg_backend_pid() FROM generate_series(1, 100);" >"$BENCH_OUT/bt_$name.sql"
	lsn=$(bench_psql -c "SELECT pg_current_wal_lsn()")
	bench_psql -q -c "CALL bt_sample($ULID_BENCH_BATCH_SECONDS)" >/dev/null &
	sampler=$!
	tps=$(PGOPTIONS="-c synchronous_commit=off" "$PG_BIN/pgbench" -n -M prepared -c "$c" -j "$c" \
		-T "$ULID_BENCH_BATCH_SECONDS" -f "$BENCH_OUT/bt_$name.sql" -h "$ULID_WORK/sock" \
		-p "$(pg_port bench)" -U postgres postgres 2>&1 | awk '/^tps = / { printf "%.0f", $3 }')
	wait "$sampler"
	rows=$(bench_psql -F ',' -c "SELECT $(awk -v t="${tps:-0}" 'BEGIN { printf "%.0f", t * 100 }'),
		s.leaf_pages, round(s.leaf_pages * 10000.0 / n.n, 2), s.avg_leaf_density,
		round(pg_wal_lsn_diff(pg_current_wal_lsn(), '$lsn') / n.n, 1),
		w.samples, round(w.bc::numeric / nullif(w.samples, 0), 3), round(w.other::numeric / nullif(w.samples, 0), 3), k.run
		FROM pgstatindex('bt_${name}_pkey') s, (SELECT count(*) AS n FROM bt_$name) n,
		(SELECT count(*) AS samples, count(*) FILTER (WHERE ev = 'LWLock:BufferContent') AS bc,
		        count(*) FILTER (WHERE ev <> 'LWLock:BufferContent' AND ev <> 'CPU') AS other FROM bt_waits) w,
		(SELECT round(count(*)::numeric / (1 + count(*) FILTER (WHERE sw)), 1) AS run
		   FROM (SELECT payload <> coalesce(lag(payload) OVER (ORDER BY id), payload) AS sw FROM bt_$name) o) k") || exit 1
	echo "$name,$c,$r,$rows" >>"$BT_CSV"
	bench_psql -q -c "DROP TABLE bt_$name" >/dev/null
	rm -f "$BENCH_OUT/bt_$name.sql"
}

bench_psql -q -c "DROP TABLE IF EXISTS bt_waits" -c "CREATE UNLOGGED TABLE bt_waits (ev text)" \
	-c "CREATE OR REPLACE PROCEDURE bt_sample(secs float8) LANGUAGE plpgsql AS \$\$
	DECLARE t_end timestamptz := clock_timestamp() + secs * interval '1 s';
	BEGIN
		PERFORM pg_sleep(0.2);	-- pgbench connects
		WHILE clock_timestamp() < t_end - interval '0.2 s' LOOP
			INSERT INTO bt_waits SELECT coalesce(wait_event_type || ':' || wait_event, 'CPU')
			  FROM pg_stat_activity WHERE application_name = 'pgbench' AND state = 'active';
			COMMIT;
			PERFORM pg_sleep(0.01);
		END LOOP;
	END \$\$" >/dev/null
for r in $(seq 1 "$ULID_BENCH_BATCH_ROUNDS"); do
	for c in $ULID_BENCH_BATCH_CLIENTS; do
		n=${#BT_KEYS[@]}
		for k in $(seq 0 $((n - 1))); do
			IFS='|' read -r name type def <<<"${BT_KEYS[$(((k + r) % n))]}"
			bt_run "$name" "$type" "$def" "$c" "$r"
		done
	done
done
bench_psql -q -c "DROP TABLE bt_waits" -c "DROP PROCEDURE bt_sample" >/dev/null

# medians per key and client count, and rows/s against gen_ulid's of the same
# round (paired), as a Markdown table
report ""
report "## Concurrency in batches: pgbench, 100 rows per transaction (${ULID_BENCH_BATCH_SECONDS} s per run, $ULID_BENCH_BATCH_ROUNDS rounds, synchronous_commit off)"
report ""
report "Medians over the rounds.  \"vs gen_ulid\" is the median of each round's ratio to gen_ulid() with"
report "the same clients.  Leaf pages and density: pgstatindex() after the run.  Waits: the share of"
report "pg_stat_activity samples (every 10 ms) of the pgbench backends waiting on a buffer content"
report "lock (a leaf page another backend holds), and on anything else.  Rows per session run: the"
report "table in key order, rows per run of one pgbench backend's rows (how far apart the sessions insert;"
report "a full leaf page holds about 290 16-byte keys)."
report ""
report "| key | clients | rows/s | vs gen_ulid | leaf pages per 10k rows | leaf density % | WAL bytes/row | BufferContent waits | other waits | rows per session run |"
report "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
while IFS= read -r line; do
	report "$line"
	IFS='|' read -r _ k c rps vs _ dens _ bc _ srun _ <<<"${line// /}"
	summary "batch_rows_${k}_$c" "pgbench, $c clients, 100 rows per transaction: \`$k\` rows/s (vs \`gen_ulid()\`)" "$rps ($vs)"
	summary "batch_leaf_${k}_$c" "the same: \`$k\` primary key's leaf density %, BufferContent wait share, rows per session run" "$dens, $bc, $srun"
done < <(awk -F, '
	function med(s,   a, n, i, j, t) {
		n = split(s, a, " ")
		for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	NR == 1 { next }
	{
		k = $1 SUBSEP $2
		rps[k] = rps[k] " " $4; lp[k] = lp[k] " " $6; dens[k] = dens[k] " " $7
		wal[k] = wal[k] " " $8; bc[k] = bc[k] " " $10; ow[k] = ow[k] " " $11; run[k] = run[k] " " $12
		v[$1, $2, $3] = $4
		rounds[$3] = 1
	}
	END {
		nc = split(clients, cs, " ")
		nn = split(keys, ks, " ")
		for (i = 1; i <= nc; i++) for (j = 1; j <= nn; j++) if ((ks[j] SUBSEP cs[i]) in rps) order[++nk] = ks[j] SUBSEP cs[i]
		for (i = 1; i <= nk; i++) {
			split(order[i], p, SUBSEP)
			rs = ""
			for (r in rounds) if ((p[1], p[2], r) in v && ("gen_ulid", p[2], r) in v && v["gen_ulid", p[2], r] > 0)
				rs = rs " " v[p[1], p[2], r] / v["gen_ulid", p[2], r]
			printf "| %s | %s | %.0f | %.3fx | %.2f | %.1f | %.1f | %.3f | %.3f | %.1f |\n", p[1], p[2], med(rps[order[i]]),
				med(rs), med(lp[order[i]]), med(dens[order[i]]), med(wal[order[i]]), med(bc[order[i]]), med(ow[order[i]]), med(run[order[i]])
		}
	}' clients="$ULID_BENCH_BATCH_CLIENTS" keys="$(printf '%s ' "${BT_KEYS[@]%%|*}")" "$BT_CSV")
