-- radix_encode / radix_decode (SPEC section 4): base 2-62 of the unsigned
-- 64-bit reading of a bigint, with fixed-width padding.

-- Defaults: radix 62, no padding
SELECT radix_encode(0) AS zero, radix_encode(61) AS z, radix_encode(62) AS ten,
       radix_encode(9223372036854775807) AS max_bigint;

-- Negative bigints are read as unsigned 64-bit values (Discord ids paste in)
SELECT radix_encode(-1) AS minus_one, radix_encode(-1, 10) AS minus_one_dec,
       radix_encode(-9223372036854775808, 16) AS min_bigint_hex,
       radix_decode('18446744073709551615', 10) AS decoded,
       radix_decode('8000000000000000', 16) AS min_bigint;

-- Lowercase up to radix 36, then 0-9A-Za-z
SELECT r AS radix, radix_encode(1234567890123456789, r) AS text,
       radix_decode(radix_encode(1234567890123456789, r), r) = 1234567890123456789 AS back
FROM unnest(ARRAY[2, 8, 10, 16, 32, 36, 37, 58, 62]) r;

-- Decoding is case-insensitive up to 36, case-sensitive above
SELECT radix_decode('FF', 16) AS upper_hex, radix_decode('ff', 16) AS lower_hex,
       radix_decode('Z', 36) AS upper_36, radix_decode('z', 36) AS lower_36,
       radix_decode('Z', 62) AS upper_62, radix_decode('z', 62) AS lower_62;

-- Width pads with zeros; leading zeros decode
SELECT radix_encode(255, 16, 8) AS padded, radix_encode(0, 62, 11) AS zero_11,
       radix_encode(-1, 62, 11) AS max_11, radix_encode(255, 2, 64) AS bin_64,
       radix_decode('0000000000000000000000000000000000000042', 10) AS leading_zeros,
       radix_encode(42, 10, NULL) AS null_width;

-- NULLs: non-strict encoder returns NULL for a NULL id or radix
SELECT radix_encode(NULL) IS NULL AS null_id, radix_encode(1, NULL) IS NULL AS null_radix,
       radix_encode(NULL, 10, 5) IS NULL AS null_id_width, radix_decode(NULL) IS NULL AS null_text;

SELECT setseed(0.42);

-- Round trips over edge and random values in every radix (fixed width too)
SELECT count(*) AS round_trip_failures
FROM generate_series(2, 62) r,
     (SELECT unnest(ARRAY[0, 1, -1, 9223372036854775807, -9223372036854775808,
                          4294967295, 4294967296, 175928847299117063]) AS v
      UNION ALL
      SELECT (random() * 18446744073709551615 - 9223372036854775808)::numeric::bigint
      FROM generate_series(1, 200)
      UNION ALL
      SELECT (random() * 100000)::bigint FROM generate_series(1, 50)) vals
WHERE radix_decode(radix_encode(v, r), r) <> v
   OR radix_decode(radix_encode(v, r, 64), r) <> v
   OR radix_encode(radix_decode(radix_encode(v, r), r), r) <> radix_encode(v, r);

-- Fixed-width text sorts like the unsigned value under COLLATE "C"
SELECT r AS radix, bool_and(ord_text = ord_value) AS sorts_like_value
FROM unnest(ARRAY[10, 36, 62]) r,
LATERAL (
    SELECT row_number() OVER (ORDER BY radix_encode(v, r, 64) COLLATE "C") AS ord_text,
           row_number() OVER (ORDER BY v::numeric + CASE WHEN v < 0 THEN 18446744073709551616 ELSE 0 END) AS ord_value
    FROM (SELECT (random() * 18446744073709551615 - 9223372036854775808)::numeric::bigint AS v
          FROM generate_series(1, 500)) s) o
GROUP BY r ORDER BY r;

-- ... and not always under a linguistic collation when case matters (radix > 36):
-- 'a' (36) > 'Z' (35) byte-wise
SELECT radix_encode(36, 62) AS a36, radix_encode(35, 62) AS z35,
       radix_encode(36, 62) COLLATE "C" > radix_encode(35, 62) COLLATE "C" AS c_order_right;

-- Malformed text and out-of-range values, one per line
SELECT v AS input, r AS radix, err(format('SELECT radix_decode(%L, %s)', v, r)) AS error
FROM (VALUES
    ('', 62),
    (' 1', 10),
    ('1 ', 10),
    ('-1', 10),
    ('+1', 10),
    ('1_000', 10),
    ('12a', 10),
    ('2', 2),
    ('g', 16),
    ('0x1f', 16),
    ('Z', 35),
    ('b', 37),
    ('é', 62),
    ('12é4', 10),
    ('18446744073709551615', 10),
    ('18446744073709551616', 10),
    ('99999999999999999999', 10),
    ('LygHa16AHYF', 62),
    ('LygHa16AHYG', 62),
    ('zzzzzzzzzzzz', 62),
    ('3w5e11264sgsf', 36),
    ('3w5e11264sgsg', 36),
    ('10000000000000000000000000000000000000000000000000000000000000000', 2),
    ('99999999999999999999!', 10)
) t(v, r);

-- Bad parameters (22023) and widths too small (22003)
SELECT c AS call, err('SELECT ' || c) AS result
FROM (VALUES
    ('radix_encode(1, 1)'),
    ('radix_encode(1, 63)'),
    ('radix_decode(''1'', 0)'),
    ('radix_decode(''1'', -5)'),
    ('radix_encode(1, 10, 0)'),
    ('radix_encode(1, 10, -1)'),
    ('radix_encode(1, 10, 65)'),
    ('radix_encode(1000, 10, 4)'),
    ('radix_encode(1000, 10, 3)'),
    ('radix_encode(0, 10, 1)'),
    ('radix_encode(-1, 62, 11)'),
    ('radix_encode(-1, 62, 10)'),
    ('radix_encode(-1, 2, 64)'),
    ('radix_encode(-1, 2, 63)'),
    ('radix_encode(9223372036854775807, 16, 15)')
) t(c);

-- The hints say how to fix it
SELECT c AS call, hint('SELECT ' || c) AS hint
FROM (VALUES
    ('radix_encode(-1, 62, 10)'),
    ('radix_decode(''12'', 2)'),
    ('radix_decode(''12a'', 10)'),
    ('radix_decode(''12!'', 16)'),
    ('radix_decode(''12!'', 36)'),
    ('radix_decode(''12!'', 37)'),
    ('radix_decode(''12!'', 62)')
) t(c);
