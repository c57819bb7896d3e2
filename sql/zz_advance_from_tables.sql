-- ulid_advance_from_tables() (issue 22): after a restore or a logical move,
-- one call advances every generator a column default calls above the
-- column's largest id.  Runs last (zz_): it creates Snowflake and COSID_80
-- states (node 31) that other files list.  In a database of its own, so
-- that only these tables are found.  It advances and resets
-- gen_monotonic_ulid()'s one state and node 31, so it runs only on
-- test/run's own server (test/README.md).
SELECT lacks('shared state', 'nodes 31', 'private server') AS lacks \gset
\if :{?lacks}
\echo skipped: needs the shared generator state, node 31 and the server test/run starts (test/README.md)
\quit
\endif
\set regress_db :DBNAME
CREATE DATABASE regress_ulid_aft;
\c regress_ulid_aft
SET client_min_messages = warning;
CREATE EXTENSION ulid;
RESET client_min_messages;
SET timezone = 'UTC';
CREATE TABLE aft_m (id ulid PRIMARY KEY DEFAULT gen_monotonic_ulid(), n int);
CREATE TABLE aft_s (id bigint PRIMARY KEY DEFAULT snowflake_next('twitter', 31), n int);
CREATE TABLE aft_c (id text PRIMARY KEY DEFAULT cosid80_next(31), n int);
CREATE TABLE aft_empty (id bigint DEFAULT snowflake_next('discord', 31));
-- a table converted from random UUIDs: its largest id lies far ahead
CREATE TABLE aft_converted (id uuid PRIMARY KEY DEFAULT gen_monotonic_ulid());
-- the generator behind the cast a column type change leaves
CREATE TABLE aft_wrapped (id text DEFAULT gen_monotonic_ulid()::text);
-- restored ids: Snowflake and COSID_80 10 minutes ahead of this server's
-- clock (the new server's clock is behind the old one's); the monotonic
-- one the largest ULID of the generator's current millisecond
INSERT INTO aft_m (id) SELECT ulid_upper(ulid_time(gen_monotonic_ulid()));
INSERT INTO aft_s (id) SELECT snowflake_pack('twitter', clock_timestamp() + interval '10 minutes', 31, 7);
INSERT INTO aft_c (id) SELECT cosid80_from_friendly(to_char(clock_timestamp() + interval '10 minutes', 'YYYYMMDDHH24MISSMS') || '-0000031-00007');
INSERT INTO aft_converted VALUES ('ffffffff-0000-4000-8000-000000000000');
INSERT INTO aft_wrapped DEFAULT VALUES;
SELECT id AS m_max FROM aft_m \gset
SELECT id AS s_max FROM aft_s \gset
SELECT id AS c_max FROM aft_c \gset
-- one row per column; the converted one is skipped with a WARNING that
-- names it; the empty one has nothing to advance; the two 10 minutes ahead
-- are left alone (issue 40: more than a minute ahead, in tables nobody
-- named: their WARNINGs name this second's ids, so quiet here)
SET client_min_messages = error;
SELECT table_name, column_name, generator,
       CASE table_name::text
           WHEN 'aft_m' THEN advanced_to = :'m_max'
           WHEN 'aft_s' THEN advanced_to = :'s_max'
           WHEN 'aft_c' THEN advanced_to = :'c_max'
       END AS advanced_to_max, advanced_to IS NULL AS not_advanced,
       CASE WHEN note LIKE '% ahead of the clock, table not trusted' THEN 'ahead, not trusted'
            WHEN note NOT LIKE 'at or below the clock%' THEN note END AS note
FROM ulid_advance_from_tables();
RESET client_min_messages;
-- named as trusted, they are advanced
SELECT table_name, advanced_to IS NOT NULL AS advanced, note
FROM ulid_advance_from_tables(trusted => '{aft_s, aft_c}') WHERE table_name::text IN ('aft_s', 'aft_c');
-- every new id lies above the restored ones, at once
SELECT gen_monotonic_ulid() > :'m_max'::ulid AS m_above,
       snowflake_next('twitter', 31) > :s_max AS s_above,
       cosid80_next(31) > :'c_max' COLLATE "C" AS c_above;
INSERT INTO aft_m (n) VALUES (1);
INSERT INTO aft_s (n) VALUES (1);
INSERT INTO aft_c (n) VALUES (1);
SELECT (SELECT count(*) FROM aft_m) AS m_rows, (SELECT count(*) FROM aft_s) AS s_rows,
       (SELECT count(*) FROM aft_c) AS c_rows;
-- (advanced or not depends on where the server-wide floor lies: quiet)
SET client_min_messages = error;
SELECT ulid_monotonic_reset();
RESET client_min_messages;
-- with a margin: above the largest id's time plus the margin (the
-- monotonic table and the skipped ones out of the way first)
ALTER TABLE aft_m ALTER id DROP DEFAULT;
DROP TABLE aft_converted, aft_wrapped;
SELECT table_name, advanced_to IS NOT NULL AS advanced FROM ulid_advance_from_tables(interval '1 hour', trusted => '{aft_s, aft_c}');
SELECT snowflake_time(snowflake_next('twitter', 31), 'twitter') > snowflake_time(:s_max, 'twitter') + interval '1 hour' AS s_margin,
       cosid80_time(cosid80_next(31)) > cosid80_time(:'c_max') + interval '1 hour' AS c_margin;
-- ids from another system, far ahead: skipped with a WARNING; told to
-- include them, advanced (with the advance's own WARNING)
CREATE TABLE aft_far (id bigint DEFAULT snowflake_next('discord', 31));
INSERT INTO aft_far VALUES (9000000000000000000);
SELECT table_name, advanced_to FROM ulid_advance_from_tables(exclude => '{aft_s, aft_c}') WHERE table_name::text = 'aft_far';
SELECT table_name, advanced_to FROM ulid_advance_from_tables(include_far_ahead => true, exclude => '{aft_s, aft_c}') WHERE table_name::text = 'aft_far';
SELECT snowflake_next('discord', 31) > 9000000000000000000 AS far_above;
\set VERBOSITY terse
SELECT snowflake_reset('twitter', 31), cosid80_reset(31), snowflake_reset('discord', 31);
\set VERBOSITY default
-- the largest id is read without running the table owner's code, and row
-- security does not hide rows from it: a policy that would hide every row
-- changes nothing (test/scenarios/advance_from_tables.sh plants attacks)
DROP TABLE aft_m, aft_s, aft_c, aft_empty, aft_far;
CREATE ROLE regress_aft_owner;
CREATE TABLE aft_rls (id bigint DEFAULT snowflake_next('discord', 31));
INSERT INTO aft_rls VALUES (snowflake_pack('discord', clock_timestamp(), 31, 1));
ALTER TABLE aft_rls OWNER TO regress_aft_owner;
ALTER TABLE aft_rls ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;
CREATE POLICY aft_none ON aft_rls USING (false);
SELECT table_name, generator, advanced_to::bigint = (SELECT id FROM aft_rls) AS advanced_to_max FROM ulid_advance_from_tables();
SELECT current_user = session_user AS role_restored, current_setting('row_security') AS row_security;
-- (advanced or not depends on where the server-wide floor lies: quiet)
SET client_min_messages = error;
SELECT snowflake_reset('discord', 31);
RESET client_min_messages;
DROP TABLE aft_rls;
DROP ROLE regress_aft_owner;
-- issue 40, A5: a default on the column's domain (or on the domain it
-- derives from) is found; a domain-typed column's own default is read
CREATE DOMAIN aft_dom AS ulid DEFAULT gen_monotonic_ulid();
CREATE DOMAIN aft_dom2 AS aft_dom;
CREATE DOMAIN aft_int8 AS bigint;
CREATE TABLE aft_d1 (id aft_dom PRIMARY KEY);
CREATE TABLE aft_d2 (id aft_dom2);
CREATE TABLE aft_d3 (id aft_int8 PRIMARY KEY DEFAULT snowflake_next('discord', 31));
CREATE TABLE aft_d4 (id aft_dom DEFAULT NULL);          -- its own default wins: none
INSERT INTO aft_d1 VALUES (ulid_upper(now() - interval '1 hour')), (ulid_upper(now() - interval '2 hours'));
INSERT INTO aft_d2 VALUES (ulid_upper(now() - interval '3 hours'));
INSERT INTO aft_d3 VALUES (snowflake_pack('discord', now() - interval '1 hour', 31, 5));
INSERT INTO aft_d4 VALUES (ulid_upper(now()));
SELECT table_name, column_name, generator,
       advanced_to = CASE table_name::text
           WHEN 'aft_d1' THEN (SELECT max(id)::text FROM aft_d1)
           WHEN 'aft_d2' THEN (SELECT max(id)::text FROM aft_d2)
           WHEN 'aft_d3' THEN (SELECT max(id)::text FROM aft_d3) END AS advanced_to_max,
       note
FROM ulid_advance_from_tables() ORDER BY 1::text;
-- issue 40, A4: ids from an hour ago take no advanced state
SELECT count(*) AS advanced_states FROM ulid_generator_state
WHERE kind = 'snowflake' AND layout = 'discord' AND node = 31 AND state_floor IS NOT NULL;
-- issue 40: tables and schemas left out, by name
CREATE SCHEMA aft_x;
CREATE TABLE aft_x.t (id ulid DEFAULT gen_monotonic_ulid());
INSERT INTO aft_x.t VALUES (ulid_upper(now()));
SELECT table_name, advanced_to, note
FROM ulid_advance_from_tables(exclude => '{aft_d1, aft_d3}', exclude_schemas => '{aft_x}')
WHERE note = 'excluded' ORDER BY table_name::text;
DROP TABLE aft_d1, aft_d2, aft_d3, aft_d4, aft_x.t;
DROP SCHEMA aft_x;
DROP DOMAIN aft_dom2, aft_dom, aft_int8;
-- issue 40, A2: an index entry that is no id of the layout (a restored
-- sentinel) hides nothing: it is passed over, with a WARNING naming it
CREATE TABLE aft_sent (id bigint PRIMARY KEY DEFAULT snowflake_next('js_safe_ms', 2));
INSERT INTO aft_sent VALUES (snowflake_pack('js_safe_ms', now() - interval '1 minute', 2, 1)),
    (snowflake_pack('js_safe_ms', now() - interval '2 minutes', 2, 1)), (9223372036854775807);
SELECT table_name, generator,
       advanced_to::bigint = (SELECT max(id) FROM aft_sent WHERE id < 9223372036854775807) AS advanced_to_max
FROM ulid_advance_from_tables();
SET client_min_messages = error;
SELECT snowflake_reset('js_safe_ms', 2), snowflake_reset('discord', 31), ulid_monotonic_reset();
RESET client_min_messages;
DROP TABLE aft_sent;
-- bad margin; superuser only, whatever was granted
SELECT ulid_advance_from_tables(interval '-1 second');
CREATE ROLE regress_aft_user;
GRANT EXECUTE ON FUNCTION ulid_advance_from_tables(interval, boolean, regclass[], regclass[], regnamespace[]) TO regress_aft_user;
SET ROLE regress_aft_user;
SELECT ulid_advance_from_tables();
RESET ROLE;
\c :regress_db
DROP DATABASE regress_ulid_aft;
DROP ROLE regress_aft_user;
