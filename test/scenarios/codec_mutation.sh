#!/usr/bin/env bash
# SQL-level mutation test of every text decoder (in the manner of pgvector's
# 037_inputs.pl).
#
# Valid texts of every form (ULID, UUID, Base62, TypeID, GSID, radix, CosId
# codec chains, COSID_80 and its friendly form) are
# mutated deterministically (setseed; 1-3 of: replace, insert or delete a
# character, truncate, append a piece, flip case, swap neighbours, splice
# with another seed, insert "_"), from a pool that includes the alphabets'
# neighbours (I L O U), separators, spaces and multibyte characters.  Each
# mutated text goes through every SQL decoder and the ulid type's input.
# Each call must either succeed or fail with 22P02 / 22003 and a message that
# names the function (or the type); ulid_try_parse must be NULL exactly when
# ulid_parse fails; every accepted text must re-encode to its canonical
# spelling.  The server must stay up, with no "terminated by signal" in its
# log.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

S=codec_mut
INPUTS=${ULID_MUTATION_INPUTS:-4000}

pg_new $S && pg_start $S || {
	not_ok "codec_mutation: server starts"
	exit 1
}

out=$(psqlx $S -v inputs="$INPUTS" 2>&1 <<'SQL'
CREATE EXTENSION ulid;
SET timezone = 'UTC';
SELECT setseed(0.2026);

CREATE TABLE seeds (s text);
INSERT INTO seeds VALUES
    ('01JPHM2B0RF0YRM2H2C0VAG3WE'), ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ'), ('00000000000000000000000000'),
    ('0195a341-2c18-783d-8a0a-226036a80f8e'), ('{0195a341-2c18783d-8a0a2260-36a80f8e}'),
    ('0195A3412C18783D8A0A226036A80F8E'),
    ('02zNN0Sv7pLkZf079ZARhu'), ('7n42DGM5Tflk9n8mt7Fhc7'),
    ('user_01jphm2b0rf0yrm2h2c0vag3we'), ('pre_fix_00000000000000000000000000'),
    ('01h455vb4pex5vsknk084sn02q'),
    ('usr_0UfgmdjM46GLys2pzvVCof2nyJ8Y'), ('abc_zzzzzzzz4gfFC362iEp5bu9VZbsV'),
    ('LygHa16AHYF'), ('18446744073709551615'), ('3w5e11264sgsf'), ('0000000042'),
    ('O26102714t6PEysfWT'), ('20261027153012123-0003-0017'), ('20261027-000042'),
    ('0VZEV0mp000300H'), ('4ziepp2F4OmVH31'), ('20261027073012123-0000003-00017');

-- mutate(s): 1-3 random edits
CREATE FUNCTION mutate(s text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    pool text[] := ARRAY['0', '1', '7', '8', 'a', 'A', 'f', 'g', 'z', 'Z', 'i', 'I', 'l', 'L',
                         'o', 'O', 'u', 'U', '_', '_', '-', '{', '}', ' ', E'\t', '!', '.',
                         'é', '€', '😀', '\', ''''];
    c text;
    pos int;
    other text;
BEGIN
    FOR k IN 1 .. 1 + floor(random() * 3)::int LOOP
        pos := 1 + floor(random() * greatest(length(s), 1))::int;
        c := pool[1 + floor(random() * array_length(pool, 1))::int];
        CASE floor(random() * 9)::int
            WHEN 0 THEN s := overlay(s PLACING c FROM pos FOR 1);
            WHEN 1 THEN s := overlay(s PLACING c FROM pos FOR 0);
            WHEN 2 THEN s := overlay(s PLACING '' FROM pos FOR 1);
            WHEN 3 THEN s := left(s, pos - 1);
            WHEN 4 THEN s := s || substr(s, pos, 1 + floor(random() * 6)::int);
            WHEN 5 THEN s := overlay(s PLACING CASE WHEN substr(s, pos, 1) = upper(substr(s, pos, 1))
                                                    THEN lower(substr(s, pos, 1))
                                                    ELSE upper(substr(s, pos, 1)) END
                                     FROM pos FOR 1);
            WHEN 6 THEN s := overlay(s PLACING substr(s, pos + 1, 1) || substr(s, pos, 1) FROM pos FOR 2);
            WHEN 7 THEN
                SELECT seeds.s INTO other FROM seeds ORDER BY random() LIMIT 1;
                s := left(s, pos) || substr(other, pos + 1);
            ELSE s := overlay(s PLACING '_' FROM pos FOR 0);
        END CASE;
    END LOOP;
    RETURN s;
END
$$;

CREATE TABLE inputs AS
SELECT n, mutate(s) AS v
FROM generate_series(1, :inputs) n
JOIN (SELECT s, row_number() OVER () - 1 AS k FROM seeds) sd
  ON sd.k = n % (SELECT count(*) FROM seeds);

-- the decoders: the name their errors must carry and the call
CREATE TABLE decoders (name text, call text);
INSERT INTO decoders VALUES
    ('ulid', '%L::ulid'),
    ('ulid_parse', 'ulid_parse(%L)::text'),
    ('ulid_from_base62', 'ulid_from_base62(%L)::text'),
    ('gsid_to_ulid', 'gsid_to_ulid(%L)::text'),
    ('gsid_prefix', 'gsid_prefix(%L)'),
    ('gsid_namespace', 'gsid_namespace(%L)::text'),
    ('typeid_to_ulid', 'typeid_to_ulid(%L)::text'),
    ('typeid_prefix', 'typeid_prefix(%L)'),
    ('radix_decode', 'radix_decode(%L, 10)::text'),
    ('radix_decode', 'radix_decode(%L, 36)::text'),
    ('radix_decode', 'radix_decode(%L, 62)::text'),
    ('snowflake_decode', 'snowflake_decode(%L, ''snowflake_ms'', ''[{"radix": {"radix": 62}}, {"date_prefix": {"pattern": "yyMMdd", "source": "id_time"}}, {"prefix": "O"}]'')::text'),
    ('snowflake_decode', 'snowflake_decode(%L, ''snowflake_ms'', ''[{"friendly": {"zone": "Asia/Shanghai"}}]'')::text'),
    ('snowflake_decode', 'snowflake_decode(%L, ''snowflake_ms'', ''[{"radix": {"radix": 10, "width": 6, "pad": true}}, {"date_prefix": {"pattern": "yyyyMMdd", "delimiter": "-", "source": "now"}}]'')::text'),
    ('cosid80_parts', 'cosid80_parts(%L)::text'),
    ('cosid80_time', 'cosid80_time(%L)::text'),
    ('cosid80_from_friendly', 'cosid80_from_friendly(%L)');

-- attempt(sql): (true, result) or (false, 'SQLSTATE: message')
CREATE FUNCTION attempt(sql text, OUT ok boolean, OUT res text) LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE 'SELECT ' || sql INTO res;
    ok := true;
EXCEPTION WHEN OTHERS THEN
    ok := false;
    res := SQLSTATE || ': ' || SQLERRM;
END
$$;

CREATE TABLE results AS
SELECT i.n, i.v, d.name, d.call, a.ok, a.res
FROM inputs i CROSS JOIN decoders d
CROSS JOIN LATERAL attempt(format(d.call, i.v)) a;

\echo calls
SELECT count(*) FROM results;
\echo decoders
SELECT count(*) FROM decoders;
\echo distinct_inputs
SELECT count(DISTINCT v) FROM inputs;

-- every failure is 22P02 or 22003 and names its function or type
\echo bad_errors
SELECT count(*) FROM results
WHERE NOT ok AND (res !~ '^(22P02|22003): ' OR position(name IN res) = 0);
\echo bad_error_examples
SELECT name || ' <' || v || '> ' || res FROM results
WHERE NOT ok AND (res !~ '^(22P02|22003): ' OR position(name IN res) = 0) LIMIT 5;

-- every decoder both accepted and rejected some mutated texts
\echo decoders_without_both_outcomes
SELECT count(*) FROM (SELECT call FROM results GROUP BY call
                      HAVING count(*) FILTER (WHERE ok) = 0 OR count(*) FILTER (WHERE NOT ok) = 0) s;
\echo outcomes
SELECT string_agg(format('%s accepted %s rejected %s', call, a, r), '; ' ORDER BY call)
FROM (SELECT call, count(*) FILTER (WHERE ok) a, count(*) FILTER (WHERE NOT ok) r
      FROM results GROUP BY call) s;

-- ulid_try_parse is NULL exactly when ulid_parse fails, and agrees with it
\echo try_parse_disagreements
SELECT count(*) FROM results r
WHERE name = 'ulid_parse'
  AND (ulid_try_parse(r.v)::text IS DISTINCT FROM CASE WHEN r.ok THEN r.res END);

-- accepted texts re-encode to their canonical spelling
\echo round_trip_failures
SELECT count(*) FROM results r WHERE ok AND CASE
    WHEN name = 'ulid' THEN r.res <> upper(r.v)
    WHEN name = 'ulid_from_base62' THEN ulid_to_base62(r.res::ulid) <> r.v
    WHEN name = 'gsid_to_ulid' THEN ulid_to_gsid(r.res::ulid, gsid_prefix(r.v), gsid_namespace(r.v)) <> r.v
    WHEN name = 'typeid_to_ulid' THEN ulid_to_typeid(r.res::ulid, typeid_prefix(r.v)) <> r.v
    WHEN call LIKE 'radix_decode(%L, 62)%' THEN
        radix_encode(r.res::bigint, 62) <> coalesce(nullif(ltrim(r.v, '0'), ''), '0')
    WHEN call LIKE 'radix_decode(%L, 36)%' THEN
        radix_encode(r.res::bigint, 36) <> coalesce(nullif(ltrim(lower(r.v), '0'), ''), '0')
    WHEN call LIKE 'radix_decode(%L, 10)%' THEN
        radix_encode(r.res::bigint, 10) <> coalesce(nullif(ltrim(r.v, '0'), ''), '0')
    -- the codec chain accepts exactly what it writes (a "now" date: any date)
    WHEN name = 'snowflake_decode' AND call LIKE '%"now"%' THEN
        snowflake_encode(r.res::bigint, 'snowflake_ms', substring(call FROM '''(\[.*\])''')::jsonb,
                         to_timestamp(left(r.v, 8), 'YYYYMMDD')::timestamptz) <> r.v
    WHEN name = 'snowflake_decode' THEN
        snowflake_encode(r.res::bigint, 'snowflake_ms', substring(call FROM '''(\[.*\])''')::jsonb) <> r.v
    WHEN name = 'cosid80_from_friendly' THEN cosid80_friendly(r.res) <> r.v
    WHEN name = 'cosid80_parts' THEN cosid80_from_friendly(
        to_char((r.res::jsonb ->> 'time')::timestamptz AT TIME ZONE 'UTC', 'YYYYMMDDHH24MISSMS') || '-' ||
        lpad(r.res::jsonb ->> 'node', 7, '0') || '-' || lpad(r.res::jsonb ->> 'sequence', 5, '0')) <> r.v
    ELSE false END;
SQL
)
rc=$?
value() { echo "$out" | sed -n "/^$1\$/{n;p;}"; }

check "codec_mutation: the SQL script ran" 0 "$rc"
[ $rc -eq 0 ] || echo "$out" | tail -20
calls=$(value calls)
ndec=$(value decoders)
if [ -n "$calls" ] && [ -n "$ndec" ] && [ "$ndec" -ge 17 ] && [ "$calls" -ge $((INPUTS * ndec)) ]; then
	ok "codec_mutation: $calls calls of $ndec decoders over $(value distinct_inputs) distinct mutated texts"
else
	not_ok "codec_mutation: expected $((INPUTS * ${ndec:-17})) calls of at least 17 decoders, got '$calls' ($ndec)"
fi
check "codec_mutation: every error is 22P02/22003 and names its function or type" 0 "$(value bad_errors)"
[ "$(value bad_errors)" == 0 ] || value bad_error_examples
check "codec_mutation: every decoder both accepted and rejected mutated texts" 0 "$(value decoders_without_both_outcomes)"
echo "# $(value outcomes)"
check "codec_mutation: ulid_try_parse is NULL exactly when ulid_parse fails" 0 "$(value try_parse_disagreements)"
check "codec_mutation: accepted texts re-encode to their canonical spelling" 0 "$(value round_trip_failures)"
check "codec_mutation: the server is still up" 1 "$(psqlx $S -c 'SELECT 1' 2>&1)"
check "codec_mutation: no backend terminated by a signal" 0 \
	"$(grep -c 'terminated by signal' "$ULID_WORK/log/$S.log")"
pg_stop $S
