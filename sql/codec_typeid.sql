-- TypeID v0.3 (SPEC section 4): prefix_ + 26 lowercase Crockford Base32
-- characters; no separator for an empty prefix.  A ULID's bits are not a
-- UUIDv7: typeid_to_ulid reads any 128 bits, as the spec allows.

-- The spec's valid cases (jetify-com/typeid spec/valid.yml): each decodes to
-- its prefix and UUID, and each UUID encodes back to the same text
SELECT name, typeid, typeid_prefix(typeid) = prefix AS prefix_ok,
       typeid_to_ulid(typeid)::uuid = uuid::uuid AS uuid_ok,
       ulid_to_typeid(uuid::uuid::ulid, prefix) = typeid AS encodes_back
FROM (VALUES
    ('nil', '00000000000000000000000000', '', '00000000-0000-0000-0000-000000000000'),
    ('one', '00000000000000000000000001', '', '00000000-0000-0000-0000-000000000001'),
    ('ten', '0000000000000000000000000a', '', '00000000-0000-0000-0000-00000000000a'),
    ('sixteen', '0000000000000000000000000g', '', '00000000-0000-0000-0000-000000000010'),
    ('thirty-two', '00000000000000000000000010', '', '00000000-0000-0000-0000-000000000020'),
    ('max-valid', '7zzzzzzzzzzzzzzzzzzzzzzzzz', '', 'ffffffff-ffff-ffff-ffff-ffffffffffff'),
    ('valid-alphabet', 'prefix_0123456789abcdefghjkmnpqrs', 'prefix', '0110c853-1d09-52d8-d73e-1194e95b5f19'),
    ('valid-uuidv7', 'prefix_01h455vb4pex5vsknk084sn02q', 'prefix', '01890a5d-ac96-774b-bcce-b302099a8057'),
    ('prefix-underscore', 'pre_fix_00000000000000000000000000', 'pre_fix', '00000000-0000-0000-0000-000000000000')
) t(name, typeid, prefix, uuid);

-- The spec's invalid cases (spec/invalid.yml), one per line
SELECT name, err(format('SELECT typeid_to_ulid(%L)', typeid)) AS error
FROM (VALUES
    ('prefix-uppercase', 'PREFIX_00000000000000000000000000'),
    ('prefix-numeric', '12345_00000000000000000000000000'),
    ('prefix-period', 'pre.fix_00000000000000000000000000'),
    ('prefix-non-ascii', 'préfix_00000000000000000000000000'),
    ('prefix-spaces', '  prefix_00000000000000000000000000'),
    ('prefix-64-chars', 'abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl_00000000000000000000000000'),
    ('separator-empty-prefix', '_00000000000000000000000000'),
    ('separator-empty', '_'),
    ('suffix-short', 'prefix_1234567890123456789012345'),
    ('suffix-long', 'prefix_123456789012345678901234567'),
    ('suffix-spaces', 'prefix_1234567890123456789012345 '),
    ('suffix-uppercase', 'prefix_0123456789ABCDEFGHJKMNPQRS'),
    ('suffix-hyphens', 'prefix_123456789-123456789-123456'),
    ('suffix-wrong-alphabet', 'prefix_ooooooiiiiiiuuuuuuulllllll'),
    ('suffix-ambiguous-crockford', 'prefix_i23456789ol23456789oi23456'),
    ('suffix-hyphens-crockford', 'prefix_123456789-0123456789-0123456'),
    ('suffix-overflow', 'prefix_8zzzzzzzzzzzzzzzzzzzzzzzzz'),
    ('prefix-underscore-start', '_prefix_00000000000000000000000000'),
    ('prefix-underscore-end', 'prefix__00000000000000000000000000'),
    -- beyond the spec's list
    ('empty', ''),
    ('prefix-only', 'prefix_'),
    ('suffix-uppercase-no-prefix', '01JPHM2B0RF0YRM2H2C0VAG3WE'),
    ('suffix-multibyte', 'user_01jphm2b0rf0yrm2h2c0vag3wé'),
    ('gsid', 'usr_0UfgmdjM46GLys2pzvVCof2nyJ8Y')
) t(name, typeid);
-- typeid_prefix checks the whole TypeID too
SELECT err('SELECT typeid_prefix(''prefix_8zzzzzzzzzzzzzzzzzzzzzzzzz'')') AS prefix_of_overflow,
       typeid_prefix('01jphm2b0rf0yrm2h2c0vag3we') = '' AS empty_prefix;
SELECT hint('SELECT typeid_to_ulid(''x'')') AS hint;

-- Encoding: the suffix is the ULID's text in lowercase
SELECT ulid_to_typeid('01JPHM2B0RF0YRM2H2C0VAG3WE', 'user') AS with_prefix,
       ulid_to_typeid('01JPHM2B0RF0YRM2H2C0VAG3WE', '') AS without_prefix,
       ulid_to_typeid('01JPHM2B0RF0YRM2H2C0VAG3WE', 'a_b') AS inner_underscore,
       ulid_to_typeid('7ZZZZZZZZZZZZZZZZZZZZZZZZZ', repeat('z', 63)) AS longest;
SELECT c AS call, err('SELECT ' || c) AS result
FROM (VALUES
    ('ulid_to_typeid(''01JPHM2B0RF0YRM2H2C0VAG3WE'', ''User'')'),
    ('ulid_to_typeid(''01JPHM2B0RF0YRM2H2C0VAG3WE'', ''_user'')'),
    ('ulid_to_typeid(''01JPHM2B0RF0YRM2H2C0VAG3WE'', ''user_'')'),
    ('ulid_to_typeid(''01JPHM2B0RF0YRM2H2C0VAG3WE'', ''_'')'),
    ('ulid_to_typeid(''01JPHM2B0RF0YRM2H2C0VAG3WE'', ''us3r'')'),
    ('ulid_to_typeid(''01JPHM2B0RF0YRM2H2C0VAG3WE'', ''usér'')'),
    ('ulid_to_typeid(''01JPHM2B0RF0YRM2H2C0VAG3WE'', repeat(''a'', 64))')
) t(c);
SELECT hint('SELECT ulid_to_typeid(''01JPHM2B0RF0YRM2H2C0VAG3WE'', ''A'')') AS prefix_hint;

-- Round trips both ways over many ULIDs and prefixes
CREATE TEMP TABLE typeid_cases AS
SELECT gen_random_ulid() AS u,
       CASE i % 4 WHEN 0 THEN '' WHEN 1 THEN 'user' WHEN 2 THEN 'a_b_c'
            ELSE substr('abcdefghijklmnopqrstuvwxyz', 1 + i % 26) END AS prefix
FROM generate_series(1, 3000) i
UNION ALL
SELECT ('\x' || lpad(to_hex(i), 32, '0'))::bytea::ulid, 'x' FROM generate_series(0, 300) i;
SELECT count(*) FILTER (WHERE typeid_to_ulid(t) <> u) AS ulid_failures,
       count(*) FILTER (WHERE typeid_prefix(t) <> prefix) AS prefix_failures,
       count(*) FILTER (WHERE ulid_to_typeid(typeid_to_ulid(t), typeid_prefix(t)) <> t) AS text_failures,
       count(*) FILTER (WHERE right(t, 26) <> lower(u::text)) AS suffix_not_lower_ulid
FROM (SELECT *, ulid_to_typeid(u, prefix) AS t FROM typeid_cases) s;

-- Within one prefix, TypeID text sorts like the ULID under COLLATE "C"
SELECT bool_and(a = b) AS sorts_like_ulid
FROM (SELECT row_number() OVER (ORDER BY ulid_to_typeid(u, 'user') COLLATE "C") AS a,
             row_number() OVER (ORDER BY u) AS b
      FROM (SELECT DISTINCT u FROM typeid_cases) d) s;

-- A ULID is not a UUIDv7: its version and variant bits are whatever the
-- time and randomness make them (here version 0, variant nibble 5)
SELECT ulid_to_typeid('01HTQW311N1KR5G0Y75M3EF00H', 'user') AS typeid,
       '01HTQW311N1KR5G0Y75M3EF00H'::ulid::uuid AS as_uuid,
       substr('01HTQW311N1KR5G0Y75M3EF00H'::ulid::uuid::text, 15, 1) AS version_nibble,
       substr('01HTQW311N1KR5G0Y75M3EF00H'::ulid::uuid::text, 20, 1) AS variant_nibble;
