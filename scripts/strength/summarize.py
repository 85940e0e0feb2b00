#!/usr/bin/env python3
"""Summarize the match files named (match.py's JSON lines): per match W/D/L for our engine, mean
disc difference (ours - opponent) with its standard error, per-engine time per move (mean, max,
answers over the limit, none for ours held to a depth by `match.py --ours-depth`; in the midgame)
and, where reported, depth and nodes per second.
With several matches of the same opponent and time limit, also their pooled score.
Scores count a draw as half a win; their standard error is that of the mean score a game."""
import json, math, statistics, sys


def score_line(w, d, l):
    """W/D/L, the score in percent and its standard error (points)."""
    n = w + d + l
    scores = [1.0] * w + [0.5] * d + [0.0] * l
    se = statistics.stdev(scores) / math.sqrt(n) if n > 1 else 0
    return 'W/D/L %d/%d/%d (score %.1f%%, s.e. %.1f)' % (w, d, l, 100.0 * statistics.mean(scores), 100 * se)


def clock_label(opp, T, OT, ours_depth, detail=''):
    """The two players' limits: ours a time or (`match.py --ours-depth`) a depth, with `detail`."""
    ours = 'ours at depth %d%s' % (ours_depth, detail) if ours_depth else 'ours %g s/move' % T
    return '%s, %s %g s/move' % (ours, opp, OT)


files = sys.argv[1:]
pooled = {}
for f in files:
    recs = [json.loads(l) for l in open(f)]
    if not recs or 'ours' not in recs[0]:
        continue
    T = recs[0]['seconds']; opp = recs[0]['opponent']; OT = recs[0].get('opp_seconds', T)
    ours_depth = recs[0].get('ours_depth')
    # An engine's time limit, None without a clock (ours held to a depth has none).
    limit = lambda e: None if T is None or e == 'ours' and ours_depth else T if e == 'ours' else OT
    w = d = l = 0; diffs = []; forfeits = []
    times = {}; cpus = {}; nps = {}; depth = {}; over = {}; loads = []; midgame = {}
    for r in recs:
        nb, nw = r['discs']
        diff = (nb - nw) if r['ours'] == 'X' else (nw - nb)
        diffs.append(diff)
        if r['winner'] == r['ours']: w += 1
        elif r['winner'] == '=': d += 1
        else: l += 1
        if 'forfeit' in r: forfeits.append(r['forfeit'])
        loads += r.get('load1', [])
        for p in r['plies']:
            e = 'ours' if p['engine'] == 'ours' else opp
            times.setdefault(e, []).append(p['t'])
            if p['empties'] > 22:
                midgame.setdefault(e, []).append(p['t'])
            if 'cpu' in p:
                cpus.setdefault(e, []).append(p['cpu'])
            if limit(e) is not None and p['t'] > limit(e): over[e] = over.get(e, 0) + 1
            if e == 'ours' and p.get('nodes') and p.get('search_s', 0) > 0.05:
                nps.setdefault(e, []).append(p['nodes'] / p['search_s'])
            if e == 'zebra' and p.get('nps') and p.get('search_s', 0) >= 0.1:
                nps.setdefault(e, []).append(p['nps'])
            if p.get('depth') and p['empties'] > 30:
                try:
                    depth.setdefault(e, []).append(int(str(p['depth']).lstrip('*')))
                except ValueError:
                    pass
    n = len(recs)
    se = statistics.stdev(diffs) / math.sqrt(n) if n > 1 else 0
    limits = (clock_label(opp, T, OT, ours_depth,
                          ' (selective), exact from %d empty cells' % recs[0].get('exact', 0))
              if T is not None else
              'both at depth %d%s, exact from %d empty cells%s' % (
                  recs[0]['depth'], ' (selective)' if recs[0].get('selective') else '', recs[0]['exact'],
                  ', ours on %s' % recs[0]['weights'] if recs[0].get('weights') else ''))
    print('== %s, %s: %d games, ours %s, mean disc diff %+.1f (s.e. %.1f)%s' % (
        opp, limits, n, score_line(w, d, l), statistics.mean(diffs), se,
        ', forfeits: %s' % forfeits if forfeits else ''))
    pool = pooled.setdefault((opp, T, OT, recs[0].get('depth'), recs[0].get('weights'), ours_depth),
                             [0, 0, 0, 0])
    for i, v in enumerate((w, d, l, 1)):
        pool[i] += v
    for e, ts in times.items():
        line = '   %-8s moves %4d  time/move mean %.3f s, median %.3f, max %.3f' % (
            e, len(ts), statistics.mean(ts), statistics.median(ts), max(ts))
        if limit(e) is not None:
            line += ', over limit: %d' % over.get(e, 0)
        if e in cpus:
            line += ' (CPU mean %.3f s)' % statistics.mean(cpus[e])
        if e in depth:
            line += ';  midgame depth (>30 empties) mean %.1f' % statistics.mean(depth[e])
        if e in nps:
            line += ';  nodes/s median %.2fM' % (statistics.median(nps[e]) / 1e6)
        print(line)
        if e in midgame and T is not None:
            mean = statistics.mean(midgame[e])
            share = ' = %.0f%% of the limit' % (100 * mean / limit(e)) if limit(e) is not None else ''
            print('   %-8s midgame (over 22 empties) time/move mean %.3f s%s' % (e, mean, share))
    if loads:
        print('   load average (1 min) at game start/end: mean %.1f, max %.1f' % (statistics.mean(loads), max(loads)))
for (opp, T, OT, depth, weights, ours_depth), (w, d, l, matches) in pooled.items():
    if matches > 1:
        limits = clock_label(opp, T, OT, ours_depth) if T is not None else 'depth %d' % depth
        print('== pooled: %s, %s, %d matches, %d games: ours %s' % (
            opp, limits, matches, w + d + l, score_line(w, d, l)))
