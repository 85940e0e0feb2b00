# Uses what the kernel offers an unprivileged process beyond files: ptrace of its own
# child, of a sibling and of its parent (python3 ctypes), keyctl/add_key, new
# namespaces (unshare(2), `unshare -U`, `unshare -r`). Writes what worked
# ("got: ...") into output.txt.
import ctypes
import os
import platform
import signal
import subprocess
import time

PTRACE_TRACEME, PTRACE_ATTACH, PTRACE_DETACH = 0, 16, 17
WALL = 0x40000000
CLONE_NEWUSER, CLONE_NEWNS, CLONE_NEWNET = 0x10000000, 0x00020000, 0x40000000
ADD_KEY, KEYCTL = {"x86_64": (248, 250), "aarch64": (217, 219)}[platform.machine()]
libc = ctypes.CDLL(None, use_errno=True)
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
found = []


def call(what, result):
    if result >= 0:
        found.append("got: %s" % what)
    else:
        found.append("no %s (%s)" % (what, os.strerror(ctypes.get_errno())))
    return result >= 0


def sleeper():
    pid = os.fork()
    if pid == 0:
        time.sleep(3)
        os._exit(0)
    return pid


child, sibling = sleeper(), sleeper()


def release(pid):
    """Waits for the attached `pid` to stop, detaches and lets it go on."""
    try:
        os.waitpid(pid, WALL)
    except OSError:
        pass
    libc.ptrace(PTRACE_DETACH, pid, None, None)
    os.kill(pid, signal.SIGCONT)


if call("ptrace attach to its child", libc.ptrace(PTRACE_ATTACH, child, None, None)):
    release(child)
# A child that attaches to its sibling (the other child).
tracer = os.fork()
if tracer == 0:
    ok = libc.ptrace(PTRACE_ATTACH, sibling, None, None) >= 0
    if ok:
        release(sibling)
    os._exit(0 if ok else 1)
if os.waitpid(tracer, 0)[1] == 0:
    found.append("got: ptrace attach to a sibling")
else:
    found.append("no ptrace attach to a sibling")
if call("ptrace attach to its parent", libc.ptrace(PTRACE_ATTACH, os.getppid(), None, None)):
    release(os.getppid())
traced = os.fork()
if traced == 0:
    os._exit(0 if libc.ptrace(PTRACE_TRACEME, 0, None, None) >= 0 else 1)
if os.waitpid(traced, 0)[1] == 0:
    found.append("got: PTRACE_TRACEME")
else:
    found.append("no PTRACE_TRACEME")
for pid in (child, sibling):
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)

call("add_key", libc.syscall(ADD_KEY, b"user", b"hostile", b"HOSTILE", 7, -2))
call("keyctl join a session keyring", libc.syscall(KEYCTL, 1, b"hostile"))

for name, flag in [("user", CLONE_NEWUSER), ("mount", CLONE_NEWNS), ("network", CLONE_NEWNET)]:
    probe = os.fork()
    if probe == 0:
        os._exit(0 if libc.unshare(flag) == 0 else 1)
    if os.waitpid(probe, 0)[1] == 0:
        found.append("got: unshare of a %s namespace" % name)
    else:
        found.append("no unshare of a %s namespace" % name)
for command in (["unshare", "-U", "true"], ["unshare", "-r", "id"], ["unshare", "-rn", "true"]):
    try:
        done = subprocess.run(command, capture_output=True, timeout=2)
        if done.returncode == 0:
            found.append("got: %s" % " ".join(command))
        else:
            found.append("no %s (%r)" % (" ".join(command), done.stderr[-80:]))
    except (OSError, subprocess.TimeoutExpired) as error:
        found.append("no %s (%s)" % (" ".join(command), error))
with open("output.txt", "w") as out:
    out.write("\n".join(found) + "\n")
