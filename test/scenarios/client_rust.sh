#!/usr/bin/env bash
# Rust: tokio-postgres 0.7 from Debian's librust-tokio-postgres-dev, built
# offline with Debian's cargo and rustc (installed by test/deps.sh) from
# /usr/share/cargo/registry (test/client/rust/.cargo/config.toml).  The
# program checks what tokio-postgres refuses without code (it checks Rust
# types against ulid on the client), the SQL casts that work, and the
# README's Ulid type (ToSql/FromSql); each "ok"/"not ok" line counts.  The
# build is a debug build in the work dir (the source tree stays clean); a
# missing package is a failure (never a skip).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

CARGO=/usr/bin/cargo
reg=/usr/share/cargo/registry
if [ ! -x "$CARGO" ] || [ ! -x /usr/bin/rustc ] || ! ls -d "$reg"/tokio-postgres-0.7.* >/dev/null 2>&1; then
	not_ok "client_rust: Debian's cargo, rustc and $reg/tokio-postgres-0.7.* exist (Debian packages cargo, rustc, librust-tokio-postgres-dev, librust-tokio-dev, librust-tokio-macros-dev; test/deps.sh installs them)"
	exit 1
fi
build=$ULID_WORK/rust
mkdir -p "$build"
cp -a "$ULID_ROOT/test/client/rust" "$build/src"
start=$(date +%s)
# Debian's cargo and rustc (not a rustup toolchain earlier on PATH), no network
client_build "client_rust: the program builds offline from Debian's crates" "$build/build.log" \
	env -C "$build/src" CARGO_HOME="$build/home" CARGO_TARGET_DIR="${ULID_CARGO_TARGET:-$build/target}" \
	RUSTC=/usr/bin/rustc timeout 600 "$CARGO" build --offline || exit 1
echo "# $("$CARGO" --version), $(/usr/bin/rustc --version), tokio-postgres $(ls -d "$reg"/tokio-postgres-0.7.* | sed 's/.*-//'): built in $(($(date +%s) - start)) s"
S=client_rust
client_server $S "" rust || exit 1
run_client tokio-postgres "$build/out" timeout 60 "${ULID_CARGO_TARGET:-$build/target}/debug/ulid_tokio_postgres" "$(pg_port $S)" rust
pg_stop $S
