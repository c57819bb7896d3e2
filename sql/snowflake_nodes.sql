-- Node identity (SPEC section 5): a server mints Snowflake and COSID_80 ids
-- only on the nodes it owns, ulid.node_id (or its Citus group id) and
-- ulid.node_ids.  The regression server has no ulid.node_id and owns
-- 0-65535 through ulid.node_ids (test/run).  Reloads and
-- ulid.node_id_source = 'citus' without Citus:
-- test/scenarios/node_identity.sh; a Citus cluster: test/scenarios/citus.sh.
SELECT lacks('shared state', 'default settings', 'setting ulid.node_ids=0-65535', 'setting ulid.node_id_source=setting') AS lacks \gset
\if :{?lacks}
\echo skipped: needs the shared generator state, no ulid.node_id, ulid.node_ids = 0-65535 and ulid.node_id_source = setting (test/README.md)
\quit
\endif
SELECT current_setting('ulid.node_id') AS node_id, current_setting('ulid.node_ids') AS node_ids,
       current_setting('ulid.node_id_source') AS node_id_source;
SELECT * FROM ulid_node_identity();

-- an owned node mints; Instagram's logical shards, all 8,192 of them
SELECT count(DISTINCT snowflake_next('instagram', g)) AS shards,
       bool_and(snowflake_node(snowflake_next('instagram', g), 'instagram') = g) AS node_ok
FROM generate_series(0, 8191) g;

-- a node the server does not own: 55000 naming the node, the owned set and
-- the setting that adds it
SELECT err($$SELECT snowflake_next('scru64(node_bits=20)', 65536)$$) AS not_owned;
SELECT hint($$SELECT snowflake_next('scru64(node_bits=20)', 65536)$$) AS not_owned_hint;
SELECT err($$SELECT cosid80_next(70000)$$) AS cosid80_not_owned;
SELECT hint($$SELECT cosid80_next(70000)$$) AS cosid80_not_owned_hint;
-- a node the layout cannot hold is 22003 first, owned or not
SELECT err($$SELECT snowflake_next('twitter', 65536)$$) AS too_big_for_twitter;
SELECT err($$SELECT cosid80_next(1048576)$$) AS too_big_for_cosid80;
-- no state was made for a refused node
SELECT count(*) AS refused_states FROM ulid_generator_state WHERE node IN (65536, 70000);

-- every way a node reaches the functions: a column, a PL/pgSQL variable, an
-- SQL function, a generic plan
CREATE TEMP TABLE nodes (n bigint);
INSERT INTO nodes VALUES (5), (65536);
SELECT err($$SELECT count(snowflake_next('scru64(node_bits=20)', n)) FROM nodes$$) AS from_column;
SELECT err($$SELECT count(cosid80_next(n)) FROM nodes$$) AS cosid80_from_column;
CREATE FUNCTION pg_temp.mint(node bigint) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE n bigint := node;
BEGIN
    RETURN snowflake_next('scru64(node_bits=20)', n);
END $$;
SELECT snowflake_node(pg_temp.mint(65535), 'scru64(node_bits=20)') AS plpgsql_owned,
       err($$SELECT pg_temp.mint(65536)$$) AS plpgsql_not_owned;
CREATE FUNCTION pg_temp.mint_sql(bigint) RETURNS text LANGUAGE sql AS $$ SELECT cosid80_next($1) $$;
SELECT (cosid80_parts(pg_temp.mint_sql(65535)) ->> 'node')::int AS sql_owned,
       err($$SELECT pg_temp.mint_sql(65536)$$) AS sql_not_owned;
SET plan_cache_mode = force_generic_plan;
PREPARE mint_p(bigint) AS SELECT snowflake_node(snowflake_next('scru64(node_bits=20)', $1), 'scru64(node_bits=20)');
EXECUTE mint_p(65535);
EXECUTE mint_p(65536);
DEALLOCATE mint_p;
RESET plan_cache_mode;

-- the same for a plain role; no role can change what the server owns
CREATE ROLE regress_node_user;
SET ROLE regress_node_user;
SELECT snowflake_node(snowflake_next('twitter', 1023), 'twitter') AS plain_owned;
SELECT err($$SELECT snowflake_next('scru64(node_bits=20)', 65536)$$) AS plain_not_owned;
SELECT err($$SELECT cosid80_next(65536)$$) AS plain_cosid80_not_owned;
SELECT err($$SELECT set_config('ulid.node_ids', '0-1048575', false)$$) AS plain_set_node_ids;
SELECT err($$SELECT set_config('ulid.node_id_source', 'citus', false)$$) AS plain_set_source;
SELECT * FROM ulid_node_identity();
RESET ROLE;
DROP ROLE regress_node_user;
SELECT err($$SELECT set_config('ulid.node_ids', '0-1048575', false)$$) AS superuser_set_node_ids;

-- the settings; a value of ulid.node_ids that is not a set of nodes is
-- refused (ALTER SYSTEM checks it and writes nothing)
SELECT name, setting, context, vartype, enumvals FROM pg_settings
WHERE name IN ('ulid.node_id', 'ulid.node_ids', 'ulid.node_id_source') ORDER BY name;
ALTER SYSTEM SET ulid.node_ids = '10-5';
ALTER SYSTEM SET ulid.node_ids = '1,,2';
ALTER SYSTEM SET ulid.node_ids = '0-9007199254740992';
ALTER SYSTEM SET ulid.node_ids = 'all';
ALTER SYSTEM SET ulid.node_id_source = 'coordinator';

-- the view shows the owned set
SELECT DISTINCT owned_nodes FROM ulid_generator_state;

-- ulid_check_node_ids() checks a Citus cluster: here there is none
SELECT err($$SELECT count(*) FROM ulid_check_node_ids()$$) AS check_without_citus;
SELECT hint($$SELECT count(*) FROM ulid_check_node_ids()$$) AS check_without_citus_hint;
