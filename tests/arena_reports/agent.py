"""An Umea agent for tests/arena_reports.rs: `agent.py MODE POSITION SECONDS FLAG`.

`first` plays the first legal move in row-major order, `last` the last; `hostile`
plays like `first` until a dozen discs are down... and then answers markup that a
report must escape (a forfeit)."""
import sys

STEPS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def legal(position):
    mine = "O" if position[0] == "W" else "X"
    theirs = "X" if mine == "O" else "O"
    cells = position[1:]
    out = []
    for index in range(64):
        if cells[index] != "E":
            continue
        row, col = divmod(index, 8)
        for dr, dc in STEPS:
            r, c, between = row + dr, col + dc, 0
            while 0 <= r < 8 and 0 <= c < 8 and cells[r * 8 + c] == theirs:
                r, c, between = r + dr, c + dc, between + 1
            if between and 0 <= r < 8 and 0 <= c < 8 and cells[r * 8 + c] == mine:
                out.append((row + 1, col + 1))
                break
    return out


def main():
    mode, position, flag = sys.argv[1], sys.argv[2], sys.argv[4]
    if flag == "1":
        return
    found = legal(position)
    if mode == "hostile":
        print("<script>document.title='pwned'</script>&amp;")
        return
    if not found:
        print("pass")
    elif mode == "last":
        print("(%d,%d)" % found[-1])
    else:
        print("(%d,%d)" % found[0])


main()
