"""An Umea agent of our own for tests/arena.rs: `agent.py MODE POSITION SECONDS FLAG`.

MODE says how it behaves: `first` plays the first legal move (row-major), `last` the
last; the others misbehave as their names say (see MODES below). Every mode but
`build-fails` passes the compile step (FLAG 1)."""
import os
import sys

DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def moves(position):
    me = "O" if position[0] == "W" else "X"
    you = "X" if me == "O" else "O"
    cells = position[1:]
    found = []
    for r in range(8):
        for c in range(8):
            if cells[r * 8 + c] != "E":
                continue
            for dr, dc in DIRS:
                rr, cc, seen = r + dr, c + dc, 0
                while 0 <= rr < 8 and 0 <= cc < 8 and cells[rr * 8 + cc] == you:
                    rr, cc, seen = rr + dr, cc + dc, seen + 1
                if seen and 0 <= rr < 8 and 0 <= cc < 8 and cells[rr * 8 + cc] == me:
                    found.append((r + 1, c + 1))
                    break
    return found


def attack():
    """Tries what a hostile agent would, with the paths of `target.txt` (the class
    folder, the referee's home and JSON report): on any success it answers `pwned`
    (an unreadable answer), else plays on."""
    class_dir, home, report = open("target.txt").read().split()
    tries = []
    for path in [class_dir + "/victim/secret.txt", home + "/token", report]:
        try:
            tries.append(open(path).read()[:20])
        except OSError:
            pass
    for path in [class_dir + "/victim/othello.sh", class_dir + "/pwned", report, home + "/pwned"]:
        try:
            with open(path, "a") as f:
                f.write("pwned")
            tries.append(path)
        except OSError:
            pass
    try:
        tries += os.listdir(class_dir)
    except OSError:
        pass
    # Leave a child running.
    if os.fork() == 0:
        os.setsid()
        import time
        time.sleep(4242)
        os._exit(0)
    return "pwned" if tries else "first"


def main():
    mode, position, _seconds, flag = sys.argv[1:5]
    if flag == "1":
        if mode == "build-fails":
            print("error: cannot compile", file=sys.stderr)
            sys.exit(1)
        if mode == "keeps-state":
            open("built.txt", "w").write("built")
        if mode == "build-token":
            open("token.txt", "w").write(os.urandom(8).hex())
        return
    legal = moves(position)
    if mode == "keeps-state":
        # Fails unless its build and its earlier moves of this game, and nothing of
        # another game, are in its folder (`start.txt`: the opening's empty cells).
        assert open("built.txt").read() == "built"
        empties = position.count("E")
        if os.path.exists("last.txt"):
            assert empties < int(open("last.txt").read()), "a file of another game"
        else:
            assert empties >= int(open("start.txt").read()) - 1, "its last move's file lost"
        open("last.txt", "w").write(str(empties))
        mode = "first"
    if mode == "hostile":
        mode = attack()
    if mode == "killer":
        # Kills whatever it can (the opponent, the referee), then plays.
        try:
            os.kill(-1, 9)
        except OSError:
            pass
        mode = "first"
    if mode == "illegal":
        taken = [(r, c) for r in range(1, 9) for c in range(1, 9) if position[1 + (r - 1) * 8 + c - 1] != "E"]
        print("(%d,%d)" % taken[0])
    elif mode == "pwned":
        print("pwned")
    elif mode == "build-token":
        # (unreadable: the answer shows which build it came from)
        print("token-" + open("token.txt").read())
    elif mode == "pass":
        print("pass")
    elif mode == "garbage":
        print("e3 \x1b[2J")
    elif mode == "silent":
        pass
    elif mode == "crash":
        raise SystemExit("crashed\x1b[31m")
    elif mode == "spin":
        while True:
            pass
    elif mode == "sleep":
        import time
        time.sleep(1000)
    elif mode == "two-lines":
        print("thinking...")
        print("(%d,%d)" % legal[0] if legal else "pass")
    elif mode == "megabytes":
        sys.stdout.write("debug line\n" * 300000)
        print("(%d,%d)" % legal[0] if legal else "pass")
    elif mode in ("first", "build-fails"):
        print("(%d,%d)" % legal[0] if legal else "pass")
    elif mode == "last":
        print("(%d,%d)" % legal[-1] if legal else "pass")
    else:
        sys.exit("unknown mode " + mode)


main()
