-- A layout argument is the one used on every call, whatever way it arrives:
-- a literal (a constant of the query), a column, a PL/pgSQL variable (a
-- Param whose value changes while the expression lives on), a SQL
-- function's parameter, a prepared statement's parameter under a generic
-- plan, a cursor, a DO loop.  Each function that takes a layout is called
-- through each path with several layouts in one statement and one
-- transaction, and compared with the same call on literals.

CREATE TABLE la_layouts (n int, l snowflake_layout, field text);
INSERT INTO la_layouts VALUES
    (1, 'twitter', 'worker'),
    (2, 'js_safe_s', 'node'),
    (3, 'discord', 'process'),
    (4, 'instagram', 'shard'),
    (5, 'sonyflake(epoch=2014-09-01T00:00:00.000Z)', 'machine'),
    (6, 'twitter', 'datacenter');

-- every reader, on an id packed from fixed parts, in one text
CREATE FUNCTION la_plpgsql(l snowflake_layout, field text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    id bigint := snowflake_pack(l, '2026-01-02T03:04:05.678Z', 3, 5);
BEGIN
    RETURN concat_ws(' | ', l::text, id, snowflake_time(id, l), snowflake_unix_ms(id, l),
        snowflake_node(id, l), snowflake_field(id, l, field), snowflake_sequence(id, l),
        snowflake_parts(id, l), snowflake_lower(l, '2026-01-02Z'), snowflake_upper(l, '2026-01-02Z'),
        snowflake_friendly(id, l), snowflake_from_friendly(snowflake_friendly(id, l), l),
        snowflake_layout_diagram(l));
END
$$;

-- the same with every layout argument a literal: dynamic SQL plans each
-- call afresh, so the layout is a Const
CREATE FUNCTION la_literal(l snowflake_layout, field text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text;
BEGIN
    EXECUTE format($q$
        SELECT concat_ws(' | ', %1$L::snowflake_layout::text, id, snowflake_time(id, %1$L), snowflake_unix_ms(id, %1$L),
            snowflake_node(id, %1$L), snowflake_field(id, %1$L, %2$L), snowflake_sequence(id, %1$L),
            snowflake_parts(id, %1$L), snowflake_lower(%1$L, '2026-01-02Z'), snowflake_upper(%1$L, '2026-01-02Z'),
            snowflake_friendly(id, %1$L), snowflake_from_friendly(snowflake_friendly(id, %1$L), %1$L),
            snowflake_layout_diagram(%1$L))
        FROM (SELECT snowflake_pack(%1$L, '2026-01-02T03:04:05.678Z', 3, 5) AS id) s$q$, l::text, field)
        INTO r;
    RETURN r;
END
$$;

-- the same as a SQL function (parameters are Params; not inlined: it is
-- called with a column argument from a set-returning context below)
CREATE FUNCTION la_sql(l snowflake_layout, field text) RETURNS text LANGUAGE sql AS $$
    SELECT concat_ws(' | ', l::text, id, snowflake_time(id, l), snowflake_unix_ms(id, l),
        snowflake_node(id, l), snowflake_field(id, l, field), snowflake_sequence(id, l),
        snowflake_parts(id, l), snowflake_lower(l, '2026-01-02Z'), snowflake_upper(l, '2026-01-02Z'),
        snowflake_friendly(id, l), snowflake_from_friendly(snowflake_friendly(id, l), l),
        snowflake_layout_diagram(l))
    FROM (SELECT snowflake_pack(l, '2026-01-02T03:04:05.678Z', 3, 5) AS id) s
$$;

-- the reference values
SELECT n, la_literal(l, field) AS reference FROM la_layouts ORDER BY n;

-- PL/pgSQL variables changing within one statement, and within one transaction
SELECT n, la_plpgsql(l, field) = la_literal(l, field) AS plpgsql_same FROM la_layouts ORDER BY n;
BEGIN;
SELECT la_plpgsql('discord', 'worker') = la_literal('discord', 'worker') AS discord_same;
SELECT la_plpgsql('twitter', 'worker') = la_literal('twitter', 'worker') AS twitter_same;
SELECT la_plpgsql('instagram', 'shard') = la_literal('instagram', 'shard') AS instagram_same;
COMMIT;

-- SQL function
SELECT n, la_sql(l, field) = la_literal(l, field) AS sql_same FROM la_layouts ORDER BY n;
SELECT n, r = la_literal(l, field) AS sql_srf_same
FROM la_layouts, LATERAL (SELECT la_sql(l, field) AS r) s ORDER BY n;

-- column arguments (a Var: a new value on every row)
SELECT n, concat_ws(' | ', l::text, id, snowflake_time(id, l), snowflake_unix_ms(id, l),
        snowflake_node(id, l), snowflake_field(id, l, field), snowflake_sequence(id, l),
        snowflake_parts(id, l), snowflake_lower(l, '2026-01-02Z'), snowflake_upper(l, '2026-01-02Z'),
        snowflake_friendly(id, l), snowflake_from_friendly(snowflake_friendly(id, l), l),
        snowflake_layout_diagram(l)) = la_literal(l, field) AS column_same
FROM la_layouts, LATERAL (SELECT snowflake_pack(l, '2026-01-02T03:04:05.678Z', 3, 5) AS id) s
ORDER BY n;

-- prepared statements under a generic plan
SET plan_cache_mode = force_generic_plan;
PREPARE la_prep(snowflake_layout, text) AS
    SELECT concat_ws(' | ', $1::text, id, snowflake_time(id, $1), snowflake_unix_ms(id, $1),
        snowflake_node(id, $1), snowflake_field(id, $1, $2), snowflake_sequence(id, $1),
        snowflake_parts(id, $1), snowflake_lower($1, '2026-01-02Z'), snowflake_upper($1, '2026-01-02Z'),
        snowflake_friendly(id, $1), snowflake_from_friendly(snowflake_friendly(id, $1), $1),
        snowflake_layout_diagram($1))
    FROM (SELECT snowflake_pack($1, '2026-01-02T03:04:05.678Z', 3, 5) AS id) s;
CREATE TEMP TABLE la_out (n int, r text);
DO $$
DECLARE
    rec record;
    r text;
BEGIN
    FOR rec IN SELECT * FROM la_layouts ORDER BY n LOOP
        EXECUTE format('EXECUTE la_prep(%L, %L)', rec.l, rec.field) INTO r;
        INSERT INTO la_out VALUES (rec.n, r);
    END LOOP;
END
$$;
SELECT o.n, o.r = la_literal(l, field) AS generic_plan_same
FROM la_out o JOIN la_layouts USING (n) ORDER BY n;
DEALLOCATE la_prep;
RESET plan_cache_mode;

-- a cursor over the layouts, each row through the PL/pgSQL function
BEGIN;
DECLARE la_cur CURSOR FOR SELECT n, la_plpgsql(l, field) AS r FROM la_layouts ORDER BY n;
FETCH 2 FROM la_cur;
FETCH ALL FROM la_cur;
COMMIT;

-- a DO loop over layouts: each diagram is its own layout's
DO $$
DECLARE
    l snowflake_layout;
BEGIN
    FOR l IN SELECT unnest(array['twitter', 'discord', 'instagram', 'js_safe_s']::snowflake_layout[]) LOOP
        RAISE NOTICE '%: %', l, snowflake_layout_diagram(l);
    END LOOP;
END
$$;

-- minting needs the shared state and nodes 1 and 7, and test/run's own
-- server: it counts what the states issued and advances two of them
-- (test/README.md)
SELECT lacks('shared state', 'nodes 1,7', 'private server') AS lacks \gset
\if :{?lacks}
\echo skipped: needs the shared generator state (shared_preload_libraries = ulid before PostgreSQL 17), nodes 1 and 7, and the server test/run starts (test/README.md)
\else
-- snowflake_next through a PL/pgSQL variable: each id belongs to its own
-- layout (a js_safe_s id fits 53 bits, a twitter id does not)
CREATE FUNCTION la_mint(l snowflake_layout) RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN
    RETURN snowflake_next(l, 1);
END
$$;
SELECT n, l, id < 2::bigint ^ 53 AS fits_53_bits,
       snowflake_node(id, l) AS node,
       abs(extract(epoch FROM snowflake_time(id, l) - now())) < 60 AS time_now
FROM la_layouts, LATERAL (SELECT la_mint(l) AS id) s
WHERE n <= 4 ORDER BY n;
SELECT la_mint('twitter') >= 2::bigint ^ 53 AS twitter_wide, la_mint('js_safe_s') < 2::bigint ^ 53 AS js_safe_fits;

-- a column changing layout and node on every row, in one statement: each
-- id is minted on the state of its own (layout, node) (a call site keeps
-- the state it found, and must notice either change)
CREATE TEMP TABLE la_states AS SELECT layout, node, issued FROM ulid_generator_state WHERE kind = 'snowflake';
CREATE TEMP TABLE la_mix AS
SELECT g, l, node, snowflake_next(l, node) AS id
FROM (SELECT g, (array['twitter', 'js_safe_s', 'twitter', 'discord'])[(g / 4) % 4 + 1]::snowflake_layout AS l,
             (array[1, 7])[g % 2 + 1]::bigint AS node
      FROM generate_series(1, 48) g) s;
SELECT l, node, count(*) AS ids, bool_and(snowflake_node(id, l) = node) AS own_node,
       bool_and(abs(extract(epoch FROM snowflake_time(id, l) - now())) < 60) AS time_now,
       bool_and(prev IS NULL OR id > prev) AS increasing
FROM (SELECT *, lag(id) OVER (PARTITION BY l::text, node ORDER BY g) AS prev FROM la_mix) s
GROUP BY l, node ORDER BY l::text, node;
-- the view agrees: each state issued its own rows' ids, the last the largest
SELECT m.l, m.node, s.issued - coalesce(b.issued, 0) AS issued_here, s.last_id::bigint = max(m.id) AS last_id_ok
FROM la_mix m
JOIN ulid_generator_state s ON s.kind = 'snowflake' AND s.layout = m.l::text AND s.node = m.node
LEFT JOIN la_states b ON b.layout = s.layout AND b.node = s.node
GROUP BY m.l, m.node, s.issued, b.issued, s.last_id ORDER BY m.l::text, m.node;
DROP TABLE la_mix, la_states;

-- snowflake_advance through a variable advances the state of its own layout
CREATE FUNCTION la_advance(l snowflake_layout, node bigint, id bigint) RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN
    PERFORM snowflake_advance(l, node, id);
    RETURN snowflake_next(l, node);
END
$$;
SELECT la_advance('discord', 7, snowflake_pack('discord', now(), 7, 0)) >
       snowflake_pack('discord', now(), 7, 0) AS discord_advanced,
       la_advance('instagram', 7, snowflake_pack('instagram', now(), 7, 0)) >
       snowflake_pack('instagram', now(), 7, 0) AS instagram_advanced;
-- (and reset: no state keeps a floor of its own)
SET client_min_messages = error;
SELECT snowflake_reset('discord', 7), snowflake_reset('instagram', 7);
RESET client_min_messages;
DROP FUNCTION la_mint, la_advance;
\endif

DROP FUNCTION la_plpgsql, la_literal, la_sql;
DROP TABLE la_layouts;
