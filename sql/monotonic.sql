-- gen_monotonic_ulid(), its state view and ulid_monotonic_advance().
-- (Several sessions at once: test/isolation/specs/monotonic.spec and
-- test/scenarios/monotonic.sh; restarts and crashes: test/scenarios/restart.sh;
-- the settings: settings.sql.)  On test/run's own server it advances the
-- server's one gen_monotonic_ulid() state and resets it at the end; on any
-- other server (make installcheck) applications may mint on that state, so
-- the parts that advance it, reset it or need it on the clock and to
-- themselves are skipped, and the rest holds whoever else mints and however
-- far ahead the state runs.
SELECT lacks('shared state', 'nodes 3') AS lacks \gset
\if :{?lacks}
\echo skipped: needs the shared generator state (shared_preload_libraries = ulid before PostgreSQL 17) and node 3 (test/README.md)
\quit
\endif
SELECT lacks('private server') AS not_private \gset

SELECT coalesce(max(issued), 0) AS issued_before, coalesce(max(failures), 0) AS failures_before,
       coalesce(max(persisted_floor), '-infinity') AS floor_before
FROM ulid_generator_state WHERE kind = 'ulid' \gset

-- 100k ids in one statement: distinct and strictly increasing
SELECT count(*) AS ids, count(DISTINCT u) AS distinct_ids,
       count(*) FILTER (WHERE u <= prev) AS not_increasing
FROM (SELECT u, lag(u) OVER (ORDER BY g) AS prev
      FROM (SELECT g, gen_monotonic_ulid() AS u FROM generate_series(1, 100000) g) s) t;

-- ... and across statements, interleaved with gen_ulid() (its own state)
CREATE TEMP TABLE mono_t (n serial, u ulid DEFAULT gen_monotonic_ulid(), v ulid DEFAULT gen_ulid());
INSERT INTO mono_t DEFAULT VALUES;
INSERT INTO mono_t DEFAULT VALUES;
INSERT INTO mono_t (u) SELECT gen_monotonic_ulid() FROM generate_series(1, 1000);
INSERT INTO mono_t DEFAULT VALUES;
SELECT count(*) AS rows, count(*) FILTER (WHERE u <= prev) AS not_increasing
FROM (SELECT u, lag(u) OVER (ORDER BY n) AS prev FROM mono_t) s;

\if :{?not_private}
\echo skipped: the time part, the random steps, the state view, advances and resets need the server test/run starts (test/README.md)
\else
-- the time part is the current time (to the millisecond)
SELECT ulid_time(u) BETWEEN date_trunc('milliseconds', t0) AND clock_timestamp() AS time_now
FROM (SELECT clock_timestamp() AS t0) a, LATERAL (SELECT gen_monotonic_ulid() AS u) b;

-- gen_ulid()'s rules: random steps within a millisecond, and a new
-- millisecond starts with the top random bit cleared
SELECT count(DISTINCT (get_byte(ulid_to_bytea(u), 15) - get_byte(ulid_to_bytea(prev), 15) + 256) % 256) > 100 AS random_steps
FROM (SELECT u, lag(u) OVER (ORDER BY g) AS prev
      FROM (SELECT g, gen_monotonic_ulid() AS u FROM generate_series(1, 5000) g) s) t
WHERE ulid_unix_ms(u) = ulid_unix_ms(prev);
SELECT bool_and(get_byte(ulid_to_bytea(u), 6) < 128) AS top_bit_clear
FROM (SELECT u, lag(u) OVER (ORDER BY g) AS prev
      FROM (SELECT g, gen_monotonic_ulid() AS u FROM generate_series(1, 20000) g) s) t
WHERE ulid_unix_ms(u) > ulid_unix_ms(prev);
\endif

-- volatile: evaluated once per row, also in a WHERE clause
SELECT count(DISTINCT gen_monotonic_ulid()) AS per_row FROM generate_series(1, 10);

-- parallel safe: parallel workers share the state, so values computed in
-- workers are distinct and lie between the values drawn before and after
CREATE TABLE mono_par AS SELECT g FROM generate_series(1, 20000) g;
ANALYZE mono_par;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT gen_monotonic_ulid() FROM mono_par;
SELECT gen_monotonic_ulid() AS before_par \gset
-- (EXPLAIN ANALYZE runs the statement; the plan shows that workers ran)
SELECT workers_launched('CREATE TEMP TABLE mono_par_out AS SELECT gen_monotonic_ulid() AS u FROM mono_par') > 0 AS ran_in_workers;
SELECT gen_monotonic_ulid() AS after_par \gset
SELECT count(*) AS ids, count(DISTINCT u) AS distinct_ids,
       bool_and(u > :'before_par' AND u < :'after_par') AS between_before_and_after
FROM mono_par_out;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;
DROP TABLE mono_par;

-- the state view: one row for gen_monotonic_ulid(), its last id, counts and
-- the persisted floor (at most the 1 s reservation above the last time, or
-- above the floor before this file: other generators' borrowed ids)
SELECT attname, format_type(atttypid, atttypmod) AS type
FROM pg_attribute WHERE attrelid = 'ulid_generator_state'::regclass AND attnum > 0
ORDER BY attnum;
\if :{?not_private}
\else
SELECT gen_monotonic_ulid() AS last \gset
SELECT kind, layout, node, sequence,
       last_id = :'last' AS last_id_ok,
       last_tick = ulid_unix_ms(:'last') AS last_tick_ok,
       last_time = ulid_time(:'last') AS last_time_ok,
       issued - :issued_before AS issued_here,
       failures - :failures_before AS failures,
       persisted_floor > last_time AND persisted_floor <= greatest(last_time, :'floor_before') + interval '1 s' AS floor_ahead
FROM ulid_generator_state WHERE kind = 'ulid';   -- other tests' states (cosid80) may exist

-- ulid_monotonic_advance(): the next id is above the argument, on its
-- millisecond, and the persisted floor is raised above it first
SELECT gen_monotonic_ulid() AS before_target \gset
SELECT ulid_from_parts(ulid_unix_ms(gen_monotonic_ulid()) + 3600000,
                       '\x00000000000000000000') AS target \gset
SELECT borrows AS borrows_before FROM ulid_generator_state WHERE kind = 'ulid' \gset
SELECT ulid_monotonic_advance(:'target');
SELECT last_id = :'target' AS state_at_target,
       state_floor > ulid_time(:'target') AS own_floor_above_target,
       persisted_floor < ulid_time(:'target') AS server_floor_untouched
FROM ulid_generator_state WHERE kind = 'ulid';
SELECT u > :'target' AS above_target, ulid_unix_ms(u) = ulid_unix_ms(:'target') AS on_its_millisecond
FROM (SELECT gen_monotonic_ulid() AS u) s;
-- ids on a time ahead of the clock count as borrows
SELECT borrows - :borrows_before AS borrows_after_advance FROM ulid_generator_state WHERE kind = 'ulid';

-- ulid_monotonic_reset() undoes it: a WARNING names what it drops; the
-- next id follows the clock again, above every id issued before the advance
SELECT gen_monotonic_ulid() AS advanced_id \gset
\set VERBOSITY terse
SELECT ulid_monotonic_reset();
\set VERBOSITY default
SELECT u < :'target' AS back_on_the_clock, u > :'before_target' AS above_ids_before_the_advance,
       abs(extract(epoch FROM ulid_time(u) - clock_timestamp())) < 5 AS time_now
FROM (SELECT gen_monotonic_ulid() AS u) s;
SELECT state_floor IS NULL AS no_own_floor FROM ulid_generator_state WHERE kind = 'ulid';
-- a second reset has nothing to undo
SELECT ulid_monotonic_reset();

-- an advance to the last ULID stops gen_monotonic_ulid() alone, with an
-- error that names the advance; Snowflake ids go on; the reset recovers
SELECT gen_monotonic_ulid() AS before_max \gset
SELECT ulid_monotonic_advance('7ZZZZZZZZZZZZZZZZZZZZZZZZY');
SELECT regexp_replace(err($$SELECT gen_monotonic_ulid()$$), '\d{4,5}-\d\d-\d\dT[0-9:.]+Z|\d+ Unix ms', 'TIME') AS exhausted_by_advance;
SELECT snowflake_time(snowflake_next('discord', 3), 'discord') > now() - interval '1 minute' AS snowflake_unaffected;
SELECT persisted_floor < now() + interval '1 minute' AS server_floor_on_the_clock
FROM ulid_generator_state WHERE kind = 'ulid';
SET client_min_messages = error;
SELECT ulid_monotonic_reset();
RESET client_min_messages;
SELECT u > :'before_max' AS issues_again_above_before, u < :'advanced_id' AS below_the_reset_advance
FROM (SELECT gen_monotonic_ulid() AS u) s;

-- it never moves the state back
SELECT gen_monotonic_ulid() AS high \gset
SELECT ulid_monotonic_advance('00000000000000000000000000');
SELECT ulid_monotonic_advance(ulid_lower(now()));
SELECT gen_monotonic_ulid() > :'high' AS still_above;
SELECT ulid_monotonic_advance(NULL) IS NULL AS strict;
-- (the state has no floor of its own after this file)
SET client_min_messages = error;
SELECT ulid_monotonic_reset();
RESET client_min_messages;
\endif

-- operating the state is for superusers; generating is for everyone;
-- reading the view is for superusers, pg_monitor and roles granted SELECT
CREATE ROLE regress_ulid_user;
CREATE ROLE regress_ulid_monitor IN ROLE pg_monitor;
CREATE ROLE regress_ulid_reader;
GRANT SELECT ON ulid_generator_state TO regress_ulid_reader;
SET ROLE regress_ulid_user;
SELECT err($$SELECT gen_monotonic_ulid() > '01HTQW311N1KR5G0Y75M3EF00H'$$) AS generate;
SELECT err($$SELECT count(*) FROM ulid_generator_state$$) AS view;
SELECT err($$SELECT count(*) FROM ulid_generator_state()$$) AS function;
SELECT err($$SELECT ulid_monotonic_advance('01HTQW311N1KR5G0Y75M3EF00H')$$) AS advance;
SELECT err($$SELECT ulid_monotonic_reset()$$) AS reset;
SELECT err($$SELECT ulid_floor_repair(now())$$) AS repair;
SET ROLE regress_ulid_monitor;
SELECT err($$SELECT count(*) > 0 FROM ulid_generator_state$$) AS view_pg_monitor;
SELECT err($$SELECT count(*) > 0 FROM ulid_generator_state()$$) AS function_pg_monitor;
SELECT err($$SELECT ulid_monotonic_reset()$$) AS reset_pg_monitor;
SET ROLE regress_ulid_reader;
SELECT err($$SELECT count(*) > 0 FROM ulid_generator_state$$) AS view_granted;
SELECT err($$SELECT kind FROM ulid_generator_state() WHERE kind = 'ulid'$$) AS function_granted_view;
RESET ROLE;
-- granting EXECUTE does not get around the superuser check
GRANT EXECUTE ON FUNCTION ulid_monotonic_advance(ulid), ulid_monotonic_reset(), ulid_floor_repair(timestamptz, boolean) TO regress_ulid_user;
SET ROLE regress_ulid_user;
SELECT err($$SELECT ulid_monotonic_advance('01HTQW311N1KR5G0Y75M3EF00H')$$) AS advance_granted;
SELECT err($$SELECT ulid_monotonic_reset()$$) AS reset_granted;
SELECT err($$SELECT ulid_floor_repair(now())$$) AS repair_granted;
RESET ROLE;
REVOKE EXECUTE ON FUNCTION ulid_monotonic_advance(ulid), ulid_monotonic_reset(), ulid_floor_repair(timestamptz, boolean) FROM regress_ulid_user;
REVOKE SELECT ON ulid_generator_state FROM regress_ulid_reader;
DROP ROLE regress_ulid_user, regress_ulid_monitor, regress_ulid_reader;
