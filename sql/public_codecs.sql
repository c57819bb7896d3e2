-- Sqids and base32hex (SPEC section 4, "Public faces of ids"; issue 36).
\set VERBOSITY terse

-- --- Sqids: the specification's tests (sqids/sqids-spec at 49b8ad8e; all of
-- them in test/unit/sqids_vectors.h) ---------------------------------------------
SELECT sqids_encode('{1,2,3}') AS simple, sqids_decode('86Rf07') AS decoded;
SELECT sqids_encode('{1,2,3}', '0123456789abcdef') AS short_alphabet,
       sqids_decode('489158', '0123456789abcdef') AS decoded;
SELECT sqids_encode(ARRAY[n]) AS id, n FROM generate_series(0, 9) n;
SELECT sqids_encode(ARRAY[0, n]) AS id, n FROM generate_series(0, 9) n;
-- the default blocklist: 4572721 would be aho1e
SELECT sqids_encode('{4572721}') AS blocked, sqids_decode('aho1e') AS blocked_still_decodes;
-- (the spec's IBSHOZ blocks sxnzkl: not a word of the default list)
SELECT sqids_encode('{1,2,3}', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') AS uppercase_alphabet;
SELECT m AS min_length, sqids_encode('{1,2,3}', min_length => m) AS id
FROM unnest('{6,7,8,13,62,63,65}'::int[]) m;
SELECT sqids_decode('86Rf07xd4zBmiJXQG6otHEbew02c3PWsUOLZxADhCpKj7aVFv9I8RquYrNlSTM', min_length => 62) AS padded;
SELECT sqids_encode('{}') AS no_numbers, sqids_encode('{}', min_length => 10) AS no_numbers_padded,
       sqids_decode('') AS empty_id;
-- round trips, every size of number, also the largest bigint
SELECT count(*) FILTER (WHERE sqids_decode(sqids_encode(a)) = a) AS default_alphabet,
       count(*) FILTER (WHERE sqids_decode(sqids_encode(a, 'abc', 20), 'abc', 20) = a) AS three_letters,
       count(*) FILTER (WHERE sqids_decode(sqids_encode(a, min_length => 255), min_length => 255) = a) AS padded
FROM (SELECT ARRAY[i, i * 7919, (2^(i % 63))::bigint - 1, 9223372036854775807] AS a FROM generate_series(0, 300) i) g;
-- numbers, not ids: a table's bigint key shown as a short code
SELECT id, sqids_encode(ARRAY[id]) AS code FROM (VALUES (1), (42), (1000000), (9007199254740991)) v(id);
-- errors
SELECT err($$SELECT sqids_encode('{1,-2}')$$) AS negative;
SELECT err($$SELECT sqids_encode('{1,NULL}')$$) AS null_element;
SELECT err($$SELECT sqids_encode('{{1,2},{3,4}}')$$) AS two_dimensions;
SELECT err($$SELECT sqids_encode('{1}', 'ab')$$) AS alphabet_of_2;
SELECT err($$SELECT sqids_encode('{1}', 'aabcdefg')$$) AS repeated;
SELECT err($$SELECT sqids_encode('{1}', 'abcdé')$$) AS not_ascii;
SELECT hint($$SELECT sqids_encode('{1}', 'abcdé')$$) AS alphabet_hint;
SELECT err($$SELECT sqids_encode('{1}', min_length => 256)$$) AS min_length_256;
SELECT err($$SELECT sqids_encode('{1}', min_length => -1)$$) AS min_length_negative;
SELECT err($$SELECT sqids_decode('86Rf-07')$$) AS bad_character;
SELECT err($$SELECT sqids_decode('86Rf07', '0123456789abcdef')$$) AS other_alphabet;
SELECT err($$SELECT sqids_decode('bzzzzzzzzzzzzzzzzzzz')$$) AS overflow;
SELECT err($$SELECT sqids_decode('86Rf07', min_length => 10)$$) AS shorter_than_min_length;

-- --- base32hex: RFC 4648's extended hex alphabet ------------------------------------
SELECT ulid_to_base32hex('00000000000000000000000000') AS zero,
       ulid_to_base32hex('7ZZZZZZZZZZZZZZZZZZZZZZZZZ') AS max,
       ulid_to_base32hex('01HTQW311N1KR5G0Y75M3EF00H') AS seed;
-- (Python's base64.b32hexencode of the seed's 16 bytes: 067AVGC46K6F0M03OSMGDPS024======)
SELECT ulid_from_base32hex('067AVGC46K6F0M03OSMGDPS024') AS seed,
       ulid_from_base32hex('067avgc46k6f0m03osmgdps024') AS lowercase,
       ulid_from_base32hex('067AVGC46K6F0M03OSMGDPS024======') AS padded;
CREATE TEMP TABLE b32h AS SELECT gen_random_ulid() AS u FROM generate_series(1, 2000)
UNION ALL SELECT ('\x' || lpad(to_hex(i), 32, '0'))::bytea::ulid FROM generate_series(0, 300) i;
SELECT count(*) FILTER (WHERE ulid_from_base32hex(ulid_to_base32hex(u)) = u) AS round_trips,
       count(*) FILTER (WHERE ulid_to_base32hex(u) ~ '^[0-9A-V]{25}[048CGKOS]$') AS shape
FROM b32h;
-- sorts as the ULID under a byte-wise collation
SELECT bool_and(a = b) AS sorts_like_ulid
FROM (SELECT row_number() OVER (ORDER BY ulid_to_base32hex(u) COLLATE "C") AS a,
             row_number() OVER (ORDER BY u) AS b
      FROM (SELECT DISTINCT u FROM b32h) d) s;
-- PostgreSQL 19's encode(bytea, 'base32hex'), compared where the server has it
DO $$
BEGIN
    IF current_setting('server_version_num')::int >= 190000 THEN
        IF EXISTS (SELECT FROM b32h
                   WHERE ulid_to_base32hex(u) <> rtrim(encode(u::uuid::bytea, 'base32hex'), '=')
                      OR ulid_from_base32hex(encode(u::uuid::bytea, 'base32hex')) <> u
                      OR decode(ulid_to_base32hex(u), 'base32hex') <> u::uuid::bytea) THEN
            RAISE EXCEPTION 'ulid_to_base32hex differs from PostgreSQL 19''s encode(..., ''base32hex'')';
        END IF;
    END IF;
END
$$;
SELECT err($$SELECT ulid_from_base32hex('067AVGC46K6F0M03OSMGDPS02')$$) AS short;
SELECT err($$SELECT ulid_from_base32hex('067AVGC46K6F0M03OSMGDPS024=')$$) AS one_padding;
SELECT err($$SELECT ulid_from_base32hex('067AVGC46K6F0M03OSMGDPS0W4')$$) AS w;
SELECT err($$SELECT ulid_from_base32hex('067AVGC46K6F0M03OSMGDPS025')$$) AS bits_past_128;
SELECT err($$SELECT ulid_from_base32hex('067AVGC46K6F0M03OSMGDPS024=====X')$$) AS bad_padding;
SELECT err($$SELECT ulid_from_base32hex('067AVGC46K6F0M03OSMGé024')$$) AS multibyte;
