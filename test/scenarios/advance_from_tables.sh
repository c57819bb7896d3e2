#!/usr/bin/env bash
# ulid_advance_from_tables() cannot be turned against the server (issue 30):
#  1. a table owner gains nothing when a superuser runs it: code planted
#     wherever owner code could run while the largest id is read (a
#     partial index's predicate, an expression index, a row security policy,
#     operator classes of the owner's on the column) never runs, the owner
#     stays a plain role, and the maxima read are the real ones;
#  2. all or nothing: a tenant's table with more generator-default columns
#     than advanced states may take (a quarter of a 64-state table) is
#     refused with 53400 naming the limit, nothing is advanced, and every
#     role, superuser included, still gets new states;
#  3. one floor file write per call, whatever the number of columns;
#  4. every default form the README shows, and the same behind the casts a
#     column type change leaves, is advanced: one table per form; a layout
#     using all 64 bits is read in its own order (ids past 2^63 are negative
#     bigints), through its index and without one;
#  5. it trusts no tenant (issue 40): a plain owner's ids far ahead move no
#     shared generator unless named (A3), ids from the past take no advanced
#     state (A4), tables and schemas can be left out, and a non-id at the end
#     of an index hides nothing (A2).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

S=advance_tables
if ! pg_new $S "ulid.node_id = 7" "ulid.node_ids = '5,31'" "ulid.max_generator_states = 64" \
	"ulid.max_states_per_role = 16" || ! pg_start $S; then
	not_ok "advance from tables: server starts"
	exit 1
fi
sql() {
	local db=$1
	shift
	ULID_DB=$db psqlx $S "$@"
}

# --- 1. a table owner's code never runs -------------------------------------
sql postgres -c "CREATE ROLE mallory LOGIN" -c "CREATE DATABASE mdb OWNER mallory" >/dev/null
sql mdb -U mallory -f - >/dev/null <<'SQL'
CREATE EXTENSION ulid;                                  -- trusted: the owner installs it
-- every call of the owner's code is recorded, then tries to become superuser
CREATE TABLE attempts (vector text, cur text, sess text, super boolean);
GRANT ALL ON attempts TO PUBLIC;
CREATE FUNCTION public.escalate(vector text) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $f$
BEGIN
    INSERT INTO public.attempts VALUES (vector, current_user, session_user,
        (SELECT rolsuper FROM pg_roles WHERE rolname = current_user));
    BEGIN
        RESET ROLE;
        EXECUTE 'ALTER ROLE mallory SUPERUSER';
    EXCEPTION WHEN OTHERS THEN
        INSERT INTO public.attempts VALUES (vector || ': ' || SQLERRM, current_user, session_user, NULL);
    END;
    RETURN true;
END $f$;
CREATE FUNCTION public.evil_pred() RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS
    $f$ BEGIN RETURN public.escalate('partial index predicate'); END $f$;
CREATE FUNCTION public.evil_expr() RETURNS text LANGUAGE plpgsql IMMUTABLE AS
    $f$ BEGIN PERFORM public.escalate('expression index'); RETURN 'x'; END $f$;
CREATE FUNCTION public.evil_policy() RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS
    $f$ BEGIN RETURN public.escalate('row security policy'); END $f$;
-- operator classes whose comparison runs the owner's code (a reversed order)
CREATE FUNCTION public.evil_cmp(a ulid, b ulid) RETURNS int LANGUAGE plpgsql IMMUTABLE AS
    $f$ BEGIN PERFORM public.escalate('operator class (ulid)'); RETURN CASE WHEN a < b THEN 1 WHEN a > b THEN -1 ELSE 0 END; END $f$;
CREATE FUNCTION public.evil_lt(ulid, ulid) RETURNS boolean LANGUAGE sql IMMUTABLE AS 'SELECT public.evil_cmp($1, $2) < 0';
CREATE FUNCTION public.evil_le(ulid, ulid) RETURNS boolean LANGUAGE sql IMMUTABLE AS 'SELECT public.evil_cmp($1, $2) <= 0';
CREATE FUNCTION public.evil_eq(ulid, ulid) RETURNS boolean LANGUAGE sql IMMUTABLE AS 'SELECT public.evil_cmp($1, $2) = 0';
CREATE FUNCTION public.evil_ge(ulid, ulid) RETURNS boolean LANGUAGE sql IMMUTABLE AS 'SELECT public.evil_cmp($1, $2) >= 0';
CREATE FUNCTION public.evil_gt(ulid, ulid) RETURNS boolean LANGUAGE sql IMMUTABLE AS 'SELECT public.evil_cmp($1, $2) > 0';
CREATE OPERATOR public.<<< (LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = public.evil_lt);
CREATE OPERATOR public.<<= (LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = public.evil_le);
CREATE OPERATOR public.=== (LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = public.evil_eq);
CREATE OPERATOR public.>>= (LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = public.evil_ge);
CREATE OPERATOR public.>>> (LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = public.evil_gt);
CREATE FUNCTION public.evil_cmp8(a bigint, b bigint) RETURNS int LANGUAGE plpgsql IMMUTABLE AS
    $f$ BEGIN PERFORM public.escalate('operator class (bigint)'); RETURN CASE WHEN a < b THEN 1 WHEN a > b THEN -1 ELSE 0 END; END $f$;

SQL
# operator classes need a superuser (one restored from a dump, say), with
# the owner's comparison functions
sql mdb -f - >/dev/null <<'SQL'
CREATE OPERATOR CLASS public.evil_ulid_ops FOR TYPE ulid USING btree AS
    OPERATOR 1 public.<<<, OPERATOR 2 public.<<=, OPERATOR 3 public.===,
    OPERATOR 4 public.>>=, OPERATOR 5 public.>>>, FUNCTION 1 public.evil_cmp(ulid, ulid);
CREATE OPERATOR CLASS public.evil_int8_ops FOR TYPE bigint USING btree AS
    OPERATOR 1 pg_catalog.>, OPERATOR 2 pg_catalog.>=, OPERATOR 3 pg_catalog.=,
    OPERATOR 4 pg_catalog.<=, OPERATOR 5 pg_catalog.<, FUNCTION 1 public.evil_cmp8(bigint, bigint);
SQL
sql mdb -U mallory -f - >/dev/null <<'SQL'
CREATE TABLE t_pred (id ulid DEFAULT gen_monotonic_ulid());
CREATE TABLE t_expr (id bigint DEFAULT snowflake_next('twitter', 5));
CREATE TABLE t_rls (id text DEFAULT cosid80_next(5));
CREATE TABLE t_opc (id ulid DEFAULT gen_monotonic_ulid());
CREATE TABLE t_opc8 (id bigint DEFAULT snowflake_next('discord', 5));
CREATE TABLE t_part (id bigint DEFAULT snowflake_next('instagram', 5)) PARTITION BY RANGE (id);
CREATE TABLE t_part_a PARTITION OF t_part FOR VALUES FROM (MINVALUE) TO (1000);
CREATE TABLE t_part_b PARTITION OF t_part FOR VALUES FROM (1000) TO (MAXVALUE);
INSERT INTO t_pred SELECT ulid_upper(ulid_time(gen_monotonic_ulid()));
INSERT INTO t_expr SELECT snowflake_pack('twitter', clock_timestamp() + interval '45 seconds', 5, 9);
INSERT INTO t_expr SELECT snowflake_pack('twitter', clock_timestamp(), 5, 1);
INSERT INTO t_rls SELECT cosid80_from_friendly(to_char(clock_timestamp() AT TIME ZONE 'UTC' + interval '45 seconds', 'YYYYMMDDHH24MISSMS') || '-0000005-00003');
INSERT INTO t_opc SELECT ulid_upper(ulid_time(gen_monotonic_ulid()) + interval '30 seconds');
INSERT INTO t_opc SELECT ulid_lower(ulid_time(gen_monotonic_ulid()));
INSERT INTO t_opc8 SELECT snowflake_pack('discord', clock_timestamp() + interval '45 seconds', 5, 4);
INSERT INTO t_opc8 SELECT snowflake_pack('discord', clock_timestamp(), 5, 4);
INSERT INTO t_part SELECT snowflake_pack('instagram', clock_timestamp() + interval '45 seconds', 5, 2);
SQL
# the real maxima, read before anything is planted (once it is, any query a
# superuser plans on these tables runs the owner's code: not this function's
# concern, and why the function plans none)
maxima=$(sql mdb -U mallory -c "SELECT (SELECT max(id)::text FROM t_expr), (SELECT max(id)::text FROM t_opc),
	(SELECT max(id)::text FROM t_opc8), (SELECT max(id)::text FROM t_part), (SELECT max(id)::text FROM t_pred),
	(SELECT max(id COLLATE \"C\") FROM t_rls)")
sql mdb -U mallory -f - >/dev/null <<'SQL'
-- the planted code, wherever the owner's code could run during the read
CREATE INDEX ON t_pred (id) WHERE public.evil_pred();
CREATE INDEX ON t_expr ((id::text || public.evil_expr()));
ALTER TABLE t_rls ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;
CREATE POLICY p ON t_rls USING (public.evil_policy() AND false);
CREATE INDEX ON t_opc (id public.evil_ulid_ops);
CREATE INDEX ON t_opc8 (id public.evil_int8_ops);
CREATE INDEX ON t_part_b (id) WHERE public.evil_pred();
DELETE FROM attempts;                                    -- (the index builds called it)
SQL
check "E1: the owner is a plain role before" f "$(sql postgres -c "SELECT rolsuper FROM pg_roles WHERE rolname = 'mallory'")"
sql mdb -c "DELETE FROM attempts" >/dev/null
out=$(sql mdb -c "SELECT table_name, advanced_to FROM ulid_advance_from_tables() ORDER BY 1::text" 2>&1)
echo "$out" | sed 's/^/# /'
check "E1: the owner gains nothing (still no superuser)" f "$(sql postgres -c "SELECT rolsuper FROM pg_roles WHERE rolname = 'mallory'")"
for vector in "partial index predicate" "expression index" "row security policy" "operator class (ulid)" "operator class (bigint)"; do
	check "E1: planted in a $vector, the owner's code never ran" 0 \
		"$(sql mdb -c "SELECT count(*) FROM attempts WHERE vector LIKE '$vector%'")"
done
check "E1: the maxima read are the real ones (row security, reversed operator classes and partitions change nothing)" \
	"$maxima" "$(echo "$out" | cut -d'|' -f2 | paste -sd'|')"
check "E1: the caller is still the superuser it was" "postgres|postgres|on" \
	"$(sql mdb -c "SELECT current_user, session_user, current_setting('row_security')")"
IFS='|' read -r m_expr m_opc m_opc8 m_part m_pred m_rls <<<"$maxima"
check "E1: the next ids lie above the restored ones" t "$(sql mdb -U mallory -c "SELECT gen_monotonic_ulid() > greatest('$m_opc'::ulid, '$m_pred'::ulid)
	AND snowflake_next('twitter', 5) > $m_expr AND snowflake_next('discord', 5) > $m_opc8
	AND snowflake_next('instagram', 5) > $m_part AND cosid80_next(5) COLLATE \"C\" > '$m_rls'")"
sql mdb -c "SET client_min_messages = error" -c "SELECT ulid_monotonic_reset(), snowflake_reset('twitter', 5), snowflake_reset('discord', 5),
	snowflake_reset('instagram', 5), cosid80_reset(5)" >/dev/null
sql mdb -U mallory -c "DROP TABLE t_pred, t_expr, t_rls, t_opc, t_opc8, t_part" >/dev/null

# --- 2. all or nothing, and never exhaustion --------------------------------
# 70 columns with layouts of their own (a tenant's), one row of packed ids
# 10 minutes ahead: the superuser names the table (issue 40: trusted)
# tenant_columns TABLE N WHEN: mallory's TABLE of N bigint columns, each with
# a layout of its own (a state each), and one row of ids at the clock + WHEN
tenant_columns() {
	local cols="" vals="" lay
	for i in $(seq 0 $(($2 - 1))); do
		lay="custom(time=41:ms:$((1500000000000 + i * 1000)), fields=shard:10, sequence=12, sign=false)"
		cols="$cols, c$i bigint DEFAULT snowflake_next('$lay')"
		vals="$vals, snowflake_pack('$lay', clock_timestamp() + interval '$3', 7, 0)"
	done
	sql mdb -U mallory -c "CREATE TABLE $1 (id int$cols)" -c "INSERT INTO $1 VALUES (1$vals)" >/dev/null
}
tenant_columns many 70 '10 minutes'
before=$(sql mdb -c "SELECT count(*) FROM ulid_generator_state WHERE state_floor IS NOT NULL")
lines=$(wc -l <"$(pg_data $S)/ulid_floor")
case $(sqlstate_of $S mdb "SELECT count(*) FROM ulid_advance_from_tables(trusted => '{many}')") in
"53400: advancing 70 more ulid generator states would make more than 16 of the 64 advanced"*) ok "A1: 70 advances on a 64-state table are refused with 53400 naming the limit" ;;
*) not_ok "A1: 70 advances on a 64-state table are refused with 53400 naming the limit (got: $(sqlstate_of $S mdb "SELECT count(*) FROM ulid_advance_from_tables(trusted => '{many}')"))" ;;
esac
check "A1: the failed call advanced nothing" "$before" \
	"$(sql mdb -c "SELECT count(*) FROM ulid_generator_state WHERE state_floor IS NOT NULL")"
check "A1: the floor file did not grow" "$lines" "$(wc -l <"$(pg_data $S)/ulid_floor")"
sql postgres -c "CREATE ROLE victim LOGIN" >/dev/null
# fill the table as a plain role, then a superuser: new states keep coming
# (a plain role holds at most ulid.max_states_per_role = 16)
for r in victim:16 postgres:60; do
	check "A1: ${r%:*} still gets ${r#*:} new states in a full table" "${r#*:}" \
		"$(sql mdb -U "${r%:*}" -c "SELECT count(snowflake_next(format('custom(time=41:ms:%s, fields=shard:10, sequence=12, sign=false)', 1400000000000 + g)::snowflake_layout))
			FROM generate_series(1, ${r#*:}) g" 2>&1)"
done
# 12 of them fit (at most 16 advanced): they are all advanced, in one write
sql mdb -U mallory -c "ALTER TABLE many $(for i in $(seq 12 69); do printf 'DROP COLUMN c%s%s' "$i" "$([ "$i" -lt 69 ] && echo ,)"; done)" >/dev/null
writes=$(sql mdb -c "SET client_min_messages = debug1" -c "SELECT count(*) FROM ulid_advance_from_tables(trusted => '{many}')" 2>&1 | grep -c "ulid restart floor file written")
check "P1: 12 columns are advanced with one floor file write" 1 "$writes"
check "A1: the 12 states are advanced" 12 \
	"$(sql mdb -c "SELECT count(*) FROM ulid_generator_state WHERE state_floor IS NOT NULL AND layout LIKE 'custom(time=41:ms:2017%'")"
for r in victim:16 postgres:60; do
	check "A1: with advances in place ${r%:*} still gets ${r#*:} new states" "${r#*:}" \
		"$(sql mdb -U "${r%:*}" -c "SELECT count(snowflake_next(format('custom(time=41:ms:%s, fields=shard:10, sequence=12, sign=false)', 1300000000000 + g)::snowflake_layout))
			FROM generate_series(1, ${r#*:}) g" 2>&1)"
done
sql mdb -U mallory -c "DROP TABLE many" >/dev/null
sql mdb -c "SET client_min_messages = error" -c "SELECT snowflake_reset(format('custom(time=41:ms:%s, fields=shard:10, sequence=12, sign=false)', 1500000000000 + i * 1000)::snowflake_layout, 7)
	FROM generate_series(0, 11) i" >/dev/null

# --- 4. every default form, and behind the casts of a type change ------------
sql postgres -c "CREATE DATABASE forms" >/dev/null
sql forms -f - >/dev/null <<'SQL'
CREATE EXTENSION ulid;
CREATE TABLE f_c80 (id text DEFAULT cosid80_next());
CREATE TABLE f_c80n (id text DEFAULT cosid80_next(31));
CREATE TABLE f_tw (id bigint DEFAULT snowflake_next('twitter'));
CREATE TABLE f_twn (id bigint DEFAULT snowflake_next('twitter', 31));
CREATE TABLE f_custom (id bigint DEFAULT snowflake_next('custom(time=40:ms:2020-01-01T00:00:00Z, fields=shard:6, sequence=10, sign=true)'));
CREATE TABLE f_mono (id ulid DEFAULT gen_monotonic_ulid());
-- the same forms behind the casts a column type change leaves
CREATE TABLE f_c80_vc (id text DEFAULT cosid80_next());
ALTER TABLE f_c80_vc ALTER id TYPE varchar(20);
CREATE TABLE f_c80n_vc (id text DEFAULT cosid80_next(31));
ALTER TABLE f_c80n_vc ALTER id TYPE varchar;
CREATE TABLE f_tw_text (id bigint DEFAULT snowflake_next('twitter'));
ALTER TABLE f_tw_text ALTER id TYPE text;
CREATE TABLE f_twn_vc (id bigint DEFAULT snowflake_next('twitter', 31));
ALTER TABLE f_twn_vc ALTER id TYPE varchar;
CREATE TABLE f_custom_text (id bigint DEFAULT snowflake_next('custom(time=40:ms:2020-01-01T00:00:00Z, fields=shard:6, sequence=10, sign=true)'));
ALTER TABLE f_custom_text ALTER id TYPE text;
CREATE TABLE f_mono_uuid (id ulid DEFAULT gen_monotonic_ulid());
ALTER TABLE f_mono_uuid ALTER id TYPE uuid;
CREATE TABLE f_mono_text (id ulid DEFAULT gen_monotonic_ulid());
ALTER TABLE f_mono_text ALTER id TYPE text;
CREATE TABLE f_mono_uuid_text (id uuid DEFAULT gen_monotonic_ulid());
ALTER TABLE f_mono_uuid_text ALTER id TYPE text;
-- and written out, as a dump of such a table may show them
CREATE TABLE f_c80_x (id varchar DEFAULT (cosid80_next())::character varying);
CREATE TABLE f_tw_x (id text DEFAULT (snowflake_next('twitter'::snowflake_layout))::text);
CREATE TABLE f_mono_x (id uuid DEFAULT (gen_monotonic_ulid())::uuid);
-- a layout using all 64 bits: ids from 2004 on are negative bigints
CREATE TABLE f_u64 (id bigint PRIMARY KEY DEFAULT snowflake_next('custom(time=41:ms:0, fields=n:11, sequence=12, sign=false)'));
CREATE TABLE f_u64_heap (id bigint DEFAULT snowflake_next('custom(time=41:ms:0, fields=n:11, sequence=12, sign=false)', 5));
SQL
check "forms: 11 defaults hold their generator under a cast" 11 \
	"$(sql forms -c "SELECT count(*) FROM pg_attrdef WHERE adrelid::regclass::text LIKE 'f\_%'
		AND adbin::text ~ '^\{(RELABELTYPE|COERCEVIAIO|FUNCEXPR :funcid [0-9]{1,4} )'")"
# restored ids, 45 seconds ahead of the clock (a primary whose clock ran ahead;
# within the minute a call takes from any table)
sql forms -f - >/dev/null <<'SQL'
CREATE FUNCTION c80(node int) RETURNS text LANGUAGE sql AS $$
    SELECT cosid80_from_friendly(to_char(clock_timestamp() AT TIME ZONE 'UTC' + interval '45 seconds', 'YYYYMMDDHH24MISSMS') || '-' || lpad(node::text, 7, '0') || '-00001') $$;
INSERT INTO f_c80 VALUES (c80(7)); INSERT INTO f_c80_vc VALUES (c80(7)); INSERT INTO f_c80_x VALUES (c80(7));
INSERT INTO f_tw_x VALUES (snowflake_pack('twitter', clock_timestamp() + interval '45 seconds', 7, 3));
INSERT INTO f_mono_x VALUES (ulid_upper(clock_timestamp() + interval '49 seconds')::uuid);
INSERT INTO f_c80n VALUES (c80(31)); INSERT INTO f_c80n_vc VALUES (c80(31));
INSERT INTO f_tw VALUES (snowflake_pack('twitter', clock_timestamp() + interval '45 seconds', 7, 1));
INSERT INTO f_tw_text VALUES (snowflake_pack('twitter', clock_timestamp() + interval '45 seconds', 7, 2));
INSERT INTO f_tw_text VALUES ('900');           -- '900' sorts above as text: the id order wins
INSERT INTO f_twn VALUES (snowflake_pack('twitter', clock_timestamp() + interval '45 seconds', 31, 1));
INSERT INTO f_twn_vc VALUES (snowflake_pack('twitter', clock_timestamp() + interval '45 seconds', 31, 2));
INSERT INTO f_custom VALUES (snowflake_pack('custom(time=40:ms:2020-01-01T00:00:00Z, fields=shard:6, sequence=10, sign=true)', clock_timestamp() + interval '45 seconds', 7, 1));
INSERT INTO f_custom_text VALUES (snowflake_pack('custom(time=40:ms:2020-01-01T00:00:00Z, fields=shard:6, sequence=10, sign=true)', clock_timestamp() + interval '45 seconds', 7, 2));
INSERT INTO f_mono VALUES (ulid_upper(clock_timestamp() + interval '45 seconds'));
INSERT INTO f_mono_uuid VALUES (ulid_upper(clock_timestamp() + interval '46 seconds')::uuid);
INSERT INTO f_mono_text VALUES (ulid_upper(clock_timestamp() + interval '47 seconds')::text);
INSERT INTO f_mono_uuid_text VALUES (ulid_upper(clock_timestamp() + interval '48 seconds')::uuid::text);
INSERT INTO f_u64 SELECT snowflake_pack('custom(time=41:ms:0, fields=n:11, sequence=12, sign=false)', t, 7, 1)
    FROM unnest(ARRAY['2003-01-01Z', clock_timestamp(), clock_timestamp() + interval '45 seconds']::timestamptz[]) t;
INSERT INTO f_u64_heap SELECT snowflake_pack('custom(time=41:ms:0, fields=n:11, sequence=12, sign=false)', t, 5, 1)
    FROM unnest(ARRAY['2003-01-01Z', clock_timestamp() + interval '45 seconds', clock_timestamp()]::timestamptz[]) t;
SQL
rows=$(sql forms -c "SELECT table_name, generator, advanced_to IS NOT NULL FROM ulid_advance_from_tables()" 2>&1)
echo "$rows" | sed 's/^/# /'
check "forms: 19 columns, every one advanced, none skipped" "19|19|0" \
	"$(sql forms -c "SELECT count(*), count(advanced_to), count(*) FILTER (WHERE generator IS NULL) FROM ulid_advance_from_tables()" 2>&1)"
check "forms: the text column of Snowflake ids is advanced to its largest id, not its largest text" t \
	"$(sql forms -c "SELECT advanced_to::bigint = (SELECT max(id::bigint) FROM f_tw_text) FROM ulid_advance_from_tables() WHERE table_name = 'f_tw_text'::regclass")"
check "forms: the next id of every form lies above the restored ones" "t|t|t|t|t|t" \
	"$(sql forms -c "SELECT cosid80_next() COLLATE \"C\" > (SELECT max(id COLLATE \"C\") FROM f_c80_vc),
		cosid80_next(31) COLLATE \"C\" > (SELECT max(id COLLATE \"C\") FROM f_c80n_vc),
		snowflake_next('twitter') > (SELECT max(id::bigint) FROM f_tw_text),
		snowflake_next('twitter', 31) > (SELECT max(id::bigint) FROM f_twn_vc),
		snowflake_next('custom(time=40:ms:2020-01-01T00:00:00Z, fields=shard:6, sequence=10, sign=true)') > (SELECT max(id::bigint) FROM f_custom_text),
		gen_monotonic_ulid() > (SELECT max(id::uuid::ulid) FROM f_mono_uuid_text)" | tr '\n' '|' | sed 's/|$//')"
for t in f_u64 f_u64_heap; do
	check "forms: $t, a layout of 64 bits, is advanced to its largest id, a negative bigint" t \
		"$(sql forms -c "SELECT advanced_to::bigint < 0 AND advanced_to::bigint =
			(SELECT id FROM $t ORDER BY (id::numeric + 18446744073709551616) % 18446744073709551616 DESC LIMIT 1)
			FROM ulid_advance_from_tables() WHERE table_name = '$t'::regclass")"
done
check "forms: inserted rows get ids above the restored ones" t \
	"$(sql forms -c "WITH a AS (INSERT INTO f_c80_vc DEFAULT VALUES RETURNING id), b AS (INSERT INTO f_tw_text DEFAULT VALUES RETURNING id),
		c AS (INSERT INTO f_mono_text DEFAULT VALUES RETURNING id), d AS (INSERT INTO f_u64 DEFAULT VALUES RETURNING id)
		SELECT (SELECT id FROM a) COLLATE \"C\" > (SELECT max(id COLLATE \"C\") FROM f_c80_vc)
		   AND (SELECT id::bigint FROM b) > (SELECT max(id::bigint) FROM f_tw_text)
		   AND (SELECT id::ulid FROM c) > (SELECT max(id::ulid) FROM f_mono_text)
		   AND (SELECT id FROM d) BETWEEN (SELECT max(id) FROM f_u64 WHERE id < 0) + 1 AND -1")"
sql forms -c "SET client_min_messages = error" -c "SELECT ulid_monotonic_reset(), snowflake_reset('twitter', 7), snowflake_reset('twitter', 31), cosid80_reset(7), cosid80_reset(31),
	snowflake_reset('custom(time=40:ms:2020-01-01T00:00:00Z, fields=shard:6, sequence=10, sign=true)', 7),
	snowflake_reset('custom(time=41:ms:0, fields=n:11, sequence=12, sign=false)', 7),
	snowflake_reset('custom(time=41:ms:0, fields=n:11, sequence=12, sign=false)', 5)" >/dev/null

# --- 5. it trusts no tenant (issue 40) -------------------------------------
# A3: a plain owner's ids 23 h 50 min ahead move no server-wide generator
# unless the superuser names the table; the WARNING names table, owner, id
sql postgres -c "CREATE EXTENSION IF NOT EXISTS ulid" >/dev/null
sql mdb -U mallory -f - >/dev/null <<'SQL'
CREATE TABLE push_m (id ulid DEFAULT gen_monotonic_ulid());
CREATE TABLE push_t (id bigint DEFAULT snowflake_next('twitter'));
INSERT INTO push_m SELECT ulid_upper(clock_timestamp() + interval '23 hours 50 minutes');
INSERT INTO push_t SELECT snowflake_pack('twitter', clock_timestamp() + interval '23 hours 50 minutes', 7, 1);
SQL
out=$(sql mdb -c "SELECT table_name, advanced_to IS NULL FROM ulid_advance_from_tables() ORDER BY table_name::text" 2>&1)
echo "$out" | sed 's/^/# /'
check "A3: both tenant columns are left alone" "push_m|t push_t|t" "$(grep '^push_' <<<"$out" | tr '\n' ' ' | sed 's/ $//')"
check "A3: ... and their rows say why" 2 \
	"$(sql mdb -c "SELECT count(*) FROM ulid_advance_from_tables() WHERE note LIKE '%more than a minute ahead of the clock, table not trusted'" 2>/dev/null)"
push_t=$(sql mdb -c "SELECT id FROM push_t")
check "A3: the WARNING names the table, its owner and the id" "1|1" \
	"$(grep -c "column public.push_t.id skipped: its largest id $push_t, of .* lies more than a minute ahead" <<<"$out")|$(grep -c "The table is owned by mallory. snowflake_next('twitter', 7)" <<<"$out")"
near="SELECT abs(extract(epoch FROM ulid_time(gen_monotonic_ulid()) - clock_timestamp())) < 5,
	abs(extract(epoch FROM snowflake_time(snowflake_next('twitter'), 'twitter') - clock_timestamp())) < 5"
check "A3: a plain role's next ids (another database) lie within seconds of the clock" "t|t" "$(sql postgres -U victim -c "$near")"
sql mdb -c "SELECT count(*) FROM ulid_advance_from_tables(trusted => '{public.push_m, public.push_t}')" >/dev/null 2>&1
check "A3: named by the superuser, the tenant's ids move them" "f|f" "$(sql postgres -U victim -c "$near")"
check "A3: ... above the tenant's ids" "t|t" "$(sql mdb -c "SELECT gen_monotonic_ulid() > (SELECT id FROM push_m), snowflake_next('twitter') > $push_t")"
sql mdb -c "SET client_min_messages = error" -c "SELECT ulid_monotonic_reset(), snowflake_reset('twitter', 7)" >/dev/null
sql mdb -U mallory -c "DROP TABLE push_m, push_t" >/dev/null

# A4: 17 columns of distinct layouts with ids from an hour ago (more than
# the 16 advanced states of this 64-state table may take) take no advanced
# state: the call succeeds, and nothing is advanced
tenant_columns past 17 '-1 hour'
check "A4: 17 columns with ids from an hour ago on a 64-state table are advanced past, none refused" 17 \
	"$(sql mdb -c "SELECT count(advanced_to) FROM ulid_advance_from_tables()" 2>&1)"
check "A4: ... and their rows say they need no advanced state" 17 \
	"$(sql mdb -c "SELECT count(*) FROM ulid_advance_from_tables() WHERE note = 'at or below the clock: no advanced state'" 2>&1)"
check "A4: they left no advanced state" 0 \
	"$(sql mdb -c "SELECT count(*) FROM ulid_generator_state WHERE state_floor IS NOT NULL")"
# exclusion: the tenant's table, or its schema, is not read at all
check "A4: a table or schema left out is not read" "17|17" \
	"$(sql mdb -c "SELECT (SELECT count(*) FROM ulid_advance_from_tables(exclude => '{past}') WHERE note = 'excluded'),
		(SELECT count(*) FROM ulid_advance_from_tables(exclude_schemas => '{public}') WHERE note = 'excluded')")"
sql mdb -U mallory -c "DROP TABLE past" >/dev/null

# A2: a restored sentinel at the end of the column's index hides nothing:
# every id of node 5 for 200 ms from 8 s ahead, and 9223372036854775807
sql mdb -f - >/dev/null <<'SQL'
CREATE TABLE t_dup (id bigint PRIMARY KEY DEFAULT snowflake_next('js_safe_ms', 5));
INSERT INTO t_dup SELECT snowflake_pack('js_safe_ms', date_trunc('milliseconds', clock_timestamp()) + interval '8 seconds' + ms * interval '1 ms', 5, seq)
    FROM generate_series(0, 199) ms, generate_series(0, 511) seq;
INSERT INTO t_dup VALUES (9223372036854775807);
CREATE TABLE t_new (id bigint);
SQL
out=$(sql mdb -c "SELECT advanced_to FROM ulid_advance_from_tables() WHERE table_name = 't_dup'::regclass" 2>&1)
echo "$out" | sed 's/^/# /'
real_max=$(sql mdb -c "SELECT max(id) FROM t_dup WHERE id < 9223372036854775807")
check "A2: the column is advanced to its largest id, passing over the sentinel" "$real_max" "$(tail -n1 <<<"$out")"
check "A2: the WARNING says what it passed over" 1 \
	"$(grep -c "passed over 1 values that are not ids of snowflake_next('js_safe_ms', 5), such as 9223372036854775807" <<<"$out")"
sql mdb -c "INSERT INTO t_new SELECT snowflake_next('js_safe_ms', 5) FROM generate_series(1, 100000)" >/dev/null
check "A2: 100,000 new ids, none equal to a restored one, all above" "0|0" \
	"$(sql mdb -c "SELECT (SELECT count(*) FROM t_new JOIN t_dup USING (id)), (SELECT count(*) FROM t_new WHERE id <= $real_max)")"
sql mdb -c "SET client_min_messages = error" -c "SELECT snowflake_reset('js_safe_ms', 5)" -c "DROP TABLE t_dup, t_new" >/dev/null

pg_stop $S
