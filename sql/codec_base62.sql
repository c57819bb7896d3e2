-- ulid_to_base62 / ulid_from_base62 (SPEC section 4): 22 characters,
-- fixed width, alphabet 0-9A-Za-z.

-- Edges and the seed ULIDs
SELECT ulid_to_base62('00000000000000000000000000') AS zero,
       ulid_to_base62('00000000000000000000000001') AS one,
       ulid_to_base62('7ZZZZZZZZZZZZZZZZZZZZZZZZZ') AS max,
       ulid_to_base62('01HTQW311N1KR5G0Y75M3EF00H') AS seed_000,
       ulid_to_base62('01JPHM2B0RF0YRM2H2C0VAG3WE') AS seed_003;
SELECT ulid_from_base62('0000000000000000000000') AS zero,
       ulid_from_base62('0000000000000000000001') AS one,
       ulid_from_base62('7n42DGM5Tflk9n8mt7Fhc7') AS max,
       ulid_from_base62('02zNN0Sv7pLkZf079ZARhu') AS seed_003;

-- A table of ULIDs of every magnitude: random ones, small ones, single bits
CREATE TEMP TABLE b62_ids AS
SELECT gen_random_ulid() AS u FROM generate_series(1, 3000)
UNION ALL
SELECT ulid_from_parts(i * 93826, substring(decode(md5(i::text), 'hex') FROM 1 FOR 10))
FROM generate_series(1, 1000) i
UNION ALL
SELECT ('\x' || lpad(to_hex(i), 32, '0'))::bytea::ulid FROM generate_series(0, 500) i
UNION ALL
SELECT ('\x' || lpad(rpad('1', b / 4 + 1, '0'), 32, '0'))::bytea::ulid FROM generate_series(0, 124) b;

-- Round trips both ways; always 22 characters
SELECT count(*) FILTER (WHERE ulid_from_base62(ulid_to_base62(u)) <> u) AS decode_encode_failures,
       count(*) FILTER (WHERE ulid_to_base62(ulid_from_base62(ulid_to_base62(u))) <> ulid_to_base62(u)) AS encode_decode_failures,
       count(*) FILTER (WHERE length(ulid_to_base62(u)) <> 22) AS wrong_width
FROM b62_ids;

-- Base62 text sorts like the ULID under COLLATE "C"
SELECT bool_and(a = b) AS sorts_like_ulid
FROM (SELECT row_number() OVER (ORDER BY ulid_to_base62(u) COLLATE "C") AS a,
             row_number() OVER (ORDER BY u) AS b
      FROM (SELECT DISTINCT u FROM b62_ids) d) s;
-- Case matters: 'a' (36) sorts after 'Z' (35) byte-wise, which a
-- linguistic collation need not do; hence COLLATE "C"
SELECT ulid_to_base62('00000000000000000000000013') AS v35,
       ulid_to_base62('00000000000000000000000014') AS v36,
       ulid_to_base62('00000000000000000000000014') COLLATE "C" >
       ulid_to_base62('00000000000000000000000013') COLLATE "C" AS c_order_right;

-- Malformed text and out-of-range values, one per line
SELECT v AS input, err(format('SELECT ulid_from_base62(%L)', v)) AS error
FROM (VALUES
    (''),
    ('0'),
    ('000000000000000000000'),              -- 21 characters
    ('00000000000000000000000'),            -- 23 characters
    (' 02zNN0Sv7pLkZf079ZARhu'),
    ('02zNN0Sv7pLkZf079ZARh '),
    ('02zNN0Sv7pLk-f079ZARhu'),
    ('02zNN0Sv7pLk_f079ZARhu'),
    ('02zNN0Sv7pLkZf079ZARhé'),             -- 22 characters, 23 bytes
    ('02zNN0Sv7pLkZf079ZARh€'),
    ('01JPHM2B0RF0YRM2H2C0VAG3WE'),         -- canonical ULID text is not Base62
    ('7n42DGM5Tflk9n8mt7Fhc6'),
    ('7n42DGM5Tflk9n8mt7Fhc7'),             -- 2^128 - 1
    ('7n42DGM5Tflk9n8mt7Fhc8'),             -- 2^128
    ('7n42DGM5Tflk9n8mt7FhcA'),
    ('zzzzzzzzzzzzzzzzzzzzzz'),
    ('zzzzzzzzzzzzzzzzzzzzz!')              -- a bad character before the overflow
) t(v);
SELECT hint('SELECT ulid_from_base62(''x'')') AS hint;
