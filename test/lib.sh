#!/usr/bin/env bash
# Shared harness for ulid's tests, scenarios, demo and benchmarks.
#
# Source it, then:
#   harness_init            private work dir, build, temp install, cleanup trap
#   pg_new NAME [conf...]   initdb a throwaway server (unix socket only, its own
#                           port in the run's private socket dir, run as the
#                           postgres user, shared_preload_libraries =
#                           '$ULID_PRELOAD', by default 'ulid')
#   pg_new_tcp NAME [conf...]  the same, also listening on 127.0.0.1 (trust)
#   pg_new_standby NAME PRIMARY  a streaming replica (pg_basebackup -R)
#   pg_start/pg_stop/pg_crash NAME, psqlx NAME [psql args]
#   ok/not_ok/check         count results (ok or not ok lines); skip REASON
#   relay_results PREFIX FILE  count a client program's ok / not ok lines
#   wait_until SECS cmd...  poll a command until it succeeds
#   sql_error NAME SQL      the SQLSTATE|message|detail|hint an expression raises
#   sqlstate_of NAME DB SQL "SQLSTATE: message" of the error a statement raises
# Every server started is stopped on exit, also on failure.

ULID_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ -z "${PG_CONFIG:-}" ]; then
	if [ -x /usr/lib/postgresql/15/bin/pg_config ]; then
		PG_CONFIG=/usr/lib/postgresql/15/bin/pg_config
	else
		PG_CONFIG=pg_config
	fi
fi
export PG_CONFIG

# --- results --------------------------------------------------------------
: "${ULID_RESULTS:=}"
ok() {
	echo "ok - $*"
	[ -n "$ULID_RESULTS" ] && echo "ok" >>"$ULID_RESULTS"
	return 0
}
not_ok() {
	echo "not ok - $*"
	[ -n "$ULID_RESULTS" ] && echo "not ok" >>"$ULID_RESULTS"
	return 0
}
# skip REASON: a test that cannot run here; counted as neither passed nor
# failed (test/run reports how many were skipped)
skip() {
	echo "# skip - $*"
	[ -n "$ULID_RESULTS" ] && echo "skip" >>"$ULID_RESULTS"
	return 0
}
# check DESCRIPTION EXPECTED ACTUAL
check() {
	if [ "$2" == "$3" ]; then
		ok "$1"
	else
		not_ok "$1 (expected '$2', got '$3')"
	fi
}
# check_same DESCRIPTION EXPECTED ACTUAL: check for multi-line values; a
# difference is shown as a diff in comment lines
check_same() {
	if [ "$2" == "$3" ]; then
		ok "$1"
	else
		not_ok "$1"
		diff <(echo "$2") <(echo "$3") | sed 's/^/# /'
	fi
}
# check_interleaved LABEL SWITCHES: concurrent sessions' ids switch session
# in id order over 1000 times (they really ran at once), or, on a machine so
# loaded that it ran them one after another, a skip saying so: the order
# checks beside it then held but tested little concurrency
check_interleaved() {
	if [ "${2:-0}" -gt 1000 ]; then
		ok "$1: the sessions really interleaved ($2 switches in id order)"
	else
		skip "$1: the sessions barely interleaved (${2:-0} switches in id order, the machine ran them one after another)"
	fi
}
# check_cmd DESCRIPTION command...: ok when the command exits 0
check_cmd() {
	local d=$1
	shift
	if "$@"; then ok "$d"; else not_ok "$d"; fi
}

# relay_results PREFIX FILE: count each "ok - ..." / "not ok - ..." line of
# a client program's output as a result (prefixed); other lines are comments
relay_results() {
	local line
	while IFS= read -r line; do
		case $line in
		"ok - "*) ok "$1: ${line#ok - }" ;;
		"not ok - "*) not_ok "$1: ${line#not ok - }" ;;
		*) echo "# $line" ;;
		esac
	done <"$2"
}

# client_server NAME CONF DB...: for the client scenarios, a server on
# 127.0.0.1 (pg_new_tcp; CONF: one postgresql.conf line, or "") and each DB
# with the extension; a "not ok" line and status 1 when that fails
client_server() {
	local name=$1 conf=$2 db
	shift 2
	if ! pg_new_tcp "$name" "$conf" || ! pg_start "$name"; then
		not_ok "$name: server on 127.0.0.1 starts"
		return 1
	fi
	for db in "$@"; do
		if ! psqlx "$name" -c "CREATE DATABASE $db" || ! ULID_DB=$db psqlx "$name" -c "CREATE EXTENSION ulid"; then
			not_ok "$name: database $db with the extension"
			return 1
		fi
	done
}

# pgbouncer_start NAME SERVER: Debian's pgbouncer (if installed) in front of
# the client server SERVER (pg_new_tcp), pool_mode = transaction and two
# server connections, on a free port of 127.0.0.1 (NAME.port); status 1
# without pgbouncer.  pgbouncer_stop NAME stops it by its pid file.
pgbouncer_start() {
	local name=$1 server=$2 port dir=$ULID_WORK/$1
	command -v pgbouncer >/dev/null || return 1
	while (: </dev/tcp/127.0.0.1/"$ULID_NEXT_PORT") 2>/dev/null; do
		ULID_NEXT_PORT=$((ULID_NEXT_PORT + 1))
	done
	port=$ULID_NEXT_PORT
	ULID_NEXT_PORT=$((ULID_NEXT_PORT + 1))
	mkdir -p "$dir"
	echo '"postgres" ""' >"$dir/users.txt"
	cat >"$dir/pgbouncer.ini" <<-EOF
		[databases]
		* = host=127.0.0.1 port=$(pg_port "$server")
		[pgbouncer]
		listen_addr = 127.0.0.1
		listen_port = $port
		unix_socket_dir =
		auth_type = trust
		auth_file = $dir/users.txt
		pool_mode = transaction
		default_pool_size = 2
		logfile = $dir/pgbouncer.log
		pidfile = $dir/pgbouncer.pid
	EOF
	chown -R postgres: "$dir" 2>/dev/null || true
	as_pg pgbouncer -d "$dir/pgbouncer.ini" >"$dir/start.log" 2>&1 || return 1
	echo "$port" >"$ULID_WORK/$name.port"
	for _ in $(seq 50); do
		(: </dev/tcp/127.0.0.1/"$port") 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}
pgbouncer_stop() {
	local pid
	pid=$(cat "$ULID_WORK/$1/pgbouncer.pid" 2>/dev/null) && kill "$pid"
}

# client_build DESCRIPTION LOG command...: build a client program (output
# to LOG); on failure the log as comments, a "not ok" line and status 1
client_build() {
	local desc=$1 log=$2
	shift 2
	if ! "$@" >"$log" 2>&1; then
		tail -60 "$log" | sed 's/^/# /'
		not_ok "$desc"
		return 1
	fi
}

# run_client LABEL OUT command...: run a client program (its output to OUT),
# count its ok / not ok lines under LABEL, and a non-zero exit as a failure
run_client() {
	local label=$1 out=$2 rc
	shift 2
	"$@" >"$out" 2>&1
	rc=$?
	relay_results "$label" "$out"
	[ $rc -eq 0 ] || not_ok "$label: '$*' exited with status $rc"
}

# --- running as the postgres user -------------------------------------------
as_pg() {
	if [ "$(id -u)" -eq 0 ]; then
		runuser -u postgres -- "$@"
	else
		"$@"
	fi
}

# --- work dir, build and temporary installation ----------------------------
ULID_SERVERS=()
harness_cleanup() {
	local n
	for n in "${ULID_SERVERS[@]}"; do
		pg_stop "$n" immediate >/dev/null 2>&1 || true
	done
	if [ -n "${ULID_WORK:-}" ] && [ -z "${ULID_KEEP:-}" ]; then
		rm -rf "$ULID_WORK"
	fi
}

# pg_mirror DEST: a private copy of $PG_CONFIG's server under DEST (its bin
# and share directories copied, its lib linked file by file, its headers
# linked), into which ulid installs without touching the machine's
# PostgreSQL: DEST's pg_config reports DEST's directories (PostgreSQL finds
# them relative to its programs), and its postgres loads extensions from
# there.  Files already in DEST stay; nothing of ulid's is linked, so an
# install never writes through a link into the machine's files.
pg_mirror() {
	local dest=$1 bindir sharedir pkglibdir incdir f
	bindir=$("$PG_CONFIG" --bindir)
	sharedir=$("$PG_CONFIG" --sharedir)
	pkglibdir=$("$PG_CONFIG" --pkglibdir)
	incdir=$("$PG_CONFIG" --includedir)
	mkdir -p "$dest$bindir" "$dest$pkglibdir/bitcode" "$dest$sharedir" "$dest$("$PG_CONFIG" --libdir)" "$(dirname "$dest$incdir")"
	cp -a "$bindir/." "$dest$bindir/"
	for f in "$pkglibdir"/* "$pkglibdir"/bitcode/*; do
		[ -e "$f" ] || continue
		case ${f##*/} in ulid* | bitcode) continue ;; esac
		[ -e "$dest$f" ] || [ -L "$dest$f" ] || ln -s "$f" "$dest$f"
	done
	tar -C "$sharedir" --exclude='./extension/ulid.control' --exclude='./extension/ulid--*' -cf - . |
		tar -C "$dest$sharedir" --skip-old-files -xf -
	[ -e "$dest$incdir" ] || ln -s "$incdir" "$dest$incdir"
}

# harness_init: make, install into a private prefix (a copy of the server's
# bin and share dirs next to the extension, so nothing is installed system
# wide and parallel runs do not collide), set PG_BIN to that prefix's bindir.
harness_init() {
	ULID_WORK=$(mktemp -d /tmp/ulid-test.XXXXXX)
	chmod 755 "$ULID_WORK"
	mkdir -p "$ULID_WORK/sock" "$ULID_WORK/log"
	chown postgres: "$ULID_WORK/sock" "$ULID_WORK/log" 2>/dev/null || true
	trap harness_cleanup EXIT
	trap 'exit 130' INT TERM

	local bindir pkglibdir dest
	bindir=$("$PG_CONFIG" --bindir)
	pkglibdir=$("$PG_CONFIG" --pkglibdir)
	dest=$ULID_WORK/install
	if ! make -C "$ULID_ROOT" -s PG_CONFIG="$PG_CONFIG" >"$ULID_WORK/build.log" 2>&1 ||
		! make -C "$ULID_ROOT" -s PG_CONFIG="$PG_CONFIG" install DESTDIR="$dest" >>"$ULID_WORK/build.log" 2>&1; then
		cat "$ULID_WORK/build.log" >&2
		echo "harness: build failed" >&2
		return 1
	fi
	pg_mirror "$dest"
	PG_BIN=$dest$bindir
	PG_PKGLIBDIR=$pkglibdir
	PG_VERSION_NUM=$("$PG_BIN/postgres" -V | sed -E 's/.* ([0-9]+)(\.([0-9]+))?.*/\1/')
	export PG_BIN PG_VERSION_NUM
}

# --- servers -------------------------------------------------------------
ULID_NEXT_PORT=${ULID_NEXT_PORT:-5500}
pg_port() { cat "$ULID_WORK/$1.port"; }
pg_data() { echo "$ULID_WORK/$1"; }

# pg_new NAME [extra postgresql.conf lines...]
pg_new() {
	local name=$1 port
	shift
	port=$ULID_NEXT_PORT
	ULID_NEXT_PORT=$((ULID_NEXT_PORT + 1))
	echo "$port" >"$ULID_WORK/$name.port"
	mkdir -p "$ULID_WORK/$name"
	chown postgres: "$ULID_WORK/$name" 2>/dev/null || true
	as_pg "$PG_BIN/initdb" -D "$ULID_WORK/$name" -U postgres --auth=trust \
		-E UTF8 --locale=C.UTF-8 >"$ULID_WORK/$name.initdb.log" 2>&1 || {
		cat "$ULID_WORK/$name.initdb.log" >&2
		return 1
	}
	{
		echo "port = $port"
		echo "listen_addresses = ''"
		echo "unix_socket_directories = '$ULID_WORK/sock'"
		echo "shared_preload_libraries = '${ULID_PRELOAD-ulid}'"
		echo "fsync = off"
		echo "max_connections = 40"
		echo "timezone = 'UTC'"
		local line
		for line in "$@"; do echo "$line"; done
	} >>"$ULID_WORK/$name/postgresql.conf"
}

# pg_new_tcp NAME [extra postgresql.conf lines...]: pg_new, and the server
# also listens on 127.0.0.1 (loopback only) at its port, with trust for
# 127.0.0.1 in pg_hba.conf.  TCP ports are shared with everything else on the
# machine: a port of the harness's range that something already listens on
# is passed over.
pg_new_tcp() {
	local name=$1
	shift
	while (: </dev/tcp/127.0.0.1/"$ULID_NEXT_PORT") 2>/dev/null; do
		ULID_NEXT_PORT=$((ULID_NEXT_PORT + 1))
	done
	pg_new "$name" "listen_addresses = '127.0.0.1'" "$@" || return 1
	sed -i '1i host all all 127.0.0.1/32 trust' "$ULID_WORK/$name/pg_hba.conf"
}

# pg_new_standby NAME PRIMARY: a streaming replica of the running server
# PRIMARY, made by pg_basebackup -R over the unix socket, on its own port
pg_new_standby() {
	pg_new_basebackup "$1" "$2" -R
}

# pg_new_basebackup NAME PRIMARY [pg_basebackup options...]: a base backup
# of the running server PRIMARY over the unix socket, a server of its own
# port (not started)
pg_new_basebackup() {
	local name=$1 primary=$2 port
	shift 2
	port=$ULID_NEXT_PORT
	ULID_NEXT_PORT=$((ULID_NEXT_PORT + 1))
	echo "$port" >"$ULID_WORK/$name.port"
	mkdir -p "$ULID_WORK/$name"
	chmod 700 "$ULID_WORK/$name"
	chown postgres: "$ULID_WORK/$name" 2>/dev/null || true
	as_pg "$PG_BIN/pg_basebackup" -D "$ULID_WORK/$name" "$@" -X stream -c fast \
		-h "$ULID_WORK/sock" -p "$(pg_port "$primary")" -U postgres >"$ULID_WORK/$name.basebackup.log" 2>&1 || {
		cat "$ULID_WORK/$name.basebackup.log" >&2
		return 1
	}
	echo "port = $port" >>"$ULID_WORK/$name/postgresql.conf"
}

pg_start() {
	local name=$1
	as_pg "$PG_BIN/pg_ctl" -D "$ULID_WORK/$name" -l "$ULID_WORK/log/$name.log" -w -t 60 start >/dev/null || {
		tail -20 "$ULID_WORK/log/$name.log" >&2
		return 1
	}
	ULID_SERVERS+=("$name")
}

# pg_stop NAME [fast|immediate]
pg_stop() {
	as_pg "$PG_BIN/pg_ctl" -D "$ULID_WORK/$1" -m "${2:-fast}" -w -t 60 stop >/dev/null
}

# psqlx NAME [psql args...]: unaligned, tuples only, stop on error
psqlx() {
	local name=$1
	shift
	"$PG_BIN/psql" -X -q -At -v ON_ERROR_STOP=1 -h "$ULID_WORK/sock" -p "$(pg_port "$name")" \
		-U postgres -d "${ULID_DB:-postgres}" "$@"
}

# sqlstate_of NAME DB SQL: "SQLSTATE: message" of the error SQL raises in
# database DB of server NAME, or "ok"
sqlstate_of() {
	local out
	if out=$(ULID_DB=$2 psqlx "$1" -v VERBOSITY=verbose -c "$3" 2>&1 >/dev/null); then
		echo ok
	else
		sed -nE 's/^(psql:[^:]*:[0-9]+: )?ERROR: +//p' <<<"$out" | head -1
	fi
}

# harness_attach: for a script run by test/run (or by hand after
# harness_init in the same shell): reuse ULID_WORK and PG_BIN, stop only the
# servers this script starts.
harness_attach() {
	if [ -z "${ULID_WORK:-}" ] || [ -z "${PG_BIN:-}" ]; then
		harness_init
		return
	fi
	ULID_KEEP=1
	trap harness_cleanup EXIT
	trap 'exit 130' INT TERM
}

# count_results FILE: print "passed failed" for the ok/not ok lines of FILE
count_results() {
	local p f
	p=$(grep -c '^ok' "$1")
	f=$(grep -c '^not ok' "$1")
	echo "$p $f"
}

# wait_until SECONDS command...: poll the command every 0.1 s until it
# sql_error NAME SQL [psql args...]: "SQLSTATE|message|detail|hint" of the
# error evaluating the expression SQL raises on server NAME, or "ok"
sql_error() {
	local name=$1 expr=$2
	shift 2
	psqlx "$name" "$@" -c "DO \$\$ DECLARE st text; msg text; det text; hnt text; BEGIN PERFORM ($expr); RAISE NOTICE 'ok';
		EXCEPTION WHEN OTHERS THEN GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL, hnt = PG_EXCEPTION_HINT;
		RAISE NOTICE '%|%|%|%', st, msg, det, hnt; END \$\$" 2>&1 | sed -n 's/^.*NOTICE: *//p'
}

# succeeds (status 0) or SECONDS pass (status 1)
wait_until() {
	local tries=$(($1 * 10))
	shift
	while [ "$tries" -gt 0 ]; do
		"$@" && return 0
		sleep 0.1
		tries=$((tries - 1))
	done
	return 1
}
