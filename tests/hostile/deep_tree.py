# Makes 2,000-deep folder trees, some levels chmod 000, in its work folder, its
# TMPDIR, /tmp, /var/tmp and /dev/shm: a grader that removes a tree with one open
# file per level fails under an ordinary open-files limit (1024) and leaves it for
# good. Writes no output.
import os
import sys

DEPTH = 2000
work = os.getcwd()
places = [work, os.environ.get("TMPDIR", "/tmp"), "/tmp", "/var/tmp", "/dev/shm"]
for n, place in enumerate(places):
    top = os.path.join(place, "hostile-tree-%d-%d" % (os.getpid(), n))
    try:
        os.mkdir(top)
        os.chdir(top)
        for _ in range(DEPTH):
            os.mkdir("d")
            os.chdir("d")
        with open("bottom", "w") as f:
            f.write("HOSTILE at the bottom")
        for level in range(DEPTH):
            os.chdir("..")
            if level % 100 == 99:
                os.chmod("d", 0)
        os.chdir(work)
        os.chmod(top, 0)
    except OSError as error:
        print("no tree in %s (%s)" % (place, error), file=sys.stderr)
        os.chdir(work)
