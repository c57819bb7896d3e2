#!/usr/bin/env bash
# Build and install Citus from a source tree you name, into the PostgreSQL
# that ulid's tests use (PG_CONFIG, by default Debian's PostgreSQL 15), so
# that test/scenarios/citus.sh runs instead of being skipped.
#
#   test/citus-build.sh /path/to/citus-source
#
# The tree must be Citus v13.2.2, the pinned tag.  Earlier 13.x releases
# insert the wrong rows for INSERT INTO t(...) SELECT id, ... FROM src ORDER BY
# id LIMIT n when t's defaulted column is also named id (the shard query
# orders by the default's output: test/scenarios/citus.sh checks this form).
# The script applies a two-line fix (PostgreSQL 15.20's commands/dbcommands.h
# exports have_createdb_privilege(), which Citus 13.2's PostgreSQL 15 shim
# defines as a static function too).  Any other version is refused.  Get the
# tree with
#   git clone --branch v13.2.2 --depth 1 https://github.com/citusdata/citus
# or unpack the v13.2.2 release tarball.  Citus is built in that tree (keep it
# outside this repository); nothing of it is copied here.
#
# Environment: PG_CONFIG; CITUS_WITH_LLVM=yes also builds and installs the
# LLVM bitcode for JIT inlining (off by default: it doubles the build time).
# Needs root (apt-get for the build dependencies, make install into the
# server's directories).
set -euo pipefail

pinned=13.2.2
pinned_commit=cc91f4c29cc358f66e70eb1ef204a45999933926

if [ $# -ne 1 ] || [ ! -f "$1/configure" ]; then
	echo "usage: $0 /path/to/citus-source   (a Citus v$pinned tree with its configure script)" >&2
	exit 2
fi
src=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)
case $src/ in
"$here"/*)
	echo "citus-build: $src is inside the ulid repository; put the Citus tree elsewhere" >&2
	exit 2
	;;
esac
if [ -z "${PG_CONFIG:-}" ]; then
	if [ -x /usr/lib/postgresql/15/bin/pg_config ]; then
		PG_CONFIG=/usr/lib/postgresql/15/bin/pg_config
	else
		PG_CONFIG=pg_config
	fi
fi
pg_major=$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')

# --- the tree's version --------------------------------------------------------
version=$(sed -n "s/^PACKAGE_VERSION='\(.*\)'$/\1/p" "$src/configure")
if [ "$version" != "$pinned" ]; then
	# a shallow clone (--depth 1 --branch) holds no other tag to check out:
	# fetch the pinned one first
	echo "citus-build: $src is Citus '${version:-unknown}'; this script builds v$pinned." \
		"Get that tag: git -C $src fetch --depth 1 origin tag v$pinned && git -C $src checkout v$pinned" \
		"(or clone it: git clone --branch v$pinned --depth 1 https://github.com/citusdata/citus)" >&2
	exit 1
fi
want_commit=$pinned_commit
if [ -e "$src/.git" ]; then
	commit=$(git -C "$src" rev-parse HEAD)
	if [ "$commit" != "$want_commit" ]; then
		echo "citus-build: $src says $version but its commit is $commit, not v$version ($want_commit)" >&2
		exit 1
	fi
fi
echo "citus-build: Citus $version from $src, for PostgreSQL $pg_major ($PG_CONFIG)"

# --- build dependencies, from Debian's archive ------------------------------------
pkgs=("postgresql-server-dev-$pg_major" make gcc libcurl4-openssl-dev liblz4-dev libzstd-dev
	libkrb5-dev libssl-dev libselinux1-dev libxslt1-dev libpam0g-dev libreadline-dev zlib1g-dev)
# shellcheck source=apt.sh
source "$(dirname "$0")/apt.sh"
mapfile -t missing < <(apt_missing "${pkgs[@]}")
apt_install citus-build "${missing[@]}"

# --- rename Citus 13.2's static have_createdb_privilege ---------------------------
compat=$src/src/include/pg_version_compat.h
if ! grep -q 'define have_createdb_privilege citus_have_createdb_privilege' "$compat"; then
	echo "citus-build: patching $compat (have_createdb_privilege)"
	sed -i '/^static inline bool$/{N;s/^static inline bool\nhave_createdb_privilege(void)$/\/* PostgreSQL 15 minors export have_createdb_privilege() from dbcommands.h *\/\n#define have_createdb_privilege citus_have_createdb_privilege\n&/}' "$compat"
	grep -q 'define have_createdb_privilege citus_have_createdb_privilege' "$compat" || {
		echo "citus-build: could not patch $compat" >&2
		exit 1
	}
fi

# --- configure, build, install -------------------------------------------------
llvm=()
[ "${CITUS_WITH_LLVM:-no}" = yes ] || llvm=(with_llvm=no)
cd "$src"
./configure PG_CONFIG="$PG_CONFIG" >config.out 2>&1 || {
	tail -30 config.out >&2
	echo "citus-build: configure failed (see $src/config.log)" >&2
	exit 1
}
make -j2 "${llvm[@]}" >make.out 2>&1 || {
	grep -E 'error|Error' make.out | head -30 >&2
	echo "citus-build: make failed (see $src/make.out)" >&2
	exit 1
}
make "${llvm[@]}" install >make-install.out 2>&1 || {
	tail -30 make-install.out >&2
	echo "citus-build: make install failed (see $src/make-install.out)" >&2
	exit 1
}
echo "citus-build: installed ${DESTDIR:-}$("$PG_CONFIG" --pkglibdir)/citus.so and" \
	"${DESTDIR:-}$("$PG_CONFIG" --sharedir)/extension/citus.control (Citus $version)"
