-- ulid 1.0 -> 1.1: frozen once 1.1 is released.  Every SQL change of 1.1
-- (sql/ulid.sql) is repeated here, so that an updated install equals a fresh
-- one; test/scenarios/upgrade.sh compares them.
\echo Use "ALTER EXTENSION ulid UPDATE TO '1.1'" to load this file. \quit
