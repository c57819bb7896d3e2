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
