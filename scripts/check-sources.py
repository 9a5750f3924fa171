#!/usr/bin/env python3
"""The source gates of `make test`, over src/, in parallel, with a cache.

  scripts/check-sources.py tidy BUILD      clang-tidy (.clang-tidy states the
                                           checks) on every translation unit
                                           of the program's libraries
  scripts/check-sources.py includes BUILD  every src/ .cpp file compiled on
                                           its own (-fsyntax-only), as a
                                           build without unity batches would

The build compiles each target's files in unity batches (CMakeLists.txt:
FLASHMARK_UNITY), so clang-tidy checks a batch at once: the batch's .cpp
files are its headers, reported like any file under src/ (HeaderFilterRegex)
and parsed once, which takes about an eighth of the time of one file at a
time. A batch hides a missing #include that an earlier file of the batch
made, so `includes` compiles each file alone.

Cache: BUILD/source-check-cache/GATE/ holds one empty file per unit that
passed, named by a hash of everything that decides the result: the gate's
tool and version, its configuration, the command line, and the content of
every file the unit reads (from its dependency file). A unit whose inputs
are unchanged since it passed is not checked again; on a clean clone (no
cache) everything is. Exit status 1 when any unit has a finding (the
findings are printed), 2 on bad use.
"""

import concurrent.futures
import hashlib
import json
import os
import re
import shlex
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UNITY_INCLUDE = re.compile(r'^#include "([^"]+)"', re.M)
# The program's libraries and its main: what the gates cover (not the tests).
PROGRAM_TARGET = re.compile(r'CMakeFiles/flashmark(_[a-z]+)?\.dir/')


def fail_usage(message):
    print(f"check-sources: {message}", file=sys.stderr)
    sys.exit(2)


def load_units(build):
    path = os.path.join(build, "compile_commands.json")
    if not os.path.exists(path):
        fail_usage(f"no {path}: build first (make build)")
    with open(path) as f:
        entries = json.load(f)
    units = []
    for entry in entries:
        argv = shlex.split(entry["command"]) if "command" in entry else list(entry["arguments"])
        entry["argv"] = argv
        output = argv[argv.index("-o") + 1] if "-o" in argv else ""
        entry["output"] = output
        source = entry["file"]
        if not PROGRAM_TARGET.search(output):
            continue
        if "/generated/" in source:  # the embedded report assets
            continue
        units.append(entry)
    return units


def depfile_inputs(build, entry):
    """The files a compiled unit read, from its .o.d; None when unbuilt."""
    depfile = os.path.join(entry["directory"], entry["output"] + ".d")
    try:
        with open(depfile) as f:
            text = f.read().replace("\\\n", " ")
    except OSError:
        return None
    _, _, deps = text.partition(":")
    return sorted(set(deps.split()))


class ContentHashes:
    """sha256 of files, each read once per run."""

    def __init__(self):
        self.known = {}

    def of(self, path):
        if path not in self.known:
            digest = hashlib.sha256()
            try:
                with open(path, "rb") as f:
                    digest.update(f.read())
            except OSError:
                digest.update(b"<missing>")
            self.known[path] = digest.hexdigest()
        return self.known[path]


def unit_key(salt, command, inputs, hashes):
    digest = hashlib.sha256(salt.encode())
    digest.update(command.encode())
    for path in inputs:
        digest.update(path.encode())
        digest.update(hashes.of(path).encode())
    return digest.hexdigest()


def tool_version(argv):
    result = subprocess.run(argv + ["--version"], capture_output=True, text=True)
    return result.stdout.strip()


def tidy_jobs(build, units):
    """One clang-tidy run per unit (a unity batch or a file)."""
    config = os.path.join(ROOT, ".clang-tidy")
    with open(config) as f:
        salt = "tidy\n" + tool_version(["clang-tidy"]) + f.read()
    jobs = []
    for entry in units:
        argv = ["clang-tidy", "--quiet", f"--config-file={config}", "-p", build]
        if "/Unity/" in entry["file"]:
            # A unity batch includes its .cpp files by design.
            argv.append("--checks=-bugprone-suspicious-include")
        argv.append(entry["file"])
        name = os.path.relpath(entry["file"], build if "/Unity/" in entry["file"] else ROOT)
        jobs.append({"name": name, "argv": argv, "cwd": entry["directory"],
                     "salt": salt, "entry": entry, "inputs": depfile_inputs(build, entry)})
    return jobs


def includes_jobs(build, units):
    """One -fsyntax-only compile per src/ file, with its unity batch's flags."""
    salt = "includes\n" + tool_version(["c++"])
    scratch = os.path.join(build, "source-check-cache", "deps")
    os.makedirs(scratch, exist_ok=True)
    jobs = []
    for entry in units:
        argv = entry["argv"]
        sources = [entry["file"]]
        if "/Unity/" in entry["file"]:
            with open(entry["file"]) as f:
                sources = UNITY_INCLUDE.findall(f.read())
        base = []
        skip = False
        for arg in argv:
            if skip:
                skip = False
                continue
            if arg in ("-o", "-c", "-MF", "-MT", "-MQ"):
                skip = True
                continue
            if arg in ("-MD", "-MMD") or arg == entry["file"]:
                continue
            base.append(arg)
        for source in sources:
            depfile = os.path.join(scratch, hashlib.sha1(source.encode()).hexdigest() + ".d")
            command = base + ["-fsyntax-only", "-MD", "-MF", depfile, source]
            inputs = None
            if os.path.exists(depfile):
                with open(depfile) as f:
                    inputs = sorted(set(f.read().replace("\\\n", " ").partition(":")[2].split()))
            jobs.append({"name": os.path.relpath(source, ROOT), "argv": command,
                         "cwd": entry["directory"], "salt": salt, "entry": None,
                         "inputs": inputs})
    return jobs


def run(gate, build):
    build = os.path.abspath(build)
    units = load_units(build)
    if not units:
        fail_usage(f"{build}/compile_commands.json names no source of the program")
    jobs = tidy_jobs(build, units) if gate == "tidy" else includes_jobs(build, units)
    cache = os.path.join(build, "source-check-cache", gate)
    os.makedirs(cache, exist_ok=True)
    hashes = ContentHashes()
    todo = []
    for job in jobs:
        job["key"] = None
        if job["inputs"] is not None:
            job["key"] = unit_key(job["salt"], " ".join(job["argv"]), job["inputs"], hashes)
            if os.path.exists(os.path.join(cache, job["key"])):
                continue
        todo.append(job)

    start = time.monotonic()
    failed = []

    def check(job):
        result = subprocess.run(job["argv"], cwd=job["cwd"], capture_output=True, text=True)
        return job, result

    workers = os.cpu_count() or 2
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        for job, result in pool.map(check, todo):
            output = result.stdout + result.stderr
            found = gate == "includes" and result.returncode != 0
            if gate == "tidy":
                found = result.returncode != 0 or re.search(r": (warning|error): ", output)
            if found:
                failed.append(job["name"])
                print(f"== {job['name']}")
                print(output.strip()[:20000])
                continue
            # What it read now decides the key (a unit first checked
            # without a dependency file gets one the next time).
            inputs = job["inputs"]
            if gate == "includes":
                depfile = job["argv"][job["argv"].index("-MF") + 1]
                with open(depfile) as f:
                    inputs = sorted(set(f.read().replace("\\\n", " ").partition(":")[2].split()))
            if inputs is not None:
                key = unit_key(job["salt"], " ".join(job["argv"]), inputs, hashes)
                open(os.path.join(cache, key), "w").close()

    seconds = time.monotonic() - start
    what = "clang-tidy" if gate == "tidy" else "each file alone (-fsyntax-only)"
    cached = len(jobs) - len(todo)
    if failed:
        print(f"check-sources {gate}: {len(failed)} of {len(jobs)} units failed {what}: "
              + ", ".join(failed))
        return 1
    print(f"check-sources {gate}: src/ is clean: {len(todo)} units checked with {what} "
          f"in {seconds:.0f} s, {cached} unchanged since they passed (cache {cache})")
    return 0


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("tidy", "includes"):
        fail_usage("usage: scripts/check-sources.py tidy|includes BUILD")
    sys.exit(run(sys.argv[1], sys.argv[2]))


if __name__ == "__main__":
    main()
