-- The tour that test/demo runs on its throwaway server.
\set ECHO queries
\pset footer off
CREATE EXTENSION ulid;

-- a table keyed by ULIDs
CREATE TABLE orders (
    id ulid PRIMARY KEY DEFAULT gen_ulid(),
    item text NOT NULL
);
INSERT INTO orders (item) VALUES ('coffee'), ('tea'), ('cake');
INSERT INTO orders (item) SELECT 'bulk #' || g FROM generate_series(1, 1000) g;

-- creation order is key order; the time is in the key
SELECT id, ulid_time(id), item FROM orders ORDER BY id LIMIT 5;

-- what a ULID is made of
SELECT * FROM ulid_parts((SELECT min(id) FROM orders));

-- a range scan by time uses the primary key
SET enable_seqscan = off;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM orders WHERE id >= ulid_lower('2026-01-01Z');
SELECT count(*) AS since_2026 FROM orders WHERE id >= ulid_lower('2026-01-01Z');
RESET enable_seqscan;

-- the latest id, straight from the index
SELECT max(id) AS latest, ulid_time(max(id)) AS at FROM orders;

-- the seed's worked example: 1712345678901 ms and ten known bytes
SELECT ulid_from_parts(1712345678901, '\x0cf05803c72d06e78011') AS example;

-- ULIDs and UUIDs share their 16 bytes
SELECT id, id::uuid AS as_uuid FROM orders ORDER BY id LIMIT 1;

-- strictly increasing across every session of the server
SELECT gen_monotonic_ulid() AS a, gen_monotonic_ulid() AS b;

-- a Snowflake id on this server's node (ulid.node_id = 1), read back
SELECT snowflake_parts(snowflake_next('twitter'), 'twitter');

-- text forms for APIs, all parsed back to the same 16 bytes
SELECT ulid_to_gsid(id, 'ord', 42) AS gsid, ulid_to_typeid(id, 'order') AS typeid,
       ulid_parse(ulid_to_gsid(id, 'ord', 42)) = id AS round_trip
FROM orders ORDER BY id LIMIT 1;

-- RFC 9562 UUIDv7 on every major, and a TypeID of one; a UUIDv7 is a ULID
SELECT u AS uuidv7, ulid_time(u::ulid) AS its_time, gen_typeid('user') AS typeid
FROM (SELECT gen_uuidv7() AS u) s;

-- CosId's codec chain (base 62, a date prefix from the id's time, a prefix)
-- and its exact inverse
SELECT snowflake_encode(id, 'twitter', c) AS text, snowflake_decode(snowflake_encode(id, 'twitter', c), 'twitter', c) = id AS round_trip
FROM (SELECT snowflake_next('twitter') AS id,
             '[{"radix": {"radix": 62}}, {"date_prefix": {"pattern": "yyMMdd", "source": "id_time"}}, {"prefix": "O"}]'::jsonb AS c) s;
