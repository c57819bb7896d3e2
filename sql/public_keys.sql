-- Keys and masks (SPEC section 4, "Public faces of ids"; issue 36):
-- ulid_key_create / ulid_key_drop, who may read and use a key, and the
-- UUIDv47, ulid and Snowflake masks.  Runs as a superuser; leaves no key
-- and no role behind.
\set VERBOSITY terse

-- --- keys ---------------------------------------------------------------------
SELECT ulid_key_create('regress_k', '\x000102030405060708090a0b0c0d0e0f');
SELECT ulid_key_create('regress_random');
-- no secret in the table: a key made by name holds a fingerprint only, an
-- imported one its secret wrapped (24 bytes, RFC 3394), neither the secret
SELECT name, created <= now() AS created, octet_length(wrapped) AS wrapped, octet_length(fingerprint) AS fingerprint,
       position('\x000102030405060708090a0b0c0d0e0f'::bytea IN coalesce(wrapped, '') || fingerprint) AS secret_at
FROM ulid_keyring.keys WHERE name IN ('regress_k', 'regress_random') ORDER BY name;
SELECT attname FROM pg_attribute WHERE attrelid = 'ulid_keyring.keys'::regclass AND attnum > 0 ORDER BY attnum;
SELECT count(*) AS secret_type FROM pg_type WHERE typname = 'ulid_secret';
SELECT err($$SELECT ulid_key_create('regress_k')$$) AS duplicate;
SELECT hint($$SELECT ulid_key_create('regress_k')$$) AS duplicate_hint;
SELECT err($$SELECT ulid_key_create('regress_short', '\x0001')$$) AS short_secret;
SELECT err($$SELECT ulid_key_create('regress_long', '\x000102030405060708090a0b0c0d0e0f10')$$) AS long_secret;
SELECT err($$SELECT ulid_key_create(NULL, NULL)$$) AS null_name;
SELECT err($$SELECT ulid_key_create('')$$) AS empty_name;
SELECT err($$SELECT ulid_key_create(repeat('k', 64))$$) AS name_64_bytes;
SELECT err($$SELECT ulid_key_drop('regress_nope')$$) AS drop_missing;
SELECT err($$SELECT ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'regress_nope')$$) AS mask_missing;
SELECT hint($$SELECT ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'regress_nope')$$) AS mask_missing_hint;
-- a key made by name is the same key when made again (the same root)
SELECT ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'regress_random') AS m \gset before_
SELECT fingerprint AS fp FROM ulid_keyring.keys WHERE name = 'regress_random' \gset before_
SELECT ulid_key_drop('regress_random');
SELECT ulid_key_create('regress_random');
SELECT ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'regress_random') = :'before_m' AS same_mask_again,
       (SELECT fingerprint FROM ulid_keyring.keys WHERE name = 'regress_random') = :'before_fp' AS same_fingerprint;
-- ... and another name another key
SELECT ulid_key_create('regress_random2');
SELECT ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'regress_random2') <> :'before_m' AS other_name_other_mask;
SELECT ulid_key_drop('regress_random2');
-- the fingerprint is checked: a row changed by hand no longer masks (55000)
UPDATE ulid_keyring.keys SET fingerprint = '\x0000000000000000' WHERE name = 'regress_random';
SELECT err($$SELECT ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'regress_random')$$) AS wrong_fingerprint;
SELECT name, imported, problem FROM ulid_check_keys() WHERE name LIKE 'regress%' ORDER BY name;
UPDATE ulid_keyring.keys SET fingerprint = :'before_fp' WHERE name = 'regress_random';
-- an imported secret wrapped for another name does not unwrap (55000)
INSERT INTO ulid_keyring.keys (name, wrapped, fingerprint)
SELECT 'regress_copied', wrapped, fingerprint FROM ulid_keyring.keys WHERE name = 'regress_k';
SELECT err($$SELECT ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'regress_copied')$$) AS copied_wrap;
SELECT ulid_key_drop('regress_copied');
SELECT name, imported, octet_length(fingerprint) AS fp, problem FROM ulid_check_keys() WHERE name LIKE 'regress%' ORDER BY name;

-- --- who may read and use a key -----------------------------------------------
CREATE ROLE regress_key_plain;
SET ROLE regress_key_plain;
SELECT name FROM ulid_keyring.keys WHERE name LIKE 'regress%' ORDER BY name;
-- every route to the rows shows the same non-secret columns
SELECT count(*) FILTER (WHERE row_to_json(k)::text LIKE '%000102030405060708090a0b0c0d0e0f%') AS in_json,
       count(*) FILTER (WHERE ARRAY[k]::text LIKE '%000102030405060708090a0b0c0d0e0f%') AS in_array,
       count(*) FILTER (WHERE k *= k) AS image_compares
FROM ulid_keyring.keys k WHERE name = 'regress_k';
SELECT err($$SELECT ulid_key_create('regress_mine')$$) AS create_key;
SELECT err($$SELECT ulid_key_drop('regress_k')$$) AS drop_key;
SELECT err($$DELETE FROM ulid_keyring.keys$$) AS delete_rows;
SELECT err($$UPDATE ulid_keyring.keys SET created = now()$$) AS update_rows;
SELECT err($$TRUNCATE ulid_keyring.keys$$) AS truncate_table;
SELECT err($$INSERT INTO ulid_keyring.keys SELECT * FROM ulid_keyring.keys WHERE name = 'regress_k'$$) AS insert_row;
SELECT err($$SELECT * FROM ulid_check_keys()$$) AS check_keys;
SELECT err($$SELECT ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'regress_k')$$) AS mask_without_grant;
RESET ROLE;
-- EXECUTE granted, the key functions still refuse at run time
GRANT EXECUTE ON FUNCTION ulid_key_create(text, bytea), ulid_key_drop(text) TO regress_key_plain;
GRANT EXECUTE ON FUNCTION ulid_mask(ulid, text), ulid_unmask(ulid, text) TO regress_key_plain;
SET ROLE regress_key_plain;
SELECT err($$SELECT ulid_key_create('regress_mine')$$) AS create_key_granted;
SELECT hint($$SELECT ulid_key_create('regress_mine')$$) AS create_key_hint;
SELECT ulid_unmask(ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'regress_k'), 'regress_k') AS granted_round_trip;
SELECT err($$SELECT uuidv47_encode('018eafc1-8435-795c-a58c-d434d0641a13', 'regress_k')$$) AS other_mask_not_granted;
RESET ROLE;
REVOKE EXECUTE ON FUNCTION ulid_key_create(text, bytea), ulid_key_drop(text) FROM regress_key_plain;
REVOKE EXECUTE ON FUNCTION ulid_mask(ulid, text), ulid_unmask(ulid, text) FROM regress_key_plain;
DROP ROLE regress_key_plain;

-- --- UUIDv47: the reference's vectors (stateless-me/uuidv47 at 81ba63f4,
-- as test/unit/uuidv47_vectors.h; key 00 01 .. 0f) -----------------------------
SELECT v7, uuidv47_encode(v7, 'regress_k') AS facade,
       uuidv47_encode(v7, 'regress_k') = facade AS as_reference,
       uuidv47_decode(facade, 'regress_k') = v7 AS decodes
FROM (VALUES ('00000000-0000-7000-8000-000000000000'::uuid, 'd2d1776f-12b1-4000-8000-000000000000'::uuid),
             ('ffffffff-ffff-7fff-bfff-ffffffffffff', '4b879cd9-4b5a-4fff-bfff-ffffffffffff'),
             ('018eafc1-8435-795c-a58c-d434d0641a13', '1ace649f-4282-495c-a58c-d434d0641a13'),
             ('cf5a9ea9-737d-7765-941d-1c0b64b7dd48', 'bc405bb4-be9f-4765-941d-1c0b64b7dd48'),
             ('8d3edbd5-bbc0-7462-8f6f-ff4db2a97a24', '8cd97a72-5e22-4462-8f6f-ff4db2a97a24')) v(v7, facade);
-- fresh UUIDv7s round trip, their facades are version 4 with the same random bits
SELECT count(*) AS n,
       count(*) FILTER (WHERE uuidv47_decode(uuidv47_encode(u, 'regress_random'), 'regress_random') = u) AS round_trips,
       count(*) FILTER (WHERE uuid_extract_version(uuidv47_encode(u, 'regress_random')) = 4) AS version_4,
       count(*) FILTER (WHERE substr(uuidv47_encode(u, 'regress_random')::text, 16) = substr(u::text, 16)) AS same_random_bits
FROM (SELECT gen_uuidv7() AS u FROM generate_series(1, 1000)) g;
SELECT err($$SELECT uuidv47_encode('018eafc1-8435-495c-a58c-d434d0641a13', 'regress_k')$$) AS encode_v4;
SELECT err($$SELECT uuidv47_encode('018eafc1-8435-795c-e58c-d434d0641a13', 'regress_k')$$) AS encode_other_variant;
SELECT err($$SELECT uuidv47_decode('018eafc1-8435-795c-a58c-d434d0641a13', 'regress_k')$$) AS decode_v7;
SELECT hint($$SELECT uuidv47_decode('018eafc1-8435-795c-a58c-d434d0641a13', 'regress_k')$$) AS decode_v7_hint;

-- --- ulid_mask: AES-128 of the 16 bytes (FIPS 197 appendix C.1's vector) --------
SELECT ulid_mask('00112233-4455-6677-8899-aabbccddeeff'::uuid::ulid, 'regress_k')::uuid AS fips_197,
       ulid_unmask('69c4e0d8-6a7b-0430-d8cd-b78070b4c55a'::uuid::ulid, 'regress_k')::uuid AS inverse;
-- a bijection on all 128 bits that hides the time: 10000 ids of one
-- millisecond (as gen_monotonic_ulid makes them) mask to 10000 times, none
-- near the real one (the key has a fixed secret: the counts are fixed too)
CREATE TEMP TABLE masked AS
SELECT u, ulid_mask(u, 'regress_k') AS m
FROM (SELECT ulid_from_parts(1712345678901, decode(lpad(to_hex(i), 20, '0'), 'hex')) AS u
      FROM generate_series(1, 10000) i) g;
SELECT count(*) FILTER (WHERE ulid_unmask(m, 'regress_k') = u) AS unmask,
       count(DISTINCT ulid_unix_ms(m)) AS distinct_times,
       count(*) FILTER (WHERE ulid_time(m) BETWEEN '2024-04-01Z' AND '2024-05-01Z') AS times_that_month
FROM masked;
-- masks do not sort as the ids
SELECT corr(rn_u, rn_m) < 0.1 AS order_hidden
FROM (SELECT row_number() OVER (ORDER BY u) AS rn_u, row_number() OVER (ORDER BY m) AS rn_m FROM masked) s;

-- --- snowflake_mask: a permutation of each layout's ids ---------------------------
SELECT l AS layout,
       count(*) FILTER (WHERE snowflake_unmask(m, l::snowflake_layout, 'regress_k') = id) AS round_trips,
       count(*) FILTER (WHERE m >= 0 AND snowflake_time(m, l::snowflake_layout) IS NOT NULL) AS valid_ids,
       count(*) FILTER (WHERE m <> id) AS moved,
       max(m) < 2^53 AS below_2_53
FROM (VALUES ('twitter'), ('discord'), ('instagram'), ('sonyflake(epoch=2014-09-01T00:00:00Z)'), ('scru64(node_bits=8)'),
             ('snowflake_ms'), ('snowflake_s'), ('js_safe_ms'), ('js_safe_s')) v(l),
     LATERAL (SELECT snowflake_pack(l::snowflake_layout, '2026-10-27Z'::timestamptz + i * interval '1 second', i % 4, i % 256) AS id
              FROM generate_series(1, 500) i) g,
     LATERAL (SELECT snowflake_mask(id, l::snowflake_layout, 'regress_k') AS m) x
GROUP BY l ORDER BY l;
-- consecutive ids of one millisecond and node: nothing of the sequence shows
SELECT count(DISTINCT snowflake_time(m, 'twitter')) AS distinct_times,
       count(DISTINCT snowflake_node(m, 'twitter')) > 500 AS nodes_spread
FROM (SELECT snowflake_mask(snowflake_pack('twitter', '2026-10-27Z', 5, s), 'twitter', 'regress_k') AS m
      FROM generate_series(0, 4095) s) g;
-- pinned: these values must never change, or every mask handed out breaks
SELECT snowflake_mask(1541815603606036480, 'twitter', 'regress_k') AS twitter,
       snowflake_mask(175928847299117063, 'discord', 'regress_k') AS discord,
       snowflake_mask(4738381338321616895, 'scru64(node_bits=8)', 'regress_k') AS scru64_last,
       snowflake_mask(9007199254740991, 'js_safe_ms', 'regress_k') AS js_safe_last,
       ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'regress_k') AS ulid;
SELECT err($$SELECT snowflake_mask(-1, 'twitter', 'regress_k')$$) AS negative;
SELECT err($$SELECT snowflake_unmask(9007199254740992, 'js_safe_ms', 'regress_k')$$) AS past_js_safe;
SELECT err($$SELECT snowflake_mask(4738381338321616896, 'scru64(node_bits=8)', 'regress_k')$$) AS past_scru64;
SELECT snowflake_mask(-1, 'discord', 'regress_k') < 0 AS discord_negative_stays_negative;

-- --- rotation: a new key, old masks decode while the old key exists ---------------
SELECT ulid_key_create('regress_k2');
CREATE TEMP TABLE handed_out AS SELECT ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'regress_k') AS old_mask,
                                       ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'regress_k2') AS new_mask;
SELECT old_mask <> new_mask AS differ,
       (SELECT array_agg(id) FROM (VALUES ('01HTQW311N1KR5G0Y75M3EF00H'::ulid)) t(id)
        WHERE id IN (ulid_unmask(old_mask, 'regress_k2'), ulid_unmask(old_mask, 'regress_k'))) AS old_found,
       (SELECT array_agg(id) FROM (VALUES ('01HTQW311N1KR5G0Y75M3EF00H'::ulid)) t(id)
        WHERE id IN (ulid_unmask(new_mask, 'regress_k2'), ulid_unmask(new_mask, 'regress_k'))) AS new_found
FROM handed_out;
SELECT ulid_key_drop('regress_k');
SELECT err($$SELECT ulid_unmask(old_mask, 'regress_k') FROM handed_out$$) AS old_key_gone;
-- the same name with another secret: the cache follows at once
SELECT ulid_key_create('regress_k', '\xffffffffffffffffffffffffffffffff');
SELECT ulid_unmask(old_mask, 'regress_k') <> '01HTQW311N1KR5G0Y75M3EF00H' AS other_secret FROM handed_out;
-- a rolled-back key is gone again
BEGIN;
SELECT ulid_key_create('regress_rolled_back');
SELECT ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'regress_rolled_back') IS NOT NULL AS usable_in_its_transaction;
ROLLBACK;
SELECT err($$SELECT ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'regress_rolled_back')$$) AS after_rollback;

-- --- the masks are STABLE: a plan never keeps one as a constant ---------------------
PREPARE masked_id AS SELECT ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'regress_k');
EXECUTE masked_id \gset first_
SELECT ulid_key_drop('regress_k');
SELECT ulid_key_create('regress_k');
EXECUTE masked_id \gset second_
SELECT :'first_ulid_mask' <> :'second_ulid_mask' AS prepared_statement_follows_the_key;
DEALLOCATE masked_id;
SELECT err($$CREATE TEMP TABLE t (id ulid, pub ulid GENERATED ALWAYS AS (ulid_mask(id, 'regress_k')) STORED)$$) AS generated_column;

-- parallel safe: a worker reads the keys itself, and masks as the leader does
CREATE TABLE mask_par AS SELECT u FROM masked;
ANALYZE mask_par;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SELECT workers_launched($$CREATE TEMP TABLE mask_par_out AS
    SELECT u, ulid_mask(u, 'regress_k') AS m, snowflake_mask(12345, 'twitter', 'regress_k') AS s FROM mask_par$$) > 0 AS ran_in_workers;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;
SELECT count(*) AS rows, count(*) FILTER (WHERE m = ulid_mask(u, 'regress_k')) AS as_the_leader,
       count(DISTINCT s) AS one_snowflake_mask
FROM mask_par_out;
DROP TABLE mask_par;

SELECT ulid_key_drop(name) FROM ulid_keyring.keys WHERE name LIKE 'regress%';
SELECT count(*) AS keys_left FROM ulid_keyring.keys WHERE name LIKE 'regress%';
