#!/usr/bin/env python3
"""How far each engine's fixed-depth searches are from the truth, late in real games.

Positions are taken from match files (match.py's JSON lines): PER positions (12) for
each count of empty cells from LOW to HIGH (16 26) in which the side to move has two
moves or more, drawn with a fixed seed. Each is solved exactly by `reversi engine
solve`, then searched to each depth of DEPTHS ("2 4 6 8") without selectivity by
`reversi engine search --full-width` (our evaluation, or the weights file WEIGHTS
names) and by Zebra (`-l D 0 0`: its midgame search to D plies, which below 9 plies
has no selectivity, replayed from the game's moves with -seq). Zebra reports the mean
of its last two depths' values, so ours is the same mean (of D - 1 and D plies).
Prints, by band of 4 empty cells and in all, the root mean square and the mean of the
search's value less the exact margin, in discs for the side to move, and the
correlation of value and margin; then how well each depth agrees with the one before
it in DEPTHS (the consistency that ProbCut's windows rest on). EXACT=0 skips the
solves and prints the agreement alone (for midgame positions: LOW=36 HIGH=44 PER=15).
A lower rms alone does not make a better evaluation: one that squeezes its values
towards 0 errs less on close positions and still ranks the moves worse
(docs/engine.md). REVERSI names our binary, ZEBRA_DIR the folder of the built Zebra.

  evalerr.py MATCH.jsonl [MORE.jsonl ...]"""
import json, math, os, random, re, subprocess, sys

import othello as O
import players as P
from decided import positions, solve

LOW = int(os.environ.get('LOW', '16'))
HIGH = int(os.environ.get('HIGH', '26'))
PER = int(os.environ.get('PER', '12'))
DEPTHS = [int(d) for d in os.environ.get('DEPTHS', '2 4 6 8').split()]
WEIGHTS = os.environ.get('WEIGHTS', '')
EXACT = os.environ.get('EXACT', '1') != '0'


def picked(files, low=LOW, high=HIGH, per=PER, seed=7):
    """(board, side, empties, moves so far) of `per` positions for each count of empty
    cells from `low` to `high` where the side to move has two moves or more, drawn with
    `seed`."""
    by_empties = {}
    for name in files:
        for line in open(name):
            record = json.loads(line)
            moves = record['opening']
            for (b, p, empties), ply in zip(positions(record), record['plies']):
                if low <= empties <= high and len(O.legal(b, p)) >= 2:
                    by_empties.setdefault(empties, []).append((b, p, empties, moves))
                moves += ply['move']
    rng = random.Random(seed)
    out = []
    for empties in sorted(by_empties):
        chosen = by_empties[empties]
        rng.shuffle(chosen)
        out += chosen[:per]
    return out


def ours(board, side, depth):
    """Our value as Zebra reports its own: the mean of the searches of `depth` - 1 and
    `depth` plies (Zebra's middle_game averages its last two depths' values, which lean
    to opposite sides), or the 1-ply value alone."""
    def searched(plies):
        cmd = [P.REVERSI, 'engine', 'search', '--depth', str(plies), '--full-width',
               O.umea(board, side)]
        if WEIGHTS:
            cmd += ['--weights', WEIGHTS]
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        return float(re.match(r'value (-?[\d.]+)', out).group(1))
    return searched(depth) if depth == 1 else (searched(depth - 1) + searched(depth)) / 2


def zebra(moves, depth):
    d = str(depth)
    out = subprocess.run(['./zebra', '-quiet', '-r', '0', '-b', '0', '-l', d, '0', '0', d, '0',
                          '0', '-evalone', '-seq', moves], capture_output=True, text=True,
                         check=True, cwd=P.ZEBRA_DIR).stdout
    return float(re.search(r'^-->\s+\d+\s+([+-]?[\d.]+)', out, re.M).group(1))


def correlation(pairs):
    n = len(pairs)
    mx = sum(x for x, _ in pairs) / n
    my = sum(y for _, y in pairs) / n
    sxy = sum((x - mx) * (y - my) for x, y in pairs)
    sxx = sum((x - mx) ** 2 for x, _ in pairs)
    syy = sum((y - my) ** 2 for _, y in pairs)
    return sxy / math.sqrt(sxx * syy) if sxx and syy else float('nan')


def rms_of(diffs):
    return math.sqrt(sum(x * x for x in diffs) / len(diffs))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    chosen = picked(sys.argv[1:])
    errors = {}  # (engine, depth, band) -> [value - exact]
    pairs = {}  # (engine, depth) -> [(value, exact)]
    values = {}  # (engine, depth) -> [value], position by position
    for board, side, empties, moves in chosen:
        exact = solve(board, side) if EXACT else None
        band = empties // 4 * 4
        for depth in DEPTHS:
            for engine, value in (('ours', ours(board, side, depth)), ('zebra', zebra(moves, depth))):
                values.setdefault((engine, depth), []).append(value)
                if exact is None:
                    continue
                for key in ((engine, depth, band), (engine, depth, 'all')):
                    errors.setdefault(key, []).append(value - exact)
                pairs.setdefault((engine, depth), []).append((value, exact))
    if EXACT:
        bands = sorted({k[2] for k in errors if k[2] != 'all'})
        print('%d positions with %d-%d empty cells; rms (mean) of search value less exact '
              'margin, discs; corr: correlation of value and exact margin' % (len(chosen), LOW, HIGH))
        print('%-6s %5s ' % ('engine', 'depth') +
              ' '.join('%15s' % ('%d-%d' % (b, b + 3)) for b in bands) + ' %15s %6s' % ('all', 'corr'))
        for engine in ('ours', 'zebra'):
            for depth in DEPTHS:
                cells = []
                for band in bands + ['all']:
                    e = errors[(engine, depth, band)]
                    cells.append('%15s' % ('%.2f (%+.2f)' % (rms_of(e), sum(e) / len(e))))
                cells.append('%6.3f' % correlation(pairs[(engine, depth)]))
                print('%-6s %5d ' % (engine, depth) + ' '.join(cells))
    print('%d positions with %d-%d empty cells; agreement of each depth with the one before '
          'in DEPTHS: rms of their difference, discs, and correlation; sd: spread of the '
          "values" % (len(chosen), LOW, HIGH))
    for engine in ('ours', 'zebra'):
        for before, depth in zip(DEPTHS, DEPTHS[1:]):
            v, w = values[(engine, depth)], values[(engine, before)]
            mean = sum(v) / len(v)
            sd = math.sqrt(sum((x - mean) ** 2 for x in v) / len(v))
            print('%-6s %2d against %2d: rms %.2f  corr %.3f  sd %.2f' % (
                engine, depth, before, rms_of([a - b for a, b in zip(v, w)]),
                correlation(list(zip(v, w))), sd))


if __name__ == '__main__':
    main()
