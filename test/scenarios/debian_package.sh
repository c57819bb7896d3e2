#!/usr/bin/env bash
# The Debian package, built and installed as a packager and a user get it:
# `dpkg-buildpackage -us -uc -b` on a clean copy of this tree builds
# postgresql-NN-ulid for the major under test (debian/, PGDG style:
# pg_buildext, debian/pgversions), with no lintian error; the package holds
# the library and every installable version's script for that major and
# depends on its server; unpacked into a clean root (pg_mirror: a copy of
# the server's own installation without any ulid file, then dpkg -x), a
# server of that root creates the extension and `make installcheck` passes
# against it, as debian/tests/installcheck runs it against the installed
# package.  (test/compat.sh --deb builds and installs the package in each
# major's Debian chroot and runs debian/tests there.)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

major=${PG_VERSION_NUM:-15}
if [ "$("$PG_CONFIG" --bindir)" != "/usr/lib/postgresql/$major/bin" ]; then
	skip "debian_package: PostgreSQL $major is not Debian's (a package builds against postgresql-server-dev-$major)"
	exit 0
fi
for tool in dpkg-buildpackage pg_buildext lintian dh; do
	command -v $tool >/dev/null || {
		not_ok "debian_package: $tool is installed (test/deps.sh installs it)"
		exit 1
	}
done

version=$(dpkg-parsechangelog -l "$ULID_ROOT/debian/changelog" -S Version)
d=$ULID_WORK/deb
src=$d/postgresql-ulid-${version%-*}
mkdir -p "$src"
# a clean copy of the tree: no build products, no .git
tar -C "$ULID_ROOT" --exclude-vcs --exclude-vcs-ignores -cf - . | tar -C "$src" -xf -
make -C "$src" -s clean PG_CONFIG="$PG_CONFIG" >/dev/null 2>&1
# debian/control for this major (the committed one is 15's)
(cd "$src" && PG_SUPPORTED_VERSIONS=$major pg_buildext updatecontrol) >"$d/updatecontrol.log" 2>&1
start=$(date +%s)
if (cd "$src" && PG_SUPPORTED_VERSIONS=$major dpkg-buildpackage -us -uc -b -j"$(nproc)") >"$d/build.log" 2>&1; then
	ok "debian_package: dpkg-buildpackage -us -uc -b (-j$(nproc)) builds postgresql-$major-ulid $version ($(($(date +%s) - start)) s)"
else
	tail -40 "$d/build.log" | sed 's/^/# /'
	not_ok "debian_package: dpkg-buildpackage -us -uc -b (-j$(nproc)) builds postgresql-$major-ulid"
	exit 1
fi
deb=$(ls "$d"/postgresql-"$major"-ulid_"$version"_*.deb 2>/dev/null | head -1)
check "debian_package: the build made postgresql-$major-ulid_${version}_*.deb" yes "$([ -f "$deb" ] && echo yes)"
lintian --fail-on error --suppress-tags initial-upload-closes-no-bugs "$d"/postgresql-ulid_"$version"_*.changes >"$d/lintian.log" 2>&1
rc=$?
check "debian_package: lintian reports no error (and no warning)" "0|0|0" \
	"$rc|$(grep -c '^E: ' "$d/lintian.log")|$(grep -c '^W: ' "$d/lintian.log")"
grep -E '^[EW]: ' "$d/lintian.log" | sed 's/^/# /'

# what the package holds and needs
files=$(dpkg-deb -c "$deb" | awk '{print $6}' | sed 's#^\./#/#' | grep -v '/$')
current=$(sed -n "s/^default_version *= *'\(.*\)'/\1/p" "$ULID_ROOT/ulid.control")
want=$({ echo "/usr/lib/postgresql/$major/lib/ulid.so"; echo "/usr/share/postgresql/$major/extension/ulid.control"
	(cd "$ULID_ROOT/sql" && ls ulid--*.sql && echo "ulid--$current.sql") | sed "s#^#/usr/share/postgresql/$major/extension/#"; } | sort -u)
check_same "debian_package: it holds ulid.so, ulid.control and the scripts of every version (1.0 to $current)" "$want" \
	"$(grep -E "^/usr/lib/postgresql/$major/lib/ulid\.so$|^/usr/share/postgresql/$major/extension/ulid" <<<"$files" | sort)"
check "debian_package: nothing outside PostgreSQL $major's directories and the package's docs" "" \
	"$(grep -vE "^/usr/lib/postgresql/$major/lib/|^/usr/share/postgresql/$major/extension/|^/usr/share/doc/postgresql-$major-ulid/" <<<"$files")"
check "debian_package: it depends on postgresql-$major" yes \
	"$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | grep -qE "^ *postgresql-$major( |$)" && echo yes)"

# --- a clean root with the package unpacked: a server of it, installcheck ----
root=$d/root
pg_mirror "$root"
dpkg -x "$deb" "$root"
check "debian_package: the root's ulid files are the package's, none linked from elsewhere" "0" \
	"$(find "$root/usr/lib/postgresql/$major/lib" "$root/usr/share/postgresql/$major/extension" -name 'ulid*' -type l | wc -l)"
PG_BIN=$root/usr/lib/postgresql/$major/bin
S=debpkg
if ! pg_new $S "ulid.node_id = 1" || ! pg_start $S; then
	not_ok "debian_package: a server of the clean root starts"
	exit 1
fi
check "debian_package: CREATE EXTENSION ulid from the package, which mints" "$current|t" \
	"$(psqlx $S -c "CREATE EXTENSION ulid" -c "SELECT extversion, snowflake_next('twitter') > 0 FROM pg_extension WHERE extname = 'ulid'")"
# make installcheck from the unpacked source, against the package's server
# (what debian/tests/installcheck runs on an installed package)
if PGHOST=$ULID_WORK/sock PGPORT=$(pg_port $S) PGUSER=postgres \
	make -C "$src" -s installcheck PG_CONFIG="$PG_BIN/pg_config" >"$d/installcheck.log" 2>&1; then
	ok "debian_package: make installcheck passes against the installed package: $(grep -m1 -oE 'All [0-9]+ tests passed' "$d/installcheck.log")"
else
	grep -E 'FAILED|failed' "$d/installcheck.log" | sed 's/^/# /'
	[ -f "$src/regression.diffs" ] && head -60 "$src/regression.diffs" | sed 's/^/# /'
	not_ok "debian_package: make installcheck passes against the installed package"
fi
pg_stop $S
