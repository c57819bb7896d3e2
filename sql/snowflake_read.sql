-- Reading Snowflake ids back and building them (SPEC section 3), checked
-- against public ids with known answers.
SET timezone = 'UTC';
SET datestyle = 'ISO, YMD';

-- Discord's API reference ("Snowflakes"): 175928847299117063 is
-- 2016-04-30T11:18:25.796Z, internal worker 1, internal process 0, increment 7.
SELECT snowflake_time(175928847299117063, 'discord') AS time,
       snowflake_unix_ms(175928847299117063, 'discord') AS unix_ms,
       snowflake_field(175928847299117063, 'discord', 'worker') AS worker,
       snowflake_field(175928847299117063, 'discord', 'process') AS process,
       snowflake_sequence(175928847299117063, 'discord') AS increment,
       snowflake_node(175928847299117063, 'discord') AS node;
SELECT snowflake_time(175928847299117063, 'discord') = '2016-04-30T11:18:25.796Z'
       AND snowflake_field(175928847299117063, 'discord', 'worker') = 1
       AND snowflake_field(175928847299117063, 'discord', 'process') = 0
       AND snowflake_sequence(175928847299117063, 'discord') = 7 AS discord_documented;
SELECT snowflake_parts(175928847299117063, 'discord') AS parts;

-- Wikipedia, "Snowflake ID" (its worked example): the @Wikipedia tweet
-- 1541815603606036480 has timestamp 367597485448 after the Twitter epoch
-- 1288834974657, i.e. Unix 1656432460.105 = 2022-06-28 16:07:40.105 UTC,
-- machine id 0b0101111010 = 378 (datacenter 11, worker 26), sequence 0.
SELECT snowflake_time(1541815603606036480, 'twitter') AS time,
       snowflake_field(1541815603606036480, 'twitter', 'time') AS ticks,
       snowflake_node(1541815603606036480, 'twitter') AS machine,
       snowflake_field(1541815603606036480, 'twitter', 'datacenter') AS datacenter,
       snowflake_field(1541815603606036480, 'twitter', 'worker') AS worker,
       snowflake_sequence(1541815603606036480, 'twitter') AS sequence;
SELECT snowflake_unix_ms(1541815603606036480, 'twitter') = 1656432460105
       AND snowflake_field(1541815603606036480, 'twitter', 'time') = 367597485448
       AND snowflake_node(1541815603606036480, 'twitter') = 378 AS wikipedia_example;
SELECT snowflake_pack('twitter', '2022-06-28T16:07:40.105Z', 378, 0) = 1541815603606036480 AS packs_back;

-- twitter-archive/snowflake IdWorkerSpec: workerMask 0x1F000,
-- datacenterMask 0x3E0000, timestampMask 0xFFFFFFFFFFC00000 >> 22 is the
-- time since twepoch.
SELECT snowflake_field(x'1F000'::bigint, 'twitter', 'worker') AS worker_mask_worker,
       snowflake_field(x'1F000'::bigint, 'twitter', 'datacenter') AS worker_mask_dc,
       snowflake_field(x'3E0000'::bigint, 'twitter', 'datacenter') AS dc_mask_dc,
       snowflake_field(x'3E0000'::bigint, 'twitter', 'worker') AS dc_mask_worker,
       snowflake_field(x'7FFFFFFFFFC00000'::bigint, 'twitter', 'time') = 2^41 - 1 AS time_mask;
SELECT snowflake_pack('twitter', '2024-01-01T00:00:00Z', 31 * 32 + 31, 0) & x'3FF000'::bigint
       = x'3FF000'::bigint AS mask_31_31;

-- Instagram Engineering, "Sharding & IDs at Instagram" (2012): 1387263000 ms
-- since the epoch, logical shard 31341 % 2000 = 1341, sequence 5001 % 1024 =
-- 905, id = 1387263000 << 23 | 1341 << 10 | 905; the post's PL/pgSQL uses
-- our_epoch 1314220021721.
SELECT snowflake_pack('instagram', to_timestamp((1314220021721 + 1387263000) / 1000.0), 1341, 905) AS id,
       (1387263000::bigint << 23) | (1341 << 10) | 905 AS by_hand;
SELECT snowflake_field(11637205501278089, 'instagram', 'time') AS ticks,
       snowflake_field(11637205501278089, 'instagram', 'shard') AS shard,
       snowflake_sequence(11637205501278089, 'instagram') AS sequence,
       snowflake_time(11637205501278089, 'instagram') AS time;
-- Stack Overflow question 63683015 ("Instagram media ID to timestamp
-- conversion"): media 2384288897814875714 was posted 2020-08-26T13:43:27Z
-- and 2383568809444681765 at 2020-08-25T13:52:46Z (seconds given).
SELECT id, snowflake_time(id, 'instagram') AS time,
       date_trunc('second', snowflake_time(id, 'instagram')) = known AS matches,
       snowflake_field(id, 'instagram', 'shard') AS shard
FROM (VALUES (2384288897814875714, '2020-08-26T13:43:27Z'::timestamptz),
             (2383568809444681765, '2020-08-25T13:52:46Z')) t(id, known);

-- Sonyflake (sony/sonyflake sonyflake.go): elapsed 10-ms units << 24 |
-- sequence << 16 | machine id; the default start time of v1 was 2014-09-01
-- and its README gives a lifetime of 174 years.  Its test suites hold no
-- fixed ids, so these check the reference's formula.
SELECT snowflake_pack('sonyflake(epoch=2014-09-01T00:00:00Z)', '2014-09-01T00:00:00.050Z', 258, 3)
       = (5::bigint << 24) | (3 << 16) | 258 AS reference_formula;
-- sony/sonyflake issue #33, filed 2022-07-19, quotes a Decompose time of
-- 24869724975 (10-ms units since 2014-09-01): it reads as that very day.
SELECT snowflake_field(id, l, 'time') AS elapsed, snowflake_sequence(id, l) AS sequence,
       snowflake_field(id, l, 'machine') AS machine, snowflake_time(id, l) AS time
FROM (SELECT ((24869724975::bigint << 24) | (7 << 16) | 43981) AS id,
             'sonyflake(epoch=2014-09-01T00:00:00Z)'::snowflake_layout AS l) s;
SELECT snowflake_upper(l, '2188-11-16T03:28:58.879Z') = x'7FFFFFFFFFFFFFFF'::bigint AS last_tick,
       err(format('SELECT snowflake_lower(%L, %L)', l, '2188-11-16T03:28:58.880Z')) AS after_174_years
FROM (SELECT 'sonyflake(epoch=2014-09-01T00:00:00Z)'::snowflake_layout AS l) s;

-- SCRU64 (scru64/rust src/test_cases.rs, EXAMPLE_IDS and EXAMPLE_NODE_SPECS):
-- text, number, timestamp (256 ms units since 1970) and node_ctr (node and
-- counter together), and the node ids the spec's restore examples read.
SELECT text, scru64_from_text(text) = num AS number,
       snowflake_field(num, 'scru64(node_bits=8)', 'time') = ts AS timestamp,
       (snowflake_node(num, 'scru64(node_bits=8)') << 16) + snowflake_sequence(num, 'scru64(node_bits=8)') = node_ctr AS node_ctr,
       snowflake_time(num, 'scru64(node_bits=8)') AS time
FROM (VALUES ('000000000000', x'0000000000000000'::bigint, 0::bigint, 0),
             ('00000009zldr', x'0000000000ffffff'::bigint, 0, 16777215),
             ('zzzzzzzq0em8', x'41c21cb8e0000000'::bigint, 282429536480, 0),
             ('zzzzzzzzzzzz', x'41c21cb8e0ffffff'::bigint, 282429536480, 16777215),
             ('0u375nxqh5cq', x'0186d52bbe2a635a'::bigint, 6557084606, 2777946),
             ('0u375ny0glr3', x'0186d52bbf2a4a1f'::bigint, 6557084607, 2771487),
             ('jdsf1we3ui4f', x'2367c8dfb2e6d23f'::bigint, 152065073074, 15127103),
             ('v0rbps7ay8ks', x'38a9e683bb4425ec'::bigint, 243368625083, 4466156)) t(text, num, ts, node_ctr);
SELECT text, node_bits, snowflake_node(scru64_from_text(text), snowflake_layout('scru64', node_bits => node_bits)) AS node_id,
       snowflake_node(scru64_from_text(text), snowflake_layout('scru64', node_bits => node_bits)) = want AS matches
FROM (VALUES ('v0rbps7ay8ks', 1, 0), ('v0rbps7ay8ks', 8, 68), ('v0rbps7ay8ks', 16, 17445),
             ('v0rbps7ay8ks', 23, 2233078), ('f2bembkd4zrb', 1, 1), ('f2bembkd4zrb', 8, 174),
             ('f2bembkd4zrb', 16, 44731), ('f2bembkd4zrb', 23, 5725571)) t(text, node_bits, want);

-- 64-bit layouts read their unsigned value: a Discord id after 2084-09-06
-- is a negative bigint and reads back the same way
SELECT id, snowflake_time(id, 'discord') AS time, snowflake_field(id, 'discord', 'worker') AS worker,
       snowflake_sequence(id, 'discord') AS sequence
FROM (SELECT snowflake_pack('discord', '2100-01-01T00:00:00Z', 33, 4095) AS id) s;
SELECT snowflake_time(-1, 'discord') AS last_discord_ms, snowflake_time(-1, 'instagram') AS last_instagram_ms,
       snowflake_upper('discord', '2154-05-15T07:35:11.103Z') AS discord_upper_is_minus_one;

-- Exact to the unit: a time between ticks is floored to its tick
SELECT l, ts, snowflake_time(snowflake_pack(l, ts, 0, 0), l) AS tick_start
FROM (VALUES ('twitter'::snowflake_layout, '2024-05-06T07:08:09.999999Z'::timestamptz),
             ('sonyflake(epoch=2014-09-01T00:00:00Z)', '2024-05-06T07:08:09.019Z'),
             ('scru64(node_bits=8)', '2024-05-06T07:08:09.999Z'),
             ('snowflake_s', '2024-05-06T07:08:09.999Z'),
             ('custom(time=41:s:2024-01-01T00:00:05Z, sequence=12)', '2024-05-06T07:08:09.999Z')) t(l, ts);
SELECT count(*) FILTER (WHERE snowflake_unix_ms(snowflake_pack(layout, ts, 0, 0), layout)
                              <> epoch + (ms - epoch) / unit * unit) AS inexact,
       count(*) AS checked
FROM generate_series(0, 100000, 7) g,
     LATERAL (SELECT '2024-01-01T00:00:00Z'::timestamptz + g * interval '1.013 ms' AS ts) t,
     LATERAL (SELECT floor(extract(epoch FROM ts) * 1000)::bigint AS ms) m,
     (VALUES ('twitter'::snowflake_layout, 1, 1288834974657),
             ('sonyflake(epoch=2014-09-01T00:00:00Z)', 10, 1409529600000),
             ('scru64(node_bits=8)', 256, 0),
             ('snowflake_s', 1000, 1577203200000)) l(layout, unit, epoch);

-- snowflake_lower / snowflake_upper bound every id of a tick
SELECT l, snowflake_lower(l, ts) AS lower, snowflake_upper(l, ts) AS upper,
       snowflake_lower(l, ts) <= snowflake_pack(l, ts, 5, 3) AND snowflake_pack(l, ts, 5, 3) <= snowflake_upper(l, ts) AS inside,
       snowflake_time(snowflake_upper(l, ts), l) = snowflake_time(snowflake_lower(l, ts), l) AS same_tick
FROM (VALUES ('twitter'::snowflake_layout), ('sonyflake(epoch=2014-09-01T00:00:00Z)'),
             ('scru64(node_bits=8)'), ('js_safe_ms'),
             ('custom(time=41:ms:2020-01-01T00:00:00Z, fields=n:3, sequence=20, sign=false)')) t(l),
     (VALUES ('2024-05-06T07:08:09.123Z'::timestamptz)) u(ts);
SELECT snowflake_upper('twitter', '2024-05-06T07:08:09.123Z') + 1
       = snowflake_lower('twitter', '2024-05-06T07:08:09.124Z') AS next_tick_follows,
       snowflake_lower('twitter', '2010-11-04T01:42:54.657Z') AS first_id,
       snowflake_upper('twitter', '2080-07-10T17:30:30.208Z') AS last_id;

-- snowflake_parts: time (UTC), unix_ms, each node field by name, sequence
SELECT l, snowflake_parts(snowflake_pack(l, '2024-05-06T07:08:09.123Z', node, 3), l) AS parts
FROM (VALUES ('twitter'::snowflake_layout, 5 * 32 + 6), ('sonyflake(epoch=2014-09-01T00:00:00Z)', 5),
             ('scru64(node_bits=8)', 5), ('instagram', 5), ('custom(time=41:ms:0, sequence=22)', 0)) t(l, node);

-- snowflake_field: node fields by name, and the raw time, node and sequence
SELECT f, snowflake_field(1541815603606036480, 'twitter', f) AS value
FROM unnest(ARRAY['datacenter', 'worker', 'time', 'node', 'sequence']) f;
SELECT snowflake_field(scru64_from_text('v0rbps7ay8ks'), 'scru64(node_bits=8)', 'node') AS scru64_node;

-- Ids outside the layout (22003), one per line
SELECT id, l, err(format('SELECT snowflake_time(%s, %L)', id, l)) AS error
FROM (VALUES (-1::bigint, 'twitter'::snowflake_layout),
             (-9223372036854775808, 'sonyflake(epoch=2014-09-01T00:00:00Z)'),
             (9007199254740992, 'js_safe_ms'),                  -- 2^53
             (9007199254740991, 'js_safe_ms'),                  -- 2^53 - 1: fine
             (4738381338321616896, 'scru64(node_bits=8)'),      -- 36^12
             (4738381338321616895, 'scru64(node_bits=8)'),      -- 36^12 - 1: fine
             (1099511627776, 'custom(time=20:ms:0, sequence=20, sign=false)'),  -- 2^40
             (-1, 'discord')) t(id, l);                          -- all 64 bits: fine
SELECT f, err(format('SELECT %s(-5, %L)', f, 'twitter')) AS error
FROM unnest(ARRAY['snowflake_time', 'snowflake_unix_ms', 'snowflake_node', 'snowflake_sequence',
                  'snowflake_parts', 'snowflake_friendly']) f;
SELECT err($$SELECT snowflake_field(-5, 'twitter', 'worker')$$) AS field;
SELECT hint($$SELECT snowflake_node(-5, 'twitter')$$) AS hint;

-- snowflake_pack: node and sequence out of range (22003), times outside (22008)
SELECT v AS call, err('SELECT ' || v) AS error
FROM (VALUES
    ($$snowflake_pack('twitter', '2024-01-01Z', 1024, 0)$$),
    ($$snowflake_pack('twitter', '2024-01-01Z', -1, 0)$$),
    ($$snowflake_pack('twitter', '2024-01-01Z', 0, 4096)$$),
    ($$snowflake_pack('twitter', '2024-01-01Z', 0, -1)$$),
    ($$snowflake_pack('twitter', '2024-01-01Z', 1023, 4095)$$),
    ($$snowflake_pack('custom(time=41:ms:0, sequence=22)', '2024-01-01Z', 1, 0)$$),
    ($$snowflake_pack('twitter', '2010-11-04T01:42:54.656Z', 0, 0)$$),
    ($$snowflake_pack('twitter', '2080-07-10T17:30:30.209Z', 0, 0)$$),
    ($$snowflake_pack('twitter', 'infinity', 0, 0)$$),
    ($$snowflake_lower('twitter', '-infinity')$$),
    ($$snowflake_upper('scru64(node_bits=8)', '4261-02-27T06:08:59.136Z')$$),
    ($$snowflake_upper('scru64(node_bits=8)', '4261-02-27T06:08:59.135Z')$$)
) t(v);
-- unknown fields (22023)
SELECT err($$SELECT snowflake_field(1541815603606036480, 'twitter', 'shard')$$) AS unknown_field,
       err($$SELECT snowflake_field(1541815603606036480, 'twitter', 'Worker')$$) AS case_matters;
-- times beyond timestamptz (a 53-bit time field in seconds): 22008
SELECT snowflake_unix_ms(x'1FFFFFFFFFFFFF'::bigint << 9, 'custom(time=53:s:0, sequence=9)') AS unix_ms,
       err($$SELECT snowflake_time(x'1FFFFFFFFFFFFF'::bigint << 9, 'custom(time=53:s:0, sequence=9)')$$) AS beyond_timestamptz;

-- Strict: NULL in, NULL out
SELECT snowflake_time(NULL, 'twitter') IS NULL AND snowflake_node(1, NULL) IS NULL
       AND snowflake_field(1, 'twitter', NULL) IS NULL AND snowflake_pack('twitter', NULL, 0, 0) IS NULL
       AND snowflake_lower(NULL, now()) IS NULL AND snowflake_parts(NULL, 'twitter') IS NULL AS strict;

-- Immutable: usable in generated columns and index expressions
CREATE TEMP TABLE tweets (id bigint PRIMARY KEY,
    created timestamptz GENERATED ALWAYS AS (snowflake_time(id, 'twitter')) STORED);
INSERT INTO tweets VALUES (1541815603606036480), (1288834974657);
CREATE INDEX ON tweets (snowflake_field(id, 'twitter', 'worker'));
SELECT * FROM tweets ORDER BY id;
SELECT id FROM tweets WHERE id BETWEEN snowflake_lower('twitter', '2022-06-28T16:07:40Z')
                                   AND snowflake_upper('twitter', '2022-06-28T16:07:41Z');
DROP TABLE tweets;
-- issue 21: a layout whose range ends after year 9999 names that end as a
-- time (ISO 8601's expanded year), not a bare number
SELECT err($$SELECT snowflake_pack('custom(time=53:s:9999-12-31T23:59:59.000Z, sequence=10, sign=false)', '9999-12-31T23:59:58Z', 0, 0)$$) AS range_past_9999;
