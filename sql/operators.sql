-- Operators and ordering, checked against uuid ordering of the same bytes.
CREATE TABLE ops_t AS
SELECT ulid_from_parts(ms, r) AS u
FROM (VALUES (0::bigint), (1), (1712345678901), (1712345678902), (281474976710655)) m(ms),
     (VALUES ('\x00000000000000000000'::bytea), ('\x00000000000000000001'),
             ('\x7fffffffffffffffffff'), ('\x80000000000000000000'),
             ('\xffffffffffffffffffff')) r(r);
INSERT INTO ops_t SELECT gen_random_ulid() FROM generate_series(1, 500);

-- every operator agrees with uuid's on every pair
SELECT count(*) AS pairs,
       count(*) FILTER (WHERE (a.u = b.u) <> (a.u::uuid = b.u::uuid)) AS eq_diff,
       count(*) FILTER (WHERE (a.u <> b.u) <> (a.u::uuid <> b.u::uuid)) AS ne_diff,
       count(*) FILTER (WHERE (a.u < b.u) <> (a.u::uuid < b.u::uuid)) AS lt_diff,
       count(*) FILTER (WHERE (a.u <= b.u) <> (a.u::uuid <= b.u::uuid)) AS le_diff,
       count(*) FILTER (WHERE (a.u > b.u) <> (a.u::uuid > b.u::uuid)) AS gt_diff,
       count(*) FILTER (WHERE (a.u >= b.u) <> (a.u::uuid >= b.u::uuid)) AS ge_diff,
       count(*) FILTER (WHERE ulid_cmp(a.u, b.u) <> uuid_cmp(a.u::uuid, b.u::uuid)) AS cmp_diff
FROM ops_t a, ops_t b;

-- ORDER BY gives the same order as uuid, text and time
SELECT bool_and(ulid_rank = uuid_rank) AS same_as_uuid,
       bool_and(ulid_rank = text_rank) AS same_as_text
FROM (SELECT row_number() OVER (ORDER BY u) AS ulid_rank,
             row_number() OVER (ORDER BY u::uuid) AS uuid_rank,
             row_number() OVER (ORDER BY u::text COLLATE "C") AS text_rank
      FROM (SELECT DISTINCT u FROM ops_t) d) s;
SELECT u FROM ops_t WHERE ulid_unix_ms(u) IN (1, 1712345678902) ORDER BY u DESC;

-- operator metadata: commutators, negators, estimators, HASHES, MERGES
SELECT o.oprname, o.oprcom::regoperator AS commutator, o.oprnegate::regoperator AS negator,
       o.oprrest, o.oprjoin, o.oprcanhash, o.oprcanmerge
FROM pg_operator o
WHERE o.oprleft = 'ulid'::regtype AND o.oprright = 'ulid'::regtype
ORDER BY o.oprname;

-- hash join and merge join both work
SET enable_nestloop = off;
SET enable_mergejoin = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ops_t a JOIN ops_t b USING (u);
SELECT count(*) AS hash_join_rows FROM ops_t a JOIN ops_t b USING (u);
SET enable_hashjoin = off;
SET enable_mergejoin = on;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ops_t a JOIN ops_t b USING (u);
SELECT count(*) AS merge_join_rows FROM ops_t a JOIN ops_t b USING (u);
RESET enable_nestloop;
RESET enable_mergejoin;
RESET enable_hashjoin;

-- DISTINCT and GROUP BY through hashing
SET enable_sort = off;
SELECT count(*) AS groups FROM (SELECT u FROM ops_t GROUP BY u) g;
RESET enable_sort;

-- min and max aggregates, also in parallel (combine function)
SELECT min(u), max(u) FROM ops_t;
SELECT min(u) = (SELECT u FROM ops_t ORDER BY u LIMIT 1) AS min_ok,
       max(u) = (SELECT u FROM ops_t ORDER BY u DESC LIMIT 1) AS max_ok
FROM ops_t;
SELECT min(u) IS NULL AND max(u) IS NULL AS empty_is_null FROM ops_t WHERE false;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT min(u), max(u) FROM ops_t;
SELECT min(u), max(u) FROM ops_t;
-- the workers alone (the leader only combines): each worker's state is
-- serialized, deserialized and combined; a worker that sees only NULLs or
-- no rows sends no state
SET parallel_leader_participation = off;
-- (the plan as on 15-17: 18+ prints rows per loop with two decimals)
CREATE FUNCTION pg_temp.analyzed(q text) RETURNS SETOF text LANGUAGE plpgsql AS $f$
DECLARE l text;
BEGIN
    FOR l IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF) ' || q LOOP
        RETURN NEXT regexp_replace(l, 'rows=(\d+)\.\d+', 'rows=\1', 'g');
    END LOOP;
END $f$;
SELECT pg_temp.analyzed('SELECT min(u), max(u) FROM ops_t');
SELECT min(u), max(u) FROM ops_t;
SELECT min(u) IS NULL AND max(u) IS NULL AS empty_is_null FROM ops_t WHERE false;
RESET parallel_leader_participation;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;

-- NULLs are skipped; only NULLs give NULL
SELECT min(u), max(u) FROM (VALUES (NULL::ulid), ('01HTQW311N1KR5G0Y75M3EF00H'), (NULL),
                                   ('01HTQW311N1KR5G0Y75M3EF00G'), ('01HTQW311N1KR5G0Y75M3EF00J')) v(u);
SELECT min(u) IS NULL AND max(u) IS NULL AS only_nulls_is_null FROM (VALUES (NULL::ulid), (NULL)) v(u);
-- one state per group, hashed and sorted, against the first and last of each
-- group's sorted values
CREATE TEMP VIEW minmax_groups AS
SELECT count(*) AS groups,
       count(*) FILTER (WHERE mn IS DISTINCT FROM first_u OR mx IS DISTINCT FROM last_u) AS wrong
FROM (SELECT get_byte(u::bytea, 15) % 3 AS k, min(u) AS mn, max(u) AS mx FROM ops_t GROUP BY 1) m
JOIN (SELECT get_byte(u::bytea, 15) % 3 AS k, (array_agg(u ORDER BY u))[1] AS first_u,
             (array_agg(u ORDER BY u DESC))[1] AS last_u
      FROM ops_t GROUP BY 1) f USING (k);
SET enable_sort = off;
EXPLAIN (COSTS OFF) SELECT get_byte(u::bytea, 15) % 3, min(u), max(u) FROM ops_t GROUP BY 1;
SELECT * FROM minmax_groups;
RESET enable_sort;
SET enable_hashagg = off;
EXPLAIN (COSTS OFF) SELECT get_byte(u::bytea, 15) % 3, min(u), max(u) FROM ops_t GROUP BY 1;
SELECT * FROM minmax_groups;
RESET enable_hashagg;
DROP VIEW minmax_groups;
-- as window aggregates (the state function runs per frame row)
SELECT count(*) FILTER (WHERE running_max IS DISTINCT FROM u) AS wrong_running_max
FROM (SELECT u, max(u) OVER (ORDER BY u) AS running_max FROM ops_t) w;
-- the support functions take and return internal: SQL cannot call them
-- (15 and 18 refuse the cast, 42846; early 16 minors the value, 0A000)
DO $$
BEGIN
    PERFORM ulid_min_trans(NULL::internal, '01HTQW311N1KR5G0Y75M3EF00H');
    RAISE EXCEPTION 'ulid_min_trans was called from SQL';
EXCEPTION WHEN cannot_coerce OR feature_not_supported THEN
    RAISE NOTICE 'ulid_min_trans refused: %', SQLSTATE IN ('42846', '0A000');
END $$;
DO $$
BEGIN
    PERFORM ulid_minmax_deserialize('\x0102'::bytea, NULL::internal);
    RAISE EXCEPTION 'ulid_minmax_deserialize was called from SQL';
EXCEPTION WHEN cannot_coerce OR feature_not_supported THEN
    RAISE NOTICE 'ulid_minmax_deserialize refused: %', SQLSTATE IN ('42846', '0A000');
END $$;

DROP TABLE ops_t;
