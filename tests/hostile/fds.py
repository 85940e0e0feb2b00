# Reads and writes every descriptor it was given beyond 0-2 (3..20 and those listed in
# /proc/self/fd): a file the TA's shell or wrapper left open (`time -o`, a log)
# reaches the program unless the grader closes it; writes what it got (the bytes
# read, "got: ...") into output.txt.
import fcntl
import os

found = []
listed = set()
try:
    listed = {int(name) for name in os.listdir("/proc/self/fd")}
except OSError as error:
    found.append("no /proc/self/fd (%s)" % error)
for fd in sorted(listed | set(range(3, 21))):
    if fd < 3:
        continue
    try:
        os.fstat(fd)
    except OSError:
        continue
    target = "?"
    try:
        target = os.readlink("/proc/self/fd/%d" % fd)
    except OSError:
        pass
    found.append("got: fd %d open (%s)" % (fd, target))
    try:
        os.lseek(fd, 0, os.SEEK_SET)
    except OSError:
        pass
    try:
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_NONBLOCK)
    except OSError:
        pass
    try:
        found.append("got: fd %d read %r" % (fd, os.read(fd, 200)))
    except OSError as error:
        found.append("no read on fd %d (%s)" % (fd, error))
    try:
        os.write(fd, b"HOSTILE was here\n")
        found.append("got: fd %d written" % fd)
    except OSError as error:
        found.append("no write on fd %d (%s)" % (fd, error))
    try:
        again = os.open("/proc/self/fd/%d" % fd, os.O_RDONLY | os.O_NONBLOCK)
        try:
            found.append("got: fd %d reopened, read %r" % (fd, os.read(again, 200)))
        finally:
            os.close(again)
    except OSError as error:
        found.append("no reopen of fd %d (%s)" % (fd, error))
with open("output.txt", "w") as out:
    out.write("\n".join(found) + "\n")
