#!/usr/bin/env bash
# snowflake_next() on hot standbys (streaming replicas made with
# pg_basebackup -R): a copy carries the primary's ulid.node_id, so it
# refuses with 25006.  Then a failover that loses the primary's last
# transactions (asynchronous replication): the standbys stop, the primary
# commits 1000 more ids of each kind, and stops for good.  Each standby is
# promoted with the clock 30 s behind (ulid.clock_offset_ms):
#   (b) same node: with no step, new ids come at once above every id the
#       standby received (the floors travel in WAL); advancing past the time
#       the old primary went down puts them above every id the old primary
#       issued, the lost ones too, at once;
#   (a) a node id of its own: new Snowflake ids share no id with the old
#       primary's, whatever the clock says.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

P=sfsb_primary
R=sfsb_standby
R2=sfsb_standby2
if ! pg_new $P "ulid.node_id = 7" "ulid.node_ids = '3'" || ! pg_start $P; then
	not_ok "snowflake standby: primary starts"
	exit 1
fi
psqlx $P -c "CREATE EXTENSION ulid" \
	-c "CREATE TABLE t (id bigint PRIMARY KEY DEFAULT snowflake_next('twitter'), n int)" \
	-c "CREATE TABLE u (id ulid PRIMARY KEY DEFAULT gen_monotonic_ulid(), n int)"
# insert_batch SERVER: 1000 rows into each table
insert_batch() {
	psqlx "$1" -c "INSERT INTO t (n) SELECT g FROM generate_series(1, 1000) g" \
		-c "INSERT INTO u (n) SELECT g FROM generate_series(1, 1000) g"
}
insert_batch $P

# the replica: a base backup over the unix socket, on its own port
for r in $R $R2; do
	if ! pg_new_standby "$r" $P || ! pg_start "$r"; then
		not_ok "snowflake standby: replica $r (pg_basebackup, start)"
		exit 1
	fi
done
check "standby: in recovery, with the primary's node id" "t|7" \
	"$(psqlx $R -c "SELECT pg_is_in_recovery(), current_setting('ulid.node_id')")"

# (COSID_80 runs on the same generator)
for call in "snowflake_next('twitter')" "snowflake_next('twitter', 3)" "cosid80_next()" "cosid80_next(3)"; do
	what=Snowflake fix=snowflake_advance
	[[ $call == cosid80* ]] && what=COSID_80 fix=cosid80_advance
	out=$(psqlx $R -v VERBOSITY=verbose -c "SELECT $call" 2>&1)
	case $out in
	*"25006: cannot mint $what ids during recovery"*"carries the primary's ulid.node_id"*"$fix()"*)
		ok "standby: $call refuses with 25006" ;;
	*) not_ok "standby: $call refuses with 25006 (got: $out)" ;;
	esac
done
check "standby: no Snowflake or COSID_80 state was created" 0 \
	"$(psqlx $R -c "SELECT count(*) FROM ulid_generator_state WHERE kind IN ('snowflake', 'cosid80')")"

# the primary goes on; the rows replicate.  First the clock passes the
# restart floor the standbys copied (the primary's when they were made), so
# that the ids to come, and the promoted standbys' own starts, lie above it:
# the checks below then see the policy and the advance steps, not the floor.
floor_ms=$(sed -n 2p "$(pg_data $R)/ulid_floor")
past_floor() { [ "$(date +%s%3N)" -gt $((floor_ms + 100)) ]; }
check_cmd "the clock passes the restart floor the standbys copied" wait_until 5 past_floor
insert_batch $P
lsn=$(psqlx $P -c "SELECT pg_current_wal_lsn()")
for r in $R $R2; do
	replayed() { [ "$(psqlx "$r" -c "SELECT pg_last_wal_replay_lsn() >= '$lsn'")" == t ]; }
	wait_until 10 replayed
	check "$r: the primary's ids replicate" "2000|2000" \
		"$(psqlx "$r" -c "SELECT (SELECT count(*) FROM t), (SELECT count(*) FROM u)")"
done

# --- failover, losing the primary's last transactions ---------------------
# the standbys stop; the primary commits 1000 more ids of each kind, which no
# standby receives, and goes down for good.  Every id it issued is kept in
# files, to check the new primaries' ids against.
pg_stop $R
pg_stop $R2
insert_batch $P
went_down=$(psqlx $P -c "SELECT clock_timestamp()")
OLD=$ULID_WORK/sfsb_old
psqlx $P -c "COPY t (id) TO STDOUT" >"$OLD.t"
psqlx $P -c "COPY u (id) TO STDOUT" >"$OLD.u"
pg_stop $P
check "the old primary issued 3000 ids of each kind" "3000 3000" "$(wc -l <"$OLD.t") $(wc -l <"$OLD.u")"

# promote NAME: start the standby, promote it, set the clock 30 s back, and
# load the old primary's ids into old_t and old_u
offset_is() { [ "$(psqlx "$1" -c "SHOW ulid.clock_offset_ms")" == -30000 ]; }
promote() {
	local r=$1
	pg_start "$r" || return 1
	as_pg "$PG_BIN/pg_ctl" -D "$(pg_data "$r")" -w promote >/dev/null || return 1
	psqlx "$r" -c "ALTER SYSTEM SET ulid.clock_offset_ms = -30000" -c "SELECT pg_reload_conf()" >/dev/null
	wait_until 10 offset_is "$r" || return 1
	psqlx "$r" -c "CREATE TABLE old_t (id bigint)" -c "COPY old_t FROM STDIN" <"$OLD.t" &&
		psqlx "$r" -c "CREATE TABLE old_u (id ulid)" -c "COPY old_u FROM STDIN" <"$OLD.u"
}
for r in $R $R2; do
	check_cmd "$r: promoted, its clock 30 s behind" promote "$r"
	check "$r: a primary with node 7 and the 2000 rows it received (1000 lost)" "f|7|2000|2000" \
		"$(psqlx "$r" -c "SELECT pg_is_in_recovery(), current_setting('ulid.node_id'),
			(SELECT count(*) FROM t), (SELECT count(*) FROM u)")"
done

# --- (b) the same node: nothing to do for what the standby received -------
# the floors travel in WAL: with the clock 30 s behind and no step, new ids
# are issued at once above every id the standby received
psqlx $R -c "CREATE TABLE new_t (id bigint, step text)" -c "CREATE TABLE new_u (id ulid, step text)"
# new_ids STEP: 1000 rows into each table (the default policy); their ids go
# to new_t and new_u, marked with the step
new_ids() {
	psqlx $R <<SQL
WITH i AS (INSERT INTO t (n) SELECT g FROM generate_series(1, 1000) g RETURNING id)
INSERT INTO new_t SELECT id, '$1' FROM i;
WITH i AS (INSERT INTO u (n) SELECT g FROM generate_series(1, 1000) g RETURNING id)
INSERT INTO new_u SELECT id, '$1' FROM i;
SQL
}
# above STEP: new ids above the max of t and u as received | above every id
# the old primary issued | none equal to an old one
above() {
	psqlx $R -c "SELECT
		(SELECT min(n.id) > (SELECT max(id) FROM t WHERE id IN (SELECT id FROM old_t)) FROM new_t n WHERE step = '$1')
		AND (SELECT min(n.id) > (SELECT max(id) FROM u WHERE id IN (SELECT id FROM old_u)) FROM new_u n WHERE step = '$1'),
		(SELECT min(n.id) > (SELECT max(id) FROM old_t) FROM new_t n WHERE step = '$1')
		AND (SELECT min(n.id) > (SELECT max(id) FROM old_u) FROM new_u n WHERE step = '$1'),
		(SELECT count(*) FROM new_t n JOIN old_t o USING (id)) + (SELECT count(*) FROM new_u n JOIN old_u o USING (id))"
}
new_ids none
res=$(above none)
check "$R (b) no step, the clock 30 s behind: 1000 new ids of each kind at once, above every id it received" \
	"t" "${res%%|*}"
echo "# $R (b) no step: above received | above the lost ones too | repeats: $res"
psqlx $R -c "SELECT snowflake_advance('twitter', 7, snowflake_upper('twitter', '$went_down'::timestamptz + interval '1 s'))" \
	-c "SELECT ulid_monotonic_advance(ulid_upper('$went_down'::timestamptz + interval '1 s'))" >/dev/null
new_ids down
check "$R (b) advanced past the time the old primary went down: new ids above every id it issued" \
	"t|t|0" "$(above down)"
check "$R (b): node 7 all along, 4000 distinct ids in t and u" "0|4000|4000" \
	"$(psqlx $R -c "SELECT (SELECT count(*) FROM t WHERE snowflake_node(id, 'twitter') <> 7),
		(SELECT count(DISTINCT id) FROM t), (SELECT count(DISTINCT id) FROM u)")"

# --- (a) a node id of its own ----------------------------------------------
psqlx $R2 -c "ALTER SYSTEM SET ulid.node_id = 8" -c "SELECT pg_reload_conf()" >/dev/null
node_is_8() { [ "$(psqlx $R2 -c "SHOW ulid.node_id")" == 8 ]; }
wait_until 10 node_is_8
check "$R2 (a) node 8: 1000 new ids at once, with the clock 30 s behind and no advance" 1000 \
	"$(psqlx $R2 -c "WITH i AS (INSERT INTO t (n) SELECT g FROM generate_series(1, 1000) g RETURNING id) SELECT count(*) FROM i" 2>&1)"
check "$R2 (a): the new ids are node 8's, the old primary's all node 7's, none shared" "1000|3000|0" \
	"$(psqlx $R2 -c "SELECT (SELECT count(*) FROM t WHERE snowflake_node(id, 'twitter') = 8 AND id NOT IN (SELECT id FROM old_t)),
		(SELECT count(*) FROM old_t WHERE snowflake_node(id, 'twitter') = 7),
		(SELECT count(*) FROM t JOIN old_t USING (id) WHERE snowflake_node(t.id, 'twitter') = 8)")"

pg_stop $R
pg_stop $R2
