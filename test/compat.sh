#!/usr/bin/env bash
# ulid's compatibility command: the whole test suite on every supported
# PostgreSQL major, one after the other.
#
#   test/compat.sh              15 17 18 19 (19 only while Debian has it)
#   test/compat.sh 17 18        only these majors
#
# 15 is Debian 12's package (test/deps.sh installs it).  17, 18 and 19 are
# built from upstream sources, obtained as Debian source packages:
#   17  postgresql-17 from Debian 13 "trixie"
#   18  postgresql-18 from "sid"
#   19  postgresql-19 from "experimental" (skipped when it is not there)
# apt runs with a private configuration (its own sources list holding one
# deb-src line per suite, its own lists, cache and state directories), so the
# machine's apt setup is untouched; the source packages are verified with
# debian-archive-keyring.  The upstream tarball is unpacked without Debian's
# patches and built into a private prefix (--enable-cassert, so the
# extension's Asserts and core's are active), with pg_regress,
# pg_isolation_regress and contrib/pageinspect, which the tests need.
#
# A build is cached in $ULID_COMPAT_CACHE/pgNN with a stamp file naming the
# source version and the configure options: a later run reuses it without
# touching the network.  ULID_COMPAT_REFRESH=1 looks for newer source
# versions (and rebuilds a major whose version changed).
#
# Each major then runs test/run on a copy of this tree (so the in-tree build
# is left alone) with PG_CONFIG pointing at that server: ulid is built
# against it and every layer runs on throwaway servers of that version.
#
# Environment:
#   ULID_COMPAT_CACHE      cache dir (default /var/cache/ulid-compat as root,
#                          else ~/.cache/ulid-compat); must be readable by
#                          the postgres user, who runs the servers
#   ULID_COMPAT_MIRROR     Debian mirror (default: the one /etc/apt uses)
#   ULID_COMPAT_LAYERS     test/run layers (default: all of them)
#   ULID_COMPAT_REFRESH=1  check for newer source packages
#   ULID_COMPAT_CONFIGURE  extra configure options for new builds
#   ULID_COMPAT_JOBS       make -j for server builds (default 2)
#   PG_CFLAGS              default '-Wall -Wextra -Werror'
#   ULID_FUZZ_SECONDS ...  passed through to test/run
# Output: test/run's log per major in $ULID_COMPAT_CACHE/logs/, one
# "pgNN: N passed, N failed" line per major, a summary table, and last the
# totals "N passed, N failed".  The exit status is non-zero when any major
# failed (a major without a source package, 19 excepted, is a failure).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)

majors=${*:-15 17 18 19}
if [ "$(id -u)" -eq 0 ]; then
	cache=${ULID_COMPAT_CACHE:-/var/cache/ulid-compat}
else
	cache=${ULID_COMPAT_CACHE:-$HOME/.cache/ulid-compat}
fi
layers=${ULID_COMPAT_LAYERS:-unit regress isolation scenarios fuzz bench}
jobs=${ULID_COMPAT_JOBS:-2}
configure_opts="--without-icu --without-readline --enable-cassert ${ULID_COMPAT_CONFIGURE:-}"
export PG_CFLAGS=${PG_CFLAGS:--Wall -Wextra -Werror}

# suite MAJOR: the Debian suite whose source package is built
suite() {
	case $1 in
	17) echo trixie ;;
	18) echo sid ;;
	19) echo experimental ;;
	*) return 1 ;;
	esac
}

say() { echo "compat: $*" >&2; }

# mirror: the Debian archive the machine's own apt sources use
mirror() {
	local m
	if [ -n "${ULID_COMPAT_MIRROR:-}" ]; then
		echo "$ULID_COMPAT_MIRROR"
		return
	fi
	m=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list 2>/dev/null |
		grep -oE '(https?|mirror)://[^ ]*/debian/?( |$)' | grep -v security | head -1 | tr -d ' ')
	echo "${m:-http://deb.debian.org/debian}"
}

# apt_private ARGS...: apt-get / apt-cache with the private configuration
apt_opts=()
apt_setup() {
	local a=$cache/apt m s
	m=$(mirror)
	mkdir -p "$a/etc" "$a/lists/partial" "$a/cache/archives/partial" "$a/state"
	for s in trixie sid experimental; do
		echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $m $s main"
	done >"$a/etc/sources.list"
	apt_opts=(-o "Dir::Etc::SourceList=$a/etc/sources.list" -o Dir::Etc::SourceParts=/dev/null
		-o "Dir::State=$a/state" -o "Dir::State::Lists=$a/lists" -o Dir::State::status=/var/lib/dpkg/status
		-o "Dir::Cache=$a/cache" -o APT::Sandbox::User=root)
	say "apt-get update (private sources: $m trixie sid experimental)"
	apt-get "${apt_opts[@]}" -qq update >"$cache/logs/apt-update.log" 2>&1 || {
		cat "$cache/logs/apt-update.log" >&2
		return 1
	}
}

# latest_version PACKAGE SUITE: the newest version of a source package in a suite
latest_version() {
	local v best=
	for v in $(apt-cache "${apt_opts[@]}" showsrc "$1" 2>/dev/null | sed -n 's/^Version: //p'); do
		if [ -z "$best" ] || dpkg --compare-versions "$v" gt "$best"; then best=$v; fi
	done
	[ -n "$best" ] && echo "$best"
}

# build_deps: what a server build needs (bison and flex: 17+ tarballs carry
# no generated parsers)
build_deps() {
	local p missing=()
	for p in bison flex gcc make perl zlib1g-dev dpkg-dev debian-archive-keyring; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	say "installing ${missing[*]}"
	[ "$(id -u)" -eq 0 ] || { say "not root: install ${missing[*]} first"; return 1; }
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; }
}

# server MAJOR: make sure $cache/pgMAJOR holds a built server; prints the
# source version, or returns 2 when the suite has no such source package
server() {
	local major=$1 pkg=postgresql-$1 prefix=$cache/pg$1 stamp=$cache/pg$1/.ulid-compat-stamp
	local s ver src log=$cache/logs/build-pg$1.log
	s=$(suite "$major") || { say "no source suite known for PostgreSQL $major"; return 1; }
	if [ -f "$stamp" ] && [ -z "${ULID_COMPAT_REFRESH:-}" ] &&
		[ "$(sed -n 2p "$stamp")" == "$configure_opts" ]; then
		sed -n 1p "$stamp"
		return 0
	fi
	[ ${#apt_opts[@]} -gt 0 ] || apt_setup || return 1
	ver=$(latest_version "$pkg") || { say "no source package $pkg in $s"; return 2; }
	if [ -f "$stamp" ] && [ "$(cat "$stamp")" == "$ver"$'\n'"$configure_opts" ]; then
		echo "$ver"
		return 0
	fi
	build_deps || return 1
	src=$cache/src/$pkg-$ver
	rm -rf "$src" "$prefix"
	mkdir -p "$src"
	say "PostgreSQL $major: downloading $pkg $ver from $s"
	if ! (cd "$src" && apt-get "${apt_opts[@]}" -qq source -d "$pkg=$ver" &&
		dpkg-source -x --skip-patches ./*.dsc tree) >"$log" 2>&1; then
		tail -30 "$log" >&2
		return 1
	fi
	say "PostgreSQL $major: building $ver into $prefix (log: $log)"
	(
		set -e
		cd "$src/tree"
		# shellcheck disable=SC2086
		nice ./configure --prefix="$prefix" $configure_opts
		nice make -j"$jobs"
		make install
		for d in src/test/isolation contrib/pageinspect; do
			nice make -j"$jobs" -C "$d"
			make -C "$d" install
		done
		# pg_isolation_regress and isolationtester where PGXS looks for them
		iso=$("$prefix/bin/pg_config" --pkglibdir)/pgxs/src/test/isolation
		mkdir -p "$iso"
		cp src/test/isolation/pg_isolation_regress src/test/isolation/isolationtester "$iso/"
	) >>"$log" 2>&1 || {
		tail -40 "$log" >&2
		say "PostgreSQL $major: build failed (log: $log)"
		return 1
	}
	rm -rf "$src/tree"
	chmod -R a+rX "$prefix"
	printf '%s\n%s\n' "$ver" "$configure_opts" >"$stamp"
	echo "$ver"
}

# run_suite MAJOR PG_CONFIG: test/run on a copy of this tree; prints its last line
run_suite() {
	local major=$1 pgc=$2 copy log=$cache/logs/test-pg$1.log rc
	copy=$(mktemp -d /tmp/ulid-compat.XXXXXX)
	chmod 755 "$copy"
	tar -C "$root" --exclude=.git -cf - . | tar -C "$copy" -xf -
	make -s -C "$copy" PG_CONFIG="$pgc" clean >/dev/null 2>&1
	say "PostgreSQL $major: test/run $layers (log: $log)"
	# shellcheck disable=SC2086
	PG_CONFIG=$pgc "$copy/test/run" $layers >"$log" 2>&1
	rc=$?
	rm -rf "$copy"
	grep -E '^not ok' "$log" | head -20 >&2
	tail -1 "$log"
	return $rc
}

mkdir -p "$cache/logs" "$cache/src"
chmod 755 "$cache"
exec 9>"$cache/.lock"
if ! flock -n 9; then
	say "waiting for another compat run to finish"
	flock 9
fi

rows=()
failed=0
total_p=0
total_f=0
for major in $majors; do
	version='' result='' status=''
	if [ "$major" == 15 ]; then
		PG_MAJOR=15 "$root/test/deps.sh" >&2 || true
		pgc=/usr/lib/postgresql/15/bin/pg_config
		version=$("$pgc" --version 2>/dev/null | sed 's/^PostgreSQL //')
		[ -n "$version" ] && version="$version (Debian 12 package)"
		[ -x "$pgc" ] || status="no PostgreSQL 15 package"
	else
		pgc=$cache/pg$major/bin/pg_config
		version=$(server "$major")
		case $? in
		0) version="$version (source: $(suite "$major"))" ;;
		2)
			if [ "$major" -ge 19 ]; then
				rows+=("$(printf '%-4s | %-36s | %-28s | %s' "$major" - - "skipped: no source package in $(suite "$major")")")
				continue
			fi
			status="no source package in $(suite "$major")"
			;;
		*) status="server build failed" ;;
		esac
	fi
	if [ -z "$status" ]; then
		if result=$(run_suite "$major" "$pgc") && [[ $result =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
			status=pass
		else
			status=FAIL
		fi
		echo "pg$major: $result"
		if [[ $result =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
			total_p=$((total_p + BASH_REMATCH[1]))
			total_f=$((total_f + BASH_REMATCH[2]))
		else
			total_f=$((total_f + 1))
		fi
	else
		echo "pg$major: $status"
		total_f=$((total_f + 1))
	fi
	[ "$status" == pass ] || failed=1
	rows+=("$(printf '%-4s | %-36s | %-28s | %s' "$major" "${version:--}" "${result:--}" "$status")")
done

echo
echo "ulid compatibility summary (layers: $layers)"
printf '%-4s | %-36s | %-28s | %s\n' major "server version" "test/run" result
printf '%s\n' "-----+--------------------------------------+------------------------------+-------"
printf '%s\n' "${rows[@]}"
echo
echo "$total_p passed, $total_f failed"
exit $failed
