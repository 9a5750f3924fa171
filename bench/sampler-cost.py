#!/usr/bin/env python3
"""What recording costs (issue 41): for each (threads, interval) cell, a
null-engine run (no device: the workers only make IOs) and, read from
/proc near its end, the CPU of the sampler (the main thread) and of the
other flashmark threads that are not workers (output, telemetry), as a
share of one core; then, from the run's JSON, how many intervals were
merged into longer samples (the sampler could not run) and how late each
full interval ended past its k x interval boundary (median and max).

    bench/sampler-cost.py [build/flashmark] [--time 5]

Goals: < 1 % of a core at 1 s intervals and 64 threads; every 1 ms
interval kept at 16 threads on 2 cores. No fio beside it: fio has no
per-interval sampler to compare (its log_avg_msec logs are written by the
workers)."""
import json
import os
import subprocess
import sys
import tempfile
import time

flashmark = sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("--") else "build/flashmark"
seconds = float(sys.argv[sys.argv.index("--time") + 1]) if "--time" in sys.argv else 5.0
ticks = os.sysconf("SC_CLK_TCK")
cells = [(64, "1s"), (64, "100ms"), (16, "10ms"), (16, "1ms"), (2, "1ms")]


def thread_cpu(pid):
    """{tid: (name, cpu seconds)} of the process's threads now."""
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2:].split()
        out[int(tid)] = (name, (int(fields[11]) + int(fields[12])) / ticks)
    return out


print(f"{'threads':>7} {'interval':>8}  {'sampler %core':>13} {'others %core':>12}"
      f"  {'intervals':>9} {'merged':>6}  {'late p50 us':>11} {'late max us':>11}")
for threads, interval in cells:
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run.json")
        proc = subprocess.Popen([flashmark, "run", "--engine", "null", "--threads", str(threads),
                                 "--interval", interval, "--time", f"{seconds}s", "--no-db", "-q",
                                 "--json", out], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.5)
        first, t0 = thread_cpu(proc.pid), time.monotonic()
        time.sleep(seconds - 1.0)
        last, t1 = thread_cpu(proc.pid), time.monotonic()
        proc.wait()
        span = t1 - t0
        sampler = (last[proc.pid][1] - first[proc.pid][1]) / span * 100
        others = sum(cpu - first.get(tid, (name, 0))[1] for tid, (name, cpu) in last.items()
                     if tid != proc.pid and not name.startswith("fm-worker")) / span * 100
        with open(out) as f:
            run = json.load(f)
    step = {"s": 1.0, "ms": 1e-3}[interval.lstrip("0123456789")] * float(interval.rstrip("ms"))
    full = [i for i in run["intervals"] if not i.get("partial")]
    merged = sum(1 for i in full if i.get("spans", 1) > 1)
    late = sorted((i["end"] - round(i["end"] / step) * step) * 1e6 for i in full)
    print(f"{threads:>7} {interval:>8}  {sampler:>13.2f} {others:>12.2f}  {len(full):>9} {merged:>6}"
          f"  {late[len(late) // 2]:>11.0f} {late[-1]:>11.0f}")
