#!/usr/bin/env python3
"""Mutation check: prove each lockstep testbench catches deliberately broken RTL.

For every block with tb/<b>/mutants.json, the pristine RTL is copied to a scratch tree and
each mutant is applied alone. A mutant counts as KILLED only if it lints clean under
`verilator --lint-only -Wall`, compiles, and a lockstep run then reports a mismatch
(exit code 3) or is stopped by an RTL assertion (e.g. the RAM bounds check). It is tried on the mutation set (mutants.json "set") with every CI seed
(the SEEDS of tb/<b>/CMakeLists.txt), then on every other parameter set with every seed,
stopping at the first kill, which is printed (set and seed). Each set's scratch bench is
built from pristine RTL and must pass every seed first; the sets after the first are
built only when a mutant survives the earlier ones. Anything else (survived everywhere,
lint-dirty, does not build, crashed) fails the check.

Usage: mutants.py [--build DIR] [block ...]
"""
import argparse
import glob
import json
import os
import re
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


def ci_sets_and_seeds(block):
    """The parameter-set names and the CI seeds of tb/<block>/CMakeLists.txt (the first
    ll_lockstep_tb() call: the block's main bench)."""
    text = open(os.path.join(ROOT, "tb", block, "CMakeLists.txt")).read()
    call = text[text.index("ll_lockstep_tb("):]
    call = call[:call.index(")\n") + 1]
    sets = re.findall(r'"(\w+):', call)
    m = re.search(r"SEEDS((?:\s+\d+)+)", call)
    seeds = [int(x) for x in m.group(1).split()] if m else [1]
    if not sets:
        die(f"tb/{block}/CMakeLists.txt: no SETS in ll_lockstep_tb()")
    return sets, seeds


class SetBench:
    """One parameter set's scratch build of the block's bench (configured with only that
    set), built from pristine RTL and checked to pass every seed before any mutant runs."""

    def __init__(self, block, name, spec, work, rtl_copy, jobs, seeds):
        self.block, self.name, self.jobs, self.seeds = block, name, jobs, seeds
        self.bdir = os.path.join(work, f"build-{name}")
        cfg = run(["cmake", "-S", ROOT, "-B", self.bdir, "-G", "Ninja", f"-DLL_RTL_ROOT={rtl_copy}",
                   f"-DLL_BLOCKS={block}", f"-DLL_TB_SETS={name}", "-DLL_TRACE=OFF",
                   "-DLL_BUILD_SIM=OFF", "-DLL_BUILD_MODEL_TESTS=OFF"])
        if cfg.returncode:
            print(cfg.stdout)
            die(f"{block}: cmake configure failed (set {name})")
        self.exe = os.path.join(self.bdir, "tb", block, f"tb_{block}")
        self.cycles = str(spec["cycles"])
        self.out = work
        b = self.build()
        if b.returncode:
            print(b.stdout[-4000:])
            die(f"{block}: the unmutated bench does not build (set {name})")
        for seed in seeds:
            r = self.run(seed)
            if r.returncode != 0:
                print(r.stdout[-4000:])
                die(f"{block}: the unmutated RTL does not pass its own bench (set {name} seed {seed}, exit {r.returncode})")

    def build(self):
        return run(["ninja", "-C", self.bdir, f"-j{self.jobs}", f"tb_{self.block}"])

    def run(self, seed):
        return run([self.exe, "--set", self.name, "--seed", str(seed), "--cycles", self.cycles,
                    "--no-wave", "--out", self.out],
                   env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"))


def check_block(block, build_root, jobs, only=None):
    """Each mutant is tried on the mutation set (mutants.json "set") with every CI seed,
    then on every other parameter set of the bench with every CI seed, stopping at the
    first kill: a bug only one set exposes is not reported as a survivor. The other sets'
    scratch builds are made only when a mutant first survives the earlier ones."""
    spec = load(block)
    work = os.path.join(build_root, block)
    rtl_copy = os.path.join(work, "rtl")
    if os.path.isdir(rtl_copy):
        shutil.rmtree(rtl_copy)
    # Plain copies with fresh timestamps (not copy2): a run interrupted while a mutant was
    # built leaves outputs newer than the sources' original times, and a time-preserving
    # copy would let ninja reuse that mutated build as the "unmutated" baseline.
    shutil.copytree(os.path.join(ROOT, "rtl"), rtl_copy, copy_function=shutil.copy)
    sets, seeds = ci_sets_and_seeds(block)
    if spec["set"] not in sets:
        die(f"tb/{block}/mutants.json: set '{spec['set']}' is not a set of tb/{block}/CMakeLists.txt")
    first = spec.get("seed", seeds[0])
    seeds = [first] + [s for s in seeds if s != first]
    order = [spec["set"]] + [s for s in sets if s != spec["set"]]
    benches = {}
    vlt = sorted(glob.glob(os.path.join(rtl_copy, block, "*.vlt")))

    def bench(name):  # built from pristine RTL: call only while no mutant is applied
        if name not in benches:
            benches[name] = SetBench(block, name, spec, work, rtl_copy, jobs, seeds)
        return benches[name]

    bench(order[0])
    results = []
    for m in spec["mutants"]:
        if only and m["id"] not in only:
            continue
        t0 = time.time()
        path = os.path.join(rtl_copy, os.path.relpath(m["file"], "rtl"))
        pristine = open(path).read()
        mutated = pristine.replace(m["find"], m["replace"], 1)
        verdict, note = "SURVIVED", ""
        for si, name in enumerate(order):
            sb = bench(name)  # pristine here (restored below after every set)
            with open(path, "w") as f:
                f.write(mutated)
            try:
                if si == 0:
                    lint = run(["verilator", "--lint-only", "-Wall", *vlt, *rtl_files(rtl_copy, block),
                                "--top-module", spec.get("top", block_top(block))])
                    if lint.returncode:
                        verdict, note = "INVALID", "lint: " + first_line(lint.stdout, "%")
                        break
                b = sb.build()
                if b.returncode:
                    verdict, note = "INVALID", f"build (set {name}): " + first_line(b.stdout, "error")
                    break
                for seed in seeds:
                    r = sb.run(seed)
                    if r.returncode == MISMATCH:
                        verdict, note = "killed", f"set {name} seed {seed}: " + first_line(r.stdout, "MISMATCH")
                        break
                    if r.returncode != 0 and assertion_stop(r.stdout):
                        verdict, note = "killed", f"set {name} seed {seed}: RTL assertion: " + first_line(r.stdout, "%Error")
                        break
                    if r.returncode != 0:
                        verdict, note = "INVALID", f"set {name} seed {seed}: bench exit {r.returncode}: " + first_line(r.stdout, "rror")
                        break
            finally:
                with open(path, "w") as f:
                    f.write(pristine)
            if verdict != "SURVIVED":
                break
        if verdict == "SURVIVED":
            note = f"no mismatch on any set ({', '.join(order)}) or seed ({', '.join(map(str, seeds))}), {spec['cycles']} cycles each"
        results.append((m["id"], verdict, time.time() - t0, note))
        print(f"  {block:8s} {m['id']:30s} {verdict:8s} {time.time() - t0:5.1f}s  {note}", flush=True)
    # leave the scratch benches built from pristine RTL
    for sb in benches.values():
        sb.build()
    return results


def assertion_stop(text):
    """The run was stopped by an RTL assertion (--assert; e.g. ll_ram_1r1w's bounds check):
    Verilator prints '%Error: <file>:<line>: ...' and '$stop' before it aborts."""
    return "%Error:" in text and ("Verilog $stop" in text or "Assertion failed" in text)


def check_one(block, mutant_id, work, log, jobs=1):
    """One job of scripts/jobs.py, with the same rule as check_block: a fresh scratch tree in
    work with the mutant applied (mutant_id None: the unmutated RTL, verdict "pass" when every
    CI set and seed passes), tried on the mutation set with every CI seed, then on the other
    sets, stopping at the first kill. Returns (verdict, note); the tools' output goes to log."""
    spec = load(block)
    rtl_copy = os.path.join(work, "rtl")
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
    sets, seeds = ci_sets_and_seeds(block)
    first = spec.get("seed", seeds[0])
    seeds = [first] + [s for s in seeds if s != first]
    order = [spec["set"]] + [s for s in sets if s != spec["set"]]
    if mutant_id is not None:
        vlt = sorted(glob.glob(os.path.join(rtl_copy, block, "*.vlt")))
        lint = logged(run(["verilator", "--lint-only", "-Wall", *vlt, *rtl_files(rtl_copy, block),
                           "--top-module", spec.get("top", block_top(block))]))
        if lint.returncode:
            return "INVALID", "lint: " + first_line(lint.stdout, "%")
    bad = "FAIL" if mutant_id is None else "INVALID"
    for name in order:
        bdir = os.path.join(work, f"build-{name}")
        cfg = logged(run(["cmake", "-S", ROOT, "-B", bdir, "-G", "Ninja", f"-DLL_RTL_ROOT={rtl_copy}",
                          f"-DLL_BLOCKS={block}", f"-DLL_TB_SETS={name}", "-DLL_TRACE=OFF",
                          "-DLL_BUILD_SIM=OFF", "-DLL_BUILD_MODEL_TESTS=OFF"]))
        if cfg.returncode:
            return bad, f"cmake configure failed (set {name})"
        b = logged(run(["ninja", "-C", bdir, f"-j{jobs}", f"tb_{block}"]))
        if b.returncode:
            return bad, f"build (set {name}): " + first_line(b.stdout, "error")
        exe = os.path.join(bdir, "tb", block, f"tb_{block}")
        for seed in seeds:
            r = logged(run([exe, "--set", name, "--seed", str(seed), "--cycles", str(spec["cycles"]), "--no-wave",
                            "--out", work], env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")))
            if mutant_id is None:
                if r.returncode != 0:
                    return "FAIL", f"the unmutated RTL does not pass its own bench (set {name} seed {seed}, exit {r.returncode})"
                continue
            if r.returncode == MISMATCH:
                return "killed", f"set {name} seed {seed}: " + first_line(r.stdout, "MISMATCH")
            if r.returncode != 0 and assertion_stop(r.stdout):
                return "killed", f"set {name} seed {seed}: RTL assertion: " + first_line(r.stdout, "%Error")
            if r.returncode != 0:
                return "INVALID", f"set {name} seed {seed}: bench exit {r.returncode}: " + first_line(r.stdout, "rror")
    if mutant_id is None:
        return "pass", f"every set ({', '.join(order)}) and seed ({', '.join(map(str, seeds))}), {spec['cycles']} cycles, no mismatch"
    return "SURVIVED", f"no mismatch on any set ({', '.join(order)}) or seed ({', '.join(map(str, seeds))}), {spec['cycles']} cycles each"


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
    ap.add_argument("--only", action="append", metavar="ID",
                    help="run only this mutant id (repeatable; with one block)")
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
        res = check_block(b, a.build, a.jobs, set(a.only or []))
        k = sum(1 for r in res if r[1] == "killed")
        summary.append((b, k, len(res), [r[0] for r in res if r[1] != "killed"]))
        total += len(res)
        killed += k
    print("")
    for b, k, n, bad in summary:
        print(f"mutants: {b}: {k}/{n} killed" + (f"; not killed: {', '.join(bad)}" if bad else ""))
    print(f"mutants: {killed}/{total} killed in {time.time() - t0:.0f} s")
    print(f"{killed} passed, {total - killed} failed")
    sys.exit(0 if killed == total else 1)


if __name__ == "__main__":
    main()
