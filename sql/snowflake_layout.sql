-- The snowflake_layout type (SPEC section 3): presets, the text form, the
-- constructors, every validation rule, diagrams, equality, binary I/O.
SET timezone = 'UTC';
SET datestyle = 'ISO, YMD';

-- Every preset: its canonical text and its diagram
SELECT l AS layout, snowflake_layout_diagram(l) AS diagram
FROM (VALUES ('twitter'::snowflake_layout), ('discord'), ('instagram'),
             ('sonyflake(epoch=2014-09-01T00:00:00.000Z)'), ('scru64(node_bits=8)'),
             ('snowflake_ms'), ('snowflake_s'), ('js_safe_ms'), ('js_safe_s')) t(l);

-- The seed's custom example, a short unsigned layout, and no node fields
SELECT l AS layout, snowflake_layout_diagram(l) AS diagram
FROM (VALUES ('custom(time=41:ms:0, fields=worker:10, sequence=12)'::snowflake_layout),
             ('custom(time=40:ms:0, fields=a:3+b:1, sequence=20, sign=false)'),
             ('custom(time=20:s:2024-01-01T00:00:00Z, sequence=19, sequence_above_node=true, sequence_reset=carry)')) t(l);

-- Canonical text: the preset form when the definition equals a preset
-- (the epoch shown only when it is not the preset's default), otherwise
-- custom(...) with every parameter; epochs as UTC ISO-8601 or Unix ms.
SELECT v AS input, v::snowflake_layout AS canonical
FROM (VALUES
    ('  twitter  '),
    ('twitter()'),
    ('sonyflake(epoch=1409529600000)'),
    ('sonyflake( epoch = 2014-09-01T00:00:00Z )'),
    ('scru64(node_bits=23)'),
    ('snowflake_ms(epoch=2019-12-24T16:00:00.000Z)'),
    ('snowflake_ms(epoch=2024-01-01T00:00:00.000Z)'),
    ('js_safe_s(epoch=1704067200000)'),
    ('custom(time=41:ms:1288834974657, fields=datacenter:5+worker:5, sequence=12)'),
    ('custom(time=42:ms:2015-01-01T00:00:00Z, fields=worker:5+process:5, sequence=12, sign=false)'),
    ('custom(time=39:10ms:2014-09-01T00:00:00Z, fields=machine:16, sequence=8, sequence_above_node=true)'),
    ('custom(time=41:ms:2019-12-24T16:00:00.000Z, fields=node:10, sequence=12, sequence_reset=carry)'),
    ('custom(time=41:ms:1288834974657, fields=datacenter:5+worker:5, sequence=12, sequence_reset=carry)'),
    ('custom(sequence=12, time=41:ms:2019-12-24T16:00:00.000Z, fields=worker:10)')
) t(v);

-- Text round trip: output parses back to an equal layout
SELECT count(*) AS round_trip_failures
FROM (VALUES ('twitter'::snowflake_layout), ('discord'), ('instagram'),
             ('sonyflake(epoch=2014-09-01T00:00:00.000Z)'), ('scru64(node_bits=1)'),
             ('js_safe_s(epoch=2024-01-01T00:00:00Z)'),
             ('custom(time=20:256ms:7, fields=a:1+b_2:2+c3:3, sequence=1, sign=false, sequence_above_node=true, sequence_reset=random)')) t(l)
WHERE l::text::snowflake_layout <> l;

-- Three ways a call can arrive, all agreeing: a literal goes to the input
-- function (a function-style cast), a text value to the constructor, a
-- varchar value to the input function through the I/O cast.
CREATE TEMP TABLE layout_names (t text, v varchar);
INSERT INTO layout_names VALUES
    ('twitter', 'twitter'),
    ('sonyflake(epoch=2014-09-01T00:00:00Z)', 'sonyflake(epoch=2014-09-01T00:00:00Z)'),
    ('scru64(node_bits=8)', 'scru64(node_bits=8)'),
    ('custom(time=41:ms:0, fields=worker:10, sequence=12)', 'custom(time=41:ms:0, fields=worker:10, sequence=12)');
EXPLAIN (VERBOSE, COSTS OFF) SELECT snowflake_layout(t), snowflake_layout(v) FROM layout_names;
SELECT t, snowflake_layout(t) = snowflake_layout(v) AND snowflake_layout(v) = t::snowflake_layout AS agree
FROM layout_names;
SELECT snowflake_layout('twitter') = snowflake_layout('twitter'::text) AS literal_agrees;
-- the same bad text: 22P02 through the input function, 22023 through the
-- constructor, one vocabulary of messages
SELECT v AS call, err('SELECT ' || v) AS error
FROM (VALUES ($$snowflake_layout('twitter(epoch=0)')$$),
             ($$snowflake_layout('twitter(epoch=0)'::text)$$),
             ($$snowflake_layout('twitter(epoch=0)'::varchar)$$)) t(v);
SELECT hint($$SELECT 'tweeter'::snowflake_layout$$) AS hint;
DROP TABLE layout_names;

-- Every validation rule of SPEC section 3, one per line, from text input (22P02)
SELECT v AS input, err(format('SELECT %L::snowflake_layout', v)) AS error
FROM (VALUES
    ('custom(time=41:us:0, sequence=12)'),                                -- unit
    ('custom(time=41:MS:0, sequence=12)'),                                -- units are lowercase
    ('custom(time=0:ms:0, sequence=12)'),                                 -- time 1-53 bits
    ('custom(time=54:ms:0, sequence=1)'),
    ('custom(time=41:ms:0, sequence=0)'),                                 -- sequence 1-31 bits
    ('custom(time=20:ms:0, sequence=32)'),
    ('custom(time=1:ms:0, fields=a:0, sequence=1)'),                      -- each node field 1-53 bits
    ('custom(time=1:ms:0, fields=a:54, sequence=1, sign=false)'),
    ('custom(time=1:ms:0, fields=a:30+b:24, sequence=1, sign=false)'),    -- node fields at most 53
    ('custom(time=41:ms:0, fields=worker:10, sequence=13)'),              -- at most 63 with the sign bit
    ('custom(time=42:ms:0, fields=worker:10, sequence=13, sign=false)'),  -- at most 64
    ('custom(time=31:s:1577203200500, sequence=12)'),                     -- an s epoch is a whole second
    ('snowflake_s(epoch=2024-01-01T00:00:00.001Z)'),
    ('custom(time=41:ms:0, fields=Worker:10, sequence=12)'),              -- [a-z][a-z0-9_]{0,62}
    ('custom(time=41:ms:0, fields=9lives:10, sequence=12)'),
    ('custom(time=41:ms:0, fields=_worker:10, sequence=12)'),
    ('custom(time=41:ms:0, fields=wörker:10, sequence=12)'),
    ('custom(time=1:ms:0, fields=a234567890123456789012345678901234567890123456789012345678901234:1, sequence=1)'),
    ('custom(time=41:ms:0, fields=a:5+a:5, sequence=12)'),                -- unique
    ('custom(time=41:ms:0, fields=sign:10, sequence=12)'),                -- reserved names
    ('custom(time=41:ms:0, fields=time:10, sequence=12)'),
    ('custom(time=41:ms:0, fields=unix_ms:10, sequence=12)'),
    ('custom(time=41:ms:0, fields=sequence:10, sequence=12)'),
    ('custom(time=41:ms:0, fields=node:10, sequence=12)'),
    ('custom(time=41:ms:0, fields=unused:10, sequence=12)'),
    ('custom(time=41:ms:0, sequence=12, sequence_reset=sometimes)'),      -- zero, random, carry
    ('custom(time=41:ms:253402300800000, sequence=12)')                   -- epochs up to year 9999
) t(v);

-- The limits themselves are valid
SELECT v::snowflake_layout AS at_the_limit
FROM (VALUES
    ('custom(time=53:ms:0, fields=a:1, sequence=9)'),
    ('custom(time=1:ms:0, fields=a:53, sequence=10, sign=false)'),
    ('custom(time=32:ms:0, sequence=31)'),
    ('custom(time=42:ms:0, fields=worker:10, sequence=12, sign=false)'),
    ('custom(time=41:s:9999-12-31T23:59:59Z, sequence=1)'),
    ('custom(time=1:ms:0, fields=a23456789012345678901234567890123456789012345678901234567890123:1, sequence=1)')
) t(v);

-- Preset parameters
SELECT v AS input, err(format('SELECT %L::snowflake_layout', v)) AS error
FROM (VALUES
    ('sonyflake'),                          -- epoch required
    ('scru64'),                             -- node_bits required
    ('scru64(node_bits=0)'),
    ('scru64(node_bits=24)'),
    ('twitter(epoch=0)'),                   -- fixed epochs
    ('discord(epoch=0)'),
    ('instagram(epoch=0)'),
    ('scru64(node_bits=8, epoch=0)'),
    ('sonyflake(epoch=0, node_bits=3)'),    -- node_bits is scru64's only
    ('twitter(sequence=10)'),
    ('Twitter'),
    ('tweeter'),
    ('custom'),
    ('custom(time=41:ms:0)'),
    ('custom(sequence=12)'),
    ('custom(time=41:ms:0, sequence=12, epoch=0)')
) t(v);

-- Malformed text (22P02)
SELECT v AS input, err(format('SELECT %L::snowflake_layout', v)) AS error
FROM (VALUES
    (''),
    ('twitter x'),
    ('twitter('),
    ('twitter)'),
    ('sonyflake(epoch 0)'),
    ('sonyflake(epoch=0'),
    ('sonyflake(epoch=0,)'),
    ('sonyflake(epoch=0, epoch=1)'),
    ('sonyflake(epoch=yesterday)'),
    ('sonyflake(epoch=2014-09-01)'),
    ('sonyflake(epoch=2014-09-01T00:00:00)'),
    ('sonyflake(epoch=2014-09-01T00:00:00+02:00)'),
    ('sonyflake(epoch=2014-09-01T00:00:00.0001Z)'),
    ('sonyflake(epoch=2014-02-30T00:00:00Z)'),
    ('sonyflake(epoch=-1)'),
    ('scru64(node_bits=eight)'),
    ('scru64(nodebits=8)'),
    ('custom(time=41ms:0, sequence=12)'),
    ('custom(time=41:ms, sequence=12)'),
    ('custom(time=41:ms:0, fields=worker, sequence=12)'),
    ('custom(time=41:ms:0, fields=a:5+, sequence=12)'),
    ('custom(time=41:ms:0, sequence=12, sign=yes)'),
    ('custom(time=41:ms:0, sequence=99999999999999999999)')
) t(v);

-- The name constructor: the text form plus the preset parameters
SELECT snowflake_layout('sonyflake', '2014-09-01T00:00:00Z') AS sonyflake,
       snowflake_layout('scru64', node_bits => 8) AS scru64,
       snowflake_layout('snowflake_ms', epoch => '2024-01-01T00:00:00Z') AS moved_epoch,
       snowflake_layout('twitter', NULL, NULL) AS null_defaults;
SELECT snowflake_layout(NULL::text) IS NULL AS null_name;
SELECT v AS call, err('SELECT ' || v) AS error
FROM (VALUES
    ($$snowflake_layout('twitter', '2020-01-01T00:00:00Z')$$),
    ($$snowflake_layout('sonyflake'::text)$$),
    ($$snowflake_layout('scru64'::text)$$),
    ($$snowflake_layout('scru64', node_bits => 24)$$),
    ($$snowflake_layout('twitter', node_bits => 5)$$),
    ($$snowflake_layout('sonyflake(epoch=0)', '2014-09-01T00:00:00Z')$$),
    ($$snowflake_layout('scru64(node_bits=8)', node_bits => 8)$$),
    ($$snowflake_layout('sonyflake', '2014-09-01T00:00:00.0005Z')$$),
    ($$snowflake_layout('sonyflake', 'infinity')$$),
    ($$snowflake_layout('sonyflake', '1969-12-31T23:59:59.999Z')$$),
    ($$snowflake_layout('custom(time=41:ms:0, sequence=12)', '2014-09-01T00:00:00Z')$$),
    ($$snowflake_layout('snowflake_s', '2024-01-01T00:00:00.5Z')$$)
) t(v);

-- The custom constructor: fields is json, so its key order is the field order
SELECT snowflake_layout(41, 'ms', '2010-11-04T01:42:54.657Z', '{"datacenter": 5, "worker": 5}', 12) AS twitter,
       snowflake_layout(41, 'ms', '2010-11-04T01:42:54.657Z', '{"worker": 5, "datacenter": 5}', 12) AS swapped;
SELECT snowflake_layout(39, '10ms', '2014-09-01T00:00:00Z', '{"machine": 16}', 8,
                        sequence_above_node => true) AS sonyflake,
       snowflake_layout(42, 'ms', '2015-01-01T00:00:00Z', '{"worker": 5, "process": 5}', 12,
                        sign_bit => false) AS discord,
       snowflake_layout(39, '256ms', '1970-01-01T00:00:00Z', '{"node": 8}', 16,
                        sequence_reset => 'random') AS scru64,
       snowflake_layout(41, 'ms', '2019-12-24T16:00:00Z', '{}', 22) AS no_node;
SELECT snowflake_layout(41, 'ms', '2019-12-24T16:00:00Z', '{"worker": 10}', 12) =
       'custom(time=41:ms:2019-12-24T16:00:00.000Z, fields=worker:10, sequence=12)' AS same_as_text;
SELECT snowflake_layout(41, 'ms', '2019-12-24T16:00:00Z', '{"worker": 10}', 12, NULL) IS NULL AS strict;
-- every rule again, from the constructor (22023, same messages)
SELECT v AS call, err('SELECT ' || v) AS error
FROM (VALUES
    ($$snowflake_layout(41, 'us', '1970-01-01Z', '{}', 12)$$),
    ($$snowflake_layout(54, 'ms', '1970-01-01Z', '{}', 1)$$),
    ($$snowflake_layout(41, 'ms', '1970-01-01Z', '{}', 32)$$),
    ($$snowflake_layout(1, 'ms', '1970-01-01Z', '{"a": 0}', 1)$$),
    ($$snowflake_layout(1, 'ms', '1970-01-01Z', '{"a": 30, "b": 24}', 1, false)$$),
    ($$snowflake_layout(41, 'ms', '1970-01-01Z', '{"worker": 10}', 13)$$),
    ($$snowflake_layout(42, 'ms', '1970-01-01Z', '{"worker": 10}', 13, false)$$),
    ($$snowflake_layout(31, 's', '2019-12-24T16:00:00.5Z', '{}', 12)$$),
    ($$snowflake_layout(41, 'ms', '1970-01-01Z', '{"Worker": 10}', 12)$$),
    ($$snowflake_layout(41, 'ms', '1970-01-01Z', '{"worker": 5, "worker": 5}', 12)$$),
    ($$snowflake_layout(41, 'ms', '1970-01-01Z', '{"time": 10}', 12)$$),
    ($$snowflake_layout(41, 'ms', '1970-01-01Z', '{"node": 10}', 12)$$),
    ($$snowflake_layout(41, 'ms', '1970-01-01Z', '{}', 12, sequence_reset => 'sometimes')$$),
    ($$snowflake_layout(41, 'ms', '1960-01-01Z', '{}', 12)$$),
    ($$snowflake_layout(41, 'ms', '1970-01-01Z', '{"worker": 10.0}', 12)$$),
    ($$snowflake_layout(41, 'ms', '1970-01-01Z', '{"worker": "10"}', 12)$$),
    ($$snowflake_layout(41, 'ms', '1970-01-01Z', '[10]', 12)$$),
    ($$snowflake_layout(41, 'ms', '1970-01-01Z', '{"worker": {"bits": 10}}', 12)$$)
) t(v);
SELECT hint($$SELECT snowflake_layout(41, 'us', '1970-01-01Z', '{}', 12)$$) AS custom_hint;

-- Equality is by definition: names do not matter, bits do
SELECT 'snowflake_ms'::snowflake_layout = 'snowflake_ms(epoch=1577203200000)' AS default_epoch,
       'twitter'::snowflake_layout = 'custom(time=41:ms:1288834974657, fields=datacenter:5+worker:5, sequence=12)' AS twitter_by_bits,
       'twitter'::snowflake_layout <> 'discord' AS differs,
       'scru64(node_bits=8)'::snowflake_layout = 'scru64(node_bits=9)' AS node_bits_matter;
SELECT l, count(*)
FROM (VALUES ('twitter'::snowflake_layout), ('twitter'), ('discord'),
             ('custom(time=41:ms:1288834974657, fields=datacenter:5+worker:5, sequence=12)')) t(l)
GROUP BY l ORDER BY l::text;
SELECT DISTINCT l FROM (VALUES ('twitter'::snowflake_layout), ('twitter'), ('discord')) t(l) ORDER BY l;
SELECT count(DISTINCT l) AS distinct_layouts
FROM (VALUES ('twitter'::snowflake_layout), ('twitter'), ('discord'), ('scru64(node_bits=8)')) t(l);
SELECT l FROM (VALUES ('twitter'::snowflake_layout), ('discord')) t(l)
UNION SELECT 'custom(time=41:ms:1288834974657, fields=datacenter:5+worker:5, sequence=12)' ORDER BY 1;
CREATE TEMP TABLE stored_layouts (name text, l snowflake_layout);
INSERT INTO stored_layouts VALUES ('a', 'twitter'), ('b', 'sonyflake(epoch=2014-09-01T00:00:00Z)');
SET enable_mergejoin = off; SET enable_nestloop = off;
EXPLAIN (COSTS OFF) SELECT * FROM stored_layouts s JOIN stored_layouts t ON s.l = t.l;
SELECT s.name, t.name FROM stored_layouts s JOIN stored_layouts t ON s.l = t.l ORDER BY 1;
RESET enable_mergejoin; RESET enable_nestloop;

-- Binary I/O: the version byte and the definition; COPY BINARY round-trips.
-- Presets are frozen: these bytes are what every stored preset holds.
SELECT l AS preset, snowflake_layout_send(l) AS stored_bytes
FROM (VALUES ('twitter'::snowflake_layout), ('discord'), ('instagram'),
             ('sonyflake(epoch=2014-09-01T00:00:00.000Z)'), ('scru64(node_bits=8)'),
             ('snowflake_ms'), ('snowflake_s'), ('js_safe_ms'), ('js_safe_s')) t(l);
SELECT '/tmp/ulid_regress_layout_' || pg_backend_pid() || '.bin' AS copy_file \gset
COPY stored_layouts TO :'copy_file' (FORMAT binary);
CREATE TEMP TABLE copied_layouts (LIKE stored_layouts);
COPY copied_layouts FROM :'copy_file' (FORMAT binary);
SELECT c.name, c.l, c.l = s.l AS same FROM copied_layouts c JOIN stored_layouts s USING (name) ORDER BY 1;
-- a stored value from a future format version is refused (22P03): byte 31
-- of the file is the first row's version byte (after the 19-byte header, the
-- field count, the name's length and 'a', and the layout's length)
SELECT substr(pg_read_binary_file(:'copy_file'), 26, 6) AS a_then_layout_start;
SELECT :'copy_file' || '.v2' AS v2_file \gset
SELECT 'base64 -d > ' || :'v2_file' AS write_cmd \gset
COPY (SELECT translate(encode(overlay(pg_read_binary_file(:'copy_file') PLACING '\x02' FROM 31 FOR 1),
                              'base64'), E'\n', ''))
    TO PROGRAM :'write_cmd';
TRUNCATE copied_layouts;
SELECT err(format('COPY copied_layouts FROM %L (FORMAT binary)', :'v2_file')) AS version_2;
\set copy_cmd 'cat >/dev/null; rm -f ' :copy_file ' ' :v2_file
COPY (SELECT 1) TO PROGRAM :'copy_cmd';
DROP TABLE stored_layouts, copied_layouts;
