-- Casts (SPEC section 1).
SELECT castsource::regtype, casttarget::regtype, castfunc::regprocedure,
       castcontext, castmethod
FROM pg_cast
WHERE castsource = 'ulid'::regtype OR casttarget = 'ulid'::regtype
ORDER BY castsource::regtype::text, casttarget::regtype::text;

-- ulid -> uuid: binary-compatible, on assignment
SELECT '01HTQW311N1KR5G0Y75M3EF00H'::ulid::uuid AS as_uuid;
CREATE TABLE uuid_t (u uuid);
INSERT INTO uuid_t VALUES ('01HTQW311N1KR5G0Y75M3EF00H'::ulid);  -- assignment cast
SELECT u FROM uuid_t;

-- uuid -> ulid: binary-compatible, on assignment since 1.3 (issue 43): a
-- value or a parameter typed uuid (what a driver sends for its UUID object)
-- stores into a ulid column with no adapter and no cast
SELECT '018eafc1-8435-0cf0-5803-c72d06e78011'::uuid::ulid AS as_ulid;
CREATE TABLE ulid_t (id ulid);
INSERT INTO ulid_t SELECT u FROM uuid_t RETURNING id;
INSERT INTO ulid_t VALUES ('018eafc1-8435-0cf0-5803-c72d06e78012'::uuid) RETURNING id;
PREPARE ins_uuid(uuid) AS INSERT INTO ulid_t VALUES ($1) RETURNING id;
EXECUTE ins_uuid('018eafc1-8435-0cf0-5803-c72d06e78013');
UPDATE ulid_t SET id = '018eafc1-8435-0cf0-5803-c72d06e78014'::uuid
WHERE id = '018eafc1-8435-0cf0-5803-c72d06e78013'::uuid RETURNING id;
DEALLOCATE ins_uuid;
PREPARE cmp_uuid(uuid) AS SELECT count(*) FROM ulid_t WHERE id = $1;   -- comparing as before
EXECUTE cmp_uuid('018eafc1-8435-0cf0-5803-c72d06e78011');
DEALLOCATE cmp_uuid;
SELECT id FROM ulid_t ORDER BY id;
-- still not implicit: a function taking ulid does not take a uuid, and a
-- uuid-shaped string is no ULID (22P02 with the hint)
SELECT err($$SELECT ulid_time('018eafc1-8435-0cf0-5803-c72d06e78011'::uuid)$$);
SELECT err($$INSERT INTO ulid_t VALUES ('018eafc1-8435-0cf0-5803-c72d06e78011'::text) RETURNING id$$);
-- a random (v4) UUID keeps its bytes and gets a meaningless time; the
-- README's opt-in guard refuses it unless its first 48 bits fall before
-- 2100 (1.46% of random UUIDs: 4102444800000 / 2^48)
CREATE TABLE guarded_t (id ulid PRIMARY KEY CHECK (id < ulid_lower('2100-01-01Z')));
SELECT extract(year FROM ulid_time('c9a646d3-9c61-4cb7-bfcd-ee2522c8f633'::uuid::ulid) AT TIME ZONE 'UTC') AS v4_year;
SELECT err($$INSERT INTO guarded_t VALUES ('c9a646d3-9c61-4cb7-bfcd-ee2522c8f633'::uuid)$$) AS v4_refused;
INSERT INTO guarded_t VALUES ('018eafc1-8435-7cf0-9803-c72d06e78011'::uuid), (gen_ulid());
SELECT count(*) AS v7_and_ulid_stored FROM guarded_t;
SELECT round(100 * (1 - (extract(epoch FROM timestamptz '2100-01-01Z') * 1000) / 2::numeric ^ 48), 2) AS pct_v4_refused;
DROP TABLE guarded_t;
-- nothing refers to the binary-compatible cast but the extension (an
-- expression holds a RelabelType), so ulid--1.2--1.3.sql may drop and
-- create it again
CREATE VIEW cast_v AS SELECT u::ulid AS id FROM uuid_t;
SELECT classid::regclass, deptype, count(*) FROM pg_depend
WHERE refclassid = 'pg_cast'::regclass
  AND refobjid = (SELECT oid FROM pg_cast WHERE castsource = 'uuid'::regtype AND casttarget = 'ulid'::regtype)
GROUP BY 1, 2;
SELECT refclassid::regclass, deptype, count(*) FROM pg_depend
WHERE classid = 'pg_cast'::regclass
  AND objid = (SELECT oid FROM pg_cast WHERE castsource = 'uuid'::regtype AND casttarget = 'ulid'::regtype)
GROUP BY 1, 2;
DROP VIEW cast_v;

-- ALTER TYPE from uuid keeps the heap (no rewrite): the uuidv7 migration path
CREATE TABLE mig_t (id uuid PRIMARY KEY);
INSERT INTO mig_t SELECT gen_random_ulid()::uuid FROM generate_series(1, 100);
SELECT pg_relation_filenode('mig_t') AS before_node \gset
ALTER TABLE mig_t ALTER id TYPE ulid USING id::ulid;
SELECT pg_relation_filenode('mig_t') = :before_node AS heap_kept,
       format_type(atttypid, atttypmod) AS new_type
FROM pg_attribute WHERE attrelid = 'mig_t'::regclass AND attname = 'id';
SELECT count(*) AS rows_after FROM mig_t;
DROP TABLE mig_t;

-- text and varchar: I/O conversion casts
SELECT '01HTQW311N1KR5G0Y75M3EF00H'::ulid::text AS to_text,
       '01htqw311n1kr5g0y75m3ef00h'::text::ulid AS from_text,
       '01HTQW311N1KR5G0Y75M3EF00H'::varchar::ulid AS from_varchar,
       '01HTQW311N1KR5G0Y75M3EF00H'::ulid::varchar AS to_varchar;
SELECT err($$SELECT 'nope'::text::ulid$$);

-- text and varchar -> ulid also on assignment: a string-typed value (JDBC
-- setString, ORMs binding varchar) stores into a ulid column
CREATE TABLE str_t (id ulid, n int);
INSERT INTO str_t VALUES ('01HTQW311N1KR5G0Y75M3EF00H'::varchar, 1);
INSERT INTO str_t VALUES ('01htqw311n1kr5g0y75m3ef00j'::text, 2);
INSERT INTO str_t SELECT v, 3 FROM (VALUES ('01HTQW311N1KR5G0Y75M3EF00K'::varchar(26))) s(v);
UPDATE str_t SET id = '01HTQW311N1KR5G0Y75M3EF00M'::text WHERE n = 3;
PREPARE ins_varchar(varchar, int) AS INSERT INTO str_t VALUES ($1, $2);
EXECUTE ins_varchar('01HTQW311N1KR5G0Y75M3EF00N', 4);
PREPARE ins_text(text, int) AS INSERT INTO str_t VALUES ($1, $2);
EXECUTE ins_text('01HTQW311N1KR5G0Y75M3EF00P', 5);
DO $$
DECLARE
    t text := '01HTQW311N1KR5G0Y75M3EF00Q';
    v varchar := '01HTQW311N1KR5G0Y75M3EF00R';
    u ulid;
BEGIN
    INSERT INTO str_t VALUES (t, 6);
    u := v;                             -- PL/pgSQL assignment
    INSERT INTO str_t VALUES (u, 7);
END
$$;
SELECT n, id FROM str_t ORDER BY n;
-- an invalid string: 22P02 with the usual detail, as for a literal
SELECT err($$EXECUTE ins_varchar('01HTQW311I1KR5G0Y75M3EF00H', 9)$$);
SELECT err($$EXECUTE ins_text('81HTQW311N1KR5G0Y75M3EF00H', 9)$$);
SELECT err($$INSERT INTO str_t VALUES ('nope'::varchar, 9) RETURNING id$$);
SELECT hint($$EXECUTE ins_varchar('018eafc1-8435-0cf0-5803-c72d06e78011', 9)$$) AS uuid_text_hint;
SELECT count(*) AS rows_after_errors FROM str_t;
DEALLOCATE ins_varchar;
DEALLOCATE ins_text;
DROP TABLE str_t;
-- assignment casts play no part in choosing functions and operators: a
-- string argument still needs ::ulid
SELECT err($$SELECT ulid_time('01HTQW311N1KR5G0Y75M3EF00H'::text)$$);
SELECT err($$SELECT '01HTQW311N1KR5G0Y75M3EF00H'::ulid = '01HTQW311N1KR5G0Y75M3EF00H'::varchar$$);

-- bytea: explicit, exactly 16 bytes
SELECT '01HTQW311N1KR5G0Y75M3EF00H'::ulid::bytea AS to_bytea,
       '\x018eafc184350cf05803c72d06e78011'::bytea::ulid AS from_bytea;
SELECT err($$SELECT '\x018eafc184350cf05803c72d06e780'::bytea::ulid$$) AS fifteen_bytes;
SELECT err($$SELECT '\x018eafc184350cf05803c72d06e7801122'::bytea::ulid$$) AS seventeen_bytes;
SELECT err($$SELECT ''::bytea::ulid$$) AS empty;

-- timestamptz: explicit both ways
SELECT '01HTQW311N1KR5G0Y75M3EF00H'::ulid::timestamptz AS to_ts,
       '2024-04-05 19:34:38.901Z'::timestamptz::ulid AS from_ts;
SELECT err($$SELECT '1969-12-31 23:59:59.999Z'::timestamptz::ulid$$);

-- timestamp (without time zone): explicit both ways, the time part as UTC
-- wall time whatever the session's TimeZone, so immutable
SET TimeZone = 'America/New_York';
SELECT '01HTQW311N1KR5G0Y75M3EF00H'::ulid::timestamp AS to_ts,
       '2024-04-05 19:34:38.901'::timestamp::ulid AS from_ts,
       '01HTQW311N1KR5G0Y75M3EF00H'::ulid::timestamp
           = ulid_time('01HTQW311N1KR5G0Y75M3EF00H') AT TIME ZONE 'UTC' AS utc_wall_time,
       '2024-04-05 19:34:38.9019'::timestamp::ulid = ulid_lower('2024-04-05 19:34:38.901Z') AS floored_like_ulid_lower,
       '00000000000000000000000000'::ulid::timestamp AS min_ts,
       '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'::ulid::timestamp AS max_ts,
       '10889-08-02 05:31:50.655'::timestamp::ulid AS last_ms;
-- pgx_ulid's generated column: immutable, so allowed, and the same values
-- whichever TimeZone the rows were written in
CREATE TABLE gen_t (id ulid PRIMARY KEY, created timestamp GENERATED ALWAYS AS (id::timestamp) STORED);
INSERT INTO gen_t VALUES ('01HTQW311N1KR5G0Y75M3EF00H');
SET TimeZone = 'Asia/Kolkata';
INSERT INTO gen_t VALUES ('01HTQW311P1KR5G0Y75M3EF00H');
SET TimeZone = 'UTC';
INSERT INTO gen_t VALUES ('01HTQW311Q1KR5G0Y75M3EF00H');
SELECT id, created, created = ulid_time(id) AT TIME ZONE 'UTC' AS utc FROM gen_t ORDER BY id;
CREATE INDEX gen_t_ts ON gen_t ((id::timestamp));
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM gen_t WHERE id::timestamp >= '2024-04-05 19:34:38.902';
SELECT id FROM gen_t WHERE id::timestamp >= '2024-04-05 19:34:38.902';
RESET enable_seqscan;
DROP TABLE gen_t;
-- outside the range, or infinite: 22008, as for timestamptz
SELECT v AS input, err(format('SELECT %L::timestamp::ulid', v)) AS error
FROM (VALUES ('1969-12-31 23:59:59.999'), ('10889-08-02 05:31:50.656'), ('infinity'), ('-infinity')) t(v);
RESET TimeZone;

-- no implicit casts in any direction (uuid -> ulid is on assignment, not implicit)
SELECT count(*) AS implicit_casts FROM pg_cast
WHERE (castsource = 'ulid'::regtype OR casttarget = 'ulid'::regtype) AND castcontext = 'i';
DROP TABLE uuid_t, ulid_t;

-- PostgreSQL's own UUID functions (uuid_extract_timestamp 17+, reading
-- version 7 on 18+; uuidv7 18+): a uuidv7() is a valid ULID of the same
-- millisecond, but a ULID's time is ulid_time(): uuid_extract_timestamp()
-- reads only values whose bits happen to carry a UUID version 7 (on 18+; or
-- 1) and the RFC variant, which a ULID's random part does by chance.  Every
-- test is IS TRUE, so that a NULL fails it.
DO $$
DECLARE
    ok boolean;
BEGIN
    IF current_setting('server_version_num')::int >= 170000 THEN
        -- version nibble 0: no time
        EXECUTE $q$SELECT uuid_extract_timestamp('01HTQW311N1KR5G0Y75M3EF00H'::ulid::uuid) IS NULL$q$ INTO ok;
        IF ok IS NOT TRUE THEN RAISE EXCEPTION 'uuid_extract_timestamp read a ULID without version 7'; END IF;
    END IF;
    IF current_setting('server_version_num')::int >= 180000 THEN
        -- random bits that look like version 7 and the RFC variant: the ULID's time
        EXECUTE $q$SELECT uuid_extract_timestamp(u::uuid) = ulid_time(u)
                   FROM ulid_from_parts(1712345678901, '\x7123856789abcdef0123') u$q$ INTO ok;
        IF ok IS NOT TRUE THEN RAISE EXCEPTION 'uuid_extract_timestamp disagrees with ulid_time on a v7-shaped ULID'; END IF;
        -- uuidv7() values are ULIDs of the same time, in the same order, and
        -- survive the text round trip
        EXECUTE $q$SELECT bool_and(ulid_time(u::ulid) = uuid_extract_timestamp(u)
                              AND (u::ulid)::text::ulid::uuid = u)
                          AND array_agg(u::ulid ORDER BY u) = array_agg(u::ulid ORDER BY u::ulid)
                   FROM (SELECT uuidv7() AS u FROM generate_series(1, 1000)) s$q$ INTO ok;
        IF ok IS NOT TRUE THEN RAISE EXCEPTION 'uuidv7() values are not ULIDs of the same time'; END IF;
    END IF;
END
$$;
