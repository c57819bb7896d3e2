#!/usr/bin/env bash
# The PGXN bundle, installed as a PGXN user installs it.  `make dist` builds
# ulid-X.Y.Z.zip from git (this checkout's commit with its uncommitted
# changes to tracked files: git stash create), in PGXN's layout: one
# directory ulid-X.Y.Z/ holding META.json (whose version is X.Y.Z), the
# Makefile, the control file and the sources, and no dotfiles or debian/.
# Debian's pgxnclient then builds and installs it (`pgxn install`) into a
# private copy of the server's installation (pg_mirror: the machine's
# PostgreSQL is untouched), `pgxn load` creates the extension in a database
# of a server of that copy (preloaded, ulid.node_id = 1, as the README's
# Installation sets it up) and `pgxn check` runs its make installcheck.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

if ! git -C "$ULID_ROOT" rev-parse --git-dir >/dev/null 2>&1; then
	skip "pgxn: make dist needs a git checkout (this tree is a copy without .git)"
	exit 0
fi
if ! command -v pgxn >/dev/null; then
	not_ok "pgxn: pgxnclient is installed (test/deps.sh installs it)"
	exit 1
fi

d=$ULID_WORK/pgxn-work
mkdir -p "$d/dist"
ref=$(git -C "$ULID_ROOT" stash create 2>/dev/null)
version=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["version"])' "$ULID_ROOT/META.json")
zip=$d/dist/ulid-$version.zip
if out=$(make -C "$ULID_ROOT" -s dist DIST_REF="${ref:-HEAD}" DIST_DIR="$d/dist" 2>&1) && [ "$out" == "$zip" ] && [ -f "$zip" ]; then
	ok "pgxn: make dist writes ulid-$version.zip (META.json's version)"
else
	not_ok "pgxn: make dist writes ulid-$version.zip (said: $out)"
	exit 1
fi
listing=$(python3 -c 'import sys, zipfile; print("\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))' "$zip")
check "pgxn: every file is under ulid-$version/" "" "$(grep -v "^ulid-$version/" <<<"$listing")"
check "pgxn: the bundle has META.json, Makefile, ulid.control, sql/ulid.sql, src/ and expected/" "6" \
	"$(grep -cxE "ulid-$version/(META.json|Makefile|ulid.control|sql/ulid.sql|src/|expected/)" <<<"$listing")"
check "pgxn: no top-level dotfile, no debian/" "" "$(grep -E "^ulid-$version/(\.|debian/)" <<<"$listing")"
check "pgxn: the bundle's META.json names version $version" "$version" \
	"$(python3 -c 'import json, sys, zipfile; print(json.load(zipfile.ZipFile(sys.argv[1]).open(sys.argv[2]))["version"])' "$zip" "ulid-$version/META.json")"

# --- pgxn install into a private copy of the server ------------------------
root=$d/root
pg_mirror "$root"
pgc=$root$("$PG_CONFIG" --bindir)/pg_config
pkglibdir=$("$PG_CONFIG" --pkglibdir)
touch "$d/before"
if (cd "$d" && MAKEFLAGS=-j$(nproc) pgxn install --pg_config "$pgc" "$zip") >"$d/install.log" 2>&1; then
	ok "pgxn: pgxn install builds and installs the bundle"
else
	tail -30 "$d/install.log" | sed 's/^/# /'
	not_ok "pgxn: pgxn install builds and installs the bundle"
	exit 1
fi
check "pgxn: installed into the private copy (ulid.so, ulid.control, ulid--${version%.*}.sql and the frozen ones)" "yes" \
	"$([ -f "$root$pkglibdir/ulid.so" ] && [ -f "$("$pgc" --sharedir)/extension/ulid.control" ] &&
		[ -f "$("$pgc" --sharedir)/extension/ulid--${version%.*}.sql" ] && [ -f "$("$pgc" --sharedir)/extension/ulid--1.0.sql" ] && echo yes)"
check "pgxn: nothing written into the machine's PostgreSQL" "" \
	"$(find "$pkglibdir" "$("$PG_CONFIG" --sharedir)/extension" -name 'ulid*' -newer "$d/before" 2>/dev/null)"

# --- a server of that copy: pgxn load, then pgxn check ----------------------
# (pg_new and psqlx run the copy's programs)
# shellcheck disable=SC2034
PG_BIN=$root$("$PG_CONFIG" --bindir)
S=pgxn
if ! pg_new $S "ulid.node_id = 1" || ! pg_start $S; then
	not_ok "pgxn: a server of the private copy starts"
	exit 1
fi
psqlx $S -c "CREATE DATABASE app" >/dev/null
PGPORT=$(pg_port $S)
export PGHOST=$ULID_WORK/sock PGPORT PGUSER=postgres
if (cd "$d" && pgxn load --pg_config "$pgc" -d app --yes "$zip") >"$d/load.log" 2>&1; then
	ok "pgxn: pgxn load creates the extension"
else
	tail -20 "$d/load.log" | sed 's/^/# /'
	not_ok "pgxn: pgxn load creates the extension"
fi
check "pgxn: the loaded extension is version ${version%.*} and mints" "${version%.*}|t" \
	"$(ULID_DB=app psqlx $S -c "SELECT extversion, snowflake_next('twitter') > 0 FROM pg_extension WHERE extname = 'ulid'")"
if (cd "$d" && pgxn check --pg_config "$pgc" "$zip") >"$d/check.log" 2>&1; then
	ok "pgxn: pgxn check (make installcheck of the bundle) passes: $(grep -m1 -oE 'All [0-9]+ tests passed' "$d/check.log")"
	check "pgxn: ... against this server (its database contrib_regression)" 1 \
		"$(psqlx $S -c "SELECT count(*) FROM pg_database WHERE datname = 'contrib_regression'")"
else
	grep -E 'FAILED|failed|not ok' "$d/check.log" | sed 's/^/# /'
	[ -f "$d/regression.diffs" ] && head -60 "$d/regression.diffs" | sed 's/^/# /'
	not_ok "pgxn: pgxn check (make installcheck of the bundle) passes"
fi
pg_stop $S
