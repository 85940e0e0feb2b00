# Connects to a port on the grader's loopback (argv[3]) and to the internet; writes
# what worked into output.txt.
import socket
import sys

reached = []
for host, port in [("127.0.0.1", int(sys.argv[3])), ("1.1.1.1", 80)]:
    try:
        socket.create_connection((host, port), timeout=2).close()
        reached.append("%s:%d" % (host, port))
    except OSError as error:
        reached.append("no %s:%d (%s)" % (host, port, error))
with open("output.txt", "w") as out:
    out.write("\n".join(reached))
