-- ulid_parse / ulid_try_parse (SPEC section 2): every text form of a ULID,
-- told apart by shape.

-- One ULID in every form
SELECT v AS input, ulid_parse(v) AS parsed, ulid_try_parse(v) AS tried
FROM (VALUES
    ('01JPHM2B0RF0YRM2H2C0VAG3WE'),                -- canonical
    ('01jphm2b0rf0yrm2h2c0vag3we'),                -- any case
    ('01JpHm2b0Rf0yRm2H2c0vAg3wE'),
    ('0195a341-2c18-783d-8a0a-226036a80f8e'),      -- UUID, as uuid_in reads it
    ('0195A341-2C18-783D-8A0A-226036A80F8E'),
    ('0195a3412c18783d8a0a226036a80f8e'),
    ('{0195a341-2c18-783d-8a0a-226036a80f8e}'),
    ('0195-a341-2c18-783d-8a0a-2260-36a8-0f8e'),
    ('{0195a341-2c18783d-8a0a2260-36a80f8e}'),
    ('02zNN0Sv7pLkZf079ZARhu'),                    -- Base62
    ('user_01jphm2b0rf0yrm2h2c0vag3we'),           -- TypeID
    ('pre_fix_01jphm2b0rf0yrm2h2c0vag3we'),
    ('usr_0UfgmdjM46GLys2pzvVCof2nyJ8Y')           -- GSID
) t(v);

-- Every form of random ULIDs parses back, and agrees with the uuid type
SELECT count(*) FILTER (WHERE ulid_parse(u::text) <> u) AS canonical,
       count(*) FILTER (WHERE ulid_parse(lower(u::text)) <> u) AS lowercase,
       count(*) FILTER (WHERE ulid_parse(u::uuid::text) <> u) AS uuid,
       count(*) FILTER (WHERE ulid_parse(replace(u::uuid::text, '-', '')) <> u) AS uuid_bare,
       count(*) FILTER (WHERE ulid_parse(ulid_to_base62(u)) <> u) AS base62,
       count(*) FILTER (WHERE ulid_parse(ulid_to_typeid(u, 'user')) <> u) AS typeid,
       count(*) FILTER (WHERE ulid_parse(ulid_to_typeid(u, '')) <> u) AS typeid_no_prefix,
       count(*) FILTER (WHERE ulid_parse(ulid_to_gsid(u, 'usr', 77)) <> u) AS gsid,
       count(*) FILTER (WHERE ulid_try_parse(ulid_to_gsid(u, 'usr', 77)) IS DISTINCT FROM u) AS try_gsid
FROM (SELECT gen_random_ulid() AS u FROM generate_series(1, 2000)) s;

-- UUID text: exactly what the uuid type accepts (compared with uuid_in)
CREATE FUNCTION pg_temp.uuid_ok(t text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    PERFORM t::uuid;
    RETURN true;
EXCEPTION WHEN invalid_text_representation THEN
    RETURN false;
END
$$;
SELECT v AS input, pg_temp.uuid_ok(v) AS uuid_accepts, ulid_try_parse(v) IS NOT NULL AS ulid_parse_accepts,
       ulid_try_parse(v)::uuid IS NOT DISTINCT FROM CASE WHEN pg_temp.uuid_ok(v) THEN v::uuid END AS same
FROM (VALUES
    ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'),
    ('A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'),
    ('{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}'),
    ('a0eebc999c0b4ef8bb6d6bb9bd380a11'),
    ('a0ee-bc99-9c0b-4ef8-bb6d-6bb9-bd38-0a11'),
    ('{a0eebc99-9c0b4ef8-bb6d6bb9-bd380a11}'),
    ('{a0eebc999c0b4ef8bb6d6bb9bd380a11}'),
    ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1'),
    ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11-'),
    ('-a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'),
    ('{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'),
    ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}'),
    ('a0eeb-c999c0b4ef8bb6d6bb9bd380a11'),
    ('a0eebc99--9c0b-4ef8-bb6d-6bb9bd380a11'),
    ('g0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'),
    ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11 '),
    (' a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'),
    ('a0eebc999c0b4ef8bb6d6bb9bd380a1111'),
    ('{{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}}'),
    ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd3-80a11')
) t(v);

-- Malformed text, one per line: the detail says what is wrong for the form
-- the shape selects
SELECT v AS input, err(format('SELECT ulid_parse(%L)', v)) AS error, ulid_try_parse(v) AS tried
FROM (VALUES
    (''),
    ('0'),
    ('hello'),
    ('01JPHM2B0RF0YRM2H2C0VAG3W'),                 -- 25 characters
    ('01JPHM2B0RF0YRM2H2C0VAG3WEE'),               -- 27 characters
    ('01JPHM2B0RF0YRM2H2C0VAG3WU'),                -- ULID shape, bad character
    ('01JPHM2B0RF0YRM2H2C0VAG3Wé'),                -- non-ASCII
    ('81JPHM2B0RF0YRM2H2C0VAG3WE'),                -- ULID overflow (22003)
    ('02zNN0Sv7pLkZf079ZARh!'),
    ('zzzzzzzzzzzzzzzzzzzzzz'),                    -- Base62 overflow (22003)
    ('0195a341-2c18-783d-8a0a-226036a80f8'),
    ('{0195a341-2c18-783d-8a0a-226036a80f8e'),
    ('0195a341-2c18-783d-8a0a-226036a80f8g'),
    ('user_01JPHM2B0RF0YRM2H2C0VAG3WE'),           -- TypeID suffix must be lowercase
    ('User_01jphm2b0rf0yrm2h2c0vag3we'),
    ('_01jphm2b0rf0yrm2h2c0vag3we'),
    ('user_81jphm2b0rf0yrm2h2c0vag3we'),           -- TypeID overflow (22003)
    ('us_r_0UfgmdjM46GLys2pzvVCof2nyJ8Y'),
    ('usr_0UfgmdjMzzzzzz2pzvVCof2nyJ8Y'),           -- GSID namespace overflow (22003)
    ('usr_0UfgmdjM46GLys2pzvVCof2nyJ8'),           -- 27 after the _
    ('usr_'),
    ('_')
) t(v);
SELECT hint('SELECT ulid_parse(''hello'')') AS hint_no_form,
       hint('SELECT ulid_parse(''user_01JPHM2B0RF0YRM2H2C0VAG3WE'')') = hint('SELECT ulid_parse(''hello'')') AS same_hint_for_every_form;

-- NULL in, NULL out
SELECT ulid_parse(NULL) IS NULL AS parse_null, ulid_try_parse(NULL) IS NULL AS try_null;

-- An API that takes any form and stores the 16-byte ulid
CREATE TEMP TABLE api_users (id ulid PRIMARY KEY, name text);
INSERT INTO api_users VALUES ('01JPHM2B0RF0YRM2H2C0VAG3WE', 'ada');
SELECT v AS request_id, (SELECT name FROM api_users WHERE id = ulid_try_parse(v)) AS found
FROM (VALUES ('usr_0UfgmdjM46GLys2pzvVCof2nyJ8Y'), ('user_01jphm2b0rf0yrm2h2c0vag3we'),
             ('0195a341-2c18-783d-8a0a-226036a80f8e'), ('01jphm2b0rf0yrm2h2c0vag3we'),
             ('not an id')) t(v);
