-- ulid_stable_bound() and snowflake_stable_bound() (issue 41): what one
-- session sees.  Other sessions, the statement-snapshot case, prepared
-- transactions: test/isolation/specs/stable_bound.spec; 8 writers, readers,
-- crashes and restarts: test/scenarios/stable_bound.sh.  The exact values
-- need a server where nobody else mints (test/run's own).
SELECT lacks('shared state', 'private server', 'nodes 7') AS lacks \gset
\if :{?lacks}
\echo skipped: needs the shared generator state, the private server of test/run and node 7 (test/README.md)
\quit
\endif

-- nothing in flight: the bound is just above the last id (a caught-up
-- reader sees every committed row), and no later id lies below it
SELECT gen_monotonic_ulid() AS last \gset
SELECT ulid_stable_bound() AS b \gset
SELECT :'b'::ulid > :'last'::ulid AS above_last,
       (SELECT count(*) FROM (SELECT gen_monotonic_ulid() AS u FROM generate_series(1, 100)) s
        WHERE u < :'b'::ulid) AS later_ids_below;
-- exactly the last id plus one (its low 60 bits, as a number)
SELECT ('x' || right(encode(uuid_send(:'b'::ulid::uuid), 'hex'), 15))::bit(60)::bigint
     - ('x' || right(encode(uuid_send(:'last'::ulid::uuid), 'hex'), 15))::bit(60)::bigint AS plus;

-- this transaction's own first id holds it, whatever it mints after, and
-- ids minted before the transaction has an xid count too
BEGIN;
SELECT gen_monotonic_ulid() AS first \gset
SELECT ulid_stable_bound() = :'first'::ulid AS held_at_first;
CREATE TEMP TABLE sb_events (id ulid PRIMARY KEY DEFAULT gen_monotonic_ulid(), n int);
INSERT INTO sb_events (n) SELECT g FROM generate_series(1, 10) g;
SELECT ulid_stable_bound() = :'first'::ulid AS still_held;
COMMIT;
SELECT ulid_stable_bound() > (SELECT max(id) FROM sb_events) AS released_at_commit;

-- a savepoint rolled back holds it until the top-level end (conservative)
BEGIN;
SAVEPOINT s;
SELECT gen_monotonic_ulid() AS rolled \gset
ROLLBACK TO s;
SELECT ulid_stable_bound() = :'rolled'::ulid AS held_after_rollback_to;
COMMIT;
-- an aborted transaction stops holding it at its end
BEGIN;
INSERT INTO sb_events (n) VALUES (11) RETURNING id AS aborted \gset
ROLLBACK;
SELECT ulid_stable_bound() > :'aborted'::ulid AS released_at_abort;

-- parallel workers mint into their leader's entry: ids minted only by
-- workers hold the bound until the leader's transaction ends
CREATE TABLE sb_par AS SELECT g FROM generate_series(1, 50000) g;
ANALYZE sb_par;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;
BEGIN;
SELECT workers_launched('CREATE TEMP TABLE sb_par_out AS SELECT gen_monotonic_ulid() AS u FROM sb_par') > 0 AS workers_mint;
SELECT min(u) AS wmin FROM sb_par_out \gset
SELECT ulid_stable_bound() = :'wmin'::ulid AS held_by_workers;
COMMIT;
SELECT ulid_stable_bound() > :'wmin'::ulid AS released_at_commit;
-- workers' entries end with an aborted transaction too
BEGIN;
SELECT workers_launched('CREATE TEMP TABLE sb_par_ab AS SELECT gen_monotonic_ulid() AS u FROM sb_par') > 0 AS workers_mint;
SELECT min(u) AS wabort FROM sb_par_ab \gset
SELECT ulid_stable_bound() = :'wabort'::ulid AS held_by_workers;
ROLLBACK;
SELECT ulid_stable_bound() > :'wabort'::ulid AS released_at_abort;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;
RESET parallel_leader_participation;
DROP TABLE sb_par;

-- the paging statement uses the primary key's index, the bound evaluated
-- once as an index condition
INSERT INTO sb_events (n) SELECT g FROM generate_series(12, 2000) g;
ANALYZE sb_events;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF)
SELECT id, n FROM sb_events WHERE id > '00000000000000000000000000' AND id < ulid_stable_bound()
ORDER BY id LIMIT 100;
RESET enable_seqscan;
SELECT count(*) AS page, min(n), max(n)
FROM (SELECT id, n FROM sb_events WHERE id > '00000000000000000000000000' AND id < ulid_stable_bound()
      ORDER BY id LIMIT 100) p;

-- Snowflake: per layout bit structure and node; the next id when nothing is
-- in flight (the sequence's next value), the first id while a transaction
-- that minted is open
SELECT snowflake_next('twitter', 7) AS sf \gset
SELECT snowflake_stable_bound('twitter', 7) - :sf AS above_last_by;
BEGIN;
SELECT snowflake_next('twitter', 7) AS sf_first \gset
SELECT snowflake_next('twitter', 7) > :sf_first AS minted_more;
SELECT snowflake_stable_bound('twitter', 7) = :sf_first AS held_at_first;
COMMIT;
SELECT snowflake_stable_bound('twitter', 7) > :sf_first AS released_at_commit;
-- a layout with the same bit structure is the same state
SELECT snowflake_stable_bound('custom(time=41:ms:2010-11-04T01:42:54.657Z, fields=worker:10, sequence=12)', 7)
     = snowflake_stable_bound('twitter', 7) AS same_state;

-- a transaction's first id of each state holds, minting on states in turn
-- (A, B, A: the entry of A keeps A's first id); the backend's entries stay
-- claimed across transactions and are recycled past 8 states
BEGIN;
SELECT gen_monotonic_ulid() AS a1 \gset
SELECT snowflake_next('twitter', 7) AS b1 \gset
SELECT gen_monotonic_ulid() > :'a1'::ulid AS a_again;
SELECT ulid_stable_bound() = :'a1'::ulid AS a_held_at_first,
       snowflake_stable_bound('twitter', 7) = :b1 AS b_held_at_first;
COMMIT;
SELECT count(*) AS states
FROM generate_series(3, 12) k,
     LATERAL (SELECT snowflake_next(format('custom(time=41:ms:2010-11-04T01:42:54.657Z, fields=n:10, sequence=%s)', k)::snowflake_layout, 7)) s;
BEGIN;
SELECT snowflake_next('custom(time=41:ms:2010-11-04T01:42:54.657Z, fields=n:10, sequence=3)', 7) AS r1 \gset
SELECT gen_monotonic_ulid() AS r2 \gset
SELECT snowflake_stable_bound('custom(time=41:ms:2010-11-04T01:42:54.657Z, fields=n:10, sequence=3)', 7) = :r1 AS recycled_held,
       ulid_stable_bound() = :'r2'::ulid AS monotonic_held;
COMMIT;
-- ten states in one transaction: the ninth on has no entry, the slot's
-- overflow holds every state at its millisecond (conservative: below)
BEGIN;
SELECT count(*) AS states
FROM generate_series(3, 12) k,
     LATERAL (SELECT snowflake_next(format('custom(time=41:ms:2010-11-04T01:42:54.657Z, fields=n:10, sequence=%s)', k)::snowflake_layout, 7)) s;
SELECT snowflake_next('twitter', 7) AS ov \gset
SELECT snowflake_stable_bound('twitter', 7) <= :ov AS overflow_holds;
COMMIT;
SELECT snowflake_stable_bound('twitter', 7) > :ov AS overflow_released;

-- COSID_80: cosid80_next()'s states, the same scheme (text that sorts as
-- the id under COLLATE "C")
SELECT cosid80_next(7) AS c \gset
SELECT cosid80_stable_bound(7) COLLATE "C" > :'c' AS cosid_above_last,
       cosid80_parts(cosid80_stable_bound(7))->'sequence' = to_jsonb((cosid80_parts(:'c')->>'sequence')::int + 1) AS cosid_next_seq;
BEGIN;
SELECT cosid80_next(7) AS c_first \gset
SELECT cosid80_next(7) COLLATE "C" > :'c_first' AS cosid_minted_more;
SELECT cosid80_stable_bound(7) = :'c_first' AS cosid_held_at_first;
COMMIT;
SELECT cosid80_stable_bound(7) COLLATE "C" > :'c_first' AS cosid_released_at_commit;
SELECT err($$SELECT cosid80_stable_bound()$$);
SELECT err($$SELECT cosid80_stable_bound(1048576)$$);

-- NULL layout: NULL; NULL node: the server's node, which it has none of
SELECT snowflake_stable_bound(NULL, 7) IS NULL AS null_layout;
SELECT err($$SELECT snowflake_stable_bound('twitter')$$);
SELECT err($$SELECT snowflake_stable_bound('twitter', NULL)$$);
-- errors: a node outside the layout, a node the server does not own
SELECT err($$SELECT snowflake_stable_bound('twitter', 1024)$$);
SELECT err($$SELECT snowflake_stable_bound('custom(time=41:ms:2001-02-03T04:05:06.789Z, fields=n:20, sequence=2)', 70000)$$);
