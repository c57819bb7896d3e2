-- ulid 1.1 -> 1.2: frozen once 1.2 is released.  Every SQL change of 1.2
-- (sql/ulid.sql) is repeated here, so that an updated install equals a fresh
-- one; test/scenarios/upgrade.sh compares them.
\echo Use "ALTER EXTENSION ulid UPDATE TO '1.2'" to load this file. \quit
