"""A line-protocol agent of our own for tests/arena.rs (Caltech CS 2's referee):
`line.py MODE Black|White`. Prints a ready line, then for each `x y msLeft` (the
opponent's move, `-1 -1` for none) answers `x y` (column, row, 0-based) or `-1 -1`.
`first` plays the first legal move (row-major); `pass` always passes; `quits` exits
after its second answer; `sleeps` sleeps and `spins` computes forever at its third answer."""
import sys
import time

DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def flips(board, x, y, me):
    you = "W" if me == "B" else "B"
    found = []
    for dx, dy in DIRS:
        xx, yy, line = x + dx, y + dy, []
        while 0 <= xx < 8 and 0 <= yy < 8 and board[yy][xx] == you:
            line.append((xx, yy))
            xx, yy = xx + dx, yy + dy
        if line and 0 <= xx < 8 and 0 <= yy < 8 and board[yy][xx] == me:
            found += line
    return found


def play(board, x, y, me):
    for xx, yy in flips(board, x, y, me):
        board[yy][xx] = me
    board[y][x] = me


def main():
    mode, colour = sys.argv[1:3]
    me = "B" if colour == "Black" else "W"
    you = "W" if me == "B" else "B"
    board = [["-"] * 8 for _ in range(8)]
    board[3][3] = board[4][4] = "W"
    board[3][4] = board[4][3] = "B"
    print("Init done", flush=True)
    answers = 0
    for line in sys.stdin:
        x, y, _left = (int(v) for v in line.split())
        if (x, y) != (-1, -1):
            play(board, x, y, you)
        answers += 1
        if mode == "quits" and answers > 2:
            return
        if mode == "sleeps" and answers == 3:
            time.sleep(1000)
        if mode == "spins" and answers == 3:
            while True:
                pass
        move = None
        if mode != "pass":
            for yy in range(8):
                for xx in range(8):
                    if move is None and board[yy][xx] == "-" and flips(board, xx, yy, me):
                        move = (xx, yy)
        if move is None:
            print("-1 -1", flush=True)
        else:
            play(board, move[0], move[1], me)
            print("%d %d" % move, flush=True)


main()
