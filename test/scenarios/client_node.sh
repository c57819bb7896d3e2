#!/usr/bin/env bash
# Node.js clients from npm, pinned in test/client/package-lock.json and
# installed by `npm ci`: node-postgres with pg-copy-streams (client.js),
# Knex, Drizzle ORM, TypeORM and Sequelize, each on its own database of one
# server that listens on 127.0.0.1.  Each "ok"/"not ok" line a program prints
# counts as one result.  Without Node.js, npm or the npm registry the
# scenario fails (it never skips).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

client=$ULID_ROOT/test/client
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	not_ok "client_node: Node.js and npm are installed (test/deps.sh installs them)"
	exit 1
fi
if ! (cd "$client" && timeout 180 npm ci --no-audit --no-fund --fetch-retries=1 --loglevel=error) \
	>"$ULID_WORK/npm-ci.log" 2>&1; then
	sed 's/^/# /' "$ULID_WORK/npm-ci.log"
	not_ok "client_node: npm ci installs the clients of package-lock.json (is the npm registry reachable?)"
	exit 1
fi
versions=$(cd "$client" && node -p "['pg', 'pg-copy-streams', 'knex', 'drizzle-orm', 'typeorm', 'sequelize']
	.map((p) => p + ' ' + require('./node_modules/' + p + '/package.json').version).join(', ')")
ok "client_node: npm ci installs $versions on Node.js $(node -v)"

S=client_node
if ! pg_new_tcp $S "ulid.node_id = 1" || ! pg_start $S; then
	not_ok "client_node: server on 127.0.0.1 starts"
	exit 1
fi
# program       its results' prefix
clients="client.js     node-postgres
t_knex.js     knex
t_drizzle.js  drizzle
t_typeorm.js  typeorm
t_sequelize.js sequelize"
while read -r prog name; do
	db=${name//-/_}
	psqlx $S -c "CREATE DATABASE $db" && ULID_DB=$db psqlx $S -c "CREATE EXTENSION ulid" ||
		{ not_ok "$name: database $db with the extension"; continue; }
	(cd "$client" && PGPORT=$(pg_port $S) PGDATABASE=$db timeout 60 node "$prog") >"$ULID_WORK/$db.out" 2>&1
	rc=$?
	relay_results "$name" "$ULID_WORK/$db.out"
	[ $rc -eq 0 ] || not_ok "$name: $prog exited with status $rc"
done <<<"$clients"
pg_stop $S
