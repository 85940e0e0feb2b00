#!/bin/sh
# Writes 10 GB to output.txt.
head -c 10000000000 /dev/zero > output.txt
