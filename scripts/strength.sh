#!/bin/sh
# The engine's strength table (README, "Umea"): 40 games against the course's naive
# opponent at 1 s a move (20 openings x both colours), then 40 games of the engine at
# 0.1 s against itself at 1 s. Each takes 15-25 minutes on one free core; results go
# to bench-out/. Usage: scripts/strength.sh [GAMES]
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
games=${1:-40}
cargo build --release --locked --quiet --manifest-path "$here/Cargo.toml"
# Play a copy, so that rebuilding during a long match does not change the players.
out="$here/bench-out"
mkdir -p "$out"
cp "$here/target/release/reversi" "$out/reversi"
bin="$out/reversi"
"$bin" umea match --white "$bin umea" --black "$bin umea --naive" \
    --seconds 1 --games "$games" --alternate | tee "$out/naive_1s.txt"
"$bin" umea match --white "$bin umea" --black "$bin umea" \
    --white-seconds 0.1 --black-seconds 1 --games "$games" --alternate | tee "$out/self_0.1s_vs_1s.txt"
