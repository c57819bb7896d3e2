-- snowflake_next(), snowflake_advance() and the Snowflake rows of the
-- ulid_generator_state view.  The calls here name their node, one the
-- server owns (test/run's server owns 0-65535 through ulid.node_ids; with no
-- ulid.node_id: settings.sql; a SIGHUP setting: test/scenarios/snowflake_*.sh
-- set it).  (Several sessions at once: test/isolation/specs/snowflake.spec
-- and test/scenarios/snowflake_load.sh; the clock policy, restarts and a
-- hot standby: the other snowflake_*.sh.)  It mints on presets on the
-- clock.  On test/run's own server it also advances layouts of its own
-- (the epochs below) and SCRU64 node 250, and resets them at the end; on
-- any other server (make installcheck) applications may mint on every
-- state, so the parts that advance, reset, count or need a state on the
-- clock and to themselves are skipped (test/README.md), and the rest holds
-- whoever else mints and however far ahead a state runs.
SELECT lacks('shared state', 'nodes 0-3,5-9,11-14,20-23,30,100,200,250,517,1000,1023,8191,65535') AS lacks \gset
\if :{?lacks}
\echo skipped: needs the shared generator state (shared_preload_libraries = ulid before PostgreSQL 17) and nodes 0-3, 5-9, 11-14, 20-23, 30, 100, 200, 250, 517, 1000, 1023, 8191, 65535 (test/README.md)
\quit
\endif
SELECT lacks('private server') AS not_private \gset
-- the clock policy's defaults, whatever the server sets
SET ulid.clock_borrow_ms = 5;
SET ulid.clock_wait_ms = 1000;
-- this file's own layouts for advances: Twitter's and Sonyflake's bits on
-- epochs no one else uses (SCRU64's node 250 is reset at the end)
\set own_tw 'snowflake_ms(epoch=2010-11-04T01:42:00.000Z)'
\set sony 'sonyflake(epoch=2014-09-01T00:00:00.001Z)'
-- the server's Snowflake states before this file: the listings below show
-- what this file changed (counts are differences, so a second run matches)
CREATE TEMP TABLE states_before AS SELECT layout, node, issued, borrows, failures, waits FROM ulid_generator_state WHERE kind = 'snowflake';

-- a node that does not fit the layout's node bits: 22003
SELECT err($$SELECT snowflake_next('twitter', 1024)$$) AS twitter_1024;
SELECT err($$SELECT snowflake_next('twitter', -1)$$) AS negative;
SELECT err($$SELECT snowflake_next('js_safe_ms', 8)$$) AS js_safe_8;
SELECT err($$SELECT snowflake_next('custom(time=41:ms:0, sequence=12)', 1)$$) AS no_node_bits;
SELECT snowflake_next('custom(time=41:ms:0, sequence=12)', 0) > 0 AS node_0_without_node_bits;
-- a NULL layout gives NULL (a NULL node is the server's node: settings.sql,
-- test/scenarios/node_identity.sh)
SELECT snowflake_next(NULL) IS NULL AS null_layout, snowflake_next(NULL, 1) IS NULL AS null_layout_node;

-- every preset mints ids that read back as the node given, at the current
-- time (the tick holding it), strictly increasing; 1000 ids each, more
-- than js_safe_ms and sonyflake mint per tick (they borrow, then wait)
CREATE TEMP TABLE presets (name text, layout snowflake_layout, node bigint, allowance interval);
INSERT INTO presets VALUES
    ('twitter', 'twitter', 1023, '5 ms'), ('discord', 'discord', 517, '5 ms'),
    ('instagram', 'instagram', 8191, '5 ms'),
    ('sonyflake', 'sonyflake(epoch=2014-09-01T00:00:00.000Z)', 65535, '10 ms'),
    ('scru64', 'scru64(node_bits=8)', 200, '256 ms'), ('snowflake_ms', 'snowflake_ms', 1000, '5 ms'),
    ('snowflake_s', 'snowflake_s', 3, '1 s'), ('js_safe_ms', 'js_safe_ms', 7, '5 ms'),
    ('js_safe_s', 'js_safe_s', 5, '1 s');
CREATE TEMP TABLE minted AS
SELECT name, g, clock_timestamp() AS t0, snowflake_next(layout, node) AS id, clock_timestamp() AS t1
FROM presets, generate_series(1, 1000) g ORDER BY name, g;
SELECT p.name, count(*) AS ids, count(DISTINCT id) AS distinct_ids,
       count(*) FILTER (WHERE id <= prev) AS not_increasing,
       bool_and(snowflake_node(id, layout) = node) AS node_ok
FROM (SELECT m.*, lag(id) OVER (PARTITION BY name ORDER BY g) AS prev FROM minted m) m
JOIN presets p USING (name)
GROUP BY p.name ORDER BY p.name;
\if :{?not_private}
\echo skipped: the clock, the sequence rules, the state view, advances and resets need the server test/run starts (test/README.md)
\else
-- the time: the tick holding the clock, or a later one borrowed at most the
-- allowance (5 ms or one tick) ahead
SELECT p.name, bool_and(snowflake_time(id, layout) >= snowflake_time(snowflake_lower(layout, t0), layout)
                        AND snowflake_time(id, layout) <= t1 + allowance) AS time_ok,
       bool_and(snowflake_time(id, layout) > t0 - interval '1 s') AS within_a_second
FROM minted m JOIN presets p USING (name)
GROUP BY p.name ORDER BY p.name;
\endif

-- SCRU64: values below 36^12, counters starting below half their range
-- (scru64(node_bits=20) has a 4-bit counter: 16 ids per 256 ms tick; a
-- large borrowing allowance lets 400 ids run ahead of the clock)
SELECT bool_and(id > 0 AND id < 4738381338321616896) AS below_36_12,
       bool_and(snowflake_sequence(id, 'scru64(node_bits=8)') < 32768) AS counters_from_below_half
FROM minted WHERE name = 'scru64' AND g = 1;
\if :{?not_private}
\else
SET ulid.clock_borrow_ms = 60000;
SELECT count(*) > 20 AS new_ticks, bool_and(seq < 8) AS started_below_half,
       count(DISTINCT seq) > 1 AS random_starts
FROM (SELECT snowflake_sequence(id, 'scru64(node_bits=20)') AS seq,
             snowflake_field(id, 'scru64(node_bits=20)', 'time') >
             lag(snowflake_field(id, 'scru64(node_bits=20)', 'time')) OVER (ORDER BY g) AS new_tick
      FROM (SELECT g, snowflake_next('scru64(node_bits=20)', 9) AS id FROM generate_series(1, 400) g) s) t
WHERE new_tick;
SET ulid.clock_borrow_ms = 5;

-- how a new tick starts its sequence: zero (twitter), carry (CosId: the
-- previous + 1 while below half the range), one tick per call here
-- (carry: the steps from one id to the next, whatever the state held before)
SELECT array_agg(snowflake_sequence(id, 'twitter') ORDER BY g) AS zero,
       array_agg(snowflake_sequence(id2, 'js_safe_ms') - prev ORDER BY g) FILTER (WHERE g > 1) AS carry_steps
FROM (SELECT g, id, id2, lag(snowflake_sequence(id2, 'js_safe_ms')) OVER (ORDER BY g) AS prev
      FROM generate_series(1, 5) g,
           LATERAL (SELECT snowflake_next('twitter', 11) AS id, snowflake_next('js_safe_ms', 6) AS id2
                    FROM pg_sleep(0.002 + g * 0)) s) t;
\endif

-- layouts with the same bits share one state, whatever their names: a
-- custom layout with Twitter's bits continues Twitter's sequence
SELECT snowflake_next('twitter', 12) AS tw \gset
SELECT snowflake_next(snowflake_layout(41, 'ms', '2010-11-04T01:42:54.657Z', '{"machine": 10}', 12), 12) AS custom_tw \gset
SELECT :custom_tw > :tw AS custom_continues,
       snowflake_next('twitter', 12) > :custom_tw AS twitter_continues;

-- volatile: once per row
SELECT count(DISTINCT snowflake_next('twitter', 13)) AS per_row FROM generate_series(1, 10);

-- parallel safe: workers share the state, so ids minted in workers are
-- distinct and lie between the ids minted before and after
CREATE TABLE sf_par AS SELECT g FROM generate_series(1, 20000) g;
ANALYZE sf_par;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT snowflake_next('snowflake_s', 14) FROM sf_par;
SELECT snowflake_next('snowflake_s', 14) AS before_par \gset
-- (EXPLAIN ANALYZE runs the statement; the plan shows that workers ran)
SELECT workers_launched('CREATE TEMP TABLE sf_par_out AS SELECT snowflake_next(''snowflake_s'', 14) AS id FROM sf_par') > 0 AS ran_in_workers;
SELECT snowflake_next('snowflake_s', 14) AS after_par \gset
SELECT count(*) AS ids, count(DISTINCT id) AS distinct_ids,
       bool_and(id > :before_par AND id < :after_par) AS between_before_and_after
FROM sf_par_out;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;
DROP TABLE sf_par;

\if :{?not_private}
\else
-- the state view: one row per (bits, node), named by the preset with those
-- bits, else custom(...) with the node fields as one field
SELECT snowflake_next('custom(time=40:10ms:2020-01-01T00:00:00.000Z, fields=dc:3+host:4, sequence=16, sequence_above_node=true)', 100) AS cid \gset
SELECT snowflake_next('sonyflake(epoch=2014-09-01T00:00:00.000Z)', 65535) AS sid \gset
SELECT layout, node, last_id::bigint = :cid AS last_id_ok,
       last_tick = snowflake_field(:cid, 'custom(time=40:10ms:2020-01-01T00:00:00.000Z, fields=dc:3+host:4, sequence=16, sequence_above_node=true)', 'time') AS last_tick_ok,
       last_time = snowflake_time(:cid, 'custom(time=40:10ms:2020-01-01T00:00:00.000Z, fields=dc:3+host:4, sequence=16, sequence_above_node=true)') AS last_time_ok,
       sequence = snowflake_sequence(:cid, 'custom(time=40:10ms:2020-01-01T00:00:00.000Z, fields=dc:3+host:4, sequence=16, sequence_above_node=true)') AS sequence_ok,
       s.issued - coalesce(b.issued, 0) AS issued_here, s.failures - coalesce(b.failures, 0) AS failures, persisted_floor > last_time AS floor_ahead
FROM ulid_generator_state s LEFT JOIN states_before b USING (layout, node)
WHERE kind = 'snowflake' AND node = 100 AND layout LIKE 'custom(time=40:10ms:%';
SELECT layout, node, last_id::bigint = :sid AS last_id_ok, s.issued - coalesce(b.issued, 0) AS issued_here
FROM ulid_generator_state s LEFT JOIN states_before b USING (layout, node)
WHERE kind = 'snowflake' AND layout = 'sonyflake(epoch=2014-09-01T00:00:00.000Z)' AND node = 65535;
SELECT layout, node, s.issued - coalesce(b.issued, 0) AS issued_here, sequence IS NOT NULL AS has_sequence
FROM ulid_generator_state s LEFT JOIN states_before b USING (layout, node)
WHERE kind = 'snowflake' AND s.issued IS DISTINCT FROM b.issued ORDER BY layout, node;

-- snowflake_advance(): the next id is above the argument, issued at the
-- advanced time at once whatever the borrowing allowance (one rule for an
-- advance before and after a restart), so it lands on the target's tick
SELECT snowflake_pack(:'own_tw', clock_timestamp() + interval '10 minutes', 20, 100) AS target \gset
SELECT snowflake_advance(:'own_tw', 20, :target);
SELECT state_floor > snowflake_time(:target, :'own_tw') AS own_floor_above_target,
       persisted_floor < snowflake_time(:target, :'own_tw') AS server_floor_untouched,
       last_id::bigint = :target AS state_at_target
FROM ulid_generator_state WHERE layout = :'own_tw' AND node = 20;
-- no other state moves: another node and another layout follow the clock
SELECT abs(extract(epoch FROM snowflake_time(snowflake_next(:'own_tw', 22), :'own_tw') - clock_timestamp())) < 5 AS other_node_on_clock,
       abs(extract(epoch FROM snowflake_time(snowflake_next('discord', 20), 'discord') - clock_timestamp())) < 5 AS other_layout_on_clock;
SELECT id > :target AS above_target, id = :target + 1 AS next_after_target,
       snowflake_time(id, :'own_tw') = snowflake_time(:target, :'own_tw') AS on_its_tick
FROM (SELECT snowflake_next(:'own_tw', 20) AS id) s;
SELECT s.borrows - coalesce(b.borrows, 0) AS borrows_ahead
FROM ulid_generator_state s LEFT JOIN states_before b USING (layout, node) WHERE layout = :'own_tw' AND node = 20;
-- ... and tick after tick ahead of the clock as each tick's sequence runs
-- out (10,000 ids: 3 ticks of 4,096), never waiting or failing: 10 minutes
-- ahead, with the default 5 ms allowance
SELECT count(*) AS ahead_ids, count(DISTINCT id) AS distinct_ids,
       min(snowflake_time(id, :'own_tw')) >= snowflake_time(:target, :'own_tw') AS all_at_or_after_target,
       max(snowflake_time(id, :'own_tw')) - snowflake_time(:target, :'own_tw') <= interval '3 ms' AS ticks_after_ticks
FROM (SELECT snowflake_next(:'own_tw', 20) AS id FROM generate_series(1, 10000)) s;
SELECT s.failures - coalesce(b.failures, 0) AS failures, s.waits - coalesce(b.waits, 0) AS waits,
       s.borrows - coalesce(b.borrows, 0) > 10000 AS counted_as_borrows
FROM ulid_generator_state s LEFT JOIN states_before b USING (layout, node) WHERE layout = :'own_tw' AND node = 20;

-- snowflake_reset() undoes the advance: a WARNING says what it drops; the
-- state follows the clock again, above the ids it issued before the advance
\set VERBOSITY terse
SELECT snowflake_reset(:'own_tw', 20);
\set VERBOSITY default
SELECT id < :target AS back_on_the_clock,
       abs(extract(epoch FROM snowflake_time(id, :'own_tw') - clock_timestamp())) < 5 AS time_now
FROM (SELECT snowflake_next(:'own_tw', 20) AS id) s;
SELECT state_floor IS NULL AS no_own_floor FROM ulid_generator_state WHERE layout = :'own_tw' AND node = 20;
SELECT snowflake_reset(:'own_tw', 20);
SELECT snowflake_reset(:'own_tw', NULL) IS NULL AS reset_strict;
SELECT err(format('SELECT snowflake_reset(%L, 1024)', :'own_tw')) AS reset_big_node;
-- an advanced state issues past its target at once (whatever the borrowing
-- allowance); the reset (its WARNING not shown) returns it to the clock
SELECT snowflake_pack(:'own_tw', clock_timestamp() + interval '10 minutes', 23, 0) AS target23 \gset
SELECT snowflake_advance(:'own_tw', 23, :target23);
SELECT snowflake_next(:'own_tw', 23) > :target23 AS above_target23;
SET client_min_messages = error;
SELECT snowflake_reset(:'own_tw', 23);
RESET client_min_messages;

-- it never moves a state back
SELECT snowflake_next(:'own_tw', 21) AS high \gset
SELECT snowflake_advance(:'own_tw', 21, 0);
SELECT snowflake_advance(:'own_tw', 21, snowflake_lower(:'own_tw', now() - interval '1 day'));
SELECT snowflake_next(:'own_tw', 21) > :high AS still_above;

-- an id minted on another node: the next id is above it all the same, in
-- both bit orders (node above or below the sequence), for smaller and
-- larger nodes, and also when it is the first of its tick
CREATE TEMP TABLE adv AS
SELECT l AS layout, v.node, v.seq,
       snowflake_pack(l, clock_timestamp() + interval '20 minutes', 5, v.seq) AS id
FROM unnest(ARRAY[:'own_tw', :'sony']::snowflake_layout[]) l,
     (VALUES (3, 0), (9, 0), (2, 7), (8, 7)) v(node, seq);
SELECT count(snowflake_advance(layout, node, id)) AS advanced FROM adv;
SELECT layout, node, seq AS target_seq, next > id AS above,
       snowflake_field(next, layout, 'time') - snowflake_field(id, layout, 'time') AS ticks_later,
       snowflake_sequence(next, layout) AS next_seq
FROM adv, LATERAL (SELECT snowflake_next(layout, node) AS next) n
ORDER BY 1, 2;
\endif

-- validation: the id must belong to the layout, the node must fit
SELECT err($$SELECT snowflake_advance('twitter', 1, -1)$$) AS negative_id;
SELECT err($$SELECT snowflake_advance('scru64(node_bits=8)', 1, 4738381338321616896)$$) AS scru64_limit;
SELECT err($$SELECT snowflake_advance('twitter', 1024, 1)$$) AS big_node;
SELECT snowflake_advance('twitter', NULL, 1) IS NULL AS strict;

-- SCRU64 never issues its reserved last tick: after the largest id of the
-- tick before it, 22008 (also counted as a failure)
\if :{?not_private}
\else
SELECT (282429536479 << 24) | (250 << 16) | 65535 AS last_scru64 \gset
SELECT snowflake_parts(:last_scru64, 'scru64(node_bits=8)') AS last_issuable;
SELECT snowflake_advance('scru64(node_bits=8)', 250, :last_scru64);
SELECT err($$SELECT snowflake_next('scru64(node_bits=8)', 250)$$) AS after_last_issuable;
SELECT s.failures - coalesce(b.failures, 0) AS failures
FROM ulid_generator_state s LEFT JOIN states_before b USING (layout, node) WHERE layout = 'scru64(node_bits=8)' AND node = 250;
\endif

-- operating the state is for superusers; generating is for everyone
CREATE ROLE regress_sf_user;
SET ROLE regress_sf_user;
SELECT err($$SELECT snowflake_next('twitter', 30) > 0$$) AS generate;
SELECT err($$SELECT snowflake_advance('twitter', 30, 1)$$) AS advance;
SELECT err($$SELECT snowflake_reset('twitter', 30)$$) AS reset;
SELECT err($$SELECT count(*) FROM ulid_generator_state$$) AS view;
SELECT err($$SET ulid.clock_borrow_ms = 10$$) AS set_borrow;
SELECT err($$SET ulid.clock_wait_ms = 10$$) AS set_wait;
RESET ROLE;
GRANT EXECUTE ON FUNCTION snowflake_advance(snowflake_layout, bigint, bigint), snowflake_reset(snowflake_layout, bigint) TO regress_sf_user;
SET ROLE regress_sf_user;
SELECT err($$SELECT snowflake_advance('twitter', 30, 1)$$) AS advance_granted;
SELECT err($$SELECT snowflake_reset('twitter', 30)$$) AS reset_granted;
RESET ROLE;
REVOKE EXECUTE ON FUNCTION snowflake_advance(snowflake_layout, bigint, bigint), snowflake_reset(snowflake_layout, bigint) FROM regress_sf_user;
DROP ROLE regress_sf_user;

-- this file's advances undone: no state it advanced keeps a floor of its own
\if :{?not_private}
\else
SET client_min_messages = error;
SELECT count(snowflake_reset(layout::snowflake_layout, node)) AS reset
FROM (VALUES (:'own_tw', 2), (:'own_tw', 3), (:'own_tw', 8), (:'own_tw', 9), (:'own_tw', 20), (:'own_tw', 21),
             (:'own_tw', 23), (:'sony', 2), (:'sony', 3), (:'sony', 8), (:'sony', 9),
             ('scru64(node_bits=8)', 250)) v(layout, node);
RESET client_min_messages;
SELECT count(*) AS own_floors_left FROM ulid_generator_state WHERE kind = 'snowflake' AND state_floor IS NOT NULL
    AND (layout = :'own_tw' OR layout = :'sony' OR node = 250);
\endif
RESET ulid.clock_borrow_ms;
RESET ulid.clock_wait_ms;
