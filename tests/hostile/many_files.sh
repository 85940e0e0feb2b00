#!/bin/sh
# Eight files of the size limit (argv 3, in bytes) in the work folder and eight in
# TMPDIR (or /tmp), a fifth of a second apart: each within --file-size, all together
# far past it.
size=$3
for i in 1 2 3 4 5 6 7 8; do
  head -c "$size" /dev/zero > "f$i"
  head -c "$size" /dev/zero > "${TMPDIR:-/tmp}/t$i"
  sleep 0.2
done
exit 0
