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

Cache: a unit that passed is known by a hash of everything that decides
the result: the gate's tool and version, its configuration, the command
line, and the content of every file the unit reads (from the build's
dependency file of its unity batch: a file alone reads no more than its
batch). Paths under the source tree and the build are hashed relative to
them, and the string literals of generated headers are left out (the git
revision and date in version.h change at every commit), so a key is the
same on every clone. A unit whose key passed before is not checked again:
keys are kept in BUILD/source-check-cache/GATE/ (one empty file each) and
in scripts/source-checks.passed, which a run that passes rewrites with the
keys of every unit now (commit it with the change: a clean clone, as CI
runs, then checks only the units whose inputs changed). Exit status 1
when any unit has a finding (the findings are printed), 2 on bad use.
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
PASSED = os.path.join(ROOT, "scripts", "source-checks.passed")
STRING_LITERAL = re.compile(rb'"[^"\n]*"')
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
    """sha256 of files, each read once per run; a generated file (under
    the build) without its string literals."""

    def __init__(self, build):
        self.build = build
        self.known = {}

    def of(self, path):
        if path not in self.known:
            digest = hashlib.sha256()
            try:
                with open(path, "rb") as f:
                    content = f.read()
                if path.startswith(self.build + os.sep):
                    content = STRING_LITERAL.sub(b'""', content)
                digest.update(content)
            except OSError:
                digest.update(b"<missing>")
            self.known[path] = digest.hexdigest()
        return self.known[path]


def unit_key(salt, argv, inputs, hashes):
    """The same on every clone: the build and the source tree by name."""
    def portable(text):
        return text.replace(hashes.build, "@BUILD").replace(ROOT, "@ROOT")
    digest = hashlib.sha256(salt.encode())
    digest.update(portable(" ".join(argv)).encode())
    for path in inputs:
        digest.update(portable(path).encode())
        digest.update(hashes.of(path).encode())
    return digest.hexdigest()


def load_passed():
    """{(gate, key)} from scripts/source-checks.passed."""
    passed = set()
    if os.path.exists(PASSED):
        with open(PASSED) as f:
            for line in f:
                fields = line.split()
                if len(fields) >= 2 and not line.startswith("#"):
                    passed.add((fields[0], fields[1]))
    return passed


def save_passed(gate, jobs):
    """Rewrites the gate's lines of scripts/source-checks.passed."""
    kept = []
    if os.path.exists(PASSED):
        with open(PASSED) as f:
            kept = [line for line in f if line.split()[:1] != [gate] and not line.startswith("#")]
    lines = kept + [f"{gate} {job['key']} {job['name']}\n" for job in jobs if job["key"]]
    with open(PASSED + ".tmp", "w") as f:
        f.write("# Keys of the src/ units that passed each gate of scripts/check-sources.py\n"
                "# (rewritten by a run that passes; commit it with the change).\n")
        f.writelines(sorted(lines, key=lambda line: (line.split()[0], line.split()[2])))
    os.replace(PASSED + ".tmp", PASSED)


def tool_version(argv):
    """Its --version, without what names this machine (LLVM's Host CPU)."""
    result = subprocess.run(argv + ["--version"], capture_output=True, text=True)
    return "\n".join(line for line in result.stdout.strip().splitlines() if "Host CPU" not in line)


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
        inputs = depfile_inputs(build, entry)
        for source in sources:
            jobs.append({"name": os.path.relpath(source, ROOT),
                         "argv": base + ["-fsyntax-only", source],
                         "cwd": entry["directory"], "salt": salt, "inputs": inputs})
    return jobs


def run(gate, build):
    build = os.path.abspath(build)
    units = load_units(build)
    if not units:
        fail_usage(f"{build}/compile_commands.json names no source of the program")
    jobs = tidy_jobs(build, units) if gate == "tidy" else includes_jobs(build, units)
    cache = os.path.join(build, "source-check-cache", gate)
    os.makedirs(cache, exist_ok=True)
    hashes = ContentHashes(build)
    passed = load_passed()
    todo = []
    for job in jobs:
        job["key"] = None
        if job["inputs"] is not None:
            job["key"] = unit_key(job["salt"], job["argv"], job["inputs"], hashes)
            if (gate, job["key"]) in passed or os.path.exists(os.path.join(cache, job["key"])):
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
            if job["key"]:
                open(os.path.join(cache, job["key"]), "w").close()

    seconds = time.monotonic() - start
    what = "clang-tidy" if gate == "tidy" else "each file alone (-fsyntax-only)"
    cached = len(jobs) - len(todo)
    if failed:
        print(f"check-sources {gate}: {len(failed)} of {len(jobs)} units failed {what}: "
              + ", ".join(failed))
        return 1
    save_passed(gate, jobs)
    print(f"check-sources {gate}: src/ is clean: {len(todo)} units checked with {what} "
          f"in {seconds:.0f} s, {cached} unchanged since they passed "
          f"(keys in {cache} and {os.path.relpath(PASSED, ROOT)})")
    return 0


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("tidy", "includes"):
        fail_usage("usage: scripts/check-sources.py tidy|includes BUILD")
    sys.exit(run(sys.argv[1], sys.argv[2]))


if __name__ == "__main__":
    main()
