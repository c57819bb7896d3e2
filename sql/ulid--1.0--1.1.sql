-- ulid 1.0 -> 1.1: frozen once 1.1 is released.  Every SQL change of 1.1
-- (sql/ulid.sql) is repeated here, so that an updated install equals a fresh
-- one; test/scenarios/upgrade.sh compares them.
\echo Use "ALTER EXTENSION ulid UPDATE TO '1.1'" to load this file. \quit

-----------------------------------------------------------------------------
-- issue 24: drop-in names (SPEC section 4, "Drop-in names")
-----------------------------------------------------------------------------
-- PostgreSQL 18's uuidv7(), uuidv7(shift), uuidv4(), uuid_extract_timestamp()
-- and uuid_extract_version(), and pg_uuidv7 1.6's five functions, created on
-- every major in the extension's schema.  Nothing in pg_catalog is shadowed:
-- pg_catalog is searched first (unless a search_path names it later), so
-- where core has a name (uuid_extract_* on 17; all five on 18+) an
-- unqualified call is core's, and only a schema-qualified one (ext.uuidv7())
-- reaches these.  They are created on 18+ too, not only where core lacks
-- them: a column default or view made on 15-17 refers to this function
-- (pg_dump writes it schema-qualified, public.uuidv7()), so a dump restored
-- on 18, or pg_upgrade to 18, needs it to exist; there it gives what core's
-- gives.  The same script on every major also keeps an updated install
-- equal to a fresh one.  Every later reference to these five in this
-- script is schema-qualified (@extschema@): unqualified, on 17/18+ it would
-- name core's function (a COMMENT ON would change core's comment).
--
-- uuidv7() and uuid_generate_v7() are gen_uuidv7() itself (one C function,
-- one per-backend order), hence parallel restricted as it is; core's and
-- pg_uuidv7's are parallel safe.  pg_uuidv7 marks its readers STABLE: here
-- they are IMMUTABLE (a UUID's time depends on nothing else), so generated
-- columns and index expressions take them; it marks uuid_timestamptz_to_v7()
-- and uuid_timestamp_to_v7() STABLE although without zero they return random
-- values: here they are VOLATILE, and a planner support function folds a call
-- with zero => true (the constant) into the bound it returns, so WHERE id >=
-- uuid_timestamptz_to_v7(..., true) still bounds an index scan.
CREATE FUNCTION uuidv7() RETURNS uuid
    AS 'MODULE_PATHNAME', 'gen_uuidv7' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
CREATE FUNCTION uuidv7(shift interval) RETURNS uuid
    AS 'MODULE_PATHNAME', 'ulid_uuidv7_shift' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
CREATE FUNCTION uuidv4() RETURNS uuid
    AS 'MODULE_PATHNAME', 'ulid_uuidv4' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_extract_timestamp(uuid) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'ulid_uuid_extract_timestamp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uuid_extract_version(uuid) RETURNS smallint
    AS 'MODULE_PATHNAME', 'ulid_uuid_extract_version' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION @extschema@.uuidv7() IS 'PostgreSQL 18''s uuidv7() on every major: gen_uuidv7(), a new UUIDv7 strictly increasing within this session (on 18+ an unqualified call is core''s)';
COMMENT ON FUNCTION @extschema@.uuidv7(interval) IS 'PostgreSQL 18''s uuidv7(shift) on every major: a new UUIDv7 of the current time plus shift (on 18+ an unqualified call is core''s)';
COMMENT ON FUNCTION @extschema@.uuidv4() IS 'PostgreSQL 18''s uuidv4() on every major: a new random UUID (version 4), as gen_random_uuid() (on 18+ an unqualified call is core''s)';
COMMENT ON FUNCTION @extschema@.uuid_extract_timestamp(uuid) IS 'PostgreSQL 18''s uuid_extract_timestamp(): the time of a version 1 or 7 UUID, else NULL (on 17+ an unqualified call is core''s; 17''s reads version 1 only)';
COMMENT ON FUNCTION @extschema@.uuid_extract_version(uuid) IS 'PostgreSQL 18''s uuid_extract_version(): the version of an RFC 9562 UUID, else NULL (on 17+ an unqualified call is core''s)';

-- pg_uuidv7 1.6's names
CREATE FUNCTION uuidv7_from_time_support(internal) RETURNS internal
    AS 'MODULE_PATHNAME', 'ulid_uuidv7_from_time_support' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_generate_v7() RETURNS uuid
    AS 'MODULE_PATHNAME', 'gen_uuidv7' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
CREATE FUNCTION uuid_v7_to_timestamptz(uuid) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'ulid_time' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_timestamptz_to_v7(timestamptz, zero boolean DEFAULT false) RETURNS uuid
    AS 'MODULE_PATHNAME', 'ulid_uuid_timestamptz_to_v7' LANGUAGE C VOLATILE STRICT PARALLEL SAFE
    SUPPORT uuidv7_from_time_support;
CREATE FUNCTION uuid_v7_to_timestamp(uuid) RETURNS timestamp
    AS 'MODULE_PATHNAME', 'ulid_to_timestamp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_timestamp_to_v7(timestamp, zero boolean DEFAULT false) RETURNS uuid
    AS 'MODULE_PATHNAME', 'ulid_uuid_timestamp_to_v7' LANGUAGE C VOLATILE STRICT PARALLEL SAFE
    SUPPORT uuidv7_from_time_support;
COMMENT ON FUNCTION uuidv7_from_time_support(internal) IS 'planner support: folds uuid_timestamptz_to_v7(ts, true) and uuid_timestamp_to_v7(ts, true) into the bound they return';
COMMENT ON FUNCTION uuid_generate_v7() IS 'pg_uuidv7''s uuid_generate_v7(): gen_uuidv7(), a new UUIDv7 strictly increasing within this session';
COMMENT ON FUNCTION uuid_v7_to_timestamptz(uuid) IS 'pg_uuidv7''s uuid_v7_to_timestamptz(): the first 48 bits as a time, exact to the millisecond (uuidv7_time)';
COMMENT ON FUNCTION uuid_timestamptz_to_v7(timestamptz, boolean) IS 'pg_uuidv7''s uuid_timestamptz_to_v7(): a new random UUIDv7 of that time, or with zero the smallest UUIDv7 of its millisecond (uuidv7_lower)';
COMMENT ON FUNCTION uuid_v7_to_timestamp(uuid) IS 'pg_uuidv7''s uuid_v7_to_timestamp(): the first 48 bits as a UTC wall time, exact to the millisecond';
COMMENT ON FUNCTION uuid_timestamp_to_v7(timestamp, boolean) IS 'pg_uuidv7''s uuid_timestamp_to_v7(): as uuid_timestamptz_to_v7, the timestamp read as UTC';

-- For uuid columns holding UUIDv7s, what ulid_time/ulid_lower/ulid_upper
-- are for ulid: immutable, for range scans and partition bounds
CREATE FUNCTION uuidv7_time(uuid) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'ulid_time' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuidv7_lower(timestamptz) RETURNS uuid
    AS 'MODULE_PATHNAME', 'ulid_uuidv7_lower' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuidv7_upper(timestamptz) RETURNS uuid
    AS 'MODULE_PATHNAME', 'ulid_uuidv7_upper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuidv7_time(uuid) IS 'the time of a UUIDv7 (its first 48 bits), exact to the millisecond';
COMMENT ON FUNCTION uuidv7_lower(timestamptz) IS 'smallest UUIDv7 of that millisecond (all bits after the time 0 but version and variant): a range-scan bound';
COMMENT ON FUNCTION uuidv7_upper(timestamptz) IS 'largest UUIDv7 of that millisecond (all bits after the time 1 but version and variant): a range-scan bound';
-- issue 22: one call after a restore or a logical move
-- Finds every column of the current database whose default calls
-- gen_monotonic_ulid(), snowflake_next() or cosid80_next() and advances that
-- generator's state above the column's largest value (plus margin).  Only
-- defaults that are the plain call (constant arguments) are read: the
-- arguments are matched as literals, never evaluated as SQL, so a table
-- owner cannot make the superuser running this execute anything.  Other
-- defaults that call a generator are skipped with a WARNING naming them.
-- PARALLEL UNSAFE: it advances (writes the floor file and WAL).
CREATE FUNCTION ulid_advance_from_tables(margin interval DEFAULT '0', include_far_ahead boolean DEFAULT false)
RETURNS TABLE (table_name regclass, column_name name, generator text, advanced_to text)
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    c record;
    q text := '(?:(?:[a-z_][a-z0-9_$]*|"(?:[^"]|"")+")\.)?';	-- an optional schema
    m_s text[];
    m_c text[];
    q_max text;
    prev_role text;
    prev_rs text;
    top text;
    t timestamptz;
    lay @extschema@.snowflake_layout;
    nod bigint;
    id_u @extschema@.ulid;
    id_s bigint;
    id_c text;
BEGIN
    IF NOT (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user) THEN
        RAISE EXCEPTION 'must be superuser to advance the ulid generators from tables'
            USING ERRCODE = '42501',
                  DETAIL = 'The shared generator state is a server-wide resource.';
    END IF;
    IF margin IS NULL OR margin < interval '0' THEN
        RAISE EXCEPTION 'margin must be zero or positive, not %', coalesce(margin::text, 'NULL')
            USING ERRCODE = '22023',
                  DETAIL = 'The generators are advanced above each column''s largest id plus the margin.',
                  HINT = 'Pass a margin such as interval ''1 minute'', or leave it out.';
    END IF;
    FOR c IN
        SELECT d.adrelid::regclass AS rel, a.attname, a.atttypid, r.relowner::regrole::text AS owner,
               pg_get_expr(d.adbin, d.adrelid) AS def
          FROM pg_attrdef d
          JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum
          JOIN pg_class r ON r.oid = d.adrelid
         WHERE NOT a.attisdropped AND a.attgenerated = ''
           AND r.relkind IN ('r', 'p') AND NOT r.relispartition
           AND (r.relpersistence <> 't' OR r.relnamespace = pg_my_temp_schema())
           AND EXISTS (SELECT FROM pg_depend p
                        WHERE p.classid = 'pg_attrdef'::regclass AND p.objid = d.oid
                          AND p.refclassid = 'pg_proc'::regclass
                          AND p.refobjid IN ('@extschema@.gen_monotonic_ulid()'::regprocedure,
                                             '@extschema@.snowflake_next(@extschema@.snowflake_layout)'::regprocedure,
                                             '@extschema@.snowflake_next(@extschema@.snowflake_layout, bigint)'::regprocedure,
                                             '@extschema@.cosid80_next(bigint)'::regprocedure))
         ORDER BY r.relnamespace::regnamespace::text, r.relname, a.attnum
    LOOP
        table_name := c.rel;
        column_name := c.attname;
        advanced_to := NULL;
        top := NULL;
        nod := NULL;
        m_s := CASE WHEN c.atttypid = 'bigint'::regtype THEN
                   regexp_match(c.def, '^' || q || 'snowflake_next\(''((?:[^'']|'''')*)''::' || q
                                || 'snowflake_layout(?:, (?:\(?(\d+)\)?(?:::bigint)?))?\)$') END;
        m_c := CASE WHEN c.atttypid IN ('text'::regtype, 'varchar'::regtype) THEN
                   regexp_match(c.def, '^' || q || 'cosid80_next\((?:NULL::bigint|\(?(\d+)\)?(?:::bigint)?)\)$') END;
        IF c.def ~ ('^(?:\()?' || q || 'gen_monotonic_ulid\(\)(?:\)::' || q || 'uuid)?$')
           AND c.atttypid IN ('@extschema@.ulid'::regtype, 'uuid'::regtype) THEN
            generator := 'gen_monotonic_ulid()';
            q_max := format('SELECT %I::@extschema@.ulid::text FROM %s ORDER BY %I DESC NULLS LAST LIMIT 1',
                            c.attname, c.rel, c.attname);
        ELSIF m_s IS NOT NULL THEN
            lay := replace(m_s[1], '''''', '''')::@extschema@.snowflake_layout;
            nod := coalesce(m_s[2]::bigint, nullif(current_setting('ulid.node_id'), '-1')::bigint);
            generator := format('snowflake_next(%L, %s)', lay, coalesce(nod::text, 'NULL'));
            q_max := format('SELECT %I::text FROM %s ORDER BY %I DESC NULLS LAST LIMIT 1',
                            c.attname, c.rel, c.attname);
        ELSIF m_c IS NOT NULL THEN
            nod := coalesce(m_c[1]::bigint, nullif(current_setting('ulid.node_id'), '-1')::bigint);
            generator := format('cosid80_next(%s)', coalesce(nod::text, 'NULL'));
            q_max := format('SELECT %I::text FROM %s ORDER BY %I COLLATE "C" DESC NULLS LAST LIMIT 1',
                            c.attname, c.rel, c.attname);
        ELSE
            generator := NULL;
            RAISE WARNING 'column %.% skipped: its default is not a plain generator call', c.rel, quote_ident(c.attname)
                USING DETAIL = format('The default is %s. ulid_advance_from_tables() reads gen_monotonic_ulid() on ulid or uuid columns, snowflake_next(''layout''[, node]) on bigint and cosid80_next([node]) on text, with constant arguments.', c.def),
                      HINT = 'Advance this generator by hand: ulid_monotonic_advance(), snowflake_advance() or cosid80_advance() with the column''s largest id.';
            RETURN NEXT;
            CONTINUE;
        END IF;
        -- the largest id, read as the table's owner (whose code, such as an
        -- index expression, then runs with the owner's rights, not ours),
        -- with row security off: a policy that hides rows makes it fail
        -- rather than read a smaller maximum
        prev_role := current_setting('role');
        prev_rs := current_setting('row_security');
        BEGIN
            PERFORM set_config('role', c.owner, true);
            PERFORM set_config('row_security', 'off', true);
            EXECUTE q_max INTO top;
            PERFORM set_config('role', prev_role, true);
            PERFORM set_config('row_security', prev_rs, true);
        EXCEPTION WHEN OTHERS THEN
            PERFORM set_config('role', prev_role, true);
            RAISE WARNING 'column %.% skipped: its largest id cannot be read as the table''s owner %', c.rel, quote_ident(c.attname), c.owner
                USING DETAIL = SQLERRM,
                      HINT = 'Advance this generator by hand: ulid_monotonic_advance(), snowflake_advance() or cosid80_advance() with the column''s largest id.';
            RETURN NEXT;
            CONTINUE;
        END;
        IF top IS NOT NULL THEN
            t := CASE WHEN generator = 'gen_monotonic_ulid()' THEN @extschema@.ulid_time(top::@extschema@.ulid)
                      WHEN m_s IS NOT NULL THEN @extschema@.snowflake_time(top::bigint, lay)
                      ELSE @extschema@.cosid80_time(top) END;
        END IF;
        IF top IS NULL THEN
            RETURN NEXT;			-- no id stored: nothing to advance
            CONTINUE;
        END IF;
        IF generator <> 'gen_monotonic_ulid()' AND nod IS NULL THEN
            RAISE WARNING 'column %.% skipped: this server has no node id for %', c.rel, quote_ident(c.attname), generator
                USING DETAIL = 'The default mints on ulid.node_id, which is not set.',
                      HINT = 'Set ulid.node_id (the node the ids were minted on, if this server takes its place) and call ulid_advance_from_tables() again.';
            RETURN NEXT;
            CONTINUE;
        END IF;
        IF t > clock_timestamp() + interval '1 day' AND NOT include_far_ahead THEN
            RAISE WARNING 'column %.% skipped: its largest id lies more than a day ahead of the clock', c.rel, quote_ident(c.attname)
                USING DETAIL = format('The largest id is %s, of %s. Ids that far ahead were usually not made by %s (random UUIDs converted to ulid, ids from another system); advancing to it would move the generator there.', top, t, generator),
                      HINT = 'If the generator must issue above it anyway, call ulid_advance_from_tables(include_far_ahead => true).';
            RETURN NEXT;
            CONTINUE;
        END IF;
        IF generator = 'gen_monotonic_ulid()' THEN
            id_u := top::@extschema@.ulid;
            IF margin > interval '0' THEN
                id_u := greatest(id_u, @extschema@.ulid_upper(t + margin));
            END IF;
            PERFORM @extschema@.ulid_monotonic_advance(id_u);
            advanced_to := id_u::text;
        ELSIF generator LIKE 'snowflake_next(%' THEN
            id_s := top::bigint;
            IF margin > interval '0' THEN
                id_s := greatest(id_s, @extschema@.snowflake_upper(lay, t + margin));
            END IF;
            PERFORM @extschema@.snowflake_advance(lay, nod, id_s);
            advanced_to := id_s::text;
        ELSE
            id_c := top;
            IF margin > interval '0' THEN
                id_c := greatest(id_c COLLATE "C", @extschema@.cosid80_from_friendly(
                            to_char((t + margin) AT TIME ZONE 'UTC', 'YYYYMMDDHH24MISSMS') || '-1048575-65535', 'UTC') COLLATE "C");
            END IF;
            PERFORM @extschema@.cosid80_advance(nod, id_c);
            advanced_to := id_c;
        END IF;
        RETURN NEXT;
    END LOOP;
END
$fn$;
COMMENT ON FUNCTION ulid_advance_from_tables(interval, boolean) IS 'after a restore or a logical move: advance every generator a column default calls above the column''s largest id plus margin (superuser only)';
REVOKE ALL ON FUNCTION ulid_advance_from_tables(interval, boolean) FROM PUBLIC;
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
COMMENT ON VIEW ulid_generator_state IS 'one row per live shared generator state: kind, layout, node, last tick and id, sequence, counts, states that gave way, its own floor (advanced), the server-wide persisted floor and the nodes this server owns';

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

-----------------------------------------------------------------------------
-- issue 25: an abbreviated sort key of ulid's own
-----------------------------------------------------------------------------
-- 1.0 used core's uuid_sortsupport, whose key is the first 8 bytes.  ulid_ops
-- refers to the function by oid, so replacing it switches the opclass.
CREATE OR REPLACE FUNCTION ulid_sortsupport(internal) RETURNS void
    AS 'MODULE_PATHNAME', 'ulid_sortsupport' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_sortsupport(internal) IS 'btree sort support: byte order, with abbreviated keys that skip the leading zero bits of the time to hold random bits past the first 8 bytes';
