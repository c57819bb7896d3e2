#!/usr/bin/env bash
# A real client: test/client/client.js, with node-postgres (npm "pg") and
# pg-copy-streams installed by `npm ci` from test/client/package-lock.json,
# connects over the unix socket of its own server and checks bind
# parameters, text results, uuid parameters with an explicit cast, binary
# parameters and results, error fields, and the exact bytes of
# COPY ... TO STDOUT (FORMAT binary) and COPY ... FROM STDIN (FORMAT binary).
# Each "ok"/"not ok" line the client prints counts as one result.  Without
# Node.js, npm or the npm registry the scenario fails (it never skips).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

client=$ULID_ROOT/test/client
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	not_ok "node_client: Node.js and npm are installed (test/deps.sh installs them)"
	exit 1
fi
if ! (cd "$client" && timeout 180 npm ci --no-audit --no-fund --fetch-retries=1 --loglevel=error) \
	>"$ULID_WORK/npm-ci.log" 2>&1; then
	sed 's/^/# /' "$ULID_WORK/npm-ci.log"
	not_ok "node_client: npm ci installs pg and pg-copy-streams (is the npm registry reachable?)"
	exit 1
fi
ok "node_client: npm ci installs pg $(node -p "require('$client/node_modules/pg/package.json').version") and pg-copy-streams $(node -p "require('$client/node_modules/pg-copy-streams/package.json').version") on Node.js $(node -v)"

S=node_client
if ! pg_new $S || ! pg_start $S; then
	not_ok "node_client: server starts"
	exit 1
fi
PGHOST=$ULID_WORK/sock PGPORT=$(pg_port $S) timeout 60 node "$client/client.js" >"$ULID_WORK/node-client.out"
rc=$?
while IFS= read -r line; do
	case $line in
	"ok - "*) ok "node-postgres: ${line#ok - }" ;;
	"not ok - "*) not_ok "node-postgres: ${line#not ok - }" ;;
	*) echo "# $line" ;;
	esac
done <"$ULID_WORK/node-client.out"
[ $rc -eq 0 ] || not_ok "node_client: the client exited with status $rc"
pg_stop $S
