#!/usr/bin/env python3
"""How long each engine takes to reach a fixed depth, each with its own selectivity.

Positions are taken from match files (match.py's JSON lines): PER positions (5) for
each count of empty cells from 36 to 44 in which the side to move has two moves or
more, drawn with a fixed seed. Each is searched to each depth of DEPTHS ("10 12 14
16 18") and to 1 ply (the process's start-up, taken off), one process at a time: ours by
`reversi engine search --depth D` (iterative deepening with ProbCut, as in play, a
fresh table each; WEIGHTS: on that weights file), Zebra by `-l D 0 0` (its midgame
search, with Multi-ProbCut from 9 plies, replayed from the game's moves with -seq).
Prints, for each depth, each engine's CPU seconds and nodes over all the positions
(the engines count nodes differently), and how many times as long as the depth
before each depth took. On a quiet machine only. REVERSI names our binary,
ZEBRA_DIR the folder of the built Zebra.

  reach.py MATCH.jsonl [MORE.jsonl ...]"""
import os, re, sys

import othello as O
import players as P
from evalerr import picked

PER = int(os.environ.get('PER', '5'))
DEPTHS = [int(d) for d in os.environ.get('DEPTHS', '10 12 14 16 18').split()]
WEIGHTS = os.environ.get('WEIGHTS', '')


def ours(board, side, depth):
    """(CPU seconds, nodes) of our search of the position to `depth` plies."""
    cmd = [P.REVERSI, 'engine', 'search', '--depth', str(depth), O.umea(board, side)]
    if WEIGHTS:
        cmd += ['--weights', WEIGHTS]
    pr, _ = P.run(cmd, P.FIXED_DEPTH_TIMEOUT)
    if pr.returncode != 0:
        sys.exit('our search failed: %s' % pr.stderr[-300:])
    return P.LAST_CPU[0], int(re.search(r'nodes (\d+)', pr.stdout).group(1))


def zebra(moves, depth):
    """(CPU seconds, nodes) of Zebra's search of the position after `moves`."""
    d = str(depth)
    _, pr, _ = P.zebra_move(['-h', '18', '-l', d, '0', '0', d, '0', '0'], O.parse_line(moves),
                            P.FIXED_DEPTH_TIMEOUT)
    return P.LAST_CPU[0], P.zebra_report(pr.stdout)['nodes']


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    chosen = picked(sys.argv[1:], 36, 44, PER, seed=13)
    # A first run of each, not counted: the binaries and files into the page cache.
    board, side, _, moves = chosen[0]
    ours(board, side, 1)
    zebra(moves, 1)
    totals = {engine: {depth: [0.0, 0] for depth in [1] + DEPTHS} for engine in ('ours', 'zebra')}
    for board, side, _, moves in chosen:
        for depth in [1] + DEPTHS:
            for engine, (seconds, nodes) in (('ours', ours(board, side, depth)),
                                              ('zebra', zebra(moves, depth))):
                totals[engine][depth][0] += seconds
                totals[engine][depth][1] += nodes
    print('%d positions with 36-44 empty cells; CPU seconds to each depth in all, less '
          'the 1-ply runs (start-up), nodes, and the time as a multiple of the depth '
          'before' % len(chosen))
    for engine in ('ours', 'zebra'):
        start = totals[engine][1][0]
        before = None
        for depth in DEPTHS:
            seconds, nodes = totals[engine][depth]
            seconds -= start
            ratio = ' x%.2f' % (seconds / before) if before else ''
            print('  %-5s depth %2d: %7.2f s %12d nodes%s' % (engine, depth, seconds, nodes, ratio))
            before = seconds


if __name__ == '__main__':
    main()
