#!/usr/bin/env python3
"""Co-simulation proof (docs/cosim.md): RTL-in-the-loop runs equal the pure-model runs.

For every case below, the scenario runs twice: with its "cosim" section emptied through the
plain lossless_sim (every block is its golden model; for a NIC's DCQCN block, whose RTL
releases packets in wheel slots, cosim.model=true instead: its model's cycle face through the
same recipe), and through lossless_sim_cosim (the
blocks the section names are Verilated RTL). flows.csv must be byte-identical and
summary.json identical except its "performance" object (CPU, wall time, events/s).
Any difference fails the case and names the first differing flow (row and column) or
summary counter (key path). Each RTL block must have answered calls, so a case cannot pass
by not using the RTL. The slowdown per case is printed (events/s, model vs RTL).

Then the negative test: one mutant of tb/<block>/mutants.json is applied to a copy of rtl/,
lossless_sim_cosim is rebuilt against it (LL_RTL_ROOT), and the first case must now differ;
the check fails if the mutant's outputs stay identical.

Usage: cosim_check.py [--build DIR] [--jobs N] [--case NAME]... [--mutant BLOCK[:ID][@CASE]]... [--no-mutant]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCEN = os.path.join(ROOT, "sim", "scenarios", "cosim")

# name -> (scenario, --set overrides). marker: every switch's marker in RTL, deciding at
# enqueue, then at dequeue with the EWMA on (the RTL's EWMA RAM). drill: DRILL(2,1) on
# every leaf's selector in RTL (2 uplinks: the occupancy view and memory matter), with the
# markers of every switch in RTL too.
CASES = {
    "marker_enqueue": ("marker_incast.json", []),
    "marker_dequeue_ewma": ("marker_incast.json", ["switch.marker.dequeue=true", "switch.marker.ewma_shift=2"]),
    "drill_leaves": ("marker_incast.json", ['balancer.mode="drill"',
                                            'cosim={"all_leaves": ["drill", "marker"], "all_spines": ["marker"]}']),
}
# The selector's other modes, on the leaves only (the block's own modes, same RTL).
for _mode in ("ecmp", "random", "rr", "per_flow"):
    CASES["drill_" + _mode] = ("marker_incast.json", [f'balancer.mode="{_mode}"', 'cosim={"all_leaves": ["drill"]}'])
# pfc: an incast through PFC leaves (pfc_incast.json: static XOFF, PAUSE / RESUME / refresh,
# a stalled receiver that makes the watchdog declare a storm, drop and restore): the leaves'
# blocks in RTL; then every switch's (the spines' too) in pool mode with the dynamic threshold.
CASES["pfc_leaves"] = ("pfc_incast.json", [])
CASES["pfc_pool_dynamic"] = ("pfc_incast.json", ['switch.pfc.threshold="dynamic"', "switch.pfc.pool=true",
                                                 'cosim={"all_switches": ["pfc"]}'])
# dcqcn: the DCQCN blocks of an incast's receiver (h0: its NP sends the CNPs) and of one of
# its senders (h4: RP and timing wheel) in RTL. The RTL's wheel releases packets in slots, so
# the pure-model run drives the model's cycle face through the same recipe (cosim.model).
CASES["dcqcn_cnp"] = ("dcqcn_cnp.json", [])
# ... with NP-side coalescing (at most one CNP per flow per 50 us: the NP's no-CNP path), and
# the paper's variant of the RP.
CASES["dcqcn_np_interval"] = ("dcqcn_cnp.json", ['nic.dcqcn.np_interval="50us"'])
CASES["dcqcn_paper"] = ("dcqcn_cnp.json", ['nic.dcqcn.variant="paper"'])
# The pure-model run's override per case (default: every block its model, cosim={}).
MODEL_SET = {name: "cosim.model=true" for name in ("dcqcn_cnp", "dcqcn_np_interval", "dcqcn_paper")}
# The negative test per block: a mutant of tb/<block>/mutants.json and the case it must break.
MUTANTS = {
    "marker": ("random_scale", "marker_enqueue"),
    "drill": ("tie_break_inverted", "drill_leaves"),
    "pfc": ("storm_queue_not_dropped", "pfc_leaves"),
    "dcqcn": ("wheel_divider_short", "dcqcn_cnp"),
}


def die(msg):
    print(f"cosim_check: error: {msg}", file=sys.stderr)
    sys.exit(2)


def run_sim(binary, scenario, sets, out):
    cmd = [binary, scenario, "--out", out, "--quiet"]
    for s in sets:
        cmd += ["--set", s]
    t0 = time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        die(f"{' '.join(cmd)}: exit {p.returncode}\n{p.stderr}")
    return time.monotonic() - t0


def first_flow_difference(a_path, b_path):
    """None if the files are byte-identical, else a sentence naming the first difference."""
    with open(a_path, "rb") as f:
        a = f.read()
    with open(b_path, "rb") as f:
        b = f.read()
    if a == b:
        return None
    la, lb = a.decode().splitlines(), b.decode().splitlines()
    header = la[0].split(",") if la else []
    for i in range(max(len(la), len(lb))):
        ra = la[i] if i < len(la) else None
        rb = lb[i] if i < len(lb) else None
        if ra == rb:
            continue
        if ra is None or rb is None:
            return f"flows.csv: line {i + 1} only in the {'RTL' if ra is None else 'model'} run"
        ca, cb = ra.split(","), rb.split(",")
        for k in range(max(len(ca), len(cb))):
            va = ca[k] if k < len(ca) else "(missing)"
            vb = cb[k] if k < len(cb) else "(missing)"
            if va != vb:
                col = header[k] if k < len(header) else f"column {k + 1}"
                flow = f"{header[0]} {ca[0]}" if header else f"line {i + 1}"
                return f"flows.csv: first differing flow is {flow} (line {i + 1}): {col} = {va} (model) vs {vb} (RTL)"
        return f"flows.csv: line {i + 1} differs"
    return "flows.csv: the files differ (line endings)"


def first_summary_difference(a, b, path=""):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a.keys()) + [k for k in b.keys() if k not in a]:
            if path == "" and k == "performance":
                continue
            if k not in a or k not in b:
                return f"summary.json: {path + k} only in the {'model' if k in a else 'RTL'} run"
            d = first_summary_difference(a[k], b[k], f"{path}{k}.")
            if d:
                return d
        return None
    if isinstance(a, list) and isinstance(b, list):
        for i in range(max(len(a), len(b))):
            if i >= len(a) or i >= len(b):
                return f"summary.json: {path.rstrip('.')}[{i}] only in one run"
            d = first_summary_difference(a[i], b[i], f"{path.rstrip('.')}[{i}].")
            if d:
                return d
        return None
    if a != b:
        return f"summary.json: counter {path.rstrip('.')} = {json.dumps(a)} (model) vs {json.dumps(b)} (RTL)"
    return None


def compare(model_dir, rtl_dir):
    d = first_flow_difference(os.path.join(model_dir, "flows.csv"), os.path.join(rtl_dir, "flows.csv"))
    if d:
        return d
    with open(os.path.join(model_dir, "summary.json")) as f:
        a = json.load(f)
    with open(os.path.join(rtl_dir, "summary.json")) as f:
        b = json.load(f)
    return first_summary_difference(a, b)


def events_per_s(out):
    with open(os.path.join(out, "summary.json")) as f:
        p = json.load(f)["performance"]
    return p["events"] / p["wall_s"] if p["wall_s"] > 0 else 0.0, p["wall_s"]


def run_case(name, model_sim, cosim_sim, work, quiet=False):
    scen, sets = CASES[name]
    scenario = os.path.join(SCEN, scen)
    model_out, rtl_out = os.path.join(work, name, "model"), os.path.join(work, name, "rtl")
    run_sim(model_sim, scenario, sets + [MODEL_SET.get(name, "cosim={}")], model_out)
    run_sim(cosim_sim, scenario, sets, rtl_out)
    with open(os.path.join(rtl_out, "cosim.json")) as f:
        blocks = json.load(f)
    return compare(model_out, rtl_out), blocks, model_out, rtl_out


def build_mutant(block, mid, build, jobs):
    """lossless_sim_cosim_mutant in the cosim tree, from a copy of rtl/ with one mutant."""
    spec_path = os.path.join(ROOT, "tb", block, "mutants.json")
    with open(spec_path) as f:
        spec = json.load(f)
    ms = [m for m in spec["mutants"] if m["id"] == mid]
    if not ms:
        die(f"{spec_path}: no mutant {mid}")
    m = ms[0]
    work = os.path.join(build, "mutant")
    rtl = os.path.join(work, "rtl")
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(os.path.join(ROOT, "rtl"), rtl)
    path = os.path.join(work, m["file"])
    with open(path) as f:
        text = f.read()
    if text.count(m["find"]) != 1:
        die(f"mutant {block}:{mid}: 'find' text occurs {text.count(m['find'])} times in {m['file']}")
    with open(path, "w") as f:
        f.write(text.replace(m["find"], m["replace"], 1))
    try:
        for cmd in (["cmake", "-S", ROOT, "-B", build, f"-DLL_COSIM_MUTANT_RTL={rtl}"],
                    ["cmake", "--build", build, "-j", str(jobs), "--target", "lossless_sim_cosim_mutant"]):
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if p.returncode != 0:
                die(f"mutant {block}:{mid}: {' '.join(cmd)} failed:\n{p.stdout[-3000:]}")
    finally:
        # the tree goes back to building the pristine RTL only (make cosim)
        subprocess.run(["cmake", "-S", ROOT, "-B", build, "-DLL_COSIM_MUTANT_RTL="], stdout=subprocess.DEVNULL)
    exe = os.path.join(work, "lossless_sim_cosim_mutant")
    shutil.copy2(os.path.join(build, "sim", "cosim", "lossless_sim_cosim_mutant"), exe)
    return exe, m


def parse_mutant(spec):
    """--mutant BLOCK[:ID][@CASE] -> (block, mutant id, case), checked before anything runs."""
    arg = spec
    spec, _, on_case = spec.partition("@")
    block, _, mid = spec.partition(":")
    if block not in MUTANTS:
        die(f"--mutant {arg}: no co-simulated block '{block}' (blocks: {', '.join(MUTANTS)})")
    mid = mid or MUTANTS[block][0]
    name = on_case or MUTANTS[block][1]
    if name not in CASES:
        die(f"--mutant {arg}: no case '{on_case}' (cases: {', '.join(sorted(CASES))})")
    spec_path = os.path.join(ROOT, "tb", block, "mutants.json")
    try:
        with open(spec_path) as f:
            ids = [m["id"] for m in json.load(f)["mutants"]]
    except (OSError, ValueError, KeyError, TypeError) as e:
        die(f"{spec_path}: cannot read its mutants ({e})")
    if mid not in ids:
        die(f"--mutant {arg}: {os.path.relpath(spec_path, ROOT)} has no mutant '{mid}'")
    return block, mid, name


# cosim.trace per adapter: (case, node, block, from, to, an output port the FST must hold).
TRACES = [
    ("marker_enqueue", "leaf0", "marker", "1ms", "1.05ms", "dec_mark_o"),
    ("pfc_leaves", "leaf0", "pfc", "1ms", "1.02ms", "pause_valid_o"),
    ("dcqcn_cnp", "h4", "dcqcn", "100us", "110us", "grant_valid_o"),
]


def check_trace(cosim_sim, work, case, node, block, t_from, t_to, port):
    """cosim.trace: the FST is written, converts to VCD with the block's ports, and tracing
    changes nothing in the outputs. Returns the number of failures (0 or 1)."""
    scen, sets = CASES[case]
    out = os.path.join(work, case, "rtl_trace")
    trace = f'cosim.trace={{"node": "{node}", "block": "{block}", "from": "{t_from}", "to": "{t_to}"}}'
    run_sim(cosim_sim, os.path.join(SCEN, scen), sets + [trace], out)
    fst = os.path.join(out, f"cosim_{node}_{block}.fst")
    problem = None
    stamps = 0
    if not os.path.isfile(fst):
        problem = f"{fst} not written"
    else:
        p = subprocess.run(["fst2vcd", fst], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        stamps = sum(1 for line in p.stdout.splitlines() if line.startswith("#"))
        if p.returncode != 0 or port not in p.stdout or stamps < 10:
            problem = f"{fst}: fst2vcd exit {p.returncode}, {stamps} timestamps, {port} {'found' if port in p.stdout else 'missing'}"
        else:
            diff = compare(os.path.join(work, case, "model"), out)
            if diff:
                problem = f"outputs with the trace on differ: {diff}"
    print(f"cosim trace {node} {block} {t_from}..{t_to}: " + (f"FAIL: {problem}" if problem else
          f"{os.path.getsize(fst)} B FST, {stamps} timestamps in fst2vcd's VCD; outputs identical"))
    return 1 if problem else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build", "cosim"), help="the make cosim tree")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--case", action="append", choices=sorted(CASES), help="run only these cases")
    ap.add_argument("--mutant", action="append",
                    help="BLOCK, BLOCK:ID or BLOCK:ID@CASE: a mutant of tb/<block>/mutants.json and the case it "
                    "must break (default: one per block, " +
                    ", ".join(f"{b}:{m}" for b, (m, _) in MUTANTS.items()) + ")")
    ap.add_argument("--no-mutant", action="store_true", help="skip the negative test")
    a = ap.parse_args()
    if a.no_mutant and a.mutant:
        die("--mutant and --no-mutant exclude each other")
    mutants = [] if a.no_mutant else [parse_mutant(spec) for spec in a.mutant or list(MUTANTS)]
    build = os.path.abspath(a.build)
    model_sim = os.path.join(build, "sim", "lossless_sim")
    cosim_sim = os.path.join(build, "sim", "cosim", "lossless_sim_cosim")
    for b in (model_sim, cosim_sim):
        if not os.access(b, os.X_OK):
            die(f"{b} not found: run make cosim first")
    work = os.path.join(build, "cosim_check")
    shutil.rmtree(work, ignore_errors=True)
    failed = 0
    cases = a.case or list(CASES)
    for name in cases:
        diff, blocks, model_out, rtl_out = run_case(name, model_sim, cosim_sim, work)
        used = [b for b in blocks if b["calls"] > 0]
        calls = sum(b["calls"] for b in blocks)
        cycles = sum(b["cycles"] for b in blocks)
        init = sum(b["init_cycles"] for b in blocks)
        (m_eps, m_wall), (r_eps, r_wall) = events_per_s(model_out), events_per_s(rtl_out)
        kinds = sorted({b["block"] for b in blocks})
        print(f"cosim {name}: {len(blocks)} blocks as RTL ({', '.join(kinds)}), {len(used)} of them called; "
              f"{calls} calls, {cycles} cycles ({cycles / max(calls, 1):.2f} per call) + {init} start-up cycles")
        print(f"  model {m_eps / 1e6:.3f} M events/s ({m_wall:.2f} s), RTL {r_eps / 1e6:.3f} M events/s ({r_wall:.2f} s): "
              f"slowdown {m_eps / r_eps if r_eps else float('inf'):.2f}x")
        if not used:
            print("  FAIL: no RTL block answered a call (the case does not test the RTL)")
            failed += 1
        elif diff:
            print(f"  FAIL: outputs differ: {diff}")
            failed += 1
        else:
            print("  identical: flows.csv byte for byte, summary.json except performance")
    for t in TRACES:
        if t[0] in cases:
            failed += check_trace(cosim_sim, work, *t)
    if failed:
        print(f"cosim_check: {failed} of {len(cases)} cases FAILED")
        return 1
    for block, mid, name in mutants:
        t0 = time.monotonic()
        mut_sim, m = build_mutant(block, mid, build, a.jobs)
        scen, sets = CASES[name]
        mut_out = os.path.join(work, name, "rtl_mutant_" + mid)
        model_out = os.path.join(work, name, "model")
        if not os.path.isdir(model_out):
            run_sim(model_sim, os.path.join(SCEN, scen), sets + [MODEL_SET.get(name, "cosim={}")], model_out)
        run_sim(mut_sim, os.path.join(SCEN, scen), sets, mut_out)
        diff = compare(model_out, mut_out)
        print(f"cosim mutant {block}:{mid} ({m['why']}) on {name}, {time.monotonic() - t0:.0f} s:")
        if not diff:
            print("  FAIL: the mutant's outputs are identical to the model's (the comparison would miss this bug)")
            return 1
        print(f"  caught: {diff}")
    print(f"cosim_check: {len(cases)} cases identical" + ("" if a.no_mutant else ", every mutant caught"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
