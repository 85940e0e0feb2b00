"""A Tri-state agent of our own for tests/arena.rs: `tristate.py MODE board.txt`.

Reads the board file (`B|W 8 8`, then rows of B, W, -) and answers `(x,y)`, column
then row, 0-based: `first` the first legal move (row-major) or `skip`; `skip` always
`skip`."""
import sys

DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def main():
    mode, path = sys.argv[1:3]
    lines = [l.strip() for l in open(path) if l.strip()]
    me, width, height = lines[0].split()
    width, height = int(width), int(height)
    you = "W" if me == "B" else "B"
    rows = lines[1:]
    if mode == "skip":
        print("skip")
        return
    for y in range(height):
        for x in range(width):
            if rows[y][x] != "-":
                continue
            for dx, dy in DIRS:
                xx, yy, seen = x + dx, y + dy, 0
                while 0 <= xx < width and 0 <= yy < height and rows[yy][xx] == you:
                    xx, yy, seen = xx + dx, yy + dy, seen + 1
                if seen and 0 <= xx < width and 0 <= yy < height and rows[yy][xx] == me:
                    print("(%d,%d)" % (x, y))
                    return
    print("skip")


main()
