-- ulid 1.1 -> 1.2: frozen once 1.2 is released.  Every SQL change of 1.2
-- (sql/ulid.sql) is repeated here, so that an updated install equals a fresh
-- one; test/scenarios/upgrade.sh compares them.
\echo Use "ALTER EXTENSION ulid UPDATE TO '1.2'" to load this file. \quit

-----------------------------------------------------------------------------
-- issue 30: operator tools that cannot be turned against the server
-----------------------------------------------------------------------------
-- ulid_advance_from_tables() in C: defaults matched on their expression
-- trees, the largest value read without running any of the table owner's
-- code, every advance at once or none (src/advance_tables.c).  Issue 40:
-- it trusts no tenant (the trusted and exclude arguments, the note column).
DROP FUNCTION ulid_advance_from_tables(interval, boolean);
CREATE FUNCTION ulid_advance_from_tables(margin interval DEFAULT '0', include_far_ahead boolean DEFAULT false,
        trusted regclass[] DEFAULT '{}', exclude regclass[] DEFAULT '{}', exclude_schemas regnamespace[] DEFAULT '{}')
RETURNS TABLE (table_name regclass, column_name name, generator text, advanced_to text, note text)
AS 'MODULE_PATHNAME', 'ulid_advance_from_tables'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION ulid_advance_from_tables(interval, boolean, regclass[], regclass[], regnamespace[]) IS 'after a restore or a logical move: advance every generator a column default calls above the column''s largest id plus margin; ids more than a minute ahead of the clock only for trusted tables (superuser only)';
REVOKE ALL ON FUNCTION ulid_advance_from_tables(interval, boolean, regclass[], regclass[], regnamespace[]) FROM PUBLIC;

-- ulid_floor_repair() can lower a floor on purpose
DROP FUNCTION ulid_floor_repair(timestamptz);
CREATE FUNCTION ulid_floor_repair(above timestamptz, lower boolean DEFAULT false) RETURNS void
    AS 'MODULE_PATHNAME', 'ulid_floor_repair' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION ulid_floor_repair(timestamptz, boolean) IS 'rewrite the restart floor file so that every generator issues above this time (with lower, also below the floor it had, with a WARNING); the way back from a damaged, missing or far-future file (superuser only)';
REVOKE ALL ON FUNCTION ulid_floor_repair(timestamptz, boolean) FROM PUBLIC;

-----------------------------------------------------------------------------
-- issues 31 and 40: ulid_check_node_ids() names node ids a default's layout
-- cannot hold, and a node id another server minted on first
-----------------------------------------------------------------------------

-- issue 40: the server behind each node id, as ulid_check_node_ids() first
-- saw it: its system identifier (pg_control_system(), which every role may
-- call; a promoted standby keeps its primary's, a new server has its own)
-- and its name and port in Citus's pg_dist_node.  A node id that another
-- server mints on later (Citus gives a group freed by citus_remove_node to
-- the server added with citus_add_node(..., groupid => N), while the removed
-- one may still mint on it) is reported until a superuser deletes its row.
-- Rows are written when a superuser runs the check; every role may read
-- them (nothing here is secret, nor readable only by some).  Not a dumped
-- configuration table: a restored coordinator records its own cluster anew.
-- In a schema of its own, as the keys are, so that schema tools and ORMs
-- reading the application's schema (Alembic, Rails) never see it.
CREATE SCHEMA ulid_nodes;
COMMENT ON SCHEMA ulid_nodes IS 'the ulid extension''s record of the server first seen on each node id (ulid_nodes.servers)';
GRANT USAGE ON SCHEMA ulid_nodes TO PUBLIC;
CREATE TABLE ulid_nodes.servers (
    node_id bigint PRIMARY KEY,
    system_identifier bigint NOT NULL,
    node_name text NOT NULL,
    node_port integer NOT NULL,
    first_seen timestamptz NOT NULL DEFAULT now()
);
REVOKE ALL ON ulid_nodes.servers FROM PUBLIC;
GRANT SELECT ON ulid_nodes.servers TO PUBLIC;
COMMENT ON TABLE ulid_nodes.servers IS 'the server (system identifier, name, port) ulid_check_node_ids() first saw minting on each node id; delete a row to accept the server that mints there now';

-- The layouts this database's column defaults mint on with the server's
-- node id (snowflake_next(layout), cosid80_next()), each with its largest
-- node and its columns: ulid_check_node_ids() and ulid_health() name a node
-- id that does not fit one.  A layout's node bits are the bits of its
-- diagram's fields other than sign, unused, time and sequence (reserved
-- names).
CREATE FUNCTION ulid_node_id_layouts(OUT layout text, OUT max_node bigint, OUT columns text)
    RETURNS SETOF record
    LANGUAGE sql STABLE PARALLEL SAFE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
SELECT f.layout, f.max_node,
       min(f.col) || CASE WHEN count(*) > 1 THEN format(' (and %s more)', count(*) - 1) ELSE '' END
  FROM (SELECT x.layout, format('%s.%I', d.adrelid::regclass, a.attname) AS col,
               CASE WHEN x.layout = 'COSID_80' THEN 1048575
                    ELSE (SELECT (2::numeric ^ sum(b[2]::int) - 1)::bigint
                            FROM regexp_matches(split_part(@extschema@.snowflake_layout_diagram(x.layout::@extschema@.snowflake_layout), E'\n', 1),
                                                '\| ([a-z_][a-z0-9_]*) (\d+) ', 'g') b
                           WHERE b[1] NOT IN ('sign', 'unused', 'time', 'sequence')) END AS max_node
          FROM pg_attrdef d
          JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum AND NOT a.attisdropped,
               regexp_matches(pg_get_expr(d.adbin, d.adrelid),
                              'snowflake_next\(''((?:[^'']|'''')*)''::(?:(?:[a-z_][a-z0-9_$]*|"(?:[^"]|"")+")\.)?snowflake_layout\)|cosid80_(next)\((?:NULL::bigint)?\)', 'g') r,
               LATERAL (SELECT CASE WHEN r[2] IS NOT NULL THEN 'COSID_80' ELSE replace(r[1], '''''', '''') END) x(layout)
         WHERE EXISTS (SELECT FROM pg_depend p
                        WHERE p.classid = 'pg_attrdef'::regclass AND p.objid = d.oid
                          AND p.refclassid = 'pg_proc'::regclass
                          AND p.refobjid IN ('@extschema@.snowflake_next(@extschema@.snowflake_layout)'::regprocedure,
                                             '@extschema@.cosid80_next(bigint)'::regprocedure))) f
 GROUP BY f.layout, f.max_node
 ORDER BY f.layout
$fn$;
COMMENT ON FUNCTION ulid_node_id_layouts() IS 'the layouts this database''s column defaults mint on with the server''s node id (snowflake_next(layout), cosid80_next()): each with the largest node id it holds and its columns';

-- as in sql/ulid.sql (issue 23's section): the problem column also names
-- every layout of a column default that mints on the node id and cannot
-- hold it, and a node id another server held when first seen (issue 40)
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
    was record;
    may_record boolean := has_table_privilege('ulid_nodes.servers', 'INSERT');
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
    cmd := format('SELECT row_to_json(i)::text FROM (SELECT u.*, c.system_identifier FROM %I.ulid_node_identity() u, pg_catalog.pg_control_system() c) i', ext_schema);
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
                   CASE WHEN a.success THEN (a.result::json ->> 'system_identifier')::bigint END AS sysid,
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
        SELECT nd.name, nd.port, nd.id, nd.src, nd.owned, nd.sysid,
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
          FROM @extschema@.ulid_node_id_layouts() l
         WHERE n.id > l.max_node;
        -- the server first seen on this node id, when it was another one
        IF n.id IS NOT NULL AND n.sysid IS NOT NULL THEN
            IF may_record THEN
                INSERT INTO ulid_nodes.servers AS s (node_id, system_identifier, node_name, node_port)
                VALUES (n.id, n.sysid, n.name, n.port) ON CONFLICT ON CONSTRAINT servers_pkey DO NOTHING;
            END IF;
            SELECT * INTO was FROM ulid_nodes.servers s
             WHERE s.node_id = n.id AND s.system_identifier <> n.sysid;
            IF FOUND THEN
                shared := true;
                problem := concat_ws('; ', problem,
                    format('node id %s was another server''s when first seen: %s:%s, system identifier %s (this one''s is %s); '
                           'if that server still runs (a node removed with citus_remove_node keeps minting on its group), both mint equal ids: '
                           'stop it, or set ulid.node_id_source = ''setting'' there; then DELETE FROM ulid_nodes.servers WHERE node_id = %s records this server',
                           n.id, was.node_name, was.node_port, was.system_identifier, n.sysid, n.id));
            END IF;
        END IF;
        RETURN NEXT;
    END LOOP;
END
$fn$;
COMMENT ON FUNCTION ulid_check_node_ids() IS 'on a Citus coordinator: every node''s name, port, node id, its source, the nodes it owns, whether another node owns one of them too (or another server did: ulid_nodes.servers), and its problem: why it has no node id, a column default''s layout that its node id does not fit, or the other server first seen on it (recorded when a superuser runs it)';

-----------------------------------------------------------------------------
-- issue 36: public faces of ids (keys, UUIDv47, masks, Sqids, base32hex)
-----------------------------------------------------------------------------

-- Keys hold no secret in SQL: a key made by name is derived from the
-- keyring root (the file ulid_keyring in the data directory, or the output
-- of ulid.keyring_command), an imported one is stored only wrapped under
-- it; src/keys.c says how.  The table lives in a schema of its own, as
-- pgsodium's and pg_cron's do, so that schema tools and ORMs reading the
-- application's schema never see it.  Owned by the superuser creating the
-- extension (the bootstrap superuser when a database owner installs it).
-- Every role reads it (nothing in it is secret; pg_dump by any role reads
-- it); PUBLIC may INSERT only so that any role restores its own dump (an
-- empty COPY), and a trigger refuses each row but a superuser's.  A
-- superuser's pg_dump holds the rows (names, wrapped imports), any other
-- role's none.
CREATE SCHEMA ulid_keyring;
COMMENT ON SCHEMA ulid_keyring IS 'the named keys of the ulid extension''s masks (ulid_keyring.keys)';
GRANT USAGE ON SCHEMA ulid_keyring TO PUBLIC;
CREATE TABLE ulid_keyring.keys (
    name text PRIMARY KEY CHECK (octet_length(name) BETWEEN 1 AND 63),
    created timestamptz NOT NULL DEFAULT now(),
    wrapped bytea CHECK (octet_length(wrapped) = 24),
    fingerprint bytea NOT NULL CHECK (octet_length(fingerprint) = 8)
);
COMMENT ON TABLE ulid_keyring.keys IS 'the named keys of the masks (ulid_key_create, ulid_key_drop): no secret; a key is made from the keyring root by its name, or imported (wrapped: its secret wrapped under the root); fingerprint: verified against the root';
REVOKE ALL ON ulid_keyring.keys FROM PUBLIC;
GRANT SELECT, INSERT ON ulid_keyring.keys TO PUBLIC;
SELECT pg_catalog.pg_extension_config_dump('ulid_keyring.keys',
    'WHERE (SELECT r.rolsuper FROM pg_catalog.pg_roles r WHERE r.rolname OPERATOR(pg_catalog.=) CURRENT_USER)');

-- Only superusers add, change or remove rows (rows a logical replication
-- worker applies are skipped: keys never travel by replication); each
-- changed row (also a restore's COPY), and TRUNCATE, makes every backend
-- drop its cache of the keys, and a statement that changes no row nothing.
CREATE FUNCTION ulid_keys_trigger() RETURNS trigger
    AS 'MODULE_PATHNAME', 'ulid_keys_trigger' LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION ulid_keys_trigger() IS 'the triggers of ulid_keyring.keys: each row is a superuser''s (rows applied by logical replication are skipped); after each changed row, every backend forgets the keys it cached';
CREATE TRIGGER ulid_keys_superuser BEFORE INSERT OR UPDATE OR DELETE ON ulid_keyring.keys
    FOR EACH ROW EXECUTE FUNCTION ulid_keys_trigger();
ALTER TABLE ulid_keyring.keys ENABLE ALWAYS TRIGGER ulid_keys_superuser;
CREATE TRIGGER ulid_keys_changed AFTER INSERT OR UPDATE OR DELETE ON ulid_keyring.keys
    FOR EACH ROW EXECUTE FUNCTION ulid_keys_trigger();
CREATE TRIGGER ulid_keys_truncated AFTER TRUNCATE ON ulid_keyring.keys
    FOR EACH STATEMENT EXECUTE FUNCTION ulid_keys_trigger();

-- Superusers only, checked at run time too.
CREATE FUNCTION ulid_key_create(name text, secret bytea DEFAULT NULL) RETURNS void
    AS 'MODULE_PATHNAME', 'ulid_key_create' LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION ulid_key_create(text, bytea) IS 'create a named key for the masks: made from the keyring root by its name, or (secret: 16 bytes) imported, stored wrapped under the root; superuser only';
REVOKE ALL ON FUNCTION ulid_key_create(text, bytea) FROM PUBLIC;
CREATE FUNCTION ulid_key_drop(name text) RETURNS void
    AS 'MODULE_PATHNAME', 'ulid_key_drop' LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION ulid_key_drop(text) IS 'drop a named key: masks made with it no longer unmask (a key made by name comes back the same when created again); superuser only';
REVOKE ALL ON FUNCTION ulid_key_drop(text) FROM PUBLIC;
-- ulid_check_local_keys(): this server's keys; ulid_check_keys(): on a
-- Citus coordinator every node's (through run_command_on_all_nodes), each
-- compared with the coordinator's, elsewhere this server's.  PL/pgSQL, so
-- that nothing refers to Citus before it runs.
CREATE FUNCTION ulid_check_local_keys(OUT name text, OUT imported boolean, OUT fingerprint bytea, OUT problem text)
    RETURNS SETOF record
    AS 'MODULE_PATHNAME', 'ulid_check_keys' LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION ulid_check_local_keys() IS 'this server''s keys with their fingerprints, and what is wrong with each (NULL: the keyring root verifies it); superusers and pg_monitor';
REVOKE ALL ON FUNCTION ulid_check_local_keys() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION ulid_check_local_keys() TO pg_monitor;
CREATE FUNCTION ulid_check_keys(OUT node_name text, OUT node_port integer, OUT name text,
        OUT imported boolean, OUT fingerprint bytea, OUT problem text)
    RETURNS SETOF record
    LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    ext_schema name;
BEGIN
    SELECT ns.nspname INTO ext_schema
    FROM pg_extension e JOIN pg_namespace ns ON ns.oid = e.extnamespace WHERE e.extname = 'ulid';
    IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
        IF (SELECT groupid FROM pg_dist_local_group) = 0 THEN
            RETURN QUERY EXECUTE format($q$
                WITH answers AS (
                    SELECT coalesce(d.nodename, current_setting('citus.local_hostname')) AS nname,
                           coalesce(d.nodeport, current_setting('port')::integer) AS nport, r.success, r.result
                    FROM run_command_on_all_nodes(%L) r LEFT JOIN pg_dist_node d ON d.nodeid = r.nodeid
                ), keys AS (
                    SELECT a.nname, a.nport, j.name, j.imported, decode(substr(j.fingerprint, 3), 'hex') AS fp, j.problem
                    FROM answers a, json_to_recordset(a.result::json) j(name text, imported boolean, fingerprint text, problem text)
                    WHERE a.success
                ), coord AS (SELECT * FROM %I.ulid_check_local_keys()),
                pairs AS (
                    SELECT a.nname, a.nport, x.name FROM answers a,
                        (SELECT keys.name FROM keys UNION SELECT coord.name FROM coord) x
                    WHERE a.success
                )
                SELECT p.nname, p.nport, p.name, coalesce(k.imported, c.imported), k.fp,
                       CASE WHEN k.name IS NULL THEN 'the key is missing on this node'
                            WHEN c.name IS NULL THEN 'the coordinator has no such key'
                            WHEN k.problem IS NOT NULL THEN k.problem
                            WHEN k.fp IS DISTINCT FROM c.fingerprint THEN 'its fingerprint differs from the coordinator''s'
                       END
                FROM pairs p
                LEFT JOIN keys k ON k.nname = p.nname AND k.nport = p.nport AND k.name = p.name
                LEFT JOIN coord c ON c.name = p.name
                UNION ALL
                SELECT a.nname, a.nport, NULL, NULL, NULL, 'could not ask the node: ' || a.result
                FROM answers a WHERE NOT a.success
                ORDER BY 3, 1, 2$q$,
                format('SELECT coalesce(json_agg(k), ''[]'')::text FROM %I.ulid_check_local_keys() k', ext_schema),
                ext_schema);
            RETURN;
        END IF;
    END IF;
    RETURN QUERY EXECUTE format('SELECT NULL::text, NULL::integer, k.name, k.imported, k.fingerprint, k.problem FROM %I.ulid_check_local_keys() k ORDER BY k.name', ext_schema);
END
$fn$;
COMMENT ON FUNCTION ulid_check_keys() IS 'the keys and their fingerprints: on a Citus coordinator one row per node and key, with what is wrong (missing on the node, another fingerprint than the coordinator''s, a root that does not verify it); elsewhere this server''s (node_name NULL); superusers and pg_monitor';
REVOKE ALL ON FUNCTION ulid_check_keys() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION ulid_check_keys() TO pg_monitor;

-- The masks read a key that may be dropped and created again with another
-- secret: STABLE, not IMMUTABLE, so that no index, generated column or
-- cached plan keeps a mask computed with a secret that is gone.  Using a
-- key is a grant: EXECUTE on these functions is revoked from PUBLIC, and a
-- superuser grants it to the roles that may mask and unmask.
CREATE FUNCTION uuidv47_encode(id uuid, key text) RETURNS uuid
    AS 'MODULE_PATHNAME', 'ulid_uuidv47_encode_sql' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuidv47_encode(uuid, text) IS 'the UUIDv47 facade of a UUIDv7: its time hidden by SipHash-2-4 under the key, shown as a version 4 UUID (byte for byte the UUIDv47 reference''s)';
REVOKE ALL ON FUNCTION uuidv47_encode(uuid, text) FROM PUBLIC;
CREATE FUNCTION uuidv47_decode(id uuid, key text) RETURNS uuid
    AS 'MODULE_PATHNAME', 'ulid_uuidv47_decode_sql' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuidv47_decode(uuid, text) IS 'the UUIDv7 behind a UUIDv47 facade made with the key';
REVOKE ALL ON FUNCTION uuidv47_decode(uuid, text) FROM PUBLIC;
CREATE FUNCTION ulid_mask(id ulid, key text) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_mask_sql' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_mask(ulid, text) IS 'a ULID with every bit hidden under the key (AES-128 of its 16 bytes): time, randomness and order';
REVOKE ALL ON FUNCTION ulid_mask(ulid, text) FROM PUBLIC;
CREATE FUNCTION ulid_unmask(id ulid, key text) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_unmask_sql' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_unmask(ulid, text) IS 'the ULID behind a ulid_mask() made with the key';
REVOKE ALL ON FUNCTION ulid_unmask(ulid, text) FROM PUBLIC;
CREATE FUNCTION snowflake_mask(id bigint, layout snowflake_layout, key text) RETURNS bigint
    AS 'MODULE_PATHNAME', 'ulid_snowflake_mask_sql' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_mask(bigint, snowflake_layout, text) IS 'a Snowflake id with its time, node and sequence hidden under the key: another valid id of the layout (a keyed permutation of its bits)';
REVOKE ALL ON FUNCTION snowflake_mask(bigint, snowflake_layout, text) FROM PUBLIC;
CREATE FUNCTION snowflake_unmask(id bigint, layout snowflake_layout, key text) RETURNS bigint
    AS 'MODULE_PATHNAME', 'ulid_snowflake_unmask_sql' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_unmask(bigint, snowflake_layout, text) IS 'the Snowflake id behind a snowflake_mask() made with the layout and key';
REVOKE ALL ON FUNCTION snowflake_unmask(bigint, snowflake_layout, text) FROM PUBLIC;

-- Sqids (sqids.org) with the specification's default blocklist, fixed in
-- this version of the extension: IMMUTABLE.
CREATE FUNCTION sqids_encode(numbers bigint[],
                             alphabet text DEFAULT 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
                             min_length integer DEFAULT 0) RETURNS text
    AS 'MODULE_PATHNAME', 'ulid_sqids_encode_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION sqids_encode(bigint[], text, integer) IS 'the Sqids id of a list of numbers (0 to 2^63 - 1), at least min_length long, with no word of the default blocklist';
CREATE FUNCTION sqids_decode(id text,
                             alphabet text DEFAULT 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
                             min_length integer DEFAULT 0) RETURNS bigint[]
    AS 'MODULE_PATHNAME', 'ulid_sqids_decode_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION sqids_decode(text, text, integer) IS 'the numbers of a Sqids id (as the specification decodes; a character outside the alphabet, or an id shorter than min_length, is an error)';

-- RFC 4648 base32hex, as PostgreSQL 19's encode(bytea, 'base32hex')
CREATE FUNCTION ulid_to_base32hex(id ulid) RETURNS text
    AS 'MODULE_PATHNAME', 'ulid_to_base32hex' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_to_base32hex(ulid) IS 'RFC 4648 base32hex text of the 16 bytes, 26 characters 0-9 A-V: PostgreSQL 19''s rtrim(encode(id::uuid::bytea, ''base32hex''), ''='')';
CREATE FUNCTION ulid_from_base32hex(text) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_from_base32hex' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_from_base32hex(text) IS 'a ULID from its base32hex text (either case, with or without its six =)';

-----------------------------------------------------------------------------
-- issue 32: snowflake_next(layout, node) with a NULL node mints on this
-- server's node, as cosid80_next(NULL) does (its DEFAULT NULL cannot tell a
-- NULL from an omitted node); a NULL layout still gives NULL (the C function)
ALTER FUNCTION snowflake_next(snowflake_layout, bigint) CALLED ON NULL INPUT;
COMMENT ON FUNCTION snowflake_next(snowflake_layout, bigint) IS 'the next Snowflake id of a layout on the given node (all node fields together; NULL: this server''s node, ulid.node_id), strictly increasing across backends and restarts';

-----------------------------------------------------------------------------
-- issue 40: one health check for operators
-----------------------------------------------------------------------------
-- One row per problem this server can see (none when healthy), each with
-- its fix (src/health.c lists the checks).  Superusers and pg_monitor only,
-- checked at run time too.  PARALLEL UNSAFE: it catches an error in a
-- subtransaction (the node-id check).
CREATE FUNCTION ulid_health(OUT check_name text, OUT severity text, OUT detail text, OUT fix text)
    RETURNS SETOF record
    AS 'MODULE_PATHNAME', 'ulid_health' LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION ulid_health() IS 'one row per problem this server can see (floor file, preload, advanced states, capacity, node id), with its severity and fix; no rows when healthy (superusers and pg_monitor)';
REVOKE ALL ON FUNCTION ulid_health() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION ulid_health() TO pg_monitor;
