#!/usr/bin/env bash
# The Python adapter (clients/python, ulid_pg) with Debian's drivers and
# frameworks (installed by test/deps.sh): psycopg2, psycopg 3, asyncpg,
# SQLAlchemy 1.4, Alembic 1.8 and Django 3.2; and psycopg 3 and asyncpg
# behind Debian's pgbouncer, where it is installed.  The wheel is built offline
# (python3 -m build --no-isolation, Debian's python3-build) and installed into
# the work dir; each program of clients/python/tests runs on its own database
# of one server on 127.0.0.1, and each "ok"/"not ok" line it prints counts.
# A module that cannot be imported is a failure (never a skip).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

# Debian's interpreter, where python3-* packages install (not a python3
# earlier on PATH, such as pyenv's)
PY=/usr/bin/python3
export PYTHONDONTWRITEBYTECODE=1  # no __pycache__ in the source tree
build=$ULID_WORK/python
mkdir -p "$build"
cp -a "$ULID_ROOT/clients/python" "$build/src"
client_build "client_python: the ulid_pg wheel builds offline (python3 -m build --no-isolation)" "$build/build.log" \
	env -C "$build/src" "$PY" -m build --no-isolation --wheel --outdir "$build/dist" . || exit 1
client_build "client_python: pip installs the wheel" "$build/install.log" \
	"$PY" -m pip install --no-index --no-deps --target "$build/site" "$build"/dist/ulid_pg-*.whl || exit 1
ok "client_python: $(basename "$build"/dist/ulid_pg-*.whl) built and installed"
export PYTHONPATH=$build/site:$ULID_ROOT/clients/python/tests
S=client_python
if ! pg_new_tcp $S "ulid.node_id = 1" || ! pg_start $S; then
	not_ok "client_python: server on 127.0.0.1 starts"
	exit 1
fi

# program       module it needs    Debian package
clients="t_psycopg2   psycopg2   python3-psycopg2
t_psycopg3   psycopg    python3-psycopg
t_asyncpg    asyncpg    python3-asyncpg
t_sqlalchemy sqlalchemy python3-sqlalchemy
t_alembic    alembic    python3-alembic
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
	(cd "$build" && PGPORT=$(pg_port $S) PGDATABASE=$db timeout 60 "$PY" "$ULID_ROOT/clients/python/tests/$prog.py") >"$ULID_WORK/$prog.out" 2>&1
	rc=$?
	relay_results "$module" "$ULID_WORK/$prog.out"
	[ $rc -eq 0 ] || not_ok "$prog exited with status $rc"
done <<<"$clients"

# the registrations behind pgbouncer in transaction mode (Debian's pgbouncer),
# on a database not named pgbouncer (that is its admin console)
if pgbouncer_start pgbouncer $S; then
	psqlx $S -c "CREATE DATABASE behind_pgbouncer" && ULID_DB=behind_pgbouncer psqlx $S -c "CREATE EXTENSION ulid" || not_ok "pgbouncer: database"
	echo "# t_pgbouncer: $(pgbouncer --version | head -1), pool_mode = transaction, default_pool_size = 2"
	(cd "$build" && PGPORT=$(pg_port pgbouncer) PGDATABASE=behind_pgbouncer timeout 60 "$PY" "$ULID_ROOT/clients/python/tests/t_pgbouncer.py") >"$ULID_WORK/t_pgbouncer.out" 2>&1
	rc=$?
	relay_results pgbouncer "$ULID_WORK/t_pgbouncer.out"
	[ $rc -eq 0 ] || not_ok "t_pgbouncer exited with status $rc"
	pgbouncer_stop pgbouncer
else
	skip "client_python: behind pgbouncer (not installed, or it did not start: apt-get install pgbouncer)"
fi
pg_stop $S
