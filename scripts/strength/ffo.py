#!/usr/bin/env python3
"""Exact solves of FFO test positions #FIRST..#LAST (default #40-#49) by
`reversi engine solve`, one process per position, printed beside the node counts
Egaroucid publishes for the same positions.

Usage: ffo.py FFO_FOLDER [FIRST LAST]   (FFO_FOLDER: Edax's problem/ folder, with
fforum-40-59.obf). REVERSI names our binary; THREADS=N adds --threads N; WEIGHTS=FILE
adds --weights FILE (the solver orders its moves by that file's evaluation); ROUNDS=N
solves the positions N times over, one after the other, and keeps each position's
fastest time (a solve's time varies from run to run on a shared machine; its nodes,
on one thread, do not).

Egaroucid's figures are its own published benchmark (data, not measured here):
Egaroucid 7.5.0 for Console, SIMD, Core i9-13900K, `-l 60 -hash 25 -nobook -solve
ffo40-59.txt -thread 42`, file docs/en/technology/benchmarks/7_5_0/files/
000_ffo40_59_Core_i9-13900K_SIMD.txt of github.com/Nyanyan/Egaroucid. Both programs
count a node per position searched with two or more empty cells: the position
before the last move is scored without counting the move."""
import os
import re
import subprocess
import sys

import endgame
import othello as O

EGAROUCID_7_5_NODES = {
    40: 10809041, 41: 14445083, 42: 22315365, 43: 71155875, 44: 9891939,
    45: 226044404, 46: 51187349, 47: 12377400, 48: 132762420, 49: 196287502,
}


def positions(folder, first, last):
    """(id, best score, position in our format) of the FFO positions first..last."""
    return [(p['id'], p['best'], O.umea(p['board'].replace('-', '.'), p['side']))
            for p in endgame.load(folder) if first <= p['id'] <= last]


def main():
    if len(sys.argv) not in (2, 4):
        sys.exit(__doc__.split('\n\n')[1])
    folder = sys.argv[1]
    first, last = (int(sys.argv[2]), int(sys.argv[3])) if len(sys.argv) == 4 else (40, 49)
    reversi = os.environ.get('REVERSI', 'reversi')
    threads = os.environ.get('THREADS')
    extra = ['--threads', threads] if threads else []
    if os.environ.get('WEIGHTS'):
        extra += ['--weights', os.environ['WEIGHTS']]
    rounds = int(os.environ.get('ROUNDS', '1'))
    cases = positions(folder, first, last)
    solved, bad, round_times = {}, set(), []
    for _ in range(rounds):
        round_times.append(0.0)
        for number, best, position in cases:
            answer = subprocess.run([reversi, 'engine', 'solve', *extra, position],
                                    capture_output=True, text=True, check=True).stdout
            m = re.match(r'value (-?\d+) best \S+ nodes (\d+) in ([\d.]+) s', answer)
            value, nodes, seconds = int(m.group(1)), int(m.group(2)), float(m.group(3))
            round_times[-1] += seconds
            if value != best:
                bad.add(number)
            if number not in solved or seconds < solved[number][2]:
                solved[number] = (value, nodes, seconds)
    print('| FFO | empty | best | ours | nodes | time (s) | Egaroucid 7.5 nodes | ours / Egaroucid |')
    print('|---|---|---|---|---|---|---|---|')
    total_nodes = total_time = total_egaroucid = 0
    wrong = 0
    for number, best, position in cases:
        value, nodes, seconds = solved[number]
        wrong += number in bad
        egaroucid = EGAROUCID_7_5_NODES.get(number)
        ratio = '%.2f' % (nodes / egaroucid) if egaroucid else '-'
        print('| #%d | %d | %+d | %+d%s | %.1fM | %.2f | %s | %s |' % (
            number, position.count('E'), best, value, ' WRONG' if number in bad else '',
            nodes / 1e6, seconds, '%.1fM' % (egaroucid / 1e6) if egaroucid else '-', ratio))
        total_nodes += nodes
        total_time += seconds
        total_egaroucid += egaroucid or 0
        sys.stdout.flush()
    print('| all | | | | %.1fM | %.2f | %.1fM | %.2f |' % (
        total_nodes / 1e6, total_time, total_egaroucid / 1e6,
        total_nodes / total_egaroucid if total_egaroucid else 0))
    if rounds > 1:
        print('each round: %s s in all' % ', '.join('%.2f' % t for t in round_times))
    if wrong:
        sys.exit('%d wrong value(s)' % wrong)


if __name__ == '__main__':
    main()
