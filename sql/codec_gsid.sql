-- GSIDs (SPEC section 4): prefix_ + Base62 time (8) + namespace (6) +
-- randomness (14); stripping prefix and namespace gives back the ULID.
SET timezone = 'UTC';

-- The seed's example decodes, and re-encodes from its ULID, prefix and namespace
SELECT gsid_to_ulid('usr_0UfgmdjM46GLys2pzvVCof2nyJ8Y') AS ulid,
       gsid_prefix('usr_0UfgmdjM46GLys2pzvVCof2nyJ8Y') AS prefix,
       gsid_namespace('usr_0UfgmdjM46GLys2pzvVCof2nyJ8Y') AS namespace,
       ulid_time(gsid_to_ulid('usr_0UfgmdjM46GLys2pzvVCof2nyJ8Y')) AS time;
SELECT ulid_to_gsid('01JPHM2B0RF0YRM2H2C0VAG3WE', 'usr', 3757087090) AS gsid,
       ulid_to_gsid('01JPHM2B0RF0YRM2H2C0VAG3WE', 'usr', 3757087090) = 'usr_0UfgmdjM46GLys2pzvVCof2nyJ8Y' AS same_as_seed;

-- Edges: zero, the largest namespace, randomness and time, a 63-letter prefix
SELECT ulid_to_gsid('00000000000000000000000000', 'a', 0) AS zero,
       ulid_to_gsid(ulid_from_parts(218340105584895, '\xffffffffffffffffffff'), 'abc', 4294967295) AS largest,
       ulid_time(gsid_to_ulid('abc_zzzzzzzz4gfFC362iEp5bu9VZbsV')) AS last_time;
SELECT ulid_to_gsid('01JPHM2B0RF0YRM2H2C0VAG3WE', repeat('x', 63), 1) AS long_prefix,
       gsid_prefix(ulid_to_gsid('01JPHM2B0RF0YRM2H2C0VAG3WE', repeat('x', 63), 1)) = repeat('x', 63) AS prefix_back;

-- Round trips both ways over many ULIDs, prefixes and namespaces
SELECT setseed(0.42);
CREATE TEMP TABLE gsid_cases AS
SELECT gen_random_ulid() AS u,
       substr('abcdefghijklmnopqrstuvwxyz', 1 + (i % 26), 1 + (i % 3)) AS prefix,
       (random() * 4294967295)::bigint AS ns
FROM generate_series(1, 3000) i
UNION ALL
SELECT ulid_from_parts(i, '\x00000000000000000000'), 'org', i FROM generate_series(0, 100) i;
SELECT count(*) FILTER (WHERE gsid_to_ulid(ulid_to_gsid(u, prefix, ns)) <> u) AS ulid_failures,
       count(*) FILTER (WHERE gsid_prefix(ulid_to_gsid(u, prefix, ns)) <> prefix) AS prefix_failures,
       count(*) FILTER (WHERE gsid_namespace(ulid_to_gsid(u, prefix, ns)) <> ns) AS namespace_failures,
       count(*) FILTER (WHERE ulid_to_gsid(gsid_to_ulid(g), gsid_prefix(g), gsid_namespace(g)) <> g) AS text_failures,
       count(*) FILTER (WHERE length(g) <> length(prefix) + 29) AS wrong_length
FROM (SELECT *, ulid_to_gsid(u, prefix, ns) AS g FROM gsid_cases) s;

-- Within one prefix and namespace, GSID text sorts like the ULID under COLLATE "C"
SELECT bool_and(a = b) AS sorts_like_ulid
FROM (SELECT row_number() OVER (ORDER BY ulid_to_gsid(u, 'usr', 7) COLLATE "C") AS a,
             row_number() OVER (ORDER BY u) AS b
      FROM (SELECT DISTINCT u FROM gsid_cases) d) s;

-- gen_gsid: a fresh GSID of now, increasing within the session
SELECT gsid_prefix(g) AS prefix, gsid_namespace(g) AS namespace,
       ulid_time(gsid_to_ulid(g)) BETWEEN now() - interval '1 minute' AND clock_timestamp() AS is_now
FROM (SELECT gen_gsid('usr', 42) AS g) s;
SELECT bool_and(a < b) AS increasing
FROM (SELECT gsid_to_ulid(g) AS a, lead(gsid_to_ulid(g)) OVER (ORDER BY n) AS b
      FROM (SELECT n, gen_gsid('ord', 1) AS g FROM generate_series(1, 1000) n) s) t
WHERE b IS NOT NULL;
SELECT count(DISTINCT gen_gsid('usr', 1)) AS distinct_in_one_statement FROM generate_series(1, 100);

-- Malformed text and out-of-range values, one per line
SELECT v AS input, err(format('SELECT gsid_to_ulid(%L)', v)) AS error
FROM (VALUES
    (''),
    ('_'),
    ('usr_'),
    ('0UfgmdjM46GLys2pzvVCof2nyJ8Y'),                 -- no prefix, no separator
    ('_0UfgmdjM46GLys2pzvVCof2nyJ8Y'),                -- empty prefix
    ('Usr_0UfgmdjM46GLys2pzvVCof2nyJ8Y'),             -- uppercase prefix
    ('u2r_0UfgmdjM46GLys2pzvVCof2nyJ8Y'),
    ('us_r_0UfgmdjM46GLys2pzvVCof2nyJ8Y'),            -- split at the last _: prefix us_r
    ('usé_0UfgmdjM46GLys2pzvVCof2nyJ8Y'),
    (' usr_0UfgmdjM46GLys2pzvVCof2nyJ8Y'),
    (repeat('a', 64) || '_0UfgmdjM46GLys2pzvVCof2nyJ8Y'),
    ('usr_0UfgmdjM46GLys2pzvVCof2nyJ8'),              -- 27 characters
    ('usr_0UfgmdjM46GLys2pzvVCof2nyJ8YY'),            -- 29 characters
    ('usr_0UfgmdjM46GLys2pzvVCof2nyJ8 '),
    ('usr_0UfgmdjM46GLys2pzvVCof2n-J8Y'),
    ('usr_0UfgmdjM46GLys2pzvVCof2nyJ8é'),
    ('usr_01JPHM2B0RF0YRM2H2C0VAG3WE'),              -- a TypeID-shaped value
    ('usr_0UfgmdjM4gfFC32pzvVCof2nyJ8Y'),             -- namespace 2^32 - 1: fine
    ('usr_0UfgmdjM4gfFC42pzvVCof2nyJ8Y'),             -- namespace 2^32
    ('usr_0UfgmdjMzzzzzz2pzvVCof2nyJ8Y'),
    ('usr_0UfgmdjM46GLys62iEp5bu9VZbsV'),             -- randomness 2^80 - 1: fine
    ('usr_0UfgmdjM46GLys62iEp5bu9VZbsW'),             -- randomness 2^80
    ('usr_0UfgmdjM46GLyszzzzzzzzzzzzzz'),
    ('usr_zzzzzzzzzzzzzzzzzzzzzzzzzzz!')              -- a bad character before any overflow
) t(v);
-- gsid_prefix and gsid_namespace check the whole GSID too, and name themselves
SELECT err('SELECT gsid_prefix(''usr_0UfgmdjM4gfFC42pzvVCof2nyJ8Y'')') AS prefix_of_bad,
       err('SELECT gsid_namespace(''usr_x'')') AS namespace_of_bad;
SELECT hint('SELECT gsid_to_ulid(''x'')') AS hint;

-- Encoding: bad prefixes (22023), namespaces and times out of range (22003)
SELECT c AS call, err('SELECT ' || c) AS result
FROM (VALUES
    ('ulid_to_gsid(''01JPHM2B0RF0YRM2H2C0VAG3WE'', '''', 1)'),
    ('ulid_to_gsid(''01JPHM2B0RF0YRM2H2C0VAG3WE'', ''Usr'', 1)'),
    ('ulid_to_gsid(''01JPHM2B0RF0YRM2H2C0VAG3WE'', ''us_r'', 1)'),
    ('ulid_to_gsid(''01JPHM2B0RF0YRM2H2C0VAG3WE'', ''usé'', 1)'),
    ('ulid_to_gsid(''01JPHM2B0RF0YRM2H2C0VAG3WE'', repeat(''a'', 64), 1)'),
    ('ulid_to_gsid(''01JPHM2B0RF0YRM2H2C0VAG3WE'', ''usr'', -1)'),
    ('ulid_to_gsid(''01JPHM2B0RF0YRM2H2C0VAG3WE'', ''usr'', 4294967296)'),
    ('ulid_to_gsid(ulid_from_parts(218340105584896, ''\x00000000000000000000''), ''usr'', 1)'),
    ('ulid_to_gsid(''7ZZZZZZZZZZZZZZZZZZZZZZZZZ'', ''usr'', 1)'),
    ('gen_gsid(''USR'', 1)'),
    ('gen_gsid(''usr'', 4294967296)')
) t(c);
SELECT hint('SELECT ulid_to_gsid(''01JPHM2B0RF0YRM2H2C0VAG3WE'', ''u1'', 1)') AS prefix_hint;
