-- ulid 1.1 -> 1.2: frozen once 1.2 is released.  Every SQL change of 1.2
-- (sql/ulid.sql) is repeated here, so that an updated install equals a fresh
-- one; test/scenarios/upgrade.sh compares them.
\echo Use "ALTER EXTENSION ulid UPDATE TO '1.2'" to load this file. \quit

-- issue 32: snowflake_next(layout, node) with a NULL node mints on this
-- server's node, as cosid80_next(NULL) does (its DEFAULT NULL cannot tell a
-- NULL from an omitted node); a NULL layout still gives NULL (the C function)
ALTER FUNCTION snowflake_next(snowflake_layout, bigint) CALLED ON NULL INPUT;
COMMENT ON FUNCTION snowflake_next(snowflake_layout, bigint) IS 'the next Snowflake id of a layout on the given node (all node fields together; NULL: this server''s node, ulid.node_id), strictly increasing across backends and restarts';
