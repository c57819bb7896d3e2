-- Comparing ulid with uuid (SPEC section 1): the cross-type operators, both
-- ways, as members of ulid's default btree and hash families, so that a
-- uuid-typed parameter (what drivers send for UUID objects) uses a ulid
-- index; storing a uuid into a ulid column still needs the explicit cast.
CREATE TABLE xt (id ulid PRIMARY KEY, n int, u uuid);
INSERT INTO xt
SELECT ulid_from_parts(1700000000000 + g, decode(lpad(to_hex(g), 20, '0'), 'hex')), g, NULL
FROM generate_series(1, 20000) g;
-- u: the same bytes as id on even rows, random UUIDs (never equal) on odd ones
UPDATE xt SET u = CASE WHEN n % 2 = 0 THEN id::uuid ELSE gen_random_uuid() END;
ANALYZE xt;

-- every operator agrees with comparing id::uuid, both ways, on every pair
-- of a sample that holds equal, smaller and larger values
CREATE TABLE xt_sample AS
SELECT id, u FROM xt WHERE n % 1000 IN (1, 2, 500)
UNION ALL SELECT '00000000000000000000000000', '00000000-0000-0000-0000-000000000000'
UNION ALL SELECT '7ZZZZZZZZZZZZZZZZZZZZZZZZZ', 'ffffffff-ffff-ffff-ffff-ffffffffffff';
SELECT count(*) AS pairs,
       count(*) FILTER (WHERE (a.id = b.u) IS DISTINCT FROM (a.id::uuid = b.u)) AS eq_diff,
       count(*) FILTER (WHERE (a.id <> b.u) IS DISTINCT FROM (a.id::uuid <> b.u)) AS ne_diff,
       count(*) FILTER (WHERE (a.id < b.u) IS DISTINCT FROM (a.id::uuid < b.u)) AS lt_diff,
       count(*) FILTER (WHERE (a.id <= b.u) IS DISTINCT FROM (a.id::uuid <= b.u)) AS le_diff,
       count(*) FILTER (WHERE (a.id > b.u) IS DISTINCT FROM (a.id::uuid > b.u)) AS gt_diff,
       count(*) FILTER (WHERE (a.id >= b.u) IS DISTINCT FROM (a.id::uuid >= b.u)) AS ge_diff,
       count(*) FILTER (WHERE ulid_cmp_uuid(a.id, b.u) <> uuid_cmp(a.id::uuid, b.u)) AS cmp_diff,
       count(*) FILTER (WHERE a.id = b.u) AS equal_pairs
FROM xt_sample a, xt_sample b;
SELECT count(*) AS pairs,
       count(*) FILTER (WHERE (b.u = a.id) IS DISTINCT FROM (b.u = a.id::uuid)) AS eq_diff,
       count(*) FILTER (WHERE (b.u <> a.id) IS DISTINCT FROM (b.u <> a.id::uuid)) AS ne_diff,
       count(*) FILTER (WHERE (b.u < a.id) IS DISTINCT FROM (b.u < a.id::uuid)) AS lt_diff,
       count(*) FILTER (WHERE (b.u <= a.id) IS DISTINCT FROM (b.u <= a.id::uuid)) AS le_diff,
       count(*) FILTER (WHERE (b.u > a.id) IS DISTINCT FROM (b.u > a.id::uuid)) AS gt_diff,
       count(*) FILTER (WHERE (b.u >= a.id) IS DISTINCT FROM (b.u >= a.id::uuid)) AS ge_diff,
       count(*) FILTER (WHERE uuid_cmp_ulid(b.u, a.id) <> uuid_cmp(b.u, a.id::uuid)) AS cmp_diff
FROM xt_sample a, xt_sample b;
SELECT '01HTQW311N1KR5G0Y75M3EF00H'::ulid = '018eafc1-8435-0cf0-5803-c72d06e78011'::uuid AS same_bytes,
       '018eafc1-8435-0cf0-5803-c72d06e78011'::uuid = '01HTQW311N1KR5G0Y75M3EF00H'::ulid AS same_bytes_flipped,
       '01HTQW311N1KR5G0Y75M3EF00H'::ulid < '018eafc1-8435-0cf0-5803-c72d06e78012'::uuid AS lt,
       '01HTQW311N1KR5G0Y75M3EF00H'::ulid = NULL::uuid AS null_is_null;
DROP TABLE xt_sample;

-- (the operators' commutators, negators, estimators, HASHES and MERGES:
-- sql/catalog.sql)

-- the members of ulid's btree and hash families, per type pair
SELECT am.amname, a.amoplefttype::regtype AS left, a.amoprighttype::regtype AS right,
       string_agg(a.amopstrategy || ':' || a.amopopr::regoperator::text, ' ' ORDER BY a.amopstrategy) AS operators,
       (SELECT string_agg(p.amprocnum || ':' || p.amproc::regproc::text, ' ' ORDER BY p.amprocnum)
        FROM pg_amproc p
        WHERE p.amprocfamily = f.oid AND p.amproclefttype = a.amoplefttype
          AND p.amprocrighttype = a.amoprighttype
          AND p.amprocnum <> 6) AS support   -- 6: skip support, 18+ only
FROM pg_opfamily f
JOIN pg_am am ON am.oid = f.opfmethod
JOIN pg_amop a ON a.amopfamily = f.oid
WHERE f.opfname = 'ulid_ops'
GROUP BY am.amname, f.oid, a.amoplefttype, a.amoprighttype
ORDER BY 1, 2::text, 3::text;

-- uuid's own families are untouched: no ulid in them
SELECT count(*) AS ulid_in_uuid_families
FROM pg_amop a JOIN pg_opfamily f ON f.oid = a.amopfamily
WHERE f.opfname = 'uuid_ops' AND 'ulid'::regtype IN (a.amoplefttype, a.amoprighttype);

-- no existing query becomes ambiguous or changes meaning: a literal (or a
-- parameter of unknown type) next to a ulid is a ulid, next to a uuid a
-- uuid.  operators_of(q): the operators q resolves to (read from the
-- parse tree of a view of it).
CREATE FUNCTION operators_of(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    ops text;
BEGIN
    EXECUTE 'CREATE TEMP VIEW operators_of_v AS ' || q;
    SELECT string_agg(DISTINCT m[1]::oid::regoperator::text, ' ') INTO ops
    FROM pg_rewrite r, regexp_matches(r.ev_action::text, ':opno (\d+)', 'g') m
    WHERE r.ev_class = 'operators_of_v'::regclass;
    DROP VIEW operators_of_v;
    RETURN ops;
END
$$;
SELECT q, operators_of(q) AS resolves_to FROM (VALUES
    ($$SELECT n FROM xt WHERE id = '01HTQW311N1KR5G0Y75M3EF00H'$$),
    ($$SELECT n FROM xt WHERE '01HTQW311N1KR5G0Y75M3EF00H' = id$$),
    ($$SELECT n FROM xt WHERE id < '01HTQW311N1KR5G0Y75M3EF00H'$$),
    ($$SELECT n FROM xt WHERE id <> NULL$$),
    ($$SELECT n FROM xt WHERE u = '018eafc1-8435-0cf0-5803-c72d06e78011'$$),
    ($$SELECT n FROM xt WHERE '018eafc1-8435-0cf0-5803-c72d06e78011' >= u$$),
    ($$SELECT a.n FROM xt a JOIN xt b ON a.u = b.u$$),
    ($$SELECT a.n FROM xt a JOIN xt b ON a.id = b.id$$),
    ($$SELECT n FROM xt WHERE id IN ('01HTQW311N1KR5G0Y75M3EF00H', '01HTQW311N1KR5G0Y75M3EF00J')$$),
    ($$SELECT n FROM xt WHERE id = ANY ('{01HTQW311N1KR5G0Y75M3EF00H}')$$),
    ($$SELECT n FROM xt WHERE u = ANY ('{018eafc1-8435-0cf0-5803-c72d06e78011}')$$),
    ($$SELECT n FROM xt WHERE id IS DISTINCT FROM '01HTQW311N1KR5G0Y75M3EF00H'$$),
    ($$SELECT CASE id WHEN '01HTQW311N1KR5G0Y75M3EF00H' THEN 1 END FROM xt$$),
    ($$SELECT n FROM xt WHERE id = u$$),
    ($$SELECT n FROM xt WHERE u < id$$)
) v(q);
-- a ULID literal compared with a uuid column is still read as a uuid, and
-- is not one: the same error as before
SELECT err($$SELECT n FROM xt WHERE u = '01HTQW311N1KR5G0Y75M3EF00H'$$);
-- a uuid literal compared with a ulid column is read as a ulid: the UUID hint
SELECT err($$SELECT n FROM xt WHERE id = '018eafc1-8435-0cf0-5803-c72d06e78011'$$);
-- strings still compare only after a cast (assignment casts do not apply)
SELECT err($$SELECT n FROM xt WHERE id = '01HTQW311N1KR5G0Y75M3EF00H'::text$$);
SELECT err($$SELECT n FROM xt WHERE id = '01HTQW311N1KR5G0Y75M3EF00H'::varchar$$);
-- untyped parameters next to a ulid are ulids, next to a uuid uuids
PREPARE p_unknown AS SELECT n FROM xt WHERE id = $1 OR $2 = id OR id = ANY ($3) OR u = $4;
SELECT parameter_types FROM pg_prepared_statements WHERE name = 'p_unknown';
DEALLOCATE p_unknown;
-- UNION still does not mix the types (no implicit cast either way)
SELECT err($$SELECT id FROM xt UNION SELECT u FROM xt$$);

-- a uuid stores into a ulid column on assignment (1.3, issue 43), from a
-- value, a column, a parameter or a function, with the same bytes
CREATE TABLE xt_store (id ulid);
INSERT INTO xt_store VALUES ('018eafc1-8435-0cf0-5803-c72d06e78011'::uuid) RETURNING id;
INSERT INTO xt_store SELECT u FROM xt WHERE n = 2 RETURNING id = (SELECT id FROM xt WHERE n = 2) AS same_bytes;
INSERT INTO xt_store VALUES (gen_random_uuid()) RETURNING id IS NOT NULL AS stored;
UPDATE xt_store SET id = '018eafc1-8435-0cf0-5803-c72d06e78012'::uuid WHERE id = '01HTQW311N1KR5G0Y75M3EF00H' RETURNING id;
PREPARE p_store(uuid) AS INSERT INTO xt_store VALUES ($1) RETURNING id;
EXECUTE p_store('018eafc1-8435-0cf0-5803-c72d06e78013');
DEALLOCATE p_store;
SELECT count(*) AS stored FROM xt_store;
DROP TABLE xt_store;

-- WHERE id = $1 with a uuid parameter: the btree index, in custom and
-- generic plans, and the row whose bytes match
SET enable_seqscan = off;
SET enable_bitmapscan = off;
PREPARE by_uuid(uuid) AS SELECT n FROM xt WHERE id = $1;
EXPLAIN (COSTS OFF) EXECUTE by_uuid('018bcfe5-682a-0000-0000-00000000002a');
EXECUTE by_uuid('018bcfe5-682a-0000-0000-00000000002a');
PREPARE by_uuid_flipped(uuid) AS SELECT n FROM xt WHERE $1 = id;
EXPLAIN (COSTS OFF) EXECUTE by_uuid_flipped('018bcfe5-682a-0000-0000-00000000002a');
EXECUTE by_uuid_flipped('018bcfe5-682a-0000-0000-00000000002a');
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE by_uuid('018bcfe5-682a-0000-0000-00000000002a');
EXECUTE by_uuid('018bcfe5-682a-0000-0000-00000000002a');
EXPLAIN (COSTS OFF) EXECUTE by_uuid_flipped('018bcfe5-682a-0000-0000-00000000002a');
EXECUTE by_uuid_flipped('018bcfe5-682a-0000-0000-00000000002a');
-- a random UUID finds nothing
EXECUTE by_uuid(gen_random_uuid());

-- range scans with uuid bounds (both directions of each operator), custom
-- and generic, with the same count as comparing id::uuid without an index
PREPARE range_uuid(uuid, uuid) AS
    SELECT count(*) FROM xt WHERE id >= $1 AND id < $2;
PREPARE range_uuid_flipped(uuid, uuid) AS
    SELECT count(*) FROM xt WHERE $1 <= id AND $2 > id;
PREPARE range_open(uuid, uuid) AS
    SELECT count(*) FROM xt WHERE id > $1 AND id <= $2;
EXPLAIN (COSTS OFF) EXECUTE range_uuid(ulid_lower('2023-11-14 22:13:20.100Z')::uuid, ulid_lower('2023-11-14 22:13:20.200Z')::uuid);
EXECUTE range_uuid(ulid_lower('2023-11-14 22:13:20.100Z')::uuid, ulid_lower('2023-11-14 22:13:20.200Z')::uuid);
EXPLAIN (COSTS OFF) EXECUTE range_uuid_flipped(ulid_lower('2023-11-14 22:13:20.100Z')::uuid, ulid_lower('2023-11-14 22:13:20.200Z')::uuid);
EXECUTE range_uuid_flipped(ulid_lower('2023-11-14 22:13:20.100Z')::uuid, ulid_lower('2023-11-14 22:13:20.200Z')::uuid);
EXECUTE range_open('018bcfe5-682a-0000-0000-00000000002a', '018bcfe5-6834-0000-0000-000000000034');
RESET plan_cache_mode;
EXPLAIN (COSTS OFF) EXECUTE range_uuid(ulid_lower('2023-11-14 22:13:20.100Z')::uuid, ulid_lower('2023-11-14 22:13:20.200Z')::uuid);
EXECUTE range_uuid(ulid_lower('2023-11-14 22:13:20.100Z')::uuid, ulid_lower('2023-11-14 22:13:20.200Z')::uuid);
EXECUTE range_open('018bcfe5-682a-0000-0000-00000000002a', '018bcfe5-6834-0000-0000-000000000034');
RESET enable_seqscan;
RESET enable_bitmapscan;
SET enable_indexscan = off;
SET enable_indexonlyscan = off;
SET enable_bitmapscan = off;
SELECT count(*) AS by_uuid_cast FROM xt
WHERE id::uuid >= ulid_lower('2023-11-14 22:13:20.100Z')::uuid AND id::uuid < ulid_lower('2023-11-14 22:13:20.200Z')::uuid;
SELECT count(*) AS by_uuid_cast FROM xt
WHERE id::uuid > '018bcfe5-682a-0000-0000-00000000002a' AND id::uuid <= '018bcfe5-6834-0000-0000-000000000034';
RESET enable_indexscan;
RESET enable_indexonlyscan;
RESET enable_bitmapscan;

-- a hash index on ulid, probed with a uuid (hashed with uuid_hash, which
-- equals ulid_hash on the same bytes)
ALTER TABLE xt DROP CONSTRAINT xt_pkey;
CREATE INDEX xt_id_hash ON xt USING hash (id);
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) EXECUTE by_uuid('018bcfe5-684d-0000-0000-00000000004d');
EXECUTE by_uuid('018bcfe5-684d-0000-0000-00000000004d');
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE by_uuid_flipped('018bcfe5-684d-0000-0000-00000000004d');
EXECUTE by_uuid_flipped('018bcfe5-684d-0000-0000-00000000004d');
RESET plan_cache_mode;
RESET enable_seqscan;
RESET enable_bitmapscan;
DROP INDEX xt_id_hash;
ALTER TABLE xt ADD PRIMARY KEY (id);
DEALLOCATE ALL;

-- joins of a ulid column with a uuid column: hash, merge and nested loop
-- (index), all with the rows of comparing id::uuid
SELECT count(*) AS by_uuid_cast FROM xt a JOIN xt b ON a.id::uuid = b.u;
SET enable_nestloop = off;
SET enable_mergejoin = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM xt a JOIN xt b ON a.id = b.u;
SELECT count(*) AS hash_join FROM xt a JOIN xt b ON a.id = b.u;
SELECT count(*) AS hash_join_flipped FROM xt a JOIN xt b ON b.u = a.id;
SET enable_hashjoin = off;
SET enable_mergejoin = on;
EXPLAIN (COSTS OFF) SELECT count(*) FROM xt a JOIN xt b ON a.id = b.u;
SELECT count(*) AS merge_join FROM xt a JOIN xt b ON a.id = b.u;
SET enable_mergejoin = off;
SET enable_nestloop = on;
EXPLAIN (COSTS OFF) SELECT count(*) FROM xt a JOIN xt b ON a.id = b.u;
SELECT count(*) AS nested_loop FROM xt a JOIN xt b ON a.id = b.u;
RESET enable_nestloop;
RESET enable_mergejoin;
RESET enable_hashjoin;
-- IN (subquery of uuids) and = ANY (uuid[])
SELECT count(*) AS in_uuid_subquery FROM xt WHERE id IN (SELECT u FROM xt WHERE n <= 100);
SELECT n FROM xt WHERE id = ANY (ARRAY['018bcfe5-682a-0000-0000-00000000002a', '018bcfe5-682b-0000-0000-00000000002b']::uuid[])
ORDER BY n;

-- uuid's own plans are unchanged by (uuid, uuid) being in ulid's families
-- too: ORDER BY and a merge join of uuid columns still use a uuid index
-- (the planner takes uuid's own family first)
CREATE INDEX xt_u ON xt (u);
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT u FROM xt ORDER BY u LIMIT 3;
SET enable_hashjoin = off;
SET enable_nestloop = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM xt a JOIN xt b ON a.u = b.u;
SELECT count(*) AS uuid_merge_join FROM xt a JOIN xt b ON a.u = b.u;
RESET enable_seqscan;
RESET enable_bitmapscan;
RESET enable_hashjoin;
RESET enable_nestloop;
DROP INDEX xt_u;

-- (hash partition pruning with a uuid comparand: opclasses.sql)

DROP FUNCTION operators_of(text);
DROP TABLE xt;
