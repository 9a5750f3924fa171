#!/usr/bin/env python3
"""scripts/check-sources.py on a tree of its own (two copies of one small
program at different paths): a missing #include is found; a unit that
passed is known by the same key on every clone, so the second clone checks
nothing; changing a header the unit reads checks it again; the git revision
in a generated version.h does not.
  tests/scripts/check_sources_test.py
"""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
spec = importlib.util.spec_from_file_location("check_sources", os.path.join(ROOT, "scripts", "check-sources.py"))
gates = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gates)

failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)
        print(f"FAILED: {what}")


def make_clone(top, version):
    """A source tree and its build: one unity batch of two files, the
    second using std::vector that only the first includes."""
    src = os.path.join(top, "src")
    build = os.path.join(top, "build")
    batch_dir = os.path.join(build, "CMakeFiles", "flashmark_demo.dir", "Unity")
    os.makedirs(src)
    os.makedirs(batch_dir)
    os.makedirs(os.path.join(build, "generated"))
    with open(os.path.join(src, "shapes.h"), "w") as f:
        f.write("#pragma once\nint Area(int side);\n")
    with open(os.path.join(src, "first.cpp"), "w") as f:
        f.write('#include <vector>\n#include "shapes.h"\nint Area(int side) { return side * side; }\n')
    with open(os.path.join(src, "second.cpp"), "w") as f:
        f.write('#include "shapes.h"\n#include "version.h"\nint Count() { std::vector<int> v(3); return static_cast<int>(v.size()); }\n')
    with open(os.path.join(build, "generated", "version.h"), "w") as f:
        f.write(f'#pragma once\ninline constexpr const char* kGitRevision = "{version}";\n')
    batch = os.path.join(batch_dir, "unity_0_cxx.cxx")
    with open(batch, "w") as f:
        f.write(f'#include "{src}/first.cpp"\n#include "{src}/second.cpp"\n')
    output = "CMakeFiles/flashmark_demo.dir/Unity/unity_0_cxx.cxx.o"
    command = ["c++", "-std=c++20", f"-I{src}", f"-I{build}/generated", "-o", output, "-c", batch]
    with open(os.path.join(build, "compile_commands.json"), "w") as f:
        json.dump([{"directory": build, "command": " ".join(command), "file": batch, "output": output}], f)
    # The build's dependency file, as the compiler writes it.
    deps = subprocess.run(command[:-4] + ["-M", batch], cwd=build, capture_output=True, text=True, check=True)
    with open(os.path.join(build, output + ".d"), "w") as f:
        f.write(deps.stdout)
    return src, build


def gate_keys(gate, build):
    units = gates.load_units(build)
    jobs = gates.includes_jobs(build, units)
    hashes = gates.ContentHashes(build)
    return {job["name"].split("/")[-1]: gates.unit_key(job["salt"], job["argv"], job["inputs"], hashes) for job in jobs}


with tempfile.TemporaryDirectory() as scratch:
    gates.PASSED = os.path.join(scratch, "source-checks.passed")
    src_a, build_a = make_clone(os.path.join(scratch, "a"), "1111aaaa")
    src_b, build_b = make_clone(os.path.join(scratch, "elsewhere", "b"), "2222bbbb")

    # The second file alone lacks <vector>: found, exit status 1.
    gates.ROOT = os.path.join(scratch, "a")
    result = gates.run("includes", build_a)
    expect(result == 1, f"a file missing <vector> fails the include check (status {result})")

    for src in (src_a, src_b):
        path = os.path.join(src, "second.cpp")
        with open(path) as f:
            text = f.read()
        with open(path, "w") as f:
            f.write("#include <vector>\n" + text)
    gates.ROOT = os.path.join(scratch, "a")
    keys_a = gate_keys("includes", build_a)
    expect(gates.run("includes", build_a) == 0, "the mended tree passes")
    with open(gates.PASSED) as f:
        saved = f.read()
    expect(all(key in saved for key in keys_a.values()), "each passing unit's key is kept in source-checks.passed")

    gates.ROOT = os.path.join(scratch, "elsewhere", "b")
    keys_b = gate_keys("includes", build_b)
    expect(keys_a == keys_b, f"the same sources at another path and revision give the same keys: {keys_a} {keys_b}")
    todo = [name for name, key in keys_b.items() if ("includes", key) not in gates.load_passed()]
    expect(todo == [], f"a clean clone elsewhere checks nothing that passed: {todo}")

    with open(os.path.join(src_b, "shapes.h"), "a") as f:
        f.write("int Perimeter(int side);\n")
    changed = gate_keys("includes", build_b)
    expect(all(changed[name] != keys_b[name] for name in keys_b), "a changed header gives new keys to the units that read it")

    with open(os.path.join(build_b, "generated", "version.h"), "w") as f:
        f.write('#pragma once\ninline constexpr const char* kGitRevision = "1111aaaa";\ninline int kNew = 1;\n')
    expect(gate_keys("includes", build_b) != changed, "a generated header's code (not its strings) is part of the key")

if failures:
    print(f"{len(failures)} check(s) failed")
    sys.exit(1)
print("check-sources: keys portable across clones, findings and changes detected")
