-- Reading ULIDs back and building them (SPEC section 2).
SELECT ulid_time('01HTQW311N1KR5G0Y75M3EF00H') AS ts,
       ulid_unix_ms('01HTQW311N1KR5G0Y75M3EF00H') AS unix_ms,
       ulid_random('01HTQW311N1KR5G0Y75M3EF00H') AS randomness;
SELECT * FROM ulid_parts('01HTQW311N1KR5G0Y75M3EF00H');
SELECT (ulid_parts('7ZZZZZZZZZZZZZZZZZZZZZZZZZ')).*;
SELECT (ulid_parts('00000000000000000000000000')).*;

-- ulid_time is exact to the millisecond, across the whole range
SELECT ulid_time(ulid_from_parts(ms, '\x00000000000000000000')) AS ts,
       ulid_unix_ms(ulid_from_parts(ms, '\x00000000000000000000')) = ms AS exact
FROM (VALUES (0::bigint), (1), (999), (1000), (946684800000), (1712345678901),
             (253402300799999), (281474976710655)) t(ms);

-- ulid_from_parts edges
SELECT ulid_from_parts(0, '\x00000000000000000000') AS zero,
       ulid_from_parts(281474976710655, '\xffffffffffffffffffff') AS max;
SELECT err($$SELECT ulid_from_parts(281474976710656, '\x00000000000000000000')$$) AS two_to_48;
SELECT err($$SELECT ulid_from_parts(-1, '\x00000000000000000000')$$) AS negative;
SELECT err($$SELECT ulid_from_parts(0, '\x000000000000000000')$$) AS nine_bytes;
SELECT err($$SELECT ulid_from_parts(0, '\x0000000000000000000000')$$) AS eleven_bytes;
SELECT ulid_from_parts(NULL, '\x00000000000000000000') IS NULL AS strict;

-- ulid_lower / ulid_upper bound one millisecond
SELECT ulid_lower('2024-04-05 19:34:38.901Z') AS lower,
       ulid_upper('2024-04-05 19:34:38.901Z') AS upper,
       ulid_lower('2024-04-05 19:34:38.9019Z') = ulid_lower('2024-04-05 19:34:38.901Z') AS floors_us;
SELECT ulid_lower(ts) <= u AND u <= ulid_upper(ts) AS inside
FROM (SELECT '01HTQW311N1KR5G0Y75M3EF00H'::ulid AS u, '2024-04-05 19:34:38.901Z'::timestamptz AS ts) s;
SELECT ulid_lower('1970-01-01 00:00:00Z') AS epoch,
       ulid_upper('10889-08-02 05:31:50.655Z') AS last_ms;
-- a bare date means midnight in the session's time zone
SET timezone = 'America/New_York';
SELECT ulid_time(ulid_lower('2026-01-01')) AS local_midnight;
RESET timezone;

-- times outside the range, and infinity: 22008
SELECT v AS input, err(format('SELECT ulid_lower(%L::timestamptz)', v)) AS error
FROM (VALUES ('1969-12-31 23:59:59.999Z'), ('10889-08-02 05:31:50.656Z'),
             ('infinity'), ('-infinity')) t(v);
SELECT err($$SELECT ulid_upper('infinity')$$) AS upper_infinity;
SELECT err($$SELECT gen_ulid('1960-01-01Z')$$) AS gen_before_1970;
SELECT err($$SELECT gen_ulid('infinity')$$) AS gen_infinity;
SELECT hint($$SELECT ulid_lower('infinity')$$) AS hint;
