#!/usr/bin/env bash
# Ruby: ActiveRecord 6.1 with ruby-pg, from Debian's ruby-activerecord and
# ruby-pg (installed by test/deps.sh).  test/client/ruby/t_activerecord.rb
# migrates, creates, finds, inserts in bulk, follows associations and dumps
# schema.rb without and with the README's recipe (ulid_type.rb), loading the
# dump into a second database; each "ok"/"not ok" line counts.  A missing
# package is a failure (never a skip).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

RUBY=/usr/bin/ruby
if ! out=$("$RUBY" -e 'require "active_record"; require "pg"; print ActiveRecord.version, " pg ", PG::VERSION' 2>&1); then
	not_ok "client_ruby: $RUBY loads active_record and pg (Debian packages ruby-activerecord, ruby-pg; test/deps.sh installs them): $out"
	exit 1
fi
echo "# ActiveRecord $out, $("$RUBY" -v)"
S=client_ruby
if ! pg_new_tcp $S "ulid.node_id = 1" || ! pg_start $S; then
	not_ok "client_ruby: server on 127.0.0.1 starts"
	exit 1
fi
for db in ar ar_load; do
	if ! psqlx $S -c "CREATE DATABASE $db" || ! ULID_DB=$db psqlx $S -c "CREATE EXTENSION ulid"; then
		not_ok "client_ruby: database $db with the extension"
		exit 1
	fi
done
(cd "$ULID_ROOT/test/client/ruby" && timeout 120 "$RUBY" t_activerecord.rb "$(pg_port $S)" ar ar_load) >"$ULID_WORK/ruby.out" 2>&1
rc=$?
relay_results activerecord "$ULID_WORK/ruby.out"
[ $rc -eq 0 ] || not_ok "client_ruby: t_activerecord.rb exited with status $rc"
pg_stop $S
