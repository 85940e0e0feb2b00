#!/usr/bin/env python3
"""ProbCut's spreads measured again (the table PROBCUT_SIGMA in src/engine/search.rs).

Positions are taken from match files (match.py's JSON lines): PER positions (16) for
each count of empty cells from 20 to 54 in which the side to move has two moves or
more, drawn with a fixed seed. Each is searched without selectivity (`reversi engine
search --full-width`, our evaluation or the weights file WEIGHTS names) to every depth
from 1 to 11, one process a search, JOBS (2) at a time. For each deep depth d from 3
to 11 and each stage of the search (45 or more empty cells, 37-44, 29-36, 28 or fewer),
prints the root mean square of the depth-d value less the value of ProbCut's shallow
search of it (2 (d / 4) + d mod 2 plies, as the search has it), in hundredths of a
disc: the rows of the table, ready to paste; then the mean differences, which ProbCut
takes for 0. REVERSI names our binary.

  margins.py MATCH.jsonl [MORE.jsonl ...]"""
import math, os, sys
from concurrent.futures import ThreadPoolExecutor

from evalerr import ours, picked

PER = int(os.environ.get('PER', '16'))
JOBS = int(os.environ.get('JOBS', '2'))
LOW, HIGH = 20, 54
DEEPEST = 11
STAGES = ['45 or more empty cells', '37-44', '29-36', '28 or fewer']


def stage(empties):
    """The row of the table, as `Searcher::probcut` picks it."""
    return 0 if empties >= 45 else 1 if empties >= 37 else 2 if empties >= 29 else 3


def shallow(depth):
    """The depth of ProbCut's shallow search of a `depth`-ply search."""
    return 2 * (depth // 4) + depth % 2


def searched(item):
    """(empty cells, the values of the full-width searches to 1..DEEPEST plies)."""
    board, side, empties, _ = item
    return empties, [ours(board, side, depth) for depth in range(1, DEEPEST + 1)]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    chosen = picked(sys.argv[1:], LOW, HIGH, PER, seed=11)
    with ThreadPoolExecutor(JOBS) as pool:
        rows = list(pool.map(searched, chosen))
    print('%d positions with %d-%d empty cells; by stage, for depths 3-%d: rms of the '
          'deep value less the shallow one, hundredths of a disc' % (len(rows), LOW, HIGH, DEEPEST))
    means = []
    for row in range(len(STAGES)):
        values = [v for empties, v in rows if stage(empties) == row]
        rms, mean = [], []
        for depth in range(3, DEEPEST + 1):
            diff = [v[depth - 1] - v[shallow(depth) - 1] for v in values]
            rms.append(round(100 * math.sqrt(sum(x * x for x in diff) / len(diff))))
            mean.append(sum(diff) / len(diff))
        print('    [%s], // %s: %d positions' % (', '.join('%d' % x for x in rms), STAGES[row], len(values)))
        means.append(mean)
    print('mean differences, discs:')
    for row, mean in enumerate(means):
        print('    %s: %s' % (STAGES[row], ' '.join('%+.2f' % x for x in mean)))


if __name__ == '__main__':
    main()
