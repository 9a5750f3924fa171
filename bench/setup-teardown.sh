#!/usr/bin/env bash
# What making and ending the workers costs, against threads and depth
# (issue 45): each cell is a 1 s run on the null engine (no device, so the
# time outside the second is the program's own: engines, rings, buffers,
# threads), flashmark and fio (ioengine=null, numjobs=N, thread) on the
# same cell one after the other, alternating which goes first, REPEAT
# times. Prints the median (and min..max) of wall-clock seconds beyond the
# 1 s of IO, and the ratio of each pair (flashmark/fio, same repeat):
# median (min..max).
#   bench/setup-teardown.sh [build/flashmark] [REPEAT=3]
set -euo pipefail
FLASHMARK=${1:-build/flashmark}
REPEAT=${2:-3}
THREADS=${THREADS:-"1 16 64 256 1024"}
DEPTHS=${DEPTHS:-"1 32 256"}
have_fio=1
command -v fio >/dev/null || have_fio=0

# Seconds the command took beyond its 1 s of IO.
overhead() {
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; echo nan; return; }
  end=$(date +%s.%N)
  echo "$end - $start - 1" | bc -l
}
# "median (min..max)" of the numbers given.
spread() {
  printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {
    m = NR % 2 ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2;
    printf "%.2f (%.2f..%.2f)", m, v[1], v[NR] }'
}

printf "%-8s %-6s  %-22s %-22s %s\n" threads depth "flashmark s" "fio s" \
  "flashmark/fio (pairs)"
for threads in $THREADS; do
  for depth in $DEPTHS; do
    fm=() fi=()
    for ((i = 0; i < REPEAT; i++)); do
      run_fm() {
        fm+=("$(overhead "$FLASHMARK" run --engine null --size 1G --bs 4k \
          --time 1s --threads "$threads" --iodepth "$depth" --no-db -q)")
      }
      run_fio() {
        [ "$have_fio" = 1 ] || return 0
        fi+=("$(overhead fio --name=null --ioengine=null --size=1G --bs=4k \
          --rw=randread --time_based --runtime=1 --numjobs="$threads" \
          --iodepth="$depth" --thread --group_reporting)")
      }
      if ((i % 2 == 0)); then run_fm; run_fio; else run_fio; run_fm; fi
    done
    fio_text="-" ratio="-"
    if [ "$have_fio" = 1 ]; then
      fio_text=$(spread "${fi[@]}")
      ratios=()
      for ((i = 0; i < REPEAT; i++)); do
        ratios+=("$(echo "${fm[i]} / ${fi[i]}" | bc -l)")
      done
      ratio=$(spread "${ratios[@]}")
    fi
    printf "%-8s %-6s  %-22s %-22s %s\n" "$threads" "$depth" \
      "$(spread "${fm[@]}")" "$fio_text" "$ratio"
  done
done
