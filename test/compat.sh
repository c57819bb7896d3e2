#!/usr/bin/env bash
# shellcheck disable=SC2016 # the bash -c scripts below take their arguments as $1...
# ulid's compatibility command: the whole test suite on every supported
# PostgreSQL major, one major after the other.
#
#   test/compat.sh              15 17 18 19 (19 only while Debian has it)
#   test/compat.sh 17 18        only these majors
#
# 15 is Debian 12's package (test/deps.sh installs it).  The others come from
# Debian's archive, through apt with a private configuration (its own
# sources list with a deb-src line per suite, its own lists, cache and state
# directories: the machine's apt setup is untouched; indexes are verified
# with debian-archive-keyring):
#   17  postgresql-17 from Debian 13 "trixie"
#   18  postgresql-18 from "sid"
#   19  postgresql-19 from "experimental" (skipped while it is not there)
# The source package is downloaded (apt-get source -d), unpacked without
# Debian's patches (dpkg-source -x --skip-patches: the upstream tree) and
# built into a private prefix with --enable-cassert, with pg_regress,
# pg_isolation_regress and all of contrib (the tests use pageinspect,
# amcheck, uuid-ossp, ...), as Debian's server packages have them.
# Where the mirror serves the suite's index but not the source package's
# files, the command falls back to Debian's binary packages of that suite,
# installed in a private chroot made by debootstrap, and runs the suite
# inside it (so what is tested is what a Debian user of that suite runs).
# Run it as root (debootstrap, chroot, a private mount namespace).
#
# Everything is cached in $ULID_COMPAT_CACHE: pgNN/ (a source build) or
# pgNN-root/ (a chroot), each with a stamp file; a later run reuses them
# without downloading or building again.  ULID_COMPAT_REFRESH=1 looks for
# newer versions and rebuilds (or upgrades) a major whose version changed.
#
# Each major runs test/run on a copy of this tree (the in-tree build is left
# alone) with PG_CONFIG pointing at that server: ulid is built against it and
# every layer runs on throwaway servers of that version.
#
# Environment:
#   ULID_COMPAT_CACHE      cache dir (default /var/cache/ulid-compat as root,
#                          else ~/.cache/ulid-compat); it must be readable by
#                          the postgres user, who runs the servers
#   ULID_COMPAT_MIRROR     Debian mirror (default: the one /etc/apt uses)
#   ULID_COMPAT_LAYERS     test/run layers (default: all of them)
#   ULID_COMPAT_REFRESH=1  look for newer versions
#   ULID_COMPAT_CONFIGURE  extra configure options for source builds
#   ULID_COMPAT_JOBS       make -j for source builds (default 2)
#   ULID_COMPAT_RESULTS    a file for every test's ok / not ok line
#   PG_CFLAGS              for ulid's build (default '-Wall -Wextra -Werror')
#   other ULID_* variables (ULID_FUZZ_SECONDS, ...) are passed to test/run
# Output: progress on stderr; test/run's log per major in
# $ULID_COMPAT_CACHE/logs/; one "pgNN: N passed, N failed" line per major,
# a summary table and last the totals "N passed, N failed".  The exit status
# is non-zero when any major failed (17 and 18 must be available; 19 is
# skipped while Debian has no postgresql-19).
#
# test/compat.sh --source DIR [MAJOR] tests a PostgreSQL source tree the
# caller names: 16 (no Debian suite has it) or the development branch (a
# checkout of master), or any release tree.  Its version, and so its major,
# is read from DIR/configure (MAJOR, if given, must match).  DIR is built as
# the source packages above are (build_tree: --enable-cassert, contrib,
# pg_regress, pg_isolation_regress), out of tree (DIR is not written to),
# into $ULID_COMPAT_CACHE/pgNN-tree, reused while the version, DIR and its
# commit (git, or a release tarball's .gitrevision) are the same; then
# test/run's unit, regress and isolation layers run on it
# (ULID_COMPAT_LAYERS overrides).  Nothing of DIR enters this repository;
# DIR must be outside it.  Same output as above, for that one major.
#
# test/compat.sh --packages MAJOR... takes Debian's binary packages (the
# chroot below) whatever the mirror serves; when the layers are only unit,
# regress and isolation, the chroot gets only what building needs
# (test/deps.sh build).  test/run's majors layer runs
# ULID_COMPAT_LAYERS="regress isolation" test/compat.sh --packages 18, after
# making the chroot with --packages --prepare 18 (only the chroots, no test)
# in the background while its other layers run.  It prints "pgNN: skipped:
# REASON" and exits with status 77 when a missing chroot cannot be made (not
# root, or the mirror does not answer).
# ULID_COMPAT_RESULTS=FILE (any mode) appends every test's "ok" / "not ok"
# line, named pgNN, to FILE.
#
# test/compat.sh --deb [MAJOR...] (default 17 18 19) builds the Debian
# package postgresql-MAJOR-ulid (debian/, dpkg-buildpackage -us -uc -b, with
# lintian) in each major's chroot of Debian's binary packages (made if
# missing, with only what building needs), installs it there with apt-get,
# runs its debian/tests (make installcheck against the installed package, as
# autopkgtest does, as a user who is not root) and removes it again.  One
# "pgNN: ..." line per major, a summary table; the exit status is non-zero
# when any major failed (19 is skipped while Debian has no postgresql-19).
#
# test/compat.sh --bench MAJOR runs the benchmark (test/bench/run.sh) on that
# major instead, always on Debian's binary packages (the chroot above, made
# if missing): they are built as users get them, without assertions and with
# OpenSSL, while the source builds here are assertion builds.  ULID_BENCH_*
# variables are passed through; the report comes back to
# $ULID_BENCH_OUT (default test/bench/results/pgMAJOR).  test/bench/run.sh
# does this when ULID_BENCH_PG=MAJOR is set.
#
# test/compat.sh --pg-upgrade [OLD NEW] (default 18 19) runs
# test/upgrade/pg_upgrade.sh in NEW's chroot of Debian's binary packages
# (made if missing), with OLD's packages installed beside (OLD must be in
# that chroot's suite: 18 is in sid, under 19's experimental): ulid built
# for both, pg_upgrade --copy and --link of a cluster whose generators,
# advanced states, keys and masks are in use, the new clusters' clocks 60 s
# behind; README "Upgrades" (the ulid_floor copy) is what it checks.  One
# "pg_upgrade OLD -> NEW: N passed, N failed" line; the exit status is
# non-zero when anything failed (0 with a "skipped" line while Debian has no
# postgresql-NEW).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)

# tree_version SRC: the PostgreSQL version of a source tree (16.2, 20devel)
tree_version() {
	sed -n "s/^PACKAGE_VERSION='\(.*\)'$/\1/p" "$1/configure" 2>/dev/null | head -1
}

bench_major='' deb='' pgup='' tree='' packages='' prepare=''
if [ "${1:-}" == --source ]; then
	[ -f "${2:-}/configure" ] || { echo "usage: test/compat.sh --source /path/to/postgresql-source [MAJOR]   (a tree with its configure script)" >&2; exit 2; }
	tree=$(cd "$2" && pwd)
	case $tree/ in
	"$root"/*)
		echo "compat: $tree is inside the ulid repository; put the PostgreSQL tree elsewhere" >&2
		exit 2
		;;
	esac
	v=$(tree_version "$tree")
	[ -n "$v" ] || { echo "compat: $tree/configure names no PostgreSQL version" >&2; exit 2; }
	if [ -n "${3:-}" ] && [ "$3" != "${v%%[!0-9]*}" ]; then
		echo "compat: $tree is PostgreSQL $v, not $3" >&2
		exit 2
	fi
	set -- "${v%%[!0-9]*}"
elif [ "${1:-}" == --packages ]; then
	packages=1
	shift
	[ "${1:-}" != --prepare ] || { prepare=1 && shift; }
elif [ "${1:-}" == --bench ]; then
	bench_major=${2:?usage: test/compat.sh --bench MAJOR}
	set --
elif [ "${1:-}" == --deb ]; then
	deb=1
	shift
	set -- "${@:-17 18 19}"
elif [ "${1:-}" == --pg-upgrade ]; then
	pgup=1
	shift
	[ $# -gt 0 ] || set -- 18 19
	[ $# -eq 2 ] || { echo "usage: test/compat.sh --pg-upgrade [OLD NEW]" >&2; exit 2; }
fi
majors=${*:-15 17 18 19}
if [ "$(id -u)" -eq 0 ]; then
	cache=${ULID_COMPAT_CACHE:-/var/cache/ulid-compat}
else
	cache=${ULID_COMPAT_CACHE:-$HOME/.cache/ulid-compat}
fi
layers=${ULID_COMPAT_LAYERS:-unit regress isolation scenarios fuzz bench}
[ -n "$tree" ] && layers=${ULID_COMPAT_LAYERS:-unit regress isolation}
# test/deps.sh's argument for a chroot: "build" (the server and the build
# tools) when the layers need no more; everything otherwise
run_deps=build
for l in $layers; do
	case $l in unit | regress | isolation) ;; *) run_deps='' ;; esac
done
jobs=${ULID_COMPAT_JOBS:-2}
configure_opts="--without-icu --without-readline --with-uuid=e2fs --enable-cassert ${ULID_COMPAT_CONFIGURE:-}"
# what a source build holds (in its stamp: a change rebuilds)
recipe="configure $configure_opts; server, contrib, isolation tester"
pg_cflags=${PG_CFLAGS:--Wall -Wextra -Werror}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg

say() { echo "compat: $*" >&2; }

# suite MAJOR: the Debian suite that has postgresql-MAJOR
suite() {
	case $1 in
	17) echo trixie ;;
	18) echo sid ;;
	19) echo experimental ;;
	*) return 1 ;;
	esac
}

# mirror: the Debian archive the machine's own apt sources use
mirror() {
	local m
	if [ -n "${ULID_COMPAT_MIRROR:-}" ]; then
		echo "$ULID_COMPAT_MIRROR"
		return
	fi
	m=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list 2>/dev/null |
		grep -v '^ *#' | grep -oE 'https?://[^ ]*/debian/?( |$)' | head -1 | tr -d ' ')
	echo "${m:-http://deb.debian.org/debian}"
}

# reachable URL: whether the host of URL accepts a connection (15 s)
reachable() {
	local hp=${1#*://} port=80
	hp=${hp%%/*}
	[[ $1 == https://* ]] && port=443
	[[ $hp == *:* ]] && port=${hp##*:}
	timeout 15 bash -c 'exec 3<>"/dev/tcp/$1/$2"' _ "${hp%%:*}" "$port" 2>/dev/null
}

# need PACKAGE...: install missing build tools from the machine's apt
need() {
	local p missing=()
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	[ "$(id -u)" -eq 0 ] || { say "not root: install ${missing[*]} first"; return 1; }
	say "installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null 2>&1 ||
		{ apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; }
}

# apt_setup: the private apt configuration, and its indexes brought up to date
apt_opts=()
apt_setup() {
	local a=$cache/apt s
	need dpkg-dev debian-archive-keyring || return 1
	mkdir -p "$a/etc" "$a/lists/partial" "$a/cache/archives/partial" "$a/state"
	for s in trixie sid experimental; do
		echo "deb-src [signed-by=$keyring] $(mirror) $s main"
	done >"$a/etc/sources.list"
	apt_opts=(-o "Dir::Etc::SourceList=$a/etc/sources.list" -o Dir::Etc::SourceParts=/dev/null
		-o "Dir::State=$a/state" -o "Dir::State::Lists=$a/lists" -o Dir::State::status=/var/lib/dpkg/status
		-o "Dir::Cache=$a/cache" -o APT::Sandbox::User=root -o Acquire::Check-Valid-Until=false)
	say "apt-get update (private sources list: $(mirror) trixie sid experimental, deb-src)"
	apt-get "${apt_opts[@]}" -qq update >"$cache/logs/apt-update.log" 2>&1 || {
		cat "$cache/logs/apt-update.log" >&2
		return 1
	}
}

# latest_version PACKAGE: the newest version of a source package in the
# private sources list (each postgresql-NN is in one of its suites)
latest_version() {
	local v best=''
	for v in $(apt-cache "${apt_opts[@]}" showsrc "$1" 2>/dev/null | sed -n 's/^Version: //p'); do
		if [ -z "$best" ] || dpkg --compare-versions "$v" gt "$best"; then best=$v; fi
	done
	[ -n "$best" ] && echo "$best"
}

# build_tree SRC PREFIX STAMP LOG: configure the PostgreSQL source tree SRC
# out of tree (in PREFIX.build: SRC itself is not written to) with
# $configure_opts, build and install the server, pg_isolation_regress and
# all of contrib into PREFIX, and write STAMP to its stamp file
build_tree() {
	local src=$1 prefix=$2 stamp=$3 log=$4 b=$2.build d iso
	need bison flex gcc make perl zlib1g-dev uuid-dev || return 1
	say "building $src into $prefix (log: $log)"
	rm -rf "$prefix" "$b"
	mkdir -p "$b"
	(
		cd "$b" || exit 1
		# shellcheck disable=SC2086
		nice "$src/configure" --prefix="$prefix" $configure_opts || exit 1
		nice make -j"$jobs" || exit 1
		make install || exit 1
		# pg_isolation_regress goes under pgxs like pg_regress; the tests
		# use contrib modules (pageinspect, amcheck, uuid-ossp, ...) as
		# Debian's server packages ship them all
		for d in src/test/isolation contrib; do
			nice make -j"$jobs" -C "$d" && make -C "$d" install || exit 1
		done
		iso=$("$prefix/bin/pg_config" --pkglibdir)/pgxs/src/test/isolation
		[ -x "$iso/pg_isolation_regress" ] && [ -x "$iso/isolationtester" ]
	) >>"$log" 2>&1 || {
		tail -40 "$log" >&2
		return 1
	}
	rm -rf "$b"
	chmod -R a+rX "$prefix"
	printf '%s\n' "$stamp" >"$prefix/.ulid-compat-stamp"
}

# build_source MAJOR VERSION: download and unpack the source package and
# build it into $cache/pgMAJOR; returns 3 when the mirror does not serve its
# files
build_source() {
	local major=$1 ver=$2 pkg=postgresql-$1
	local src=$cache/src/postgresql-$1-$2 log=$cache/logs/build-pg$1.log
	rm -rf "$src"
	mkdir -p "$src"
	say "PostgreSQL $major: downloading source package $pkg $ver"
	if ! (cd "$src" && apt-get "${apt_opts[@]}" -qq source -d "$pkg=$ver") >"$log" 2>&1; then
		cat "$log" >&2
		rm -rf "$src"
		return 3
	fi
	(cd "$src" && dpkg-source -x --skip-patches ./*.dsc tree) >>"$log" 2>&1 || return 1
	build_tree "$src/tree" "$cache/pg$major" "$ver"$'\n'"$recipe" "$log" || return 1
	rm -rf "$src/tree"
}

# tree_server SRC: make sure the source tree SRC is built (once: the stamp
# names the version, the recipe, the tree and its commit) into
# $cache/pgMAJOR-tree; sets version
tree_server() {
	local src=$1 major prefix stamp id
	major=$(tree_version "$src")
	version=$major major=${major%%[!0-9]*}
	prefix=$cache/pg$major-tree
	id=$(git -C "$src" rev-parse HEAD 2>/dev/null || cat "$src/.gitrevision" 2>/dev/null)
	stamp="$version"$'\n'"$recipe"$'\n'"$src ${id:-}"
	if [ -z "${ULID_COMPAT_REFRESH:-}" ] && [ "$(cat "$prefix/.ulid-compat-stamp" 2>/dev/null)" == "$stamp" ]; then
		return 0
	fi
	: >"$cache/logs/build-pg$major-tree.log"
	build_tree "$src" "$prefix" "$stamp" "$cache/logs/build-pg$major-tree.log"
}

# in_root ROOT COMMAND...: run a command in a chroot, with /proc and /dev
# mounted in a private mount namespace (gone when the command ends)
in_root() {
	local r=$1
	shift
	unshare --mount --propagation private -- bash -c \
		'r=$1; shift; mount -t proc proc "$r/proc" && mount --rbind /dev "$r/dev" && exec chroot "$r" "$@"' \
		_ "$r" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
		DEBIAN_FRONTEND=noninteractive "$@"
}

# root_sync ROOT: the machine's name resolution, CA certificates and npm
# settings into a chroot, so that apt and npm reach what they reach here
# (the local CAs also where the chroot's ca-certificates rebuilds its bundle)
root_sync() {
	cp /etc/hosts /etc/resolv.conf "$1/etc/"
	mkdir -p "$1/usr/local/share/ca-certificates"
	cp -r /usr/local/share/ca-certificates/. "$1/usr/local/share/ca-certificates/" 2>/dev/null
	[ -d "$1/etc/ssl/certs" ] && cp /etc/ssl/certs/ca-certificates.crt "$1/etc/ssl/certs/" 2>/dev/null
	[ -f /etc/npmrc ] && cp /etc/npmrc "$1/etc/"
	return 0
}

# package_root MAJOR [DEPS]: $cache/pgMAJOR-root, a chroot of the suite with
# Debian's postgresql-MAJOR packages and what test/run needs (test/deps.sh
# DEPS: "deb", only what building and packaging need)
package_root() {
	local major=$1 deps=${2:-} s r=$cache/pg$1-root log=$cache/logs/build-pg$1.log base p pkgs=()
	s=$(suite "$major")
	base=$s
	# experimental is not a whole suite: sid, with the server from experimental
	[ "$s" == experimental ] && base=sid
	for p in "postgresql-$major" "postgresql-server-dev-$major" "postgresql-client-$major" libpq-dev libpq5; do
		if [ "$s" == experimental ]; then pkgs+=("$p/experimental"); else pkgs+=("$p"); fi
	done
	if [ ! -d "$r" ]; then
		need debootstrap debian-archive-keyring || return 1
		say "PostgreSQL $major: debootstrap $base into $r (log: $log)"
		rm -rf "$r.new"
		nice debootstrap --variant=minbase --keyring="$keyring" "$base" "$r.new" "$(mirror)" >"$log" 2>&1 || {
			tail -20 "$log" >&2
			return 1
		}
		mv "$r.new" "$r"
	fi
	[ "$s" == experimental ] && echo "deb $(mirror) experimental main" >"$r/etc/apt/sources.list.d/experimental.list"
	# the mirror may be a snapshot whose Release files are past their
	# Valid-Until date (their signatures are still checked)
	echo 'Acquire::Check-Valid-Until "false";' >"$r/etc/apt/apt.conf.d/99ulid-compat"
	# no service starts, no default cluster
	printf '#!/bin/sh\nexit 101\n' >"$r/usr/sbin/policy-rc.d"
	chmod 755 "$r/usr/sbin/policy-rc.d"
	mkdir -p "$r/etc/postgresql-common"
	echo "create_main_cluster = false" >"$r/etc/postgresql-common/createcluster.conf"
	root_sync "$r"
	mkdir -p "$r/root/deps"
	cp "$here/deps.sh" "$here/apt.sh" "$r/root/deps/"
	say "PostgreSQL $major: installing Debian's postgresql-$major from $s in $r (log: $log)"
	# (install also upgrades them when a newer version is there)
	if ! in_root "$r" bash -c 'apt-get -qq update && apt-get install -y -qq --no-install-recommends "$@"' \
		_ "${pkgs[@]}" >>"$log" 2>&1 ||
		! in_root "$r" env PG_MAJOR="$major" /root/deps/deps.sh $deps >>"$log" 2>&1; then
		tail -20 "$log" >&2
		return 1
	fi
	in_root "$r" dpkg-query -W -f='${Version}\n' "postgresql-$major" >"$r/.ulid-compat-stamp"
	chmod 755 "$r"
}

# server MAJOR: make sure a server of that major is built or installed; sets
# mode (source or package) and version; returns 2 when the suite has no
# postgresql-MAJOR
server() {
	local major=$1 s stamp=$cache/pg$1/.ulid-compat-stamp rstamp=$cache/pg$1-root/.ulid-compat-stamp rc
	s=$(suite "$major") || { say "no Debian suite known for PostgreSQL $major"; return 1; }
	if [ -n "$packages" ]; then
		mode=package
		if [ ! -f "$rstamp" ] || [ -n "${ULID_COMPAT_REFRESH:-}" ]; then
			package_root "$major" "$run_deps" || { say "PostgreSQL $major: installing the packages failed"; return 1; }
		fi
		version=$(cat "$rstamp")
		return 0
	fi
	mode=source
	if [ -z "${ULID_COMPAT_REFRESH:-}" ]; then
		if [ -f "$stamp" ] && [ "$(sed -n 2p "$stamp")" == "$recipe" ]; then
			version=$(sed -n 1p "$stamp")
			return 0
		fi
		if [ -f "$rstamp" ]; then
			mode=package version=$(cat "$rstamp")
			return 0
		fi
	fi
	[ ${#apt_opts[@]} -gt 0 ] || apt_setup || return 1
	version=$(latest_version "postgresql-$major") || { say "no postgresql-$major in $s"; return 2; }
	if [ -f "$stamp" ] && [ "$(cat "$stamp")" == "$version"$'\n'"$recipe" ]; then
		return 0
	fi
	build_source "$major" "$version"
	rc=$?
	[ $rc -eq 0 ] && return 0
	[ $rc -eq 3 ] || { say "PostgreSQL $major: source build failed"; return 1; }
	say "PostgreSQL $major: the mirror does not serve the source package; using Debian's binary packages of $s instead"
	package_root "$major" || { say "PostgreSQL $major: installing the packages failed"; return 1; }
	mode=package version=$(cat "$rstamp")
}

# run_suite MAJOR MODE PG_CONFIG: test/run on a copy of this tree, on the
# host (15 and source builds) or in the major's chroot (package); sets
# result to test/run's last line
work_copy=''
trap 'rm -rf "$work_copy"' EXIT
run_suite() {
	local major=$1 mode=$2 pgc=$3 log=$cache/logs/test-pg$1.log r='' rc v env=()
	local script='cd "$1" && shift && make -s clean >/dev/null 2>&1; exec test/run "$@"'
	[ "$mode" == package ] && r=$cache/pg$major-root
	work_copy=$(mktemp -d "$r/tmp/ulid-compat.XXXXXX")
	chmod 755 "$work_copy"
	tar -C "$root" --exclude=.git -cf - . | tar -C "$work_copy" -xf -
	for v in $(compgen -e | grep '^ULID_' | grep -v '^ULID_COMPAT_'); do env+=("$v=${!v}"); done
	env+=("PG_CFLAGS=$pg_cflags" "PG_CONFIG=$pgc")
	say "PostgreSQL $major: test/run $layers (log: $log)"
	# (fd 9, the lock, is closed: servers must not inherit it)
	# shellcheck disable=SC2086
	if [ "$mode" == package ]; then
		# what this tree's test/deps.sh wants, before the settings are synced
		in_root "$r" env PG_MAJOR="$major" "${work_copy#"$r"}/test/deps.sh" $run_deps
		root_sync "$r"
		in_root "$r" env "${env[@]}" PG_MAJOR="$major" bash -c "$script" _ "${work_copy#"$r"}" $layers
	else
		env "${env[@]}" bash -c "$script" _ "$work_copy" $layers
	fi >"$log" 2>&1 9>&-
	rc=$?
	rm -rf "$work_copy"
	work_copy=''
	grep -E '^not ok' "$log" | head -20 >&2
	# each result, named by the major, for a caller that counts them (the
	# harness's "ok - x" lines: pg_regress's own "ok 1 - x" are not results)
	[ -z "${ULID_COMPAT_RESULTS:-}" ] ||
		sed -nE "s/^(ok|not ok) - /\1 - pg$major /p" "$log" >>"$ULID_COMPAT_RESULTS"
	result=$(tail -1 "$log")
	return $rc
}

mkdir -p "$cache/logs" "$cache/src"
chmod 755 "$cache"
exec 9>"$cache/.lock"
if ! flock -n 9; then
	say "waiting for another compat run to finish"
	flock 9
fi

# bench_suite MAJOR: test/bench/run.sh on a copy of this tree in the major's
# chroot of Debian's packages; the results back to the host
if [ -n "$bench_major" ]; then
	out=${ULID_BENCH_OUT:-$here/bench/results/pg$bench_major}
	r=$cache/pg$bench_major-root
	suite "$bench_major" >/dev/null || { say "no Debian suite known for PostgreSQL $bench_major"; exit 1; }
	if [ ! -f "$r/.ulid-compat-stamp" ] || [ -n "${ULID_COMPAT_REFRESH:-}" ]; then
		package_root "$bench_major" || { say "PostgreSQL $bench_major: installing the packages failed"; exit 1; }
	fi
	work_copy=$(mktemp -d "$r/tmp/ulid-bench.XXXXXX")
	chmod 755 "$work_copy"
	tar -C "$root" --exclude=.git --exclude='test/bench/results*' -cf - . | tar -C "$work_copy" -xf -
	env=()
	for v in $(compgen -e | grep '^ULID_BENCH_' | grep -v '^ULID_BENCH_\(OUT\|PG\)$'); do env+=("$v=${!v}"); done
	say "PostgreSQL $bench_major ($(cat "$r/.ulid-compat-stamp"), Debian's packages): test/bench/run.sh in $r"
	in_root "$r" env PG_MAJOR="$bench_major" "${work_copy#"$r"}/test/deps.sh" >&2
	root_sync "$r"
	# shellcheck disable=SC2016
	in_root "$r" env "${env[@]}" PG_CFLAGS="$pg_cflags" PG_CONFIG="/usr/lib/postgresql/$bench_major/bin/pg_config" \
		ULID_BENCH_OUT="${work_copy#"$r"}/test/bench/results" \
		bash -c 'cd "$1" && make -s clean >/dev/null 2>&1; exec test/bench/run.sh' _ "${work_copy#"$r"}" 9>&-
	rc=$?
	mkdir -p "$out"
	cp -r "$work_copy/test/bench/results/." "$out/" 2>/dev/null
	rm -rf "$work_copy"
	work_copy=''
	[ $rc -eq 0 ] && echo "report: $out/report.md"
	exit $rc
fi

# --pg-upgrade: test/upgrade/pg_upgrade.sh in NEW's chroot, OLD beside it
if [ -n "$pgup" ]; then
	read -r old new <<<"$majors"
	r=$cache/pg$new-root log=$cache/logs/pg_upgrade-$old-$new.log
	if ! suite "$old" >/dev/null || ! suite "$new" >/dev/null; then
		say "no Debian suite known for PostgreSQL $old or $new"
		exit 1
	fi
	if [ ! -f "$r/.ulid-compat-stamp" ] || [ -n "${ULID_COMPAT_REFRESH:-}" ]; then
		apt_setup || exit 1
		if ! latest_version "postgresql-$new" >/dev/null; then
			echo "pg_upgrade $old -> $new: skipped: no postgresql-$new in $(suite "$new")"
			exit 0
		fi
		package_root "$new" build || { say "PostgreSQL $new: installing the packages failed"; exit 1; }
	fi
	say "PostgreSQL $old: Debian's packages beside $new's in $r (log: $log)"
	if ! in_root "$r" apt-get install -y -qq --no-install-recommends "postgresql-$old" "postgresql-server-dev-$old" >"$log" 2>&1; then
		tail -20 "$log" >&2
		exit 1
	fi
	work_copy=$(mktemp -d "$r/tmp/ulid-pgup.XXXXXX")
	chmod 755 "$work_copy"
	tar -C "$root" --exclude=.git -cf - . | tar -C "$work_copy" -xf -
	root_sync "$r"
	say "pg_upgrade $(in_root "$r" dpkg-query -W -f='${Version}' "postgresql-$old") -> $(cat "$r/.ulid-compat-stamp"): test/upgrade/pg_upgrade.sh (log: $log)"
	in_root "$r" env PG_CFLAGS="$pg_cflags" PG_CONFIG="/usr/lib/postgresql/$old/bin/pg_config" \
		ULID_NEW_PG_CONFIG="/usr/lib/postgresql/$new/bin/pg_config" \
		bash -c 'cd "$1" && make -s clean >/dev/null 2>&1; exec test/upgrade/pg_upgrade.sh' _ "${work_copy#"$r"}" >>"$log" 2>&1 9>&-
	rc=$?
	rm -rf "$work_copy"
	work_copy=''
	grep -E '^(not ok|# )' "$log" | head -30 >&2
	echo "pg_upgrade $old -> $new: $(tail -1 "$log")"
	[ $rc -eq 0 ] && [[ $(tail -1 "$log") =~ ^[0-9]+\ passed,\ 0\ failed$ ]]
	exit $?
fi

# deb_suite MAJOR: in the major's chroot, build postgresql-MAJOR-ulid from a
# copy of this tree, check it with lintian, install it with apt-get, run
# debian/tests/installcheck as the postgres user and remove the package;
# sets result ("built, lintian E errors W warnings, installcheck passed")
deb_suite() {
	local major=$1 r=$cache/pg$1-root log=$cache/logs/deb-pg$1.log src
	work_copy=$(mktemp -d "$r/tmp/ulid-deb.XXXXXX")
	chmod 755 "$work_copy"
	src=$work_copy/postgresql-ulid-$(dpkg-parsechangelog -l "$root/debian/changelog" -S Version | sed 's/-[^-]*$//')
	mkdir "$src"
	tar -C "$root" --exclude-vcs --exclude-vcs-ignores -cf - . | tar -C "$src" -xf -
	in_root "$r" env PG_MAJOR="$major" "${src#"$r"}/test/deps.sh" deb >"$log" 2>&1 || return 1
	root_sync "$r"
	say "PostgreSQL $major: dpkg-buildpackage, lintian, apt-get install, debian/tests in $r (log: $log)"
	# shellcheck disable=SC2016
	in_root "$r" env PG_SUPPORTED_VERSIONS="$major" bash -c '
		set -e
		cd "$1"
		make -s clean PG_CONFIG=/usr/lib/postgresql/$2/bin/pg_config >/dev/null 2>&1 || true
		pg_buildext updatecontrol
		dpkg-buildpackage -us -uc -b
		echo "# lintian"
		lintian --suppress-tags initial-upload-closes-no-bugs ../postgresql-ulid_*.changes | tee ../lintian.log
		echo "# lintian: $(grep -c "^E: " ../lintian.log || true) errors, $(grep -c "^W: " ../lintian.log || true) warnings"
		apt-get install -y -qq --no-install-recommends ../postgresql-$2-ulid_*.deb
		dpkg-query -W -f="# installed \${Package} \${Version}
" postgresql-$2-ulid
		chown -R postgres: "$1"
		runuser -u postgres -- debian/tests/installcheck
		echo "# debian/tests/installcheck passed"
	' _ "${src#"$r"}" "$major" >>"$log" 2>&1 9>&-
	local rc=$?
	in_root "$r" apt-get purge -y -qq "postgresql-$major-ulid" >>"$log" 2>&1
	rm -rf "$work_copy"
	work_copy=''
	result=$(sed -n 's/^# lintian: //p' "$log")
	[ $rc -eq 0 ] && result="built, lintian $result, installed, debian/tests passed"
	[ $rc -eq 0 ] && [[ $result == *" 0 errors"* ]]
}

row() { printf '%-5s | %-42s | %-22s | %s\n' "$@"; }
if [ -n "$deb" ]; then
	rows=()
	failed=0
	for major in $majors; do
		result=''
		if ! suite "$major" >/dev/null; then
			say "no Debian suite known for PostgreSQL $major"
			failed=1
			continue
		fi
		r=$cache/pg$major-root
		if [ ! -f "$r/.ulid-compat-stamp" ] || [ -n "${ULID_COMPAT_REFRESH:-}" ]; then
			[ ${#apt_opts[@]} -gt 0 ] || apt_setup || exit 1
			if ! latest_version "postgresql-$major" >/dev/null && [ "$major" -ge 19 ]; then
				rows+=("$(printf '%-5s | %-30s | %s' "$major" - "skipped: no postgresql-$major in $(suite "$major")")")
				continue
			fi
			package_root "$major" deb || { say "PostgreSQL $major: installing the packages failed"; failed=1; continue; }
		fi
		if deb_suite "$major"; then
			status=pass
		else
			status=FAIL failed=1
			tail -20 "$cache/logs/deb-pg$major.log" >&2
		fi
		echo "pg$major: ${result:-failed, see $cache/logs/deb-pg$major.log}"
		rows+=("$(printf '%-5s | %-30s | %s' "$major" "$(cat "$r/.ulid-compat-stamp") ($(suite "$major"))" "$status: ${result:--}")")
	done
	echo
	echo "ulid Debian packages (test/compat.sh --deb)"
	printf '%-5s | %-30s | %s\n' major server result
	printf '%s\n' "${rows[@]}"
	exit $failed
fi

# --packages: status 77 and a "skipped" line where a missing chroot cannot
# be made (test/run's majors layer counts that as a skip)
if [ -n "$packages" ]; then
	for major in $majors; do
		[ -f "$cache/pg$major-root/.ulid-compat-stamp" ] && continue
		why=''
		if [ "$(id -u)" -ne 0 ]; then
			why="not root (debootstrap and chroot need root)"
		elif ! reachable "$(mirror)"; then
			why="the Debian mirror $(mirror) does not answer"
		fi
		[ -z "$why" ] || { echo "pg$major: skipped: $why"; exit 77; }
	done
fi

rows=()
failed=0
total_p=0
total_f=0
for major in $majors; do
	version='' result='' status='' mode='' pgc=''
	if [ -n "$tree" ]; then
		if tree_server "$tree"; then
			mode=source pgc=$cache/pg$major-tree/bin/pg_config version="$version (source tree $tree)"
		else
			status="build failed ($cache/logs/build-pg$major-tree.log)"
		fi
	elif [ "$major" == 15 ] && [ -z "$packages" ]; then
		mode=host pgc=/usr/lib/postgresql/15/bin/pg_config
		if PG_MAJOR=15 "$here/deps.sh" $run_deps >&2; then
			version="$("$pgc" --version | cut -d' ' -f2) (Debian 12 package)"
		else
			status="PostgreSQL 15 packages missing"
		fi
	elif server "$major"; then
		case $mode in
		source) pgc=$cache/pg$major/bin/pg_config version="$version (source package, $(suite "$major"))" ;;
		package) pgc=/usr/lib/postgresql/$major/bin/pg_config version="$version (binary packages, $(suite "$major"))" ;;
		esac
	elif [ $? -eq 2 ] && [ "$major" -ge 19 ]; then
		rows+=("$(row "$major" - - "skipped: no postgresql-$major in $(suite "$major")")")
		continue
	else
		status="no server"
	fi
	if [ -z "$status" ] && [ -n "$prepare" ]; then
		echo "pg$major: ready: ${version:-}"
		continue
	elif [ -z "$status" ]; then
		if run_suite "$major" "$mode" "$pgc" && [[ $result =~ ^[0-9]+\ passed,\ 0\ failed$ ]]; then
			status=pass
		else
			status=FAIL
		fi
		echo "pg$major: $result"
	else
		echo "pg$major: $status"
	fi
	if [[ $result =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
		total_p=$((total_p + BASH_REMATCH[1]))
		total_f=$((total_f + BASH_REMATCH[2]))
	else
		total_f=$((total_f + 1))
	fi
	[ "$status" == pass ] || failed=1
	rows+=("$(row "$major" "${version:--}" "${result:--}" "$status")")
done

# --prepare: the servers are there (or the "pgNN: no server" line said not)
[ -z "$prepare" ] || exit $failed
echo
echo "ulid compatibility summary (test/run layers: $layers)"
row major "server" "test/run" result
echo "------+--------------------------------------------+------------------------+-------"
printf '%s\n' "${rows[@]}"
echo
echo "$total_p passed, $total_f failed"
exit $failed
