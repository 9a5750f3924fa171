#!/usr/bin/env python3
"""What --trace-latency costs, and whether its parts add up (issue 41).

On two loop devices this script makes (root), one over a file in
/dev/shm (the highest IOPS, no disk's stalls: the worst case for the
tracepoints' cost) and one over a file on the machine's own disk, and on a
file set in a temporary directory of the machine's own file system
(--direct, so the block requests reach its disk), each cell runs five
kinds of run on the very same target (the same loop device, the same
files), REPEAT times, in an order that turns each repeat so none is always
first (the goal's pair, sampled and untraced, back to back):
- flashmark traced as by default: 1 IO in 16, by sector (--trace-sample);
- flashmark tracing every IO (--trace-sample 1);
- flashmark untraced;
- flashmark untraced while the same three block events, filtered to the
  same device, are recorded into a scratch tracefs instance that nobody
  reads ("tracepoints alone": the kernel's own cost of tracing every IO,
  before any reader);
- fio.
Prints the untraced and fio IOPS medians and the paired ratios to
untraced, median (min..max); from the traced runs' JSON how far the p50
in its parts (the mean parts of the IOs at the p50) is from the latency
p50 (the goal: within 5 %) and what share of the IOs the sample traced;
and flashmark's own CPU time per IO (user + system, the tracer's thread
and the tracepoints in the workers' system calls included), medians: a
figure a loaded machine disturbs less than IOPS.

    sudo bench/latency-trace-cost.py [build/flashmark] [--repeat 5] [--time 5]

Goal: traced IOPS (as by default) >= 0.95 x untraced."""
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


def flashmark_run(target, engine, depth, extra, time=seconds):
    out = subprocess.run(
        [flashmark, "run", target, "--direct", "--mode", "rndrd", "--bs", "4k",
         "--engine", engine, "--iodepth", str(depth), "--time", time + "s",
         "--no-db", "-q", "--json", "-"] + extra,
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


# The kinds of run in each repeat: flashmark traced as by default (1 IO in
# 16 by sector), traced every IO, untraced, untraced beside the tracepoints
# alone, and fio.
TRACED = {"sampled": ["--trace-latency", "on"],
          "every IO": ["--trace-latency", "on", "--trace-sample", "1"]}
KINDS = ["off", "sampled", "every IO", "alone", "fio"]


def measure(name, target, fio_target, extra):
    load = " ".join(open("/proc/loadavg").read().split()[:3])
    print(f"\n{name}: {target} (load average {load})")
    print("IOPS / untraced (pairs): median (min..max); the p50 in its parts / "
          "the p50; CPU us per IO (user + system)")
    print(f"{'engine':<9} {'QD':>3} {'untraced':>8} {'fio':>8}  "
          f"{'sampled':<20} {'every IO':<20} {'tracepoints alone':<20} "
          f"{'untraced / fio':<20} {'p50 parts: sampled':<20} "
          f"{'every IO':<20} {'traced':<14} CPU: sampled, every, off, alone")
    for engine, depth in cells:
        iops = {kind: [] for kind in KINDS}
        ratios = {kind: [] for kind in ("sampled", "every IO", "alone", "fio")}
        at_p50 = {kind: [] for kind in TRACED}
        cpu = {kind: [] for kind in ("sampled", "every IO", "off", "alone")}
        shares = []
        for i in range(repeat):
            got = {}
            # The goal's pair (sampled, untraced) runs back to back, in
            # turn first, and first or last of the repeat; the others each
            # first in turn.
            pair = ["off", "sampled"] if i % 2 == 0 else ["sampled", "off"]
            rest = KINDS[2:][i % 3:] + KINDS[2:][:i % 3]
            order = pair + rest if (i // 2) % 2 == 0 else rest + pair
            for what in order:
                if what == "fio":
                    got[what] = fio_iops(fio_target, engine, depth, [])
                    continue
                if what == "alone":
                    tracepoints_alone(target, True)
                try:
                    trace = TRACED.get(what, ["--trace-latency", "off"])
                    got[what] = flashmark_run(target, engine, depth,
                                              extra + trace)
                finally:
                    if what == "alone":
                        tracepoints_alone(target, False)
            off = got["off"]["summary"]["iops"]["median"]
            for kind in KINDS:
                value = got[kind] if kind == "fio" else \
                    got[kind]["summary"]["iops"]["median"]
                iops[kind].append(value)
                if kind in ratios:
                    ratios[kind].append(off / value if kind == "fio"
                                        else value / off)
                if kind in cpu:
                    summary = got[kind]["summary"]
                    ios = summary["read"]["ios"] + summary["write"]["ios"]
                    cpu[kind].append((summary["cpu_user_seconds"] +
                                      summary["cpu_system_seconds"]) * 1e6 /
                                     max(1, ios))
            for kind in TRACED:
                summary = got[kind]["summary"]
                split = summary.get("latency_split")
                if not split:
                    continue
                p50 = summary["latency"]["p50_ns"]
                at_p50[kind].append(sum(split["at_p50"].values()) / p50)
                if kind == "sampled":
                    ios = summary["read"]["ios"] + summary["write"]["ios"]
                    shares.append(split["device"]["count"] / max(1, ios))
        text = {k: spread(v) if v else "not traced" for k, v in at_p50.items()}
        share = f"1 in {1 / statistics.median(shares):.1f}" if shares else "-"
        print(f"{engine:<9} {depth:>3} {statistics.median(iops['off']):>8.0f} "
              f"{statistics.median(iops['fio']):>8.0f}  "
              f"{spread(ratios['sampled']):<20} {spread(ratios['every IO']):<20} "
              f"{spread(ratios['alone']):<20} {spread(ratios['fio']):<20} "
              f"{text['sampled']:<20} {text['every IO']:<20} {share:<14} " +
              ", ".join(f"{statistics.median(cpu[k]):.2f}" for k in cpu))


def measure_on_loop(name, image, direct_io):
    """Measures on a 1 GiB loop device over `image`, filled with random
    bytes, detached afterwards."""
    with open(image, "wb") as f:
        f.truncate(1 << 30)
    loop = subprocess.run(["losetup", "-f", "--show",
                           f"--direct-io={'on' if direct_io else 'off'}", image],
                          capture_output=True, text=True,
                          check=True).stdout.strip()
    try:
        subprocess.run(["dd", "if=/dev/urandom", f"of={loop}", "bs=1M",
                        "count=1024", "oflag=direct", "status=none"], check=True)
        measure(name, loop, loop, [])
    finally:
        subprocess.run(["losetup", "-d", loop], check=False)


def main():
    if os.geteuid() != 0:
        sys.exit("latency-trace-cost.py: tracing and loop devices need root")
    # Over memory, the highest IOPS and no disk's stalls: the worst case
    # for what the tracepoints cost.
    with tempfile.TemporaryDirectory(dir="/dev/shm") as memory:
        measure_on_loop("loop device over memory (/dev/shm)",
                        os.path.join(memory, "loop.img"), False)
    with tempfile.TemporaryDirectory(dir="/var/tmp") as work:
        measure_on_loop("loop device over this machine's disk",
                        os.path.join(work, "loop.img"), True)
        files = os.path.join(work, "fs")
        os.mkdir(files)
        # One 1 GiB file: fio reads the very file flashmark laid out.
        one_file = ["--size", "1G", "--file-num", "1", "--keep-files"]
        flashmark_run(files, "psync", 1, one_file + ["--trace-latency", "off"],
                      time="1")
        measure("files on this machine's disk", files,
                os.path.join(files, "flashmark.0"), one_file)


main()
