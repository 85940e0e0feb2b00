#!/usr/bin/env bash
# End-to-end benchmark on testcases/perf: each position solved as a grader runs it
# (input.txt in an empty folder, the release binary there), its output checked
# against SHA256SUMS, and compared with what `cp` takes to copy that output.
# Each run times, in turn: the solver into a folder without output.txt, the solver
# again over the output.txt it just wrote (as when a student runs the program
# again), cp into a new file, cp over that copy, and the machine's floor: a bare
# write() loop of as many bytes (dd from /dev/zero, 256 KiB blocks). Interleaving
# keeps the ratios fair when the machine's load drifts. Prints, per position: lines
# (of the whole file), MB, the best of RUNS (default 7) of each, lines/s, the
# ratios to cp, and the peak RSS and CPU seconds (user + system, 10 ms steps) of one
# more run into a new folder. The CPU seconds tell which placement of the machine's
# two virtual processors a run had (README, Performance): start-d12 takes about
# 0.10 s when the two threads' traffic is cheap, 0.13-0.14 s when it is not.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
perf=${PERF_DIR:-$top/testcases/perf}
bin=${BIN:-$top/target/release/reversi}
runs=${RUNS:-7}
[ -x "$bin" ] || { echo "build first: cargo build --release" >&2; exit 2; }
# Each solve runs in its own folder: a relative BIN must still name the binary there.
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
[ -d "$perf" ] || { echo "no benchmark positions at $perf" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Wall time of a command, in nanoseconds.
time_ns() {
  local start end
  start=$(date +%s%N); "$@" >/dev/null; end=$(date +%s%N)
  echo $(( end - start ))
}

min() { if [ -z "$1" ] || [ "$2" -lt "$1" ]; then echo "$2"; else echo "$1"; fi; }

printf '%-10s %9s %6s %7s %7s %11s %6s %8s %7s %8s %8s %8s %6s %6s %s\n' position lines MB "new s" "x cp" lines/s "exist s" "x cp" "cp s" "cp ex s" "write s" "RSS MiB" "CPU s" hash ""
status=0
for input in "$perf"/*.in; do
  name=$(basename "${input%.in}")
  dir="$work/$name"; mkdir -p "$dir"; cp "$input" "$dir/input.txt"
  solve() { (cd "$dir" && "$bin"); }
  solve
  bytes=$(stat -c %s "$dir/output.txt")
  blocks=$(( (bytes + 262143) / 262144 ))
  copy() { cp "$dir/output.txt" "$work/copy.txt"; }
  write_loop() { dd if=/dev/zero of="$work/zeros" bs=256K count="$blocks" status=none; }
  new="" exist="" cp_new="" cp_exist="" write=""
  for _ in $(seq "$runs"); do
    rm -f "$dir/output.txt"
    new=$(min "$new" "$(time_ns solve)")
    exist=$(min "$exist" "$(time_ns solve)")
    rm -f "$work/copy.txt"
    cp_new=$(min "$cp_new" "$(time_ns copy)")
    cp_exist=$(min "$cp_exist" "$(time_ns copy)")
    rm -f "$work/zeros"
    write=$(min "$write" "$(time_ns write_loop)")
  done
  rm -f "$work/zeros"
  # Peak RSS and CPU seconds (user + system) of one more run into a new file.
  read -r rss user system < <(cd "$dir" && rm -f output.txt &&
    /usr/bin/time -f '%M %U %S' "$bin" 2>&1 >/dev/null | tail -1)
  expected=$(awk -v f="$name.out" '$2 == f { print $1 }' "$perf/SHA256SUMS")
  actual=$(sha256sum "$dir/output.txt" | cut -d' ' -f1)
  if [ "$expected" = "$actual" ]; then hash=ok; else hash=WRONG; status=1; fi
  lines=$(( $(tr -cd '\n' < "$dir/output.txt" | wc -c) + 1 ))
  awk -v n="$name" -v l="$lines" -v b="$bytes" -v new="$new" -v ex="$exist" -v cpn="$cp_new" \
      -v cpe="$cp_exist" -v wr="$write" -v rss="$rss" -v user="$user" -v sys="$system" -v h="$hash" 'BEGIN {
    printf "%-10s %9d %6.1f %7.3f %7.2f %11.0f %6.3f %8.2f %7.3f %8.3f %8.3f %8.1f %6.2f %6s\n",
      n, l, b / 1e6, new / 1e9, new / cpn, l / (new / 1e9), ex / 1e9, ex / cpe, cpn / 1e9,
      cpe / 1e9, wr / 1e9, rss / 1024, user + sys, h }'
  rm -f "$dir/output.txt" "$work/copy.txt"
done
exit $status
