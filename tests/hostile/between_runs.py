# Leaves traces for the next run and looks for an earlier run's: 4 MiB files in
# /tmp, /var/tmp and /dev/shm, 5,000 small files in its TMPDIR, SysV shared memory,
# a message queue and a semaphore set under a fixed key (python3 ctypes) and with
# ipcmk; the next run (the second case) reads what it finds. Writes what it got
# ("got: ...") into output.txt.
import ctypes
import glob
import os
import subprocess

KEY = 0x48535431  # "HST1"
IPC_CREAT = 0o1000
found = []
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]

# What an earlier run left.
for pattern in ["/tmp/hostile-*", "/var/tmp/hostile-*", "/dev/shm/hostile-*"]:
    for path in glob.glob(pattern):
        try:
            with open(path, "rb") as f:
                found.append("got: read %s left by an earlier run: %r" % (path, f.read(40)))
        except OSError as error:
            found.append("got: saw %s left by an earlier run (%s)" % (path, error))
shm = libc.shmget(KEY, 0, 0)
if shm >= 0:
    address = libc.shmat(shm, None, 0)
    if address not in (None, ctypes.c_void_p(-1).value):
        found.append("got: read an earlier run's shared memory: %r"
                     % ctypes.string_at(address, 40))
    else:
        found.append("got: found an earlier run's shared memory %d" % shm)
for name, get in [("message queue", libc.msgget), ("semaphore set", libc.semget)]:
    args = (KEY, 0) if name == "message queue" else (KEY, 0, 0)
    ident = get(*args)
    if ident >= 0:
        found.append("got: found an earlier run's %s %d" % (name, ident))

# What this run leaves.
mark = b"HOSTILE left by run %d " % os.getpid()
for folder in ["/tmp", "/var/tmp", "/dev/shm"]:
    path = "%s/hostile-%d" % (folder, os.getpid())
    try:
        with open(path, "wb") as f:
            f.write(mark * (4 * 1024 * 1024 // len(mark)))
        found.append("left %s" % path)
    except OSError as error:
        found.append("no file in %s (%s)" % (folder, error))
tmpdir = os.environ.get("TMPDIR", "/tmp")
made = 0
try:
    for i in range(5000):
        with open("%s/hostile-small-%d" % (tmpdir, i), "w") as f:
            f.write("x")
        made += 1
except OSError as error:
    found.append("no more small files (%s)" % error)
found.append("left %d small files in %s" % (made, tmpdir))
shm = libc.shmget(KEY, 4 * 1024 * 1024, IPC_CREAT | 0o666)
if shm >= 0:
    address = libc.shmat(shm, None, 0)
    if address not in (None, ctypes.c_void_p(-1).value):
        ctypes.memmove(address, mark, len(mark))
    found.append("left shared memory %d" % shm)
else:
    found.append("no shared memory (errno %d)" % ctypes.get_errno())
found.append("message queue %d" % libc.msgget(KEY, IPC_CREAT | 0o666))
found.append("semaphore set %d" % libc.semget(KEY, 1, IPC_CREAT | 0o666))
for flags in (["-M", "1048576"], ["-Q"], ["-S", "1"]):
    try:
        made = subprocess.run(["ipcmk"] + flags + ["-p", "0666"], capture_output=True)
        found.append("ipcmk %s: %r" % (flags[0], made.stdout + made.stderr))
    except OSError as error:
        found.append("no ipcmk (%s)" % error)
with open("output.txt", "w") as out:
    out.write("\n".join(found) + "\n")
