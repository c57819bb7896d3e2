-- ulid 1.2 -> 1.3: frozen once 1.3 is released.  Every SQL change of 1.3
-- (sql/ulid.sql) is repeated here, so that an updated install equals a fresh
-- one; test/scenarios/upgrade.sh compares them.
\echo Use "ALTER EXTENSION ulid UPDATE TO '1.3'" to load this file. \quit

-----------------------------------------------------------------------------
-- issue 43: uuid -> ulid on assignment (SPEC section 1)
-----------------------------------------------------------------------------
-- CREATE CAST cannot change a context, and a binary-compatible cast is
-- referenced by nothing (expressions hold a RelabelType, not the cast's
-- OID; pg_depend has only the extension's membership), so it is dropped
-- and created again rather than patched in pg_cast.
DROP CAST (uuid AS ulid);
CREATE CAST (uuid AS ulid) WITHOUT FUNCTION AS ASSIGNMENT;
COMMENT ON CAST (uuid AS ulid) IS 'binary-compatible, on assignment';

-----------------------------------------------------------------------------
-- 1.3, issue 41: paging by id that never skips a row (src/stable_bound.c)
-----------------------------------------------------------------------------
-- STABLE: one statement's bound, evaluated once as an index condition
-- (WHERE id > $cursor AND id < ulid_stable_bound()); every evaluation is a
-- correct bound for the statement's snapshot, so a plan that evaluates it
-- per row pages correctly too.
CREATE FUNCTION ulid_stable_bound() RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_stable_bound' LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION ulid_stable_bound() IS 'a gen_monotonic_ulid() id such that no row with a smaller id that this statement cannot see can still commit: page with WHERE id > $cursor AND id < ulid_stable_bound()';
CREATE FUNCTION snowflake_stable_bound(layout snowflake_layout, node bigint DEFAULT NULL) RETURNS bigint
    AS 'MODULE_PATHNAME', 'snowflake_stable_bound' LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_stable_bound(snowflake_layout, bigint) IS 'a snowflake_next() id of the layout and node (NULL: this server''s node) such that no row with a smaller id that this statement cannot see can still commit';
CREATE FUNCTION cosid80_stable_bound(node bigint DEFAULT NULL) RETURNS text
    AS 'MODULE_PATHNAME', 'cosid80_stable_bound' LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION cosid80_stable_bound(bigint) IS 'a cosid80_next() id of the node (NULL: this server''s node) such that no row with a smaller id that this statement cannot see can still commit';

-- uuid_extract_timestamp() reads version 6 UUIDs too (as PostgreSQL's
-- development branch does); the function is the same C symbol
COMMENT ON FUNCTION @extschema@.uuid_extract_timestamp(uuid) IS 'PostgreSQL 18''s uuid_extract_timestamp(): the time of a version 1, 6 or 7 UUID, else NULL (on 17+ an unqualified call is core''s; 17''s reads version 1 only, 18''s 1 and 7)';
