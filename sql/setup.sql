-- Helpers the other regression files use (run first).
-- err(sql): runs sql and shows the error it raises as
-- "SQLSTATE: message | detail", or "ok: <first column>" when it succeeds.
-- (42883, core's "does not exist" for a function or operator, shows no
-- detail: PostgreSQL 19 added one, the same for every such error.)
CREATE FUNCTION err(sql text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    st text; msg text; det text; res text;
BEGIN
    EXECUTE sql INTO res;
    RETURN 'ok: ' || coalesce(res, 'NULL');
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT,
        det = PG_EXCEPTION_DETAIL;
    RETURN st || ': ' || msg || CASE WHEN det <> '' AND st <> '42883' THEN ' | ' || det ELSE '' END;
END
$$;
-- hint(sql): the hint of the error sql raises
CREATE FUNCTION hint(sql text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE h text;
BEGIN
    EXECUTE sql;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS h = PG_EXCEPTION_HINT;
    RETURN h;
END
$$;
-- workers_launched(q): runs q under EXPLAIN ANALYZE and returns how many
-- parallel workers it launched (a test that needs workers checks > 0)
CREATE FUNCTION workers_launched(q text) RETURNS int LANGUAGE plpgsql AS $$
DECLARE plan json;
BEGIN
    EXECUTE 'EXPLAIN (ANALYZE, FORMAT JSON) ' || q INTO plan;
    RETURN (plan -> 0 -> 'Plan' ->> 'Workers Launched')::int;
END
$$;
SELECT extname, extversion FROM pg_extension WHERE extname = 'ulid';
-- lacks(needs...): what this server lacks of what a file needs, as text,
-- or NULL when it has it all.  A file (or a section of one) that needs a
-- server setting starts with a guard, so that `make installcheck` against
-- any server reports a skip instead of a misleading diff (test/README.md):
--     SELECT lacks('shared state', 'nodes 5-7') AS lacks \gset
--     \if :{?lacks}
--     \echo skipped: needs ...
--     \quit   (or \else ... \endif around a section)
-- needs: 'shared state' (ulid preloaded, or PostgreSQL 17+), 'preload',
-- 'default settings' (the ulid.* settings settings.sql shows at their
-- defaults: no node id),
-- 'setting ulid.node_ids=0-65535' (current_setting() shows that value),
-- 'nodes 3,5-9' (this server mints on those explicit nodes: it owns them;
-- probed with one id per node on a layout no one else uses, on the clock),
-- 'private server' (test/run's own server, ulid_regress.private_server =
-- on: no application mints there, so a test may advance and reset shared
-- states and count what they issued; `make installcheck` against any other
-- server never does, test/README.md)
CREATE FUNCTION lacks(VARIADIC needs text[]) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    need text; r text; node bigint; missing text[] := '{}';
BEGIN
    FOREACH need IN ARRAY needs LOOP
        IF need = 'shared state' THEN
            IF err('SELECT count(*) FROM ulid_generator_state') NOT LIKE 'ok:%' THEN
                missing := missing || need;
            END IF;
        ELSIF need = 'preload' THEN
            PERFORM gen_ulid();     -- loads the library in this session
            IF current_setting('ulid.max_generator_states', true) IS NULL THEN
                missing := missing || need;
            END IF;
        ELSIF need = 'default settings' THEN
            PERFORM gen_ulid();
            IF EXISTS (SELECT FROM pg_settings WHERE setting IS DISTINCT FROM boot_val
                       AND name IN ('ulid.node_id', 'ulid.clock_borrow_ms', 'ulid.clock_wait_ms', 'ulid.clock_offset_ms',
                                    'ulid.max_generator_states', 'ulid.max_states_per_role')) THEN
                missing := missing || need;
            END IF;
        ELSIF need LIKE 'setting %=%' THEN
            PERFORM gen_ulid();
            IF current_setting(split_part(substr(need, 9), '=', 1), true)
               IS DISTINCT FROM substr(need, strpos(need, '=') + 1) THEN
                missing := missing || need;
            END IF;
        ELSIF need = 'private server' THEN
            IF current_setting('ulid_regress.private_server', true) IS DISTINCT FROM 'on' THEN
                missing := missing || need;
            END IF;
        ELSIF need LIKE 'nodes %' THEN
            FOREACH r IN ARRAY string_to_array(substr(need, 7), ',') LOOP
                FOR node IN SELECT generate_series(split_part(r, '-', 1)::bigint,
                                                   coalesce(nullif(split_part(r, '-', 2), ''), r)::bigint) LOOP
                    IF err(format($q$SELECT snowflake_next('custom(time=41:ms:2001-02-03T04:05:06.789Z, fields=probe:20, sequence=2)', %s)$q$, node))
                       NOT LIKE 'ok:%' THEN
                        missing := missing || format('node %s', node);
                    END IF;
                END LOOP;
            END LOOP;
        ELSE
            RAISE EXCEPTION 'lacks(): unknown need %', need;
        END IF;
    END LOOP;
    RETURN nullif(array_to_string(missing, ', '), '');
END
$$;
