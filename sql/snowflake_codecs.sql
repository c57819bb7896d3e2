-- Text forms of Snowflake ids (SPEC section 4): CosId's friendly form and
-- SCRU64's Base36 text, each with its exact inverse.
SET timezone = 'UTC';
SET datestyle = 'ISO, YMD';

-- Friendly form yyyyMMddHHmmssSSS-node-seq: node and sequence padded to the
-- decimal width of their largest value (twitter 1023 and 4095: 4 and 4)
SELECT snowflake_friendly(1541815603606036480, 'twitter') AS utc,
       snowflake_friendly(1541815603606036480, 'twitter', 'Asia/Shanghai') AS shanghai,
       snowflake_friendly(1541815603606036480, 'twitter', 'America/New_York') AS new_york,
       snowflake_friendly(175928847299117063, 'discord') AS discord;
SELECT snowflake_from_friendly('20220628160740105-0378-0000', 'twitter') AS from_utc,
       snowflake_from_friendly('20220629000740105-0378-0000', 'twitter', 'Asia/Shanghai') AS from_shanghai,
       snowflake_from_friendly('20220628120740105-0378-0000', 'twitter', 'America/New_York') AS from_new_york;
-- widths per layout; a second-unit layout always writes 000 milliseconds
SELECT l, snowflake_friendly(snowflake_upper(l, '2024-05-06T07:08:09.999Z'), l) AS upper,
       snowflake_friendly(snowflake_lower(l, '2024-05-06T07:08:09.999Z'), l) AS lower
FROM (VALUES ('twitter'::snowflake_layout), ('sonyflake(epoch=2014-09-01T00:00:00Z)'),
             ('scru64(node_bits=8)'), ('snowflake_s'), ('js_safe_s'), ('js_safe_ms'),
             ('custom(time=41:ms:0, sequence=22)')) t(l);

-- Exact inverse in UTC and in fixed-offset zones, for ids all over each layout
SELECT l, zone, count(*) AS ids,
       count(*) FILTER (WHERE snowflake_from_friendly(snowflake_friendly(id, l, zone), l, zone) <> id) AS mismatches
FROM (VALUES ('twitter'::snowflake_layout), ('sonyflake(epoch=2014-09-01T00:00:00Z)'),
             ('scru64(node_bits=5)'), ('snowflake_s'), ('js_safe_ms')) t(l),
     (VALUES ('UTC'), ('Etc/GMT-14'), ('Etc/GMT+12'), ('Asia/Kolkata')) z(zone),
     LATERAL (SELECT snowflake_pack(l, '2020-01-01T00:00:00Z'::timestamptz + g * interval '3 days 7 hours 11.437 seconds',
                                    g % 8, g % 256) AS id
              FROM generate_series(0, 2000) g) ids
GROUP BY 1, 2 ORDER BY l::text, zone;
-- ... and in a zone with daylight saving time, away from its transitions
SELECT count(*) AS ids,
       count(*) FILTER (WHERE snowflake_from_friendly(snowflake_friendly(id, 'twitter', 'Europe/Paris'),
                                                      'twitter', 'Europe/Paris') <> id) AS mismatches
FROM (SELECT snowflake_pack('twitter', '2024-01-01T12:00:00Z'::timestamptz + g * interval '1 day', 1, g) AS id
      FROM generate_series(0, 365) g) s;

-- Decoding rejects local times a transition skipped or repeated (22P02,
-- hint: use UTC), times off a tick and malformed text
SELECT v AS call, err('SELECT ' || v) AS error
FROM (VALUES
    ($$snowflake_from_friendly('20240310023000000-0000-0000', 'twitter', 'America/New_York')$$),  -- skipped
    ($$snowflake_from_friendly('20241103013000000-0000-0000', 'twitter', 'America/New_York')$$),  -- repeated
    ($$snowflake_from_friendly('20240331023000000-0000-0000', 'twitter', 'Europe/Paris')$$),      -- skipped
    ($$snowflake_from_friendly('20241027023000000-0000-0000', 'twitter', 'Europe/Paris')$$),      -- repeated
    ($$snowflake_from_friendly('20240310033000000-0000-0000', 'twitter', 'America/New_York')$$),  -- fine: after the gap
    ($$snowflake_from_friendly('20241103023000000-0000-0000', 'twitter', 'America/New_York')$$),  -- fine: after the overlap
    ($$snowflake_from_friendly('20240506070809015-00005-000', 'sonyflake(epoch=2014-09-01T00:00:00Z)')$$),  -- off its 10 ms tick
    ($$snowflake_from_friendly('20240506070809010-00005-000', 'sonyflake(epoch=2014-09-01T00:00:00Z)')$$),  -- on it
    ($$snowflake_from_friendly('20240506070809001-0000-0000000', 'snowflake_s')$$),  -- a second-unit layout needs 000
    ($$snowflake_from_friendly('20240506070809100-000-00000', 'scru64(node_bits=8)')$$),  -- not on a 256 ms tick
    ($$snowflake_from_friendly('20220628160740105-378-0000', 'twitter')$$),          -- node not padded
    ($$snowflake_from_friendly('20220628160740105-0378-00000', 'twitter')$$),        -- sequence too wide
    ($$snowflake_from_friendly('2022062816074010-0378-0000', 'twitter')$$),          -- 16 time digits
    ($$snowflake_from_friendly('20220628160740105_0378_0000', 'twitter')$$),
    ($$snowflake_from_friendly('2022-06-28 16:07-0378-0000', 'twitter')$$),
    ($$snowflake_from_friendly('20221328160740105-0378-0000', 'twitter')$$),         -- month 13
    ($$snowflake_from_friendly('20230229160740105-0378-0000', 'twitter')$$),         -- no Feb 29 in 2023
    ($$snowflake_from_friendly('20220628250740105-0378-0000', 'twitter')$$),         -- hour 25
    ($$snowflake_from_friendly('20220628160760105-0378-0000', 'twitter')$$),         -- second 60
    ($$snowflake_from_friendly('', 'twitter')$$),
    ($$snowflake_from_friendly('20220628160740105-1024-0000', 'twitter')$$),         -- node above 1023: 22003
    ($$snowflake_from_friendly('20220628160740105-0378-4096', 'twitter')$$),         -- sequence above 4095: 22003
    ($$snowflake_from_friendly('20100101000000000-0000-0000', 'twitter')$$),         -- before the epoch: 22003
    ($$snowflake_from_friendly('20900101000000000-0000-0000', 'twitter')$$),         -- after the last tick: 22003
    ($$snowflake_from_friendly('20220628160740105-0378-0000', 'twitter', 'Mars/Olympus_Mons')$$),  -- unknown zone
    ($$snowflake_friendly(1541815603606036480, 'twitter', 'Mars/Olympus_Mons')$$)
) t(v);
SELECT hint($$SELECT snowflake_from_friendly('20241103013000000-0000-0000', 'twitter', 'America/New_York')$$) AS dst_hint;
-- a layout reaching past year 9999 has ids that yyyy cannot write (22008)
SELECT err($$SELECT snowflake_friendly(x'7FFFFFFFFFFFFC00'::bigint, 'custom(time=53:ms:0, sequence=10)')$$) AS year_10000_plus;
SELECT snowflake_friendly(0, 'custom(time=53:ms:0, sequence=10)') AS year_1970;
SELECT snowflake_friendly(1541815603606036480, 'twitter', NULL) IS NULL
       AND snowflake_from_friendly(NULL, 'twitter') IS NULL AS strict;

-- SCRU64 text (scru64/rust src/test_cases.rs EXAMPLE_IDS: text and number)
SELECT text, num, scru64_text(num) = text AS encodes, scru64_from_text(text) = num AS decodes,
       scru64_from_text(upper(text)) = num AS any_case
FROM (VALUES ('000000000000', x'0000000000000000'::bigint),
             ('00000009zldr', x'0000000000ffffff'::bigint),
             ('zzzzzzzq0em8', x'41c21cb8e0000000'::bigint),
             ('zzzzzzzzzzzz', x'41c21cb8e0ffffff'::bigint),
             ('0u375nxqh5cq', x'0186d52bbe2a635a'::bigint),
             ('0u375nxqh5cr', x'0186d52bbe2a635b'::bigint),
             ('0u375ny0glr0', x'0186d52bbf2a4a1c'::bigint),
             ('jdsf1we3ui4f', x'2367c8dfb2e6d23f'::bigint),
             ('j0afcjyfyi98', x'22b86eaad6b2f7ec'::bigint),
             ('ckzyfc271xsn', x'16fc214296b29057'::bigint),
             ('t0vgc4c4b18n', x'3504295badc14f07'::bigint),
             ('mwcrtcubk7bp', x'29d3c7553e748515'::bigint),
             ('g9ye86pgplu7', x'1dbb24363718aecf'::bigint),
             ('qmez19t9oeir', x'30a122fef7cd6c83'::bigint),
             ('d81r595fq52m', x'18278838f0660f2e'::bigint),
             ('v0rbps7ay8ks', x'38a9e683bb4425ec'::bigint),
             ('z0jndjt42op2', x'3ff596748ea77186'::bigint),
             ('f2bembkd4zrb', x'1b844eb5d1aebb07'::bigint),
             ('mkg0fd5p76pp', x'29391373ab449abd'::bigint)) t(text, num);
-- text sorts like the number
SELECT bool_and(scru64_text(a) < scru64_text(b) COLLATE "C") AS sorts
FROM (SELECT g * 1234567890123 AS a, g * 1234567890123 + 1 AS b FROM generate_series(0, 3000000, 997) g) s;
SELECT v AS call, err('SELECT ' || v) AS error
FROM (VALUES
    ($$scru64_text(-1)$$),
    ($$scru64_text(4738381338321616896)$$),           -- 36^12
    ($$scru64_text(4738381338321616895)$$),           -- 36^12 - 1: zzzzzzzzzzzz
    ($$scru64_from_text('')$$),
    ($$scru64_from_text('0u375nxqh5c')$$),            -- 11 characters
    ($$scru64_from_text('0u375nxqh5cqq')$$),          -- 13 characters
    ($$scru64_from_text('0u375nxq-5cq')$$),
    ($$scru64_from_text(' u375nxqh5cq')$$),
    ($$scru64_from_text('0u375nxqh5cé')$$),           -- 12 characters, 13 bytes
    ($$scru64_from_text('0u375nxqh5é')$$)             -- 11 characters, 12 bytes
) t(v);
SELECT hint($$SELECT scru64_from_text('0u375nxq-5cq')$$) AS scru64_hint;
SELECT scru64_text(NULL) IS NULL AND scru64_from_text(NULL) IS NULL AS strict;
