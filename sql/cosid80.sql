-- COSID_80 (SPEC section 4, seed 002): the 80-bit CosId id, text only.
-- cosid80_next() runs on the Snowflake generator's shared state (one state
-- per node, kind cosid80); the calls name their node (with no ulid.node_id:
-- settings.sql).  On test/run's own server nodes 7, 8 and 10 are advanced,
-- and reset at the end; on any other server (make installcheck) the parts
-- that advance, reset, count or need a node on the clock are skipped.
SET timezone = 'UTC';
SET datestyle = 'ISO, YMD';

-- the seed's time (2026-10-27 15:30:12.123 in Asia/Shanghai), node 3,
-- sequence 17; and the largest id
SELECT cosid80_parts('0VZEV0mp000300H') AS parts, cosid80_time('0VZEV0mp000300H') AS time;
SELECT cosid80_friendly('0VZEV0mp000300H') AS utc, cosid80_friendly('0VZEV0mp000300H', 'Asia/Shanghai') AS shanghai,
       cosid80_from_friendly('20261027153012123-0000003-00017', 'Asia/Shanghai') AS back;
SELECT cosid80_parts('4ziepp2F4OmVH31') AS largest, cosid80_friendly('4ziepp2F4OmVH31') AS largest_friendly,
       cosid80_parts('000000000000000') AS smallest;

-- nodes outside 20 bits
SELECT err($$SELECT cosid80_next(1048576)$$) AS node_2_20, err($$SELECT cosid80_next(-1)$$) AS negative;
-- generating needs the shared state and nodes 5-10 (test/README.md)
SELECT lacks('shared state', 'nodes 5-10') AS lacks \gset
\if :{?lacks}
\echo skipped: needs the shared generator state (shared_preload_libraries = ulid before PostgreSQL 17) and nodes 5-10 (test/README.md)
\else
SELECT lacks('private server') AS not_private \gset
SET ulid.clock_borrow_ms = 5;
SET ulid.clock_wait_ms = 1000;
CREATE TEMP TABLE states_before AS SELECT node, issued, failures FROM ulid_generator_state WHERE kind = 'cosid80';
-- 15 Base62 characters on the clock, with the node; strictly increasing
\if :{?not_private}
\echo skipped: the clock, the state view, advances and resets of nodes 5-10 need the server test/run starts (test/README.md)
\else
SELECT cosid80_next(5) AS first \gset
SELECT length(:'first') AS len, (cosid80_parts(:'first') ->> 'node')::int AS node,
       abs(extract(epoch FROM cosid80_time(:'first') - clock_timestamp())) < 5 AS near_clock;
\endif
SELECT count(*) AS ids, count(DISTINCT id) AS distinct_ids,
       bool_and(id > prev COLLATE "C") AS increasing,
       bool_and((cosid80_parts(id) ->> 'unix_ms')::bigint * 65536 + (cosid80_parts(id) ->> 'sequence')::bigint >
                (cosid80_parts(prev) ->> 'unix_ms')::bigint * 65536 + (cosid80_parts(prev) ->> 'sequence')::bigint) AS parts_increase
FROM (SELECT id, lag(id) OVER (ORDER BY g) AS prev
      FROM (SELECT g, cosid80_next(5) AS id FROM generate_series(1, 20000) g) s) t
WHERE prev IS NOT NULL;
\if :{?not_private}
\else
-- the view: one row of kind cosid80 per node, no layout, the last id as text
SELECT cosid80_next(6) AS last6 \gset
SELECT kind, layout IS NULL AS no_layout, node, last_id = :'last6' AS last_id_ok,
       last_tick = (cosid80_parts(:'last6') ->> 'unix_ms')::bigint AS last_tick_is_unix_ms,
       last_time = cosid80_time(:'last6') AS last_time_ok,
       sequence = (cosid80_parts(:'last6') ->> 'sequence')::int AS sequence_ok,
       issued - coalesce((SELECT issued FROM states_before WHERE node = 6), 0) AS issued_here,
       failures - coalesce((SELECT failures FROM states_before WHERE node = 6), 0) AS failures
FROM ulid_generator_state WHERE kind = 'cosid80' AND node = 6;
SELECT node, s.issued - coalesce(b.issued, 0) AS issued_here
FROM ulid_generator_state s LEFT JOIN states_before b USING (node)
WHERE kind = 'cosid80' AND s.issued IS DISTINCT FROM b.issued ORDER BY node;

-- advance and reset, like snowflake_advance() and snowflake_reset().
-- 400 ms ahead of the clock (the policy waits up to ulid.clock_wait_ms):
-- the next id is above the advance, and the state has its own floor
SELECT cosid80_from_friendly(to_char(clock_timestamp() + interval '400 ms', 'YYYYMMDDHH24MISSMS') || '-0000007-00100') AS ahead \gset
SELECT cosid80_next(7) < :'ahead' COLLATE "C" AS below_before;
SELECT cosid80_advance(7, :'ahead');
-- (its own floor, unless the server's restart floor is already above it)
SELECT coalesce(state_floor >= cosid80_time(:'ahead'), persisted_floor >= cosid80_time(:'ahead')) AS own_floor
FROM ulid_generator_state WHERE kind = 'cosid80' AND node = 7;
SELECT cosid80_next(7) > :'ahead' COLLATE "C" AS above_advance;
SELECT cosid80_advance(7, '000000000000000') AS never_moves_back;
SELECT cosid80_next(7) > :'ahead' COLLATE "C" AS still_above;
-- past an id of another node: above it too
SELECT cosid80_from_friendly(to_char(clock_timestamp() + interval '300 ms', 'YYYYMMDDHH24MISSMS') || '-0000009-00000') AS other \gset
SELECT cosid80_advance(8, :'other');
SELECT cosid80_next(8) > :'other' COLLATE "C" AS above_other_node;
-- far ahead of the clock: a WARNING (more than a day ahead); then the
-- state issues at the advanced time at once, tick after tick (70,000 ids:
-- two ticks of 65,536), never failing
SELECT cosid80_advance(10, cosid80_from_friendly('21000101000000000-0000010-00100'));
SELECT count(DISTINCT id) AS advanced_far_ids,
       min(cosid80_time(id)) = '2100-01-01 00:00:00+00' AS from_the_advance,
       max(cosid80_time(id)) = '2100-01-01 00:00:00.001+00' AS next_tick
FROM (SELECT cosid80_next(10) AS id FROM generate_series(1, 70000)) s;
SELECT failures, waits FROM ulid_generator_state WHERE kind = 'cosid80' AND node = 10;
SELECT cosid80_reset(10);
SELECT cosid80_time(cosid80_next(10)) < '2100-01-01' AS back_on_clock;
SELECT cosid80_reset(10);
SELECT err($$SELECT cosid80_advance(1048576, '000000000000000')$$) AS advance_bad_node,
       err($$SELECT cosid80_advance(1, 'x')$$) AS advance_bad_id;
\endif
-- superuser only, whatever was granted
CREATE ROLE cosid80_user;
GRANT EXECUTE ON FUNCTION cosid80_advance(bigint, text), cosid80_reset(bigint) TO cosid80_user;
SET ROLE cosid80_user;
SELECT err($$SELECT cosid80_advance(7, '000000000000000')$$) AS advance_denied,
       err($$SELECT cosid80_reset(7)$$) AS reset_denied,
       cosid80_next(9) IS NOT NULL AS minting_allowed;
RESET ROLE;
DROP OWNED BY cosid80_user;
DROP ROLE cosid80_user;
-- the advances undone: no state keeps a floor of its own
\if :{?not_private}
\else
SET client_min_messages = error;
SELECT cosid80_reset(7), cosid80_reset(8), cosid80_reset(10);
RESET client_min_messages;
SELECT count(*) AS own_floors_left FROM ulid_generator_state WHERE kind = 'cosid80' AND node BETWEEN 5 AND 10 AND state_floor IS NOT NULL;
\endif
RESET ulid.clock_borrow_ms;
RESET ulid.clock_wait_ms;
\endif

-- malformed text 22P02 naming the character, parts out of range 22003
SELECT t, err(format('SELECT cosid80_parts(%L)', t)) AS error
FROM (VALUES ('0VZEV0mp000300'), ('0VZEV0mp000300H1'), ('0VZEV0mp-00300H'), ('é0VZEV0mp000300'), (''),
             ('4ziepp2G0000000'), ('000000004OmW000'), ('00000000000H32')) t(t);
SELECT err($$SELECT cosid80_parts('00000000000000H32')$$) AS too_long,
       err($$SELECT cosid80_parts('000000000000H32')$$) AS seq_2_16,
       err($$SELECT cosid80_time('zzzzzzzzzzzzzzz')$$) AS time_2_44;
SELECT t, err(format('SELECT cosid80_from_friendly(%L)', t)) AS error
FROM (VALUES ('20261027073012123-0000003-00017'), ('20261027073012123-0000003-0017'), ('20261027073012123-1048576-00017'),
             ('20261027073012123-0000003-65536'), ('20261327073012123-0000003-00017'), ('26000101000000000-0000000-00000'),
             ('2026102707301212-0000003-00017')) t(t);
SELECT err($$SELECT cosid80_from_friendly('20240331023000000-0000003-00017', 'Europe/Berlin')$$) AS skipped_hour;
-- exact inverses
SELECT count(*) FILTER (WHERE cosid80_from_friendly(cosid80_friendly(id, z), z) <> id) AS friendly_mismatches,
       count(*) FILTER (WHERE cosid80_friendly(id, z) <> to_char(cosid80_time(id) AT TIME ZONE z, 'YYYYMMDDHH24MISSMS') || '-' ||
                              lpad(cosid80_parts(id) ->> 'node', 7, '0') || '-' || lpad(cosid80_parts(id) ->> 'sequence', 5, '0')) AS vs_to_char
FROM (SELECT cosid80_from_friendly(to_char(timestamptz '1990-01-01' + g * interval '13 days 11 hours 7.123 seconds', 'YYYYMMDDHH24MISSMS')
                                   || '-' || lpad((g * 7919 % 1048576)::text, 7, '0') || '-' || lpad((g * 31 % 65536)::text, 5, '0')) AS id
      FROM generate_series(0, 3000) g) s,
     (VALUES ('UTC'), ('Asia/Kolkata'), ('Etc/GMT+11')) z(z);
