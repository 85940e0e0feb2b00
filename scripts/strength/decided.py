#!/usr/bin/env python3
"""Where the games of match files (match.py's JSON lines) were decided.

For each game, the first position with at most AT empty cells (24 unless the
environment says otherwise) is solved exactly by `reversi engine solve` (REVERSI names
the binary; JOBS processes at a time, 2 by default) and its perfect-play margin for our
engine is set beside the game's final margin: a game whose outcome (win, draw, loss)
changed after that point was decided in the endgame, the others before it. Against
Zebra, each of our moves is also priced by Zebra's own reports: its value after our
move less its value before (both in its view, so a positive cost is a loss for us),
by band of empty cells.

  decided.py MATCH.jsonl [MORE.jsonl ...]"""
import collections, json, os, re, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

import othello as O
import players as P

AT = int(os.environ.get('AT', '24'))
JOBS = int(os.environ.get('JOBS', '2'))


def positions(record):
    """(board, side to move, empty cells) before each ply of a game."""
    b, p = O.play_line(record['opening'])
    out = []
    for ply in record['plies']:
        if not O.legal(b, p):
            p = O.opp(p)
        out.append((b, p, ply['empties']))
        b = O.play(b, p, O.parse(ply['move']))
        p = O.opp(p)
    return out


def solve(board, side):
    """The exact final margin for the side to move."""
    out = subprocess.run([P.REVERSI, 'engine', 'solve', O.umea(board, side)],
                         capture_output=True, text=True, check=True)
    return int(re.match(r'value (-?\d+)', out.stdout).group(1))


def outcome(margin):
    return (margin > 0) - (margin < 0)


def costs(record):
    """(empty cells, cost) of each of our moves between two reports of Zebra's."""
    plies = record['plies']
    out = []
    for before, ours, after in zip(plies, plies[1:], plies[2:]):
        if ours['engine'] != 'ours' or before['engine'] == 'ours' or after['engine'] == 'ours':
            continue
        try:
            out.append((ours['empties'], float(after['value']) - float(before['value'])))
        except (KeyError, TypeError, ValueError):
            pass  # a pass, or a selective endgame report such as '27 -2 @ 91%'
    return out


def main():
    games = []
    for name in sys.argv[1:]:
        for number, line in enumerate(open(name)):
            record = json.loads(line)
            x, o = record['discs']
            final = x - o if record['ours'] == 'X' else o - x
            late = [q for q in positions(record) if q[2] <= AT]
            games.append((os.path.basename(name), number, record, final, late[0] if late else None))

    def judge(game):
        name, number, record, final, late = game
        if late is None:
            return name, number, None, None, final
        board, side, empties = late
        value = solve(board, side)
        return name, number, empties, value if side == record['ours'] else -value, final

    counts = collections.Counter()
    with ThreadPoolExecutor(JOBS) as pool:
        for name, number, empties, perfect, final in pool.map(judge, games):
            if perfect is None:
                print('%s game %d: over before %d empty cells, final %+d' % (name, number, AT, final))
                continue
            changed = outcome(perfect) != outcome(final)
            counts['outcome changed after' if changed else 'outcome kept'] += 1
            if final < perfect:
                counts['lost discs after'] += 1
            print('%s game %d at %d empty cells: perfect play %+d, final %+d%s'
                  % (name, number, empties, perfect, final, '  (outcome changed)' if changed else ''))
    print()
    print('at %d empty cells: %s' % (AT, ', '.join('%s %d' % kv for kv in sorted(counts.items()))))
    bands = collections.defaultdict(list)
    for _, _, record, _, _ in games:
        if record.get('opponent') == 'zebra':
            for empties, cost in costs(record):
                bands[empties // 6 * 6].append(cost)
    if bands:
        print('\nour moves priced by Zebra (its value after less before, discs):')
        print('%-12s %5s %10s %10s' % ('empty cells', 'moves', 'mean cost', 'cost >= 2'))
        for low in sorted(bands, reverse=True):
            v = bands[low]
            print('%-12s %5d %+10.2f %10d' % ('%d-%d' % (low, low + 5), len(v), sum(v) / len(v),
                                              sum(c >= 2 for c in v)))


if __name__ == '__main__':
    main()
