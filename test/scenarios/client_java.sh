#!/usr/bin/env bash
# The Java adapter (clients/java, io.github.ulid-pg:ulid-pg) with pgjdbc from
# Debian's libpostgresql-jdbc-java and Debian's JDK (both installed by
# test/deps.sh): the JDBC helper is compiled with javac -Werror and packed
# into a jar with its pom.xml (the build check: Maven Central is unreachable,
# so no mvn), then clients/java/test/UlidJdbc.java runs against a server;
# each "ok"/"not ok" line counts.  A missing JDK or driver is a failure.
#
# The Hibernate types (io.github.ulidpg.hibernate) need Hibernate ORM 6,
# which Debian 12 does not have: with ULID_HIBERNATE_CLASSPATH naming its
# jars (for example `mvn dependency:build-classpath` of hibernate-core 6.4
# where Maven Central is reachable) they are compiled and
# clients/java/test/UlidHibernate.java runs; otherwise a skip line says so.
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
src=$ULID_ROOT/clients/java
build=$ULID_WORK/java
mkdir -p "$build/classes/META-INF/maven/io.github.ulid-pg/ulid-pg" "$build/test"
hcp=${ULID_HIBERNATE_CLASSPATH:-}
sources=$(find "$src/src/main/java" -name '*.java' | { if [ -n "$hcp" ]; then cat; else grep -v /hibernate/; fi; })
# shellcheck disable=SC2086 # the file list
client_build "client_java: ulid-pg compiles (javac -Xlint:all -Werror)" "$build/javac.log" \
	javac -Xlint:all -Werror --release 11 -d "$build/classes" -cp "$jar${hcp:+:$hcp}" $sources || exit 1
cp "$src/pom.xml" "$build/classes/META-INF/maven/io.github.ulid-pg/ulid-pg/"
client_build "client_java: jar packs ulid-pg-1.2.0.jar" "$build/jar.log" \
	jar --create --file "$build/ulid-pg-1.2.0.jar" -C "$build/classes" . || exit 1
ok "client_java: ulid-pg-1.2.0.jar built ($(jar --list --file "$build/ulid-pg-1.2.0.jar" | grep -c '\.class$') classes, with pom.xml)"
cp="$jar:$build/ulid-pg-1.2.0.jar"
client_build "client_java: UlidJdbc.java compiles" "$build/javac-test.log" \
	javac -Xlint:all -Werror -d "$build/test" -cp "$cp" "$src/test/UlidJdbc.java" || exit 1
echo "# pgjdbc $(dpkg-query -W -f='${Version}' libpostgresql-jdbc-java 2>/dev/null) ($(readlink -f "$jar")), $(javac -version 2>&1)"

S=client_java
client_server $S "" jdbc hibernate || exit 1
run_client pgjdbc "$build/out" timeout 90 java -cp "$cp:$build/test" UlidJdbc "$(pg_port $S)" jdbc
if [ -z "$hcp" ]; then
	skip "client_java: Hibernate 6 (hibernate-core 6 and its jars are not in Debian 12, Maven Central is unreachable): set ULID_HIBERNATE_CLASSPATH to run clients/java/test/UlidHibernate.java"
elif client_build "client_java: UlidHibernate.java compiles" "$build/javac-hibernate.log" \
	javac -d "$build/test" -cp "$cp:$hcp" "$src/test/UlidHibernate.java"; then
	run_client hibernate "$build/hibernate.out" timeout 120 java -cp "$cp:$hcp:$build/test" UlidHibernate "$(pg_port $S)" hibernate
fi
pg_stop $S
