# Reading: the latest rows by id, a time-range count through the id index vs
# through a created_at timestamptz index (the id index replaces it), for ULID
# keys.  Sourced by test/bench/run.sh.
N=$ULID_BENCH_N
bench_psql -q -c "DROP TABLE IF EXISTS read_t" \
	-c "CREATE TABLE read_t (id ulid PRIMARY KEY, created_at timestamptz NOT NULL, payload int)" \
	-c "INSERT INTO read_t SELECT gen_ulid(now() - make_interval(secs => ($N - g) * 0.01)), now() - make_interval(secs => ($N - g) * 0.01), g FROM generate_series(1, $N) g" \
	-c "CREATE INDEX read_t_created_at ON read_t (created_at)" -c "VACUUM ANALYZE read_t" >/dev/null
# same rows, same time: the ULID's time part is created_at to the millisecond
bench_psql -q -c "DO \$\$ BEGIN IF EXISTS (SELECT FROM read_t WHERE ulid_time(id) <> date_trunc('milliseconds', created_at)
	AND ulid_time(id) <> created_at - (extract(microseconds FROM created_at)::bigint % 1000) * interval '1 microsecond')
	THEN RAISE EXCEPTION 'id and created_at disagree'; END IF; END \$\$" >/dev/null

report ""
report "## Reading ($N rows, one every 10 ms up to now)"
# the latest 100 rows, 200 times per query (one run is too short to time);
# a time range holding the newest 10% of the rows
win="$((N / 1000)) seconds"
latest() { # ORDER BY column
	echo "SELECT sum(c) FROM generate_series(1, 200) g, LATERAL (SELECT count(*) AS c FROM
		(SELECT id FROM read_t WHERE g > 0 ORDER BY $1 DESC LIMIT 100) s) x"
}
bench_queries "Reading through the id index vs a created_at index" \
	latest_100_by_id_x200 "$(latest id)" \
	latest_100_by_created_at_x200 "$(latest created_at)" \
	newest_10pct_by_id "SELECT count(*) FROM read_t WHERE id >= ulid_lower(now() - interval '$win')" \
	newest_10pct_by_created_at "SELECT count(*) FROM read_t WHERE created_at >= now() - interval '$win'"
sizes=$(bench_psql -F ' ' -c "SELECT pg_relation_size('read_t_pkey'), pg_relation_size('read_t_created_at')" | tail -1)
report ""
report "Index sizes: id (ulid) $((${sizes% *} / 1048576)) MiB; created_at $((${sizes#* } / 1048576)) MiB. With a ULID key, \`WHERE id >= ulid_lower(...)\` answers time-range queries from the primary key, so the created_at index can be dropped."
bench_psql -q -c "DROP TABLE read_t" >/dev/null
