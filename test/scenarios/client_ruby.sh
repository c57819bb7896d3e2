#!/usr/bin/env bash
# The Ruby adapter (clients/ruby, the ulid-pg gem) with ActiveRecord 6.1 and
# ruby-pg from Debian's ruby-activerecord and ruby-pg (installed by
# test/deps.sh).  `gem build` builds the gem (the build check), `gem install
# --local` installs it into the work dir, and clients/ruby/test/t_activerecord.rb
# migrates, creates, finds, inserts in bulk, follows associations and dumps
# schema.rb without the gem and with it, loading the dump into a second
# database; each "ok"/"not ok" line counts.  A missing package is a failure
# (never a skip).
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
# ActiveRecord 7 (a later Debian's) builds its type map on the class: the
# gem has a path for it, not tested here
case $out in
6.1.*) ;;
*)
	skip "client_ruby: the tests are for ActiveRecord 6.1 (Debian 12); this is $out"
	exit 0
	;;
esac
build=$ULID_WORK/ruby
mkdir -p "$build"
cp -a "$ULID_ROOT/clients/ruby" "$build/src"
client_build "client_ruby: gem build ulid-pg.gemspec" "$build/build.log" \
	env -C "$build/src" gem build ulid-pg.gemspec || exit 1
client_build "client_ruby: gem install --local the built gem" "$build/install.log" \
	gem install --local --ignore-dependencies --no-document --install-dir "$build/gems" "$build"/src/ulid-pg-*.gem || exit 1
ok "client_ruby: $(cd "$build/src" && ls ulid-pg-*.gem) built and installed"
S=client_ruby
client_server $S "ulid.node_id = 1" ar ar_load || exit 1
run_client activerecord "$ULID_WORK/ruby.out" timeout 120 "$RUBY" -I "$(ls -d "$build"/gems/gems/ulid-pg-*/lib)" \
	"$ULID_ROOT/clients/ruby/test/t_activerecord.rb" "$(pg_port $S)" ar ar_load
pg_stop $S
