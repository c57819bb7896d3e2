#!/usr/bin/env bash
# The Go adapter (clients/go, package ulidpg) with pgx v4 from Debian's
# golang-github-jackc-pgx-v4-dev and Debian's Go (golang-go; both installed
# by test/deps.sh), built offline in GOPATH mode from /usr/share/gocode:
# go vet and the unit tests (the build check), then clients/go/test/main.go
# against a server, without ulidpg.Register (the gaps, with their exact
# errors) and with it; each "ok"/"not ok" line counts.  A missing package is
# a failure (never a skip).
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
pkg=$build/gopath/src/github.com/ulid-pg/ulid/clients/go
mkdir -p "$(dirname "$pkg")"
cp -a "$ULID_ROOT/clients/go" "$pkg"
# GOPATH mode, no network: every import comes from the copy above and Debian's /usr/share/gocode
gocmd() {
	env -C "$pkg" GO111MODULE=off GOPATH="$build/gopath:/usr/share/gocode" GOFLAGS= GOPROXY=off \
		GOCACHE="${ULID_GOCACHE:-$build/cache}" timeout 300 "$GO" "$@"
}
client_build "client_go: go vet ulidpg" "$build/vet.log" gocmd vet . ./test || exit 1
if gocmd test . >"$build/test.log" 2>&1; then
	ok "client_go: go test ulidpg ($(tail -1 "$build/test.log" | cut -f1,2 | tr '\t' ' '))"
else
	sed 's/^/# /' "$build/test.log" | tail -30
	not_ok "client_go: go test ulidpg"
fi
client_build "client_go: test/main.go builds offline" "$build/build.log" gocmd build -o "$build/ulid_pgx" ./test || exit 1
echo "# $("$GO" version), pgx $(dpkg-query -W -f='${Version}' golang-github-jackc-pgx-v4-dev 2>/dev/null)"
S=client_go
client_server $S "ulid.node_id = 1" go || exit 1
run_client ulidpg "$build/out" timeout 60 "$build/ulid_pgx" "$(pg_port $S)" go
# Register behind pgbouncer in transaction mode (Debian's pgbouncer)
if pgbouncer_start pgbouncer $S; then
	echo "# $(pgbouncer --version | head -1), pool_mode = transaction, default_pool_size = 2"
	run_client pgbouncer "$build/pgbouncer.out" timeout 60 "$build/ulid_pgx" "$(pg_port pgbouncer)" go pgbouncer
	pgbouncer_stop pgbouncer
else
	skip "client_go: behind pgbouncer (not installed, or it did not start: apt-get install pgbouncer)"
fi
pg_stop $S
