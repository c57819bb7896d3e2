-- ulid 1.0 -> 1.1: frozen once 1.1 is released.  Every SQL change of 1.1
-- (sql/ulid.sql) is repeated here, so that an updated install equals a fresh
-- one; test/scenarios/upgrade.sh compares them.
\echo Use "ALTER EXTENSION ulid UPDATE TO '1.1'" to load this file. \quit

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
