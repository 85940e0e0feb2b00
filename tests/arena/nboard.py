"""A broken NBoard engine of our own for tests/arena_nboard.rs: `nboard.py MODE`.
Answers `ping N` with `pong N` and ignores the other commands; at `go` it answers
by its mode: `garbage` a line with a terminal escape, `illegal` `=== A1`, `pass`
`=== PA`, `bad-move` `=== Z9/0.00`, `quits` exits 0, `crashes` exits 3, `silent`
says nothing and waits, `chatty` prints a debug line, then `=== PA`."""
import sys
import time

mode = sys.argv[1]
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "ping":
        print("pong " + " ".join(words[1:]), flush=True)
    elif words[0] == "go":
        print("status thinking", flush=True)
        if mode == "garbage":
            print("hello \x1b[2J there", flush=True)
        elif mode == "illegal":
            print("=== A1", flush=True)
        elif mode == "pass":
            print("=== PA", flush=True)
        elif mode == "bad-move":
            print("=== Z9/0.00", flush=True)
        elif mode == "quits":
            sys.exit(0)
        elif mode == "crashes":
            sys.exit(3)
        elif mode == "chatty":
            print("debug: thinking", flush=True)
            print("=== PA", flush=True)
        elif mode == "silent":
            time.sleep(1000)
