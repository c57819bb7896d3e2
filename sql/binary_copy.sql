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
\set copy_cmd 'rm -f ' :copy_file
COPY (SELECT 1) TO PROGRAM :'copy_cmd';
DROP TABLE copy_src, copy_dst, copy_uuid;
