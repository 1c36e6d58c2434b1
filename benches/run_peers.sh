#!/usr/bin/env bash
# The peer comparison of issue 6: the shared scenes through our engine, Box2D v3 (boxdd) and
# rapier2d, in release, one thread each. An unfiltered run writes benches/RESULTS.md and
# benches/scaling.svg; options (--quick, --only, --engines, --runs, --no-scaling, --no-write)
# are documented in benches/peers/src/main.rs.
#
# The first run builds Box2D from source (gcc) and rapier: several minutes on two cores.
set -euo pipefail
# From the crate's folder, so its .cargo/config.toml (Box2D's release C flags) applies.
cd "$(dirname "$0")/peers"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/bevy_sandbox_physics/target}"
exec cargo run --release --quiet -- "$@"
