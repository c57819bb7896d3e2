#!/usr/bin/env bash
# JDBC: pgjdbc from Debian's libpostgresql-jdbc-java with Debian's JDK (both
# installed by test/deps.sh).  test/client/java/UlidJdbc.java is compiled with
# javac and run against a server on 127.0.0.1; each "ok"/"not ok" line it
# prints counts as one result.  A missing JDK or driver is a failure (never a
# skip).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

jar=/usr/share/java/postgresql.jar
if ! command -v javac >/dev/null || ! command -v java >/dev/null; then
	not_ok "client_java: javac and java are installed (Debian package default-jdk-headless; test/deps.sh installs it)"
	exit 1
fi
if [ ! -r "$jar" ]; then
	not_ok "client_java: $jar exists (Debian package libpostgresql-jdbc-java; test/deps.sh installs it)"
	exit 1
fi
build=$ULID_WORK/java
mkdir -p "$build"
client_build "client_java: UlidJdbc.java compiles" "$build/javac.log" \
	javac -Xlint:all -Werror -d "$build" -cp "$jar" "$ULID_ROOT/test/client/java/UlidJdbc.java" || exit 1
echo "# pgjdbc $(dpkg-query -W -f='${Version}' libpostgresql-jdbc-java 2>/dev/null) ($(readlink -f "$jar")), $(javac -version 2>&1)"

S=client_java
client_server $S "" jdbc || exit 1
run_client pgjdbc "$build/out" timeout 90 java -cp "$jar:$build" UlidJdbc "$(pg_port $S)" jdbc
pg_stop $S
