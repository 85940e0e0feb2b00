#!/bin/sh
# A student of a class who takes its output from elsewhere: runs the other students'
# programs found beside its own folder and reads their files, runs the grader's own
# binary (through /proc/*/exe, /proc/<ppid>/exe, the paths in /proc/*/cmdline) or a
# `reversi` on PATH or linked to it. Stops at the first that writes output.txt;
# else shows what it read ("got: ...", on stderr, exit 1), or writes that nothing
# worked into output.txt.
mine=$(cd "$(dirname "$0")" && pwd)
log=$(mktemp 2>/dev/null || echo log.txt)
try() { # what, command...
  what=$1; shift
  if "$@" -i input.txt -o output.txt >/dev/null 2>&1 && [ -s output.txt ]; then
    echo "got: ran $what" >&2
    exit 0
  fi
  rm -f output.txt
}
for other in "$mine"/../*/; do
  [ "$(cd "$other" && pwd)" = "$mine" ] && continue
  for f in "$other"*; do
    [ -f "$f" ] && head -c 200 "$f" 2>/dev/null | grep -a SECRET | sed "s|^|got: read $f: |" >> "$log"
  done
  if (cd "$other" 2>/dev/null) && [ -f "$other/hw.sh" ]; then
    sh "$other/hw.sh" < /dev/null > /dev/null 2>&1 && [ -s output.txt ] &&
      { echo "got: ran $other/hw.sh" >&2; exit 0; }
    rm -f output.txt
  fi
  for f in "$other"*; do
    [ -x "$f" ] && [ -f "$f" ] && try "$f" "$f"
  done
done
try "/proc/$PPID/exe" "/proc/$PPID/exe"
for p in /proc/[0-9]*; do
  exe=$(readlink "$p/exe" 2>/dev/null)
  case "$exe" in */reversi*) try "$p/exe" "$p/exe" ;; esac
  arg0=$(tr '\0' '\n' < "$p/cmdline" 2>/dev/null | head -n 1)
  case "$arg0" in
    /*/reversi)
      head -c 4 "$arg0" > /dev/null 2>&1 && echo "got: read the grader at $arg0" >> "$log"
      try "$arg0" "$arg0"
      ln -sf "$arg0" ./reversi 2>/dev/null && try "a link to $arg0" ./reversi
      rm -f ./reversi ;;
  esac
done
on_path=$(command -v reversi)
[ -n "$on_path" ] && try "$on_path" "$on_path"
for f in /usr/local/bin/reversi /root/.cargo/bin/reversi /home/*/.cargo/bin/reversi; do
  [ -e "$f" ] && try "$f" "$f"
done
if grep -q '^got:' "$log"; then
  cat "$log" >&2
  rm -f "$log"
  exit 1
fi
rm -f "$log"
echo "nothing worked" > output.txt
exit 0
