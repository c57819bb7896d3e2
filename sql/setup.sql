-- Helpers the other regression files use (run first).
-- err(sql): runs sql and shows the error it raises as
-- "SQLSTATE: message | detail", or "ok: <first column>" when it succeeds.
CREATE FUNCTION err(sql text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    st text; msg text; det text; res text;
BEGIN
    EXECUTE sql INTO res;
    RETURN 'ok: ' || coalesce(res, 'NULL');
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT,
        det = PG_EXCEPTION_DETAIL;
    RETURN st || ': ' || msg || CASE WHEN det <> '' THEN ' | ' || det ELSE '' END;
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
SELECT extname, extversion FROM pg_extension WHERE extname = 'ulid';
