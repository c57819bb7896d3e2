#!/usr/bin/env bash
# gen_monotonic_ulid() on a hot standby (a streaming replica made with
# pg_basebackup -R): it works there, in an order of the standby's own, and
# the standby starts above the ids the primary issued before the backup (the
# base backup copies the persisted floor).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

P=sb_primary
R=sb_standby
if ! pg_new $P || ! pg_start $P; then
	not_ok "standby: primary starts"
	exit 1
fi
psqlx $P -c "CREATE EXTENSION ulid" -c "CREATE TABLE t (id ulid PRIMARY KEY DEFAULT gen_monotonic_ulid())"
psqlx $P -c "INSERT INTO t SELECT FROM generate_series(1, 1000)"
max_primary=$(psqlx $P -c "SELECT max(id) FROM t")

# the replica: a base backup over the unix socket, on its own port
if ! pg_new_standby $R $P; then
	not_ok "standby: pg_basebackup"
	exit 1
fi
if ! pg_start $R; then
	not_ok "standby: replica starts"
	exit 1
fi
check "standby: the replica is in recovery" t "$(psqlx $R -c "SELECT pg_is_in_recovery()")"

# two sessions one after the other, and 2 x 10k ids
a=$(psqlx $R -c "SELECT max(u) FROM (SELECT gen_monotonic_ulid() AS u FROM generate_series(1, 10000)) s")
res=$(psqlx $R -c "
	SELECT count(*), count(DISTINCT u), count(*) FILTER (WHERE u <= prev), min(u) > '$a'
	FROM (SELECT u, lag(u) OVER (ORDER BY g) AS prev
	      FROM (SELECT g, gen_monotonic_ulid() AS u FROM generate_series(1, 10000) g) s) t")
check "standby: gen_monotonic_ulid() runs, strictly increasing across sessions" "10000|10000|0|t" "$res"
check "standby: above what the primary issued before the backup" t \
	"$(psqlx $R -c "SELECT '$a'::ulid > '$max_primary'")"
check "standby: the state view works" "ulid|20000" \
	"$(psqlx $R -c "SELECT kind, issued FROM ulid_generator_state")"
check "standby: the replica keeps its own persisted floor" t \
	"$(psqlx $R -c "SELECT $(sed -n 2p "$(pg_data $R)/ulid_floor") > ulid_unix_ms('$a')")"

# the advance function works there too (it writes no WAL)
target=$(psqlx $R -c "SELECT ulid_from_parts(ulid_unix_ms(gen_monotonic_ulid()) + 60000, '\\x00000000000000000000')")
psqlx $R -c "SELECT ulid_monotonic_advance('$target')" >/dev/null
check "standby: ulid_monotonic_advance() works" t "$(psqlx $R -c "SELECT gen_monotonic_ulid() > '$target'")"

# the primary goes on with its own order; replication still works
psqlx $P -c "INSERT INTO t SELECT FROM generate_series(1, 1000)"
check "standby: the primary goes on rising" t "$(psqlx $P -c "SELECT count(*) = 2000 AND max(id) > '$max_primary' FROM t")"
lsn=$(psqlx $P -c "SELECT pg_current_wal_lsn()")
replayed() { [ "$(psqlx $R -c "SELECT pg_last_wal_replay_lsn() >= '$lsn'")" == t ]; }
wait_until 10 replayed
check "standby: the rows replicate" 2000 "$(psqlx $R -c "SELECT count(*) FROM t")"

pg_stop $R
pg_stop $P
