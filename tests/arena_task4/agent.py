"""A CS561 task-4 agent of our own for tests/arena_task4.rs, run by its Makefile as
`python3 agent.py MODE TARGET` (TARGET `run` or `newgame`).

`run` reads input.txt (task 4, the mover's letter, its CPU seconds left, the board)
and writes the move (`c4`) to output.txt. MODE says how it behaves: `first` plays the
first legal move (positional order); the others misbehave as their names say (MODES
below). Every mode keeps `games.txt` (one line per `make newgame`, across games) and
`moves.txt` (made by `make newgame`; the empty cells at each of its moves in this
game) in its folder; `keeps-state` checks them, answering `zz` (unreadable) when its
files were not kept."""
import os
import sys
import time

DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def read_input():
    lines = open("input.txt", newline="").read().split("\r\n")
    assert lines[0] == "4" and lines[1] in ("X", "O") and len(lines) == 11, lines
    left = float(lines[2])
    return lines[1], left, lines[3:]


def moves(me, board):
    you = "O" if me == "X" else "X"
    found = []
    for r in range(8):
        for c in range(8):
            if board[r][c] != "*":
                continue
            for dr, dc in DIRS:
                rr, cc, seen = r + dr, c + dc, 0
                while 0 <= rr < 8 and 0 <= cc < 8 and board[rr][cc] == you:
                    rr, cc, seen = rr + dr, cc + dc, seen + 1
                if seen and 0 <= rr < 8 and 0 <= cc < 8 and board[rr][cc] == me:
                    found.append("abcdefgh"[c] + str(r + 1))
                    break
    return found


def lines_of(name):
    try:
        return open(name).read().split()
    except OSError:
        return []


def spy():
    """Looks for the other agent's files where the referee keeps folders (TMPDIR,
    /tmp) and in the class folder (`target.txt`); tries to change them. True when
    anything was read or written."""
    found = False
    roots = ["/tmp", os.environ.get("TMPDIR", "/tmp")] + lines_of("target.txt")
    for root in roots:
        for top, _dirs, files in os.walk(root):
            for name in files:
                path = os.path.join(top, name)
                if name == "secret.txt":
                    try:
                        open(path).read()
                        found = True
                    except OSError:
                        pass
                    try:
                        with open(path, "a") as f:
                            f.write("pwned")
                        found = True
                    except OSError:
                        pass
    return found


def main():
    mode, target = sys.argv[1], sys.argv[2]
    if target == "newgame":
        with open("games.txt", "a") as f:
            f.write("game\n")
        open("moves.txt", "w").close()
        return
    me, left, board = read_input()
    legal = moves(me, board)
    played = lines_of("moves.txt")
    games = len(lines_of("games.txt"))
    answer = legal[0] if legal else "pass"
    empties = sum(row.count("*") for row in board)
    if mode == "keeps-state":
        # What `make calibrate`, `make newgame` and its last move left is there.
        kept = os.path.exists("calibrated.txt") and os.path.exists("moves.txt") and games
        if not kept or (played and int(played[-1]) <= empties):
            answer = "zz"
    if mode == "spy" and spy():
        answer = "zz"
    if mode == "victim" and open("secret.txt").read() != "victim's secret":
        answer = "zz"
    if mode == "illegal":
        answer = next(
            "abcdefgh"[c] + str(r + 1)
            for r in range(8)
            for c in range(8)
            if board[r][c] != "*"
        )
    if mode == "burn":
        end = time.process_time() + 0.3
        while time.process_time() < end:
            pass
    if mode == "sleep" and games == 1:
        time.sleep(60)
    if mode == "tie-burn":
        end = time.process_time() + 0.05
        while time.process_time() < end:
            pass
    with open("moves.txt", "a") as f:
        f.write("%d\n" % empties)
    with open("output.txt", "w") as f:
        f.write(answer)


main()
