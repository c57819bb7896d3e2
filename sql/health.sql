-- ulid_health(): one row per problem the server can see, none when healthy
-- (test/scenarios/health.sh damages and removes the floor file, moves it
-- ahead and fills the state table), and who may call it.  On test/run's own
-- server: preloaded, no node id.
SELECT lacks('private server', 'preload', 'default settings') AS lacks \gset
\if :{?lacks}
\echo skipped: needs the private server of test/run (no application mints there), ulid preloaded and no ulid.node_id (test/README.md)
\quit
\endif
-- a healthy server: no rows
SELECT * FROM ulid_health();
-- column defaults that mint on the node id, on a server with none: one
-- row, with the reason and fix of the error an insert raises
CREATE TABLE health_sf (id bigint DEFAULT snowflake_next('twitter'),
                        js bigint DEFAULT snowflake_next('js_safe_ms'),
                        js2 bigint DEFAULT snowflake_next('js_safe_ms'),
                        c text DEFAULT cosid80_next(),
                        own bigint DEFAULT snowflake_next('twitter', 5));
\x on
SELECT * FROM ulid_health();
\x off
SELECT err($$INSERT INTO health_sf (own) VALUES (1)$$) AS the_insert;
-- the layouts those defaults mint on with the node id (the explicit node
-- 5 is not the node id's), with the largest node each holds
SELECT * FROM ulid_node_id_layouts();
DROP TABLE health_sf;
SELECT count(*) AS rows_when_healthy FROM ulid_health();
-- superusers and pg_monitor only: PUBLIC has no EXECUTE, and a grant to
-- another role does not make it callable (42501)
CREATE ROLE regress_health_plain;
CREATE ROLE regress_health_monitor IN ROLE pg_monitor;
SELECT has_function_privilege('public', 'ulid_health()', 'EXECUTE') AS public_may,
       has_function_privilege('pg_monitor', 'ulid_health()', 'EXECUTE') AS pg_monitor_may;
SET ROLE regress_health_plain;
SELECT err('SELECT count(*) FROM ulid_health()') AS plain_role;
RESET ROLE;
GRANT EXECUTE ON FUNCTION ulid_health() TO regress_health_plain;
SET ROLE regress_health_plain;
SELECT err('SELECT count(*) FROM ulid_health()') AS plain_role_granted;
SELECT hint('SELECT count(*) FROM ulid_health()') AS plain_role_hint;
RESET ROLE;
SET ROLE regress_health_monitor;
SELECT count(*) AS pg_monitor_rows FROM ulid_health();
RESET ROLE;
REVOKE EXECUTE ON FUNCTION ulid_health() FROM regress_health_plain;
DROP ROLE regress_health_plain;
DROP ROLE regress_health_monitor;
-- ulid_check_node_ids()'s record of the server behind each node id
-- (test/scenarios/citus.sh): every role reads it, none but superusers write
SELECT has_table_privilege('public', 'ulid_nodes.servers', 'SELECT') AS public_reads,
       has_table_privilege('public', 'ulid_nodes.servers', 'INSERT') AS public_inserts,
       has_table_privilege('public', 'ulid_nodes.servers', 'UPDATE') AS public_updates,
       has_table_privilege('public', 'ulid_nodes.servers', 'DELETE') AS public_deletes;
