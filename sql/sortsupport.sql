-- issue 25: ulid's own sortsupport.  Its abbreviated key skips the leading
-- zero bits of the time, so it holds random bits past the first 8 bytes;
-- whatever the key, every sort must give byte order (memcmp, as bytea and
-- as uuid sort), with abbreviation, without it (a second sort key), after
-- abbreviation was abandoned (keys that do not vary), and in an index.

-- the opclass uses the extension's C function, not core's uuid_sortsupport
SELECT p.proname, l.lanname, p.prosrc, p.provolatile, p.proisstrict, p.proparallel
FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
WHERE p.oid = 'ulid_sortsupport(internal)'::regprocedure;
SELECT amproc::regproc FROM pg_amproc p JOIN pg_opfamily f ON f.oid = p.amprocfamily
JOIN pg_am am ON am.oid = f.opfmethod
WHERE f.opfname = 'ulid_ops' AND am.amname = 'btree' AND p.amprocnum = 2
  AND p.amproclefttype = 'ulid'::regtype;

-- mk(ms, 20 hex digits of randomness)
CREATE FUNCTION mk(ms bigint, r text) RETURNS ulid LANGUAGE sql IMMUTABLE
    RETURN ulid_from_parts(ms, decode(r, 'hex'));
CREATE TABLE sort_t (id ulid, src text, zero int DEFAULT 0);
-- fresh ids: 100 ms, 200 ids each sharing their first 8 bytes; even ids in
-- groups of 50 also share the next byte (so the key ties and the full
-- comparator decides)
INSERT INTO sort_t (id, src)
SELECT mk(1790000000000 + g / 200,
          substr(md5('a' || g / 200), 1, 4)
          || CASE WHEN g % 2 = 0 THEN substr(md5('b' || g / 50), 1, 2) ELSE substr(md5('c' || g), 1, 2) END
          || substr(md5('d' || g), 1, 14)), 'fresh'
FROM generate_series(0, 19999) g;
-- times within 300 ms of every power of two from 2^38 (2008) to 2^48 (the
-- key's exponent classes: 2^41 is 2039-09-07), random low halves
INSERT INTO sort_t (id, src)
SELECT mk(least((1::bigint << p) + d, (1::bigint << 48) - 1), substr(md5(p || ':' || d), 1, 20)), 'pow2'
FROM generate_series(38, 48) p, generate_series(-300, 300) d;
-- all 128 bits random
INSERT INTO sort_t (id, src)
SELECT ('\x' || md5('r' || g))::bytea::ulid, 'random'
FROM generate_series(1, 5000) g;
-- the ends and their neighbours, and duplicates
INSERT INTO sort_t (id, src) VALUES
    (mk(0, '00000000000000000000'), 'ends'), (mk(0, '00000000000000000001'), 'ends'),
    (mk(281474976710655, 'ffffffffffffffffffff'), 'ends'),
    (mk(281474976710655, 'fffffffffffffffffffe'), 'ends'),
    (mk(2199023255551, 'ffffffffffffffffffff'), 'ends'),  -- the last ULID of the first class
    (mk(2199023255552, '00000000000000000000'), 'ends');  -- the first of the next
INSERT INTO sort_t (id, src) SELECT id, 'dup' FROM sort_t WHERE src <> 'dup' ORDER BY src, id::bytea LIMIT 300;
SELECT src, count(*) FROM sort_t GROUP BY src ORDER BY src;

-- abbreviated keys (the first sort key), against bytea (memcmp) and uuid
-- (core's sortsupport) order
SELECT array_agg(id ORDER BY id) = array_agg(id ORDER BY id::bytea) AS datum_sort_is_byte_order,
       array_agg(id ORDER BY id) = array_agg(id ORDER BY id::uuid) AS datum_sort_is_uuid_order,
       array_agg(id ORDER BY id DESC) = array_agg(id ORDER BY id::bytea DESC) AS descending_too
FROM sort_t;
SELECT bool_and(ok) AS tuple_sort_is_byte_order FROM (
    SELECT row_number() OVER (ORDER BY id) = row_number() OVER (ORDER BY id::bytea) AS ok
    FROM (SELECT id FROM sort_t ORDER BY id) s) s;
-- no abbreviation: id is the second sort key
SELECT array_agg(id ORDER BY zero, id) = array_agg(id ORDER BY id::bytea) AS second_key_is_byte_order
FROM sort_t;
-- each part on its own (the fresh ids alone keep abbreviation)
SELECT src, array_agg(id ORDER BY id) = array_agg(id ORDER BY id::bytea) AS byte_order
FROM sort_t GROUP BY src ORDER BY src;
-- keys that do not vary: 20,000 ids that share time, the top 16 random bits
-- and the next 8, so their keys are one value and abbreviation is
-- abandoned (see test/scenarios/sortsupport.sh); the order is still bytes
CREATE TABLE same_key AS
SELECT mk(1790000000000, 'abcdef' || substr(md5('k' || g), 1, 14)) AS id FROM generate_series(1, 20000) g;
SELECT array_agg(id ORDER BY id) = array_agg(id ORDER BY id::bytea) AS same_key_is_byte_order,
       count(DISTINCT id) AS distinct_ids
FROM same_key;

-- btree build (CREATE INDEX sorts with the opclass's sortsupport), read in
-- index order
CREATE INDEX sort_t_id ON sort_t (id);
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT array_agg(id) = (SELECT array_agg(id ORDER BY id::bytea) FROM sort_t) AS index_is_byte_order
FROM (SELECT id FROM sort_t ORDER BY id) s;
SELECT count(*) AS found_by_index FROM sort_t s WHERE EXISTS (SELECT 1 FROM sort_t t WHERE t.id = s.id);
RESET enable_seqscan;
RESET enable_bitmapscan;
-- a merge join and DISTINCT sort too
SET enable_hashjoin = off;
SET enable_nestloop = off;
SET enable_hashagg = off;
SELECT count(*) AS merge_join_rows,
       count(*) = (SELECT sum(n * n) FROM (SELECT count(*) AS n FROM sort_t GROUP BY id::bytea) s) AS as_many_as_bytes_give
FROM sort_t a JOIN sort_t b ON a.id = b.id;
SELECT count(DISTINCT id) AS distinct_ids, (SELECT count(*) FROM (SELECT DISTINCT id::bytea FROM sort_t) s) AS distinct_bytes
FROM sort_t;
RESET enable_hashjoin;
RESET enable_nestloop;
RESET enable_hashagg;

DROP TABLE sort_t, same_key;
DROP FUNCTION mk(bigint, text);
