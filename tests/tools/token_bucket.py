#!/usr/bin/env python3
"""A burst bucket on a block device, for testing flashmark --detect-throttle.

Runs COMMAND in a new cgroup and, every --tick (100 ms), sets the cgroup's
IOPS limit on DEVICE from a token bucket, as a cloud volume's burst
credits work (the model of src/analysis/throttle_finder.h):
  - --burst IOPS while the bucket holds credits, --baseline IOPS once not;
  - credits are IOs above the baseline: a full bucket is
    (burst - baseline) x --burst-seconds of them;
  - each tick, the IOs done above the baseline while loaded are spent, and
    --refill credits per second come back for the idle part of the tick
    (the IOs a limited tick could not have done), up to a full bucket.
cgroup v2 io.max where the io controller is available (`io` in
cgroup.controllers), else cgroup v1 blkio.throttle.{read,write}_iops_device.
Exit status: COMMAND's; 2 with a message when no cgroup can limit the
device here (no io controller, no blkio hierarchy, no permission).
"""
import argparse
import os
import subprocess
import sys
import time


def fail(message, hint):
    sys.stderr.write(f"token_bucket: error: {message} ({hint})\n")
    sys.exit(2)


def mounts():
    with open("/proc/self/mounts") as f:
        for line in f:
            fields = line.split()
            yield fields[1], fields[2], fields[3].split(",")


class V2:
    def __init__(self, root, device):
        self.device = device
        self.path = os.path.join(root, f"flashmark-bucket-{os.getpid()}")
        with open(os.path.join(root, "cgroup.subtree_control"), "w") as f:
            f.write("+io")
        os.mkdir(self.path)

    def limit(self, iops):
        with open(os.path.join(self.path, "io.max"), "w") as f:
            value = iops if iops > 0 else "max"
            f.write(f"{self.device} riops={value} wiops={value}\n")

    def ios(self):
        with open(os.path.join(self.path, "io.stat")) as f:
            for line in f:
                fields = line.split()
                if fields and fields[0] == self.device:
                    values = dict(kv.split("=") for kv in fields[1:])
                    return int(values.get("rios", 0)) + int(values.get("wios", 0))
        return 0


class V1:
    def __init__(self, root, device):
        self.device = device
        self.path = os.path.join(root, f"flashmark-bucket-{os.getpid()}")
        os.mkdir(self.path)

    def limit(self, iops):
        for name in ("read_iops_device", "write_iops_device"):
            with open(os.path.join(self.path, "blkio.throttle." + name), "w") as f:
                f.write(f"{self.device} {iops}\n")

    def ios(self):
        with open(os.path.join(self.path, "blkio.throttle.io_serviced")) as f:
            for line in f:
                fields = line.split()
                if len(fields) == 3 and fields[0] == self.device and fields[1] == "Total":
                    return int(fields[2])
        return 0


def open_cgroup(device):
    if os.geteuid() != 0:
        fail("changing a cgroup's IO limits needs root", "run as root")
    v1_root = None
    for point, kind, options in mounts():
        if kind == "cgroup2":
            controllers = os.path.join(point, "cgroup.controllers")
            with open(controllers) as f:
                if "io" in f.read().split():
                    return V2(point, device)
        if kind == "cgroup" and "blkio" in options:
            v1_root = point
    if v1_root:
        return V1(v1_root, device)
    fail("no cgroup here can limit a device's IOPS: cgroup v2 without the io "
         "controller and no cgroup v1 blkio hierarchy",
         "enable the io controller (cgroup_enable / systemd's "
         "DefaultIOAccounting) or mount the blkio hierarchy")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--device", required=True, help="/dev/loopN")
    parser.add_argument("--burst", type=int, required=True, help="IOPS")
    parser.add_argument("--baseline", type=int, required=True, help="IOPS")
    parser.add_argument("--burst-seconds", type=float, required=True)
    parser.add_argument("--refill", type=float, required=True,
                        help="credits (IOs above the baseline) per idle s")
    parser.add_argument("--tick", type=float, default=0.1, help="seconds")
    parser.add_argument("--trace", help="write each tick here")
    parser.add_argument("command", nargs="+")
    args = parser.parse_args()
    if not 0 < args.baseline < args.burst:
        fail(f"--baseline {args.baseline} must lie between 0 and --burst "
             f"{args.burst}", "e.g. --burst 2000 --baseline 500")
    try:
        st = os.stat(args.device)
    except OSError as e:
        fail(f"--device {args.device}: {e.strerror}", "name a block device")
    device = f"{os.major(st.st_rdev)}:{os.minor(st.st_rdev)}"
    try:
        group = open_cgroup(device)
    except PermissionError as e:
        fail(f"cgroup: {e}", "run as root")
    capacity = (args.burst - args.baseline) * args.burst_seconds
    credits = capacity
    limit = args.burst
    trace = open(args.trace, "w") if args.trace else None
    try:
        group.limit(limit)
        procs = os.path.join(group.path, "cgroup.procs")

        def enter():
            # COMMAND runs as it would have: not real-time.
            os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
            with open(procs, "w") as f:
                f.write(str(os.getpid()))

        # The bucket ticks on time on a busy machine (a late tick is a
        # longer burst): real-time priority; it sleeps between ticks.
        try:
            os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(10))
        except OSError:
            pass

        child = subprocess.Popen(args.command, preexec_fn=enter)
        last_ios = group.ios()
        last = time.monotonic()
        start = last
        while child.poll() is None:
            time.sleep(max(0.0, last + args.tick - time.monotonic()))
            now = time.monotonic()
            ios = group.ios()
            done, dt = ios - last_ios, now - last
            last_ios, last = ios, now
            # A tick that did fewer IOs than its limit allows was partly
            # idle: the loaded part is done / limit.
            loaded = dt if done >= 0.8 * limit * dt else done / limit
            credits -= max(0.0, done - args.baseline * loaded)
            credits = min(capacity, credits + args.refill * (dt - loaded))
            wanted = args.burst if credits > 0 else args.baseline
            if wanted != limit:
                limit = wanted
                group.limit(limit)
            if trace:
                trace.write(f"{now - start:.3f} {done} {credits:.0f} {limit}\n")
        return child.returncode
    finally:
        if trace:
            trace.close()
        try:
            group.limit(0)
        except OSError:
            pass
        for _ in range(50):
            try:
                os.rmdir(group.path)
                break
            except OSError:
                time.sleep(0.1)


if __name__ == "__main__":
    sys.exit(main())
