# Talks over every kind of socket: TCP and UDP to the grader's listeners on 127.0.0.1
# and ::1 (ports in argv[3:7]), a unix socket at a path the grader listens on
# (argv[7]), the grader's abstract unix socket (argv[8]), another run at once through
# an abstract socket both know, and netlink (the host's interfaces). Writes what
# worked ("got: ...") into output.txt.
import os
import socket
import sys
import time

tcp4, tcp6, udp4, udp6 = (int(port) for port in sys.argv[3:7])
unix_path, abstract = sys.argv[7], "\0" + sys.argv[8]
found = []


def attempt(what, action):
    try:
        result = action()
        found.append("got: %s%s" % (what, "" if result is None else ": %r" % result))
    except OSError as error:
        found.append("no %s (%s)" % (what, error))


def rendezvous():
    """Listens on an abstract name; when another run has it, connects to it."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.bind("\0hostile-rendezvous")
    except OSError:
        s.connect("\0hostile-rendezvous")
        s.sendall(b"HOSTILE hello from run %d" % os.getpid())
        return "connected to another run's listener"
    s.listen(1)
    s.settimeout(2.5)
    try:
        peer, _ = s.accept()
        return "another run connected: %r" % peer.recv(100)
    except socket.timeout:
        raise OSError("nobody came in 2.5 s")


def connect(family, address):
    s = socket.socket(family, socket.SOCK_STREAM)
    s.settimeout(1)
    s.connect(address)
    s.sendall(b"HOSTILE")
    s.close()


def send(family, address):
    s = socket.socket(family, socket.SOCK_DGRAM)
    s.sendto(b"HOSTILE", address)
    s.close()
    return "sent (the grader checks whether it arrived)"


def netlink():
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)
    s.bind((0, 0))
    # RTM_GETLINK dump: the host's interfaces.
    s.send(bytes.fromhex("20000000120001030000000000000000" "00000000000000000000000000000000"))
    s.settimeout(1)
    return len(s.recv(65536))


attempt("an abstract socket between runs", rendezvous)
attempt("TCP to 127.0.0.1", lambda: connect(socket.AF_INET, ("127.0.0.1", tcp4)))
attempt("TCP to ::1", lambda: connect(socket.AF_INET6, ("::1", tcp6)))
attempt("UDP to 127.0.0.1", lambda: send(socket.AF_INET, ("127.0.0.1", udp4)))
attempt("UDP to ::1", lambda: send(socket.AF_INET6, ("::1", udp6)))
attempt("the unix socket " + unix_path, lambda: connect(socket.AF_UNIX, unix_path))
attempt("the grader's abstract socket", lambda: connect(socket.AF_UNIX, abstract))
attempt("a netlink socket", netlink)
with open("output.txt", "w") as out:
    out.write("\n".join(found).replace("got: UDP", "UDP") + "\n")
