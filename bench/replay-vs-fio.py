#!/usr/bin/env python3
"""bench/replay-vs-fio.py: `flashmark replay` against the fio job it replays
(issue 40), same machine, the very same file, in one run.

1. fio writes its own iolog (--write_iolog) of a randwrite 4k QD32 job on a
   file (io_uring, O_DIRECT); `flashmark import fio-iolog` stores it.
2. REPEATS times, alternating who goes first (ABBA): the fio job again
   (no iolog) and `flashmark replay TRACE FILE --timing afap` (O_DIRECT)
   (at most 32 IOs in flight: an iolog has no completion times). IOPS on
   both sides: IOs / elapsed seconds. Goal: replay >= 0.95x fio.
3. An fio job at --rate_iops 20000 (QD32) writes a second iolog; it is
   replayed REPEATS times with --timing original. Goal: p99 issue error
   <= 100 us.
Medians and spread (min..max) side by side. This VM is shared and noisy:
quote the spread with the medians.

  REPEATS=5 DURATION=5 FLASHMARK=build/flashmark bench/replay-vs-fio.py
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FLASHMARK = os.path.abspath(
    os.environ.get("FLASHMARK", os.path.join(HERE, "..", "build", "flashmark")))
REPEATS = int(os.environ.get("REPEATS", "5"))
SECONDS = int(os.environ.get("DURATION", "5"))
SIZE = os.environ.get("SIZE", "512M")


def run(argv, **kw):
    done = subprocess.run(argv, capture_output=True, text=True, **kw)
    if done.returncode != 0:
        sys.exit(f"failed: {' '.join(argv)}\n{done.stderr}{done.stdout}")
    return done.stdout


def fio_job(work, name, extra):
    argv = ["fio", f"--name={name}", f"--filename={work}/target",
            f"--size={SIZE}", "--rw=randwrite", "--bs=4k", "--iodepth=32",
            "--ioengine=io_uring", "--direct=1", "--time_based",
            f"--runtime={SECONDS}", "--output-format=json"] + extra
    job = json.loads(run(argv))["jobs"][0]["write"]
    return job["total_ios"] / (job["runtime"] / 1000.0)


def flashmark(db, *args):
    return run([FLASHMARK, *args, f"--db={db}"])


def replay(db, trace, work, timing):
    out = flashmark(db, "replay", str(trace), f"{work}/target", "--timing",
                    timing, "-q")
    run_id = out.split("  run ")[-1].split()[0]
    doc = json.loads(flashmark(db, "show", run_id, "--json"))
    ios = doc["summary"]["write"]["ios"]
    return ios / doc["summary"]["elapsed_seconds"], doc["replay"]["fidelity"]


def spread(values, digits=1):
    return (f"{statistics.median(values):10.{digits}f}  "
            f"({min(values):.{digits}f}..{max(values):.{digits}f})")


def main():
    if shutil.which("fio") is None:
        sys.exit("fio is not installed")
    work = tempfile.mkdtemp(prefix="flashmark-replay-", dir=os.environ.get(
        "BENCH_DIR", "/tmp"))
    db = f"{work}/bench.db"
    try:
        fio_job(work, "record", [f"--write_iolog={work}/qd32.iolog"])
        flashmark(db, "import", "fio-iolog", f"{work}/qd32.iolog")
        fio_job(work, "record20k", [f"--write_iolog={work}/r20k.iolog",
                                    "--rate_iops=20000"])
        flashmark(db, "import", "fio-iolog", f"{work}/r20k.iolog")
        fio_iops, replay_iops, ratios, p99s, p50s = [], [], [], [], []
        for repeat in range(REPEATS):
            order = ["fio", "replay"] if repeat % 2 == 0 else ["replay", "fio"]
            got = {}
            for who in order:
                if who == "fio":
                    got[who] = fio_job(work, "again", [])
                else:
                    got[who] = replay(db, 1, work, "afap")[0]
            fio_iops.append(got["fio"])
            replay_iops.append(got["replay"])
            ratios.append(got["replay"] / got["fio"])
            _, fidelity = replay(db, 2, work, "original")
            p99s.append(fidelity["issue_error_ns"]["p99"] / 1e3)
            p50s.append(fidelity["issue_error_ns"]["p50"] / 1e3)
        print(f"randwrite 4k QD32 io_uring O_DIRECT on one {SIZE} file, "
              f"{SECONDS} s, {REPEATS} repeats (median (min..max))")
        print(f"  fio IOPS                    {spread(fio_iops)}")
        print(f"  replay afap IOPS            {spread(replay_iops)}")
        print(f"  replay / fio (pairs)        {spread(ratios, 3)}   goal >= 0.95")
        print(f"  original @20k IOPS p50 err  {spread(p50s)} us")
        print(f"  original @20k IOPS p99 err  {spread(p99s)} us   goal <= 100")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
