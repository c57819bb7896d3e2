#!/usr/bin/env bash
# Install what building and testing ulid needs, from Debian's packages, if it
# is missing.  Safe to run again: it installs nothing that is already there.
#   test/deps.sh         everything the test suite needs (test/run)
#   test/deps.sh build   only the server, its headers and the build tools
#                        (test/demo: the tour needs nothing else)
#   test/deps.sh deb     those and the Debian packaging tools (test/compat.sh --deb)
set -euo pipefail

PG_MAJOR=${PG_MAJOR:-15}
build_pkgs=(
	"postgresql-$PG_MAJOR" "postgresql-server-dev-$PG_MAJOR" "postgresql-client-$PG_MAJOR"
	make gcc libc6-dev
	procps util-linux           # pgrep/ps, runuser
)
deb_pkgs=(build-essential dpkg-dev debhelper postgresql-server-dev-all lintian)  # dpkg-buildpackage, pg_buildext
# shellcheck source=apt.sh
source "$(dirname "$0")/apt.sh"
if [ "${1:-}" = build ] || [ "${1:-}" = deb ]; then
	[ "$1" = deb ] && build_pkgs+=("${deb_pkgs[@]}")
	mapfile -t missing < <(apt_missing "${build_pkgs[@]}")
	apt_install deps "${missing[@]}"
	exit 0
fi
pkgs=(
	"${build_pkgs[@]}"
	clang libclang-rt-dev        # libFuzzer and the sanitizers (any clang version)
	# --- client adapters (clients/, test/scenarios/client_*.sh; Node.js below) ---
	# Python: the drivers and frameworks for Debian's /usr/bin/python3, and
	# what builds the ulid_pg wheel offline and installs it (client_python)
	python3-psycopg2 python3-psycopg python3-asyncpg python3-sqlalchemy python3-alembic python3-django
	python3-build python3-setuptools python3-wheel python3-pip
	libpostgresql-jdbc-java default-jdk-headless  # pgjdbc and a JDK (client_java)
	ruby-activerecord ruby-pg   # ActiveRecord 6.1 (client_ruby; gem build)
	golang-go golang-github-jackc-pgx-v4-dev  # Go and pgx v4, built offline (client_go)
	cargo rustc librust-tokio-postgres-dev librust-tokio-dev librust-uuid-dev  # Rust (client_rust)
	elixir                      # Elixir (client_elixir; Postgrex and Ecto are not in Debian)
	# --- end of the client adapters' packages ---
	valgrind gnuplot-nox        # the benchmark's instruction counts (callgrind) and plots
	python3                     # test/readme/check.py, the README's examples
	pgxnclient                  # the pgxn scenario: pgxn install/load/check of make dist's zip
	"${deb_pkgs[@]}"            # the debian_package scenario
)
mapfile -t missing < <(apt_missing "${pkgs[@]}")
# the Node.js client scenario needs Node.js and npm: the machine image
# has them (NodeSource's nodejs package); Debian's otherwise
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	missing+=(nodejs npm)
fi
apt_install deps "${missing[@]}"
