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

-- uuid -> ulid: explicit only; a uuid never slips into a ulid column
SELECT '018eafc1-8435-0cf0-5803-c72d06e78011'::uuid::ulid AS as_ulid;
CREATE TABLE ulid_t (id ulid);
SELECT err($$INSERT INTO ulid_t SELECT u FROM uuid_t RETURNING id$$);
SELECT err($$INSERT INTO ulid_t VALUES ('018eafc1-8435-0cf0-5803-c72d06e78011'::uuid) RETURNING id$$);
INSERT INTO ulid_t SELECT u::ulid FROM uuid_t;
SELECT id FROM ulid_t;

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

-- no implicit casts in any direction
SELECT count(*) AS implicit_casts FROM pg_cast
WHERE (castsource = 'ulid'::regtype OR casttarget = 'ulid'::regtype) AND castcontext = 'i';
DROP TABLE uuid_t, ulid_t;
