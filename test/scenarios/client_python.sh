#!/usr/bin/env bash
# Python clients from Debian's packages (installed by test/deps.sh):
# psycopg2, psycopg 3 (text and binary), asyncpg, SQLAlchemy 1.4 and
# Django 3.2, each in test/client/python/, each on its own database of one
# server that listens on 127.0.0.1.  Each "ok"/"not ok" line a program prints
# counts as one result; a module that cannot be imported is a failure (never
# a skip).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

# Debian's interpreter, where python3-* packages install (not a python3
# earlier on PATH, such as pyenv's)
PY=/usr/bin/python3
export PYTHONDONTWRITEBYTECODE=1  # no __pycache__ in the source tree
dir=$ULID_ROOT/test/client/python
S=client_python
if ! pg_new_tcp $S || ! pg_start $S; then
	not_ok "client_python: server on 127.0.0.1 starts"
	exit 1
fi

# program           module it needs    Debian package
clients="t_psycopg2   psycopg2   python3-psycopg2
t_psycopg3   psycopg    python3-psycopg
t_asyncpg    asyncpg    python3-asyncpg
t_sqlalchemy sqlalchemy python3-sqlalchemy
t_django     django     python3-django"
while read -r prog module pkg; do
	if ! out=$("$PY" -c "import $module; print($module.__version__)" 2>&1); then
		not_ok "$prog: $PY imports $module (Debian package $pkg; test/deps.sh installs it): $out"
		continue
	fi
	db=${prog#t_}
	psqlx $S -c "CREATE DATABASE $db" && ULID_DB=$db psqlx $S -c "CREATE EXTENSION ulid" ||
		{ not_ok "$prog: database $db with the extension"; continue; }
	echo "# $prog: $module $out"
	(cd "$dir" && PGPORT=$(pg_port $S) PGDATABASE=$db timeout 60 "$PY" "$prog.py") >"$ULID_WORK/$prog.out" 2>&1
	rc=$?
	relay_results "$module" "$ULID_WORK/$prog.out"
	[ $rc -eq 0 ] || not_ok "$prog exited with status $rc"
done <<<"$clients"
pg_stop $S
