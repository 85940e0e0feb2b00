#!/usr/bin/env python3
"""Play our engine against an opponent, one game at a time, every move checked by
othello.py. Each opening (a move string from the standard start) is played twice,
our engine black in one game and white in the other.

  match.py --opponent zebra|naive --seconds T [--openings FILE] [--start K] [--first N]
           [--out results.jsonl]
  match.py --opponent zebra --depth D --exact E [--selective] [--weights FILE] [--jobs J] ...
  match.py --opponent zebra --seconds T --ours-depth D [--exact E] ...

The second form plays at a fixed depth (both engines search D plies, without
selectivity up to 8 plies, with their own from 9 or with --selective; then both solve
exactly from E empty cells): no clock, so J games may run at once. The third holds
ours to D plies with its pruning (no clock; exactly from E) against the opponent's
clock.

Writes one JSON line per game (moves, discs, per-move times and engine reports) and
prints a summary. An illegal, missing or late answer (over T + 5 s) loses the game."""
import argparse, json, multiprocessing, os, statistics, sys, time

import othello as O
import players as P


def play_game(opening, black, white, log=None):
    b, p = O.play_line(opening)
    moves = [O.parse(opening[i:i + 2]) for i in range(0, len(opening), 2)]
    rec = {'opening': opening, 'black': black.name, 'white': white.name, 'plies': []}
    while True:
        ms = O.legal(b, p)
        if not ms:
            if not O.legal(b, O.opp(p)):
                break
            p = O.opp(p)
            continue
        who = black if p == 'X' else white
        try:
            sq, info = who.move(b, p, moves)
            if sq not in ms:
                raise P.EngineError('illegal move %s' % O.name(sq))
        except P.EngineError as e:
            rec['forfeit'] = {'by': p, 'engine': who.name, 'why': str(e), 'at': len(moves)}
            break
        info.pop('stderr', None)
        info.update(side=p, engine=who.name, move=O.name(sq), empties=b.count('.'))
        rec['plies'].append(info)
        b = O.play(b, p, sq)
        moves.append(sq)
        p = O.opp(p)
    nb, nw = O.count(b)
    rec['discs'] = [nb, nw]
    rec['final'] = ''.join(b)
    if 'forfeit' in rec:
        rec['winner'] = 'O' if rec['forfeit']['by'] == 'X' else 'X'
    else:
        rec['winner'] = 'X' if nb > nw else 'O' if nw > nb else '='
    return rec


PLAYERS = None


def set_players(ours, opp):
    """Gives this process the two players (also each worker's, whatever its start method)."""
    global PLAYERS
    PLAYERS = (ours, opp)


def play_task(task):
    """Plays one (opening, ours_black) game with the players PLAYERS holds."""
    op, ours_black = task
    ours, opp = PLAYERS
    t0 = time.time()
    load0 = os.getloadavg()[0]
    rec = play_game(op, ours if ours_black else opp, opp if ours_black else ours)
    rec['load1'] = [load0, os.getloadavg()[0]]
    rec['ours'] = 'X' if ours_black else 'O'
    rec['wall'] = time.time() - t0
    return rec


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--opponent', required=True, choices=['zebra', 'naive', 'reversi'],
                    help='reversi: another build of ours, the program $REVERSI_OPPONENT names')
    ap.add_argument('--seconds', type=float, default=None)
    ap.add_argument('--depth', type=int, default=None,
                    help='fixed depth, no clock (against zebra only; 1 to 8 plies, where Zebra '
                         'searches without selectivity; deeper with --selective)')
    ap.add_argument('--selective', action='store_true',
                    help='with --depth: ours with ProbCut as in play (Zebra is selective from 9)')
    ap.add_argument('--ours-depth', type=int, default=None,
                    help='with --seconds: ours searches this many plies with ProbCut, no '
                         'clock, and solves exactly from --exact empty cells; the opponent '
                         'keeps its clock')
    ap.add_argument('--exact', type=int, default=16,
                    help='with --depth or --ours-depth: solve exactly from this many empty cells')
    ap.add_argument('--weights', default=None, help='with --depth: our weights file')
    ap.add_argument('--jobs', type=int, default=1, help='with --depth: games played at once')
    ap.add_argument('--openings', default='openings.txt')
    ap.add_argument('--first', type=int, default=20, help='how many openings (x2 games)')
    ap.add_argument('--start', type=int, default=0,
                    help='skip this many openings first (to split a long match in parts)')
    ap.add_argument('--zebra-tau', type=float, default=None)
    ap.add_argument('--opp-seconds', type=float, default=None,
                    help="the opponent's limit (default --seconds): time odds")
    ap.add_argument('--threads', type=int, default=1,
                    help='threads for our engine (umea --threads; the opponent keeps one)')
    ap.add_argument('--out', required=True)
    a = ap.parse_args()
    if (a.seconds is None) == (a.depth is None):
        ap.error('give --seconds or --depth')
    if a.depth is not None and (a.opponent != 'zebra' or not 1 <= a.depth <= (60 if a.selective else 8)):
        ap.error('--depth: 1 to 8 plies (more with --selective), against zebra')
    if a.depth is None and (a.jobs != 1 or a.weights or a.selective):
        ap.error('--jobs, --weights and --selective go with --depth')
    if a.ours_depth is not None and (a.seconds is None or a.ours_depth < 1):
        ap.error('--ours-depth: a depth of 1 or more, with --seconds')

    osec = a.opp_seconds if a.opp_seconds is not None else a.seconds
    if a.depth is not None:
        ours = P.OursFixedDepth(a.depth, a.exact, a.weights, a.selective)
        opp = P.ZebraFixedDepth(a.depth, a.exact)
        print('fixed depth %d%s, exact from %d empty cells' % (
            a.depth, ' (selective)' if a.selective else '', a.exact), flush=True)
    else:
        if a.ours_depth is not None:
            ours = P.OursFixedDepth(a.ours_depth, a.exact, selective=True)
            print('ours at depth %d, exact from %d empty cells' % (a.ours_depth, a.exact),
                  flush=True)
        else:
            ours = P.Ours(a.seconds, threads=a.threads)
        if a.opponent == 'zebra':
            opp = P.Zebra(osec, tau=a.zebra_tau)
            print('zebra target time per move tau = %.3f s' % opp.tau, flush=True)
        elif a.opponent == 'reversi':
            opp = P.Ours(osec, binary=os.environ['REVERSI_OPPONENT'], name='other')
        else:
            opp = P.Ours(osec, naive=True)

    openings = [l.split()[0] for l in open(a.openings) if l.strip() and not l.startswith('#')]
    openings = openings[a.start:a.start + a.first]
    out = open(a.out, 'a')
    w = d = l = 0
    diffs = []
    set_players(ours, opp)
    tasks = [(op, ours_black) for op in openings for ours_black in (True, False)]
    pool = multiprocessing.Pool(a.jobs, set_players, (ours, opp)) if a.jobs > 1 else None
    for k, rec in enumerate((pool.imap if pool else map)(play_task, tasks)):
        op, ours_black = tasks[k]
        rec['seconds'] = a.seconds
        rec['opp_seconds'] = osec
        rec['opponent'] = a.opponent
        rec['threads'] = a.threads
        if a.depth is not None:
            rec.update(depth=a.depth, exact=a.exact, weights=a.weights, selective=a.selective)
        if a.ours_depth is not None:
            rec.update(ours_depth=a.ours_depth, exact=a.exact)
        out.write(json.dumps(rec) + '\n'); out.flush()
        nb, nw = rec['discs']
        diff = (nb - nw) if ours_black else (nw - nb)
        diffs.append(diff)
        res = 'W' if rec['winner'] == rec['ours'] else 'D' if rec['winner'] == '=' else 'L'
        w += res == 'W'; d += res == 'D'; l += res == 'L'
        tt = {}
        for pl in rec['plies']:
            tt.setdefault(pl['engine'], []).append(pl['t'])
        ts = ' '.join('%s mean %.3f max %.3f' % (e, statistics.mean(v), max(v)) for e, v in tt.items())
        print('%2d %-18s ours=%s %2d-%2d %s diff %+3d  [%s]%s  (%.0f s)' % (
            a.start + k // 2 + 1, op, 'B' if ours_black else 'W', nb, nw, res, diff, ts,
            ('  FORFEIT ' + json.dumps(rec['forfeit'])) if 'forfeit' in rec else '',
            rec['wall']) + '  load %.1f/%.1f' % tuple(rec['load1']), flush=True)
    n = w + d + l
    limits = 'depth %d' % a.depth if a.depth is not None else 'ours %g s, opponent %g s' % (a.seconds, osec)
    print('TOTAL vs %s, %s: %d games, ours W/D/L %d/%d/%d, score %.1f%%, mean disc diff %+.2f' % (
        a.opponent, limits, n, w, d, l, 100.0 * (w + d / 2) / n, statistics.mean(diffs)))


if __name__ == '__main__':
    main()
