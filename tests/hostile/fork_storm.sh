#!/bin/sh
# Starts 10,000 processes that outlive it.
i=0
while [ $i -lt 10000 ]; do
  sleep 4242 &
  i=$((i + 1))
done
wait
