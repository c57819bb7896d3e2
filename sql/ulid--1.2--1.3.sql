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
