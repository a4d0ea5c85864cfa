#!/usr/bin/env python3
"""Mutation check: prove each lockstep testbench catches deliberately broken RTL.

Every bench folder with a mutants.json (tb/<block>/ for a block's main bench, tb/<block>/<sub>/
for a second bench such as tb/pfc/codec/) names its mutants; a bench is called by the NAME of
its ll_lockstep_tb() call (tb_<name>: marker, drill, pfc, pfc_codec, dcqcn). The pristine RTL
is copied to a scratch tree and each mutant is applied alone. A mutant counts as KILLED only
if it lints clean under `verilator --lint-only -Wall`, compiles, and a lockstep run then
reports a mismatch (exit code 3) or is stopped by an RTL assertion (e.g. the RAM bounds
check). It is tried on every parameter set with every CI seed (the SEEDS of the bench's
CMakeLists.txt) until one kills it; the kill (set and seed) is printed. The order: first the
set and seed that killed it last time (the committed hint file mutant_kills.json beside
mutants.json, when it names one), then the mutation set (mutants.json "set") with every seed,
then every other set with every seed. The hint only reorders: a mutant the hint does not kill
falls through to every other set and seed. Each set's scratch bench is built from pristine
RTL and must pass every seed first; a set is built only when a mutant needs it.
Anything else (survived everywhere, lint-dirty, does not build, crashed) fails the check.
--update-hints rewrites the hint files from this run's kills. -j N checks up to N benches at
once (each in its own scratch tree), so `make mutants` uses both cores of a 2-core runner.

--matrix measures how robust each kill is instead: every mutant runs on every set and seed
without stopping at the first kill (--seeds replaces the CI seeds, e.g. 1-8; --sets keeps
only the sets it names), and the report names the runs that killed it; a mutant killed by
only one or two runs (and under half of them) is marked FRAGILE (a change to the bench's
random stream could let it survive). Not part of make test.

Usage: mutants.py [-j N] [--build DIR] [--update-hints] [--matrix [--seeds A-B] [--sets S,S]] [bench ...]
"""
import argparse
import concurrent.futures
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time

import ll_rtl  # scripts/ll_rtl.py: the one RTL file-list rule
from ll_out import dir_problem  # scripts/ll_out.py

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MISMATCH = 3
HINTS = "mutant_kills.json"


def die(msg):
    print(f"mutants: error: {msg}", file=sys.stderr)
    sys.exit(2)


def rtl_files(rtl_root, block):
    return ll_rtl.files(block, rtl_root)


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)


class Bench:
    """A lockstep bench with mutants: its folder under tb/ and the first ll_lockstep_tb()
    call of its CMakeLists.txt (BLOCK, NAME, TOP, SETS, SEEDS)."""

    def __init__(self, folder):
        self.folder = folder  # relative to tb/, e.g. "pfc" or "pfc/codec"
        self.dir = os.path.join(ROOT, "tb", folder)
        text = open(os.path.join(self.dir, "CMakeLists.txt")).read()
        if "ll_lockstep_tb(" not in text:
            die(f"tb/{folder}/CMakeLists.txt: no ll_lockstep_tb() call")
        call = text[text.index("ll_lockstep_tb("):]
        call = call[:call.index(")\n") + 1]
        toks = call.replace("(", " ").replace(")", " ").split()

        def arg(key, default=None):
            if key in toks:
                return toks[toks.index(key) + 1]
            if default is None:
                die(f"tb/{folder}/CMakeLists.txt: no {key} <value> in ll_lockstep_tb()")
            return default
        self.block = arg("BLOCK")
        self.name = arg("NAME", self.block)
        self.top = arg("TOP")
        self.sets = re.findall(r'"(\w+):', call)
        m = re.search(r"SEEDS((?:\s+\d+)+)", call)
        self.seeds = [int(x) for x in m.group(1).split()] if m else [1]
        if not self.sets:
            die(f"tb/{folder}/CMakeLists.txt: no SETS in ll_lockstep_tb()")

    def exe(self, bdir):
        return os.path.join(bdir, "tb", self.folder, f"tb_{self.name}")


def benches_with_mutants():
    """Every bench with a mutants.json, by name (in folder order)."""
    out = {}
    for p in sorted(glob.glob(os.path.join(ROOT, "tb", "*", "mutants.json")) +
                    glob.glob(os.path.join(ROOT, "tb", "*", "*", "mutants.json"))):
        folder = os.path.relpath(os.path.dirname(p), os.path.join(ROOT, "tb"))
        b = Bench(folder)
        out[b.name] = b
    return out


def blocks_with_mutants():
    """The names of the benches with mutants (scripts/jobs.py plans one job list per name)."""
    return list(benches_with_mutants())


def bench(name):
    benches = benches_with_mutants()
    if name not in benches:
        die(f"no bench '{name}' with a mutants.json (benches: {', '.join(benches)})")
    return benches[name]


def load(name):
    b = bench(name)
    path = os.path.join(b.dir, "mutants.json")
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
    if spec["set"] not in b.sets:
        die(f"{path}: set '{spec['set']}' is not a set of tb/{b.folder}/CMakeLists.txt")
    return spec


def load_hints(b):
    path = os.path.join(b.dir, HINTS)
    if not os.path.isfile(path):
        return {}
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        die(f"{path}: {e}")


def write_hints(b, kills):
    """kills: {mutant id: (set, seed)} of this run, in mutants.json order."""
    path = os.path.join(b.dir, HINTS)
    lines = [f'  "{mid}": {{"set": "{st}", "seed": {sd}}}' for mid, (st, sd) in kills.items()]
    with open(path, "w") as f:
        f.write("{\n" + ",\n".join(lines) + "\n}\n")


def attempts(b, spec, hint):
    """The (set, seed) order a mutant is tried in: the hint's kill first, then the mutation
    set with every seed (mutants.json "seed" first), then every other set with every seed."""
    first = spec.get("seed", b.seeds[0])
    first = first if first in b.seeds else b.seeds[0]  # (--matrix --seeds may leave it out)
    seeds = [first] + [s for s in b.seeds if s != first]
    lead = spec["set"] if spec["set"] in b.sets else b.sets[0]  # (and --sets)
    sets = [lead] + [s for s in b.sets if s != lead]
    order = [(st, sd) for st in sets for sd in seeds]
    if hint and (hint.get("set"), hint.get("seed")) in order:
        h = (hint["set"], hint["seed"])
        order = [h] + [a for a in order if a != h]
    return order, sets, seeds


def configure(b, bdir, rtl_copy, set_name):
    return run(["cmake", "-S", ROOT, "-B", bdir, "-G", "Ninja", f"-DLL_RTL_ROOT={rtl_copy}",
                f"-DLL_BLOCKS={b.block}", f"-DLL_TB_SETS={set_name}", "-DLL_TRACE=OFF",
                "-DLL_BUILD_SIM=OFF", "-DLL_BUILD_MODEL_TESTS=OFF"])


def run_bench(b, exe, set_name, seed, cycles, out):
    return run([exe, "--set", set_name, "--seed", str(seed), "--cycles", str(cycles), "--no-wave", "--out", out],
               env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"))


def judge(r, set_name, seed):
    """The verdict of one mutated run: killed (mismatch or RTL assertion), None (passed), or
    INVALID (any other failure)."""
    if r.returncode == MISMATCH:
        return "killed", f"set {set_name} seed {seed}: " + first_line(r.stdout, "MISMATCH")
    if r.returncode != 0 and assertion_stop(r.stdout):
        return "killed", f"set {set_name} seed {seed}: RTL assertion: " + first_line(r.stdout, "%Error")
    if r.returncode != 0:
        return "INVALID", f"set {set_name} seed {seed}: bench exit {r.returncode}: " + first_line(r.stdout, "rror")
    return None


class SetBench:
    """One parameter set's scratch build of the bench (configured with only that set), built
    from pristine RTL and checked to pass every seed before any mutant runs."""

    def __init__(self, b, name, spec, work, rtl_copy, jobs, seeds, clock):
        self.b, self.name, self.jobs, self.seeds = b, name, jobs, seeds
        self.bdir = os.path.join(work, f"build-{name}")
        t0 = time.time()
        cfg = configure(b, self.bdir, rtl_copy, name)
        if cfg.returncode:
            print(cfg.stdout)
            die(f"{b.name}: cmake configure failed (set {name})")
        self.exe = b.exe(self.bdir)
        self.cycles = spec["cycles"]
        self.out = work
        r = self.build()
        if r.returncode:
            print(r.stdout[-4000:])
            die(f"{b.name}: the unmutated bench does not build (set {name})")
        clock["build"] += time.time() - t0
        t0 = time.time()
        for seed in seeds:
            r = self.run(seed)
            if r.returncode != 0:
                print(r.stdout[-4000:])
                die(f"{b.name}: the unmutated RTL does not pass its own bench (set {name} seed {seed}, exit {r.returncode})")
        clock["run"] += time.time() - t0

    def build(self):
        return run(["ninja", "-C", self.bdir, f"-j{self.jobs}", f"tb_{self.b.name}"])

    def run(self, seed):
        return run_bench(self.b, self.exe, self.name, seed, self.cycles, self.out)


def check_block(name, build_root, jobs, only=None, clock=None, matrix=False, seeds=None, only_sets=None):
    """Each mutant is tried on every parameter set with every CI seed in attempts() order,
    stopping at the first kill: a bug only one set exposes is not reported as a survivor.
    A set's scratch build is made (from pristine RTL) only when a mutant first needs it.
    matrix: no stop at the first kill (every set and seed runs; seeds replaces the CI seeds,
    only_sets keeps only the bench's sets named in it).
    Returns [(id, verdict, seconds, note, (set, seed) of the kill or None, [every kill],
    runs planned)]."""
    b = bench(name)
    spec = load(name)
    hints = load_hints(b)
    clock = clock if clock is not None else {"lint": 0.0, "build": 0.0, "run": 0.0}
    work = os.path.join(build_root, b.name)
    rtl_copy = os.path.join(work, "rtl")
    if os.path.isdir(rtl_copy):
        shutil.rmtree(rtl_copy)
    # Plain copies with fresh timestamps (not copy2): a run interrupted while a mutant was
    # built leaves outputs newer than the sources' original times, and a time-preserving
    # copy would let ninja reuse that mutated build as the "unmutated" baseline.
    shutil.copytree(os.path.join(ROOT, "rtl"), rtl_copy, copy_function=shutil.copy)
    benches = {}
    vlt = sorted(glob.glob(os.path.join(rtl_copy, b.block, "*.vlt")))
    if seeds:
        b.seeds = list(seeds)
    if only_sets:
        b.sets = [st for st in b.sets if st in only_sets]
        if not b.sets:
            die(f"{b.name}: none of the sets {', '.join(only_sets)} is one of its sets")
    _, lead, seeds = attempts(b, spec, None)

    def set_bench(set_name):  # built from pristine RTL: call only while no mutant is applied
        if set_name not in benches:
            benches[set_name] = SetBench(b, set_name, spec, work, rtl_copy, jobs, seeds, clock)
        return benches[set_name]

    set_bench(lead[0])
    results = []
    for m in spec["mutants"]:
        if only and m["id"] not in only:
            continue
        t0 = time.time()
        path = os.path.join(rtl_copy, os.path.relpath(m["file"], "rtl"))
        pristine = open(path).read()
        mutated = pristine.replace(m["find"], m["replace"], 1)
        order, sets, _ = attempts(b, spec, hints.get(m["id"]))
        verdict, note, kill = "SURVIVED", "", None
        kills = []
        built = set()
        try:
            with open(path, "w") as f:
                f.write(mutated)
            tl = time.time()
            lint = run(["verilator", "--lint-only", "-Wall", *vlt, *rtl_files(rtl_copy, b.block),
                        "--top-module", spec.get("top", b.top)])
            clock["lint"] += time.time() - tl
            if lint.returncode:
                verdict, note = "INVALID", "lint: " + first_line(lint.stdout, "%")
                order = []
            for set_name, seed in order:
                if set_name not in benches:  # a new set: its pristine build and check first
                    with open(path, "w") as f:
                        f.write(pristine)
                    set_bench(set_name)
                    with open(path, "w") as f:
                        f.write(mutated)
                sb = benches[set_name]
                if set_name not in built:
                    tb = time.time()
                    r = sb.build()
                    clock["build"] += time.time() - tb
                    built.add(set_name)
                    if r.returncode:
                        verdict, note = "INVALID", f"build (set {set_name}): " + first_line(r.stdout, "error")
                        break
                tr = time.time()
                r = sb.run(seed)
                clock["run"] += time.time() - tr
                v = judge(r, set_name, seed)
                if v and matrix and v[0] == "killed":
                    kills.append((set_name, seed))
                    if kill is None:
                        verdict, note, kill = v[0], v[1], (set_name, seed)
                    continue
                if v:
                    verdict, note = v
                    if verdict == "killed":
                        kill = (set_name, seed)
                        kills.append(kill)
                    break
        finally:
            with open(path, "w") as f:
                f.write(pristine)
        if verdict == "SURVIVED":
            note = (f"no mismatch on any set ({', '.join(sets)}) or seed ({', '.join(map(str, seeds))}), "
                    f"{spec['cycles']} cycles each")
        dt = time.time() - t0
        if matrix and verdict == "killed":
            runs = len(order)
            kills.sort(key=lambda k: (b.sets.index(k[0]), k[1]))
            note = f"killed on {len(kills)} of {runs} runs: " + " ".join(f"{st}/{sd}" for st, sd in kills)
        results.append((m["id"], verdict, dt, note, kill, kills, len(order)))
        print(f"  {b.name:9s} {m['id']:30s} {verdict:8s} {dt:5.1f}s  {note}", flush=True)
    # leave the scratch benches built from pristine RTL
    for sb in benches.values():
        sb.build()
    return results


def assertion_stop(text):
    """The run was stopped by an RTL assertion (--assert; e.g. ll_ram_1r1w's bounds check):
    Verilator prints '%Error: <file>:<line>: ...' and '$stop' before it aborts."""
    return "%Error:" in text and ("Verilog $stop" in text or "Assertion failed" in text)


def check_one(name, mutant_id, work, log, jobs=1):
    """One job of scripts/jobs.py, with the same rule as check_block: a fresh scratch tree in
    work with the mutant applied (mutant_id None: the unmutated RTL, verdict "pass" when every
    CI set and seed passes), tried in attempts() order until the first kill. Returns
    (verdict, note); the tools' output goes to log."""
    b = bench(name)
    spec = load(name)
    rtl_copy = os.path.join(work, "rtl")
    if os.path.isdir(rtl_copy):
        shutil.rmtree(rtl_copy)
    shutil.copytree(os.path.join(ROOT, "rtl"), rtl_copy, copy_function=shutil.copy)
    hint = None
    if mutant_id is not None:
        ms = [m for m in spec["mutants"] if m["id"] == mutant_id]
        if not ms:
            return "INVALID", f"no mutant {mutant_id} in tb/{b.folder}/mutants.json"
        hint = load_hints(b).get(mutant_id)
        path = os.path.join(rtl_copy, os.path.relpath(ms[0]["file"], "rtl"))
        with open(path) as f:
            text = f.read()
        with open(path, "w") as f:
            f.write(text.replace(ms[0]["find"], ms[0]["replace"], 1))

    def logged(p):
        log.write(p.stdout[-20000:])
        return p
    order, sets, seeds = attempts(b, spec, hint)
    if mutant_id is not None:
        vlt = sorted(glob.glob(os.path.join(rtl_copy, b.block, "*.vlt")))
        lint = logged(run(["verilator", "--lint-only", "-Wall", *vlt, *rtl_files(rtl_copy, b.block),
                           "--top-module", spec.get("top", b.top)]))
        if lint.returncode:
            return "INVALID", "lint: " + first_line(lint.stdout, "%")
    bad = "FAIL" if mutant_id is None else "INVALID"
    built = set()
    for set_name, seed in order:
        bdir = os.path.join(work, f"build-{set_name}")
        if set_name not in built:
            cfg = logged(configure(b, bdir, rtl_copy, set_name))
            if cfg.returncode:
                return bad, f"cmake configure failed (set {set_name})"
            r = logged(run(["ninja", "-C", bdir, f"-j{jobs}", f"tb_{b.name}"]))
            if r.returncode:
                return bad, f"build (set {set_name}): " + first_line(r.stdout, "error")
            built.add(set_name)
        r = logged(run_bench(b, b.exe(bdir), set_name, seed, spec["cycles"], work))
        if mutant_id is None:
            if r.returncode != 0:
                return "FAIL", f"the unmutated RTL does not pass its own bench (set {set_name} seed {seed}, exit {r.returncode})"
            continue
        v = judge(r, set_name, seed)
        if v:
            return v
    if mutant_id is None:
        return "pass", f"every set ({', '.join(sets)}) and seed ({', '.join(map(str, seeds))}), {spec['cycles']} cycles, no mismatch"
    return "SURVIVED", f"no mismatch on any set ({', '.join(sets)}) or seed ({', '.join(map(str, seeds))}), {spec['cycles']} cycles each"


def expected_cost(name):
    """A bench's mutant count times its cycles per run: the longest benches start first."""
    spec = load(name)
    return len(spec["mutants"]) * spec["cycles"]


def check_timed(name, build_root, jobs, only, matrix=False, seeds=None, sets=None):
    """check_block() of one bench, with its wall time and phase times (a pool task)."""
    print(f"mutants: {name}", flush=True)
    t0 = time.time()
    clock = {"lint": 0.0, "build": 0.0, "run": 0.0}
    res = check_block(name, build_root, jobs, only, clock, matrix, seeds, sets)
    return res, time.time() - t0, clock


def first_line(text, key):
    for line in text.splitlines():
        if key in line:
            return line.strip()[:160]
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return lines[-1].strip()[:160] if lines else ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("benches", nargs="*", metavar="bench",
                    help="bench names (default: every bench with a mutants.json)")
    ap.add_argument("--build", default=os.path.join(ROOT, "build-mutants"))
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--only", action="append", metavar="ID",
                    help="run only this mutant id (repeatable; with one bench)")
    ap.add_argument("--update-hints", action="store_true",
                    help=f"rewrite each bench's {HINTS} from this run's kills (every mutant run)")
    ap.add_argument("--matrix", action="store_true",
                    help="run every mutant on every set and seed (no stop at the first kill) and "
                         "report which runs killed it")
    ap.add_argument("--seeds", metavar="A-B",
                    help="with --matrix: the seeds to run (a range A-B or a list A,B,...), "
                         "instead of the bench's CI seeds")
    ap.add_argument("--sets", metavar="S,S",
                    help="with --matrix: only these parameter sets of each bench (a comma list)")
    a = ap.parse_args()
    if a.jobs < 1:
        die(f"--jobs must be >= 1 (got {a.jobs})")
    sets = a.sets.split(",") if a.sets is not None else None
    if sets and not a.matrix:
        die("--sets needs --matrix (the pass/fail check always uses every set)")
    if sets and not all(sets):
        die(f"--sets {a.sets!r}: an empty set name (give a comma list of parameter sets)")
    seeds = None
    if a.seeds:
        if not a.matrix:
            die("--seeds needs --matrix (the pass/fail check always uses the CI seeds)")
        try:
            if re.fullmatch(r"\d+-\d+", a.seeds):
                lo, hi = map(int, a.seeds.split("-"))
                if hi - lo + 1 > 1000:  # before the list is built (every mutant x set x seed is a bench run)
                    die(f"--seeds {a.seeds}: {hi - lo + 1} seeds, at most 1000")
                seeds = list(range(lo, hi + 1))
            else:
                seeds = [int(x) for x in a.seeds.split(",")]
        except ValueError:
            seeds = None
        if not seeds or min(seeds) < 1:
            die(f"--seeds {a.seeds}: expected a range A-B or a list A,B,... of seeds >= 1")
        if len(seeds) > 1000:
            die(f"--seeds {a.seeds}: {len(seeds)} seeds, at most 1000")
    if a.update_hints and a.matrix:
        die("--update-hints and --matrix do not go together (the hints name first kills)")
    names = a.benches or blocks_with_mutants()
    if not names:
        die("no tb/**/mutants.json found")
    if a.update_hints and a.only:
        die("--update-hints needs every mutant of the bench (no --only)")
    for name in names:
        bench(name)  # every name known before any work starts
    if sets:  # as check_block does it, before any scratch tree is written
        unknown = [st for st in sets if not any(st in bench(n).sets for n in names)]
        if unknown:
            die(f"--sets: no set {', '.join(unknown)} in {', '.join(names)}")
        for name in names:
            if not any(st in bench(name).sets for st in sets):
                die(f"{name}: none of the sets {', '.join(sets)} is one of its sets ({', '.join(bench(name).sets)})")
    if dir_problem(a.build):
        die(f"--build {a.build}: {dir_problem(a.build)}")
    if a.only:
        if len(names) != 1:
            die("--only needs exactly one bench (the ids are per bench)")
        ids = {m["id"] for m in load(names[0])["mutants"]}
        unknown = [i for i in a.only if i not in ids]
        if unknown:
            die(f"{names[0]}: no mutant {', '.join(unknown)} in its mutants.json")
    t0 = time.time()
    total = killed = 0
    summary = []
    clock = {"lint": 0.0, "build": 0.0, "run": 0.0}
    # Benches are independent (each has its own scratch tree and builds), so with -j N up to
    # N benches are checked at once, the longest first; each bench's ninja gets the cores
    # left over (-j 2: two benches at a time, one compile each).
    par = max(1, min(a.jobs, len(names)))
    ninja_jobs = max(1, a.jobs // par)
    names = sorted(names, key=lambda n: -expected_cost(n))
    only = set(a.only or [])
    if par == 1:
        outs = (check_timed(n, a.build, ninja_jobs, only, a.matrix, seeds, sets) for n in names)
    else:
        pool = concurrent.futures.ProcessPoolExecutor(max_workers=par)
        outs = pool.map(check_timed, names, [a.build] * len(names), [ninja_jobs] * len(names),
                        [only] * len(names), [a.matrix] * len(names), [seeds] * len(names),
                        [sets] * len(names))
    for name, (res, dt, ck) in zip(names, outs):
        b = bench(name)
        for key in clock:
            clock[key] += ck[key]
        k = sum(1 for r in res if r[1] == "killed")
        summary.append((b.name, k, len(res), [r[0] for r in res if r[1] != "killed"], res, dt))
        total += len(res)
        killed += k
        if a.update_hints and k == len(res):
            write_hints(b, {r[0]: r[4] for r in res})
    print("")
    for name, k, n, bad, res, dt in summary:
        kills = {}
        for r in res:
            if r[4]:
                kills[f"{r[4][0]}/seed{r[4][1]}"] = kills.get(f"{r[4][0]}/seed{r[4][1]}", 0) + 1
        by = ", ".join(f"{key}: {v}" for key, v in sorted(kills.items()))
        print(f"mutants: {name}: {k}/{n} killed in {dt:.0f} s (killed by {by or 'no run'})" +
              (f"; not killed: {', '.join(bad)}" if bad else ""))
        if a.matrix:
            fragile = [r for r in res if r[1] == "killed" and len(r[5]) <= 2 and 2 * len(r[5]) < r[6]]
            print(f"mutants: {name}: kill matrix (runs that killed each mutant):")
            for r in res:
                mark = "FRAGILE " if r in fragile else ""
                print(f"  {r[0]:34s} {mark}{r[3]}")
            print(f"mutants: {name}: {len(fragile)} fragile (killed by at most two runs, under half of them)" +
                  (f": {', '.join(r[0] for r in fragile)}" if fragile else ""))
    print(f"mutants: {par} bench(es) at a time, ninja -j{ninja_jobs}; phase times summed over benches: "
          f"lint {clock['lint']:.0f} s, builds {clock['build']:.0f} s, bench runs {clock['run']:.0f} s")
    print(f"mutants: {killed}/{total} killed in {time.time() - t0:.0f} s")
    print(f"{killed} passed, {total - killed} failed")
    sys.exit(0 if killed == total else 1)


if __name__ == "__main__":
    main()
