#!/usr/bin/env bash
# The slowest tests of a ctest run, from its console output (what
# `ctest` prints, saved to LOG): one line each, slowest first, with the
# seconds, the outcome and the name, then the run's total of test seconds.
#   scripts/slowest-tests.sh LOG [COUNT]   (COUNT: 20)
set -euo pipefail
log="${1:?usage: scripts/slowest-tests.sh LOG [COUNT]}"
count="${2:-20}"
if [ ! -r "$log" ]; then
  echo "slowest-tests: cannot read $log" >&2
  exit 2
fi
# "  3/777 Test   #4: Name ......   Passed    0.01 sec"
awk -v count="$count" '
  /^ *[0-9]+\/[0-9]+ Test +#[0-9]+: / {
    if (!match($0, /[0-9.]+ sec$/)) next
    seconds = substr($0, RSTART, RLENGTH - 4) + 0
    name = $0
    sub(/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: /, "", name)
    sub(/ *\.\.\.+.*$/, "", name)
    sub(/ +#.*$/, "", name)
    outcome = "?"
    if (match($0, /(Passed|\*\*\*[A-Za-z]+|Not Run|Skipped) +[0-9.]+ sec$/)) {
      outcome = substr($0, RSTART, RLENGTH)
      sub(/ +[0-9.]+ sec$/, "", outcome)
      sub(/^\*+/, "", outcome)
    }
    n++
    seconds_of[n] = seconds; line_of[n] = sprintf("%8.2f s  %-8s %s", seconds, outcome, name)
    total += seconds
  }
  END {
    if (n == 0) { print "slowest tests: no test result in the log"; exit 0 }
    # selection of the slowest `count` (n is a few thousand at most)
    shown = n < count ? n : count
    printf "slowest %d of %d tests (%.0f s of test time in all):\n", shown, n, total
    for (k = 1; k <= shown; k++) {
      best = 0
      for (i = 1; i <= n; i++) if (!(i in used) && (best == 0 || seconds_of[i] > seconds_of[best])) best = i
      used[best] = 1
      print line_of[best]
    }
  }' "$log"
