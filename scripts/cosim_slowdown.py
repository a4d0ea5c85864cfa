#!/usr/bin/env python3
"""What the RTL in the loop costs: the demo fabric (64 hosts, sim/scenarios/demo.json) for
10 ms with DRILL, run as the pure model and, a row each, with a set of its blocks as
Verilated RTL (lossless_sim_cosim), then the same for two NICs' DCQCN blocks against the
model's cycle face. Prints the two Markdown tables docs/cosim.md and README show.

  cosim_slowdown.py [--build build/cosim] [--runs 3] [--out DIR]

Every row runs --runs times, the rows interleaved (run 1 of every row, then run 2, ...), so
a change in the machine's load touches every row alike; a row's CPU seconds are the least of
its runs (summary.json performance.cpu_s). Each RTL run's flows.csv must equal the same
round's model run's byte for byte, else the script fails (exit 1): a slowdown of a run that
computed something else is no figure. Exit 2 on bad arguments or a missing build (one line,
before anything runs)."""
import argparse
import filecmp
import json
import os
import subprocess
import sys
import time

from ll_out import dir_problem  # scripts/ll_out.py

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENARIO = os.path.join(ROOT, "sim", "scenarios", "demo.json")
BASE = ["--set", 'duration="10ms"', "--set", 'balancer.mode="drill"']

# (label, cosim value, RTL?); the first row is the pure model every switch row compares to.
SWITCH_ROWS = [
    ("none (pure model, `lossless_sim`)", "{}", False),
    ("every leaf's selector (`{\"all_leaves\":[\"drill\"]}`, 8, Ports=8)", '{"all_leaves":["drill"]}', True),
    ("every switch's marker (`{\"all_switches\":[\"marker\"]}`, 16)", '{"all_switches":["marker"]}', True),
    ("every leaf's PFC block (`{\"all_leaves\":[\"pfc\"]}`, 8, Ports=16)", '{"all_leaves":["pfc"]}', True),
    ("every switch's PFC block (`{\"all_switches\":[\"pfc\"]}`, 16)", '{"all_switches":["pfc"]}', True),
    ("all three on every switch (`{\"all_switches\":[\"drill\",\"marker\",\"pfc\"]}`, 48)",
     '{"all_switches":["drill","marker","pfc"]}', True),
]
NICS = '{"h0":["dcqcn"],"h9":["dcqcn"]}'
# (label, extra --set values, RTL?): the transaction face, the cycle-face model, the RTL.
NIC_ROWS = [
    ("every NIC on the transaction face (`cosim={}`)", ["cosim={}"], False),
    ("h0, h9 on the model's cycle face (`cosim.model=true`)", [f"cosim={NICS}", "cosim.model=true"], False),
    ("h0, h9 as RTL", [f"cosim={NICS}"], True),
]


def die(msg, code=2):
    print(f"cosim_slowdown: {msg}", file=sys.stderr)
    sys.exit(code)


def run(exe, sets, out):
    args = [exe, SCENARIO] + BASE
    for s in sets:
        args += ["--set", s]
    args += ["--out", out, "--quiet"]
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode != 0:
        die(f"{' '.join(args)}: exit {p.returncode}: {p.stderr.strip()}", 1)
    with open(os.path.join(out, "summary.json")) as f:
        perf = json.load(f)["performance"]
    calls = cycles = init = 0
    cj = os.path.join(out, "cosim.json")
    if os.path.exists(cj):
        with open(cj) as f:
            for b in json.load(f):
                calls += b["calls"]
                cycles += b["cycles"]
                init += b["init_cycles"]
    return {"cpu_s": perf["cpu_s"], "events": perf["events"], "calls": calls, "cycles": cycles, "init": init}


def measure(rows, model_exe, rtl_exe, runs, work, tag, ref):
    """rows: (label, sets, rtl); ref: the index of the model row every RTL row's flows.csv
    must equal, in every run. Returns per row the least-CPU run's figures and the labels of
    the RTL rows whose outputs differed in any run."""
    best = [None] * len(rows)
    differ = set()
    for r in range(runs):
        outs = []
        for i, (_, sets, rtl) in enumerate(rows):
            out = os.path.join(work, f"{tag}{i}_run{r}")
            res = run(rtl_exe if rtl else model_exe, sets, out)
            outs.append(out)
            if best[i] is None or res["cpu_s"] < best[i]["cpu_s"]:
                best[i] = res
        for i, (label, _, rtl) in enumerate(rows):
            if rtl and not filecmp.cmp(os.path.join(outs[ref], "flows.csv"), os.path.join(outs[i], "flows.csv"),
                                       shallow=False):
                differ.add(label)
    return best, differ


def fmt_int(n):
    return f"{n:,}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build", "cosim"),
                    help="the co-simulation build tree (make cosim; default %(default)s)")
    ap.add_argument("--runs", type=int, default=3, help="runs per row, interleaved (default %(default)s)")
    ap.add_argument("--out", default=None,
                    help="where the runs go, one lossless_sim --out directory each (default BUILD/slowdown; "
                         "each run replaces its own directory of an earlier call)")
    a = ap.parse_args()
    if a.runs < 1:
        die("--runs must be at least 1")
    if a.out is not None and dir_problem(a.out):
        die(f"--out {a.out}: {dir_problem(a.out)}")
    build = os.path.abspath(a.build)
    model_exe = os.path.join(build, "sim", "lossless_sim")
    rtl_exe = os.path.join(build, "sim", "cosim", "lossless_sim_cosim")
    for exe in (model_exe, rtl_exe):
        if not (os.path.isfile(exe) and os.access(exe, os.X_OK)):
            die(f"{exe}: not an executable (make cosim builds it)")
    work = os.path.abspath(a.out or os.path.join(build, "slowdown"))
    os.makedirs(work, exist_ok=True)

    t0 = time.monotonic()
    load0 = os.getloadavg()[0]
    sw, differ = measure([(lbl, [f"cosim={c}"], rtl) for lbl, c, rtl in SWITCH_ROWS], model_exe, rtl_exe, a.runs,
                         work, "sw", 0)
    nic, differ_nic = measure(NIC_ROWS, model_exe, rtl_exe, a.runs, work, "nic", 1)
    differ = sorted(differ | differ_nic)
    load1 = os.getloadavg()[0]

    print(f"demo fabric, {' '.join(BASE)}; least CPU s of {a.runs} interleaved runs a row; "
          f"load average {load0:.1f} -> {load1:.1f}; {time.monotonic() - t0:.0f} s\n")
    print("| blocks as RTL (`--set cosim=...`) | RTL calls | cycles + start-up | CPU s | events/CPU-s | slowdown |")
    print("| --- | --- | --- | --- | --- | --- |")
    m = sw[0]
    for (lbl, _, rtl), r in zip(SWITCH_ROWS, sw):
        rate = r["events"] / r["cpu_s"] / 1e6
        if rtl:
            print(f"| {lbl} | {fmt_int(r['calls'])} | {fmt_int(r['cycles'])} + {fmt_int(r['init'])} | "
                  f"{r['cpu_s']:.3f} | {rate:.2f} M | {r['cpu_s'] / m['cpu_s']:.2f}x |")
        else:
            print(f"| {lbl} | | | {r['cpu_s']:.3f} | {rate:.2f} M | 1 |")
    print()
    print("| run | events | cycles | CPU s | events/CPU-s | vs transaction face | vs cycle-face model |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    tf, cf, rt = nic
    for i, ((lbl, _, rtl), r) in enumerate(zip(NIC_ROWS, nic)):
        rate = r["events"] / r["cpu_s"] / 1e6
        cyc = f"{fmt_int(r['cycles'])} + {fmt_int(r['init'])}" if rtl else ("the same recipe as RTL" if i == 1 else "")
        vs_tf = "1" if i == 0 else f"{r['cpu_s'] / tf['cpu_s']:.1f}x"
        vs_cf = "" if i == 0 else ("1" if i == 1 else f"{r['cpu_s'] / cf['cpu_s']:.2f}x")
        print(f"| {lbl} | {fmt_int(r['events'])} | {cyc} | {r['cpu_s']:.3f} | {rate:.2f} M | {vs_tf} | {vs_cf} |")
    print(f"\n({fmt_int(rt['calls'])} RTL calls on the two NICs.)")
    if differ:
        print(f"cosim_slowdown: FAIL: flows.csv differs from the model's in: {'; '.join(differ)}", file=sys.stderr)
        return 1
    print(f"every RTL run's flows.csv equals its model run's (all {a.runs} runs of each row)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
