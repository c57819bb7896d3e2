-- CosId's codec chain (SPEC section 4, seed 002): snowflake_encode and
-- snowflake_decode with an ordered jsonb list of items.
SET timezone = 'UTC';
SET datestyle = 'ISO, YMD';

-- The seed's examples, from the ids and layouts that make them.
-- O261027qZ: base 62 (3259 is qZ), a yyMMdd date prefix from the clock
-- (CosId 4.x segments; here the time is passed), then the prefix O
SELECT snowflake_encode(3259, 'snowflake_ms',
        '[{"radix": {"radix": 62}},
          {"date_prefix": {"pattern": "yyMMdd", "delimiter": "", "source": "now"}},
          {"prefix": "O"}]', '2026-10-27 15:30:12.123+08') AS order_no,
       snowflake_encode(3259, 'snowflake_ms',
        '[{"radix": {"radix": 62}},
          {"date_prefix": {"pattern": "yyMMdd", "delimiter": "", "source": "now"}}]', '2026-10-27 15:30:12.123+08') AS before_prefix,
       snowflake_decode('O261027qZ', 'snowflake_ms',
        '[{"radix": {"radix": 62}},
          {"date_prefix": {"pattern": "yyMMdd", "delimiter": "", "source": "now"}},
          {"prefix": "O"}]') AS decoded;
-- 20261027153012123-0003-0017: friendly in Asia/Shanghai, node 3, sequence 17
SELECT snowflake_pack('snowflake_ms', '2026-10-27 15:30:12.123+08', 3, 17) AS trace_id;
SELECT snowflake_encode(905478981279559697, 'snowflake_ms', '[{"friendly": {"zone": "Asia/Shanghai"}}]') AS trace,
       snowflake_friendly(905478981279559697, 'snowflake_ms', 'Asia/Shanghai') AS same_as_snowflake_friendly,
       snowflake_decode('20261027153012123-0003-0017', 'snowflake_ms', '[{"friendly": {"zone": "Asia/Shanghai"}}]') AS decoded;
-- 20261027-000042: GroupedCodec's periodic segment, the period then the value
SELECT snowflake_encode(42, 'snowflake_ms',
        '[{"radix": {"radix": 10, "width": 6, "pad": true}},
          {"date_prefix": {"pattern": "yyyyMMdd", "delimiter": "-", "source": "now"}}]', '2026-10-27') AS segment;
-- Radix.of(62, 11, true), 4.x's Radix62IdConverter.PAD_START
SELECT snowflake_encode(905478981279559697, 'snowflake_ms', '[{"radix": {"radix": 62, "width": 11, "pad": true}}]') AS pad_start,
       snowflake_encode(3259, 'snowflake_ms', '[{"radix": {"radix": 62, "width": 11, "pad": true}}]') AS pad_start_small,
       radix_encode(905478981279559697, 62, 11) AS radix_encode;

-- without a first item the text is decimal (the unsigned value, as radix 10)
SELECT snowflake_encode(175928847299117063, 'discord', '[]') AS decimal,
       snowflake_encode(-1, 'discord', '[{"suffix": "!"}]') AS unsigned,
       snowflake_decode('18446744073709551615!', 'discord', '[{"suffix": "!"}]') AS back;
-- id_time: the id's own date, in the friendly zone or UTC
SELECT snowflake_encode(905478981279559697, 'snowflake_ms',
        '[{"radix": {"radix": 36}}, {"date_prefix": {"pattern": "yyyy-MM-dd HH:mm:ss.SSS", "delimiter": "/", "source": "id_time"}}, {"suffix": ".t"}]') AS utc_date,
       snowflake_encode(905478981279559697, 'snowflake_ms',
        '[{"friendly": {"zone": "Asia/Shanghai", "pad": false}}, {"date_prefix": {"pattern": "yyMMdd", "delimiter": "_", "source": "id_time"}}]') AS shanghai_date;
-- wraps nest in the order written: the last item is outermost
SELECT snowflake_encode(1, 'twitter', '[{"prefix": "a"}, {"suffix": "b"}, {"prefix": "c"}, {"suffix": "d"}]') AS nested,
       snowflake_decode('ca1bd', 'twitter', '[{"prefix": "a"}, {"suffix": "b"}, {"prefix": "c"}, {"suffix": "d"}]') AS back;

-- exact inverse, for ids all over each layout and a set of codecs; every
-- text decodes back and re-encodes to itself
CREATE TEMP TABLE codecs (name text, codec jsonb);
INSERT INTO codecs VALUES
    ('decimal', '[]'),
    ('radix62', '[{"radix": {"radix": 62}}]'),
    ('radix36_pad', '[{"radix": {"radix": 36, "width": 13, "pad": true}}, {"prefix": "id_"}]'),
    ('radix2', '[{"radix": {"radix": 2}}, {"suffix": "b"}]'),
    ('friendly_utc', '[{"friendly": {"zone": "UTC"}}]'),
    ('friendly_kolkata_nopad', '[{"friendly": {"zone": "Asia/Kolkata", "pad": false}}, {"prefix": "T"}]'),
    ('dated', '[{"radix": {"radix": 62, "width": 11, "pad": true}}, {"date_prefix": {"pattern": "yyyyMMddHH", "delimiter": "-", "source": "id_time"}}, {"prefix": "O"}]'),
    ('dated_friendly', '[{"friendly": {"zone": "Etc/GMT-14"}}, {"date_prefix": {"pattern": "yy/MM/dd", "source": "id_time"}}, {"suffix": "é"}]');
SELECT c.name, count(*) AS ids,
       count(*) FILTER (WHERE snowflake_decode(snowflake_encode(id, l, c.codec), l, c.codec) <> id) AS mismatches
FROM codecs c,
     (VALUES ('twitter'::snowflake_layout), ('snowflake_s'), ('discord'), ('js_safe_ms'),
             ('sonyflake(epoch=2014-09-01T00:00:00Z)')) t(l),
     LATERAL (SELECT snowflake_pack(l, '2020-01-01T00:00:00Z'::timestamptz + g * interval '3 days 7 hours 11.437 seconds',
                                    g % 8, g % 256) AS id
              FROM generate_series(0, 300) g) ids
GROUP BY c.name ORDER BY c.name;

-- the codec from a column, a PL/pgSQL variable and a prepared statement's
-- parameter: each row's own codec, never a cached one (generic plans too)
SELECT name, snowflake_encode(1541815603606036480, 'twitter', codec) AS text
FROM codecs ORDER BY name;
CREATE FUNCTION enc_all() RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE c jsonb;
BEGIN
    FOR c IN SELECT codec FROM codecs ORDER BY name LOOP
        RETURN NEXT snowflake_encode(1541815603606036480, 'twitter', c);
    END LOOP;
END
$$;
SELECT array_agg(t) = (SELECT array_agg(snowflake_encode(1541815603606036480, 'twitter', codec) ORDER BY name) FROM codecs) AS plpgsql_variable_ok
FROM enc_all() t;
SET plan_cache_mode = force_generic_plan;
PREPARE enc(jsonb, snowflake_layout) AS SELECT snowflake_encode(1541815603606036480, $2, $1);
EXECUTE enc('[{"radix": {"radix": 62}}]', 'twitter');
EXECUTE enc('[{"radix": {"radix": 16}}]', 'twitter');
EXECUTE enc('[{"radix": {"radix": 16}}]', 'discord');
PREPARE dec(text, jsonb) AS SELECT snowflake_decode($1, 'twitter', $2);
EXECUTE dec('1Pz4ZNVaVZq', '[{"radix": {"radix": 62}}]');
EXECUTE dec('1565a5f0fc810000', '[{"radix": {"radix": 16}}]');
RESET plan_cache_mode;

-- "source": "now" reads no clock: the three-argument form refuses it
SELECT err($$SELECT snowflake_encode(1, 'twitter', '[{"date_prefix": {"pattern": "yyMMdd", "source": "now"}}]')$$) AS now_refused;
SELECT hint($$SELECT snowflake_encode(1, 'twitter', '[{"date_prefix": {"pattern": "yyMMdd", "source": "now"}}]')$$) AS now_hint;
SELECT snowflake_encode(1, 'twitter', '[{"date_prefix": {"pattern": "yyMMdd", "source": "now"}}]', now()) = to_char(now(), 'YYMMDD') || '1' AS with_now;
-- a now date prefix decodes whatever valid date it carries
SELECT snowflake_decode('2001011', 'twitter', '[{"date_prefix": {"pattern": "yyMMdd", "source": "now"}}]') AS any_date;

-- bad codecs: 22023 naming the item (index and kind) and what is wrong
SELECT c, err(format('SELECT snowflake_encode(1, %L, %L)', 'twitter', c)) AS error
FROM (VALUES ('{"radix": {"radix": 62}}'), ('"radix"'), ('[1]'), ('[{}]'),
             ('[{"radix": {"radix": 62}, "prefix": "O"}]'),
             ('[{"uuid": {}}]'),
             ('[{"radix": {"radix": 63}}]'), ('[{"radix": {"radix": 1.5}}]'), ('[{"radix": {}}]'),
             ('[{"radix": 62}]'), ('[{"radix": {"radix": 62, "width": 0}}]'),
             ('[{"radix": {"radix": 62, "pad": true}}]'), ('[{"radix": {"radix": 62, "pad": "yes"}}]'),
             ('[{"radix": {"radix": 62, "padding": true}}]'),
             ('[{"prefix": "O"}, {"radix": {"radix": 62}}]'),
             ('[{"friendly": {}}]'), ('[{"friendly": {"zone": ""}}]'),
             ('[{"prefix": ""}]'), ('[{"prefix": 7}]'), ('[{"suffix": null}]'),
             ('[{"date_prefix": {"pattern": "yyMMdd"}}]'),
             ('[{"date_prefix": {"pattern": "yyyMMdd", "source": "now"}}]'),
             ('[{"date_prefix": {"pattern": "yyMMdd", "source": "NOW"}}]'),
             ('[{"date_prefix": {"pattern": "--", "source": "id_time"}}]'),
             ('[{"date_prefix": {"pattern": "yy2MMdd", "source": "id_time"}}]'),
             ('[{"date_prefix": {"source": "id_time"}}]')) t(c);
SELECT err($$SELECT snowflake_encode(1, 'twitter', '[{"friendly": {"zone": "Mars/Olympus"}}]')$$) AS bad_zone;
SELECT hint($$SELECT snowflake_encode(1, 'twitter', '[{"radix": {"radix": 63}}]')$$) AS codec_hint;

-- malformed text: 22P02 naming the character; out of range: 22003
SELECT t, err(format('SELECT snowflake_decode(%L, %L, %L)', t, 'twitter', c)) AS error
FROM (VALUES ('[{"radix": {"radix": 36}}, {"date_prefix": {"pattern": "yyMMdd", "delimiter": "-", "source": "now"}}, {"prefix": "ord_"}]')) k(c),
     (VALUES ('ord_261027-zz'), ('orx_261027-zz'), ('ord_261327-zz'), ('ord_26102x-zz'),
             ('ord_261027+zz'), ('ord_261027-'), ('ord_261027-0zz'), ('ord_261027-Zz'),
             ('ord_2610'), ('éord_261027-zz'), ('ord_261027-3w5e11264sgsg'), ('ord_261027-3w5e11264sgsf')) t(t);
SELECT t, err(format('SELECT snowflake_decode(%L, %L, %L)', t, 'twitter', '[{"friendly": {"zone": "UTC"}}, {"suffix": "!"}]')) AS error
FROM (VALUES ('20220628160740105-0378-0000!'), ('20220628160740105-0378-0000'), ('20220628160740105-1024-0000!'),
             ('20220628160740105-0378-000!'), ('20221328160740105-0378-0000!'), ('19220628160740105-0378-0000!')) t(t);
-- an id_time date prefix must be the id's own date
SELECT err($$SELECT snowflake_decode('2022-06-29/bppc0m3ju134', 'twitter', '[{"radix": {"radix": 36}}, {"date_prefix": {"pattern": "yyyy-MM-dd", "delimiter": "/", "source": "id_time"}}]')$$) AS wrong_date,
       snowflake_decode('2022-06-28/bppc0m3ju134', 'twitter', '[{"radix": {"radix": 36}}, {"date_prefix": {"pattern": "yyyy-MM-dd", "delimiter": "/", "source": "id_time"}}]') AS right_date;
-- a friendly time off the layout's ticks, a zone's skipped hour
SELECT err($$SELECT snowflake_decode('20240506070809123-0000-0000000', 'snowflake_s', '[{"friendly": {"zone": "UTC"}}]')$$) AS off_tick,
       err($$SELECT snowflake_decode('20240331023000000-0000-0000', 'twitter', '[{"friendly": {"zone": "Europe/Berlin"}}]')$$) AS skipped;
-- ids outside the layout, widths too small, decoded values outside the layout
SELECT err($$SELECT snowflake_encode(-1, 'twitter', '[]')$$) AS negative_twitter,
       err($$SELECT snowflake_encode(238328, 'twitter', '[{"radix": {"radix": 62, "width": 3}}]')$$) AS too_wide,
       err($$SELECT snowflake_decode('9223372036854775808', 'twitter', '[]')$$) AS sign_bit,
       err($$SELECT snowflake_decode('zzzz', 'twitter', '[{"radix": {"radix": 62, "width": 3}}]')$$) AS more_than_width;
SELECT snowflake_encode(NULL, 'twitter', '[]') IS NULL AS strict_id, snowflake_decode('1', 'twitter', NULL) IS NULL AS strict_codec;
-- issue 21: malformed text ending or starting inside a multibyte character
-- is 22P02, and the position quoted is the character's, never a byte inside it
SELECT t, c, err(format('SELECT snowflake_decode(%L, %L, %L)', t, 'snowflake_ms', c)) AS error
FROM (VALUES ('12€', '[{"suffix": "zz"}]'), ('123€', '[{"suffix": "z"}]'),
             ('O123zé', '[{"suffix": "zz"}, {"prefix": "O"}]'),
             ('₭1', '[{"radix": {"radix": 62}}, {"prefix": "€"}]'),
             ('é€1', '[{"radix": {"radix": 62}}, {"prefix": "é€€"}]'),
             ('€12', '[{"radix": {"radix": 62}}, {"suffix": "€"}]')) v(t, c);
