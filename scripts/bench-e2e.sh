#!/usr/bin/env bash
# End-to-end benchmark on testcases/perf: each position solved as a grader runs it
# (input.txt in an empty folder, the release binary there), its output checked
# against SHA256SUMS, and compared with the time `cp` takes to copy that output.
# Prints lines (of the whole file), MB, seconds (best of RUNS), lines/s, ratio to
# cp, peak RSS.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
perf=${PERF_DIR:-$top/testcases/perf}
bin=${BIN:-$top/target/release/reversi}
runs=${RUNS:-5}
[ -x "$bin" ] || { echo "build first: cargo build --release" >&2; exit 2; }
[ -d "$perf" ] || { echo "no benchmark positions at $perf" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Best wall time of $runs runs of a command, in nanoseconds. Before each run (and
# outside its time) the file the command writes is removed, as a grader starts
# from a folder without output.txt; with KEEP=1 it is left from the run before, as
# when a student runs the program again.
best_of() {
  local target=$1; shift
  local best=""
  for _ in $(seq "$runs"); do
    local start end t
    [ "${KEEP:-0}" = 1 ] || rm -f "$target"
    start=$(date +%s%N); "$@" >/dev/null; end=$(date +%s%N)
    t=$(( end - start ))
    if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
  done
  echo "$best"
}

printf '%-10s %10s %8s %8s %12s %8s %9s %9s %9s %s\n' position lines MB seconds lines/s "x cp" "RSS MiB" "s exist" "x cp ex" hash
status=0
for input in "$perf"/*.in; do
  name=$(basename "${input%.in}")
  dir="$work/$name"; mkdir -p "$dir"; cp "$input" "$dir/input.txt"
  solve() { (cd "$dir" && "$bin"); }
  ns=$(best_of "$dir/output.txt" solve)
  rss=$(cd "$dir" && rm -f output.txt && /usr/bin/time -f '%M' "$bin" 2>&1 >/dev/null | tail -1)
  copy() { cp "$dir/output.txt" "$work/copy.txt"; }
  cp_ns=$(best_of "$work/copy.txt" copy)
  # Over an existing output.txt (and cp over an existing copy).
  (cd "$dir" && "$bin")
  cp "$dir/output.txt" "$work/copy.txt"
  ex_ns=$(KEEP=1 best_of "$dir/output.txt" solve)
  cp_ex_ns=$(KEEP=1 best_of "$work/copy.txt" copy)
  expected=$(awk -v f="$name.out" '$2 == f { print $1 }' "$perf/SHA256SUMS")
  actual=$(sha256sum "$dir/output.txt" | cut -d' ' -f1)
  if [ "$expected" = "$actual" ]; then hash=ok; else hash=WRONG; status=1; fi
  lines=$(( $(tr -cd '\n' < "$dir/output.txt" | wc -c) + 1 ))
  bytes=$(stat -c %s "$dir/output.txt")
  awk -v n="$name" -v l="$lines" -v b="$bytes" -v ns="$ns" -v cpns="$cp_ns" -v rss="$rss" -v h="$hash" \
      -v ex="$ex_ns" -v cpex="$cp_ex_ns" 'BEGIN {
    s = ns / 1e9; printf "%-10s %10d %8.1f %8.3f %12.0f %8.2f %9.1f %9.3f %9.2f %s\n", n, l, b / 1e6, s, l / s, ns / cpns, rss / 1024, ex / 1e9, ex / cpex, h }'
  rm -f "$dir/output.txt" "$work/copy.txt"
done
exit $status
