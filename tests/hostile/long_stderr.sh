#!/bin/sh
# Writes 50 MB of lines to standard error, then the line that tells what went wrong.
yes 'a line from the middle of the log' | head -c 50000000 >&2
echo 'THE LAST LINE: IndexError' >&2
exit 3
