#!/usr/bin/env bash
# ulid for PGlite: the bundle PGlite's extension loader takes (ulid.tar.gz:
# the WebAssembly side module, the control file and the SQL scripts), for the
# PGlite release pinned in test/pglite/package-lock.json, written into the
# npm package clients/pglite (release/ulid.tar.gz, not committed), whose
# version it sets to META.json's.
#
#   test/pglite/build.sh           build it (making the toolchain first if
#                                  missing: as root, 40 minutes or more on 2
#                                  cores: test/README.md, "PGlite")
#   test/pglite/build.sh --check   exit 0 when the toolchain and the headers
#                                  are ready, else say why and exit 1 (builds
#                                  nothing: test/scenarios/pglite.sh skips)
#
# What PGlite is built with comes from its npm package: the PostgreSQL and
# Emscripten versions (pglite.wasm) and the CFLAGS and LDFLAGS_SL of its own
# extensions (the Makefile.global packed in pglite.data; -D__PGLITE__ among
# them: src/compat.h).  The side module must be made by an Emscripten of the
# same major version: 3.x modules call setjmp helpers (saveSetjmp,
# testSetjmp) that a 6.x runtime no longer has.  Debian 12 has 3.1.6, so the
# toolchain is a debootstrap chroot of Debian $ULID_PGLITE_SUITE (default
# sid) with its emscripten package.  The PostgreSQL headers come from
# Debian's source package of PGlite's major, unpacked as upstream released
# it, configured for wasm32 with emconfigure (no server is built: configure
# and the generated headers).  Both are cached; a later run only compiles
# ulid (under a minute).  After linking, every import of the side module is
# checked against what PGlite's main module exports (wasm.mjs): PGlite
# exports only what its own extensions use, and a missing symbol would fail
# at load or abort the instance when called.
#
# Environment:
#   ULID_PGLITE_CACHE   toolchain and headers (default /var/cache/ulid-pglite
#                       as root, else ~/.cache/ulid-pglite)
#   ULID_PGLITE_SUITE   the Debian suite of the toolchain (default sid)
#   ULID_PGLITE_OUT     where ulid.tar.gz goes (default clients/pglite/release)
#   PG_CFLAGS           added to PGlite's CFLAGS (e.g. '-Wall -Wextra -Werror')
# The last line names the bundle, its size and the versions it was built for
# and with.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

# --- inside the chroot: the headers, then the side module -------------------
# build.sh --inner headers MAJOR: /build/pgMAJOR (configured source tree)
# build.sh --inner module: /build/ulid.so from /ulid (the repository)
if [ "${1:-}" == --inner ]; then
	cd /build
	if [ "$2" == headers ]; then
		major=$3
		rm -rf src "pg$major" && mkdir src
		(cd src && apt-get -qq -o APT::Sandbox::User=root source -d "postgresql-$major")
		mkdir "pg$major"
		tar -xf src/postgresql-"$major"_*.orig.tar.* -C "pg$major" --strip-components=1
		cd "pg$major"
		# the template of a Unix without the server's platform code: only
		# the headers are used, with PGlite's own CFLAGS
		nice emconfigure ./configure --host=wasm32-unknown-emscripten --with-template=linux \
			--without-icu --without-readline --without-zlib --without-openssl --disable-nls >configure.log 2>&1 ||
			{ tail -30 configure.log; exit 1; }
		nice make -C src/backend generated-headers >make.log 2>&1 || { tail -30 make.log; exit 1; }
		basename ../src/*.dsc .dsc | sed 's/.*_//' >debian-version
		exit 0
	fi
	# shellcheck source=/dev/null
	source /build/flags.sh
	rm -rf obj && mkdir obj
	for f in /ulid/src/*.c /ulid/src/pglite/*.c /ulid/src/core/*.c; do
		# src/pglite/no_wal.c instead (src/compat.h)
		case $f in /ulid/src/floor_wal.c | /ulid/src/advance_tables.c | /ulid/src/stable_bound.c) continue ;; esac
		# shellcheck disable=SC2086
		nice emcc $PGLITE_CFLAGS $EXTRA_CFLAGS -fvisibility=hidden -I/ulid/src -I/ulid/src/core \
			-isystem "/build/pg$PGLITE_PG_MAJOR/src/include" -c "$f" -o "obj/$(basename "$f" .c).o"
	done
	# shellcheck disable=SC2086
	emcc $PGLITE_CFLAGS -Os $PGLITE_LDFLAGS_SL -o ulid.so obj/*.o 2>&1 | grep -v 'not yet stable' || true
	exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
	cache=${ULID_PGLITE_CACHE:-/var/cache/ulid-pglite}
else
	cache=${ULID_PGLITE_CACHE:-$HOME/.cache/ulid-pglite}
fi
suite=${ULID_PGLITE_SUITE:-sid}
out=${ULID_PGLITE_OUT:-$root/clients/pglite/release}
r=$cache/$suite-root
say() { echo "pglite: $*" >&2; }

# shellcheck disable=SC2016 # the bash -c script takes its arguments as $1...
# in_root COMMAND...: run a command in the chroot, with /proc, /dev and the
# repository (read-only, at /ulid) mounted in a private mount namespace
in_root() {
	mkdir -p "$r/ulid" "$r/build"
	unshare --mount --propagation private -- bash -c \
		'r=$1 src=$2; shift 2; mount -t proc proc "$r/proc" && mount --rbind /dev "$r/dev" &&
		mount --bind "$src" "$r/ulid" && mount -o remount,bind,ro "$r/ulid" && exec chroot "$r" "$@"' \
		_ "$r" "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
		DEBIAN_FRONTEND=noninteractive "$@"
}

no_toolchain="no Emscripten toolchain in $r (test/pglite/build.sh makes it and the headers once, as root: 40 minutes or more on 2 cores, 1.7 GB)"
if [ "${1:-}" == --check ] && [ ! -f "$r/.ulid-pglite-stamp" ]; then
	echo "$no_toolchain"
	exit 1
fi

# the PGlite release, as package-lock.json pins it
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	echo "Node.js and npm are not installed (test/deps.sh installs them)"
	exit 1
fi
if [ ! -f "$here/node_modules/@electric-sql/pglite/package.json" ] &&
	! (cd "$here" && timeout 180 npm ci --no-audit --no-fund --loglevel=error) >&2; then
	say "npm ci failed: is the npm registry reachable?"
	exit 1
fi
dist=$here/node_modules/@electric-sql/pglite/dist
eval "$(node "$here/wasm.mjs" flags "$dist")"
want=${PGLITE_EMCC_VERSION%%.*}

# toolchain_ready: sets have (the chroot's Emscripten version); says why not
have=''
toolchain_ready() {
	[ -f "$r/.ulid-pglite-stamp" ] || {
		echo "$no_toolchain"
		return 1
	}
	have=$(in_root emcc --version 2>/dev/null | sed -nE '1s/.* ([0-9]+\.[0-9]+\.[0-9]+).*/\1/p')
	[ "${have%%.*}" == "$want" ] || {
		echo "Debian $suite's Emscripten is ${have:-missing}; PGlite $PGLITE_VERSION was built with $PGLITE_EMCC_VERSION (major $want needed)"
		return 1
	}
}

stamp=$r/build/pg$PGLITE_PG_MAJOR/.ulid-pglite-stamp
if [ "${1:-}" == --check ]; then
	toolchain_ready || exit 1
	[ "$(cat "$stamp" 2>/dev/null)" == "$have" ] || {
		echo "the PostgreSQL $PGLITE_PG_MAJOR headers are not configured for Emscripten $have yet (test/pglite/build.sh does it once: 35 minutes or more on 2 cores)"
		exit 1
	}
	echo "Emscripten $have (Debian $suite) for PGlite $PGLITE_VERSION (Emscripten $PGLITE_EMCC_VERSION)"
	exit 0
fi

# --- the toolchain: a chroot of the suite with its emscripten ---------------
# (the stamp lists the packages: a change installs the new list)
pkgs="emscripten make bison flex perl bzip2 xz-utils"
if [ ! -d "$r" ]; then
	# shellcheck source=../apt.sh
	source "$here/../apt.sh"
	mapfile -t host_pkgs < <(apt_missing debootstrap debian-archive-keyring)
	apt_install pglite "${host_pkgs[@]}"
	mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list 2>/dev/null |
		grep -v '^ *#' | grep -oE 'https?://[^ ]*/debian/?( |$)' | head -1 | tr -d ' ' || true)
	mirror=${mirror:-http://deb.debian.org/debian}
	mkdir -p "$cache"
	say "debootstrap $suite into $r (log: $cache/setup.log)"
	rm -rf "$r.new"
	nice debootstrap --variant=minbase --keyring=/usr/share/keyrings/debian-archive-keyring.gpg \
		"$suite" "$r.new" "$mirror" >"$cache/setup.log" 2>&1 || { tail -20 "$cache/setup.log" >&2; exit 1; }
	mv "$r.new" "$r"
	cp /etc/hosts /etc/resolv.conf "$r/etc/"
	sed 's/^deb /deb-src /' "$r/etc/apt/sources.list" >"$r/etc/apt/sources.list.d/src.list"
	# the mirror may be a snapshot past its Valid-Until (signatures still checked)
	echo 'Acquire::Check-Valid-Until "false";' >"$r/etc/apt/apt.conf.d/99ulid-pglite"
fi
if [ "$(cat "$r/.ulid-pglite-stamp" 2>/dev/null)" != "$pkgs" ]; then
	say "installing $pkgs in $r"
	# shellcheck disable=SC2086
	in_root bash -c 'apt-get -qq update && nice apt-get install -y -qq --no-install-recommends "$@"' _ $pkgs \
		>>"$cache/setup.log" 2>&1 || { tail -20 "$cache/setup.log" >&2; exit 1; }
	echo "$pkgs" >"$r/.ulid-pglite-stamp"
fi
toolchain_ready >&2 || exit 1

# --- the headers: Debian's postgresql-MAJOR, configured for wasm32 ----------
if [ "$(cat "$stamp" 2>/dev/null)" != "$have" ]; then
	say "configuring Debian's postgresql-$PGLITE_PG_MAJOR for wasm32 with Emscripten $have (once: 35 minutes or more on 2 cores)"
	in_root /ulid/test/pglite/build.sh --inner headers "$PGLITE_PG_MAJOR" >&2
	echo "$have" >"$stamp"
fi
headers=$(cat "$r/build/pg$PGLITE_PG_MAJOR/debian-version")

# --- the side module, checked against PGlite's exports ----------------------
{
	declare -p PGLITE_CFLAGS PGLITE_LDFLAGS_SL PGLITE_PG_MAJOR
	# PostgreSQL's function headers leave parameters unused
	# -Os after PGlite's -O2: the bundle is downloaded by browsers
	echo "EXTRA_CFLAGS='${PG_CFLAGS:-} -Wno-unused-parameter -Os'"
} >"$r/build/flags.sh"
rm -f "$r/build/ulid.so"
say "compiling ulid with Emscripten $have"
in_root /ulid/test/pglite/build.sh --inner module >&2
[ -f "$r/build/ulid.so" ] || { say "no side module was built"; exit 1; }
if ! missing=$(node "$here/wasm.mjs" imports "$dist" "$r/build/ulid.so"); then
	say "ulid.so needs symbols PGlite $PGLITE_VERSION does not export (see src/compat.h): ${missing//$'\n'/ }"
	exit 1
fi

# --- the bundle --------------------------------------------------------------
# the control file, the current version's script and the upgrade scripts from
# 1.2 on (the first version with a PGlite bundle: no older one can be there)
version=$(sed -n "s/^default_version *= *'\(.*\)'/\1/p" "$root/ulid.control")
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/lib/postgresql" "$stage/share/postgresql/extension"
cp "$r/build/ulid.so" "$stage/lib/postgresql/"
cp "$root/ulid.control" "$stage/share/postgresql/extension/"
cp "$root/sql/ulid.sql" "$stage/share/postgresql/extension/ulid--$version.sql"
for f in "$root"/sql/ulid--*--*.sql; do
	from=${f##*/ulid--}
	from=${from%%--*}
	if [ "$(printf '%s\n' 1.2 "$from" | sort -V | head -1)" == 1.2 ]; then
		cp "$f" "$stage/share/postgresql/extension/"
	fi
done
mkdir -p "$out"
tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -c lib share | gzip -9n >"$out/ulid.tar.gz"
# the package's version is the extension's (META.json's): written, never typed
node -e 'const fs = require("fs"), [meta, pkg] = process.argv.slice(1);
	const v = JSON.parse(fs.readFileSync(meta)).version, text = fs.readFileSync(pkg, "utf8");
	const next = text.replace(/"version": "[^"]*"/, `"version": "${v}"`);
	if (next !== text) { fs.writeFileSync(pkg, next); console.error(`pglite: ${pkg}: version ${v}`); }' \
	"$root/META.json" "$root/clients/pglite/package.json"
echo "$out/ulid.tar.gz: $(stat -c %s "$out/ulid.tar.gz") bytes (ulid.so $(stat -c %s "$r/build/ulid.so")) for PGlite $PGLITE_VERSION" \
	"(PostgreSQL $PGLITE_PG_VERSION, Emscripten $PGLITE_EMCC_VERSION), built with Debian $suite's Emscripten $have" \
	"and postgresql-$PGLITE_PG_MAJOR $headers's headers"
