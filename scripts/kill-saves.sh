#!/bin/sh
# Save atomicity under SIGKILL, at length: runs SQLiteCrashTests' kill test
# with OCD_KILLS=N (default 1000), which starts Tests/StoreCrashWriter, kills
# it at a random moment N times and after each kill checks that the store is
# intact and holds whole saves only (SQLiteCrashTests.problems). Prints
# "N passed, M failed" and exits non-zero when a kill left a partial save.
#
# Usage: scripts/kill-saves.sh [N] [seed]    (from anywhere; builds first)
set -eu
runs=${1:-1000}
seed=${2:-134100}
cd "$(dirname "$0")/.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT
start=$(date +%s)
OCD_KILLS=$runs OCD_KILL_SEED=$seed swift test --filter 'SQLiteCrashTests/killedSavesAreAllOrNothing' \
    >"$log" 2>&1 || true
elapsed=$(( $(date +%s) - start ))
grep -E 'SQLiteCrashTests: .*kills|Expectation failed|error:' "$log" | head -n 20 || true
result=$(grep -Eo '[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1 || true)
if [ -z "$result" ]; then
    echo "the kill test did not finish; last lines of its output:" >&2
    tail -n 20 "$log" >&2
    exit 2
fi
echo "$result ($runs kills, seed $seed, ${elapsed}s)"
case $result in *" 0 failed") exit 0 ;; *) exit 1 ;; esac
