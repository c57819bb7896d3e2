#!/usr/bin/env bash
# The released libraries, built from their release commits (sourced by
# test/scenarios/upgrade.sh after test/lib.sh's harness_attach).
#
#   release_rows            "VERSION COMMIT" per row of test/README.md's
#                           release table ("The releases so far"), oldest
#                           first: a release joins the test with its row
#   release_missing COMMIT  why the release cannot be built here (no git
#                           history: a tarball or `make dist` tree, or a
#                           shallow clone without the commit), or nothing
#   release_install VERSION COMMIT
#                           `git archive COMMIT` into the run's work dir,
#                           make and make install DESTDIR= a private server
#                           copy (pg_mirror) against the same $PG_CONFIG;
#                           built once per run (ULID_WORK/release-VERSION)
#   release_bindir VERSION  that copy's bindir: a server started from it
#                           loads the release's ulid.so and scripts
#
# The old trees' Makefiles all take PG_CONFIG and DESTDIR (1.0 lists its
# upgrade scripts as ulid--*--*.sql, 1.1 on every ulid--*.sql but the built
# one); the old code is built with PGXS's own flags, not the caller's
# PG_CFLAGS (-Werror is for the code under work, not a frozen release).

release_rows() {
	sed -nE 's/^\| ([0-9]+\.[0-9]+) \| [^|]*\| ([0-9a-f]{7,40}) \|.*/\1 \2/p' "$ULID_ROOT/test/README.md" | sort -V
}

release_missing() {
	if ! git -C "$ULID_ROOT" rev-parse --git-dir >/dev/null 2>&1; then
		echo "no git history in $ULID_ROOT (a release tarball or make dist tree)"
	elif ! git -C "$ULID_ROOT" cat-file -e "$1^{commit}" 2>/dev/null; then
		echo "commit $1 is not in this clone (shallow?)"
	fi
}

release_bindir() { echo "$ULID_WORK/release-$1$("$PG_CONFIG" --bindir)"; }

release_install() {
	local v=$1 c=$2 dest=$ULID_WORK/release-$1 src=$ULID_WORK/release-$1.src
	local log=$ULID_WORK/log/release-$1.build.log
	[ -e "$dest/.built" ] && return 0
	rm -rf "$dest" "$src"
	mkdir -p "$src"
	if ! git -C "$ULID_ROOT" archive "$c" | tar -x -C "$src" ||
		! env -u PG_CFLAGS make -C "$src" -s -j2 PG_CONFIG="$PG_CONFIG" >"$log" 2>&1 ||
		! env -u PG_CFLAGS make -C "$src" -s PG_CONFIG="$PG_CONFIG" install DESTDIR="$dest" >>"$log" 2>&1; then
		echo "release $v ($c) does not build: $log" >&2
		tail -20 "$log" >&2
		return 1
	fi
	pg_mirror "$dest"
	rm -rf "$src"
	touch "$dest/.built"
}
