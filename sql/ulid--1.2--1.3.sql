-- ulid 1.2 -> 1.3: frozen once 1.3 is released.  Every SQL change of 1.3
-- (sql/ulid.sql) is repeated here, so that an updated install equals a fresh
-- one; test/scenarios/upgrade.sh compares them.
\echo Use "ALTER EXTENSION ulid UPDATE TO '1.3'" to load this file. \quit
