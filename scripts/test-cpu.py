#!/usr/bin/env python3
"""The CPU time of each test of a build: every test ctest lists (its
command, environment and directory from `ctest --show-only=json-v1`), run
JOBS at a time, each timed by the rusage of its process and everything it
waited for (os.wait4): wall, user and system seconds and minor page
faults, one tab-separated line per test, then the totals. For finding what
makes `make test` slow; ignores ctest's RUN_SERIAL and RESOURCE_LOCK.
  scripts/test-cpu.py BUILD [JOBS] [--exclude REGEX] [--only REGEX]
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import time


def tests_of(build, exclude, only):
    listing = json.loads(subprocess.check_output(["ctest", "--show-only=json-v1"], cwd=build))
    for test in listing["tests"]:
        name = test["name"]
        if (exclude and re.search(exclude, name)) or (only and not re.search(only, name)):
            continue
        env, cwd = dict(os.environ), build
        for prop in test.get("properties", []):
            if prop["name"] == "ENVIRONMENT":
                env.update(kv.split("=", 1) for kv in prop["value"])
            elif prop["name"] == "WORKING_DIRECTORY":
                cwd = prop["value"]
        yield name, test["command"], env, cwd


def timed(test):
    name, command, env, cwd = test
    start = time.monotonic()
    child = subprocess.Popen(command, env=env, cwd=cwd, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    return (name, time.monotonic() - start, usage.ru_utime, usage.ru_stime,
            usage.ru_minflt, child.returncode)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build")
    parser.add_argument("jobs", nargs="?", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--exclude")
    parser.add_argument("--only")
    args = parser.parse_args()
    if not os.path.exists(os.path.join(args.build, "CTestTestfile.cmake")):
        print(f"test-cpu: {args.build} is not a build with tests (no CTestTestfile.cmake)", file=sys.stderr)
        sys.exit(2)
    totals = [0.0, 0.0, 0.0, 0]
    print("test\twall_s\tuser_s\tsys_s\tminflt\texit")
    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for name, wall, user, system, faults, code in pool.map(
                timed, list(tests_of(args.build, args.exclude, args.only))):
            print(f"{name}\t{wall:.2f}\t{user:.2f}\t{system:.2f}\t{faults}\t{code}", flush=True)
            for i, value in enumerate((wall, user, system, faults)):
                totals[i] += value
    print(f"# {time.monotonic() - start:.0f} s wall at {args.jobs} at a time; the tests' own: "
          f"{totals[0]:.0f} s wall, {totals[1] + totals[2]:.0f} CPU-s ({totals[1]:.0f} user, "
          f"{totals[2]:.0f} system), {totals[3]} page faults", file=sys.stderr)


if __name__ == "__main__":
    main()
