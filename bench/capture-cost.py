#!/usr/bin/env python3
"""What `flashmark capture` costs the application it traces (issue 40).

On a loop device this script makes (over a file in a temporary
directory, so root), fio runs randwrite 4 KiB at QD32 (libaio, direct)
for --time seconds, alone and while `flashmark capture` records every IO
of the device, in an order that turns each repeat (REPEAT times), so
neither is always first. Prints fio's IOPS without and with the capture
side by side: median (min..max), and the paired ratios with/without:
median (min..max); how many IOs each capture stored against fio's count
(a capture that fell behind says "incomplete"); and the capture
process's own CPU time per IO (utime + stime while fio ran), a figure a
loaded machine disturbs less than IOPS (counted from fio's start to its
end: the capture's own start, which sizes the kernel's buffers, is left
out). A third kind of run finds the floor: fio while the same three
block events, filtered to the device, are recorded into a scratch
tracefs instance that nobody reads: what the kernel's tracing costs
before any reader.

    sudo bench/capture-cost.py [build/flashmark] [--repeat 5] [--time 5]

Goal: IOPS with capture >= 0.95 x without."""
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time

args = sys.argv[1:]
flashmark = args[0] if args and not args[0].startswith("--") else "build/flashmark"
repeat = int(args[args.index("--repeat") + 1]) if "--repeat" in args else 5
seconds = args[args.index("--time") + 1] if "--time" in args else "5"
engine = args[args.index("--engine") + 1] if "--engine" in args else "libaio"


def spread(values):
    values = sorted(values)
    return f"{statistics.median(values):.3f} ({values[0]:.3f}..{values[-1]:.3f})"


def spread_k(values):
    values = sorted(values)
    return (f"{statistics.median(values) / 1000:.1f}k "
            f"({values[0] / 1000:.1f}k..{values[-1] / 1000:.1f}k)")


def fio_ios(device):
    out = subprocess.run(
        ["fio", "--name=capture-cost", f"--filename={device}",
         f"--ioengine={engine}", "--iodepth=32", "--rw=randwrite", "--bs=4k",
         "--direct=1", "--time_based", f"--runtime={seconds}",
         "--output-format=json"],
        capture_output=True, text=True, check=True)
    job = json.loads(out.stdout)["jobs"][0]["write"]
    return job["iops"], job["total_ios"]


def cpu_seconds(pid):
    """A process's own CPU time (utime + stime) so far."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def captured(device, db, tmp):
    err_path = os.path.join(tmp, "capture.err")
    with open(err_path, "w") as err:
        capture = subprocess.Popen(
            [flashmark, "capture", device, "--db", db], stdout=subprocess.PIPE,
            stderr=err, text=True)
    while "capturing" not in open(err_path).read():
        if capture.poll() is not None:
            sys.exit("capture did not start: " + open(err_path).read())
        time.sleep(0.01)
    before = cpu_seconds(capture.pid)
    iops, ios = fio_ios(device)
    cpu_s = cpu_seconds(capture.pid) - before
    capture.send_signal(signal.SIGINT)
    out, _ = capture.communicate()
    if capture.returncode != 0:
        sys.exit("capture failed: " + open(err_path).read())
    stored = int(re.search(r"trace \d+: .*?(\d+) IOs", out, re.S).group(1)) \
        if re.search(r"(\d+) IOs", out) else -1
    return iops, ios, stored, "incomplete" in out, cpu_s


SCRATCH = f"/sys/kernel/tracing/instances/capture-cost-{os.getpid()}"


def tracepoints_alone(device, on):
    """The capture's three block events, filtered to `device` as it
    filters them, recorded into a scratch instance nobody reads (on), or
    off: what the kernel's tracing costs fio before any reader."""
    if on:
        os.makedirs(SCRATCH, exist_ok=True)
    rdev = os.stat(device).st_rdev
    devnum = (os.major(rdev) << 20) | os.minor(rdev)
    for event in ("block_bio_queue", "block_rq_issue", "block_rq_complete"):
        path = f"{SCRATCH}/events/block/{event}"
        if on:
            with open(f"{path}/filter", "w") as f:
                f.write(f"dev == {devnum}")
        with open(f"{path}/enable", "w") as f:
            f.write("1" if on else "0")
    if not on:
        os.rmdir(SCRATCH)


def events_alone_iops(device):
    tracepoints_alone(device, True)
    try:
        return fio_ios(device)[0]
    finally:
        tracepoints_alone(device, False)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        backing = os.path.join(tmp, "disk.img")
        with open(backing, "wb") as f:
            f.truncate(1 << 30)
        device = subprocess.run(["losetup", "--find", "--show", backing],
                                capture_output=True, text=True,
                                check=True).stdout.strip()
        try:
            db = os.path.join(tmp, "traces.db")
            fio_ios(device)  # warm the backing file's allocation
            alone, traced, ratios, notes, cpu_us = [], [], [], [], []
            events, floor = [], []
            kinds = ["alone", "captured", "events"]
            for r in range(repeat):
                # Each kind first in turn, reversed every other repeat.
                order = kinds[r % 3:] + kinds[:r % 3]
                order = order if r % 2 == 0 else order[::-1]
                got = {}
                for what in order:
                    if what == "alone":
                        got[what] = fio_ios(device)[0]
                    elif what == "events":
                        got[what] = events_alone_iops(device)
                    else:
                        iops, ios, stored, incomplete, cpu_s = captured(
                            device, db, tmp)
                        got[what] = iops
                        cpu_us.append(cpu_s * 1e6 / max(ios, 1))
                        notes.append(f"fio {ios} IOs, stored {stored}"
                                     + (" (incomplete)" if incomplete else "")
                                     + f", capture CPU {cpu_s:.2f} s "
                                     f"({cpu_us[-1]:.2f} us per IO)")
                alone.append(got["alone"])
                traced.append(got["captured"])
                ratios.append(got["captured"] / got["alone"])
                events.append(got["events"])
                floor.append(got["events"] / got["alone"])
                print(f"repeat {r + 1} ({' then '.join(order)}): "
                      f"alone {got['alone']:.0f} IOPS, captured "
                      f"{got['captured']:.0f} IOPS, tracepoints alone "
                      f"{got['events']:.0f} IOPS, {notes[-1]}", flush=True)
            print(f"\nfio randwrite 4k QD32 {engine} direct on {device}, "
                  f"{seconds} s, {repeat} repeats, alternating order; load "
                  f"average {' '.join(open('/proc/loadavg').read().split()[:3])}")
            print(f"{'IOPS without capture':<24} {'IOPS with capture':<24} "
                  "with/without (pairs)")
            print(f"{spread_k(alone):<24} {spread_k(traced):<24} {spread(ratios)}")
            print(f"tracepoints alone (recorded, read by nobody): "
                  f"{spread_k(events)} IOPS, {spread(floor)} of without")
            print(f"capture's own CPU per IO: {spread(cpu_us)} us")
            print("goal: with/without >= 0.95")
        finally:
            subprocess.run(["losetup", "-d", device], check=False)


main()
