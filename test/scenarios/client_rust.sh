#!/usr/bin/env bash
# The Rust adapter (clients/rust, the ulid-pg crate) with tokio-postgres 0.7
# from Debian's librust-tokio-postgres-dev, built offline with Debian's cargo
# and rustc (installed by test/deps.sh) from /usr/share/cargo/registry
# (clients/rust/.cargo/config.toml): the crate's unit tests, `cargo package`
# (the crate as it would be published, built on its own), and
# examples/client.rs against a server; each "ok"/"not ok" line counts.  A
# missing package is a failure (never a skip).
#
# The build is cached between runs (ULID_CARGO_TARGET, by default
# /var/cache/ulid-test/cargo-target as root, ~/.cache/ulid-test/cargo-target
# otherwise): a cold debug build without debuginfo compiles 63 crates (about
# 70 s of CPU), a warm one only ulid-pg.  The cap is 720 s (test/README.md).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
harness_attach

CARGO=/usr/bin/cargo
reg=/usr/share/cargo/registry
if [ ! -x "$CARGO" ] || [ ! -x /usr/bin/rustc ] || ! ls -d "$reg"/tokio-postgres-0.7.* >/dev/null 2>&1; then
	not_ok "client_rust: Debian's cargo, rustc and $reg/tokio-postgres-0.7.* exist (Debian packages cargo, rustc, librust-tokio-postgres-dev, librust-tokio-dev, librust-uuid-dev; test/deps.sh installs them)"
	exit 1
fi
if [ "$(id -u)" -eq 0 ]; then cache=/var/cache/ulid-test; else cache=${XDG_CACHE_HOME:-$HOME/.cache}/ulid-test; fi
target=${ULID_CARGO_TARGET:-$cache/cargo-target}
build=$ULID_WORK/rust
mkdir -p "$build" "$target"
cp -a "$ULID_ROOT/clients/rust" "$build/src"
# Debian's cargo and rustc (not a rustup toolchain earlier on PATH), no
# network, no debuginfo (a fifth less CPU)
cargo() {
	env -C "$build/src" CARGO_HOME="$build/home" CARGO_TARGET_DIR="$target" CARGO_PROFILE_DEV_DEBUG=0 \
		RUSTC=/usr/bin/rustc timeout 720 "$CARGO" "$@" --offline
}
start=$(date +%s)
client_build "client_rust: ulid-pg and examples/client.rs build offline from Debian's crates" "$build/build.log" \
	cargo build --examples || exit 1
echo "# $("$CARGO" --version), $(/usr/bin/rustc --version), tokio-postgres $(ls -d "$reg"/tokio-postgres-0.7.* | sed 's/.*-//'): built in $(($(date +%s) - start)) s ($(grep -c Compiling "$build/build.log") crates compiled, target $target)"
if cargo test --lib >"$build/test.log" 2>&1; then
	ok "client_rust: cargo test --lib ($(grep -m1 -o '[0-9]* passed' "$build/test.log"))"
else
	sed 's/^/# /' "$build/test.log" | tail -30
	not_ok "client_rust: cargo test --lib"
fi
if cargo package --allow-dirty >"$build/package.log" 2>&1; then
	ok "client_rust: cargo package builds $(cd "$target/package" && ls ulid-pg-*.crate)"
else
	sed 's/^/# /' "$build/package.log" | tail -30
	not_ok "client_rust: cargo package"
fi
S=client_rust
client_server $S "" rust || exit 1
run_client ulid-pg "$build/out" timeout 60 "$target/debug/examples/client" "$(pg_port $S)" rust
pg_stop $S
