#!/bin/sh
# The Umea course's player script: `othello.sh POSITION SECONDS DO_COMPILE`, as the
# course's othellostart calls it. DO_COMPILE=1 builds the program and prints nothing;
# otherwise it prints one move, `(row,col)` or `pass`, within SECONDS.
here=$(cd "$(dirname "$0")/.." && pwd)
if [ "$3" = "1" ]; then
    cargo build --release --locked --quiet --manifest-path "$here/Cargo.toml" >&2
    exit $?
fi
exec "$here/target/release/reversi" umea "$1" "$2" 0
