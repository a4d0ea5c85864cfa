#!/usr/bin/env python3
"""make demo: the default fabric run of the simulator, four ways.

Runs sim/scenarios/demo.json with ECMP and DRILL(2,1), each on a lossless fabric (PFC)
with go-back-N and on a lossy one (PFC off) with IRN (two runs at a time), prints a
comparison table and writes
plots (gnuplot, PNG) next to each run's flows.csv and summary.json:
  OUT/<variant>/{flows.csv,summary.json}
  OUT/fct_by_size.png   FCT p99 slowdown by flow size, per variant
  OUT/fct_cdf.png       CDF of FCT slowdown over all completed flows, per variant
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sim_plot import plots  # noqa: E402
from ll_out import dir_problem, num  # noqa: E402

# (name, balancer, transport, PFC)
VARIANTS = [
    ("ecmp-gbn", "ecmp", "gbn", True),
    ("ecmp-irn", "ecmp", "irn", False),
    ("drill-gbn", "drill", "gbn", True),
    ("drill-irn", "drill", "irn", False),
]


def run(sim, scenario, out, name, mode, transport, pfc):
    d = os.path.join(out, name)
    cmd = [sim, scenario, "--quiet", "--out", d, "--set", f'balancer.mode="{mode}"',
           "--set", f'nic.transport="{transport}"', "--set", f"switch.pfc.enable={'true' if pfc else 'false'}"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr.strip()}")
    with open(os.path.join(d, "summary.json")) as f:
        return json.load(f)


def table(results):
    lines = []
    hdr = (f"{'variant':<10} {'done':>9} {'FCT mean':>9} {'FCT p99':>9} {'PAUSE':>6} {'CNPs':>8} "
           f"{'out-of-order':>12} {'retx':>8} {'drops':>6} {'leaf STDV':>9} {'CPU s':>6}")
    lines.append(hdr)
    lines.append("-" * len(hdr))
    for name, s in results:
        t, a = s["totals"], s["fct"]["all"]
        leaf = s["tiers"].get("leaf", {}).get("queue_stdv_bytes")
        lines.append(
            f"{name:<10} {s['flows']['completed']:>4}/{s['flows']['started']:<4} {num(a['fct_us']['mean'], '.0f'):>9} "
            f"{num(a['fct_us']['p99'], '.0f'):>9} {t['pause_sent']:>6} {t['cnps_sent']:>8} {t['out_of_order_packets']:>12} "
            f"{t['retransmitted_packets']:>8} {s['packets']['dropped']:>6} {num(leaf, '.0f'):>9} "
            f"{s['performance']['cpu_s']:>6.1f}")
    lines.append("")
    lines.append("FCT by flow size, microseconds: mean / p99 of the completed flows, [unfinished flows]")
    buckets = [b["size"] for b in results[0][1]["fct"]["by_size"]]
    lines.append(f"{'variant':<10} " + " ".join(f"{b:>26}" for b in buckets))
    for name, s in results:
        cells = []
        for b in s["fct"]["by_size"]:
            stat = f"{b['fct_us']['mean']:.0f} /{b['fct_us']['p99']:>7.0f}" if b["count"] else "-"
            cells.append(f"{stat:>18} [{b['unfinished']:>4}]")
        lines.append(f"{name:<10} " + " ".join(cells))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sim", default="build/sim/lossless_sim")
    ap.add_argument("--scenario", default="sim/scenarios/demo.json")
    ap.add_argument("--out", default="build/demo")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    for path in (a.sim, a.scenario):
        if not os.path.exists(path):
            sys.exit(f"sim_demo: {path} not found (run make build first)")
    if not (os.path.isfile(a.sim) and os.access(a.sim, os.X_OK)):
        sys.exit(f"sim_demo: --sim {a.sim}: not an executable file")
    if not os.path.isfile(a.scenario):
        sys.exit(f"sim_demo: --scenario {a.scenario}: not a file")
    if a.jobs < 1:
        sys.exit(f"sim_demo: --jobs must be at least 1 (got {a.jobs})")
    if dir_problem(a.out):
        sys.exit(f"sim_demo: --out {a.out}: {dir_problem(a.out)}")
    os.makedirs(a.out, exist_ok=True)
    print(f"demo: {a.scenario}, 4 runs ({a.jobs} at a time) -> {a.out}/", flush=True)
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
            futs = [(n, ex.submit(run, a.sim, a.scenario, a.out, n, m, t, pfc)) for n, m, t, pfc in VARIANTS]
            results = [(n, f.result()) for n, f in futs]
        s0 = results[0][1]["scenario"]
        print(f"{s0['name']}: {s0['hosts']} hosts, {s0['switches']} switches, {s0['duration_us'] / 1000:g} ms simulated\n")
        print(table(results))
        plots(a.out, results)
    except RuntimeError as e:
        sys.exit(f"sim_demo: {e}")
    print(f"\nplots: {a.out}/fct_by_size.png, {a.out}/fct_cdf.png; per run: {a.out}/<variant>/flows.csv, summary.json")


if __name__ == "__main__":
    main()
