-- Drop-in names (SPEC section 4): PostgreSQL 18's uuidv7(), uuidv7(shift),
-- uuidv4(), uuid_extract_timestamp(), uuid_extract_version(); pg_uuidv7
-- 1.6's five functions; uuidv7_time/lower/upper for uuid columns.
--
-- The extension's functions are created on every major (sql/ulid.sql says
-- why); where core has the name (17: uuid_extract_*; 18+: all five) an
-- unqualified call is core's.  So the values below are asserted with
-- public (the extension's schema) searched before pg_catalog: the
-- extension's functions on every major, one expected output.  The last
-- part compares them with core's where core has them (the 18 run of
-- test/compat.sh), with the normal search_path.
SET TimeZone = 'UTC';
SET datestyle = 'ISO';
SET search_path = public, pg_catalog;

-- hi(u): the first 64 bits; version(u), variant(u) as RFC 9562 has them
CREATE FUNCTION pg_temp.hi(u uuid) RETURNS bigint LANGUAGE sql IMMUTABLE
    AS $$ SELECT ('x' || substr(replace(u::text, '-', ''), 1, 16))::bit(64)::bigint $$;
CREATE FUNCTION pg_temp.version(u uuid) RETURNS int LANGUAGE sql IMMUTABLE
    AS $$ SELECT get_byte(uuid_send(u), 6) >> 4 $$;
CREATE FUNCTION pg_temp.variant(u uuid) RETURNS int LANGUAGE sql IMMUTABLE
    AS $$ SELECT get_byte(uuid_send(u), 8) >> 6 $$;

-----------------------------------------------------------------------------
-- Which function an unqualified call reaches (the normal search_path)
-----------------------------------------------------------------------------
SET search_path = public;
SELECT f AS function,
       p::regprocedure::oid = (CASE WHEN core_from <= current_setting('server_version_num')::int
                                    THEN 'pg_catalog.' ELSE 'public.' END || f)::regprocedure::oid AS resolves_as_expected
FROM (VALUES ('uuidv7()', 180000), ('uuidv7(interval)', 180000), ('uuidv4()', 180000),
             ('uuid_extract_timestamp(uuid)', 170000), ('uuid_extract_version(uuid)', 170000),
             ('uuid_generate_v7()', 1000000), ('uuid_v7_to_timestamptz(uuid)', 1000000),
             ('uuidv7_lower(timestamptz)', 1000000)) v(f, core_from),
     LATERAL to_regprocedure(f) p;
-- nothing the extension made lies in pg_catalog, and no two of its
-- functions share a name and arguments with a pg_catalog function but
-- those of PostgreSQL 17 and 18 listed above
SELECT count(*) AS in_pg_catalog
FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid
WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid') AND d.deptype = 'e'
  AND p.pronamespace = 'pg_catalog'::regnamespace;
SELECT f AS same_signature_as_core
FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid,
     LATERAL format('%s(%s)', p.proname, pg_get_function_identity_arguments(p.oid)) f
WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid') AND d.deptype = 'e'
  AND EXISTS (SELECT FROM pg_proc c WHERE c.pronamespace = 'pg_catalog'::regnamespace
              AND c.proname = p.proname AND c.proargtypes = p.proargtypes)
  AND f NOT IN ('uuidv7()', 'uuidv7(shift interval)', 'uuidv4()',
                'uuid_extract_timestamp(uuid)', 'uuid_extract_version(uuid)');
-- what pg_dump writes (it dumps with an empty search_path): before 18 a
-- view or column default calling uuidv7() names public.uuidv7(), which a
-- restore or pg_upgrade on 18+ finds because the extension creates it there
-- too; on 18+ it names core's
CREATE VIEW dropin_v AS SELECT uuidv7() AS a, uuid_extract_version(uuidv4()) AS b;
CREATE TABLE dropin_t (id uuid DEFAULT uuidv7());
SET search_path = '';
SELECT (pg_get_viewdef('public.dropin_v') LIKE '%public.uuidv7()%') = (current_setting('server_version_num')::int < 180000)
       AND (pg_get_viewdef('public.dropin_v') LIKE '%public.uuid_extract_version(public.uuidv4())%')
           = (current_setting('server_version_num')::int < 170000)
       AND (SELECT pg_get_expr(adbin, adrelid) FROM pg_catalog.pg_attrdef WHERE adrelid = 'public.dropin_t'::pg_catalog.regclass)
           = CASE WHEN current_setting('server_version_num')::int < 180000 THEN 'public.uuidv7()' ELSE 'uuidv7()' END
       AS dump_names_as_expected;
SET search_path = public;
DROP VIEW dropin_v;
DROP TABLE dropin_t;
-- the install script comments its own functions, never core's of the same
-- name (on 17/18+): each of the five has the extension's comment, and core's
-- functions of those names keep theirs (none names the extension)
SELECT f AS function, obj_description(('public.' || f)::regprocedure, 'pg_proc') LIKE 'PostgreSQL 18''s%' AS ours_commented,
       coalesce(obj_description(to_regprocedure('pg_catalog.' || f), 'pg_proc') NOT LIKE '%on every major%', true) AS core_untouched
FROM unnest(ARRAY['uuidv7()', 'uuidv7(interval)', 'uuidv4()', 'uuid_extract_timestamp(uuid)', 'uuid_extract_version(uuid)']) f;
SET search_path = public, pg_catalog;

-----------------------------------------------------------------------------
-- uuidv7() and uuid_generate_v7(): gen_uuidv7(), one order
-----------------------------------------------------------------------------
CREATE TEMP TABLE seq (n serial, u uuid);
INSERT INTO seq (u)
SELECT CASE g % 3 WHEN 0 THEN uuidv7() WHEN 1 THEN uuid_generate_v7() ELSE gen_uuidv7() END
FROM generate_series(1, 30000) g;
SELECT count(*) AS ids, count(DISTINCT u) AS distinct_ids,
       count(*) FILTER (WHERE u <= prev) AS not_increasing,
       bool_and(pg_temp.version(u) = 7 AND pg_temp.variant(u) = 2) AS v7_rfc_variant,
       bool_and(uuidv7_time(u) BETWEEN now() - interval '1 minute' AND clock_timestamp()) AS now
FROM (SELECT u, lag(u) OVER (ORDER BY n) AS prev FROM seq) s;
DROP TABLE seq;

-----------------------------------------------------------------------------
-- uuidv7(shift): the clock plus shift (timestamptz + interval, so days and
-- months follow TimeZone), a fraction of the millisecond, increasing for
-- one shift, and gen_uuidv7()'s order untouched
-----------------------------------------------------------------------------
-- (each row reads the clock before and after its own uuidv7(s): each
-- lateral names the one before it, so none is read once for all rows)
SELECT s AS shift,
       uuid_extract_timestamp(u) BETWEEN date_trunc('milliseconds', t0 + s) AND t1 + s AS at_now_plus_shift,
       pg_temp.version(u) = 7 AND pg_temp.variant(u) = 2 AS v7_rfc_variant
FROM (VALUES (interval '0'), ('1 hour'), ('-1 hour'), ('-2 days 3 ms'), ('1 month'),
             ('-50 years'), ('8000 years')) v(s),
     LATERAL (SELECT clock_timestamp() AS t0 WHERE s IS NOT NULL) a,
     LATERAL (SELECT uuidv7(s) AS u WHERE t0 IS NOT NULL) b,
     LATERAL (SELECT clock_timestamp() AS t1 WHERE u IS NOT NULL) c;
-- in a zone with daylight saving, months and days are added to the wall
-- time, as core's timestamptz + interval does (6 months on are an hour
-- apart from UTC's sum when they cross a change, as from December)
SET TimeZone = 'America/New_York';
SELECT uuid_extract_timestamp(uuidv7('6 months')) - date_trunc('milliseconds', now() + interval '6 months')
       BETWEEN interval '0' AND interval '1 minute' AS follows_timezone;
SET TimeZone = 'UTC';
SELECT count(*) FILTER (WHERE u <= prev) AS not_increasing_for_one_shift,
       bool_and(uuid_extract_timestamp(u) < now() - interval '59 minutes') AS all_shifted
FROM (SELECT g, u, lag(u) OVER (ORDER BY g) AS prev
      FROM (SELECT g, uuidv7('-1 hour') AS u FROM generate_series(1, 20000) g) x) s;
SELECT a < c AS gen_uuidv7_order_kept
FROM (SELECT gen_uuidv7() AS a) x, LATERAL (SELECT uuidv7('1 day') AS b) y,
     LATERAL (SELECT uuidv7() AS c) z;
-- the 62 bits after the variant are random
SELECT count(DISTINCT get_byte(uuid_send(u), 15)) AS last_byte_values
FROM (SELECT uuidv7('-1 year') AS u FROM generate_series(1, 10000)) s;
SELECT uuidv7(NULL) IS NULL AS strict;
-- (the time in the message is the clock's: shown as "...")
SELECT s AS shift, regexp_replace(err(format('SELECT uuidv7(%L::interval)', s)), '"[^"]*"', '"..."') AS result
FROM (VALUES ('-100 years'), ('9000 years'), ('100000000 days'), ('-300000 years')) v(s);
SELECT hint($$SELECT uuidv7('-100 years')$$) AS range_hint;
-- infinite intervals exist from 17 on
DO $$
DECLARE
    r text;
BEGIN
    IF current_setting('server_version_num')::int >= 170000 THEN
        EXECUTE $q$SELECT err('SELECT public.uuidv7(''infinity''::interval)')$q$ INTO r;
        IF r IS DISTINCT FROM '22008: interval out of range for UUID version 7 | UUID version 7 does not support infinite intervals.' THEN
            RAISE EXCEPTION 'uuidv7(infinity): %', r;
        END IF;
    END IF;
END
$$;

-----------------------------------------------------------------------------
-- uuidv4()
-----------------------------------------------------------------------------
SELECT count(DISTINCT u) AS distinct_ids,
       bool_and(pg_temp.version(u) = 4 AND pg_temp.variant(u) = 2) AS v4_rfc_variant,
       count(DISTINCT get_byte(uuid_send(u), 0)) AS first_byte_values,
       count(DISTINCT get_byte(uuid_send(u), 6) & 15) AS version_byte_low_values,
       count(DISTINCT get_byte(uuid_send(u), 8) & 63) AS variant_byte_low_values
FROM (SELECT uuidv4() AS u FROM generate_series(1, 20000)) s;

-----------------------------------------------------------------------------
-- uuid_extract_timestamp() and uuid_extract_version(), as 18's
-----------------------------------------------------------------------------
-- v7: pg_uuidv7's README value; v1 and v6: RFC 9562's test vectors (A.1 and
-- A.5, 2022-02-22 14:22:22 -05:00); v4, the nil and max UUIDs, another
-- variant: NULL
SELECT u, uuid_extract_version(u) AS version, uuid_extract_timestamp(u) AS ts
FROM (VALUES ('018570bb-4a7d-7c7e-8df4-6d47afd8c8fc'::uuid), ('c232ab00-9414-11ec-b3c8-9f6bdeced846'),
             ('1ec9414c-232a-6b00-b3c8-9f6bdeced846'), ('919108f7-52d1-4320-9bac-f847db4148a8'),
             ('017f22e2-79b0-7cc3-98c4-dc0c0c07398f'), ('00000000-0000-0000-0000-000000000000'),
             ('ffffffff-ffff-ffff-ffff-ffffffffffff'), ('018570bb-4a7d-7c7e-cdf4-6d47afd8c8fc'),
             ('018570bb-4a7d-7c7e-0df4-6d47afd8c8fc'), ('ffffffff-ffff-7fff-bfff-ffffffffffff'),
             ('ffffffff-ffff-1fff-bfff-ffffffffffff'), ('00000000-0000-1000-8000-000000000000'),
             ('00000000-0000-f000-8000-000000000000')) v(u);
SELECT uuid_extract_timestamp(NULL) IS NULL AND uuid_extract_version(NULL) IS NULL AS strict;

-----------------------------------------------------------------------------
-- pg_uuidv7 1.6's functions: its README's and tests' values
-----------------------------------------------------------------------------
SELECT uuid_v7_to_timestamptz('018570bb-4a7d-7c7e-8df4-6d47afd8c8fc') AS readme_timestamptz,
       uuid_timestamptz_to_v7('2023-01-02 04:26:40.637+00', true) AS readme_zero,
       uuid_timestamptz_to_v7('2023-01-02 04:26:40.637+00', zero => true) AS named_zero,
       uuid_v7_to_timestamp('018570bb-4a7d-7000-8000-000000000000') AS timestamp,
       uuid_timestamp_to_v7('2023-01-02 04:26:40.637', true) AS timestamp_zero;
-- the time of any value is its first 48 bits, whatever its version (as
-- pg_uuidv7); a timestamp (without time zone) is UTC wall time, whatever
-- TimeZone: so these are immutable
SET TimeZone = 'Asia/Kolkata';
SELECT uuid_v7_to_timestamptz('919108f7-52d1-4320-9bac-f847db4148a8') AS any_version,
       uuid_v7_to_timestamp('018570bb-4a7d-7c7e-8df4-6d47afd8c8fc') AS utc_wall_time,
       uuid_timestamp_to_v7('2023-01-02 04:26:40.637', true) AS from_utc_wall_time;
SET TimeZone = 'UTC';
-- without zero: a random UUIDv7 of that time, to the microsecond (the
-- 12 bits after the version are its fraction of the millisecond:
-- floor(0.789 ms * 4096) = 3231), above the zero bound of its millisecond
SELECT uuid_v7_to_timestamptz(u) AS ts, pg_temp.hi(u) & 4095 AS fraction,
       pg_temp.version(u) AS version, pg_temp.variant(u) AS variant,
       u > uuid_timestamptz_to_v7('2023-01-02 04:26:40.637+00', true) AS above_zero
FROM uuid_timestamptz_to_v7('2023-01-02 04:26:40.637789+00') u;
SELECT count(DISTINCT u) AS distinct_ids, bool_and(uuid_v7_to_timestamp(u) = '2023-01-02 04:26:40.637') AS same_ms,
       bool_and(pg_temp.version(u) = 7 AND pg_temp.variant(u) = 2) AS v7_rfc_variant
FROM (SELECT uuid_timestamp_to_v7('2023-01-02 04:26:40.637', false) AS u FROM generate_series(1, 10000)) s;
SELECT uuid_timestamptz_to_v7(NULL) IS NULL AND uuid_timestamptz_to_v7(now(), NULL) IS NULL
       AND uuid_timestamp_to_v7(NULL, true) IS NULL AND uuid_v7_to_timestamptz(NULL) IS NULL
       AND uuid_v7_to_timestamp(NULL) IS NULL AS strict;
-- pg_uuidv7 returns garbage for times a UUIDv7 cannot hold; here: 22008
SELECT c AS call, err('SELECT ' || c) AS result
FROM (VALUES ($$uuid_timestamptz_to_v7('1969-12-31 23:59:59.999Z', true)$$),
             ($$uuid_timestamptz_to_v7('infinity')$$),
             ($$uuid_timestamp_to_v7('10889-08-02 05:31:50.656', true)$$),
             ($$uuid_timestamp_to_v7('-infinity')$$)) v(c);
SELECT hint($$SELECT uuid_timestamp_to_v7('-infinity')$$) AS timestamp_hint;

-----------------------------------------------------------------------------
-- uuidv7_time(), uuidv7_lower(), uuidv7_upper()
-----------------------------------------------------------------------------
SELECT uuidv7_lower('2026-01-01Z') AS lower, uuidv7_upper('2026-01-01Z') AS upper,
       uuidv7_lower('1970-01-01Z') AS first, uuidv7_upper('10889-08-02 05:31:50.655999Z') AS last,
       uuidv7_time(uuidv7_upper('2026-01-01 00:00:00.999999Z')) AS time_of_upper;
-- every UUIDv7 of a millisecond lies between its bounds, lower is pg_uuidv7's
-- zero form, and the bounds of the next millisecond are above
SELECT bool_and(u BETWEEN uuidv7_lower(t) AND uuidv7_upper(t)) AS within,
       bool_and(uuidv7_upper(t) < uuidv7_lower(t + interval '1 ms')) AS next_ms_above,
       bool_and(uuidv7_lower(t) = uuid_timestamptz_to_v7(t, true)) AS lower_is_zero,
       bool_and(uuidv7_time(u) = ulid_time(u::ulid)) AS time_is_ulid_time
FROM (SELECT gen_uuidv7() AS u FROM generate_series(1, 10000)) s, LATERAL uuidv7_time(u) t;
SELECT c AS call, err('SELECT ' || c) AS result
FROM (VALUES ($$uuidv7_lower('1969-12-31 23:59:59.999999Z')$$), ($$uuidv7_upper('10889-08-02 05:31:50.656Z')$$),
             ($$uuidv7_lower('-infinity')$$)) v(c);
SELECT uuidv7_lower(NULL) IS NULL AND uuidv7_upper(NULL) IS NULL AND uuidv7_time(NULL) IS NULL AS strict;

-----------------------------------------------------------------------------
-- Plans: index range scans and partition pruning on a uuid key
-----------------------------------------------------------------------------
CREATE TABLE ev (id uuid PRIMARY KEY, n int,
                 created timestamptz GENERATED ALWAYS AS (uuid_v7_to_timestamptz(id)) STORED);
CREATE INDEX ev_time ON ev (uuidv7_time(id));
INSERT INTO ev (id, n)
SELECT uuid_timestamptz_to_v7('2026-01-01Z'::timestamptz + g * interval '1 hour'), g FROM generate_series(1, 2000) g;
ANALYZE ev;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT n FROM ev WHERE id >= uuidv7_lower('2026-02-01Z') AND id < uuidv7_lower('2026-02-02Z');
SELECT count(*) AS feb_1 FROM ev WHERE id >= uuidv7_lower('2026-02-01Z') AND id < uuidv7_lower('2026-02-02Z');
-- pg_uuidv7's range query: volatile, but folded into the bound (with zero
-- the constant true): a constant, uuidv7_lower() of a stable expression, and
-- of a parameter in a generic plan
EXPLAIN (COSTS OFF) SELECT n FROM ev WHERE id >= uuid_timestamptz_to_v7('2026-02-01Z', true);
EXPLAIN (COSTS OFF) SELECT n FROM ev WHERE id >= uuid_timestamptz_to_v7('2026-02-01Z', zero => true) AND id <= uuidv7_upper('2026-02-01 23:59:59.999Z');
EXPLAIN (COSTS OFF) SELECT n FROM ev WHERE id >= uuid_timestamp_to_v7('2026-02-01', true);
EXPLAIN (COSTS OFF) SELECT n FROM ev WHERE id >= uuid_timestamptz_to_v7(now() - interval '1 day', true);
PREPARE since(timestamptz) AS SELECT count(*) FROM ev WHERE id >= uuid_timestamptz_to_v7($1, true);
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE since('2026-03-01Z');
EXECUTE since('2026-03-01Z');
RESET plan_cache_mode;
DEALLOCATE since;
-- in PL/pgSQL, with a variable (a parameter)
DO $$
DECLARE
    t timestamptz := '2026-03-01Z';
    c bigint;
BEGIN
    SELECT count(*) INTO c FROM ev WHERE id >= uuid_timestamptz_to_v7(t, true);
    IF c <> (SELECT count(*) FROM ev WHERE n >= 1416) THEN RAISE EXCEPTION 'plpgsql: % rows', c; END IF;
END
$$;
-- without zero the call is random, and volatile: no index bound, a filter
-- (sequential scans allowed here: 18+ marks a disabled one in the plan)
SET enable_seqscan = on;
EXPLAIN (COSTS OFF) SELECT n FROM ev WHERE id >= uuid_timestamptz_to_v7('2026-02-01Z');
SET enable_seqscan = off;
-- the generated column and the expression index (immutable readers)
EXPLAIN (COSTS OFF) SELECT n FROM ev WHERE uuidv7_time(id) >= '2026-03-24Z';
SELECT count(*) AS generated_column_right FROM ev WHERE created = uuidv7_time(id) AND created = '2026-01-01Z'::timestamptz + n * interval '1 hour';
RESET enable_seqscan;
RESET enable_bitmapscan;
DROP TABLE ev;

-- range partitions by month with uuidv7_lower() bounds
CREATE TABLE evp (id uuid NOT NULL, n int) PARTITION BY RANGE (id);
CREATE TABLE evp_2026_01 PARTITION OF evp FOR VALUES FROM (uuidv7_lower('2026-01-01Z')) TO (uuidv7_lower('2026-02-01Z'));
CREATE TABLE evp_2026_02 PARTITION OF evp FOR VALUES FROM (uuidv7_lower('2026-02-01Z')) TO (uuidv7_lower('2026-03-01Z'));
CREATE TABLE evp_2026_03 PARTITION OF evp FOR VALUES FROM (uuidv7_lower('2026-03-01Z')) TO (uuidv7_lower('2026-04-01Z'));
INSERT INTO evp SELECT uuid_timestamptz_to_v7('2026-01-01Z'::timestamptz + g * interval '1 hour'), g FROM generate_series(0, 2150) g;
SELECT tableoid::regclass AS partition, min(uuidv7_time(id)), max(uuidv7_time(id)), count(*)
FROM evp GROUP BY 1 ORDER BY 1;
EXPLAIN (COSTS OFF) SELECT count(*) FROM evp WHERE id >= uuidv7_lower('2026-02-10Z') AND id < uuidv7_lower('2026-02-11Z');
EXPLAIN (COSTS OFF) SELECT count(*) FROM evp WHERE id >= uuid_timestamptz_to_v7('2026-03-10Z', true);
DROP TABLE evp;

-----------------------------------------------------------------------------
-- Against core's own functions, where core has them (the normal path)
-----------------------------------------------------------------------------
SET search_path = public;
-- 17+: uuid_extract_version agrees on every input above and on 9,600
-- random bit patterns; uuid_extract_timestamp agrees on version 1 (17 and
-- 18+), version 7 (18+; 17 returns NULL for it, as documented) and version
-- 6 where core reads it (the development branch; 18 returns NULL)
DO $$
DECLARE
    bad bigint;
BEGIN
    IF current_setting('server_version_num')::int < 170000 THEN RETURN; END IF;
    EXECUTE $q$
    WITH v(u) AS (
        SELECT u::uuid FROM unnest(ARRAY['018570bb-4a7d-7c7e-8df4-6d47afd8c8fc', 'c232ab00-9414-11ec-b3c8-9f6bdeced846',
            '1ec9414c-232a-6b00-b3c8-9f6bdeced846', '919108f7-52d1-4320-9bac-f847db4148a8',
            '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff',
            'ffffffff-ffff-1fff-bfff-ffffffffffff', '00000000-0000-1000-8000-000000000000']) u
    ), r(u) AS (
        SELECT u FROM v
        UNION ALL
        -- every version nibble and variant pair, random other bits
        SELECT encode(overlay(overlay(uuid_send(gen_random_uuid())
                       PLACING decode(lpad(to_hex(ver * 16 + (g % 16)), 2, '0'), 'hex') FROM 7 FOR 1)
                       PLACING decode(lpad(to_hex(var * 64 + (g % 64)), 2, '0'), 'hex') FROM 9 FOR 1), 'hex')::uuid
        FROM generate_series(0, 15) ver, generate_series(0, 3) var, generate_series(1, 150) g
    )
    SELECT count(*) FROM r
    WHERE pg_catalog.uuid_extract_version(u) IS DISTINCT FROM public.uuid_extract_version(u)
       OR (pg_catalog.uuid_extract_version(u) = 1 OR current_setting('server_version_num')::int >= 180000)
          AND NOT (pg_catalog.uuid_extract_version(u) = 6 AND pg_catalog.uuid_extract_timestamp(u) IS NULL)
          AND pg_catalog.uuid_extract_timestamp(u) IS DISTINCT FROM public.uuid_extract_timestamp(u)
       OR current_setting('server_version_num')::int < 180000 AND public.uuid_extract_version(u) = 7
          AND pg_catalog.uuid_extract_timestamp(u) IS NOT NULL$q$ INTO bad;
    IF bad IS DISTINCT FROM 0 THEN
        RAISE EXCEPTION '% values where core''s uuid_extract_* and the extension''s disagree', bad;
    END IF;
END
$$;
-- 18+: same volatility and strictness as core's; an unqualified call is
-- core's; core's and ours have the same layout, order and time
DO $$
DECLARE
    r record;
    ok boolean;
BEGIN
    IF current_setting('server_version_num')::int < 180000 THEN RETURN; END IF;
    FOR r IN
        SELECT f, c.provolatile AS cv, o.provolatile AS ov, c.proisstrict AS cs, o.proisstrict AS os,
               c.prorettype AS ct, o.prorettype AS ot, to_regprocedure(f) = c.oid AS unqualified_is_core
        FROM unnest(ARRAY['uuidv7()', 'uuidv7(interval)', 'uuidv4()', 'uuid_extract_timestamp(uuid)',
                          'uuid_extract_version(uuid)']) f,
             LATERAL (SELECT * FROM pg_proc WHERE oid = ('pg_catalog.' || f)::regprocedure) c,
             LATERAL (SELECT * FROM pg_proc WHERE oid = ('public.' || f)::regprocedure) o
    LOOP
        IF r.cv <> r.ov OR r.cs <> r.os OR r.ct <> r.ot OR NOT r.unqualified_is_core THEN
            RAISE EXCEPTION 'core''s % and the extension''s differ: %', r.f, r;
        END IF;
    END LOOP;
    EXECUTE $q$
    SELECT bool_and(pg_temp.version(c7) = 7 AND pg_temp.version(o7) = 7 AND pg_temp.variant(c7) = 2 AND pg_temp.variant(o7) = 2
                    AND pg_temp.version(c4) = 4 AND pg_temp.version(o4) = 4 AND pg_temp.variant(c4) = 2 AND pg_temp.variant(o4) = 2
                    -- the same clock: core's made after ours, within a second
                    AND pg_catalog.uuid_extract_timestamp(c7) - public.uuid_extract_timestamp(o7) BETWEEN '0' AND '1 s'
                    AND pg_catalog.uuid_extract_timestamp(cs) - public.uuid_extract_timestamp(os) BETWEEN '0' AND '1 s'
                    AND pg_catalog.uuid_extract_timestamp(cs) = public.uuid_extract_timestamp(cs)
                    AND pg_catalog.uuid_extract_timestamp(os) = public.uuid_extract_timestamp(os))
    FROM (SELECT public.uuidv7() AS o7, pg_catalog.uuidv7() AS c7, public.uuidv4() AS o4, pg_catalog.uuidv4() AS c4,
                 public.uuidv7(s) AS os, pg_catalog.uuidv7(s) AS cs
          -- (shifts that keep core 18.0's nanoseconds within 64 bits: before 2262)
          FROM unnest(ARRAY['1 hour', '-1 hour', '-2 days 3 ms', '1 month', '-50 years', '200 years']::interval[]) s,
               generate_series(1, 100)) x$q$ INTO ok;
    IF ok IS NOT TRUE THEN RAISE EXCEPTION 'core''s generators and the extension''s disagree'; END IF;
    -- errors: the same SQLSTATE where core checks the range (18.x)
    EXECUTE $q$SELECT split_part(err('SELECT pg_catalog.uuidv7(''-100 years'')'), ':', 1)
                      IN ('ok', split_part(err('SELECT public.uuidv7(''-100 years'')'), ':', 1))$q$ INTO ok;
    IF ok IS NOT TRUE THEN RAISE EXCEPTION 'core''s uuidv7(-100 years) fails otherwise'; END IF;
END
$$;
RESET search_path;
