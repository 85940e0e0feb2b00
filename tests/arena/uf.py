"""An agent of our own for tests/arena_uf.rs: `uf.py MODE REVERSI [ARGS]`, REVERSI
our binary. With the Umea protocol's arguments (POSITION SECONDS FLAG) it answers one
move; with none it speaks NBoard (`ping`/`pong`, `set game`, `set depth`, `go`).
MODE `example` plays the UF example AI (`reversi uf move`) with the look-ahead NBoard's
`set depth N` gives less one (Umea: no level passed, so Advanced's 3); `first` plays
the first legal move in row-major order."""
import re
import subprocess
import sys

DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]
mode, reversi = sys.argv[1], sys.argv[2]


def flips(cells, me, r, c):
    """The cells `me` flips by playing (r, c) on `cells` (64 of `B`, `W`, `.`)."""
    you = "W" if me == "B" else "B"
    if cells[r * 8 + c] != ".":
        return []
    found = []
    for dr, dc in DIRS:
        rr, cc, line = r + dr, c + dc, []
        while 0 <= rr < 8 and 0 <= cc < 8 and cells[rr * 8 + cc] == you:
            line.append(rr * 8 + cc)
            rr, cc = rr + dr, cc + dc
        if line and 0 <= rr < 8 and 0 <= cc < 8 and cells[rr * 8 + cc] == me:
            found += line
    return found


def moves(cells, me):
    return [(r, c) for r in range(8) for c in range(8) if flips(cells, me, r, c)]


def choose(cells, me, depth):
    """(row, col) or None."""
    legal = moves(cells, me)
    if not legal:
        return None
    if mode == "first":
        return legal[0]
    board = "\n".join("".join(cells[r * 8:r * 8 + 8]) for r in range(8)) + "\n"
    color = "black" if me == "B" else "white"
    out = subprocess.run([reversi, "uf", "move", "--color", color, "--depth", str(depth), "-"],
                         input=board, capture_output=True, text=True, check=True).stdout
    row, col = out.split()[:2]
    return int(row), int(col)


def umea(position):
    me = "W" if position[0] == "W" else "B"
    cells = [{"E": ".", "O": "W", "X": "B"}[x] for x in position[1:65]]
    move = choose(cells, me, 3)
    print("pass" if move is None else "(%d,%d)" % (move[0] + 1, move[1] + 1))


def game(ggf):
    """The cells and the side to move after `ggf`'s moves."""
    board = re.search(r"BO\[([^\]]*)\]", ggf).group(1).split()
    text = "".join(board[1:])
    cells = [{"-": ".", "O": "W", "*": "B"}[x] for x in text[:64]]
    me = "B" if text[64] == "*" else "W"
    for _, name in re.findall(r"(?<![A-Z])([BW])\[([^\]/]*)", ggf[ggf.index("BO["):]):
        if name.upper() not in ("PA", "PASS"):
            r, c = int(name[1]) - 1, ord(name[0].upper()) - ord("A")
            for i in flips(cells, me, r, c):
                cells[i] = me
            cells[r * 8 + c] = me
        me = "W" if me == "B" else "B"
    return cells, me


def nboard():
    depth, cells, me = 1, None, None
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "ping":
            print("pong " + " ".join(words[1:]), flush=True)
        elif words[:2] == ["set", "depth"]:
            depth = int(words[2])
        elif words[:2] == ["set", "game"]:
            cells, me = game(line)
        elif words[0] == "go":
            move = choose(cells, me, depth - 1)
            name = "PA" if move is None else "%s%d" % (chr(ord("A") + move[1]), move[0] + 1)
            print("=== " + name, flush=True)


if len(sys.argv) > 3:
    if sys.argv[5:6] != ["1"]:
        umea(sys.argv[3])
else:
    nboard()
