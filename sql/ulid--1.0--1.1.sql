-- ulid 1.0 -> 1.1: frozen once 1.1 is released.  Every SQL change of 1.1
-- (sql/ulid.sql) is repeated here, so that an updated install equals a fresh
-- one; test/scenarios/upgrade.sh compares them.
\echo Use "ALTER EXTENSION ulid UPDATE TO '1.1'" to load this file. \quit

-----------------------------------------------------------------------------
-- issue 23: node identity (owned nodes, Citus node ids, the cluster check)
-----------------------------------------------------------------------------

-- The node this server mints Snowflake and COSID_80 ids on and the nodes it
-- owns (ulid.node_id or its Citus group id, and ulid.node_ids).  Volatile:
-- a reload changes it within a transaction.
CREATE FUNCTION ulid_node_identity(
        OUT node_id bigint, OUT source text, OUT owned_nodes text, OUT problem text)
    RETURNS record
    AS 'MODULE_PATHNAME', 'ulid_node_identity' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION ulid_node_identity() IS 'this server''s node id (NULL when none), where it comes from (ulid.node_id_source), every node it owns (its node id and ulid.node_ids) and why it has no node id';

-- the view shows the owned set (a server-wide value, as persisted_floor)
CREATE OR REPLACE VIEW ulid_generator_state AS
    SELECT s.*, i.owned_nodes FROM ulid_generator_state() s, ulid_node_identity() i;

-- Every node of a Citus cluster, asked through Citus for its node identity:
-- one row per node, shared when its owned set meets another node's.
-- PL/pgSQL, so that nothing refers to Citus before it runs (Citus need not
-- be installed); the extension's schema is looked up, not taken from the
-- search_path.
CREATE FUNCTION ulid_check_node_ids(
        OUT node_name text, OUT node_port integer, OUT node_id bigint, OUT source text,
        OUT owned_nodes text, OUT shared boolean, OUT problem text)
    RETURNS SETOF record
    LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    ext_schema name;
    cmd text;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
        RAISE EXCEPTION 'ulid_check_node_ids() checks a Citus cluster, and Citus is not installed in the database "%"', current_database()
            USING ERRCODE = '55000',
                  DETAIL = 'It asks every node of the cluster for its node id through Citus (run_command_on_all_nodes).',
                  HINT = 'Run it on the Citus coordinator, in the database with the citus extension. On any server, SELECT * FROM ulid_node_identity() shows its own node id and owned nodes.';
    END IF;
    IF (SELECT groupid FROM pg_dist_local_group) IS DISTINCT FROM 0 THEN
        RAISE EXCEPTION 'ulid_check_node_ids() runs on the Citus coordinator, and this node is a worker (Citus group %)',
                (SELECT groupid FROM pg_dist_local_group)
            USING ERRCODE = '55000',
                  HINT = 'Connect to the coordinator (group 0) and run it there.';
    END IF;
    SELECT n.nspname INTO ext_schema
    FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'ulid';
    cmd := format('SELECT row_to_json(i)::text FROM %I.ulid_node_identity() i', ext_schema);
    RETURN QUERY
    WITH answers AS (
        SELECT coalesce(d.nodename, current_setting('citus.local_hostname')) AS name,
               coalesce(d.nodeport, current_setting('port')::integer) AS port,
               r.success, r.result
        FROM run_command_on_all_nodes(cmd) r
        LEFT JOIN pg_dist_node d ON d.nodeid = r.nodeid
    ), nodes AS (
        SELECT a.name, a.port,
               CASE WHEN a.success THEN (a.result::json ->> 'node_id')::bigint END AS id,
               CASE WHEN a.success THEN a.result::json ->> 'source' END AS src,
               CASE WHEN a.success THEN a.result::json ->> 'owned_nodes' END AS owned,
               CASE WHEN a.success THEN a.result::json ->> 'problem'
                    ELSE 'could not ask the node: ' || a.result END AS why
        FROM answers a
    ), ranges AS (
        SELECT n.name, n.port,
               int8range(split_part(x, '-', 1)::bigint,
                         coalesce(nullif(split_part(x, '-', 2), ''), split_part(x, '-', 1))::bigint,
                         '[]') AS r
        FROM nodes n, unnest(string_to_array(nullif(n.owned, ''), ',')) x
    )
    SELECT n.name, n.port, n.id, n.src, n.owned,
           EXISTS (SELECT 1 FROM ranges a JOIN ranges b ON a.r && b.r
                   WHERE a.name = n.name AND a.port = n.port
                     AND (b.name, b.port) <> (n.name, n.port)),
           n.why
    FROM nodes n
    ORDER BY n.name, n.port;
END
$fn$;
COMMENT ON FUNCTION ulid_check_node_ids() IS 'on a Citus coordinator: every node''s name, port, node id, its source, the nodes it owns, whether another node owns one of them too, and why a node has no node id';
