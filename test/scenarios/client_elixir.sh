#!/usr/bin/env bash
# The Elixir adapter (clients/elixir, the ulid_pg package: a Postgrex
# extension and an Ecto type).  With Debian's Elixir alone (installed by
# test/deps.sh) it compiles lib/ with elixirc --warnings-as-errors (the build
# check; the Postgrex and Ecto modules compile only where those are) and runs
# test/unit.exs.  Postgrex and Ecto are not in Debian 12 and Hex is
# unreachable: with ULID_ELIXIR_LIBS naming a directory of compiled
# applications (a _build/<env>/lib of any mix project that depends on
# postgrex, ecto and ecto_sql) lib/ is compiled against them and
# test/client.exs runs against a server; otherwise a skip line says so.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

if ! command -v elixirc >/dev/null || ! command -v elixir >/dev/null; then
	not_ok "client_elixir: elixir and elixirc are installed (Debian package elixir; test/deps.sh installs it)"
	exit 1
fi
src=$ULID_ROOT/clients/elixir
build=$ULID_WORK/elixir
mkdir -p "$build/core" "$build/full"
client_build "client_elixir: lib/ compiles (elixirc --warnings-as-errors)" "$build/core.log" \
	elixirc --warnings-as-errors -o "$build/core" "$src/lib" || exit 1
echo "# $(elixir --version 2>/dev/null | tail -1)"
run_client ulid_pg "$build/unit.out" timeout 60 elixir -pa "$build/core" "$src/test/unit.exs"

libs=${ULID_ELIXIR_LIBS:-}
if [ -z "$libs" ] || [ ! -d "$libs/postgrex/ebin" ] || [ ! -d "$libs/ecto_sql/ebin" ]; then
	skip "client_elixir: Postgrex and Ecto (not in Debian 12; Hex unreachable): set ULID_ELIXIR_LIBS to a _build/<env>/lib with postgrex, ecto and ecto_sql to run clients/elixir/test/client.exs"
	exit 0
fi
pa=()
for d in "$libs"/*/ebin; do [[ $d == */ulid_pg/ebin ]] || pa+=(-pa "$d"); done  # not an older ulid_pg
client_build "client_elixir: lib/ compiles against Postgrex and Ecto" "$build/full.log" \
	elixirc --warnings-as-errors "${pa[@]}" -o "$build/full" "$src/lib" || exit 1
for m in UlidPg.Postgrex.Extension UlidPg.Ecto.ULID; do
	check "client_elixir: $m compiled" yes "$([ -f "$build/full/Elixir.$m.beam" ] && echo yes)"
done
echo "# $(for a in postgrex ecto ecto_sql; do sed -n "s/.*{vsn,\"\([^\"]*\)\"}.*/$a \1/p" "$libs/$a/ebin/$a.app"; done | tr '\n' ' ')"
S=client_elixir
client_server $S "" elixir || exit 1
run_client postgrex "$build/client.out" timeout 120 elixir "${pa[@]}" -pa "$build/full" "$src/test/client.exs" "$(pg_port $S)" elixir
pg_stop $S
