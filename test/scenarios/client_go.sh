#!/usr/bin/env bash
# Go: pgx v4 from Debian's golang-github-jackc-pgx-v4-dev with Debian's Go
# (golang-go; both installed by test/deps.sh), built offline in GOPATH mode
# from /usr/share/gocode.  test/client/go/ulid_pgx.go checks strings,
# pgtype.UUID, ulid[] scanning, CopyFrom, generic plans and the simple
# protocol, the pitfalls with their exact errors and the README's recipes;
# each "ok"/"not ok" line counts.  A missing package is a failure (never a
# skip).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

GO=/usr/bin/go
pgx=/usr/share/gocode/src/github.com/jackc/pgx/v4
if [ ! -x "$GO" ] || [ ! -d "$pgx" ]; then
	not_ok "client_go: $GO and $pgx exist (Debian packages golang-go, golang-github-jackc-pgx-v4-dev; test/deps.sh installs them)"
	exit 1
fi
build=$ULID_WORK/go
mkdir -p "$build"
# GOPATH mode, no network: every import comes from Debian's /usr/share/gocode
client_build "client_go: ulid_pgx.go builds offline" "$build/build.log" \
	env -C "$ULID_ROOT/test/client/go" GO111MODULE=off GOPATH=/usr/share/gocode GOFLAGS= GOPROXY=off \
	GOCACHE="${ULID_GOCACHE:-$build/cache}" timeout 300 "$GO" build -o "$build/ulid_pgx" ulid_pgx.go || exit 1
echo "# $("$GO" version), pgx $(dpkg-query -W -f='${Version}' golang-github-jackc-pgx-v4-dev 2>/dev/null)"
S=client_go
client_server $S "ulid.node_id = 1" go || exit 1
run_client pgx "$build/out" timeout 60 "$build/ulid_pgx" "$(pg_port $S)" go
pg_stop $S
