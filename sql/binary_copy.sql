-- COPY ... (FORMAT binary) round-trips ulid values as their raw 16 bytes.
CREATE TABLE copy_src (id ulid, n int);
INSERT INTO copy_src VALUES ('01HTQW311N1KR5G0Y75M3EF00H', 1),
    ('00000000000000000000000000', 2), ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ', 3);
INSERT INTO copy_src SELECT gen_ulid(), g FROM generate_series(4, 1000) g;
SELECT '/tmp/ulid_regress_copy_' || pg_backend_pid() || '.bin' AS copy_file \gset
COPY copy_src TO :'copy_file' (FORMAT binary);
CREATE TABLE copy_dst (LIKE copy_src);
COPY copy_dst FROM :'copy_file' (FORMAT binary);
SELECT count(*) AS copied,
       count(*) FILTER (WHERE d.id IS NOT DISTINCT FROM s.id) AS identical
FROM copy_src s JOIN copy_dst d USING (n);
-- the file holds the raw bytes: 11-byte signature, flags, extension, then
-- per row a 2-byte field count, a 4-byte length of 16 and the 16 bytes
SELECT substr(f, 20, 2) AS field_count, substr(f, 22, 4) AS id_length,
       substr(f, 26, 16) AS id_bytes
FROM pg_read_binary_file(:'copy_file') f;
-- binary COPY into a uuid column reads the same bytes
CREATE TABLE copy_uuid (id uuid, n int);
COPY copy_uuid FROM :'copy_file' (FORMAT binary);
SELECT id FROM copy_uuid WHERE n = 1;

-- ulid_recv checks the length: a binary field of any other length than 16
-- is bad data (22P03) naming the length, never a protocol violation
-- (08P01, which uuid_recv raised for a short value).
-- load_binary(b, file): writes b as the one field of a binary COPY file
-- and loads that into recv_dst (ulid); "ok" or the error as
-- "SQLSTATE: message | detail | hint"
CREATE TABLE recv_dst (id ulid);
CREATE FUNCTION load_binary(b bytea, file text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    st text; msg text; det text; hnt text;
BEGIN
    EXECUTE format('COPY (SELECT %L::bytea) TO %L (FORMAT binary)', b, file);
    EXECUTE format('COPY recv_dst FROM %L (FORMAT binary)', file);
    RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT,
        det = PG_EXCEPTION_DETAIL, hnt = PG_EXCEPTION_HINT;
    RETURN st || ': ' || msg || ' | ' || det || ' | ' || hnt;
END
$$;
SELECT length(b) AS len, load_binary(b, :'copy_file') AS result
FROM (VALUES ('\x018eafc184350cf05803c72d06e780'::bytea),
             ('\x018eafc184350cf05803c72d06e7801100'),
             (''),
             (convert_to('01HTQW311N1KR5G0Y75M3EF00H', 'UTF8')),
             ('\x018eafc184350cf05803c72d06e78011')) v(b)
ORDER BY 1;
-- only the 16-byte file loaded, as the ULID of those bytes
SELECT id FROM recv_dst;
-- ... and a binary array of ulids goes through ulid_recv for each element
SELECT count(*) AS elements FROM copy_src;
COPY (SELECT array_agg(id ORDER BY n) FROM copy_src) TO :'copy_file' (FORMAT binary);
CREATE TABLE recv_arr (ids ulid[]);
COPY recv_arr FROM :'copy_file' (FORMAT binary);
SELECT ids = (SELECT array_agg(id ORDER BY n) FROM copy_src) AS array_round_trip,
       cardinality(ids) AS elements FROM recv_arr;
DROP TABLE recv_dst, recv_arr;
DROP FUNCTION load_binary(bytea, text);

\set copy_cmd 'cat >/dev/null; rm -f ' :copy_file
COPY (SELECT 1) TO PROGRAM :'copy_cmd';
DROP TABLE copy_src, copy_dst, copy_uuid;
