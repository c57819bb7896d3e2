-- Text input and output of the ulid type (SPEC section 1).

-- The seed's worked example: 1712345678901 ms, bytes [12,240,88,3,199,45,6,231,128,17]
SELECT ulid_from_parts(1712345678901, '\x0cf05803c72d06e78011') AS seed_example;
SELECT '01HTQW311N1KR5G0Y75M3EF00H'::ulid = ulid_from_parts(1712345678901, '\x0cf05803c72d06e78011') AS same;
SELECT ulid_send('01HTQW311N1KR5G0Y75M3EF00H') AS raw_bytes;

-- Case-insensitive input, uppercase output; the extremes
SELECT '01htqw311n1kr5g0y75m3ef00h'::ulid AS lower_in,
       '01HtQw311N1kR5G0y75M3eF00h'::ulid AS mixed_in;
SELECT '00000000000000000000000000'::ulid AS min_ulid,
       '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'::ulid AS max_ulid,
       ulid_send('7ZZZZZZZZZZZZZZZZZZZZZZZZZ') AS max_bytes;

-- Round trip through text for many generated values
SELECT count(*) AS round_trip_failures
FROM (SELECT gen_random_ulid() AS u FROM generate_series(1, 10000)) s
WHERE u::text::ulid <> u OR length(u::text) <> 26 OR u::text <> upper(u::text);

-- Malformed literals, one per line, each with its SQLSTATE, message and detail.
-- Checks run in SPEC order: length, then the first bad character, then overflow.
SELECT v AS input, err(format('SELECT %L::ulid', v)) AS error
FROM (VALUES
    (''),
    ('0'),
    ('01HTQW311N1KR5G0Y75M3EF00'),          -- 25 characters
    ('01HTQW311N1KR5G0Y75M3EF00HH'),        -- 27 characters
    (' 01HTQW311N1KR5G0Y75M3EF00H'),        -- leading space changes the length
    ('01HTQW311N1KR5G0Y75M3EF00H '),
    ('01HTQW311N1KR5G0Y75M3EF0 H'),         -- inner space
    ('01HTQW31-1N1KR5G0Y75M3EF0H'),         -- hyphen
    ('01HTQW311I1KR5G0Y75M3EF00H'),         -- I is not an alias of 1
    ('01HTQW311L1KR5G0Y75M3EF00H'),         -- L is not an alias of 1
    ('01HTQW311O1KR5G0Y75M3EF00H'),         -- O is not an alias of 0
    ('01HTQW311U1KR5G0Y75M3EF00H'),         -- U is excluded
    ('01htqw311n1kr5g0y75m3ef00u'),         -- lowercase u too
    ('01HTQW311N1KR5G0Y75M3EF00é'),         -- a multibyte character, named whole
    ('01HTQW311N1KR5G0Y75M3EF0€H'),         -- 26 characters, 28 bytes
    ('01HTQW311N1KR5G0Y75M3EF00€'),         -- 26 characters, the last one bad
    ('0123456789abcdefghjkmnpqrs'),         -- 26 valid characters: fine
    ('01HTQW311N1KR5G0Y75M3EF00!'),
    ('{1HTQW311N1KR5G0Y75M3EF00H'),
    ('81HTQW311N1KR5G0Y75M3EF00H'),         -- overflow: first character above 7
    ('ZZZZZZZZZZZZZZZZZZZZZZZZZZ'),
    ('8ZZZZZZZZZZZZZZZZZZZZZZZZU'),         -- bad character reported before overflow
    ('01HTQW311N1KR5G0-Y75M3EF00H'),        -- hyphenated: wrong length
    ('01b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d') -- a UUID is not ULID text
) t(v);

-- The hints say how to fix it
SELECT hint($$SELECT 'abc'::ulid$$) AS length_hint;
SELECT hint($$SELECT '81HTQW311N1KR5G0Y75M3EF00H'::ulid$$) AS overflow_hint;

-- UUID text, exactly as uuid_in reads it (32 hex digits in any case, a
-- hyphen allowed after any group of four but the last, optional braces),
-- is still 22P02 (the length comes first), with a hint naming the two ways
-- in; everything else keeps the Base32 hint.  is_uuid: uuid_in's verdict.
SELECT v AS input, length(v) AS len,
       err(format('SELECT %L::uuid', v)) LIKE 'ok:%' AS is_uuid,
       split_part(err(format('SELECT %L::ulid', v)), ':', 1) AS sqlstate,
       hint(format('SELECT %L::ulid', v)) AS hint
FROM (VALUES
    ('018eafc1-8435-0cf0-5803-c72d06e78011'),       -- 36: the canonical form
    ('018EAFC1-8435-0CF0-5803-C72D06E78011'),       -- upper case
    ('018eafc184350cf05803c72d06e78011'),           -- 32: bare hex
    ('{018eafc1-8435-0cf0-5803-c72d06e78011}'),     -- 38: braces
    ('{018eafc184350cf05803c72d06e78011}'),         -- 34: braces, no hyphens
    ('018e-afc1-8435-0cf0-5803-c72d-06e7-8011'),    -- 39: a hyphen after every group
    ('018eafc1-8435-0cf0-5803-c72d06e7801x'),       -- 36, not hex
    ('018eafc18-435-0cf0-5803-c72d06e78011'),       -- 36, a hyphen inside a group
    ('018eafc1-8435-0cf0-5803-c72d06e7801-'),       -- 36, a trailing hyphen
    ('{018eafc1-8435-0cf0-5803-c72d06e78011'),      -- 37, an unclosed brace
    ('018eafc1-8435-0cf0-5803-c72d06e78011}'),      -- 37, a closing brace only
    (' 018eafc1-8435-0cf0-5803-c72d06e78011'),      -- 37, a leading space
    ('018eafc184350cf05803c72d06e7801'),            -- 31 hex digits
    ('018eafc184350cf05803c72d06e780112')           -- 33 hex digits
) t(v);
SELECT err($$SELECT '{018eafc1-8435-0cf0-5803-c72d06e78011}'::ulid$$) AS braces_error;
-- both ways the hint names work
SELECT '018eafc1-8435-0cf0-5803-c72d06e78011'::uuid::ulid AS via_uuid,
       ulid_parse('018eafc1-8435-0cf0-5803-c72d06e78011') AS via_ulid_parse,
       ulid_parse('{018eafc184350cf05803c72d06e78011}') AS braces_via_ulid_parse;

-- Soft errors (PostgreSQL 16+): pg_input_is_valid and pg_input_error_info
DO $$
DECLARE
    v boolean;
    st text;
BEGIN
    IF current_setting('server_version_num')::int >= 160000 THEN
        EXECUTE $q$SELECT pg_input_is_valid('01HTQW311N1KR5G0Y75M3EF00H', 'ulid')$q$ INTO v;
        IF v IS NOT TRUE THEN RAISE EXCEPTION 'valid ULID reported invalid'; END IF;
        EXECUTE $q$SELECT pg_input_is_valid('01HTQW311N1KR5G0Y75M3EF00U', 'ulid')$q$ INTO v;
        IF v IS NOT FALSE THEN RAISE EXCEPTION 'invalid ULID reported valid'; END IF;
        EXECUTE $q$SELECT sql_error_code FROM pg_input_error_info('81HTQW311N1KR5G0Y75M3EF00H', 'ulid')$q$ INTO st;
        IF st IS DISTINCT FROM '22003' THEN RAISE EXCEPTION 'overflow soft error has SQLSTATE %', st; END IF;
        EXECUTE $q$SELECT sql_error_code FROM pg_input_error_info('short', 'ulid')$q$ INTO st;
        IF st IS DISTINCT FROM '22P02' THEN RAISE EXCEPTION 'length soft error has SQLSTATE %', st; END IF;
        -- UUID text: a soft error too, with the UUID hint
        EXECUTE $q$SELECT sql_error_code || ' ' || hint
                   FROM pg_input_error_info('018eafc1-8435-0cf0-5803-c72d06e78011', 'ulid')$q$ INTO st;
        IF st IS DISTINCT FROM '22P02 This is a UUID: convert it with ''018eafc1-8435-0cf0-5803-c72d06e78011''::uuid::ulid or ulid_parse(''018eafc1-8435-0cf0-5803-c72d06e78011'').' THEN
            RAISE EXCEPTION 'UUID text soft error: %', st;
        END IF;
    END IF;
END
$$;

-- Binary send/recv are the raw 16 bytes
SELECT ulid_send(u) = ulid_to_bytea(u) AS send_is_raw, length(ulid_send(u)) AS len
FROM (VALUES ('01HTQW311N1KR5G0Y75M3EF00H'::ulid)) t(u);

-- NULL handling
SELECT NULL::ulid AS null_ulid, ulid_out(NULL) IS NULL AS strict_out;
