#!/usr/bin/env bash
# Citus: a coordinator and two workers on 127.0.0.1 that share one
# configuration, ulid.node_id_source = 'citus' (each node's node id is its
# Citus group id: coordinator 0, workers 1 and 2), then a third worker added
# and the shards rebalanced onto it.
# It covers what a Citus user does with ulid: a table distributed by ulid
# with DEFAULT gen_ulid() (rows on every worker, even spread, router plan for
# id = const, ORDER BY id LIMIT across shards, min/max pushed to each shard's
# index), INSERT ... SELECT with a Snowflake default (defaults run on the
# workers: unique ids, each naming a node of the cluster), a colocated table
# and join, a reference table with a ulid key, create_time_partitions on a
# ulid key, and rebalancing with the data intact.  Node identity: INSERT
# through the coordinator, through each worker, INSERT ... SELECT and COPY
# mint 0 duplicate ids, each naming the node that minted it (checked against
# the placement of its source row), before and after rebalancing;
# ulid_check_node_ids() lists every node.  Misconfigurations refuse: a
# ulid.node_id (or ulid.node_ids) copied to every node, a node that has not
# joined; a group id beyond a default's layout is named by the check, and
# its 22003 hint points to a layout with more node bits; a worker's open
# session takes its group id when citus_add_node() assigns it; INSERT ...
# SELECT ... ORDER BY id LIMIT n inserts the true first n rows (Citus before
# 13.2 got it wrong).
#
# It runs when Citus is installed in the server under test (citus.so and
# citus.control; test/citus-build.sh builds and installs it) and otherwise
# prints a skip line with the reason: a skip counts neither as passed nor as
# failed.  ULID_CITUS=off skips it even with Citus installed (to see the skip).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

citus_so=$("$PG_CONFIG" --pkglibdir)/citus.so
citus_control=$("$PG_CONFIG" --sharedir)/extension/citus.control
if [ "${ULID_CITUS:-}" = off ]; then
	skip "citus: ULID_CITUS=off"
	exit 0
fi
if [ ! -f "$citus_so" ] || [ ! -f "$citus_control" ]; then
	skip "citus: Citus is not installed in this PostgreSQL ($citus_so or $citus_control missing; build it with test/citus-build.sh, see test/README.md \"Citus\")"
	exit 0
fi

# --- the cluster ------------------------------------------------------------
# one configuration for every node: node ids are the Citus groups
# (coordinator 0, workers 1 and 2, the worker added later 3)
conf=("citus.node_conninfo = 'sslmode=disable'" "citus.shard_count = 8" "max_connections = 100"
	"ulid.node_id_source = 'citus'")
C=citus_c W1=citus_w1 W2=citus_w2 W3=citus_w3
for n in $C $W1 $W2 $W3; do
	if ! ULID_PRELOAD='citus,ulid' pg_new_tcp $n "${conf[@]}" || ! pg_start $n; then
		not_ok "citus: server $n (citus,ulid preloaded) starts"
		exit 1
	fi
	if ! psqlx $n -c "CREATE EXTENSION citus" >"$ULID_WORK/$n.citus.log" 2>&1; then
		sed 's/^/# /' "$ULID_WORK/$n.citus.log"
		not_ok "citus: CREATE EXTENSION citus on $n"
		exit 1
	fi
done
# SQL on the coordinator, each statement sent on its own (Citus refuses
# several DDL commands in one query string)
q() { psqlx $C <<<"$1" 2>&1; }
# the Task Count line of a plan on the coordinator
tasks() { q "EXPLAIN (COSTS OFF) $1" | sed -n 's/^ *Task Count: //p'; }
# how Citus runs min(id), max(id) on events: pushed as themselves, or as
# worker_partial_agg(), and how many index scans the shown shard's plan has
minmax_plan() {
	local plan
	plan=$(q "EXPLAIN (VERBOSE, COSTS OFF) SELECT min(id), max(id) FROM events")
	grep -q 'Query: SELECT public.min(id) AS min, public.max(id) AS max FROM public.events_' <<<"$plan" && echo -n "pushed|" || echo -n "not pushed|"
	grep -q worker_partial_agg <<<"$plan" && echo -n "partial|" || echo -n "no partial|"
	echo "$(grep -c 'Index Only Scan.* using events_pkey_' <<<"$plan") index scans"
}
echo "# $(q 'SELECT citus_version()')"
q "SELECT citus_set_coordinator_host('127.0.0.1', $(pg_port $C))" >/dev/null
check "citus: two workers join the coordinator" "t|t" \
	"$(q "SELECT citus_add_node('127.0.0.1', $(pg_port $W1)) > 0, citus_add_node('127.0.0.1', $(pg_port $W2)) > 0")"
v=$(q "SELECT default_version FROM pg_available_extensions WHERE name = 'ulid'")
check "citus: CREATE EXTENSION ulid on the coordinator creates it on every worker" "$v,$v" \
	"$(q "CREATE EXTENSION ulid" >/dev/null; q "SELECT string_agg(result, ',') FROM run_command_on_workers(\$\$SELECT extversion FROM pg_extension WHERE extname = 'ulid'\$\$)")"
check "citus: one configuration (no ulid.node_id), and every node's node id is its Citus group" "-1,-1,-1|0,1,2" \
	"$(q "SELECT string_agg(result, ',' ORDER BY result) FROM run_command_on_all_nodes('SHOW ulid.node_id')")|$(q "SELECT string_agg(result, ',' ORDER BY result) FROM run_command_on_all_nodes('SELECT node_id FROM ulid_node_identity()')")"
# ulid_check_node_ids(): one row per node, none shared
pc=$(pg_port $C) p1=$(pg_port $W1) p2=$(pg_port $W2) p3=$(pg_port $W3)
node_ids() { q "SELECT string_agg(concat_ws(':', node_port, node_id, source, owned_nodes, shared, problem), ' ' ORDER BY node_port) FROM ulid_check_node_ids()"; }
check "citus: ulid_check_node_ids() on the coordinator: each node, its group as node id, none shared" \
	"$pc:0:citus:0:f $p1:1:citus:1:f $p2:2:citus:2:f" "$(node_ids)"
check "citus: ulid_check_node_ids() runs on the coordinator only" \
	"ERROR:  ulid_check_node_ids() runs on the Citus coordinator, and this node is a worker (Citus group 1)" \
	"$(psqlx $W1 -c "SELECT * FROM ulid_check_node_ids()" 2>&1 | head -1)"

# --- a table distributed by ulid, DEFAULT gen_ulid() ----------------------------
q "CREATE TABLE events(id ulid PRIMARY KEY DEFAULT gen_ulid(), n int, payload text);
   SELECT create_distributed_table('events', 'id');
   INSERT INTO events(n, payload) SELECT g, 'p' || g FROM generate_series(1, 20000) g;
   VACUUM ANALYZE events" >/dev/null
check "citus: 20000 rows, 20000 distinct ids" "20000|20000" "$(q "SELECT count(*), count(DISTINCT id) FROM events")"
# rows per worker and per shard; chi-square of 8 shards (df 7): 24.3 is the
# 0.1% critical value
spread=$(q "WITH s AS (SELECT shardid, result::bigint AS rows FROM run_command_on_shards('events', 'SELECT count(*) FROM %s'))
	SELECT count(DISTINCT p.nodeport) FILTER (WHERE s.rows > 0), sum(s.rows),
	       sum((s.rows - 2500.0) ^ 2 / 2500.0) < 24.3
	FROM s JOIN pg_dist_shard_placement p USING (shardid)")
check "citus: rows on both workers, 8 shards evenly filled (chi-square)" "2|20000|t" "$spread"
check "citus: every row is in the shard get_shard_id_for_distribution_column names" "0" \
	"$(q "WITH s AS (SELECT shardid, result::bigint AS rows FROM run_command_on_shards('events', 'SELECT count(*) FROM %s'))
	SELECT count(*) FROM s FULL JOIN (SELECT get_shard_id_for_distribution_column('events', id) AS shardid, count(*) AS rows FROM events GROUP BY 1) e USING (shardid)
	WHERE s.rows IS DISTINCT FROM e.rows")"
one=$(q "SELECT id FROM events WHERE n = 4242")
check "citus: id = const is a router plan (one task)" "1" "$(tasks "SELECT * FROM events WHERE id = '$one'")"
check "citus: id = const finds its row" "4242|p4242" "$(q "SELECT n, payload FROM events WHERE id = '$one'")"
check "citus: ORDER BY id LIMIT 10 is pushed to the 8 shards" "8" "$(tasks "SELECT id FROM events ORDER BY id LIMIT 10")"
# a MATERIALIZED CTE is pulled to the coordinator and sorted there
check "citus: ORDER BY id LIMIT 10 across shards equals a sort on the coordinator" \
	"$(q "WITH a AS MATERIALIZED (SELECT id FROM events) SELECT string_agg(id::text, ',' ORDER BY id) FROM (SELECT id FROM a ORDER BY id LIMIT 10) s")" \
	"$(q "SELECT string_agg(id::text, ',' ORDER BY id) FROM (SELECT id FROM events ORDER BY id LIMIT 10) s")"
check "citus: ids follow insertion order (gen_ulid() on the coordinator, one session)" "0" \
	"$(q "SELECT count(*) FROM (SELECT n, lag(n) OVER (ORDER BY id) AS prev FROM events) s WHERE n < prev")"

# --- keys (issue 39): one keyring root on every node, the same masks ------------
# the coordinator's first key makes its root; the workers have none yet, so
# the key is refused, naming a worker, and no node masks with another key
check "citus: a key while the workers lack the coordinator's root is refused, naming the worker" \
	"ERROR:  could not make key \"api\" on a Citus worker: 127.0.0.1:" \
	"$(q "SELECT ulid_key_create('api')" | head -1 | grep -o 'ERROR:  could not make key "api" on a Citus worker: 127.0.0.1:')"
check "citus: ulid_key_create() on a worker is refused" 'ERROR:  key "w" cannot be created on a Citus worker' \
	"$(psqlx $W1 -c "SELECT ulid_key_create('w')" 2>&1 | head -1)"
for n in $W1 $W2 $W3; do
	cp -p "$(pg_data $C)/ulid_keyring" "$(pg_data $n)/ulid_keyring"
done
q "SELECT ulid_key_create('api')" >/dev/null
q "SELECT ulid_key_create('partner', '\\x000102030405060708090a0b0c0d0e0f')" >/dev/null
check "citus: ulid_check_keys() on the coordinator: each key on each node, no problem" \
	"3 api,3 partner|0" \
	"$(q "SELECT string_agg(n || ' ' || name, ',' ORDER BY name) FROM (SELECT name, count(*) AS n FROM ulid_check_keys() GROUP BY name) s")|$(q "SELECT count(*) FROM ulid_check_keys() WHERE problem IS NOT NULL")"
# the masks each worker computes in its shards, against the coordinator's
worker_masks="WITH w AS (SELECT split_part(x, '=', 1)::ulid AS id, split_part(x, '=', 2)::ulid AS m
	FROM run_command_on_shards('events', \$\$SELECT string_agg(id::text || '=' || ulid_mask(id, 'api')::text, ',') FROM %s\$\$) r,
	     unnest(string_to_array(r.result, ',')) x)
	SELECT count(*) || '|' || count(*) FILTER (WHERE m <> ulid_mask(id, 'api')) FROM w"
check "citus: ulid_mask() in every shard on the workers equals the coordinator's: 0 of 20000 differ" "20000|0" "$(q "$worker_masks")"
check "citus: a pushed-down mask and unmask round trip on the workers" "20000" \
	"$(q "SELECT count(*) FROM events WHERE ulid_unmask(ulid_mask(id, 'partner'), 'partner') = id")"
check "citus: the masks are refused in INSERT ... RETURNING (the README says what to write)" "ERROR" \
	"$(q "INSERT INTO events(n) VALUES (-1) RETURNING ulid_mask(id, 'api')" | grep -o 'ERROR' | head -1)"
check "citus: ... and the README's CTE masks the new id" "1" \
	"$(q "WITH i AS (INSERT INTO events(n) VALUES (-2) RETURNING id) SELECT count(*) FROM i WHERE ulid_unmask(ulid_mask(id, 'api'), 'api') = id")"
q "DELETE FROM events WHERE n < 0" >/dev/null
# a worker with another root: its rows are refused at once, never another mask
mv "$(pg_data $W2)/ulid_keyring" "$ULID_WORK/citus-w2-root"
printf '%064d\n' 5 >"$(pg_data $W2)/ulid_keyring"
chown postgres: "$(pg_data $W2)/ulid_keyring"
chmod 600 "$(pg_data $W2)/ulid_keyring"
check "citus: ulid_check_keys() names the worker whose root differs" \
	"$(pg_port $W2):api:it was made under another keyring root" \
	"$(q "SELECT string_agg(node_port || ':' || name || ':' || problem, ',') FROM ulid_check_keys() WHERE name = 'api' AND problem IS NOT NULL")"
check "citus: a mask in that worker's shards fails closed" "ERROR:  key \"api\" was made under another keyring root" \
	"$(q "SELECT count(ulid_mask(id, 'api')) FROM events" | grep -o 'ERROR:  key "api" was made under another keyring root' | head -1)"
mv "$ULID_WORK/citus-w2-root" "$(pg_data $W2)/ulid_keyring"

# min/max: pushed as min(id)/max(id), which each shard answers from its index
check "citus: min(id)/max(id) are pushed to the shards as min/max (no worker_partial_agg), each read from its shard's index" \
	"pushed|no partial|2 index scans" "$(minmax_plan)"
check "citus: min(id) and max(id) equal the first and last id" \
	"$(q "SELECT (SELECT id FROM events ORDER BY id LIMIT 1), (SELECT id FROM events ORDER BY id DESC LIMIT 1)")" \
	"$(q "SELECT min(id), max(id) FROM events")"
check "citus: min/max per group (pushed, combined on the coordinator)" "0|4" \
	"$(q "SELECT count(*) FILTER (WHERE mn <> first OR mx <> last), count(*) FROM (
	SELECT n % 4 AS k, min(id) AS mn, max(id) AS mx FROM events GROUP BY 1) g JOIN (
	SELECT DISTINCT ON (n % 4) n % 4 AS k, id AS first FROM events ORDER BY n % 4, id) f USING (k) JOIN (
	SELECT DISTINCT ON (n % 4) n % 4 AS k, id AS last FROM events ORDER BY n % 4, id DESC) l USING (k)")"
check "citus: min/max over no rows are NULL" "t" "$(q "SELECT min(id) IS NULL AND max(id) IS NULL FROM events WHERE n < 0")"

# --- INSERT ... SELECT with a Snowflake default: the defaults run on the workers
q "CREATE TABLE sf(id bigint PRIMARY KEY DEFAULT snowflake_next('twitter'), src ulid, how text);
   SELECT create_distributed_table('sf', 'id');
   INSERT INTO sf(src, how) SELECT id, 'select' FROM events;
   INSERT INTO sf(how) VALUES ('values'), ('values');
   INSERT INTO sf(how) SELECT 'series' FROM generate_series(1, 100)" >/dev/null
check "citus: INSERT ... SELECT from a distributed table gives 20102 unique Snowflake ids" "20102|20102" \
	"$(q "SELECT count(*), count(DISTINCT id) FROM sf")"
check "citus: each id's node is a node of the cluster: the workers for INSERT ... SELECT from a distributed table, the coordinator for VALUES and generate_series" \
	"select:1,2 series:0 values:0" \
	"$(q "SELECT string_agg(how || ':' || nodes, ' ' ORDER BY how) FROM (
	SELECT how, string_agg(DISTINCT snowflake_node(id, 'twitter')::text, ',') AS nodes FROM sf GROUP BY how) s")"
check "citus: every source row was copied once" \
	"$(q "SELECT md5(string_agg(id::text, ',' ORDER BY id)) FROM events")" \
	"$(q "SELECT md5(string_agg(src::text, ',' ORDER BY src)) FROM sf WHERE how = 'select'")"

# each INSERT ... SELECT id names the worker holding its source row's shard
# (the placement's group); $1 is the rows' how
minted_by_source() {
	q "SELECT count(*), count(*) FILTER (WHERE snowflake_node(s.id, 'twitter') = p.groupid)
	FROM sf s JOIN pg_dist_placement p ON p.shardid = get_shard_id_for_distribution_column('events', s.src)
	WHERE s.how = '$1'"
}
check "citus: each INSERT ... SELECT id names the worker that minted it (the group holding its source row's shard)" \
	"20000|20000" "$(minted_by_source select)"
# through the coordinator and through each worker: VALUES, INSERT ... SELECT
# of a local source, COPY
for n in $C $W1 $W2; do
	psqlx $n -c "INSERT INTO sf(how) VALUES ('$n values')" \
		-c "INSERT INTO sf(how) SELECT '$n series' FROM generate_series(1, 500)" >/dev/null
	seq 1 500 | sed "s/.*/$n copy/" | psqlx $n -c "COPY sf(how) FROM STDIN" >/dev/null
done
check "citus: through each node (VALUES, INSERT ... SELECT, COPY) the ids name the node that ran the statement" \
	"citus_c:0:1001 citus_w1:1:1001 citus_w2:2:1001" \
	"$(q "SELECT string_agg(n || ':' || nodes || ':' || c, ' ' ORDER BY n) FROM (
	SELECT split_part(how, ' ', 1) AS n, string_agg(DISTINCT snowflake_node(id, 'twitter')::text, ',') AS nodes, count(*) AS c
	FROM sf WHERE how LIKE 'citus_%' GROUP BY 1) s")"
check "citus: 0 duplicate ids among the 23105 rows" "23105|0" "$(q "SELECT count(*), count(*) - count(DISTINCT id) FROM sf")"

# polls until ulid_check_node_ids() reads $1
node_ids_are() { [ "$(node_ids)" = "$1" ]; }
all_groups="$pc:0:citus:0:f $p1:1:citus:1:f $p2:2:citus:2:f"

# a worker without a node id (worker 1 set to 'setting', no ulid.node_id)
# fails such a statement, and the check says why: on a cluster, a node id
# comes from Citus only
psqlx $W1 -c "ALTER SYSTEM SET ulid.node_id_source = 'setting'" -c "SELECT pg_reload_conf()" >/dev/null
not_setting="ulid.node_id is not used on a Citus cluster with other nodes (set ulid.node_id_source = 'citus')"
wait_until 10 node_ids_are "$pc:0:citus:0:f $p1:setting::f:$not_setting $p2:2:citus:2:f"
check "citus: ulid_check_node_ids() shows a worker without a node id, and why" \
	"$pc:0:citus:0:f $p1:setting::f:$not_setting $p2:2:citus:2:f" "$(node_ids)"
check "citus: INSERT ... SELECT fails with 55000 on a worker without a node id" "1|23105" \
	"$(q "\\set VERBOSITY verbose
	INSERT INTO sf(src, how) SELECT id, 'unset' FROM events" | grep -c '^ERROR:  55000: this server has no node id for Snowflake ids')|$(q "SELECT count(*) FROM sf")"

# one configuration with ulid.node_id = 1 copied to every node (the old
# way; 'setting' is the default source): every node refuses to mint, with
# the fix, whatever the statement
for n in $C $W1 $W2; do
	psqlx $n -c "ALTER SYSTEM SET ulid.node_id_source = 'setting'" -c "ALTER SYSTEM SET ulid.node_id = 1" \
		-c "SELECT pg_reload_conf()" >/dev/null
done
copied="$pc:setting::f:$not_setting $p1:setting::f:$not_setting $p2:setting::f:$not_setting"
wait_until 10 node_ids_are "$copied"
check "citus: ulid.node_id = 1 copied to every node: ulid_check_node_ids() shows no node id on each, and why" \
	"$copied" "$(node_ids)"
refused=0
for n in $C $W1 $W2; do
	e=$(sqlstate_of $n postgres "INSERT INTO sf(how) VALUES ('copied')")
	[ "$e" = "55000: this server has no node id for Snowflake ids" ] && refused=$((refused + 1))
	e=$(sqlstate_of $n postgres "SELECT cosid80_next()")
	[ "$e" = "55000: this server has no node id for COSID_80 ids" ] && refused=$((refused + 1))
done
check "citus: ulid.node_id = 1 copied to every node: VALUES, INSERT ... SELECT and cosid80_next() refuse (55000) on every node, 0 rows added" \
	"6|1|23105" "$refused|$(q "\\set VERBOSITY verbose
	INSERT INTO sf(src, how) SELECT id, 'copied' FROM events" | grep -c '^ERROR:  55000: this server has no node id for Snowflake ids')|$(q "SELECT count(*) FROM sf")"
check "citus: the refusal names the fix (ulid.node_id_source = 'citus' on every node)" \
	"Set ulid.node_id_source = 'citus' in the postgresql.conf of every node (each node's node id is then its Citus group id), then SELECT pg_reload_conf()." \
	"$(psqlx $W2 -c "SELECT snowflake_next('twitter')" 2>&1 | sed -n 's/^HINT:  //p')"

# ulid.node_ids copied to every node: the explicit-node form refuses
for n in $C $W1 $W2; do
	psqlx $n -c "ALTER SYSTEM RESET ALL" -c "ALTER SYSTEM SET ulid.node_ids = '0-100'" -c "SELECT pg_reload_conf()" >/dev/null
done
ids_unused="ulid.node_ids is not used on a Citus cluster with other nodes"
wait_until 10 node_ids_are "$pc:0:citus:0:f:$ids_unused $p1:1:citus:1:f:$ids_unused $p2:2:citus:2:f:$ids_unused"
check "citus: ulid.node_ids = '0-100' copied to every node: each owns its group only, and the check says why" \
	"$pc:0:citus:0:f:$ids_unused $p1:1:citus:1:f:$ids_unused $p2:2:citus:2:f:$ids_unused" "$(node_ids)"
check "citus: with ulid.node_ids copied, snowflake_next(layout, 42) refuses on every node (55000), its own node works" \
	"55000: this server does not own node 42|55000: this server does not own node 42|55000: this server does not own node 42|t" \
	"$(sqlstate_of $C postgres "SELECT snowflake_next('twitter', 42)")|$(sqlstate_of $W1 postgres "SELECT snowflake_next('twitter', 42)")|$(sqlstate_of $W2 postgres "SELECT snowflake_next('twitter', 42)")|$(psqlx $W2 -c "SELECT snowflake_node(snowflake_next('twitter', 2), 'twitter') = 2")"
for n in $C $W1 $W2; do psqlx $n -c "ALTER SYSTEM RESET ALL" -c "SELECT pg_reload_conf()" >/dev/null; done
wait_until 10 node_ids_are "$all_groups" || not_ok "citus: the nodes take their groups as node ids again"

# a group id beyond a layout's node bits (a layout of nodes 0 and 1, and
# worker 2): the check names the node and the layout, and the 22003 the
# worker raises points to a layout with more node bits
tiny="custom(time=41:ms:1288834974657, fields=host:1, sequence=12)"
q "CREATE TABLE tiny(id bigint DEFAULT snowflake_next('$tiny'), k int);
   SELECT create_distributed_table('tiny', 'k')" >/dev/null
tiny=$(q "SELECT '$tiny'::snowflake_layout")
check "citus: ulid_check_node_ids() names the worker whose group id does not fit a default's layout" \
	"$pc:0:citus:0:f $p1:1:citus:1:f $p2:2:citus:2:f:node id 2 does not fit the layout $tiny (nodes 0 to 1) that the default of public.tiny.id mints on" \
	"$(node_ids)"
check "citus: minting there fails with 22003, and the hint gives the fix on Citus (a layout with more node bits)" \
	"22003: node 2 does not fit the layout $tiny|The node is this node's Citus group id (ulid.node_id_source = 'citus'), and Citus gives every node it adds a new group id unless told one: give the column a layout whose node fields hold more bits (twitter's hold 10: nodes 0 to 1023)." \
	"$(sqlstate_of $W2 postgres "INSERT INTO tiny(k) VALUES (1)")|$(psqlx $W2 -c "INSERT INTO tiny(k) VALUES (1)" 2>&1 | sed -n 's/^HINT:  //p')"
q "DROP TABLE tiny" >/dev/null

# INSERT ... SELECT ... ORDER BY id LIMIT n where the target's defaulted
# column is also named id: the true first n rows (Citus before 13.2 sorted
# each shard by the default's output instead)
q "CREATE TABLE evr(id ulid PRIMARY KEY);
   SELECT create_distributed_table('evr', 'id');
   INSERT INTO evr SELECT id FROM (SELECT gen_ulid() AS id FROM generate_series(1, 20000)) s ORDER BY random();
   INSERT INTO sf(src, how) SELECT id, 'pull' FROM evr ORDER BY id LIMIT 100" >/dev/null
check "citus: INSERT ... SELECT id ... ORDER BY id LIMIT 100 inserts the first 100 source rows" "100|100" \
	"$(q "SELECT count(*), count(*) FILTER (WHERE src IN (SELECT id FROM evr ORDER BY id LIMIT 100)) FROM sf WHERE how = 'pull'")"

# a prepared statement with a ulid parameter runs; EXPLAIN EXECUTE cannot
# show its remote plan (Citus sends a non-built-in parameter type as unknown)
out=$(q "PREPARE by_id(ulid) AS SELECT n FROM events WHERE id = \$1;
	EXECUTE by_id('$one');
	EXPLAIN (COSTS OFF) EXECUTE by_id('$one')")
check "citus: EXECUTE with a ulid parameter finds the row; EXPLAIN EXECUTE shows no remote plan" "4242|1" \
	"$(head -1 <<<"$out")|$(grep -c 'Could not get remote plan' <<<"$out")"

# --- a colocated table and a colocated join -------------------------------------
q "CREATE TABLE items(event_id ulid, item_id ulid DEFAULT gen_ulid(), qty int, PRIMARY KEY (event_id, item_id));
   SELECT create_distributed_table('items', 'event_id', colocate_with => 'events');
   INSERT INTO items(event_id, qty) SELECT id, g FROM events, generate_series(1, 2) g;
   ALTER TABLE items ADD FOREIGN KEY (event_id) REFERENCES events(id)" >/dev/null
check "citus: items is colocated with events" "t" \
	"$(q "SELECT count(DISTINCT colocationid) = 1 FROM pg_dist_partition WHERE logicalrelid IN ('events'::regclass, 'items'::regclass)")"
plan=$(q "EXPLAIN (COSTS OFF) SELECT count(*) FROM events e JOIN items i ON i.event_id = e.id")
check "citus: the colocated join runs in the 8 shard pairs (no repartition)" "8|no" \
	"$(sed -n 's/^ *Task Count: //p' <<<"$plan" | head -1)|$(grep -qi 'repartition\|MapMergeJob' <<<"$plan" && echo yes || echo no)"
check "citus: the colocated join's result" "40000|60000" \
	"$(q "SELECT count(*), sum(i.qty) FROM events e JOIN items i ON i.event_id = e.id")"
check "citus: the join for one id is a router plan, with its two items" "1|2" \
	"$(tasks "SELECT * FROM events e JOIN items i ON i.event_id = e.id WHERE e.id = '$one'")|$(q "SELECT count(*) FROM events e JOIN items i ON i.event_id = e.id WHERE e.id = '$one'")"

# --- a reference table with a ulid key ---------------------------------------------
q "CREATE TABLE kinds(id ulid PRIMARY KEY DEFAULT gen_ulid(), name text UNIQUE);
   SELECT create_reference_table('kinds');
   INSERT INTO kinds(name) VALUES ('a'), ('b'), ('c');
   ALTER TABLE events ADD COLUMN kind ulid REFERENCES kinds(id);
   UPDATE events SET kind = (SELECT id FROM kinds WHERE name = chr(97 + n % 3))" >/dev/null
check "citus: the reference table is on every node" "3,3,3" \
	"$(q "SELECT string_agg(result, ',') FROM run_command_on_all_nodes('SELECT count(*) FROM kinds')")"
check "citus: a join with the reference table, per kind" "a:6666 b:6667 c:6667" \
	"$(q "SELECT string_agg(k.name || ':' || c, ' ' ORDER BY k.name) FROM (SELECT kind, count(*) AS c FROM events GROUP BY kind) e JOIN kinds k ON k.id = e.kind")"

# --- create_time_partitions on a ulid key -------------------------------------------
q "CREATE TABLE pevents(id ulid DEFAULT gen_ulid(), v int, PRIMARY KEY (id)) PARTITION BY RANGE (id);
   SELECT create_distributed_table('pevents', 'id', colocate_with => 'none');
   SELECT create_time_partitions('pevents', '1 day', now() + interval '2 days', now() - interval '1 day');
   INSERT INTO pevents(v) SELECT g FROM generate_series(1, 1000) g" >/dev/null
check "citus: create_time_partitions makes daily partitions bounded by ulid_lower(day)" "4|0" \
	"$(q "SELECT count(*), count(*) FILTER (WHERE from_value::ulid <> ulid_lower(date_trunc('day', ulid_time(from_value::ulid)))
	    OR to_value::ulid <> ulid_lower(ulid_time(from_value::ulid) + interval '1 day'))
	FROM time_partitions WHERE parent_table = 'pevents'::regclass")"
today=$(q "SELECT partition FROM time_partitions WHERE parent_table = 'pevents'::regclass
	AND from_value::ulid <= ulid_lower(now()) AND ulid_lower(now()) < to_value::ulid")
check "citus: rows with gen_ulid() land in today's partition" "1000|1000" \
	"$(q "SELECT count(*) FROM pevents")|$(q "SELECT count(*) FROM $today")"

# --- a third worker, rebalancing ----------------------------------------------------
checksum="SELECT md5(string_agg(id::text || n || coalesce(kind::text, ''), ',' ORDER BY id)) FROM events"
sums_before=$(q "$checksum; SELECT md5(string_agg(id::text || src, ',' ORDER BY id)) FROM sf WHERE src IS NOT NULL;
	SELECT md5(string_agg(event_id::text || item_id, ',' ORDER BY event_id, item_id)) FROM items")
# the new worker before it joins: a lone Citus node is group 0, the
# coordinator's id, so it refuses to mint (55000, saying how to join), and
# the check run on it says why; a session open on it takes group 3 as soon
# as citus_add_node() assigns it (the cached node id is dropped on the
# invalidation Citus sends)
psqlx $W3 -c "CREATE EXTENSION ulid" >/dev/null
lone="this node has not joined a Citus cluster: its group is 0, the coordinator's, and its pg_dist_node lists no node"
check "citus: a node that has not joined refuses to mint (55000), and the hint says how to join" \
	"55000: this server has no node id for Snowflake ids|55000: this server has no node id for COSID_80 ids|Join a cluster before minting: if this node is the coordinator, SELECT citus_set_coordinator_host('<its host>', <its port>) on it; if it is a worker, SELECT citus_add_node('<its host>', <its port>) on the coordinator." \
	"$(sqlstate_of $W3 postgres "SELECT snowflake_next('twitter')")|$(sqlstate_of $W3 postgres "SELECT cosid80_next()")|$(psqlx $W3 -c "SELECT snowflake_next('twitter')" 2>&1 | sed -n 's/^HINT:  //p')"
check "citus: ulid_check_node_ids() on a node that has not joined says why it has no node id" \
	"$p3:citus::f:$lone" "$(psqlx $W3 -c "SELECT string_agg(concat_ws(':', node_port, node_id, source, owned_nodes, shared, problem), ' ') FROM ulid_check_node_ids()")"
coproc W3S { psqlx $W3 2>&1; }
w3s_pid=$W3S_PID	# bash unsets W3S_PID as soon as the coprocess exits
echo "SELECT 'before', coalesce(node_id::text, 'none') FROM ulid_node_identity();" >&"${W3S[1]}"
read -r -t 20 w3_before <&"${W3S[0]}"
# Citus before 13.2.1 cannot add a node once a table is distributed by a
# ulid column (citusdata/citus#8363) unless the new node has the ulid
# extension already, as here
added=$(q "SELECT citus_add_node('127.0.0.1', $(pg_port $W3)) > 0" | grep -v '^WARNING')
echo "SELECT 'after', coalesce(node_id::text, 'none') FROM ulid_node_identity();" >&"${W3S[1]}"
read -r -t 20 w3_after <&"${W3S[0]}"
echo "\\q" >&"${W3S[1]}"
wait "$w3s_pid" 2>/dev/null
check "citus: an open session on the new worker has no node id before it joins, its group 3 after" \
	"before|none after|3" "$w3_before $w3_after"
check "citus: a third worker joins" "t" "$added"
q "SELECT rebalance_table_shards(shard_transfer_mode => 'block_writes')" >"$ULID_WORK/rebalance.log" 2>&1
check "citus: the rebalancer moves shards of every table onto the third worker" "events,items,pevents,sf" \
	"$(q "SELECT string_agg(DISTINCT logicalrelid::text, ',' ORDER BY logicalrelid::text)
	FROM pg_dist_shard JOIN pg_dist_shard_placement USING (shardid)
	WHERE nodeport = $(pg_port $W3) AND logicalrelid IN ('events'::regclass, 'items'::regclass, 'pevents'::regclass, 'sf'::regclass)")"
check_same "citus: events, sf and items are intact after rebalancing" "$sums_before" \
	"$(q "$checksum; SELECT md5(string_agg(id::text || src, ',' ORDER BY id)) FROM sf WHERE src IS NOT NULL;
	SELECT md5(string_agg(event_id::text || item_id, ',' ORDER BY event_id, item_id)) FROM items")"
check "citus: after rebalancing, still a router plan for id = const, and min/max from the indexes" \
	"1|pushed|no partial|2 index scans" "$(tasks "SELECT * FROM events WHERE id = '$one'")|$(minmax_plan)"
check "citus: every row is still in the shard its hash names" "0" \
	"$(q "WITH s AS (SELECT shardid, result::bigint AS rows FROM run_command_on_shards('events', 'SELECT count(*) FROM %s'))
	SELECT count(*) FROM s FULL JOIN (SELECT get_shard_id_for_distribution_column('events', id) AS shardid, count(*) AS rows FROM events GROUP BY 1) e USING (shardid)
	WHERE s.rows IS DISTINCT FROM e.rows")"
# keys on the worker added later: the README's statement copies the rows
q "SELECT run_command_on_workers(format('INSERT INTO ulid_keyring.keys VALUES (%L, %L, %L, %L) ON CONFLICT DO NOTHING', name, created, wrapped, fingerprint)) FROM ulid_keyring.keys" >/dev/null
check "citus: after a shard move, ulid_mask() in every shard equals the coordinator's: 0 of 20000 differ" "20000|0" "$(q "$worker_masks")"
check "citus: ulid_check_keys() after adding the worker: 4 nodes, each key on each, no problem" "4 api,4 partner|0" \
	"$(q "SELECT string_agg(n || ' ' || name, ',' ORDER BY name) FROM (SELECT name, count(*) AS n FROM ulid_check_keys() GROUP BY name) s")|$(q "SELECT count(*) FROM ulid_check_keys() WHERE problem IS NOT NULL")"
check "citus: the new worker mints Snowflake ids as node 3, its group" "3" \
	"$(psqlx $W3 -c "INSERT INTO sf(how) VALUES ('w3')" >/dev/null; q "SELECT snowflake_node(id, 'twitter') FROM sf WHERE how = 'w3'")"
q "INSERT INTO sf(src, how) SELECT id, 'select2' FROM events" >/dev/null
check "citus: after rebalancing, each INSERT ... SELECT id names the worker holding its source row's shard, on all three workers" \
	"20000|20000|1,2,3" "$(minted_by_source select2)|$(q "SELECT string_agg(DISTINCT snowflake_node(id, 'twitter')::text, ',') FROM sf WHERE how = 'select2'")"
check "citus: 0 duplicate ids in sf after rebalancing" "0" "$(q "SELECT count(*) - count(DISTINCT id) FROM sf")"
check "citus: ulid_check_node_ids() lists the four nodes, none shared" \
	"$all_groups $p3:3:citus:3:f" "$(node_ids)"

# --- a group id handed to another server (citus_add_node(..., groupid => N)) ---
# A fifth server joins as group 4 and the check records it; it is removed
# with citus_remove_node() but keeps running, and still mints on group 4
# (Citus leaves it its metadata); a new server added with groupid => 4 mints
# on 4 too.  The check names node id 4 as another server's (shared, with
# the fix) until the old server is stopped and its row deleted.
W4=citus_w4 W5=citus_w5
for n in $W4 $W5; do
	if ! ULID_PRELOAD='citus,ulid' pg_new_tcp $n "${conf[@]}" || ! pg_start $n ||
		! psqlx $n -c "CREATE EXTENSION citus" -c "CREATE EXTENSION ulid" >"$ULID_WORK/$n.citus.log" 2>&1; then
		sed 's/^/# /' "$ULID_WORK/$n.citus.log"
		not_ok "citus: server $n starts with citus and ulid"
		exit 1
	fi
done
p4=$(pg_port $W4) p5=$(pg_port $W5)
sysid() { psqlx "$1" -c "SELECT system_identifier FROM pg_control_system()"; }
q "SELECT citus_add_node('127.0.0.1', $p4)" >/dev/null
check "citus: a fifth server joins as node 4, and the check records its server" \
	"$all_groups $p3:3:citus:3:f $p4:4:citus:4:f|$p4:$(sysid $W4)" \
	"$(node_ids)|$(q "SELECT node_port || ':' || system_identifier FROM ulid_nodes.servers WHERE node_id = 4")"
q "SELECT citus_remove_node('127.0.0.1', $p4)" >/dev/null
q "SELECT citus_add_node('127.0.0.1', $p5, groupid => 4)" >/dev/null
check "citus: the removed server still mints on node 4, and so does the server added with groupid => 4" "4|4" \
	"$(psqlx $W4 -c "SELECT snowflake_node(snowflake_next('twitter'), 'twitter')")|$(psqlx $W5 -c "SELECT snowflake_node(snowflake_next('twitter'), 'twitter')")"
reused="node id 4 was another server's when first seen: 127.0.0.1:$p4, system identifier $(sysid $W4) (this one's is $(sysid $W5)); if that server still runs (a node removed with citus_remove_node keeps minting on its group), both mint equal ids: stop it, or set ulid.node_id_source = 'setting' there; then DELETE FROM ulid_nodes.servers WHERE node_id = 4 records this server"
check "citus: ulid_check_node_ids() names node id 4 as another server's now (shared), with the fix" \
	"$all_groups $p3:3:citus:3:f $p5:4:citus:4:t:$reused" "$(node_ids)"
pg_stop $W4 >/dev/null
q "DELETE FROM ulid_nodes.servers WHERE node_id = 4" >/dev/null
check "citus: with the old server stopped and its row deleted, the check records the new one and is clean" \
	"$all_groups $p3:3:citus:3:f $p5:4:citus:4:f|$p5:$(sysid $W5)" \
	"$(node_ids)|$(q "SELECT node_port || ':' || system_identifier FROM ulid_nodes.servers WHERE node_id = 4")"
check "citus: ulid_nodes.servers is readable by every role and written by superusers only" "t|f" \
	"$(q "SELECT has_table_privilege('public', 'ulid_nodes.servers', 'SELECT'), has_table_privilege('public', 'ulid_nodes.servers', 'INSERT')" | tr -d ' ')"
