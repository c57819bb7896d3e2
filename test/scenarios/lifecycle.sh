#!/usr/bin/env bash
# The extension's life cycle: installed into a schema off search_path,
# dropped and re-created.
#
# 1. CREATE EXTENSION ulid SCHEMA ext, with ext not on search_path.  With
#    search_path = public and again with search_path = '': every function
#    works schema-qualified (a catalog check fails for any user-facing
#    function the list of calls below does not reach), every ulid operator
#    (also those with uuid) as OPERATOR(ext.op) agrees with uuid's, the
#    casts work (also the assignment from varchar), a table with
#    DEFAULT ext.gen_ulid() fills, and its indexes (btree, hash, BRIN with
#    ext.ulid_minmax_multi_ops) serve ORDER BY id, WHERE id OPERATOR(ext.>)
#    ..., equality and ext.max(id).
# 2. ALTER EXTENSION ... SET SCHEMA is refused (not relocatable), DROP
#    EXTENSION is refused while a table uses the type, then drops every
#    object; CREATE EXTENSION again gives the same objects.
# Updates from released versions: test/scenarios/upgrade.sh.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

S=lifecycle
if ! pg_new $S "ulid.node_id = 3" "ulid.node_ids = '5'" || ! pg_start $S; then
	not_ok "lifecycle: server starts"
	exit 1
fi

# sql DB [psql args...]
sql() {
	local db=$1
	shift
	ULID_DB=$db psqlx $S "$@"
}

# sqlstate DB SQL: "SQLSTATE: message" of the error SQL raises, or "ok"
sqlstate() { sqlstate_of $S "$@"; }

# the extension's objects, one line each (the upgrade scenario's comparison)
objects() { sql "$1" -f "$ULID_ROOT/test/upgrade/objects.sql"; }

# --- 1. installed into a schema off search_path -----------------------------
sql postgres -c "CREATE DATABASE lc"
sql lc <<'SQL'
CREATE SCHEMA ext;
CREATE EXTENSION ulid SCHEMA ext;
CREATE TABLE public.items (
    id ext.ulid PRIMARY KEY DEFAULT ext.gen_ulid(),
    ref ext.ulid NOT NULL DEFAULT ext.gen_random_ulid(),
    n int
);
CREATE INDEX items_ref_hash ON public.items USING hash (ref);
CREATE INDEX items_ref_brin ON public.items USING brin (ref ext.ulid_minmax_multi_ops);
SQL

# schema_checks LABEL: run with PGOPTIONS setting search_path (ext not on it)
schema_checks() {
	local label=$1 line name result plan
	check "$label: the type is not visible unqualified" "" \
		"$(sql lc -c "SELECT to_regtype('ulid')")"
	check "$label: an unqualified call fails" "42883: function gen_ulid() does not exist" \
		"$(sqlstate lc "SELECT gen_ulid()")"
	check "$label: an unqualified operator fails (no fallback to uuid's)" \
		"42883: operator does not exist: ext.ulid = ext.ulid" \
		"$(sqlstate lc "SELECT '01HTQW311N1KR5G0Y75M3EF00H'::ext.ulid = '01HTQW311N1KR5G0Y75M3EF00H'::ext.ulid")"

	# every user-facing function, schema-qualified, in one transaction that
	# then lists the extension's functions it did not call (C functions are
	# counted with track_functions = all; the support functions behind the
	# type, operators, opclasses, aggregates and casts, and the planner
	# support functions, are checked through those)
	if ! result=$(sql lc 2>&1 <<'SQL'
BEGIN;
SET LOCAL track_functions = 'all';
SET LOCAL client_min_messages = error;
DO $$ BEGIN PERFORM ext.ulid_key_create('lc', '\x000102030405060708090a0b0c0d0e0f'); END $$;
SELECT name, ok FROM (VALUES
    ('gen_ulid() is now', ext.ulid_time(ext.gen_ulid()) BETWEEN now() - interval '1 minute' AND clock_timestamp()),
    ('gen_ulid() increases', ext.ulid_cmp(ext.gen_ulid(), ext.gen_ulid()) < 0),
    ('gen_random_ulid() is now', ext.ulid_time(ext.gen_random_ulid()) BETWEEN now() - interval '1 minute' AND clock_timestamp()),
    ('gen_ulid(at)', ext.ulid_time(ext.gen_ulid('2024-04-05 19:34:38.901Z')) = '2024-04-05 19:34:38.901Z'),
    ('gen_monotonic_ulid() increases', ext.ulid_cmp(ext.gen_monotonic_ulid(), ext.gen_monotonic_ulid()) < 0),
    ('ulid_stable_bound', ext.ulid_stable_bound() IS NOT NULL),
    ('ulid_monotonic_advance', (SELECT ext.gen_monotonic_ulid() OPERATOR(ext.>) a
                                FROM (SELECT ext.ulid_upper(now() + interval '1 hour') AS a) v,
                                     LATERAL ext.ulid_monotonic_advance(a))),
    ('ulid_monotonic_reset', (SELECT ext.gen_monotonic_ulid() OPERATOR(ext.<) ext.ulid_upper(now() + interval '1 hour')
                              FROM ext.ulid_monotonic_reset() r)),
    ('ulid_floor_repair', (SELECT ext.gen_monotonic_ulid() OPERATOR(ext.>) ext.ulid_upper(now())
                           FROM ext.ulid_floor_repair(now()) r)),
    ('ulid_generator_state', (SELECT issued > 0 FROM ext.ulid_generator_state WHERE kind = 'ulid')),
    ('ulid_advance_from_tables', (SELECT count(*) FROM ext.ulid_advance_from_tables())
                                 = (SELECT count(*) FROM pg_attrdef d JOIN pg_class c ON c.oid = d.adrelid
                                    WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition
                                      AND pg_get_expr(d.adbin, d.adrelid) ~ '(gen_monotonic_ulid|snowflake_next|cosid80_next)\(')),
    ('ulid_node_identity', (SELECT node_id = 3 AND source = 'setting' AND owned_nodes = '3,5' AND problem IS NULL
                            FROM ext.ulid_node_identity())),
    ('ulid_time', ext.ulid_time('01HTQW311N1KR5G0Y75M3EF00H') = '2024-04-05 19:34:38.901Z'),
    ('ulid_unix_ms', ext.ulid_unix_ms('01HTQW311N1KR5G0Y75M3EF00H') = 1712345678901),
    ('ulid_random', ext.ulid_random('01HTQW311N1KR5G0Y75M3EF00H') = '\x0cf05803c72d06e78011'),
    ('ulid_from_parts', ext.ulid_from_parts(1712345678901, '\x0cf05803c72d06e78011')::text = '01HTQW311N1KR5G0Y75M3EF00H'),
    ('ulid_lower', ext.ulid_lower('2024-04-05 19:34:38.901Z')::text = '01HTQW311N0000000000000000'),
    ('ulid_upper', ext.ulid_upper('2024-04-05 19:34:38.901Z')::text = '01HTQW311NZZZZZZZZZZZZZZZZ'),
    ('ulid_parts', (SELECT random_chars = '1KR5G0Y75M3EF00H' FROM ext.ulid_parts('01HTQW311N1KR5G0Y75M3EF00H'))),
    ('cast text', '01htqw311n1kr5g0y75m3ef00h'::ext.ulid::text = '01HTQW311N1KR5G0Y75M3EF00H'),
    ('cast varchar', '01HTQW311N1KR5G0Y75M3EF00H'::varchar::ext.ulid::varchar = '01HTQW311N1KR5G0Y75M3EF00H'),
    ('cast uuid', '01HTQW311N1KR5G0Y75M3EF00H'::ext.ulid::uuid = '018eafc1-8435-0cf0-5803-c72d06e78011'),
    ('cast from uuid', '018eafc1-8435-0cf0-5803-c72d06e78011'::uuid::ext.ulid::text = '01HTQW311N1KR5G0Y75M3EF00H'),
    ('cast bytea', '01HTQW311N1KR5G0Y75M3EF00H'::ext.ulid::bytea = '\x018eafc184350cf05803c72d06e78011'),
    ('cast from bytea', '\x018eafc184350cf05803c72d06e78011'::bytea::ext.ulid::text = '01HTQW311N1KR5G0Y75M3EF00H'),
    ('cast timestamptz', '01HTQW311N1KR5G0Y75M3EF00H'::ext.ulid::timestamptz = '2024-04-05 19:34:38.901Z'),
    ('cast from timestamptz', '2024-04-05 19:34:38.901Z'::timestamptz::ext.ulid::text = '01HTQW311N0000000000000000'),
    ('cast timestamp', '01HTQW311N1KR5G0Y75M3EF00H'::ext.ulid::timestamp = '2024-04-05 19:34:38.901'),
    ('cast from timestamp', '2024-04-05 19:34:38.901'::timestamp::ext.ulid::text = '01HTQW311N0000000000000000'),
    ('ulid_cmp_uuid', ext.ulid_cmp_uuid('01HTQW311N1KR5G0Y75M3EF00H', '018eafc1-8435-0cf0-5803-c72d06e78012') < 0),
    ('uuid_cmp_ulid', ext.uuid_cmp_ulid('018eafc1-8435-0cf0-5803-c72d06e78011', '01HTQW311N1KR5G0Y75M3EF00H') = 0),
    ('snowflake_layout(name)', ext.snowflake_layout('sonyflake', epoch => '2014-09-01T00:00:00Z')::text = 'sonyflake(epoch=2014-09-01T00:00:00.000Z)'),
    ('snowflake_layout(bits)', ext.snowflake_layout(41, 'ms', '2010-11-04T01:42:54.657Z', '{"datacenter": 5, "worker": 5}', 12)::text = 'twitter'),
    ('snowflake_layout_diagram', ext.snowflake_layout_diagram('twitter') LIKE '| sign 1 | time 41 | datacenter 5 | worker 5 | sequence 12 |%'),
    ('snowflake_time', ext.snowflake_time(175928847299117063, 'discord') = '2016-04-30 11:18:25.796Z'),
    ('snowflake_unix_ms', ext.snowflake_unix_ms(175928847299117063, 'discord') = 1462015105796),
    ('snowflake_node', ext.snowflake_node(175928847299117063, 'discord') = 32),
    ('snowflake_field', ext.snowflake_field(175928847299117063, 'discord', 'worker') = 1),
    ('snowflake_sequence', ext.snowflake_sequence(175928847299117063, 'discord') = 7),
    ('snowflake_parts', ext.snowflake_parts(175928847299117063, 'discord')->>'sequence' = '7'),
    ('snowflake_pack', ext.snowflake_pack('twitter', '2022-06-28T16:07:40.105Z', 378, 0) = 1541815603606036480),
    ('snowflake_lower and upper', ext.snowflake_lower('twitter', '2022-06-28T16:07:40.105Z') <= 1541815603606036480
                                  AND ext.snowflake_upper('twitter', '2022-06-28T16:07:40.105Z') >= 1541815603606036480),
    ('snowflake_friendly', ext.snowflake_friendly(1541815603606036480, 'twitter') = '20220628160740105-0378-0000'),
    ('snowflake_from_friendly', ext.snowflake_from_friendly('20220628160740105-0378-0000', 'twitter') = 1541815603606036480),
    ('snowflake_layout operators', 'twitter'::ext.snowflake_layout OPERATOR(ext.=) ext.snowflake_layout('twitter')
                                   AND 'twitter'::ext.snowflake_layout OPERATOR(ext.<>) 'discord'::ext.snowflake_layout),
    ('snowflake_next(layout)', ext.snowflake_node(ext.snowflake_next('twitter'), 'twitter') = 3),
    ('snowflake_next(layout, node)', ext.snowflake_next('twitter', 5) < ext.snowflake_next('twitter', 5)),
    ('snowflake_stable_bound', ext.snowflake_node(ext.snowflake_stable_bound('twitter'), 'twitter') = 3),
    ('snowflake_advance', (SELECT ext.snowflake_next('twitter', 5) > a
                           FROM (SELECT ext.snowflake_pack('twitter', clock_timestamp(), 5, 4000) AS a) v,
                                LATERAL ext.snowflake_advance('twitter', 5, a))),
    ('snowflake_reset', (SELECT ext.snowflake_next('twitter', 5) > 0 FROM ext.snowflake_reset('twitter', 5) r)),
    ('scru64_text', ext.scru64_text(110009624767914842) = '0u375nxqh5cq'),
    ('scru64_from_text', ext.scru64_from_text('0U375NXQH5CQ') = 110009624767914842),
    ('snowflake_encode and decode', ext.snowflake_encode(3259, 'snowflake_ms', '[{"radix": {"radix": 62}}, {"prefix": "O"}]') = 'OqZ'
                                    AND ext.snowflake_decode('OqZ', 'snowflake_ms', '[{"radix": {"radix": 62}}, {"prefix": "O"}]') = 3259),
    ('snowflake_encode(now)', ext.snowflake_encode(42, 'snowflake_ms', '[{"date_prefix": {"pattern": "yyyyMMdd", "delimiter": "-", "source": "now"}}]',
                                                   '2026-10-27Z') = '20261027-42'),
    ('cosid80 readers', ext.cosid80_parts('0VZEV0mp000300H')->>'sequence' = '17'
                        AND ext.cosid80_time('0VZEV0mp000300H') = '2026-10-27T07:30:12.123Z'
                        AND ext.cosid80_from_friendly(ext.cosid80_friendly('0VZEV0mp000300H', 'UTC'), 'UTC') = '0VZEV0mp000300H'),
    ('cosid80_next', ext.cosid80_next(5) < ext.cosid80_next(5) COLLATE "C"),
    ('cosid80_stable_bound', ext.cosid80_stable_bound(5) <= ext.cosid80_next(5) COLLATE "C"),
    ('cosid80_advance and reset', (SELECT ext.cosid80_next(5) > '0VZEV0mp0005000' COLLATE "C"
                                   FROM ext.cosid80_advance(5, '0VZEV0mp0005000') a, LATERAL ext.cosid80_reset(5) r)),
    ('radix_encode and decode', ext.radix_encode(255, 16, 4) = '00ff' AND ext.radix_decode('00FF', 16) = 255
                                AND ext.radix_decode(ext.radix_encode(-1)) = -1),
    ('ulid_to_base62 and back', ext.ulid_from_base62(ext.ulid_to_base62('01HTQW311N1KR5G0Y75M3EF00H'))::text = '01HTQW311N1KR5G0Y75M3EF00H'),
    ('gsid_to_ulid', ext.gsid_to_ulid('usr_0UfgmdjM46GLys2pzvVCof2nyJ8Y')::text = '01JPHM2B0RF0YRM2H2C0VAG3WE'),
    ('gsid_prefix and namespace', ext.gsid_prefix('usr_0UfgmdjM46GLys2pzvVCof2nyJ8Y') = 'usr'
                                  AND ext.gsid_namespace('usr_0UfgmdjM46GLys2pzvVCof2nyJ8Y') = 3757087090),
    ('ulid_to_gsid', ext.ulid_to_gsid('01JPHM2B0RF0YRM2H2C0VAG3WE', 'usr', 3757087090) = 'usr_0UfgmdjM46GLys2pzvVCof2nyJ8Y'),
    ('gen_gsid', ext.gsid_namespace(ext.gen_gsid('ord', 7)) = 7),
    ('gen_uuidv7', ext.ulid_time(ext.gen_uuidv7()::ext.ulid) > now() - interval '1 minute'
                   AND ext.gen_uuidv7() < ext.gen_uuidv7()),
    ('gen_uuidv7(at)', ext.ulid_time(ext.gen_uuidv7('2024-04-05 19:34:38.901Z')::ext.ulid) = '2024-04-05 19:34:38.901Z'),
    ('gen_typeid', ext.typeid_prefix(ext.gen_typeid('user')) = 'user'),
    ('ulid_to_typeid', ext.ulid_to_typeid('01HTQW311N1KR5G0Y75M3EF00H', 'user') = 'user_01htqw311n1kr5g0y75m3ef00h'),
    ('typeid_to_ulid and prefix', ext.typeid_to_ulid('user_01htqw311n1kr5g0y75m3ef00h')::text = '01HTQW311N1KR5G0Y75M3EF00H'
                                  AND ext.typeid_prefix('user_01htqw311n1kr5g0y75m3ef00h') = 'user'),
    ('uuidv7()', ext.uuid_extract_version(ext.uuidv7()) = 7 AND ext.uuidv7() < ext.uuidv7()),
    ('uuidv7(shift)', ext.uuidv7_time(ext.uuidv7('-1 day')) < now() - interval '23 hours'),
    ('uuidv4()', ext.uuid_extract_version(ext.uuidv4()) = 4 AND ext.uuidv4() <> ext.uuidv4()),
    ('uuid_extract_timestamp', ext.uuid_extract_timestamp('018570bb-4a7d-7c7e-8df4-6d47afd8c8fc') = '2023-01-02 04:26:40.637Z'),
    ('uuid_generate_v7()', ext.uuid_generate_v7() < ext.uuid_generate_v7()),
    ('uuid_v7_to_timestamptz', ext.uuid_v7_to_timestamptz('018570bb-4a7d-7c7e-8df4-6d47afd8c8fc') = '2023-01-02 04:26:40.637Z'),
    ('uuid_v7_to_timestamp', ext.uuid_v7_to_timestamp('018570bb-4a7d-7c7e-8df4-6d47afd8c8fc') = '2023-01-02 04:26:40.637'),
    ('uuid_timestamptz_to_v7', ext.uuid_timestamptz_to_v7('2023-01-02 04:26:40.637Z', true) = '018570bb-4a7d-7000-8000-000000000000'
                               AND ext.uuid_v7_to_timestamptz(ext.uuid_timestamptz_to_v7('2023-01-02 04:26:40.637Z')) = '2023-01-02 04:26:40.637Z'),
    ('uuid_timestamp_to_v7', ext.uuid_timestamp_to_v7('2023-01-02 04:26:40.637', zero => true) = '018570bb-4a7d-7000-8000-000000000000'
                             AND ext.uuid_v7_to_timestamp(ext.uuid_timestamp_to_v7('2023-01-02 04:26:40.637', false)) = '2023-01-02 04:26:40.637'),
    ('uuidv7_time, lower and upper', ext.uuidv7_time(ext.uuidv7_upper('2023-01-02 04:26:40.637Z')) = '2023-01-02 04:26:40.637Z'
                                     AND ext.uuidv7_lower('2023-01-02 04:26:40.637Z') = '018570bb-4a7d-7000-8000-000000000000'),
    ('ulid_parse', ext.ulid_parse('018eafc1-8435-0cf0-5803-c72d06e78011')::text = '01HTQW311N1KR5G0Y75M3EF00H'),
    ('ulid_try_parse', ext.ulid_try_parse('nope') IS NULL),
    ('min and max', (SELECT ext.min(u)::text || ext.max(u)::text = '00000000000000000000000000' || '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'
                     FROM (VALUES ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ'::ext.ulid), ('00000000000000000000000000')) v(u))),
    ('uuidv47_encode and decode', ext.uuidv47_encode('018eafc1-8435-795c-a58c-d434d0641a13', 'lc') = '1ace649f-4282-495c-a58c-d434d0641a13'
                                  AND ext.uuidv47_decode('1ace649f-4282-495c-a58c-d434d0641a13', 'lc') = '018eafc1-8435-795c-a58c-d434d0641a13'),
    ('ulid_mask and unmask', ext.ulid_mask('00112233-4455-6677-8899-aabbccddeeff'::uuid::ext.ulid, 'lc')::uuid = '69c4e0d8-6a7b-0430-d8cd-b78070b4c55a'
                             AND ext.ulid_unmask(ext.ulid_mask('01HTQW311N1KR5G0Y75M3EF00H', 'lc'), 'lc')::text = '01HTQW311N1KR5G0Y75M3EF00H'),
    ('snowflake_mask and unmask', ext.snowflake_unmask(ext.snowflake_mask(1541815603606036480, 'twitter', 'lc'), 'twitter', 'lc') = 1541815603606036480),
    ('sqids_encode and decode', ext.sqids_encode('{1,2,3}') = '86Rf07' AND ext.sqids_decode('86Rf07') = '{1,2,3}'),
    ('ulid_to_base32hex and back', ext.ulid_to_base32hex('01HTQW311N1KR5G0Y75M3EF00H') = '067AVGC46K6F0M03OSMGDPS024'
                                   AND ext.ulid_from_base32hex('067avgc46k6f0m03osmgdps024')::text = '01HTQW311N1KR5G0Y75M3EF00H'),
    ('ulid_health', (SELECT count(*) FILTER (WHERE severity NOT IN ('critical', 'warning')) = 0 FROM ext.ulid_health())),
    ('ulid_node_id_layouts', (SELECT count(*) FILTER (WHERE max_node < 0) = 0 FROM ext.ulid_node_id_layouts())),
    ('ulid_check_local_keys', (SELECT count(*) FILTER (WHERE name = 'lc' AND problem IS NULL) = 1 FROM ext.ulid_check_local_keys())),
    ('ulid_check_keys', (SELECT count(*) FILTER (WHERE name = 'lc' AND problem IS NULL) = 1 FROM ext.ulid_check_keys()))
) c(name, ok);
DO $$ BEGIN PERFORM ext.ulid_key_drop('lc'); END $$;
SELECT 'not called: ' || p.oid::regprocedure
FROM pg_depend d JOIN pg_proc p ON d.classid = 'pg_proc'::regclass AND p.oid = d.objid
WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid') AND d.deptype = 'e'
  AND p.prokind = 'f'
  AND pg_stat_get_xact_function_calls(p.oid) IS NULL
  AND NOT EXISTS (SELECT FROM pg_type WHERE p.oid IN (typinput, typoutput, typreceive, typsend))
  AND NOT EXISTS (SELECT FROM pg_operator WHERE oprcode = p.oid)
  AND NOT EXISTS (SELECT FROM pg_amproc WHERE amproc = p.oid)
  AND NOT EXISTS (SELECT FROM pg_aggregate WHERE p.oid IN (aggtransfn, aggcombinefn, aggfinalfn, aggserialfn, aggdeserialfn))
  AND NOT EXISTS (SELECT FROM pg_cast WHERE castfunc = p.oid)
  AND p.proname <> 'ulid_check_node_ids'  -- refuses without Citus: checked below
  AND NOT EXISTS (SELECT FROM pg_proc WHERE prosupport = p.oid)
ORDER BY 1;
COMMIT;
SQL
	); then
		not_ok "$label: the schema-qualified calls fail: $result"
	fi
	# ulid_check_node_ids() needs Citus: schema-qualified, its body still
	# finds everything it uses, and it refuses for want of Citus
	check "$label: ext.ulid_check_node_ids() refuses without Citus" \
		"55000: ulid_check_node_ids() checks a Citus cluster, and Citus is not installed in the database \"lc\"" \
		"$(sqlstate lc "SELECT * FROM ext.ulid_check_node_ids()")"
	while IFS='|' read -r name line; do
		case $name in
		"not called: "*) not_ok "$label: ${name#not called: } was not called schema-qualified (add it to the list)" ;;
		*) check "$label: ext.$name" "t" "$line" ;;
		esac
	done <<<"$result"

	# every ulid operator as OPERATOR(ext.op), also those comparing ulid
	# with uuid either way, answers as uuid's does
	result=$(sql lc <<'SQL'
SELECT format($q$SELECT %L, bool_and((a::%s OPERATOR(ext.%s) b::%s) = (a::uuid OPERATOR(pg_catalog.%s) b::uuid))
                FROM (SELECT '01HTQW311N1KR5G0Y75M3EF00H'::ext.ulid AS x, '01HTQW311N1KR5G0Y75M3EF00J'::ext.ulid AS y) c,
                     LATERAL (VALUES (x, y), (y, x), (x, x)) v(a, b)$q$,
              format('%s (%s, %s)', o.oprname, o.oprleft::regtype, o.oprright::regtype),
              o.oprleft::regtype, o.oprname, o.oprright::regtype, o.oprname)
FROM pg_depend d JOIN pg_operator o ON d.classid = 'pg_operator'::regclass AND o.oid = d.objid
WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid') AND d.deptype = 'e'
  AND 'ext.ulid'::regtype IN (o.oprleft, o.oprright)
ORDER BY 1 \gexec
SQL
	)
	check "$label: 18 operators (ulid with ulid, ulid with uuid, uuid with ulid)" "18" "$(grep -c . <<<"$result")"
	while IFS='|' read -r name line; do
		check "$label: OPERATOR(ext.$name) agrees with uuid's" "t" "$line"
	done <<<"$result"

	# the default, the indexes and ORDER BY
	sql lc -c "INSERT INTO public.items (n) SELECT g FROM generate_series(1, 2000) g" -c "ANALYZE public.items"
	check "$label: DEFAULT ext.gen_ulid() gives ids in insertion order" "0" \
		"$(sql lc -c "SELECT count(*) FROM (SELECT n, lag(n) OVER (ORDER BY id) AS prev FROM public.items) s WHERE n <= prev AND n <> 1")"
	check "$label: GROUP BY, DISTINCT and a join by id" "t" \
		"$(sql lc -c "SELECT (SELECT count(*) FROM (SELECT id FROM public.items GROUP BY id) g) = (SELECT count(DISTINCT id) FROM public.items)
		              AND (SELECT count(DISTINCT id) FROM public.items) = (SELECT count(*) FROM public.items a JOIN public.items b ON a.id OPERATOR(ext.=) b.id)")"
	plan_uses() {
		plan=$(PGOPTIONS="$PGOPTIONS -c enable_seqscan=off" sql lc -c "EXPLAIN (COSTS OFF) $2")
		if grep -q "$1" <<<"$plan"; then
			ok "$label: $1 serves: $2"
		else
			not_ok "$label: $1 does not serve: $2"
			sed 's/^/# /' <<<"$plan"
		fi
	}
	plan_uses items_pkey "SELECT id FROM public.items ORDER BY id LIMIT 5"
	plan_uses items_pkey "SELECT id FROM public.items ORDER BY id DESC LIMIT 5"
	plan_uses items_pkey "SELECT n FROM public.items WHERE id OPERATOR(ext.>) (SELECT id FROM public.items WHERE n = 1990)"
	plan_uses items_pkey "SELECT ext.max(id) FROM public.items"
	plan_uses items_ref_hash "SELECT n FROM public.items WHERE ref OPERATOR(ext.=) (SELECT ref FROM public.items WHERE n = 7)"
	plan_uses items_ref_brin "SELECT count(*) FROM public.items WHERE ref OPERATOR(ext.<) ext.ulid_lower(now())"
	plan_uses items_pkey "SELECT n FROM public.items WHERE id OPERATOR(ext.=) '018eafc1-8435-0cf0-5803-c72d06e78011'::uuid"
	plan_uses items_pkey "SELECT n FROM public.items WHERE '018eafc1-8435-0cf0-5803-c72d06e78011'::uuid OPERATOR(ext.<) id"
	plan_uses items_ref_hash "SELECT n FROM public.items WHERE ref OPERATOR(ext.=) '018eafc1-8435-0cf0-5803-c72d06e78011'::uuid"
	check "$label: WHERE id OPERATOR(ext.=) a uuid finds the row of those bytes" "7" \
		"$(sql lc -c "SELECT n FROM public.items WHERE id OPERATOR(ext.=) (SELECT id::uuid FROM public.items WHERE n = 7)")"
	check "$label: ORDER BY id LIMIT returns the first rows inserted" "1,2,3" \
		"$(sql lc -c "SELECT string_agg(n::text, ',') FROM (SELECT n FROM public.items ORDER BY id LIMIT 3) s")"
	check "$label: WHERE id OPERATOR(ext.>) ... finds the rows inserted after" "10" \
		"$(sql lc -c "SELECT count(*) FROM public.items WHERE id OPERATOR(ext.>) (SELECT id FROM public.items WHERE n = 1990)")"
	check "$label: a varchar stores into an ext.ulid column (assignment cast)" "01HTQW311N1KR5G0Y75M3EF00H" \
		"$(sql lc -c "INSERT INTO public.items (id, n) VALUES ('01HTQW311N1KR5G0Y75M3EF00H'::varchar, 0) RETURNING id")"
	check "$label: and so does a uuid (assignment cast, 1.3)" "01HTQW311N1KR5G0Y75M3EF00J" \
		"$(sql lc -c "INSERT INTO public.items (id, n) VALUES ('018eafc1-8435-0cf0-5803-c72d06e78012'::uuid, 0) RETURNING id")"
	sql lc -c "TRUNCATE public.items"
}

PGOPTIONS='-c search_path=public' schema_checks "search_path=public"
check "search_path '' is set through PGOPTIONS" '{pg_catalog}' \
	"$(PGOPTIONS='-c search_path=""' sql lc -c "SELECT current_schemas(true)")"
PGOPTIONS='-c search_path=""' schema_checks "search_path=''"

# --- 2. relocation refused, drop and re-create -------------------------------
before=$(objects lc)
check "ALTER EXTENSION ulid SET SCHEMA is refused: not relocatable" \
	'0A000: extension "ulid" does not support SET SCHEMA' \
	"$(sqlstate lc "ALTER EXTENSION ulid SET SCHEMA public")"
check "DROP EXTENSION is refused while a table uses the type" \
	"2BP01: cannot drop extension ulid because other objects depend on it" \
	"$(sqlstate lc "DROP EXTENSION ulid")"
sql lc -c "DROP TABLE public.items" -c "DROP EXTENSION ulid"
check "DROP EXTENSION leaves no object behind" "0|0|0|0|0" \
	"$(sql lc -c "SELECT (SELECT count(*) FROM pg_proc WHERE pronamespace = 'ext'::regnamespace),
	                     (SELECT count(*) FROM pg_class WHERE relnamespace = 'ext'::regnamespace),
	                     (SELECT count(*) FROM pg_type WHERE typnamespace = 'ext'::regnamespace),
	                     (SELECT count(*) FROM pg_operator WHERE oprnamespace = 'ext'::regnamespace),
	                     (SELECT count(*) FROM pg_opfamily WHERE opfnamespace = 'ext'::regnamespace)")"
sql lc -c "CREATE EXTENSION ulid SCHEMA ext"
check_same "CREATE EXTENSION again: the same $(wc -l <<<"$before") objects" "$before" "$(objects lc)"
check "CREATE EXTENSION again: ext.gen_ulid() works" "26" "$(sql lc -c "SELECT length(ext.gen_ulid()::text)")"

pg_stop $S
