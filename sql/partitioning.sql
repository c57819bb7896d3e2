-- Partitioning by a ulid key: hash partitions (the extended hash function)
-- and range partitions by time with bounds from ulid_lower(), pruned at plan
-- time (constants) and at executor start (parameters, stable expressions
-- such as now()).
SET timezone = 'UTC';
SET datestyle = 'ISO';
SET intervalstyle = 'postgres';

-----------------------------------------------------------------------------
-- PARTITION BY HASH (id)
-----------------------------------------------------------------------------
CREATE TABLE hp (id ulid PRIMARY KEY, n int) PARTITION BY HASH (id);
CREATE TABLE hp0 PARTITION OF hp FOR VALUES WITH (MODULUS 3, REMAINDER 0);
CREATE TABLE hp1 PARTITION OF hp FOR VALUES WITH (MODULUS 3, REMAINDER 1);
CREATE TABLE hp2 PARTITION OF hp FOR VALUES WITH (MODULUS 3, REMAINDER 2);
INSERT INTO hp
SELECT ulid_from_parts(1767225600000 + g, decode(lpad(to_hex(g), 20, '0'), 'hex')), g
FROM generate_series(1, 3000) g;

-- every row sits in the partition its hash names, and the rows spread evenly
SELECT tableoid::regclass AS partition, count(*) > 900 AS about_a_third,
       bool_and(satisfies_hash_partition('hp'::regclass, 3,
                right(tableoid::regclass::text, 1)::int, id)) AS rows_belong
FROM hp GROUP BY 1 ORDER BY 1;

-- ulid hashes exactly as uuid does, so a uuid-keyed table partitioned the
-- same way puts every row in the partition with the same remainder
CREATE TABLE hp_uuid (id uuid PRIMARY KEY, n int) PARTITION BY HASH (id);
CREATE TABLE hp_uuid0 PARTITION OF hp_uuid FOR VALUES WITH (MODULUS 3, REMAINDER 0);
CREATE TABLE hp_uuid1 PARTITION OF hp_uuid FOR VALUES WITH (MODULUS 3, REMAINDER 1);
CREATE TABLE hp_uuid2 PARTITION OF hp_uuid FOR VALUES WITH (MODULUS 3, REMAINDER 2);
INSERT INTO hp_uuid SELECT id, n FROM hp;
SELECT count(*) AS rows_in_other_remainder
FROM hp JOIN hp_uuid u USING (n)
WHERE right(hp.tableoid::regclass::text, 1) <> right(u.tableoid::regclass::text, 1);
DROP TABLE hp_uuid;

-- an equality lookup scans one partition: at plan time for a constant ...
EXPLAIN (COSTS OFF) SELECT n FROM hp WHERE id = ulid_from_parts(1767225600042, '\x0000000000000000002a');
SELECT n FROM hp WHERE id = ulid_from_parts(1767225600042, '\x0000000000000000002a');
-- ... and at executor start for a parameter of a generic plan
SET plan_cache_mode = force_generic_plan;
PREPARE hp_get(ulid) AS SELECT n FROM hp WHERE id = $1;
EXPLAIN (COSTS OFF) EXECUTE hp_get(ulid_from_parts(1767225600042, '\x0000000000000000002a'));
EXECUTE hp_get(ulid_from_parts(1767225600042, '\x0000000000000000002a'));
DEALLOCATE hp_get;
RESET plan_cache_mode;
DROP TABLE hp;

-----------------------------------------------------------------------------
-- PARTITION BY RANGE (id): one partition per month, bounds from ulid_lower()
-----------------------------------------------------------------------------
CREATE TABLE ev (id ulid NOT NULL DEFAULT gen_ulid(), note text) PARTITION BY RANGE (id);
CREATE TABLE ev_2026_01 PARTITION OF ev
    FOR VALUES FROM (ulid_lower('2026-01-01Z')) TO (ulid_lower('2026-02-01Z'));
CREATE TABLE ev_2026_02 PARTITION OF ev
    FOR VALUES FROM (ulid_lower('2026-02-01Z')) TO (ulid_lower('2026-03-01Z'));
CREATE TABLE ev_2026_03 PARTITION OF ev
    FOR VALUES FROM (ulid_lower('2026-03-01Z')) TO (ulid_lower('2026-04-01Z'));
CREATE TABLE ev_default PARTITION OF ev DEFAULT;
CREATE INDEX ON ev (id);

-- the bounds are stored as ULID constants: the first ULID of each month
SELECT c.relname, pg_get_expr(c.relpartbound, c.oid) AS bound
FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
WHERE i.inhparent = 'ev'::regclass ORDER BY 1;

-- rows land in the partition of their time, the edges included: a lower
-- bound belongs to its partition, the last ULID of a month to that month
INSERT INTO ev (id, note) VALUES
    (gen_ulid('2025-12-31 23:59:59.999Z'), 'last ms of 2025'),
    (ulid_lower('2026-01-01Z'), 'first ULID of January'),
    (gen_ulid('2026-01-15 12:00Z'), 'mid January'),
    (ulid_upper('2026-01-31 23:59:59.999Z'), 'last ULID of January'),
    (ulid_lower('2026-02-01Z'), 'first ULID of February'),
    (gen_ulid('2026-02-14 09:30Z'), 'mid February'),
    (gen_ulid('2026-03-31 23:59:59.999Z'), 'last ms of March'),
    (ulid_lower('2026-04-01Z'), 'first ULID of April');
INSERT INTO ev (id, note)
SELECT gen_ulid(timestamptz '2026-01-01Z' + g * interval '1 hour'), 'hourly'
FROM generate_series(0, 24 * 90 - 1) g;
ANALYZE ev;
SELECT tableoid::regclass AS partition, ulid_time(id), note
FROM ev WHERE note <> 'hourly' ORDER BY id;
SELECT tableoid::regclass AS partition, count(*),
       min(ulid_time(id)) AS first, max(ulid_time(id)) AS last
FROM ev WHERE note = 'hourly' GROUP BY 1 ORDER BY 1;

-- plan-time pruning: constant bounds keep only the partitions they can match
-- (the default partition holds what lies outside the ranges, so it stays
-- whenever the condition is open-ended)
EXPLAIN (COSTS OFF) SELECT count(*) FROM ev WHERE id >= ulid_lower('2026-02-01Z');
EXPLAIN (COSTS OFF) SELECT count(*) FROM ev
WHERE id >= ulid_lower('2026-02-01Z') AND id < ulid_lower('2026-03-01Z');
EXPLAIN (COSTS OFF) SELECT count(*) FROM ev WHERE id >= ulid_lower('2026-04-01Z');
SELECT count(*) AS february FROM ev
WHERE id >= ulid_lower('2026-02-01Z') AND id < ulid_lower('2026-03-01Z');
-- a condition on ulid_time(id) cannot prune (nor use the index): write
-- id >= ulid_lower(...) instead
EXPLAIN (COSTS OFF) SELECT count(*) FROM ev WHERE ulid_time(id) >= '2026-02-01Z';

-- run-time pruning: a parameter of a generic plan ...
SET plan_cache_mode = force_generic_plan;
PREPARE ev_since(timestamptz) AS SELECT count(*) FROM ev WHERE id >= ulid_lower($1);
EXPLAIN (COSTS OFF) EXECUTE ev_since('2026-03-01Z');
EXECUTE ev_since('2026-03-01Z');
DEALLOCATE ev_since;
RESET plan_cache_mode;
-- ... and a stable expression (timestamptz + interval depends on the
-- TimeZone setting) are evaluated once at executor start, before any
-- partition is read
EXPLAIN (COSTS OFF) SELECT count(*) FROM ev
WHERE id >= ulid_lower(timestamptz '2026-02-28Z' + interval '1 day');
SELECT count(*) FROM ev WHERE id >= ulid_lower(timestamptz '2026-02-28Z' + interval '1 day');

-- ORDER BY id over range partitions: the partitions are read one after the
-- other, in order, with no sort (once the conditions rule out the default
-- partition, which may hold rows of any time)
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM ev
WHERE id >= ulid_lower('2026-01-01Z') AND id < ulid_lower('2026-04-01Z') ORDER BY id LIMIT 3;
RESET enable_seqscan;
SELECT note FROM ev
WHERE id >= ulid_lower('2026-01-01Z') AND id < ulid_lower('2026-04-01Z') ORDER BY id LIMIT 3;
SELECT ulid_time(max(id)) AS latest FROM ev;
DROP TABLE ev;

-----------------------------------------------------------------------------
-- The last day's rows: bounds relative to now(), pruned at executor start
-----------------------------------------------------------------------------
CREATE TABLE recent (id ulid NOT NULL DEFAULT gen_ulid(), note text) PARTITION BY RANGE (id);
-- a bound expression is evaluated once, when the partition is created
CREATE TABLE recent_old PARTITION OF recent
    FOR VALUES FROM (MINVALUE) TO (ulid_lower(now() - interval '2 days'));
CREATE TABLE recent_new PARTITION OF recent
    FOR VALUES FROM (ulid_lower(now() - interval '2 days')) TO (MAXVALUE);
INSERT INTO recent (note) VALUES ('now, by the default');
INSERT INTO recent VALUES (gen_ulid(now() - interval '3 days'), 'three days ago'),
    (gen_ulid(now() - interval '1 hour'), 'an hour ago');
SELECT tableoid::regclass AS partition, note FROM recent ORDER BY id;
EXPLAIN (COSTS OFF) SELECT note FROM recent WHERE id >= ulid_lower(now() - interval '1 day');
SELECT note FROM recent WHERE id >= ulid_lower(now() - interval '1 day') ORDER BY id;
DROP TABLE recent;
RESET timezone;
RESET datestyle;
RESET intervalstyle;
