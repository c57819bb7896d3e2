#!/usr/bin/env bash
# The Node.js adapter (clients/node, npm "ulid-pg") with the clients pinned in
# clients/node/test/package-lock.json, installed by `npm ci` from npm:
# node-postgres with pg-copy-streams (client.js), Prisma's adapter-pg, Knex,
# Drizzle ORM, TypeORM and Sequelize, each on its own database of one server
# (and TypeScript, which type-checks the declarations: t_types.js)
# on 127.0.0.1.  ulid-pg is packed with `npm pack` (the build check) and that
# tarball is unpacked into the tests' node_modules.  Each "ok"/"not ok" line a program
# prints counts.  Without Node.js, npm or the npm registry the scenario fails
# (it never skips).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	not_ok "client_node: Node.js and npm are installed (test/deps.sh installs them)"
	exit 1
fi
build=$ULID_WORK/node
mkdir -p "$build"
cp -a "$ULID_ROOT/clients/node/test" "$build/test"
rm -rf "$build/test/node_modules"
client_build "client_node: npm pack packs ulid-pg" "$build/pack.log" \
	env -C "$ULID_ROOT/clients/node" npm pack --pack-destination "$build" --loglevel=error || exit 1
tgz=$(cd "$build" && ls ulid-pg-*.tgz)
# the tarball as npm would install it (it has no dependencies of its own)
if ! (cd "$build/test" && timeout 300 npm ci --no-audit --no-fund --fetch-retries=1 --loglevel=error &&
	mkdir node_modules/ulid-pg && tar -xzf "../$tgz" --strip-components=1 -C node_modules/ulid-pg) >"$build/npm-ci.log" 2>&1; then
	sed 's/^/# /' "$build/npm-ci.log"
	not_ok "client_node: npm ci installs the clients of package-lock.json and $tgz (is the npm registry reachable?)"
	exit 1
fi
versions=$(cd "$build/test" && node -p "['ulid-pg', 'pg', 'pg-copy-streams', '@prisma/adapter-pg', 'knex', 'drizzle-orm', 'typeorm', 'sequelize', 'typescript']
	.map((p) => p + ' ' + require('./node_modules/' + p + '/package.json').version).join(', ')")
ok "client_node: $tgz packed; npm ci installs $versions on Node.js $(node -v)"
skip "client_node: Prisma's generated client (prisma generate downloads its engine binary from Prisma's servers, unreachable here); t_prisma.js tests adapter-pg, where the client reads its rows"

S=client_node
if ! pg_new_tcp $S "ulid.node_id = 1" || ! pg_start $S; then
	not_ok "client_node: server on 127.0.0.1 starts"
	exit 1
fi
# program       its results' prefix
clients="client.js     node-postgres
t_prisma.js   prisma
t_knex.js     knex
t_drizzle.js  drizzle
t_typeorm.js  typeorm
t_sequelize.js sequelize
t_types.js    types"
while read -r prog name; do
	db=${name//-/_}
	psqlx $S -c "CREATE DATABASE $db" && ULID_DB=$db psqlx $S -c "CREATE EXTENSION ulid" ||
		{ not_ok "$name: database $db with the extension"; continue; }
	limit=60
	[ "$prog" = t_types.js ] && limit=300  # tsc: 7 s of CPU, 52 s at load 10 on 2 cores
	(cd "$build/test" && PGPORT=$(pg_port $S) PGDATABASE=$db timeout $limit node "$prog") >"$ULID_WORK/$db.out" 2>&1
	rc=$?
	relay_results "$name" "$ULID_WORK/$db.out"
	[ $rc -eq 0 ] || not_ok "$name: $prog exited with status $rc"
done <<<"$clients"
pg_stop $S
