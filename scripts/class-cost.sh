#!/usr/bin/env bash
# What `grade` costs beside the programs' own time, on a real class: grades CLASS
# (one folder per student) over the cases in CASES with `reversi grade -j JOBS`,
# then runs the same programs directly, JOBS at a time (xargs -P), each in a fresh
# folder holding only input.txt, with the same wall-time limit (timeout), and prints
# both, and their ratio. The grade options must hold `--run COMMAND` (the direct
# runs substitute each student's folder for {submission}, with no quoting: use
# folder names without spaces or quotes); the rest are passed to `grade` as given:
#
#   scripts/class-cost.sh CLASS CASES --run "sh {submission}/run.sh" \
#       --read-only /root/.pyenv/versions/2.7.18
#
# For each side it prints the wall time, the CPU seconds (user + system) of the
# process itself, and those of it and every process it started (a cpuacct cgroup,
# cgroup v1; "-" without one): on a busy machine the wall times drift with the
# load, the CPU seconds much less. Then the outputs byte for byte right on each
# side (the two must agree), and the ratios grade / direct. Run it on a quiet
# machine; ROUNDS (default 1) repeats both sides, one after the other.
# Environment: BIN (default target/release/reversi), JOBS (2), TIMEOUT (10),
# ROUNDS (1).
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,20p' "$0" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
class=$(cd "$1" && pwd)
cases=$(cd "$2" && pwd)
shift 2
bin=${BIN:-$top/target/release/reversi}
jobs=${JOBS:-2}
timeout=${TIMEOUT:-10}
rounds=${ROUNDS:-1}
[ -x "$bin" ] || { echo "build first: cargo build --release" >&2; exit 2; }
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
command=""
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  [ "${args[i]}" = --run ] && command=${args[i + 1]:-}
done
[ -n "$command" ] || { echo "the grade options must hold --run COMMAND" >&2; exit 2; }
work=$(mktemp -d)
trap '[ -n "${KEEP_WORK:-}" ] || rm -rf "$work"' EXIT

# Runs a command; prints "WALL SELF_CPU ALL_CPU" in seconds: its wall time, its own
# CPU time (user + system, read from /proc/PID/stat once it has exited, before it is
# reaped), and the CPU time of it and every process it started, from a cpuacct
# cgroup made for it (cgroup v1; "-" where there is none: a sandbox's processes are
# not all reaped by their parents, so the children's times of /proc miss them).
measure() {
  python3 - "$@" <<'EOF'
import os, subprocess, sys, time
group = f"/sys/fs/cgroup/cpuacct/class-cost-{os.getpid()}"
try:
    os.mkdir(group)
except OSError:
    group = None
def enter():
    if group:
        with open(f"{group}/cgroup.procs", "w") as f:
            f.write(str(os.getpid()))
start = time.monotonic()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, preexec_fn=enter)
os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOWAIT)
wall = time.monotonic() - start
with open(f"/proc/{child.pid}/stat") as f:
    stat = f.read()
utime, stime = map(int, stat[stat.rindex(")") + 2:].split()[11:13])
child.wait()
total = "-"
if group:
    for _ in range(100):
        with open(f"{group}/cgroup.procs") as f:
            if not f.read().strip():
                break
        time.sleep(0.01)
    with open(f"{group}/cpuacct.usage") as f:
        total = f"{int(f.read()) / 1e9:.2f}"
    os.rmdir(group)
print(f"{wall:.2f} {(utime + stime) / os.sysconf('SC_CLK_TCK'):.2f} {total}")
EOF
}

# One direct run: student folder $1, case input $2, expected output $3, in a fresh
# folder under $work; notes in $work/exact an output byte for byte right.
cat > "$work/one.sh" <<'EOF'
#!/bin/sh
dir=$(mktemp -d "$COST_WORK/run.XXXXXX")
cp "$2" "$dir/input.txt"
run=$(printf '%s' "$COST_COMMAND" | sed "s|{submission}|$1|g")
(cd "$dir" && timeout -s KILL "$COST_TIMEOUT" sh -c "$run" </dev/null >/dev/null 2>&1) 2>/dev/null
if cmp -s "$dir/output.txt" "$3"; then echo "$1 $2" >> "$COST_WORK/exact"; fi
rm -rf "$dir"
EOF
chmod +x "$work/one.sh"
export COST_WORK=$work COST_COMMAND=$command COST_TIMEOUT=$timeout

# The (student, input, expected) triples, students in name order, cases in path order.
find "$cases" \( -name input.txt -o -name '*.in' \) | sort > "$work/inputs"
students=$(find "$class" -mindepth 1 -maxdepth 1 -type d | sort)
: > "$work/runs"
for student in $students; do
  while read -r input; do
    case $input in
      *.in) expected=${input%.in}.out ;;
      *) expected=$(dirname "$input")/output.txt ;;
    esac
    [ -f "$expected" ] && printf '%s\t%s\t%s\n' "$student" "$input" "$expected" >> "$work/runs"
  done < "$work/inputs"
done
echo "class: $(echo "$students" | wc -l) students x $(($(wc -l < "$work/runs") / $(echo "$students" | wc -l))) cases, -j $jobs, timeout $timeout s"
printf '%-6s %-8s %8s %9s %9s %7s\n' round side "wall s" "self CPU" "all CPU" "exact"
for round in $(seq "$rounds"); do
  read -r gwall gself gall < <(measure "$bin" grade "$class" --cases "$cases" -j "$jobs" \
    --timeout "$timeout" --csv "$work/class.csv" "$@")
  gexact=$(awk -F, 'NR > 1 { n += $5 } END { print n + 0 }' "$work/class.csv")
  rm -f "$work/exact"; touch "$work/exact"
  read -r dwall dself dall < <(measure sh -c \
    "tr '\\t' '\\n' < '$work/runs' | xargs -d '\\n' -n 3 -P $jobs '$work/one.sh' 2>/dev/null")
  dexact=$(wc -l < "$work/exact")
  printf '%-6s %-8s %8s %9s %9s %7s\n' "$round" grade "$gwall" "$gself" "$gall" "$gexact"
  printf '%-6s %-8s %8s %9s %9s %7s\n' "$round" direct "$dwall" "$dself" "$dall" "$dexact"
  ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 > 0 && a != "-") printf "%.2f", a / b; else printf "-" }'; }
  echo "round $round: grade / direct = $(ratio "$gwall" "$dwall") (wall), $(ratio "$gall" "$dall") (CPU of all processes)"
done
