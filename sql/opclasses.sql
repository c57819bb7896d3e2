-- Index support: btree (sortsupport, btequalimage), hash (extended hash),
-- BRIN minmax / minmax_multi / bloom, and hash partitioning.
CREATE TABLE idx_t (id ulid, n int);
INSERT INTO idx_t
SELECT ulid_from_parts(1700000000000 + g, decode(lpad(to_hex(g), 20, '0'), 'hex')), g
FROM generate_series(1, 20000) g;
ANALYZE idx_t;

-- the support functions registered for each opclass (for ulid itself; the
-- families' entries for uuid are listed in uuid_operators.sql)
SELECT am.amname, opc.opcname, opc.opcdefault, p.amprocnum, p.amproc::regproc
FROM pg_opclass opc
JOIN pg_am am ON am.oid = opc.opcmethod
JOIN pg_amproc p ON p.amprocfamily = opc.opcfamily
WHERE opc.opcintype = 'ulid'::regtype AND p.amprocnum <> 6   -- 6: skip support, 18+ only
  AND p.amproclefttype = opc.opcintype AND p.amprocrighttype = opc.opcintype
ORDER BY am.amname, opc.opcname, p.amprocnum;
SELECT count(*) = CASE WHEN current_setting('server_version_num')::int >= 180000 THEN 1 ELSE 0 END
       AS skip_support_where_available
FROM pg_amproc p JOIN pg_opfamily f ON f.oid = p.amprocfamily
WHERE f.opfname = 'ulid_ops' AND p.amprocnum = 6;

SET enable_seqscan = off;
SET enable_bitmapscan = off;

-- btree
CREATE INDEX idx_t_btree ON idx_t (id);
EXPLAIN (COSTS OFF) SELECT n FROM idx_t WHERE id = ulid_from_parts(1700000000042, '\x0000000000000000002a');
SELECT n FROM idx_t WHERE id = ulid_from_parts(1700000000042, '\x0000000000000000002a');
EXPLAIN (COSTS OFF) SELECT count(*) FROM idx_t
WHERE id >= ulid_lower('2023-11-14 22:13:20.100Z') AND id <= ulid_upper('2023-11-14 22:13:20.199Z');
SELECT count(*) AS rows_in_100_ms FROM idx_t
WHERE id >= ulid_lower('2023-11-14 22:13:20.100Z') AND id <= ulid_upper('2023-11-14 22:13:20.199Z');
-- max() reads the end of the index; only the plan's scan is shown, as the
-- lines above it differ between versions (InitPlan wording in 17, a
-- "Replaces:" line in 19)
CREATE FUNCTION plan_scan(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        IF line ~ ' Scan |Cond: ' THEN
            RETURN NEXT line;
        END IF;
    END LOOP;
END $$;
SELECT plan_scan('SELECT max(id) FROM idx_t') AS "QUERY PLAN";
DROP FUNCTION plan_scan(text);
SELECT max(id) = (SELECT id FROM idx_t ORDER BY n DESC LIMIT 1) AS max_ok,
       min(id) = (SELECT id FROM idx_t ORDER BY n LIMIT 1) AS min_ok FROM idx_t;
EXPLAIN (COSTS OFF) SELECT id FROM idx_t ORDER BY id DESC LIMIT 3;
SELECT n FROM idx_t ORDER BY id DESC LIMIT 3;

-- btequalimage: deduplication is safe, so the index says "all equal image"
CREATE EXTENSION IF NOT EXISTS pageinspect;
SELECT allequalimage FROM bt_metap('idx_t_btree');
CREATE TABLE dup_t AS SELECT '01HTQW311N1KR5G0Y75M3EF00H'::ulid AS id FROM generate_series(1, 5000);
CREATE INDEX dup_t_idx ON dup_t (id);
SELECT pg_relation_size('dup_t_idx') < 5000 * 16 AS deduplicated;
DROP TABLE dup_t;
DROP INDEX idx_t_btree;

-- a two-column index led by ten consecutive ULIDs (crossing a millisecond:
-- ...ZZZZ is followed by the next millisecond's ...0000), searched on its
-- second column only: PostgreSQL 18+ skips through it, and the skip support
-- function steps to the next possible ULID, which here is always the next
-- one, so it descends once per ULID (twice without skip support); older
-- versions read the whole index.  The rows are the same either way.
CREATE TABLE skip_t AS
SELECT CASE WHEN g % 10 < 5
            THEN ulid_from_parts(1700000000000, decode('ffffffffffffffffff' || to_hex(251 + g % 10), 'hex'))
            ELSE ulid_from_parts(1700000000001, decode(lpad(to_hex(g % 10 - 5), 20, '0'), 'hex'))
       END AS id, g / 10 AS n
FROM generate_series(0, 9999) g;
CREATE INDEX skip_t_idx ON skip_t (id, n);
ANALYZE skip_t;
EXPLAIN (COSTS OFF) SELECT id FROM skip_t WHERE n = 500 ORDER BY id;
SELECT id FROM skip_t WHERE n = 500 ORDER BY id;
SELECT count(*) AS rows_from_third FROM skip_t
WHERE id > '01HF7YAT00ZZZZZZZZZZZZZZZX' AND n IN (7, 999);
DO $$
DECLARE
    plan json;
    searches int;
BEGIN
    IF current_setting('server_version_num')::int >= 180000 THEN
        EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, FORMAT JSON) '
                'SELECT id FROM skip_t WHERE n = 500' INTO plan;
        searches := (plan -> 0 -> 'Plan' ->> 'Index Searches')::int;
        -- 12 with skip support (10 ULIDs, a first and a last descent), 21 without
        IF searches NOT BETWEEN 2 AND 15 THEN
            RAISE EXCEPTION 'skip scan descended % times: %', searches, plan;
        END IF;
    END IF;
END
$$;
DROP TABLE skip_t;

-- hash
CREATE INDEX idx_t_hash ON idx_t USING hash (id);
EXPLAIN (COSTS OFF) SELECT n FROM idx_t WHERE id = ulid_from_parts(1700000000077, '\x0000000000000000004d');
SELECT n FROM idx_t WHERE id = ulid_from_parts(1700000000077, '\x0000000000000000004d');
DROP INDEX idx_t_hash;
SELECT ulid_hash('01HTQW311N1KR5G0Y75M3EF00H') = uuid_hash('01HTQW311N1KR5G0Y75M3EF00H'::ulid::uuid) AS hash_as_uuid,
       ulid_hash_extended('01HTQW311N1KR5G0Y75M3EF00H', 0) = uuid_hash_extended('01HTQW311N1KR5G0Y75M3EF00H'::ulid::uuid, 0) AS ext_as_uuid,
       ulid_hash_extended('01HTQW311N1KR5G0Y75M3EF00H', 0) <> ulid_hash_extended('01HTQW311N1KR5G0Y75M3EF00H', 1) AS seed_matters;

-- BRIN, each opclass
RESET enable_bitmapscan;
SET enable_indexscan = off;
CREATE INDEX idx_t_brin ON idx_t USING brin (id) WITH (pages_per_range = 4);
EXPLAIN (COSTS OFF) SELECT count(*) FROM idx_t WHERE id >= ulid_lower('2023-11-14 22:13:35Z');
SELECT count(*) AS brin_minmax FROM idx_t WHERE id >= ulid_lower('2023-11-14 22:13:35Z');
DROP INDEX idx_t_brin;
CREATE INDEX idx_t_brin_multi ON idx_t USING brin (id ulid_minmax_multi_ops) WITH (pages_per_range = 4);
EXPLAIN (COSTS OFF) SELECT count(*) FROM idx_t WHERE id < ulid_lower('2023-11-14 22:13:21Z');
SELECT count(*) AS brin_minmax_multi FROM idx_t WHERE id < ulid_lower('2023-11-14 22:13:21Z');
DROP INDEX idx_t_brin_multi;
CREATE INDEX idx_t_brin_bloom ON idx_t USING brin (id ulid_bloom_ops) WITH (pages_per_range = 4);
EXPLAIN (COSTS OFF) SELECT n FROM idx_t WHERE id = ulid_from_parts(1700000000500, '\x000000000000000001f4');
SELECT n AS brin_bloom FROM idx_t WHERE id = ulid_from_parts(1700000000500, '\x000000000000000001f4');
DROP INDEX idx_t_brin_bloom;
RESET enable_indexscan;
RESET enable_seqscan;

-- hash partitioning uses the extended hash function
CREATE TABLE part_t (id ulid PRIMARY KEY, n int) PARTITION BY HASH (id);
CREATE TABLE part_t0 PARTITION OF part_t FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TABLE part_t1 PARTITION OF part_t FOR VALUES WITH (MODULUS 4, REMAINDER 1);
CREATE TABLE part_t2 PARTITION OF part_t FOR VALUES WITH (MODULUS 4, REMAINDER 2);
CREATE TABLE part_t3 PARTITION OF part_t FOR VALUES WITH (MODULUS 4, REMAINDER 3);
INSERT INTO part_t SELECT id, n FROM idx_t;
SELECT count(*) AS partitions_used, min(c) > 4000 AS balanced, sum(c) AS total
FROM (SELECT tableoid, count(*) AS c FROM part_t GROUP BY tableoid) s;
EXPLAIN (COSTS OFF) SELECT n FROM part_t WHERE id = '01HTQW311N1KR5G0Y75M3EF00H';
-- a uuid comparand prunes to the same partition (the hash family hashes
-- it with uuid_hash_extended, equal on the same bytes), in custom and
-- generic plans, and every row is found through its uuid
EXPLAIN (COSTS OFF) SELECT n FROM part_t WHERE id = '018eafc1-8435-0cf0-5803-c72d06e78011'::uuid;
PREPARE part_uuid(uuid) AS SELECT n FROM part_t WHERE id = $1;
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE part_uuid('018eafc1-8435-0cf0-5803-c72d06e78011');
RESET plan_cache_mode;
DEALLOCATE part_uuid;
SELECT count(*) AS found_by_uuid
FROM idx_t x WHERE (SELECT p.n FROM part_t p WHERE p.id = x.id::uuid) = x.n;
DROP TABLE part_t;

-- a large sort (sortsupport with abbreviated keys) agrees with uuid's
CREATE TABLE sort_t AS SELECT gen_random_ulid() AS id FROM generate_series(1, 100000);
SELECT bool_and(a = b) AS same_order FROM (
    SELECT row_number() OVER (ORDER BY id) AS a, row_number() OVER (ORDER BY id::uuid) AS b FROM sort_t) s;
DROP TABLE sort_t;
DROP TABLE idx_t;
