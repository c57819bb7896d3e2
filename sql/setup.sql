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
