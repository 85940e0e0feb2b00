# Takes memory past --memory (argv[3], MiB) and stays until the timeout: three
# children that each hold 40% of the limit (together past the run's memory cgroup:
# one is killed, the others sleep) and a parent that keeps asking for the whole limit
# (refused by the address-space limit) without ever failing. The last argument,
# 4242, marks its processes.
import os
import sys
import time

limit = int(sys.argv[3]) << 20
for _ in range(3):
    if os.fork() == 0:
        try:
            block = bytearray(limit * 4 // 10)
            for i in range(0, len(block), 4096):
                block[i] = 1
        except MemoryError:
            pass
        time.sleep(4242)
        os._exit(0)
while True:
    try:
        block = bytearray(limit)
        del block
    except MemoryError:
        pass
    time.sleep(0.05)
