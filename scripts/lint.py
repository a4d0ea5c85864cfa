#!/usr/bin/env python3
"""RTL lint flow: every module of every block elaborated as its own top by three tools.

  verilator --lint-only -Wall   (waivers: the block's .vlt files, each with a reason)
  iverilog -g2012               (must compile; its warnings are printed)
  yosys read_verilog -sv -noautowire; hierarchy -check; proc; check -assert

Before the RTL, every Python file of the repository must pass pyflakes (Debian
`pyflakes3`), unless blocks are named on the command line or --no-python is given.

Usage: lint.py [--no-python] [block ...]   (default: common and every folder of rtl/)
Exit 1 if any tool fails on any module.
"""
import argparse
import concurrent.futures as cf
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import ll_rtl  # scripts/ll_rtl.py: the one RTL file-list rule

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RTL = os.path.join(ROOT, "rtl")
# iverilog 11 notes these on valid code; they are limitations of the tool, not findings.
IVERILOG_NOISE = re.compile(r"sorry: constant selects in always_\* processes|cannot be synthesized")


def files_for(block):
    return ll_rtl.files(block, RTL)


def modules_of(block):
    mods = []
    for f in sorted(glob.glob(f"{RTL}/{block}/*.sv")):
        m = re.search(r"^\s*module\s+(\w+)", open(f).read(), re.M)
        if m:
            mods.append(m.group(1))
    return mods


def illegal_cases(block):
    path = os.path.join(RTL, block, "illegal_params.json")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return json.load(f)["cases"]


def check_illegal(block, files, case):
    """One combination of rtl/<block>/illegal_params.json must stop elaboration: Yosys must
    refuse it and Icarus must report the expected $error message (or, for a case whose
    "expect" is null, fail elaboration on its own for the stated reason).
    Returns (ok, line)."""
    top, params, expect = case["top"], case["params"], case["expect"]
    sets = " ".join(f"-set {k} {v}" for k, v in params.items())
    rc_y, _ = run(["yosys", "-q", "-p", f"read_verilog -sv -noautowire {' '.join(files)}; "
                   f"chparam {sets} {top}; hierarchy -check -top {top}"])
    with tempfile.NamedTemporaryFile(suffix=".vvp") as tmp:
        rc_c, out_c = run(["iverilog", "-g2012", "-o", tmp.name, "-s", top,
                           *[f"-P{top}.{k}={v}" for k, v in params.items()], *files])
        # an illegal design may never settle at time 0: bound the run, keep its output
        rc_v, out_v = run(["timeout", "10", "stdbuf", "-oL", "vvp", "-n", tmp.name]) \
            if rc_c == 0 else (rc_c, out_c)
    desc = f"{top} {' '.join(f'{k}={v}' for k, v in params.items())}"
    if expect is None:
        ok = rc_y != 0 and rc_c != 0
        what = f"elaboration fails ({case.get('why', 'no reason given')})"
    else:
        ok = rc_y != 0 and expect in out_v
        what = expect
    if ok:
        return True, f"lint: {block:8s} illegal {desc:30s} stopped: {what}"
    return False, (f"lint: {block:8s} illegal {desc:30s} NOT STOPPED (yosys rc {rc_y}; icarus said: "
                   f"{out_v.strip()[:300]})")


def check_module(block, m, files, vlt):
    """verilator, iverilog and yosys on module m as top: (failures, lines)."""
    res = []
    rc, out = run(["verilator", "--lint-only", "-Wall", *vlt, *files, "--top-module", m])
    res.append(("verilator", rc, out))
    with tempfile.NamedTemporaryFile(suffix=".vvp") as tmp:
        rc, out = run(["iverilog", "-g2012", "-o", tmp.name, "-s", m, *files])
    out = "\n".join(l for l in out.splitlines() if not IVERILOG_NOISE.search(l))
    res.append(("iverilog", rc, out))
    script = (f"read_verilog -sv -noautowire {' '.join(files)}; "
              f"hierarchy -check -top {m}; proc; check -assert")
    rc, out = run(["yosys", "-q", "-p", script])
    out = "\n".join(l for l in out.splitlines() if "Replacing memory" not in l)
    res.append(("yosys", rc, out))
    lines, status, bad = [], [], 0
    for tool, rc, out in res:
        if rc != 0:
            bad += 1
            status.append(f"{tool} FAIL")
            lines.append(f"--- {block}/{m}: {tool} failed:\n{out.strip()}")
        else:
            status.append(f"{tool} ok")
            if out.strip():
                lines.append(f"--- {block}/{m}: {tool} notes:\n{out.strip()}")
    lines.append(f"lint: {block:8s} {m:24s} " + ", ".join(status))
    return bad, lines


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT)
    return p.returncode, p.stdout


def checker_selftest():
    """tb/common/ll_vr_stable_tb.sv under Icarus: the shared valid/ready checker must
    be quiet on a legal producer and name its instance on each broken one."""
    tb = os.path.join(ROOT, "tb", "common", "ll_vr_stable_tb.sv")
    with tempfile.NamedTemporaryFile(suffix=".vvp") as tmp:
        rc, out = run(["iverilog", "-g2012", "-o", tmp.name, os.path.join(RTL, "common", "ll_assert.svh"),
                       tb, os.path.join(RTL, "common", "ll_vr_stable.sv")])
        if rc == 0:
            rc, out = run(["vvp", "-n", tmp.name])
    phases = re.split(r"^phase (\w+)$", out, flags=re.M)
    got = dict(zip(phases[1::2], phases[2::2]))
    ok = (rc == 0 and "ERROR" not in got.get("legal", "ERROR")
          and "u_chk: payload changed while not ready" in got.get("payload", "")
          and "u_chk: valid dropped while not ready" in got.get("valid", ""))
    print(f"lint: common   ll_vr_stable self-test     {'ok' if ok else 'FAIL'}"
          + ("" if ok else f"\n--- ll_vr_stable self-test output:\n{out.strip()}"), flush=True)
    return ok


# Registers that keep another name, each with its reason (file, name): the naming rule
# (docs/CONVENTIONS.md) is that every flip-flop ends in _q, or _o when it drives a port.
FLOP_NAME_WAIVERS = {
    ("rtl/common/ll_ram_1r1w.sv", "mem"): "the memory array itself (inferred as a RAM)",
    ("rtl/drill/drill_top.sv", "upd_we"): "delay line whose element 0 is the combinational input",
    ("rtl/drill/drill_top.sv", "upd_port"): "delay line whose element 0 is the combinational input",
    ("rtl/drill/drill_top.sv", "upd_val"): "delay line whose element 0 is the combinational input",
}


def flop_names():
    """Every non-blocking assignment target in an always_ff block ends in _q (or _o)."""
    bad = []
    used = set()
    for path in sorted(glob.glob(f"{RTL}/*/*.sv")):
        rel = os.path.relpath(path, ROOT)
        src = re.sub(r"//.*", "", open(path).read())
        for m in re.finditer(r"\balways_ff\b", src):
            # the statement or begin/end block that follows
            depth, started, end = 0, False, len(src)
            for t in re.finditer(r"\bbegin\b|\bend\b|;", src[m.end():]):
                if t.group() == "begin":
                    depth, started = depth + 1, True
                elif t.group() == "end":
                    depth -= 1
                if (started and depth == 0) or (not started and t.group() == ";"):
                    end = m.end() + t.end()
                    break
            body = src[m.end():end]
            for a in re.finditer(r"(?:^|;|\bbegin\b|\belse\b|\)|:)\s*([A-Za-z_]\w*)\s*(?:\[[^=;]*\])?\s*<=", body, re.M):
                name = a.group(1)
                if name.endswith("_q") or name.endswith("_o"):
                    continue
                if (rel, name) in FLOP_NAME_WAIVERS:
                    used.add((rel, name))
                    continue
                bad.append(f"{rel}: flip-flop '{name}' does not end in _q")
    stale = [f"{f}: waiver for '{n}' matches no flip-flop" for f, n in FLOP_NAME_WAIVERS if (f, n) not in used]
    problems = sorted(set(bad)) + stale
    ok = not problems
    print(f"lint: rtl      flip-flop names            {'ok' if ok else 'FAIL'}"
          + ("" if ok else "\n--- " + "\n--- ".join(problems)), flush=True)
    return ok


# Paths of the development workspace outside the repository: users have only the repository,
# so no tracked file may point there (assembled so this file does not match itself).
OUTSIDE = "|".join(["\\.\\./" + "shared", "shared" + "/(spec|papers|workloads|hooks)", "STYLE" + "\\.md"])


def self_contained():
    """No tracked file (outside .ci/) refers to the workspace beyond the repository."""
    rc, out = run(["git", "grep", "-n", "-E", OUTSIDE, "--", ".", ":!.ci"])
    ok = rc == 1  # git grep: 1 = no match
    print(f"lint: docs     self-contained             {'ok' if ok else 'FAIL'}"
          + ("" if ok else "\n--- references outside the repository:\n" + out.strip()), flush=True)
    return ok


def coverage_waivers():
    """Every coverage waiver parses and names a tagged RTL line (scripts/coverage.py)."""
    import coverage   # scripts/coverage.py
    problems = coverage.check_waiver_files()
    ok = not problems
    print(f"lint: tb       coverage waiver tags       {'ok' if ok else 'FAIL'}"
          + ("" if ok else "\n--- " + "\n--- ".join(problems)), flush=True)
    return ok


def python_files():
    """Every tracked Python file (git ls-files), or every .py outside build trees."""
    rc, out = run(["git", "ls-files", "*.py"])
    if rc == 0 and out.strip():
        return sorted(out.split())
    return sorted(os.path.relpath(f, ROOT) for f in glob.glob(f"{ROOT}/**/*.py", recursive=True)
                  if "/build" not in os.path.relpath(f, ROOT))


def pyflakes():
    """pyflakes3 over every Python file: (tool runs, failures)."""
    files = python_files()
    if shutil.which("pyflakes3") is None:
        print("lint: error: pyflakes3 not found: run 'make deps'", file=sys.stderr)
        return 1, 1
    rc, out = run(["pyflakes3", *files])
    if rc != 0:
        print(f"--- pyflakes3 failed:\n{out.strip()}")
    print(f"lint: python   {len(files)} files                 pyflakes3 {'ok' if rc == 0 else 'FAIL'}",
          flush=True)
    return 1, 0 if rc == 0 else 1


def main():
    ap = argparse.ArgumentParser(description="Lint every RTL module (verilator, iverilog, yosys) "
                                 "and every Python file (pyflakes3).")
    ap.add_argument("blocks", nargs="*", help="rtl/ folders to lint (default: common and all)")
    ap.add_argument("--no-python", action="store_true", help="skip pyflakes3")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2,
                    help="tool runs in parallel (default: the number of CPUs)")
    args = ap.parse_args()
    known = sorted(d for d in os.listdir(RTL) if os.path.isdir(os.path.join(RTL, d)))
    for b in args.blocks:  # a folder of rtl/ by its name ("" or ".." would lint nothing and pass)
        if b not in known:
            print(f"lint: error: no block {b!r} in rtl/ (blocks: {', '.join(known)})", file=sys.stderr)
            return 2
    if args.jobs < 1:
        print(f"lint: error: --jobs must be at least 1 (got {args.jobs})", file=sys.stderr)
        return 2
    blocks = args.blocks or ["common"] + [d for d in known if d != "common"]
    t0 = time.time()
    bad = 0
    checks = 0
    if not args.blocks and not args.no_python:
        checks, bad = pyflakes()
        checks += 1
        bad += 0 if self_contained() else 1
        checks += 1
        bad += 0 if flop_names() else 1
        checks += 1
        bad += 0 if coverage_waivers() else 1
    jobs = []  # (kind, future) in the order their results are printed
    with cf.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for b in blocks:
            files = [os.path.relpath(f, ROOT) for f in files_for(b)]
            vlt = sorted(os.path.relpath(f, ROOT)
                         for f in glob.glob(f"{RTL}/{b}/*.vlt") + glob.glob(f"{RTL}/common/*.vlt"))
            for m in modules_of(b):
                jobs.append(("module", pool.submit(check_module, b, m, files, vlt)))
            for case in illegal_cases(b):
                jobs.append(("illegal", pool.submit(check_illegal, b, files, case)))
            if b == "common":
                jobs.append(("selftest", pool.submit(checker_selftest)))
        for kind, fut in jobs:
            if kind == "module":
                n_bad, lines = fut.result()
                checks += 3
                bad += n_bad
                print("\n".join(lines), flush=True)
            elif kind == "illegal":
                ok, line = fut.result()
                checks += 1
                bad += 0 if ok else 1
                print(line, flush=True)
            else:
                checks += 1
                bad += 0 if fut.result() else 1
    print(f"lint: {checks - bad}/{checks} tool runs clean in {time.time() - t0:.0f} s")
    print(f"{checks - bad} passed, {bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
