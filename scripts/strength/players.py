"""Adapters: each player gets (board, side, move list so far, seconds) and returns
(square, info) where info has wall time and whatever the engine reported."""
import os, re, resource, subprocess, time

import othello as O

REVERSI = os.environ.get('REVERSI', 'reversi')
# The folder where Zebra was built (its coefficient files are read from there).
ZEBRA_DIR = os.environ.get('ZEBRA_DIR', '')
GRACE = 5.0  # as `reversi umea match`: no answer within SECONDS + 5 s loses


class EngineError(Exception):
    pass


LAST_CPU = [0.0]


def run(cmd, timeout, cwd=None):
    """Runs one engine process; returns (result, wall seconds). The child's CPU time
    (user + sys, from getrusage of the children: one child at a time) goes to LAST_CPU."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise EngineError('no answer within %.1f s: %s' % (timeout, cmd[:3]))
    dt = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    LAST_CPU[0] = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    return p, dt


class Ours:
    """reversi umea POSITION SECONDS 0 (with --verbose for depth and node counts, and
    --threads N when given more than one thread)."""
    name = 'ours'

    def __init__(self, seconds, naive=False, binary=None, name=None, threads=1):
        self.seconds = seconds
        self.naive = naive
        self.threads = threads
        self.binary = binary or REVERSI
        if naive:
            self.name = 'naive'
        if name:
            self.name = name

    def move(self, b, p, moves):
        cmd = [self.binary, 'umea'] + (['--naive'] if self.naive else ['--verbose']) + \
              (['--threads', str(self.threads)] if self.threads > 1 else []) + \
              [O.umea(b, p), '%g' % self.seconds, '0']
        pr, dt = run(cmd, self.seconds + GRACE)
        if pr.returncode != 0:
            raise EngineError('exit %d: %s' % (pr.returncode, pr.stderr[-300:]))
        lines = pr.stdout.splitlines()
        if len(lines) != 1:
            raise EngineError('expected one line, got %r' % pr.stdout)
        m = re.fullmatch(r'\((\d),(\d)\)', lines[0].strip())
        if not m:
            raise EngineError('unreadable answer %r' % lines[0])
        sq = (int(m.group(1)) - 1) * 8 + int(m.group(2)) - 1
        info = {'t': dt, 'cpu': LAST_CPU[0]}
        v = re.search(r'depth (\d+) (\w+(?: \w+)?) value (-?\d+) nodes (\d+) in ([\d.]+) s', pr.stderr)
        if v:
            info.update(depth=int(v.group(1)), kind=v.group(2), value=int(v.group(3)),
                        nodes=int(v.group(4)), search_s=float(v.group(5)))
        info['stderr'] = pr.stderr.strip()[-200:]
        return sq, info


class Zebra:
    """Gunnar Andersson's Zebra (lk16/zebra), one process a move: the game so far is
    replayed with -seq and -evalone prints the move chosen. Timed search (level 60).
    Zebra's clock (timer.c): with time left L and increment I, m = max((65-discs)/2-5, 2)
    moves to come, it aims at tau = 0.7 (L + m I - 10)/(m+1) (at least 0.7/(m+1)), the
    midgame panic abort is at 1.6/0.7 tau = 2.29 tau, and the endgame solver's abort at
    0.5 (L - 10) below 22 empties. We set L = 10 + 2 cap and pick I per move so that
    tau = cap / 2.29, where cap = 0.85 T - 0.10 s (the hard stop of our engine when the
    engine issue was filed, 85% of T less 50 ms, less ~50 ms Zebra spends loading its
    coefficients before its clock starts). Kept as it was, so that figures before and
    after the engine's changes compare: Zebra's clock is not ours to tune."""
    name = 'zebra'

    def __init__(self, seconds, tau=None, hash_bits=18):
        self.seconds = seconds
        self.cap = max(0.85 * seconds - 0.10, 0.05)
        self.tau = tau if tau is not None else self.cap / (1.6 / 0.7)
        self.hash_bits = hash_bits

    def move(self, b, p, moves):
        discs = 64 - b.count('.')
        m = max((65 - discs) // 2 - 5, 2)
        L = 10.0 + 2 * self.cap
        I = (self.tau * (m + 1) / 0.7 - 2 * self.cap) / m
        square, pr, dt = zebra_move(
            ['-h', str(self.hash_bits), '-l', '60', '60', '60', '60', '60', '60',
             '-time', '%.5f' % L, '%.5f' % I, '%.5f' % L, '%.5f' % I], moves,
            self.seconds + GRACE)
        return square, dict({'t': dt, 'cpu': LAST_CPU[0]}, **zebra_report(pr.stdout))


def zebra_report(stdout):
    """What Zebra's last search line (`-->`) of `stdout` reports: depth, value, nodes,
    search_s and nps, those it has (none without the line)."""
    lines = [l for l in stdout.splitlines() if l.startswith('-->')]
    if not lines:
        return {}
    last, report = lines[-1], {}
    g = re.match(r'-->\s+(\*?\s*\d+)\s+(\S+)\s+(\d+)\s', last)
    if g:
        report.update(depth=g.group(1).replace(' ', ''), value=g.group(2), nodes=int(g.group(3)))
    t = re.search(r'([\d.]+) s\s+(\d+) nps', last)
    if t:
        report.update(search_s=float(t.group(1)), nps=int(t.group(2)))
    return report


def zebra_move(options, moves, timeout):
    """Runs Zebra (no randomness, no book, -evalone) with `options` on the game so far
    (`moves`, replayed with -seq); returns (the square it chose, the process, wall
    seconds)."""
    seq = ''.join(O.name(m) for m in moves)
    cmd = ['./zebra', '-quiet', '-r', '0', '-b', '0'] + options + ['-evalone'] + \
          (['-seq', seq] if seq else [])
    pr, dt = run(cmd, timeout, cwd=ZEBRA_DIR)
    m = re.search(r'^bestmove ([a-h][1-8])', pr.stdout, re.M)
    if not m:
        raise EngineError('no bestmove: %r %r' % (pr.stdout[-300:], pr.stderr[-300:]))
    return O.parse(m.group(1)), pr, dt


# A fixed-depth move has no time limit; a process still running after this long is
# taken for a hung engine.
FIXED_DEPTH_TIMEOUT = 600.0


class OursFixedDepth:
    """`reversi engine search --depth D --full-width POSITION` (no ProbCut; with
    `selective`, ProbCut as in play) while more than EXACT cells are empty, then
    `reversi engine solve`; --weights FILE when given."""
    name = 'ours'

    def __init__(self, depth, exact, weights=None, selective=False):
        self.depth, self.exact, self.weights = depth, exact, weights
        self.selective = selective

    def move(self, b, p, moves):
        position = O.umea(b, p)
        if b.count('.') <= self.exact:
            cmd = [REVERSI, 'engine', 'solve', position]
        else:
            cmd = [REVERSI, 'engine', 'search', '--depth', str(self.depth)] + \
                  ([] if self.selective else ['--full-width']) + \
                  (['--weights', self.weights] if self.weights else []) + [position]
        pr, dt = run(cmd, FIXED_DEPTH_TIMEOUT)
        if pr.returncode != 0:
            raise EngineError('exit %d: %s' % (pr.returncode, pr.stderr[-300:]))
        m = re.fullmatch(r'value (\S+) best \((\d),(\d)\) nodes (\d+) in ([\d.]+) s', pr.stdout.strip())
        if not m:
            raise EngineError('unreadable answer %r' % pr.stdout[-300:])
        sq = (int(m.group(2)) - 1) * 8 + int(m.group(3)) - 1
        return sq, {'t': dt, 'cpu': LAST_CPU[0], 'value': m.group(1), 'nodes': int(m.group(4))}


class ZebraFixedDepth:
    """Zebra searching D plies in the midgame (`-l D E E`: below 9 plies without
    selectivity, from 9 with its Multi-ProbCut) and exactly from EXACT empty cells."""
    name = 'zebra'

    def __init__(self, depth, exact):
        self.depth, self.exact = depth, exact

    def move(self, b, p, moves):
        d, e = str(self.depth), str(self.exact)
        square, _, dt = zebra_move(['-h', '18', '-l', d, e, e, d, e, e], moves,
                                   FIXED_DEPTH_TIMEOUT)
        return square, {'t': dt, 'cpu': LAST_CPU[0]}
