#!/usr/bin/env bash
# bench/vs-fio.sh — flashmark against fio and sysbench on the same workloads,
# same machine, the very same files, in one run.  Each case is run REPEATS
# times (5 at least by default), alternating peer and flashmark (and swapping
# who goes first on every other repeat, ABBA-style, so slow drift on a shared
# machine hits both sides alike).  The verdict is the ratio of the two
# medians; the spread of the per-pair ratios (each repeat's flashmark / peer)
# is printed beside it.  Both tools always run on one file set: two sets laid
# out alike can differ by 2x on a virtual disk, which would measure file
# placement, not the tools.
#
#   REPEATS=5 DURATION=10s BENCH_DIR=/tmp FLASHMARK=build/flashmark bench/vs-fio.sh
#   ONLY='io_uring QD32|seq' bench/vs-fio.sh    # only the cases whose name matches
#
# Rates on both sides are whole-run means (IOs or bytes / elapsed seconds),
# which is what fio and sysbench report; flashmark's per-second median is
# not used here so that both sides are measured the same way.
# Files live in a mktemp -d directory; the only block device it touches is
# the zram device it creates itself for the zram cases (root only).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(dirname "$HERE")
FLASHMARK=${FLASHMARK:-$REPO/build/flashmark}
REPEATS=${REPEATS:-5}
DURATION=${DURATION:-10s}
SECS=${DURATION%s}

die() { echo "vs-fio.sh: $*" >&2; exit 1; }
[[ $SECS =~ ^[0-9]+$ && $SECS -gt 0 ]] || die "DURATION must be whole seconds, e.g. 10s (got '$DURATION')"
[[ $REPEATS =~ ^[0-9]+$ && $REPEATS -gt 0 ]] || die "REPEATS must be a positive integer"
command -v python3 >/dev/null || die "python3 is required (it parses the JSON results); install python3"
command -v fio >/dev/null || die "fio is not installed"
command -v sysbench >/dev/null || die "sysbench is not installed"
[[ -x $FLASHMARK ]] || die "no flashmark binary at $FLASHMARK (build it, or set FLASHMARK)"
FLASHMARK=$(cd "$(dirname "$FLASHMARK")" && pwd)/$(basename "$FLASHMARK")

WORK=$(mktemp -d "${BENCH_DIR:-/tmp}/flashmark-vs-fio.XXXXXX")
cd "$WORK"   # fio and sysbench may drop files in the current directory
SB_ARGS=()
# The zram device of the zram cases (2c), when this run created one.
ZRAM_ID="" ZRAM_MNT=$WORK/zram
zram_remove() {
  if [[ -n $ZRAM_ID ]]; then
    if mountpoint -q "$ZRAM_MNT"; then umount "$ZRAM_MNT"; fi
    echo "$ZRAM_ID" >/sys/class/zram-control/hot_remove || true
    ZRAM_ID=""
  fi
}
cleanup() {
  zram_remove
  if [[ ${#SB_ARGS[@]} -gt 0 && -d $WORK/sb ]]; then
    (cd "$WORK/sb" && sysbench fileio "${SB_ARGS[@]}" cleanup >/dev/null 2>&1) || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
RESULTS=$WORK/results.tsv GOALS=$WORK/goals.tsv LOG=$WORK/log
: >"$RESULTS"; : >"$GOALS"

# jq-free JSON access: jget FILE PYTHON_EXPR (the parsed document is `d`).
jget() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

# Run a tool with its output in FILE; on failure show the log and stop.
try() { "$@" >>"$LOG" 2>&1 || { tail -30 "$LOG" >&2; die "failed: $*"; }; }

# fio_run OUT.json ARGS...  (one job; time-based for DURATION)
fio_run() { local out=$1; shift
  try fio --name=peer --output-format=json --output="$out" --time_based --runtime="${SECS}s" "$@"; }
# flashmark run, JSON to OUT.json
fm_run() { local out=$1; shift
  try "$FLASHMARK" run -q --time "${SECS}s" --json "$out" "$@"; }

# Figures.  fio: `iops` is total_ios / runtime (summed over a group with
# --group_reporting).  CPU per IO: (usr+sys)% of job_runtime, over all IOs.
fio_iops() { jget "$1" "d['jobs'][0]['read']['iops'] + d['jobs'][0]['write']['iops']"; }
fio_cpu_us() { jget "$1" "(lambda j: (j['usr_cpu']+j['sys_cpu'])/100*j['job_runtime']/1000
  / (j['read']['total_ios']+j['write']['total_ios']) * 1e6)(d['jobs'][0])"; }
fm_iops() { jget "$1" "(d['summary']['read']['ios']+d['summary']['write']['ios'])/d['summary']['elapsed_seconds']"; }
fm_mibs() { jget "$1" "(d['summary']['read']['bytes']+d['summary']['write']['bytes'])/d['summary']['elapsed_seconds']/2**20"; }
fm_cpu_us() { jget "$1" "(lambda s: (s['cpu_user_seconds']+s['cpu_system_seconds'])
  / (s['read']['ios']+s['write']['ios']) * 1e6)(d['summary'])"; }
# flashmark's system CPU per IO alone: the kernel's share, which no change in
# flashmark's own code can lower (see "floor" in the report).
fm_sys_us() { jget "$1" "(lambda s: s['cpu_system_seconds']
  / (s['read']['ios']+s['write']['ios']) * 1e6)(d['summary'])"; }
ns_per() { python3 -c "import sys; print(1e9 / float(sys.argv[1]))" "$1"; }
sb_mibs() { awk '/written, MiB\/s:/ {print $3}' "$1"; }

# goal METRIC KIND(iops|mibs|us) OP(>=|<=|info) RATIO PEER
goal() { printf '%s\t%s\t%s\t%s\t%s\n' "$@" >>"$GOALS"; }
# record METRIC SIDE(peer|flashmark) VALUE
record() { printf '%s\t%s\t%s\n' "$@" >>"$RESULTS"; }

# ab REP PEER_FN FM_FN: run both, peer first on odd repeats, flashmark first on even.
ab() { if (( $1 % 2 )); then "$2" "$1"; "$3" "$1"; else "$3" "$1"; "$2" "$1"; fi; }

say() { printf '%s\n' "$*"; }
# want NAME: whether the case is selected by ONLY (an extended regex).
want() { [[ -z ${ONLY:-} || $1 =~ $ONLY ]]; }
say "flashmark vs fio/sysbench — $(date -u '+%Y-%m-%d %H:%M:%SZ')"
say "machine : $(nproc) CPUs ($(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)), $(awk '/MemTotal/ {printf "%.1f GiB", $2/2^20}' /proc/meminfo), kernel $(uname -r)"
say "load    : $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15 min) at start"
say "tools   : $(fio --version), $(sysbench --version | head -1), $("$FLASHMARK" --version | head -1)"
say "files   : $WORK ($(df -PT "$WORK" | awk 'NR==2 {print $2 " on " $1}'))"
say "runs    : $REPEATS repeats x ${SECS}s per side per case"
say

# --- 1. null engine, 1 thread, QD1 and QD32: pure tool overhead -----------
# Every IO still gets its latency stamped on both sides.  ns/IO is the
# wall time per IO of one thread (1e9 / IOPS); the goal is absolute.
for QD in 1 32; do
  M="null QD$QD IOPS"; want "$M" || continue; goal "$M" iops '>=' 1.5 fio
  N="null QD$QD ns/IO"; [[ $QD == 1 ]] && goal "$N" ns 'abs<=' 60 fio
  p() { fio_run "$WORK/f.json" --ioengine=null --rw=randread --bs=4k --size=1G --iodepth="$QD"
        local v; v=$(fio_iops "$WORK/f.json"); record "$M" peer "$v"; record "$N" peer "$(ns_per "$v")"; }
  f() { fm_run "$WORK/m.json" --engine null --mode rndrd --bs 4k --size 1G --iodepth "$QD"
        local v; v=$(fm_iops "$WORK/m.json"); record "$M" flashmark "$v"; record "$N" flashmark "$(ns_per "$v")"; }
  for ((r = 1; r <= REPEATS; r++)); do say "  [$M] repeat $r"; ab "$r" p f; done
done

# --- 1b. null engine, 1 MiB writes with new random bytes in every write --
# What filling write buffers costs each tool: nothing reaches a device, so
# the throughput is how fast one thread makes fresh data.  flashmark's
# default (--data random) writes new bytes every time; fio's equivalent is
# --refill_buffers (its default only scrambles a few bytes per 512).
M="null 1M write, new data MiB/s"
if want "$M"; then
  goal "$M" mibs '>=' 1.0 fio
  p() { fio_run "$WORK/f.json" --ioengine=null --rw=write --bs=1M --size=1G --iodepth=8 --refill_buffers
        record "$M" peer "$(jget "$WORK/f.json" "d['jobs'][0]['write']['bw_bytes']/2**20")"; }
  f() { fm_run "$WORK/m.json" --engine null --mode seqwr --bs 1M --size 1G --iodepth 8
        record "$M" flashmark "$(fm_mibs "$WORK/m.json")"; }
  for ((r = 1; r <= REPEATS; r++)); do say "  [$M] repeat $r"; ab "$r" p f; done
fi

# --- 2. 4 KiB random read, O_DIRECT, one 1 GiB file: io_uring and libaio --
# QD 1, 8, 32, 128 on one thread, and 4 threads x QD32; both tools at their
# defaults (fio: no registered files or buffers; flashmark registers the
# files and the ring descriptor, which cost nothing).  CPU per IO: user +
# system seconds over IOs (fio: the job's own; flashmark: the whole
# process, its sampler included).  Then io_uring QD32 with registered
# buffers on both sides (fio --fixedbufs --registerfiles).
mkdir -p "$WORK/data"
say "  laying out a 1 GiB file"
try "$FLASHMARK" run "$WORK/data" --mode rndrd --size 1G --file-num 1 --keep-files --io-limit 1 -q
FILE=$WORK/data/flashmark.0
[[ -f $FILE ]] || die "layout did not produce $FILE"
# rr_case NAME THREADS QD FIO_EXTRA FM_EXTRA (engine given in ENGINE)
rr_case() { local name=$1 threads=$2 qd=$3 fio_extra=$4 fm_extra=$5
  local M="$name IOPS" C="$name CPU/IO"
  want "$M" || return 0
  goal "$M" iops '>=' 1.0 fio; goal "$C" us '<=' 0.8 fio
  # shellcheck disable=SC2086 # the extras are option lists
  p() { fio_run "$WORK/f.json" --ioengine="$ENGINE" --direct=1 --rw=randread --bs=4k --iodepth="$qd" \
          --numjobs="$threads" --group_reporting --filename="$FILE" --size=1G $fio_extra
        record "$M" peer "$(fio_iops "$WORK/f.json")"; record "$C" peer "$(fio_cpu_us "$WORK/f.json")"; }
  # shellcheck disable=SC2086
  f() { fm_run "$WORK/m.json" "$FILE" --size 1G --engine "$ENGINE" --direct --mode rndrd --bs 4k \
          --iodepth "$qd" --threads "$threads" $fm_extra
        record "$M" flashmark "$(fm_iops "$WORK/m.json")"; record "$C" flashmark "$(fm_cpu_us "$WORK/m.json")"
        record "$C kernel" flashmark "$(fm_sys_us "$WORK/m.json")"; }
  for ((r = 1; r <= REPEATS; r++)); do say "  [$M] repeat $r"; ab "$r" p f; done
}
for ENGINE in io_uring libaio; do
  for QD in 1 8 32 128; do rr_case "$ENGINE QD$QD" 1 "$QD" "" ""; done
  rr_case "$ENGINE 4T QD32" 4 32 "" ""
done
ENGINE=io_uring rr_case "io_uring QD32 fixedbufs" 1 32 "--fixedbufs --registerfiles" "--fixedbufs"

# --- 2b. sequential 1 MiB read and write, O_DIRECT, QD8, io_uring ----------
# Both at their defaults: flashmark's buffers on transparent huge pages
# (--mem thp), fio's from malloc (4 KiB pages; its --mem=mmaphuge needs
# reserved hugetlbfs pages).  The "--mem malloc" rows run flashmark on 4 KiB
# pages too, so the difference the buffers make shows beside the tools'.
for MODE in read write; do
  for MEM in thp malloc; do
    M="seq 1M $MODE QD8 MiB/s"; [[ $MEM == malloc ]] && M="seq 1M $MODE QD8 --mem malloc MiB/s"
    want "$M" || continue
    if [[ $MEM == thp ]]; then goal "$M" mibs '>=' 1.0 fio; else goal "$M" mibs info 1.0 fio; fi
    FM_MODE=seqrd; [[ $MODE == write ]] && FM_MODE=seqwr
    p() { fio_run "$WORK/f.json" --ioengine=io_uring --direct=1 --rw="$MODE" --bs=1M --iodepth=8 \
            --filename="$FILE" --size=1G
          record "$M" peer "$(jget "$WORK/f.json" "(d['jobs'][0]['read']['bw_bytes']+d['jobs'][0]['write']['bw_bytes'])/2**20")"; }
    f() { fm_run "$WORK/m.json" "$FILE" --size 1G --engine io_uring --direct --mode "$FM_MODE" --bs 1M --iodepth 8 \
            --mem "$MEM"
          record "$M" flashmark "$(fm_mibs "$WORK/m.json")"; }
    for ((r = 1; r <= REPEATS; r++)); do say "  [$M] repeat $r"; ab "$r" p f; done
  done
done

# --- 2c. the same 4 KiB random reads on a RAM-backed block device ---------
# On a virtual disk almost all of either tool's CPU per IO is the kernel's
# (virtio and the host), the same for both; a zram device has a short
# kernel path (a bio completes inline, from RAM), so what each tool itself
# costs per IO shows in CPU/IO.  Root only: the bench creates the device
# (never zram devices it did not create), puts ext4 on it, lays out one
# 1 GiB file there, and unmounts and removes the device on exit.
ZRAM_CASES=()
for ENGINE in io_uring libaio; do
  for C in QD1 QD32 "4T QD32"; do ZRAM_CASES+=("zram $ENGINE $C"); done
done
zram_wanted() { local c; for c in "${ZRAM_CASES[@]}"; do want "$c IOPS" && return 0; done; return 1; }
if zram_wanted; then
  if [[ $(id -u) != 0 || ! -w /sys/class/zram-control/hot_add ]] || ! command -v mkfs.ext4 >/dev/null; then
    say "  zram cases skipped: they need root, the zram driver (/sys/class/zram-control) and mkfs.ext4"
  else
    ZRAM_ID=$(cat /sys/class/zram-control/hot_add)
    echo 2G >"/sys/block/zram$ZRAM_ID/disksize"
    try mkfs.ext4 -q "/dev/zram$ZRAM_ID"
    mkdir -p "$ZRAM_MNT" && try mount "/dev/zram$ZRAM_ID" "$ZRAM_MNT"
    say "  laying out a 1 GiB file on ext4 on /dev/zram$ZRAM_ID (created by this bench)"
    try "$FLASHMARK" run "$ZRAM_MNT" --mode rndrd --size 1G --file-num 1 --keep-files --io-limit 1 -q
    DISK_FILE=$FILE FILE=$ZRAM_MNT/flashmark.0
    for ENGINE in io_uring libaio; do
      for QD in 1 32; do rr_case "zram $ENGINE QD$QD" 1 "$QD" "" ""; done
      rr_case "zram $ENGINE 4T QD32" 4 32 "" ""
    done
    FILE=$DISK_FILE
    zram_remove
  fi
fi

# --- 3. psync 4 KiB random read from the page cache, 2 threads ------------
# cat warms the cache before every run; fio must not drop it (--invalidate=0,
# its default 1 evicts the file's pages before the job starts).  This case is
# CPU-bound, so CPU per IO is shown too (no goal): fio's job processes each
# call setsid(), so with kernel.sched_autogroup_enabled=1 and other load on
# the machine they get one scheduler share each, flashmark's two threads one
# between them; CPU per IO is the figure that noise does not move.
M="psync 2T cached IOPS"; C="psync 2T cached CPU/IO"
if want "$M"; then
goal "$M" iops '>=' 1.0 fio; goal "$C" us info 1.0 fio
p() { cat "$FILE" >/dev/null
      fio_run "$WORK/f.json" --ioengine=psync --rw=randread --bs=4k --numjobs=2 --group_reporting \
        --invalidate=0 --filename="$FILE" --size=1G
      record "$M" peer "$(fio_iops "$WORK/f.json")"; record "$C" peer "$(fio_cpu_us "$WORK/f.json")"; }
f() { cat "$FILE" >/dev/null
      fm_run "$WORK/m.json" "$FILE" --size 1G --engine psync --threads 2 --mode rndrd --bs 4k
      record "$M" flashmark "$(fm_iops "$WORK/m.json")"; record "$C" flashmark "$(fm_cpu_us "$WORK/m.json")"; }
for ((r = 1; r <= REPEATS; r++)); do say "  [$M] repeat $r"; ab "$r" p f; done
fi
rm -rf "$WORK/data"

# --- 4. 16 KiB async random write, 8 threads, O_DIRECT, 16 files / 1 GiB ---
# The seed workload, on sysbench's own 16 files for every tool: sysbench,
# flashmark given those files as targets, and fio given them as
# --filename=a:b:...
# Queue depth: sysbench's async mode io_submit()s one IO per event and only
# waits (io_getevents, min 1) once a thread has --file-async-backlog (128)
# IOs outstanding, so each thread keeps 127-128 in flight whenever the device
# is slower than submission.  flashmark and fio therefore run 128 in flight
# per thread (8 x 128 = 1024 in flight on every side).
# sysbench writes every IO of a thread from one buffer, filled once; the
# shared-buffer cases run flashmark the same way (--shared-buffer), the
# others with its default (a buffer per IO in flight, fresh random bytes
# per write).
M="libaio 16k rndwr 8T MiB/s"; MF="libaio 16k rndwr 8T vs fio"; MU="io_uring 16k rndwr 8T MiB/s"
MS="libaio 16k rndwr 8T shared-buffer MiB/s"; MUS="io_uring 16k rndwr 8T shared-buffer MiB/s"
if want "16k rndwr 8T"; then
goal "$M" mibs '>=' 1.0 sysbench; goal "$MU" mibs '>=' 1.0 sysbench; goal "$MF" mibs '>=' 1.0 fio
goal "$MS" mibs '>=' 1.0 sysbench; goal "$MUS" mibs '>=' 1.0 sysbench
SB_ARGS=(--file-test-mode=rndwr --file-io-mode=async --file-extra-flags=direct
         --file-block-size=16384 --threads=8 --file-num=16 --file-total-size=1G
         --time="$SECS" --file-fsync-freq=0)
mkdir -p "$WORK/sb"
say "  laying out one set of 16 x 64 MiB files (sysbench prepare), used by all three tools"
(cd "$WORK/sb" && try sysbench fileio "${SB_ARGS[@]}" prepare)
SB_FILES=()
for ((k = 0; k < 16; k++)); do SB_FILES+=("$WORK/sb/test_file.$k"); done
FM4=("${SB_FILES[@]}" --engine libaio --mode rndwr --bs 16k --threads 8 --direct --iodepth 128)
FIO4=(--ioengine=libaio --direct=1 --rw=randwrite --bs=16k --numjobs=8 --iodepth=128
      --group_reporting --filename="$(IFS=:; echo "${SB_FILES[*]}")")
# sysbench's run, recorded as the peer of case $1.
sb_peer() { (cd "$WORK/sb" && sysbench fileio "${SB_ARGS[@]}" run >"$WORK/sb.out" 2>&1) ||
              { cat "$WORK/sb.out" >&2; die "sysbench run failed"; }
            local v; v=$(sb_mibs "$WORK/sb.out"); [[ -n $v ]] || die "no 'written, MiB/s:' in sysbench output"
            record "$1" peer "$v"; }
p() { sb_peer "$M"; }
f() { fm_run "$WORK/m.json" "${FM4[@]}"; record "$M" flashmark "$(fm_mibs "$WORK/m.json")"; }
for ((r = 1; r <= REPEATS; r++)); do say "  [$M] repeat $r"; ab "$r" p f; done
for C in "$MU" "$MS" "$MUS"; do
  ENGINE=io_uring; [[ $C == "$MS" ]] && ENGINE=libaio
  EXTRA=(); [[ $C == "$MU" ]] || EXTRA=(--shared-buffer)
  p() { sb_peer "$C"; }
  f() { fm_run "$WORK/m.json" "${SB_FILES[@]}" --engine "$ENGINE" --mode rndwr --bs 16k --threads 8 --direct \
          --iodepth 128 "${EXTRA[@]}"
        record "$C" flashmark "$(fm_mibs "$WORK/m.json")"; }
  for ((r = 1; r <= REPEATS; r++)); do say "  [$C] repeat $r"; ab "$r" p f; done
done
p() { fio_run "$WORK/f.json" "${FIO4[@]}"
      record "$MF" peer "$(jget "$WORK/f.json" "d['jobs'][0]['write']['bw_bytes']/2**20")"; }
f() { fm_run "$WORK/m.json" "${FM4[@]}"; record "$MF" flashmark "$(fm_mibs "$WORK/m.json")"; }
for ((r = 1; r <= REPEATS; r++)); do say "  [$MF] repeat $r"; ab "$r" p f; done
(cd "$WORK/sb" && sysbench fileio "${SB_ARGS[@]}" cleanup >/dev/null 2>&1) || true
SB_ARGS=()
fi

say
say "load    : $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15 min) at end"
# --- report: per-repeat figures, then medians, ratio and goal --------------
python3 - "$RESULTS" "$GOALS" <<'EOF'
import sys, statistics as st
res, goals = {}, []
for line in open(sys.argv[1]):
    m, side, v = line.rstrip("\n").split("\t")
    res.setdefault(m, {}).setdefault(side, []).append(float(v))
for line in open(sys.argv[2]):
    goals.append(line.rstrip("\n").split("\t"))

def fmt(v, kind):
    if kind == "iops":
        return f"{v/1e6:.2f}M" if v >= 1e6 else f"{v/1e3:.1f}k" if v >= 1e3 else f"{v:.0f}"
    if kind == "mibs":
        return f"{v:.1f}MiB/s"
    if kind == "ns":
        return f"{v:.1f}ns"
    return f"{v:.2f}us"

print("per-repeat figures (run order alternates; peer first on odd repeats)")
for m, kind, op, g, peer in goals:
    for side, name in (("peer", peer), ("flashmark", "flashmark")):
        vals = res.get(m, {}).get(side, [])
        print(f"  {m:<28} {name:<10} " + "  ".join(fmt(v, kind) for v in vals))
print()
print(f"  {'workload (medians)':<28} {'peer':>12} {'flashmark':>12} {'ratio':>7} {'pairs min..max':>15}   goal")
failed = 0
for m, kind, op, g, peer in goals:
    a, b = st.median(res[m]["peer"]), st.median(res[m]["flashmark"])
    ratio = b / a if a else float("inf")
    # Each repeat's pair: flashmark / peer, run back to back.
    pairs = [y / x for x, y in zip(res[m]["peer"], res[m]["flashmark"]) if x]
    spread = f"{min(pairs):.2f}..{max(pairs):.2f}" if pairs else "-"
    # abs<=: flashmark's own median against a fixed figure, not a ratio.
    ok = (ratio >= float(g) if op == ">=" else
          b <= float(g) if op == "abs<=" else ratio <= float(g))
    failed += op != "info" and not ok
    goal_text = (f"<= {float(g):g}{kind}" if op == "abs<=" else
                 op + " " + format(float(g), "g") + "x")
    verdict = ("-", "") if op == "info" else (goal_text, "ok" if ok else "MISSED")
    # CPU/IO rows: flashmark's system time alone over the peer's CPU/IO, the
    # ratio flashmark would reach if its own code cost nothing.
    kernel = res.get(m + " kernel", {}).get("flashmark")
    floor = f"  floor {st.median(kernel) / a:.2f}x" if kernel and a else ""
    print(f"  {m:<28} {fmt(a, kind):>12} {fmt(b, kind):>12} {ratio:>6.2f}x {spread:>15}   "
          f"{verdict[0]:<9} {verdict[1]:<7} ({peer}){floor}")
print()
ngoals = sum(op != "info" for _, _, op, _, _ in goals)
print(f"{ngoals - failed} of {ngoals} goals met. ratio = flashmark / peer, "
      "medians of the repeats (pairs: the range of the per-repeat ratios); "
      "on a shared machine only these ratios count.")
print("floor (CPU/IO rows): flashmark's system CPU per IO alone / the peer's CPU per IO, "
      "the ratio it would reach if its own code cost nothing.")
EOF
