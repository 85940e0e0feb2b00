#!/usr/bin/env python3
"""Exact solves of the FFO/FForum positions (Edax's problem/fforum-*.obf files, in the
folder named) with LOW..HIGH empty cells by `reversi engine solve`, one process per
position: wall time, nodes, value against the file's best score. The files score a
finished game with empty cells left by giving them to the winner; ours (the courses'
rule) counts discs only, so such a value can differ by the empties left (marked *).
THREADS=N solves on N threads (`--threads`); IDS=FIRST-LAST keeps those positions only.

  endgame.py FOLDER [LOW HIGH]"""
import glob, os, re, statistics, subprocess, sys, time

import othello as O
import players as P


def load(folder):
    out = []
    for f in sorted(glob.glob(os.path.join(folder, 'fforum-*.obf'))):
        first = int(re.search(r'fforum-(\d+)-', f).group(1))
        for k, line in enumerate(l for l in open(f) if l.strip()):
            parts = [x.strip() for x in line.split(';')]
            board, side = parts[0].split()
            scores = [int(p.split(':')[1]) for p in parts[1:] if ':' in p]
            out.append(dict(id=first + k, board=board, side=side, best=max(scores),
                            empties=board.count('-')))
    return out


def main():
    folder = sys.argv[1]
    low, high = (int(sys.argv[2]), int(sys.argv[3])) if len(sys.argv) > 3 else (16, 24)
    chosen = [p for p in load(folder) if low <= p['empties'] <= high]
    if os.environ.get('IDS'):
        first, last = map(int, os.environ['IDS'].split('-'))
        chosen = [p for p in chosen if first <= p['id'] <= last]
    threads = os.environ.get('THREADS', '1')
    if not chosen:
        sys.exit('no fforum-*.obf position with %d-%d empties in %s' % (low, high, folder))
    by_empties = {}
    total_nodes, total_wall = 0, 0.0
    print('%-5s %7s %5s %6s %9s %12s' % ('FFO', 'empties', 'best', 'ours', 'wall s', 'nodes'))
    for p in chosen:
        b = ['.' if c == '-' else c for c in p['board']]
        t0 = time.perf_counter()
        pr = subprocess.run([P.REVERSI, 'engine', 'solve', '--threads', threads,
                             O.umea(b, p['side'])],
                            capture_output=True, text=True, check=True)
        wall = time.perf_counter() - t0
        m = re.match(r'value (-?\d+) best \S+ nodes (\d+)', pr.stdout)
        value, nodes = int(m.group(1)), int(m.group(2))
        mark = '' if value == p['best'] else '*'
        print('#%-4d %7d %+5d %+5d%1s %9.3f %12d' % (p['id'], p['empties'], p['best'], value, mark,
                                                    wall, nodes), flush=True)
        by_empties.setdefault(p['empties'], []).append(wall)
        total_nodes += nodes
        total_wall += wall
    print('\nempties  positions  mean s  max s')
    for e in sorted(by_empties):
        ts = by_empties[e]
        print('%7d  %9d  %6.3f  %5.3f' % (e, len(ts), statistics.mean(ts), max(ts)))
    print('total %d nodes in %.3f s, %.1fM nodes/s (%s thread(s))'
          % (total_nodes, total_wall, total_nodes / total_wall / 1e6, threads))


if __name__ == '__main__':
    main()
