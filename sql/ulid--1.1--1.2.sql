-- ulid 1.1 -> 1.2: frozen once 1.2 is released.  Every SQL change of 1.2
-- (sql/ulid.sql) is repeated here, so that an updated install equals a fresh
-- one; test/scenarios/upgrade.sh compares them.
\echo Use "ALTER EXTENSION ulid UPDATE TO '1.2'" to load this file. \quit

-----------------------------------------------------------------------------
-- issue 30: operator tools that cannot be turned against the server
-----------------------------------------------------------------------------
-- ulid_advance_from_tables() in C: defaults matched on their expression
-- trees, the largest value read without running any of the table owner's
-- code, every advance at once or none (src/advance_tables.c).
CREATE OR REPLACE FUNCTION ulid_advance_from_tables(margin interval DEFAULT '0', include_far_ahead boolean DEFAULT false)
RETURNS TABLE (table_name regclass, column_name name, generator text, advanced_to text)
AS 'MODULE_PATHNAME', 'ulid_advance_from_tables'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

-- ulid_floor_repair() can lower a floor on purpose
DROP FUNCTION ulid_floor_repair(timestamptz);
CREATE FUNCTION ulid_floor_repair(above timestamptz, lower boolean DEFAULT false) RETURNS void
    AS 'MODULE_PATHNAME', 'ulid_floor_repair' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION ulid_floor_repair(timestamptz, boolean) IS 'rewrite the restart floor file so that every generator issues above this time (with lower, also below the floor it had, with a WARNING); the way back from a damaged, missing or far-future file (superuser only)';
REVOKE ALL ON FUNCTION ulid_floor_repair(timestamptz, boolean) FROM PUBLIC;

-----------------------------------------------------------------------------
-- issue 31: ulid_check_node_ids() names node ids a default's layout cannot hold
-----------------------------------------------------------------------------

-- as in sql/ulid.sql (issue 23's section): the problem column also names
-- every layout of a column default that mints on the node id and cannot
-- hold it
CREATE OR REPLACE FUNCTION ulid_check_node_ids(
        OUT node_name text, OUT node_port integer, OUT node_id bigint, OUT source text,
        OUT owned_nodes text, OUT shared boolean, OUT problem text)
    RETURNS SETOF record
    LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    ext_schema name;
    cmd text;
    n record;
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
    SELECT ns.nspname INTO ext_schema
    FROM pg_extension e JOIN pg_namespace ns ON ns.oid = e.extnamespace WHERE e.extname = 'ulid';
    cmd := format('SELECT row_to_json(i)::text FROM %I.ulid_node_identity() i', ext_schema);
    FOR n IN
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
            SELECT nd.name, nd.port,
                   int8range(split_part(x, '-', 1)::bigint,
                             coalesce(nullif(split_part(x, '-', 2), ''), split_part(x, '-', 1))::bigint,
                             '[]') AS r
            FROM nodes nd, unnest(string_to_array(nullif(nd.owned, ''), ',')) x
        )
        SELECT nd.name, nd.port, nd.id, nd.src, nd.owned,
               EXISTS (SELECT 1 FROM ranges a JOIN ranges b ON a.r && b.r
                       WHERE a.name = nd.name AND a.port = nd.port
                         AND (b.name, b.port) <> (nd.name, nd.port)) AS shared,
               nd.why
        FROM nodes nd
        ORDER BY nd.name, nd.port
    LOOP
        node_name := n.name;
        node_port := n.port;
        node_id := n.id;
        source := n.src;
        owned_nodes := n.owned;
        shared := n.shared;
        -- the layouts of this database's defaults that cannot hold the node id
        SELECT nullif(concat_ws('; ', n.why, string_agg(format('node id %s does not fit the layout %s (nodes 0 to %s) that the default of %s mints on',
                                                               n.id, l.layout, l.max_node, l.columns), '; ' ORDER BY l.layout)), '')
          INTO problem
          FROM (SELECT f.layout, f.max_node,
                       min(f.col) || CASE WHEN count(*) > 1 THEN format(' (and %s more)', count(*) - 1) ELSE '' END AS columns
                  FROM (SELECT x.layout, format('%s.%I', d.adrelid::regclass, a.attname) AS col,
                               CASE WHEN x.layout = 'COSID_80' THEN 1048575
                                    ELSE (SELECT (2::numeric ^ sum(b[2]::int) - 1)::bigint
                                            FROM regexp_matches(split_part(@extschema@.snowflake_layout_diagram(x.layout::@extschema@.snowflake_layout), E'\n', 1),
                                                                '\| ([a-z_][a-z0-9_]*) (\d+) ', 'g') b
                                           WHERE b[1] NOT IN ('sign', 'unused', 'time', 'sequence')) END AS max_node
                          FROM pg_attrdef d
                          JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum AND NOT a.attisdropped,
                               regexp_matches(pg_get_expr(d.adbin, d.adrelid),
                                              'snowflake_next\(''((?:[^'']|'''')*)''::(?:(?:[a-z_][a-z0-9_$]*|"(?:[^"]|"")+")\.)?snowflake_layout\)|cosid80_(next)\(NULL::bigint\)', 'g') r,
                               LATERAL (SELECT CASE WHEN r[2] IS NOT NULL THEN 'COSID_80' ELSE replace(r[1], '''''', '''') END) x(layout)
                         WHERE EXISTS (SELECT FROM pg_depend p
                                        WHERE p.classid = 'pg_attrdef'::regclass AND p.objid = d.oid
                                          AND p.refclassid = 'pg_proc'::regclass
                                          AND p.refobjid IN ('@extschema@.snowflake_next(@extschema@.snowflake_layout)'::regprocedure,
                                                             '@extschema@.cosid80_next(bigint)'::regprocedure))) f
                 WHERE n.id > f.max_node
                 GROUP BY f.layout, f.max_node) l;
        RETURN NEXT;
    END LOOP;
END
$fn$;
COMMENT ON FUNCTION ulid_check_node_ids() IS 'on a Citus coordinator: every node''s name, port, node id, its source, the nodes it owns, whether another node owns one of them too, and its problem: why it has no node id, or a column default''s layout that its node id does not fit';
