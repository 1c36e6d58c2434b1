#!/usr/bin/env bash
# Builds the sandbox for the browser (issue 21, R-WEB-2): the example for wasm32 in release,
# `wasm-bindgen` for its JS glue, and one self-contained folder any static file server can
# serve:
#
#     bash web/build.sh                 # writes web/dist/ (or the folder given as $1)
#     python3 -m http.server -d web/dist 8000   # then open http://127.0.0.1:8000/
#
# wasm-bindgen-cli must be exactly the version of the `wasm-bindgen` crate in Cargo.lock; the
# script installs that version once into its own cache folder.
set -euo pipefail
cd "$(dirname "$0")/.."

out="${1:-web/dist}"
cache="${WEB_CACHE:-$HOME/.cache/bevy_sandbox_physics/web}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/bevy_sandbox_physics/target}"
target=wasm32-unknown-unknown

# The wasm-bindgen version the build links, from Cargo.lock.
version="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)"
if [ -z "$version" ]; then
    echo "web/build.sh: no wasm-bindgen in Cargo.lock" >&2
    exit 1
fi
bindgen="$cache/wasm-bindgen-$version/bin/wasm-bindgen"
if [ ! -x "$bindgen" ]; then
    echo "web/build.sh: installing wasm-bindgen-cli $version into $cache"
    install() {
        # Only the `wasm-bindgen` binary, without the test runner's HTTP client and TLS:
        # 2.2 of 3.6 minutes on two cores.
        env -u CARGO_TARGET_DIR cargo install --quiet "$@" wasm-bindgen-cli \
            --no-default-features --bin wasm-bindgen \
            --version "$version" --root "$cache/wasm-bindgen-$version"
    }
    # With its own lock file first; a registry mirror that lacks one of the locked versions
    # (seen: webpki-roots 1.0.11) gets the newest compatible versions instead.
    install --locked || {
        echo "web/build.sh: the locked install failed; installing without --locked"
        install
    }
fi
if ! rustup target list --installed 2>/dev/null | grep -qx "$target"; then
    rustup target add "$target"
fi

cargo build --release --target "$target" --example sandbox
wasm="$CARGO_TARGET_DIR/$target/release/examples/sandbox.wasm"

rm -rf "$out"
mkdir -p "$out"
# Without the function names (17 of 62 MB; a panic's message still says where) and the
# producers section.
"$bindgen" --target web --no-typescript --remove-name-section --remove-producers-section \
    --out-dir "$out" --out-name sandbox "$wasm"
cp web/index.html "$out/"
# The sandbox reads no asset files at run time (its presets and shipped scenes are compiled
# in), so the folder is complete: index.html, sandbox.js, sandbox_bg.wasm.
du -sh "$out"/* | sed 's/^/web\/build.sh: /'
