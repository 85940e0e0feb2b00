#!/bin/sh
# Spins on the CPU forever.
while :; do :; done
