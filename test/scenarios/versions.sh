#!/usr/bin/env bash
# One version everywhere (test/README.md, "Cutting a release"):
# test/release/versions.py passes on this tree, and fails on copies of it
# with one disagreement each (META.json, the CHANGELOG, the control file, the
# README, the release table, the frozen scripts, debian/changelog), naming
# the file that disagrees.  No server.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
ULID_ROOT=$(cd "$here/../.." && pwd)
check_versions=$ULID_ROOT/test/release/versions.py

if out=$(python3 "$check_versions" "$ULID_ROOT" 2>&1); then
	ok "versions: this tree agrees ($out)"
else
	not_ok "versions: this tree agrees"
	echo "$out" | sed 's/^/# /'
fi

work=$(mktemp -d /tmp/ulid-versions.XXXXXX)
trap 'rm -rf "$work"' EXIT
# mutant NAME EXPECTED-PATTERN SED-SCRIPT FILE: a copy of the release files
# with FILE edited by SED-SCRIPT; the check must fail and say EXPECTED-PATTERN
mutant() {
	local name=$1 pattern=$2 script=$3 file=$4 copy=$work/$1 out
	mkdir -p "$copy/test" "$copy/sql"
	cp "$ULID_ROOT"/{ulid.control,META.json,CHANGELOG.md,README.md} "$copy/"
	cp "$ULID_ROOT/test/README.md" "$copy/test/"
	cp "$ULID_ROOT"/sql/ulid*.sql "$copy/sql/"
	[ -d "$ULID_ROOT/debian" ] && mkdir -p "$copy/debian" && cp "$ULID_ROOT/debian/changelog" "$copy/debian/"
	# the repository's objects, for the release commits
	[ -e "$ULID_ROOT/.git" ] && echo "gitdir: $(git -C "$ULID_ROOT" rev-parse --absolute-git-dir)" >"$copy/.git"
	if [ "$script" == rm ]; then
		rm "$copy/$file"
	else
		cp "$copy/$file" "$copy/$file.orig"
		sed -i -E "$script" "$copy/$file"
		if cmp -s "$copy/$file" "$copy/$file.orig"; then
			not_ok "versions: mutant $name changes $file (the sed script matched nothing)"
			return
		fi
	fi
	if out=$(python3 "$check_versions" "$copy" 2>&1); then
		not_ok "versions: mutant $name is caught"
	elif grep -qE "$pattern" <<<"$out"; then
		ok "versions: mutant $name is caught ($(grep -m1 -E "$pattern" <<<"$out"))"
	else
		not_ok "versions: mutant $name is caught, saying $pattern"
		echo "$out" | sed 's/^/# /'
	fi
}

current=$(sed -n "s/^default_version *= *'\(.*\)'/\1/p" "$ULID_ROOT/ulid.control")
mutant meta_version '^META.json: version' 's/"version": "[0-9.]+(-dev)?",$/"version": "0.9.0",/' META.json
if grep -q '"version": "[0-9.]*-dev"' "$ULID_ROOT/META.json"; then
	mutant snapshot_named_as_release '^META.json: version' 's/"version": "([0-9.]+)-dev"/"version": "\1"/g' META.json
else
	mutant release_named_as_snapshot '^META.json: version' 's/"version": "([0-9.]+)"/"version": "\1-dev"/g' META.json
fi
mutant provides_version '^META.json: provides' '0,/"version": "[0-9.]+(-dev)?"/! s/"version": "[0-9.]+(-dev)?"$/"version": "0.9.0"/' META.json
mutant release_status '^META.json: release_status' 's/"release_status": "[a-z]+"/"release_status": "stable"/' META.json
mutant no_repository '^META.json: resources.repository' '/"repository"/,/}/ s/"url":/"urlx":/' META.json
mutant control '^CHANGELOG.md: the first heading' "s/^default_version = .*/default_version = '9.9'/" ulid.control
mutant changelog_dated '^META.json: release_status' "1,/^## / s/^## $current \\(unreleased\\)/## $current (2030-01-01)/" CHANGELOG.md
mutant changelog_undated_release '^CHANGELOG.md: 1.0 is not the newest' 's/^## 1\.0 \(.*\)$/## 1.0 (unreleased)/' CHANGELOG.md
mutant changelog_order '^CHANGELOG.md: versions not newest first' 's/^## 1\.0 /## 1.9 /' CHANGELOG.md
mutant readme_extversion '^README.md: Upgrades does not show extversion' "/WHERE extname = 'ulid';\$/{n;s/^-- .*/-- 0.9/}" README.md
mutant readme_released '^README.md: Upgrades does not name the released version \*\*1.0\*\*' 's/\*\*1\.0\*\*/1.0/' README.md
mutant readme_bundle '^README.md: names ulid-0.9.0.zip' 's/ulid-[0-9.]+[0-9](-dev)?\.zip/ulid-0.9.0.zip/' README.md
mutant readme_package '^README.md: names postgresql-15-ulid_0.9.0-' 's/postgresql-15-ulid_[0-9.]+(~dev)?-/postgresql-15-ulid_0.9.0-/' README.md
mutant readme_tag_missing '^README.md: names the tag v1.1' 's/^git clone https/git clone --branch v1.1.0 https/' README.md
c10=$(sed -nE 's/^\| 1\.0 \| [^|]*\| ([0-9a-f]+) \|.*/\1/p' "$ULID_ROOT/test/README.md")
mutant readme_checkout '^README.md: checks out' "s/^git checkout [0-9a-f]+ /git checkout $c10 /" README.md
mutant table_missing '^test/README.md: the release table has no commit for 1.1' '/^\| 1\.1 \|/d' test/README.md
mutant frozen_missing '^sql/: released 1.0 has no frozen' rm sql/ulid--1.0.sql
mutant update_missing '^sql/: no update script' rm "sql/ulid--1.0--1.1.sql"
if [ -e "$ULID_ROOT/.git" ]; then
	mutant table_commit "^test/README.md: at 1.1's commit $c10 ulid.control says 1.0" "s/^(\\| 1\\.1 \\| [^|]*\\| )[0-9a-f]+/\\1$c10/" test/README.md
else
	skip "versions: the release commits (no git repository in this copy)"
fi
if [ -d "$ULID_ROOT/debian" ]; then
	mutant debian_changelog '^debian/changelog' '1 s/\(([0-9.]+)(~dev)?-/(0.9.0-/' debian/changelog
fi
