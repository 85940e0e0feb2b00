#!/bin/sh
# The engine's strength tables (README, "Umea"). Results go to bench-out/. Each match
# plays one game at a time (one engine process per move).
#
#   scripts/strength.sh [GAMES]
#       GAMES (40) against the course's naive opponent at 1 s a move (20 openings x
#       both colours), then the engine at 0.1 s against itself at 1 s.
#   scripts/strength.sh zebra ZEBRA_SOURCE [SECONDS ...]
#       Against Gunnar Andersson's Zebra (no opening book), 20 balanced openings x
#       both colours at each SECONDS (default 0.5 2), every move checked by an
#       independent rules module (scripts/strength/othello.py). ZEBRA_SOURCE is a
#       checkout of https://github.com/lk16/zebra (git clone it once; nothing is
#       fetched here); it is copied, patched (scripts/strength/zebra.patch) and built
#       in bench-out/zebra (again only when the source or the patch changed).
#       OPENINGS=N plays the first N openings only.
#       START=K skips the first K openings (a long match split in parts).
#       THREADS=N gives our engine N threads (`umea --threads`); Zebra keeps one.
#       ZEBRA_TAU=S sets the time Zebra aims at per move (default: 0.85 SECONDS
#       - 0.1 s over 2.29, its clock's abort margin; see scripts/strength/players.py).
#   scripts/strength.sh depth ZEBRA_SOURCE [DEPTH [EXACT]]
#       Against Zebra at a fixed depth, no clock: both engines search DEPTH (8; at
#       most 8, where Zebra has no selectivity) plies without selectivity, ours by
#       `engine search --full-width`, and solve exactly from EXACT (16) empty cells.
#       The 100 openings of scripts/strength/openings-100.txt x both colours, two
#       games at a time (JOBS=N); the measure of the evaluation in play.
#       WEIGHTS=FILE: our search on those weights. OPENINGS=N: the first N only.
#       SELECTIVE=1: each engine with its own selectivity (our ProbCut, Zebra's
#       Multi-ProbCut from 9 plies), any DEPTH.
#   scripts/strength.sh evalerr ZEBRA_SOURCE MATCH.jsonl [MORE.jsonl ...]
#       The error of each engine's fixed-depth searches against exact solves, on
#       positions with 16-26 empty cells of the games of match files, and how well
#       each depth agrees with the one before (scripts/strength/evalerr.py;
#       WEIGHTS=FILE: our search on those weights; EXACT=0 LOW=36 HIGH=44: the
#       agreement alone, on midgame positions).
#   scripts/strength.sh reach ZEBRA_SOURCE MATCH.jsonl [MORE.jsonl ...]
#       The time each engine takes to reach DEPTHS ("10 12 14 16 18") plies, each
#       with its own selectivity, on 45 positions with 36-44 empty cells of the
#       games of match files (scripts/strength/reach.py; WEIGHTS=FILE as above). On
#       a quiet machine only.
#   scripts/strength.sh margins MATCH.jsonl [MORE.jsonl ...]
#       ProbCut's spreads measured again, on positions with 20-54 empty cells of
#       the games of match files: the rows of PROBCUT_SIGMA in src/engine/search.rs
#       (scripts/strength/margins.py; WEIGHTS=FILE: our search on those weights).
#   scripts/strength.sh endgame FFO_FOLDER [LOW HIGH]
#       Exact solves of the FFO positions with LOW..HIGH (16 24) empty cells, from
#       the fforum-*.obf files of FFO_FOLDER (Edax's problem/ folder).
#   scripts/strength.sh ffo FFO_FOLDER [FIRST LAST]
#       Exact solves of FFO #FIRST..#LAST (40 49) by `reversi engine solve`, one
#       process each, with their nodes and times beside the nodes Egaroucid 7.5
#       publishes for them (scripts/strength/ffo.py). THREADS=N: N threads.
#       WEIGHTS=FILE: the solver's move ordering on those weights.
#   scripts/strength.sh threads FFO_FOLDER [N]
#       One thread against N (2): twice in turn, the exact solves of FFO #40-#44
#       (`engine solve --threads`) and the heuristic deepening of `engine speed
#       --depth 14 --threads` (time to a fixed depth). On a quiet machine only.
# Needs python3; the Zebra mode a C compiler, make, patch and zlib (zlib1g-dev).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
kit="$here/scripts/strength"
out="$here/bench-out"
mode=${1:-naive}
cargo build --release --locked --quiet --manifest-path "$here/Cargo.toml"
mkdir -p "$out"
# Play a copy, so that rebuilding during a long match does not change the players.
cp "$here/target/release/reversi" "$out/reversi"
bin="$out/reversi"
# absolute FILE: FILE's absolute path (the kit's scripts run from their own folder).
absolute() {
    echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
}
# absolute_weights: WEIGHTS, when set, made absolute and exported.
absolute_weights() {
    if [ -n "${WEIGHTS:-}" ]; then
        WEIGHTS=$(absolute "$WEIGHTS")
        export WEIGHTS
    fi
}
# build_zebra MODE_USAGE ZEBRA_SOURCE: copies, patches and builds Zebra in
# $out/zebra, again only when the source folder, a file in it or the patch changed.
build_zebra() {
    src=${2:-}
    if [ -z "$src" ] || [ ! -f "$src/zebra.c" ]; then
        echo "usage: scripts/strength.sh $1" >&2
        echo "ZEBRA_SOURCE: a checkout of Zebra, e.g. git clone https://github.com/lk16/zebra" >&2
        exit 2
    fi
    src=$(cd "$src" && pwd)
    stamp="$src $(cksum < "$kit/zebra.patch")"
    if [ ! -x "$out/zebra/zebra" ] || [ "$(cat "$out/zebra/.built-from" 2>/dev/null)" != "$stamp" ] ||
        [ -n "$(find "$src" -type f -newer "$out/zebra/zebra" | head -n 1)" ]; then
        rm -rf "$out/zebra"
        # The folder's contents, not the folder: were ZEBRA_SOURCE a symbolic link,
        # `cp -R` would copy the link and the build would change the checkout itself.
        mkdir "$out/zebra"
        cp -R "$src/." "$out/zebra/"
        # Zebra's old C needs -fwrapv -fno-strict-aliasing at -O2 (else it crashes in
        # the endgame); the patch prints the move chosen and takes fractional seconds.
        (cd "$out/zebra" && rm -f ./*.o zebra && patch -s -p0 < "$kit/zebra.patch" &&
            make -s zebra OPTS='-O2 -fwrapv -fno-strict-aliasing' LDFLAGS='-lm -lz' \
                >"$out/zebra-build.log" 2>&1) ||
            { echo "building Zebra failed: see $out/zebra-build.log" >&2; exit 1; }
        echo "$stamp" > "$out/zebra/.built-from"
    fi
}
case "$mode" in
zebra)
    build_zebra "zebra ZEBRA_SOURCE [SECONDS ...]" "${2:-}"
    shift 2
    [ $# -gt 0 ] || set -- 0.5 2
    for seconds in "$@"; do
        result="$out/zebra_$seconds${START:+_from$START}${THREADS:+_threads$THREADS}.jsonl"
        rm -f "$result"
        (cd "$kit" && REVERSI="$bin" ZEBRA_DIR="$out/zebra" python3 match.py \
            --opponent zebra --seconds "$seconds" --start "${START:-0}" --first "${OPENINGS:-20}" \
            --threads "${THREADS:-1}" ${ZEBRA_TAU:+--zebra-tau "$ZEBRA_TAU"} \
            --out "$result" | tee "${result%.jsonl}.txt")
        python3 "$kit/summarize.py" "$result"
    done
    ;;
depth)
    build_zebra "depth ZEBRA_SOURCE [DEPTH [EXACT]]" "${2:-}"
    depth=${3:-8}
    exact=${4:-16}
    absolute_weights
    result="$out/zebra_depth$depth${SELECTIVE:+_selective}.jsonl"
    rm -f "$result"
    (cd "$kit" && REVERSI="$bin" ZEBRA_DIR="$out/zebra" python3 match.py \
        --opponent zebra --depth "$depth" --exact "$exact" --openings openings-100.txt \
        --first "${OPENINGS:-100}" --jobs "${JOBS:-2}" ${WEIGHTS:+--weights "$WEIGHTS"} \
        ${SELECTIVE:+--selective} \
        --out "$result" | tee "${result%.jsonl}.txt")
    python3 "$kit/summarize.py" "$result"
    ;;
evalerr|reach)
    build_zebra "$mode ZEBRA_SOURCE MATCH.jsonl [MORE.jsonl ...]" "${2:-}"
    shift 2
    [ $# -gt 0 ] || { echo "usage: scripts/strength.sh $mode ZEBRA_SOURCE MATCH.jsonl [MORE.jsonl ...]" >&2; exit 2; }
    absolute_weights
    # The match files' absolute paths, in place (the script runs from the kit).
    for f in "$@"; do
        set -- "$@" "$(absolute "$f")"
        shift
    done
    (cd "$kit" && REVERSI="$bin" ZEBRA_DIR="$out/zebra" python3 "$mode.py" "$@") |
        tee "$out/$mode.txt"
    ;;
margins)
    [ $# -gt 1 ] || { echo "usage: scripts/strength.sh margins MATCH.jsonl [MORE.jsonl ...]" >&2; exit 2; }
    shift
    absolute_weights
    for f in "$@"; do
        set -- "$@" "$(absolute "$f")"
        shift
    done
    (cd "$kit" && REVERSI="$bin" python3 margins.py "$@") | tee "$out/margins.txt"
    ;;
endgame)
    [ -n "${2:-}" ] || { echo "usage: scripts/strength.sh endgame FFO_FOLDER [LOW HIGH]" >&2; exit 2; }
    folder=$(cd "$2" && pwd)
    (cd "$kit" && REVERSI="$bin" python3 endgame.py "$folder" ${3:-16} ${4:-24}) |
        tee "$out/endgame.txt"
    ;;
ffo)
    [ -n "${2:-}" ] || { echo "usage: scripts/strength.sh ffo FFO_FOLDER [FIRST LAST]" >&2; exit 2; }
    absolute_weights
    REVERSI="$bin" python3 "$kit/ffo.py" "$2" ${3:-40} ${4:-49} | tee "$out/ffo.txt"
    ;;
threads)
    [ -n "${2:-}" ] || { echo "usage: scripts/strength.sh threads FFO_FOLDER [N]" >&2; exit 2; }
    folder=$(cd "$2" && pwd)
    for round in 1 2; do
        for threads in 1 "${3:-2}"; do
            echo "round $round, $threads thread(s)"
            (cd "$kit" && THREADS=$threads IDS=40-44 REVERSI="$bin" python3 endgame.py "$folder" 0 64) |
                tail -n 1
            "$bin" engine speed --depth 14 --threads "$threads" | tail -n 1
        done
    done | tee "$out/threads.txt"
    ;;
*)
    games=${1:-40}
    "$bin" umea match --white "$bin umea" --black "$bin umea --naive" \
        --seconds 1 --games "$games" --alternate | tee "$out/naive_1s.txt"
    "$bin" umea match --white "$bin umea" --black "$bin umea" \
        --white-seconds 0.1 --black-seconds 1 --games "$games" --alternate |
        tee "$out/self_0.1s_vs_1s.txt"
    ;;
esac
