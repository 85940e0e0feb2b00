"""A Tri-state agent of our own for tests/arena.rs: `tristate.py MODE board.txt`.

Reads the board file (`B|W width height`, then rows of B, W, -, E; E is never
playable and breaks a line) and answers `(x,y)`, column then row, 0-based: `first`
the first legal move (row-major) or `skip`; `skip` always `skip`; `illegal` the
first empty cell that is not a legal move (else the first blocked cell, else
`(0,0)`); `spin` computes forever; `keeps-state` plays as `first` but fails
unless the file of its earlier moves of the game, and nothing of another game, is in
its folder (for games from boards of 4 discs)."""
import os
import sys

DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def main():
    mode, path = sys.argv[1:3]
    lines = [l.strip() for l in open(path) if l.strip()]
    me, width, height = lines[0].split()
    width, height = int(width), int(height)
    you = "W" if me == "B" else "B"
    rows = lines[1:]
    if mode == "keeps-state":
        # A game's first answer sees 4 or 5 discs (the start's 4, and the opponent's
        # first move); each later one more than its last.
        discs = sum(row.count("B") + row.count("W") for row in rows)
        if os.path.exists("last.txt"):
            assert discs > int(open("last.txt").read()), "a file of another game"
        else:
            assert discs <= 5, "its last move's file lost"
        open("last.txt", "w").write(str(discs))
        mode = "first"
    if mode == "skip":
        print("skip")
        return
    if mode == "spin":
        while True:
            pass

    def legal(x, y):
        if rows[y][x] != "-":
            return False
        for dx, dy in DIRS:
            xx, yy, seen = x + dx, y + dy, 0
            while 0 <= xx < width and 0 <= yy < height and rows[yy][xx] == you:
                xx, yy, seen = xx + dx, yy + dy, seen + 1
            if seen and 0 <= xx < width and 0 <= yy < height and rows[yy][xx] == me:
                return True
        return False

    cells = [(x, y) for y in range(height) for x in range(width)]
    if mode == "illegal":
        wrong = [c for c in cells if rows[c[1]][c[0]] == "-" and not legal(*c)]
        wrong += [c for c in cells if rows[c[1]][c[0]] == "E"]
        print("(%d,%d)" % (wrong[0] if wrong else (0, 0)))
        return
    for x, y in cells:
        if legal(x, y):
            print("(%d,%d)" % (x, y))
            return
    print("skip")


main()
