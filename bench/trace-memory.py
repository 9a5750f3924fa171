#!/usr/bin/env python3
"""bench/trace-memory.py: issue 40's memory goal, "a 10 M-IO trace imports,
summarises and replays without holding it all in memory (peak RSS < 256
MiB)", measured.

1. Writes an fio iolog (version 2) of IOS random 4 KiB reads and writes
   (half each) across a 1 GiB file, a `wait 1` line (1 us) every 64 IOs so
   that its times increase, into a `mktemp -d` directory under $BENCH_DIR
   (default /tmp; about 28 bytes a line: 280 MB at 10 M IOs).
2. Runs, each under /usr/bin/time -v (peak RSS: "Maximum resident set
   size"; wall time):
     flashmark import fio-iolog FILE --db DB
     flashmark show --trace 1 --db DB
     flashmark replay 1 TARGET --timing afap --engine psync --buffered --no-db -q --db DB
   TARGET is a sparse 1 GiB file beside the iolog (replay refuses the null
   engine: a replay needs a file; psync on a page-cached sparse file is the
   cheapest real one; --buffered: through the page cache, O_DIRECT would
   make it the disk's speed). --no-db: only the replay's memory is measured.
   and then, for blktrace's binary files (BLKTRACE=0 leaves it out), the
   same IOs as blktrace writes them on two CPUs (each IO's queue, issue
   and completion records on the CPU of its turn; 144 bytes an IO: 1.4 GB
   at 10 M IOs):
     flashmark import blktrace DIR/dev --db DB2
3. Prints each figure beside the 256 MiB goal, then the same for a second,
   smaller trace (SMALL_IOS, default 2 M): until the replay's per-IO
   fidelity records (24 bytes an IO, runner/replay_worker.h) give way to
   streaming figures, they alone are 240 MB of a 10 M-IO replay, so the
   replay's figure at 2 M IOs shows what the rest of it holds.

REPEATS > 1 runs each command that many times and prints the median and
the spread (min..max). The directory is removed at the end.

  FLASHMARK=build-dev/flashmark bench/trace-memory.py
  IOS=1000000 SMALL_IOS=200000 bench/trace-memory.py   # a quick look
"""
import os
import random
import re
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FLASHMARK = os.path.abspath(
    os.environ.get("FLASHMARK", os.path.join(HERE, "..", "build", "flashmark")))
IOS = int(os.environ.get("IOS", "10000000"))
SMALL_IOS = int(os.environ.get("SMALL_IOS", "2000000"))
REPEATS = int(os.environ.get("REPEATS", "1"))
BLKTRACE = os.environ.get("BLKTRACE", "1") != "0"
GOAL_MIB = 256
FILE_BYTES = 1 << 30


def write_iolog(path, ios, seed=40):
    rng = random.Random(seed)
    blocks = FILE_BYTES // 4096
    with open(path, "w") as out:
        out.write("fio version 2 iolog\nf add\nf open\n")
        done = 0
        while done < ios:
            n = min(65536, ios - done)
            lines = []
            for i in range(n):
                if (done + i) % 64 == 0 and done + i > 0:
                    lines.append("f wait 1 0")
                op = "read" if rng.random() < 0.5 else "write"
                lines.append(f"f {op} {rng.randrange(blocks) * 4096} 4096")
            out.write("\n".join(lines))
            out.write("\n")
            done += n
        out.write("f close\n")


# struct blk_io_trace (include/uapi/linux/blktrace_api.h), little-endian.
BLK_IO_TRACE = struct.Struct("<IIQQIIIIIHH")
BLK_MAGIC_V7 = 0x65617407
BLK_QUEUE, BLK_ISSUE, BLK_COMPLETE = 1, 7, 8
BLK_CATEGORY_WRITE = 1 << 1


def write_blktrace(stem, ios, seed=40):
    """stem.blktrace.0 and .1: IO i's Q, D and C on CPU i % 2, 10 us
    apart, completing 50 us after its issue."""
    rng = random.Random(seed)
    sectors = FILE_BYTES // 512
    outs = [open(f"{stem}.blktrace.{cpu}", "wb") for cpu in (0, 1)]
    sequence = [0, 0]
    pack = BLK_IO_TRACE.pack
    device = (7 << 20) | 1
    done = 0
    while done < ios:
        n = min(65536, ios - done)
        chunks = ([], [])
        for i in range(done, done + n):
            cpu = i % 2
            write = rng.random() < 0.5
            category = BLK_CATEGORY_WRITE if write else 0
            sector = rng.randrange(sectors // 8) * 8
            t = 10_000 * i
            for action, at in ((BLK_QUEUE, t), (BLK_ISSUE, t + 1_000),
                               (BLK_COMPLETE, t + 51_000)):
                sequence[cpu] += 1
                chunks[cpu].append(pack(BLK_MAGIC_V7, sequence[cpu], at,
                                        sector, 4096,
                                        action | (category << 16), 1000,
                                        device, cpu, 0, 0))
        for cpu in (0, 1):
            outs[cpu].write(b"".join(chunks[cpu]))
        done += n
    for out in outs:
        out.close()


def measured(argv):
    """(peak RSS in MiB, wall seconds) of one run."""
    start = time.monotonic()
    done = subprocess.run(["/usr/bin/time", "-v"] + argv,
                          capture_output=True, text=True)
    wall = time.monotonic() - start
    if done.returncode != 0:
        sys.exit(f"failed ({done.returncode}): {' '.join(argv)}\n"
                 f"{done.stderr[-3000:]}{done.stdout[-2000:]}")
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)",
                    done.stderr)
    return int(rss.group(1)) / 1024.0, wall


def figures(label, argv, before=None):
    rss, wall = [], []
    for _ in range(REPEATS):
        if before:
            before()
        r, w = measured(argv)
        rss.append(r)
        wall.append(w)
    spread = lambda v, f: (f"{f.format(statistics.median(v))}"
                           + (f" ({f.format(min(v))}..{f.format(max(v))})"
                              if len(v) > 1 else ""))
    verdict = "meets" if max(rss) < GOAL_MIB else "MISSES"
    print(f"  {label:<15} peak RSS {spread(rss, '{:7.1f}')} MiB  "
          f"(goal < {GOAL_MIB} MiB: {verdict})   wall {spread(wall, '{:6.1f}')} s",
          flush=True)


def one_trace(directory, ios):
    iolog = os.path.join(directory, f"trace-{ios}.iolog")
    db = os.path.join(directory, f"trace-{ios}.db")
    target = os.path.join(directory, "target")
    print(f"{ios:,} IOs: writing the iolog...", flush=True)
    write_iolog(iolog, ios)
    print(f"{ios:,} IOs ({os.path.getsize(iolog) / 2**20:.0f} MiB of iolog):",
          flush=True)
    with open(target, "wb") as f:
        f.truncate(FILE_BYTES)

    def fresh_db():
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(db + suffix):
                os.remove(db + suffix)

    figures("import", [FLASHMARK, "import", "fio-iolog", iolog, "--db", db],
            before=fresh_db)
    figures("show", [FLASHMARK, "show", "--trace", "1", "--db", db])
    if BLKTRACE:
        stem = os.path.join(directory, "dev")
        write_blktrace(stem, ios)
        size = sum(os.path.getsize(f"{stem}.blktrace.{cpu}") for cpu in (0, 1))
        print(f"  (blktrace: {size / 2**20:.0f} MiB in 2 per-CPU files)",
              flush=True)
        blk_db = os.path.join(directory, "blktrace.db")
        figures("import blktrace",
                [FLASHMARK, "import", "blktrace", stem, "--db", blk_db],
                before=lambda: [os.remove(blk_db + x)
                                for x in ("", "-wal", "-shm")
                                if os.path.exists(blk_db + x)])
        for cpu in (0, 1):
            os.remove(f"{stem}.blktrace.{cpu}")
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(blk_db + suffix):
                os.remove(blk_db + suffix)
    figures("replay", [FLASHMARK, "replay", "1", target, "--timing", "afap",
                       "--engine", "psync", "--buffered", "--no-db", "-q", "--db", db])
    os.remove(iolog)
    fresh_db()


def main():
    if not os.access(FLASHMARK, os.X_OK):
        sys.exit(f"no flashmark at {FLASHMARK} (set FLASHMARK=...)")
    directory = tempfile.mkdtemp(prefix="flashmark-trace-memory-",
                                 dir=os.environ.get("BENCH_DIR", "/tmp"))
    try:
        print(f"flashmark {FLASHMARK}; REPEATS={REPEATS}; in {directory}")
        one_trace(directory, IOS)
        if SMALL_IOS > 0 and SMALL_IOS != IOS:
            one_trace(directory, SMALL_IOS)
    finally:
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
