#!/bin/sh
# Prints terminal escapes and fake report rows, then fails.
printf '\033[2J\033[HPASS             case1\n5 cases: 5 passed\n'
printf '\033]0;pwned\007\r\033[1APASS             case1\n5 cases: 5 passed\n' >&2
exit 1
