#!/usr/bin/env bash
# ulid in PGlite: test/pglite/build.sh builds the bundle for the PGlite
# release pinned in test/pglite/package-lock.json, and test/pglite/test.mjs
# loads it there from Node.js (each "ok"/"not ok" line it prints counts as
# one result).  Skipped, with the reason, where the Emscripten toolchain is
# not set up (test/pglite/build.sh makes it once, as root: a Debian sid
# chroot with its emscripten and configured headers: 15 to 35 minutes on 2
# cores, 1.7 GB).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

pglite=$ULID_ROOT/test/pglite
if ! why=$("$pglite/build.sh" --check 2>&1); then
	skip "pglite: $(tail -1 <<<"$why")"
	exit 0
fi
out=$ULID_WORK/pglite
if ! ULID_PGLITE_OUT=$out "$pglite/build.sh" >"$ULID_WORK/pglite-build.log" 2>&1; then
	sed 's/^/# /' "$ULID_WORK/pglite-build.log"
	not_ok "pglite: test/pglite/build.sh builds the bundle"
	exit 1
fi
ok "pglite: $(tail -1 "$ULID_WORK/pglite-build.log")"
size=$(stat -c %s "$out/ulid.tar.gz")
check "pglite: the bundle is under 100 KB compressed" true "$([ "$size" -lt 102400 ] && echo true || echo "$size bytes")"
version=$(sed -n "s/^default_version *= *'\(.*\)'/\1/p" "$ULID_ROOT/ulid.control")
run_client pglite "$ULID_WORK/pglite.out" env ULID_PGLITE_BUNDLE="$out/ulid.tar.gz" ULID_VERSION="$version" \
	timeout 300 node "$pglite/test.mjs"
