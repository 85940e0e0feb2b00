#!/usr/bin/env python3
"""Runs a command as in a platform's container: still root, but where no user
namespace can be made (user.max_user_namespaces = 0), so bubblewrap cannot work.

It makes a throwaway user namespace that maps every uid and gid to itself (so root
stays root for files, and the separate users stay themselves), sets the limit of user
namespaces to 0 inside it, and runs the command there. The machine's own limit is not
touched. Needs root. Usage: without_userns.py COMMAND [ARG...]
"""
import ctypes
import os
import sys

CLONE_NEWUSER = 0x10000000

libc = ctypes.CDLL(None, use_errno=True)
ready_r, ready_w = os.pipe()
mapped_r, mapped_w = os.pipe()
pid = os.fork()
if pid == 0:
    os.close(ready_r)
    os.close(mapped_w)
    if libc.unshare(CLONE_NEWUSER) != 0:
        os.write(2, b"without_userns: unshare failed\n")
        os._exit(125)
    os.write(ready_w, b"u")
    os.close(ready_w)
    if os.read(mapped_r, 1) != b"m":
        os._exit(125)
    os.close(mapped_r)
    with open("/proc/sys/user/max_user_namespaces", "w") as limit:
        limit.write("0")
    os.execvp(sys.argv[1], sys.argv[1:])
os.close(ready_w)
os.close(mapped_r)
if os.read(ready_r, 1) != b"u":
    sys.exit(125)
for table in ("uid_map", "gid_map"):
    with open("/proc/%d/%s" % (pid, table), "w") as mapping:
        mapping.write("0 0 4294967295")
os.write(mapped_w, b"m")
os.close(mapped_w)
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status) if hasattr(os, "waitstatus_to_exitcode") else status >> 8)
