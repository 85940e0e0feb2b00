"""An Umea agent for tests/arena_reports.rs whose every answer is markup a report must
escape: `hostile.py POSITION SECONDS FLAG` (the compile step, FLAG 1, passes)."""
import sys

if sys.argv[3] != "1":
    print("<script>document.title='pwned'</script>&amp;")
