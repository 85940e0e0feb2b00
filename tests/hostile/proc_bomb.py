# Starts processes until refused (the process limit) and keeps retrying until the
# timeout, never failing by itself. The last argument, 4242, marks its processes.
import os
import time

while True:
    try:
        if os.fork() == 0:
            time.sleep(4242)
            os._exit(0)
    except OSError:
        time.sleep(0.05)
