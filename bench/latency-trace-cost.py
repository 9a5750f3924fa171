#!/usr/bin/env python3
"""What --trace-latency costs, and whether its parts add up (issue 41).

On a loop device this script makes (a file in a temporary directory, so
root), and on a file set in a temporary directory of the machine's own
file system (--direct, so the block requests reach its disk), each cell
runs flashmark with --trace-latency on and off and fio on the very same
target (the same loop device, the same files), in an order that turns
each repeat (REPEAT times), so none is always first. Prints the IOPS
medians, the paired ratios traced/untraced and untraced/fio: median
(min..max), and from the traced runs' JSON how far the p50 in its parts
(the mean parts of the IOs at the p50) is from the latency p50 (the
goal: within 5 %), beside the sum of the parts' own p50s (which need
not add up), and how many IOs were traced; and flashmark's own CPU time
per IO (user + system, the tracer's thread and the tracepoints run in
the workers' system calls included) traced and untraced, medians:
a figure a loaded machine disturbs less than IOPS. A fourth kind of run
finds the floor: the same three block events, filtered to the same
device, recorded into a scratch tracefs instance that nobody reads while
flashmark runs untraced ("tracepoints alone"): what the kernel's own
tracing costs before flashmark reads a byte of it.

    sudo bench/latency-trace-cost.py [build/flashmark] [--repeat 5] [--time 5]

Goal: traced IOPS >= 0.95 x untraced."""
import json
import os
import stat
import statistics
import subprocess
import sys
import tempfile

args = [a for a in sys.argv[1:]]
flashmark = args[0] if args and not args[0].startswith("--") else "build/flashmark"
repeat = int(args[args.index("--repeat") + 1]) if "--repeat" in args else 5
seconds = args[args.index("--time") + 1] if "--time" in args else "5"
cells = [("psync", 1), ("io_uring", 16), ("libaio", 32)]


def spread(values):
    values = sorted(values)
    return f"{statistics.median(values):.3f} ({values[0]:.3f}..{values[-1]:.3f})"


def flashmark_run(target, engine, depth, trace, extra, time=seconds):
    out = subprocess.run(
        [flashmark, "run", target, "--direct", "--mode", "rndrd", "--bs", "4k",
         "--engine", engine, "--iodepth", str(depth), "--time", time + "s",
         "--no-db", "-q", "--json", "-", "--trace-latency", trace] + extra,
        capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def fio_iops(target, engine, depth, extra):
    job = ["fio", "--name=t", f"--ioengine={engine}", f"--iodepth={depth}",
           "--rw=randread", "--bs=4k", "--direct=1", "--time_based",
           f"--runtime={seconds}", "--output-format=json"] + extra
    out = subprocess.run(job + [f"--filename={target}"], capture_output=True,
                         text=True, check=True)
    return json.loads(out.stdout)["jobs"][0]["read"]["iops"]


EVENTS = ("block_bio_queue", "block_rq_issue", "block_rq_complete")
SCRATCH = f"/sys/kernel/tracing/instances/latency-trace-cost-{os.getpid()}"


def trace_devs(target):
    """The kernel's numbers (major << 20 | minor) the block events name for
    `target`: its device, or its file system's, and the disk a partition
    is on."""
    st = os.stat(target)
    dev = st.st_rdev if stat.S_ISBLK(st.st_mode) else st.st_dev
    devs = {dev}
    parent = os.path.realpath(f"/sys/dev/block/{os.major(dev)}:{os.minor(dev)}")
    if os.path.exists(os.path.join(parent, "partition")):
        devs.add(os.stat(os.path.join("/dev", os.path.basename(
            os.path.dirname(parent)))).st_rdev)
    return [(os.major(d) << 20) | os.minor(d) for d in devs]


def tracepoints_alone(target, on):
    """The three block events, filtered to `target` as flashmark filters
    them, recorded into a scratch instance nobody reads (on), or off."""
    if on:
        os.makedirs(SCRATCH, exist_ok=True)
    devs = " || ".join(f"dev == {d}" for d in trace_devs(target))
    for event in EVENTS:
        path = f"{SCRATCH}/events/block/{event}"
        if on:
            with open(f"{path}/filter", "w") as f:
                f.write(devs)
        with open(f"{path}/enable", "w") as f:
            f.write("1" if on else "0")
    if not on:
        os.rmdir(SCRATCH)


def measure(name, target, fio_target, extra):
    load = " ".join(open("/proc/loadavg").read().split()[:3])
    print(f"\n{name}: {target} (load average {load})")
    print(f"{'engine':<9} {'QD':>3}  {'traced IOPS':>12} {'untraced':>10} "
          f"{'fio':>10}  {'traced/untraced (pairs)':<26} "
          f"{'untraced/fio (pairs)':<24} "
          f"{'p50 in parts / p50':<22} {'part p50s / p50':<22} "
          f"{'IOs traced':<10}  CPU us/IO on, off; "
          f"tracepoints alone/untraced (pairs), CPU us/IO")
    for engine, depth in cells:
        on, off, fio, ratios, vs_fio, sums, at_p50, traced = ([] for _ in range(8))
        alone = []
        cpu = {"on": [], "off": [], "events": []}
        kinds = ["on", "off", "events", "fio"]
        for i in range(repeat):
            got = {}
            # Each kind first in turn, and the order reversed every other
            # repeat.
            order = kinds[i % 4:] + kinds[:i % 4]
            for what in order if i % 2 == 0 else order[::-1]:
                if what == "fio":
                    got[what] = fio_iops(fio_target, engine, depth, [])
                elif what == "events":
                    tracepoints_alone(target, True)
                    try:
                        got[what] = flashmark_run(target, engine, depth, "off",
                                                  extra)
                    finally:
                        tracepoints_alone(target, False)
                else:
                    got[what] = flashmark_run(target, engine, depth, what, extra)
            fio.append(got["fio"])
            alone.append(got["events"]["summary"]["iops"]["median"] /
                         got["off"]["summary"]["iops"]["median"])
            for what in ("on", "off", "events"):
                summary = got[what]["summary"]
                ios = summary["read"]["ios"] + summary["write"]["ios"]
                cpu[what].append((summary["cpu_user_seconds"] +
                                  summary["cpu_system_seconds"]) * 1e6 /
                                 max(1, ios))
            iops_on = got["on"]["summary"]["iops"]["median"]
            iops_off = got["off"]["summary"]["iops"]["median"]
            on.append(iops_on)
            off.append(iops_off)
            ratios.append(iops_on / iops_off)
            vs_fio.append(iops_off / got["fio"])
            summary = got["on"]["summary"]
            split = summary.get("latency_split")
            if split:
                names = ("flashmark", "queue", "device", "completion")
                p50 = summary["latency"]["p50_ns"]
                sums.append(sum(split[p]["p50_ns"] for p in names) / p50)
                at_p50.append(sum(split["at_p50"][p] for p in names) / p50)
                traced.append(split["device"]["count"] /
                              max(1, split["device"]["count"] + split["untraced"]))
        sum_text = spread(sums) if sums else "not traced"
        at_text = spread(at_p50) if at_p50 else "not traced"
        traced_text = f"{min(traced):.1%}" if traced else "-"
        print(f"{engine:<9} {depth:>3}  {statistics.median(on):>12.0f} "
              f"{statistics.median(off):>10.0f} {statistics.median(fio):>10.0f}  "
              f"{spread(ratios):<26} {spread(vs_fio):<24} {at_text:<22} "
              f"{sum_text:<22} "
              f"{traced_text:<10}  {statistics.median(cpu['on']):.2f}, "
              f"{statistics.median(cpu['off']):.2f}; {spread(alone)}, "
              f"{statistics.median(cpu['events']):.2f}")


def main():
    if os.geteuid() != 0:
        sys.exit("latency-trace-cost.py: tracing and loop devices need root")
    with tempfile.TemporaryDirectory(dir="/var/tmp") as work:
        image = os.path.join(work, "loop.img")
        with open(image, "wb") as f:
            f.truncate(1 << 30)
        loop = subprocess.run(["losetup", "-f", "--show", "--direct-io=on", image],
                              capture_output=True, text=True,
                              check=True).stdout.strip()
        try:
            subprocess.run(["dd", f"if=/dev/urandom", f"of={loop}", "bs=1M",
                            "count=1024", "oflag=direct", "status=none"],
                           check=True)
            measure("loop device", loop, loop, [])
        finally:
            subprocess.run(["losetup", "-d", loop], check=False)
        files = os.path.join(work, "fs")
        os.mkdir(files)
        # One 1 GiB file: fio reads the very file flashmark laid out.
        one_file = ["--size", "1G", "--file-num", "1", "--keep-files"]
        flashmark_run(files, "psync", 1, "off", one_file, time="1")
        measure("files on this machine's disk", files,
                os.path.join(files, "flashmark.0"), one_file)


main()
