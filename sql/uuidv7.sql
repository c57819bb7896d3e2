-- UUIDv7 and spec TypeIDs (SPEC section 4): gen_uuidv7(), gen_uuidv7(at),
-- gen_typeid(prefix).  The clock stepping back is test/scenarios/uuidv7.sh;
-- the carries of the step at every overflow are test/unit/test_uuidv7.c.
SET TimeZone = 'UTC';

-- v7_hi(u): the first 64 bits (ms << 16 | version << 12 | fraction);
-- v7_tick(u): ms * 4096 + fraction; v7_variant(u): the top 2 bits of byte 8
CREATE FUNCTION pg_temp.v7_hi(u uuid) RETURNS bigint LANGUAGE sql IMMUTABLE
    AS $$ SELECT ('x' || substr(replace(u::text, '-', ''), 1, 16))::bit(64)::bigint $$;
CREATE FUNCTION pg_temp.v7_tick(u uuid) RETURNS bigint LANGUAGE sql IMMUTABLE
    AS $$ SELECT (pg_temp.v7_hi(u) >> 16) * 4096 + (pg_temp.v7_hi(u) & 4095) $$;
CREATE FUNCTION pg_temp.v7_version(u uuid) RETURNS int LANGUAGE sql IMMUTABLE
    AS $$ SELECT ((pg_temp.v7_hi(u) >> 12) & 15)::int $$;
CREATE FUNCTION pg_temp.v7_variant(u uuid) RETURNS int LANGUAGE sql IMMUTABLE
    AS $$ SELECT get_byte(uuid_send(u), 8) >> 6 $$;

-- 1M values in one session: each has version 7 and the RFC variant, each is
-- above the one before (across many millisecond and fraction boundaries),
-- and their times are the session's clock
CREATE TEMP TABLE v7 AS
SELECT g, gen_uuidv7() AS u, clock_timestamp() AS t0 FROM generate_series(1, 1000000) g;
SELECT count(*) AS ids, count(DISTINCT u) AS distinct_ids,
       count(*) FILTER (WHERE pg_temp.v7_version(u) <> 7) AS not_version_7,
       count(*) FILTER (WHERE pg_temp.v7_variant(u) <> 2) AS not_rfc_variant,
       count(*) FILTER (WHERE u <= prev) AS not_increasing,
       count(DISTINCT ulid_unix_ms(u::ulid)) > 10 AS many_milliseconds,
       count(DISTINCT pg_temp.v7_tick(u)) > 10000 AS many_fractions
FROM (SELECT u, lag(u) OVER (ORDER BY g) AS prev FROM v7) s;

-- the fraction is the clock's: the time to 1/4096 ms, floored to the
-- microsecond, is at most the clock read right after the id (t0) and not
-- far before it
SELECT count(*) FILTER (WHERE x > t0) AS after_the_clock,
       count(*) FILTER (WHERE x < t0 - interval '1 s') AS far_behind,
       count(*) FILTER (WHERE ulid_time(u::ulid) <> date_trunc('milliseconds', x)) AS ms_mismatch
FROM (SELECT u, t0, to_timestamp(0) + (pg_temp.v7_tick(u) * 1000 / 4096) * interval '1 us' AS x FROM v7) s;

-- a value on a tick later than the previous one's (most values: a call
-- with its row takes about 1/4096 ms) starts with the top bit of its 62-bit
-- tail clear, leaving room for 2^15 steps (the steps on one tick are in
-- test/scenarios/uuidv7.sh, with the clock behind)
SELECT count(*) > 10000 AS many_new_ticks, bool_and(get_byte(uuid_send(u), 8) & 32 = 0) AS new_tick_top_bit_clear
FROM (SELECT u, lag(u) OVER (ORDER BY g) AS prev FROM v7) s
WHERE prev IS NULL OR pg_temp.v7_tick(u) > pg_temp.v7_tick(prev);
DROP TABLE v7;

-- ... and across statements and with gen_typeid() between: one order
CREATE TEMP TABLE v7_t (n serial, u uuid DEFAULT gen_uuidv7());
INSERT INTO v7_t DEFAULT VALUES;
INSERT INTO v7_t (u) SELECT typeid_to_ulid(gen_typeid('x'))::uuid;
INSERT INTO v7_t DEFAULT VALUES;
INSERT INTO v7_t (u) SELECT CASE WHEN g % 2 = 0 THEN gen_uuidv7() ELSE typeid_to_ulid(gen_typeid(''))::uuid END
FROM generate_series(1, 1000) g;
SELECT count(*) AS ids, count(*) FILTER (WHERE u <= prev) AS not_increasing
FROM (SELECT u, lag(u) OVER (ORDER BY n) AS prev FROM v7_t) s;
DROP TABLE v7_t;

-- every UUIDv7 is a ULID of its millisecond: the casts round-trip, and ulid
-- order is uuid order
SELECT bool_and((u::ulid)::uuid = u AND ulid_unix_ms(u::ulid) = pg_temp.v7_hi(u) >> 16) AS casts_round_trip,
       array_agg(u ORDER BY u) = array_agg(u ORDER BY u::ulid) AS same_order
FROM (SELECT gen_uuidv7() AS u FROM generate_series(1, 10000)) s;

-- gen_uuidv7(at): the given time to the microsecond (fraction
-- floor(123 us * 4096 / 1000) = 503), random, and leaves gen_uuidv7()'s order alone
SELECT ulid_time(u::ulid) AS back_filled, pg_temp.v7_hi(u) & 4095 AS fraction,
       pg_temp.v7_version(u) AS version, pg_temp.v7_variant(u) AS variant
FROM gen_uuidv7('2001-02-03 04:05:06.789123Z') u;
SELECT count(DISTINCT u) AS distinct_at,
       count(DISTINCT get_byte(uuid_send(u), 8)) AS byte8_values,   -- 64: all 62 tail bits are random
       bool_and(pg_temp.v7_version(u) = 7 AND pg_temp.v7_variant(u) = 2) AS v7_bits
FROM (SELECT gen_uuidv7('2026-01-01Z') AS u FROM generate_series(1, 10000)) s;
SELECT ulid_time(gen_uuidv7('1970-01-01Z')::ulid) AS first_ms,
       ulid_time(gen_uuidv7('10889-08-02 05:31:50.655999Z')::ulid) AS last_ms,
       pg_temp.v7_hi(gen_uuidv7('10889-08-02 05:31:50.655999Z')) & 4095 AS last_fraction;
SELECT a < c AS order_kept_across_gen_uuidv7_at
FROM (SELECT gen_uuidv7() AS a) x, LATERAL (SELECT gen_uuidv7('1990-01-01Z') AS b) y,
     LATERAL (SELECT gen_uuidv7() AS c) z;
SELECT gen_uuidv7(NULL) IS NULL AS strict_at;
SELECT c AS call, err('SELECT ' || c) AS result
FROM (VALUES ($$gen_uuidv7('1969-12-31 23:59:59.999999Z')$$), ($$gen_uuidv7('10889-08-02 05:31:50.656Z')$$),
             ($$gen_uuidv7('infinity')$$), ($$gen_uuidv7('-infinity')$$)) v(c);

-- gen_typeid(prefix): prefix_ and the 26 characters of a UUIDv7 of now
SELECT t ~ '^user_[0-7][0-9a-hjkmnp-tv-z]{25}$' AS typeid_form,
       typeid_prefix(t) AS prefix,
       pg_temp.v7_version(typeid_to_ulid(t)::uuid) AS version,
       pg_temp.v7_variant(typeid_to_ulid(t)::uuid) AS variant,
       ulid_time(typeid_to_ulid(t)) BETWEEN date_trunc('milliseconds', t0) AND clock_timestamp() AS time_now
FROM (SELECT clock_timestamp() AS t0) a, LATERAL (SELECT gen_typeid('user') AS t) b;
SELECT t ~ '^[0-7][0-9a-hjkmnp-tv-z]{25}$' AS no_prefix_no_separator, typeid_prefix(t) = '' AS empty_prefix
FROM gen_typeid('') t;
-- in C collation the text sorts like the ids, which all carry version 7
SELECT array_agg(t ORDER BY t COLLATE "C") = array_agg(t ORDER BY g) AS text_order,
       bool_and(pg_temp.v7_version(typeid_to_ulid(t)::uuid) = 7) AS all_version_7
FROM (SELECT g, gen_typeid('order_item') AS t FROM generate_series(1, 10000) g) s;
SELECT gen_typeid(NULL) IS NULL AS strict_typeid;
-- the prefix is checked as ulid_to_typeid checks it (22023)
SELECT p AS prefix, err(format('SELECT gen_typeid(%L)', p)) AS error,
       err(format('SELECT ulid_to_typeid(%L, %L)', '01HTQW311N1KR5G0Y75M3EF00H', p)) =
       err(format('SELECT gen_typeid(%L)', p)) AS as_ulid_to_typeid
FROM (VALUES ('User'), ('_user'), ('user_'), ('us-er'), (repeat('a', 64))) v(p);
SELECT hint($$SELECT gen_typeid('User')$$) AS prefix_hint,
       hint($$SELECT gen_uuidv7('infinity')$$) AS at_hint;

-- PostgreSQL's own functions: uuid_extract_timestamp reads the time of
-- every value as ulid_time does on 18+ (on 17 it reads version 1 only and
-- returns NULL for every UUIDv7, core's included); on 18+ core uuidv7() made
-- side by side has the same layout (version, variant, a fraction of the same
-- clock) and both are strictly increasing.  Every test is IS TRUE, so that a
-- NULL fails it.
DO $$
DECLARE
    ok boolean;
BEGIN
    IF current_setting('server_version_num')::int >= 180000 THEN
        EXECUTE $q$SELECT bool_and(uuid_extract_timestamp(u) = ulid_time(u::ulid))
                          AND bool_and(uuid_extract_timestamp(a) = '2001-02-03 04:05:06.789Z')
                   FROM (SELECT gen_uuidv7() AS u, gen_uuidv7('2001-02-03 04:05:06.789999Z') AS a
                         FROM generate_series(1, 100000)) s$q$ INTO ok;
        IF ok IS NOT TRUE THEN RAISE EXCEPTION 'uuid_extract_timestamp disagrees with ulid_time on gen_uuidv7()'; END IF;
    ELSIF current_setting('server_version_num')::int >= 170000 THEN
        EXECUTE $q$SELECT uuid_extract_timestamp(gen_uuidv7()) IS NULL
                          AND uuid_extract_version(gen_uuidv7()) = 7$q$ INTO ok;
        IF ok IS NOT TRUE THEN RAISE EXCEPTION 'PostgreSQL 17''s uuid_extract_timestamp now reads UUIDv7: test it as on 18'; END IF;
    END IF;
    IF current_setting('server_version_num')::int >= 180000 THEN
        EXECUTE $q$
        CREATE TEMP TABLE side AS
        SELECT g, gen_uuidv7() AS ours, uuidv7() AS core FROM generate_series(1, 200000) g$q$;
        EXECUTE $q$
        SELECT bool_and(pg_temp.v7_version(ours) = 7 AND pg_temp.v7_version(core) = 7
                        AND pg_temp.v7_variant(ours) = 2 AND pg_temp.v7_variant(core) = 2)
               AND count(*) FILTER (WHERE ours <= prev_ours) = 0
               AND count(*) FILTER (WHERE core <= prev_core) = 0
               -- core's value is made after ours on a clock at least as far on
               AND bool_and(pg_temp.v7_tick(core) >= pg_temp.v7_tick(ours))
               AND percentile_cont(0.5) WITHIN GROUP (ORDER BY pg_temp.v7_tick(core) - pg_temp.v7_tick(ours)) < 41
               AND bool_and(uuid_extract_timestamp(ours) = ulid_time(ours::ulid))
        FROM (SELECT ours, core, lag(ours) OVER (ORDER BY g) AS prev_ours,
                     lag(core) OVER (ORDER BY g) AS prev_core FROM side) s$q$ INTO ok;
        IF ok IS NOT TRUE THEN RAISE EXCEPTION 'gen_uuidv7() and core uuidv7() disagree on layout or order'; END IF;
        DROP TABLE side;
    END IF;
END
$$;
