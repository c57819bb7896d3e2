-- ulid 1.0 -> 1.1: frozen once 1.1 is released.  Every SQL change of 1.1
-- (sql/ulid.sql) is repeated here, so that an updated install equals a fresh
-- one; test/scenarios/upgrade.sh compares them.
\echo Use "ALTER EXTENSION ulid UPDATE TO '1.1'" to load this file. \quit

-- issue 25: an abbreviated sort key of ulid's own (1.0 used core's
-- uuid_sortsupport, whose key is the first 8 bytes).  ulid_ops refers to
-- the function by oid, so replacing it switches the opclass.
CREATE OR REPLACE FUNCTION ulid_sortsupport(internal) RETURNS void
    AS 'MODULE_PATHNAME', 'ulid_sortsupport' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_sortsupport(internal) IS 'btree sort support: byte order, with abbreviated keys that skip the leading zero bits of the time to hold random bits past the first 8 bytes';
