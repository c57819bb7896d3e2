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
# the recipe (ulid_type.rb) is ActiveRecord 6.1's (Debian 12); 7.0 moved
# the type map to the class: a later Debian's ActiveRecord is not covered
case $out in
6.1.*) ;;
*)
	skip "client_ruby: the schema.rb recipe is for ActiveRecord 6.1; this is $out"
	exit 0
	;;
esac
S=client_ruby
client_server $S "ulid.node_id = 1" ar ar_load || exit 1
cd "$ULID_ROOT/test/client/ruby" || exit 1
run_client activerecord "$ULID_WORK/ruby.out" timeout 120 "$RUBY" t_activerecord.rb "$(pg_port $S)" ar ar_load
pg_stop $S
