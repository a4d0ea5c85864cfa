#!/usr/bin/env python3
"""Mutation check: prove each lockstep testbench catches deliberately broken RTL.

For every block with tb/<b>/mutants.json, the pristine RTL is copied to a scratch tree,
the block's bench is built once against it (one parameter set, no tracing), and then each
mutant is applied alone. A mutant counts as KILLED only if it lints clean under
`verilator --lint-only -Wall`, compiles, and the lockstep run then reports a mismatch
(exit code 3). Anything else (survived, lint-dirty, does not build, crashed) fails the check.

Usage: mutants.py [--build DIR] [block ...]
"""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import time

import ll_rtl  # scripts/ll_rtl.py: the one RTL file-list rule

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MISMATCH = 3


def die(msg):
    print(f"mutants: error: {msg}", file=sys.stderr)
    sys.exit(2)


def rtl_files(rtl_root, block):
    return ll_rtl.files(block, rtl_root)


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)


def load(block):
    path = os.path.join(ROOT, "tb", block, "mutants.json")
    try:
        with open(path) as f:
            spec = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        die(f"{path}: {e}")
    for key in ("set", "cycles", "mutants"):
        if key not in spec:
            die(f"{path}: missing key '{key}'")
    ids = set()
    for m in spec["mutants"]:
        for key in ("id", "file", "find", "replace", "why"):
            if key not in m:
                die(f"{path}: mutant {m.get('id', '?')}: missing key '{key}'")
        if m["id"] in ids:
            die(f"{path}: duplicate mutant id {m['id']}")
        ids.add(m["id"])
        src = os.path.join(ROOT, m["file"])
        if not os.path.isfile(src):
            die(f"{path}: mutant {m['id']}: file {m['file']} not found")
        n = open(src).read().count(m["find"])
        if n != 1:
            die(f"{path}: mutant {m['id']}: 'find' text occurs {n} times in {m['file']} (must be exactly once)")
    return spec


def check_block(block, build_root, jobs):
    spec = load(block)
    work = os.path.join(build_root, block)
    rtl_copy = os.path.join(work, "rtl")
    bdir = os.path.join(work, "build")
    if os.path.isdir(rtl_copy):
        shutil.rmtree(rtl_copy)
    # Plain copies with fresh timestamps (not copy2): a run interrupted while a mutant was
    # built leaves outputs newer than the sources' original times, and a time-preserving
    # copy would let ninja reuse that mutated build as the "unmutated" baseline.
    shutil.copytree(os.path.join(ROOT, "rtl"), rtl_copy, copy_function=shutil.copy)
    cfg = run(["cmake", "-S", ROOT, "-B", bdir, "-G", "Ninja", f"-DLL_RTL_ROOT={rtl_copy}",
               f"-DLL_BLOCKS={block}", f"-DLL_TB_SETS={spec['set']}", "-DLL_TRACE=OFF",
               "-DLL_BUILD_SIM=OFF", "-DLL_BUILD_MODEL_TESTS=OFF"])
    if cfg.returncode:
        print(cfg.stdout)
        die(f"{block}: cmake configure failed")
    exe = os.path.join(bdir, "tb", block, f"tb_{block}")
    bench = [exe, "--set", spec["set"], "--seed", str(spec.get("seed", 1)),
             "--cycles", str(spec["cycles"]), "--no-wave", "--out", work]
    vlt = sorted(glob.glob(os.path.join(rtl_copy, block, "*.vlt")))

    def build():
        return run(["ninja", "-C", bdir, f"-j{jobs}", f"tb_{block}"])

    b = build()
    if b.returncode:
        print(b.stdout[-4000:])
        die(f"{block}: the unmutated bench does not build")
    r = run(bench, env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"))
    if r.returncode != 0:
        print(r.stdout[-4000:])
        die(f"{block}: the unmutated RTL does not pass its own bench (exit {r.returncode})")

    results = []
    for m in spec["mutants"]:
        t0 = time.time()
        path = os.path.join(rtl_copy, os.path.relpath(m["file"], "rtl"))
        pristine = open(path).read()
        with open(path, "w") as f:
            f.write(pristine.replace(m["find"], m["replace"], 1))
        try:
            verdict, note = judge(spec, block, rtl_copy, vlt, build, bench)
        finally:
            with open(path, "w") as f:
                f.write(pristine)
        results.append((m["id"], verdict, time.time() - t0, note))
        print(f"  {block:8s} {m['id']:28s} {verdict:8s} {time.time() - t0:5.1f}s  {note}", flush=True)
    # leave the scratch bench built from pristine RTL
    build()
    return results


def judge(spec, block, rtl_copy, vlt, build, bench):
    """The verdict on the mutated RTL in rtl_copy: lint, build (build()), run the bench."""
    lint = run(["verilator", "--lint-only", "-Wall", *vlt, *rtl_files(rtl_copy, block),
                "--top-module", spec.get("top", block_top(block))])
    if lint.returncode:
        return "INVALID", "lint: " + first_line(lint.stdout, "%")
    b = build()
    if b.returncode:
        return "INVALID", "build: " + first_line(b.stdout, "error")
    r = run(bench, env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"))
    if r.returncode == MISMATCH:
        return "killed", first_line(r.stdout, "MISMATCH")
    if r.returncode == 0:
        return "SURVIVED", f"{spec['cycles']} cycles without a mismatch"
    return "INVALID", f"bench exit {r.returncode}: " + first_line(r.stdout, "rror")


def check_one(block, mutant_id, work, log, jobs=1):
    """One job of scripts/jobs.py: a fresh scratch tree in work, with the mutant applied
    (mutant_id None: the unmutated RTL, verdict "pass" when its bench passes), built and
    judged alone. Returns (verdict, note); the tools' output goes to log."""
    spec = load(block)
    rtl_copy, bdir = os.path.join(work, "rtl"), os.path.join(work, "build")
    if os.path.isdir(rtl_copy):
        shutil.rmtree(rtl_copy)
    shutil.copytree(os.path.join(ROOT, "rtl"), rtl_copy, copy_function=shutil.copy)
    if mutant_id is not None:
        ms = [m for m in spec["mutants"] if m["id"] == mutant_id]
        if not ms:
            return "INVALID", f"no mutant {mutant_id} in tb/{block}/mutants.json"
        path = os.path.join(rtl_copy, os.path.relpath(ms[0]["file"], "rtl"))
        with open(path) as f:
            text = f.read()
        with open(path, "w") as f:
            f.write(text.replace(ms[0]["find"], ms[0]["replace"], 1))

    def logged(p):
        log.write(p.stdout[-20000:])
        return p

    cfg = logged(run(["cmake", "-S", ROOT, "-B", bdir, "-G", "Ninja", f"-DLL_RTL_ROOT={rtl_copy}",
                      f"-DLL_BLOCKS={block}", f"-DLL_TB_SETS={spec['set']}", "-DLL_TRACE=OFF",
                      "-DLL_BUILD_SIM=OFF", "-DLL_BUILD_MODEL_TESTS=OFF"]))
    if cfg.returncode:
        return "INVALID", "cmake configure failed"
    bench = [os.path.join(bdir, "tb", block, f"tb_{block}"), "--set", spec["set"], "--seed", str(spec.get("seed", 1)),
             "--cycles", str(spec["cycles"]), "--no-wave", "--out", work]
    vlt = sorted(glob.glob(os.path.join(rtl_copy, block, "*.vlt")))

    def build():
        return logged(run(["ninja", "-C", bdir, f"-j{jobs}", f"tb_{block}"]))
    if mutant_id is None:
        if build().returncode:
            return "FAIL", "the unmutated bench does not build"
        r = logged(run(bench, env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")))
        if r.returncode != 0:
            return "FAIL", f"the unmutated RTL does not pass its own bench (exit {r.returncode})"
        return "pass", f"{spec['cycles']} cycles, no mismatch"
    return judge(spec, block, rtl_copy, vlt, build, bench)


def blocks_with_mutants():
    return sorted(os.path.basename(os.path.dirname(p)) for p in glob.glob(os.path.join(ROOT, "tb", "*", "mutants.json")))


def block_top(block):
    # the block's top is declared in its tb CMakeLists (TOP <module>)
    text = open(os.path.join(ROOT, "tb", block, "CMakeLists.txt")).read()
    toks = text.split()
    if "TOP" not in toks:
        die(f"tb/{block}/CMakeLists.txt: no TOP <module> in ll_lockstep_tb()")
    return toks[toks.index("TOP") + 1]


def first_line(text, key):
    for line in text.splitlines():
        if key in line:
            return line.strip()[:160]
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1].strip()[:160] if lines else ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("blocks", nargs="*")
    ap.add_argument("--build", default=os.path.join(ROOT, "build-mutants"))
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    a = ap.parse_args()
    blocks = a.blocks or blocks_with_mutants()
    if not blocks:
        die("no tb/<block>/mutants.json found")
    t0 = time.time()
    total = killed = 0
    summary = []
    for b in blocks:
        if not os.path.isfile(os.path.join(ROOT, "tb", b, "mutants.json")):
            die(f"block '{b}' has no tb/{b}/mutants.json")
        print(f"mutants: {b}", flush=True)
        res = check_block(b, a.build, a.jobs)
        k = sum(1 for r in res if r[1] == "killed")
        summary.append((b, k, len(res)))
        total += len(res)
        killed += k
    print("")
    for b, k, n in summary:
        print(f"mutants: {b}: {k}/{n} killed")
    print(f"mutants: {killed}/{total} killed in {time.time() - t0:.0f} s")
    print(f"{killed} passed, {total - killed} failed")
    sys.exit(0 if killed == total else 1)


if __name__ == "__main__":
    main()
