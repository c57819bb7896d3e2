#!/usr/bin/env bash
# ulid in PGlite: test/pglite/build.sh builds the bundle for the PGlite
# release pinned in test/pglite/package-lock.json and writes it into the
# package clients/pglite; `npm pack` packs that package, and what it packed
# (unpacked) is what test/pglite/test.mjs loads in Node.js (dataDir) and
# test/pglite/browser.mjs in headless Chromium (idb://, a reload), served by
# a local HTTP server (each "ok"/"not ok" line they print counts as one
# result).  Skipped, with the reason, where the Emscripten toolchain is not
# set up (test/pglite/build.sh makes it once, as root: test/README.md,
# "PGlite"); the browser part is skipped where Debian's chromium is missing.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

pglite=$ULID_ROOT/test/pglite
pkg=$ULID_ROOT/clients/pglite
if ! why=$("$pglite/build.sh" --check 2>&1); then
	skip "pglite: $(tail -1 <<<"$why")"
	exit 0
fi
if ! "$pglite/build.sh" >"$ULID_WORK/pglite-build.log" 2>&1; then
	sed 's/^/# /' "$ULID_WORK/pglite-build.log"
	not_ok "pglite: test/pglite/build.sh builds the bundle"
	exit 1
fi
ok "pglite: $(tail -1 "$ULID_WORK/pglite-build.log")"
size=$(stat -c %s "$pkg/release/ulid.tar.gz")
check "pglite: the bundle is under 120 KB compressed" true "$([ "$size" -lt 122880 ] && echo true || echo "$size bytes")"

# the package as npm pack makes it: its files, its version (META.json's)
out=$ULID_WORK/pglite
mkdir -p "$out"
if ! (cd "$pkg" && npm pack --json --pack-destination "$out" >"$out/pack.json" 2>"$out/pack.err"); then
	sed 's/^/# /' "$out/pack.err"
	not_ok "pglite: npm pack of clients/pglite"
	exit 1
fi
check "pglite: npm pack's file list is the bundle, index.js, index.d.ts, README.md, LICENSE and package.json" \
	"LICENSE README.md package.json release/ulid.tar.gz src/index.d.ts src/index.js" \
	"$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1]))[0].files.map((f) => f.path).sort().join(" "))' "$out/pack.json")"
tar -xzf "$out"/pglite-ulid-*.tgz -C "$out"
check "pglite: the package's version is META.json's" \
	"$(node -p 'require(process.argv[1]).version' "$ULID_ROOT/META.json")" \
	"$(node -p 'require(process.argv[1]).version' "$out/package/package.json")"

version=$(sed -n "s/^default_version *= *'\(.*\)'/\1/p" "$ULID_ROOT/ulid.control")
run_client pglite "$ULID_WORK/pglite.out" env ULID_PGLITE_PACKAGE="$out/package" ULID_VERSION="$version" \
	timeout 300 node "$pglite/test.mjs"
if ! command -v "${ULID_CHROMIUM:-/usr/bin/chromium}" >/dev/null; then
	skip "pglite: no Chromium for the browser checks (apt-get install chromium, or set ULID_CHROMIUM)"
	exit 0
fi
run_client pglite-browser "$ULID_WORK/pglite-browser.out" env ULID_PGLITE_PACKAGE="$out/package" \
	timeout 400 node "$pglite/browser.mjs"
