#!/usr/bin/env bash
# Timings of `reversi tree` pages: for the start position at depths 4 and 8 and the
# three positions of testcases/perf, the time `reversi tree` takes to write the
# page, the page's size, the nodes it holds, and when headless Chromium has drawn
# its first rows (the page's own performance.now() after drawing them, in ms after
# navigation started; median of RUNS loads). Extra flags for `reversi tree` (say
# --max-nodes 1000000) come from TREE_FLAGS. Needs Debian's chromium.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
perf=${PERF_DIR:-$top/testcases/perf}
bin=${BIN:-$top/target/release/reversi}
runs=${RUNS:-3}
read -r -a flags <<<"${TREE_FLAGS:-}"
[ -x "$bin" ] || { echo "build first: cargo build --release" >&2; exit 2; }
command -v chromium >/dev/null || { echo "needs chromium (apt-get install -y chromium)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

start_position() {
  printf 'X\r\n%s\r\n********\r\n********\r\n********\r\n***OX***\r\n***XO***\r\n********\r\n********\r\n********' "$1"
}
start_position 4 >"$work/start-d4.in"
start_position 8 >"$work/start-d8.in"
inputs=("$work/start-d4.in" "$work/start-d8.in")
for name in mid-d8 end-d12 start-d12; do
  [ -f "$perf/$name.in" ] && inputs+=("$perf/$name.in")
done

# When the page's first rows were drawn, in ms (one load in a fresh profile).
drawn_ms() {
  local profile
  profile=$(mktemp -d)
  chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-sync \
    --disable-background-networking --disable-component-update \
    --user-data-dir="$profile" --dump-dom "file://$1" 2>/dev/null |
    grep -o 'data-drawn-ms="[0-9]*"' | grep -o '[0-9]*'
  rm -rf "$profile"
}

printf '| input | log lines | tree s | page MB | nodes in the page | rows drawn after ms |\n'
printf '|---|---|---|---|---|---|\n'
for input in "${inputs[@]}"; do
  name=$(basename "$input" .in)
  page="$work/$name.html"
  start=$(date +%s%N)
  "$bin" tree "$input" "${flags[@]}" -o "$page"
  end=$(date +%s%N)
  seconds=$(awk "BEGIN { printf \"%.2f\", ($end - $start) / 1e9 }")
  megabytes=$(awk "BEGIN { printf \"%.2f\", $(stat -c %s "$page") / 1e6 }")
  lines=$(grep -o '"logLines":[0-9]*' "$page" | grep -o '[0-9]*$')
  visits=$(grep -o '"visits":[0-9]*' "$page" | grep -o '[0-9]*$')
  kept=$(grep -o '"nodes":\[[0-9,]*\]' "$page" | tr -cd ',' | wc -c)
  kept=$(( (kept + 1) / 3 ))
  times=()
  for _ in $(seq "$runs"); do times+=("$(drawn_ms "$page")"); done
  median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p")
  printf '| %s | %s | %s | %s | %s of %s | %s |\n' \
    "$name" "$lines" "$seconds" "$megabytes" "$kept" "$visits" "$median"
done
