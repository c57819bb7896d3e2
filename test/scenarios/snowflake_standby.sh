#!/usr/bin/env bash
# snowflake_next() on a hot standby (a streaming replica made with
# pg_basebackup -R): the copy carries the primary's ulid.node_id, so it
# refuses with 25006.  After promotion it mints again: on the same node only
# past the old primary's ids (snowflake_advance), or on a node of its own.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

P=sfsb_primary
R=sfsb_standby
if ! pg_new $P "ulid.node_id = 7" || ! pg_start $P; then
	not_ok "snowflake standby: primary starts"
	exit 1
fi
psqlx $P -c "CREATE EXTENSION ulid" -c "CREATE TABLE t (id bigint PRIMARY KEY DEFAULT snowflake_next('twitter'), n int)"
psqlx $P -c "INSERT INTO t (n) SELECT g FROM generate_series(1, 1000) g"

# the replica: a base backup over the unix socket, on its own port
if ! pg_new_standby $R $P; then
	not_ok "snowflake standby: pg_basebackup"
	exit 1
fi
if ! pg_start $R; then
	not_ok "snowflake standby: replica starts"
	exit 1
fi
check "standby: in recovery, with the primary's node id" "t|7" \
	"$(psqlx $R -c "SELECT pg_is_in_recovery(), current_setting('ulid.node_id')")"

for call in "snowflake_next('twitter')" "snowflake_next('twitter', 3)"; do
	out=$(psqlx $R -v VERBOSITY=verbose -c "SELECT $call" 2>&1)
	case $out in
	*"25006: cannot mint Snowflake ids during recovery"*"carries the primary's ulid.node_id"*)
		ok "standby: $call refuses with 25006" ;;
	*) not_ok "standby: $call refuses with 25006 (got: $out)" ;;
	esac
done
check "standby: no Snowflake state was created" 0 \
	"$(psqlx $R -c "SELECT count(*) FROM ulid_generator_state WHERE kind = 'snowflake'")"

# the primary goes on; the rows replicate
psqlx $P -c "INSERT INTO t (n) SELECT g FROM generate_series(1, 1000) g"
lsn=$(psqlx $P -c "SELECT pg_current_wal_lsn()")
replayed() { [ "$(psqlx $R -c "SELECT pg_last_wal_replay_lsn() >= '$lsn'")" == t ]; }
wait_until 10 replayed
check "standby: the primary's ids replicate" 2000 "$(psqlx $R -c "SELECT count(*) FROM t")"

# failover: the old primary stops, the standby is promoted
pg_stop $P
as_pg "$PG_BIN/pg_ctl" -D "$(pg_data $R)" -w promote >/dev/null
promoted() { [ "$(psqlx $R -c "SELECT pg_is_in_recovery()")" == f ]; }
check_cmd "promotion: the standby becomes a primary" wait_until 30 promoted

# same node: advance past the old primary's ids first
psqlx $R -c "SELECT snowflake_advance('twitter', 7, max(id)) FROM t" >/dev/null
check "promotion, same node: new ids are above the old primary's" "1000|t" \
	"$(psqlx $R -c "WITH old AS (SELECT max(id) AS m FROM t),
		ins AS (INSERT INTO t (n) SELECT g FROM generate_series(1, 1000) g RETURNING id)
		SELECT count(*), bool_and(ins.id > old.m) FROM ins, old")"

# its own node: ids of node 8
psqlx $R -c "ALTER SYSTEM SET ulid.node_id = 8" -c "SELECT pg_reload_conf()" >/dev/null
node_is_8() { [ "$(psqlx $R -c "SHOW ulid.node_id")" == 8 ]; }
wait_until 10 node_is_8
check "promotion, own node: ids on node 8" 8 \
	"$(psqlx $R -c "SELECT snowflake_node(snowflake_next('twitter'), 'twitter')")"

pg_stop $R
