-- Partitioning by a Snowflake id: PARTITION BY RANGE (id) on a bigint key
-- with bounds from snowflake_lower(), pruned at plan time (constants) and at
-- executor start (parameters, stable expressions such as now()).
SET timezone = 'UTC';
SET datestyle = 'ISO';

-----------------------------------------------------------------------------
-- One partition per month of twitter ids
-----------------------------------------------------------------------------
CREATE TABLE orders (id bigint NOT NULL, note text) PARTITION BY RANGE (id);
CREATE TABLE orders_2026_01 PARTITION OF orders
    FOR VALUES FROM (snowflake_lower('twitter', '2026-01-01Z')) TO (snowflake_lower('twitter', '2026-02-01Z'));
CREATE TABLE orders_2026_02 PARTITION OF orders
    FOR VALUES FROM (snowflake_lower('twitter', '2026-02-01Z')) TO (snowflake_lower('twitter', '2026-03-01Z'));
CREATE TABLE orders_2026_03 PARTITION OF orders
    FOR VALUES FROM (snowflake_lower('twitter', '2026-03-01Z')) TO (snowflake_lower('twitter', '2026-04-01Z'));
CREATE TABLE orders_default PARTITION OF orders DEFAULT;
CREATE INDEX ON orders (id);

-- the bounds are stored as bigint constants: the first twitter id of each
-- month (node 0, sequence 0), and they read back as that month's start
SELECT c.relname, pg_get_expr(c.relpartbound, c.oid) AS bound
FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
WHERE i.inhparent = 'orders'::regclass ORDER BY 1;
SELECT snowflake_time(snowflake_lower('twitter', '2026-02-01Z'), 'twitter') AS february,
       snowflake_parts(snowflake_lower('twitter', '2026-02-01Z'), 'twitter') AS parts;

-- rows land in the partition of their time, the edges included: the lower
-- bound belongs to its month, the last id of a month (its last ms, the
-- largest node and sequence) to that month
INSERT INTO orders VALUES
    (snowflake_upper('twitter', '2025-12-31 23:59:59.999Z'), 'last id of 2025'),
    (snowflake_lower('twitter', '2026-01-01Z'), 'first id of January'),
    (snowflake_pack('twitter', '2026-01-15 12:00Z', 37, 5), 'mid January, node 37'),
    (snowflake_upper('twitter', '2026-01-31 23:59:59.999Z'), 'last id of January'),
    (snowflake_lower('twitter', '2026-02-01Z'), 'first id of February'),
    (snowflake_pack('twitter', '2026-02-14 09:30Z', 1023, 4095), 'mid February, node 1023'),
    (snowflake_pack('twitter', '2026-03-31 23:59:59.999Z', 0, 0), 'last ms of March'),
    (snowflake_lower('twitter', '2026-04-01Z'), 'first id of April');
INSERT INTO orders
SELECT snowflake_pack('twitter', timestamptz '2026-01-01Z' + g * interval '1 hour', g % 1024, g % 4096), 'hourly'
FROM generate_series(0, 24 * 90 - 1) g;
ANALYZE orders;
SELECT tableoid::regclass AS partition, snowflake_time(id, 'twitter'), note
FROM orders WHERE note <> 'hourly' ORDER BY id;
SELECT tableoid::regclass AS partition, count(*),
       min(snowflake_time(id, 'twitter')) AS first, max(snowflake_time(id, 'twitter')) AS last
FROM orders WHERE note = 'hourly' GROUP BY 1 ORDER BY 1;

-- plan-time pruning: constant bounds keep only the partitions they can match
-- (the default partition stays whenever the condition is open-ended)
EXPLAIN (COSTS OFF) SELECT count(*) FROM orders WHERE id >= snowflake_lower('twitter', '2026-02-01Z');
EXPLAIN (COSTS OFF) SELECT count(*) FROM orders
WHERE id >= snowflake_lower('twitter', '2026-02-01Z') AND id < snowflake_lower('twitter', '2026-03-01Z');
SELECT count(*) AS february FROM orders
WHERE id >= snowflake_lower('twitter', '2026-02-01Z') AND id < snowflake_lower('twitter', '2026-03-01Z');
-- the same month by snowflake_upper(): an inclusive upper bound
EXPLAIN (COSTS OFF) SELECT count(*) FROM orders
WHERE id BETWEEN snowflake_lower('twitter', '2026-02-01Z') AND snowflake_upper('twitter', '2026-02-28 23:59:59.999Z');
SELECT count(*) AS february FROM orders
WHERE id BETWEEN snowflake_lower('twitter', '2026-02-01Z') AND snowflake_upper('twitter', '2026-02-28 23:59:59.999Z');
-- a condition on snowflake_time(id, ...) cannot prune: compare id itself
EXPLAIN (COSTS OFF) SELECT count(*) FROM orders WHERE snowflake_time(id, 'twitter') >= '2026-02-01Z';

-- run-time pruning: a parameter of a generic plan ...
SET plan_cache_mode = force_generic_plan;
PREPARE orders_since(timestamptz) AS
    SELECT count(*) FROM orders WHERE id >= snowflake_lower('twitter', $1);
-- (how the one partition left is read is the planner's choice, and 19
-- chooses an index there: index scans are off for this plan)
SET enable_indexscan = off;
SET enable_indexonlyscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) EXECUTE orders_since('2026-03-01Z');
RESET enable_indexscan;
RESET enable_indexonlyscan;
RESET enable_bitmapscan;
EXECUTE orders_since('2026-03-01Z');
DEALLOCATE orders_since;
RESET plan_cache_mode;
-- ... and a stable expression are evaluated once at executor start, before
-- any partition is read
EXPLAIN (COSTS OFF) SELECT count(*) FROM orders
WHERE id >= snowflake_lower('twitter', timestamptz '2026-02-28Z' + interval '1 day');
SELECT count(*) FROM orders WHERE id >= snowflake_lower('twitter', timestamptz '2026-02-28Z' + interval '1 day');

-- ORDER BY id over the partitions: read one after the other, no sort
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM orders
WHERE id >= snowflake_lower('twitter', '2026-01-01Z') AND id < snowflake_lower('twitter', '2026-04-01Z')
ORDER BY id LIMIT 3;
RESET enable_seqscan;
SELECT note FROM orders
WHERE id >= snowflake_lower('twitter', '2026-01-01Z') AND id < snowflake_lower('twitter', '2026-04-01Z')
ORDER BY id LIMIT 3;
DROP TABLE orders;

-----------------------------------------------------------------------------
-- A layout with its own epoch and a second unit: the bounds follow it
-----------------------------------------------------------------------------
CREATE TABLE ticks (id bigint NOT NULL) PARTITION BY RANGE (id);
CREATE TABLE ticks_2026 PARTITION OF ticks
    FOR VALUES FROM (snowflake_lower('snowflake_s', '2026-01-01Z')) TO (snowflake_lower('snowflake_s', '2027-01-01Z'));
CREATE TABLE ticks_2027 PARTITION OF ticks
    FOR VALUES FROM (snowflake_lower('snowflake_s', '2027-01-01Z')) TO (snowflake_lower('snowflake_s', '2028-01-01Z'));
INSERT INTO ticks VALUES (snowflake_pack('snowflake_s', '2026-12-31 23:59:59Z', 1023, 4194303)),
    (snowflake_pack('snowflake_s', '2027-01-01Z', 0, 0));
SELECT tableoid::regclass AS partition, snowflake_time(id, 'snowflake_s') FROM ticks ORDER BY id;
EXPLAIN (COSTS OFF) SELECT * FROM ticks WHERE id >= snowflake_lower('snowflake_s', '2027-06-01Z');
DROP TABLE ticks;

-----------------------------------------------------------------------------
-- The last days' rows: bounds relative to now(), DEFAULT snowflake_next(),
-- pruned at executor start.  (snowflake_next() needs the shared state and
-- node 5: test/README.md.)
-----------------------------------------------------------------------------
SELECT lacks('shared state', 'nodes 5') AS lacks \gset
\if :{?lacks}
\echo skipped: needs the shared generator state (shared_preload_libraries = ulid before PostgreSQL 17) and node 5 (test/README.md)
\else
CREATE TABLE recent (id bigint NOT NULL DEFAULT snowflake_next('twitter', 5), note text)
    PARTITION BY RANGE (id);
-- a bound expression is evaluated once, when the partition is created
CREATE TABLE recent_old PARTITION OF recent
    FOR VALUES FROM (MINVALUE) TO (snowflake_lower('twitter', now() - interval '2 days'));
CREATE TABLE recent_new PARTITION OF recent
    FOR VALUES FROM (snowflake_lower('twitter', now() - interval '2 days')) TO (MAXVALUE);
INSERT INTO recent (note) VALUES ('now, by the default');
INSERT INTO recent VALUES
    (snowflake_pack('twitter', now() - interval '3 days', 5, 0), 'three days ago'),
    (snowflake_pack('twitter', now() - interval '1 hour', 5, 0), 'an hour ago');
SELECT tableoid::regclass AS partition, note FROM recent ORDER BY id;
EXPLAIN (COSTS OFF) SELECT note FROM recent WHERE id >= snowflake_lower('twitter', now() - interval '1 day');
SELECT note FROM recent WHERE id >= snowflake_lower('twitter', now() - interval '1 day') ORDER BY id;
DROP TABLE recent;
\endif
RESET timezone;
RESET datestyle;
