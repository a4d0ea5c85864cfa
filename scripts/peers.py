#!/usr/bin/env python3
"""make peers: every load balancer of the simulator on the peer-comparison fabric.

Runs sim/scenarios/rdma_leaf_spine_128.json (128 hosts at 100G, 2:1 at the leaves,
AliStorage sizes at 50% of the uplinks, until every flow finishes) with every balancer
the simulator lists (lossless_sim --list) on two fabrics: PFC + go-back-N (the scenario
as written) and lossy + IRN (PFC off). Prints one table (FCT slowdown of the sender-side
FCT over the base-RTT ideal, the form the HPCC / ConWeave ns-3 simulators report;
unfinished flows; PAUSE frames; out-of-order packets; CPU seconds), writes it to
OUT/table.md, and plots per fabric (OUT/<fabric>/fct_by_size.png, fct_cdf.png).
  OUT/<fabric>/<balancer>/{flows.csv,summary.json}
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

FABRICS = [
    ("pfc-gbn", ['switch.pfc.enable=true', 'nic.transport="gbn"']),
    ("lossy-irn", ['switch.pfc.enable=false', 'nic.transport="irn"']),
]


def balancers(sim):
    p = subprocess.run([sim, "--list"], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{sim} --list: exit {p.returncode}: {p.stderr.strip()}")
    return [line.split()[1] for line in p.stdout.splitlines() if line.startswith("balancer ")]


def run(sim, scenario, out, fabric, sets, balancer):
    d = os.path.join(out, fabric, balancer)
    cmd = [sim, scenario, "--quiet", "--out", d, "--set", f'balancer.mode="{balancer}"']
    for s in sets:
        cmd += ["--set", s]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr.strip()}")
    with open(os.path.join(d, "summary.json")) as f:
        return json.load(f)


def table(rows):
    hdr = ("| fabric | balancer | done | unfinished | done, last ACK missing | slowdown mean | p50 | p99 | PAUSE | "
           "out-of-order | retx | drops | CPU s |")
    lines = [hdr, "|" + " --- |" * (hdr.count("|") - 1)]
    for fabric, bal, s in rows:
        sd = s["fct"]["all"]["slowdown_base_rtt"]
        t = s["totals"]
        lines.append(
            f"| {fabric} | {bal} | {s['flows']['completed']}/{s['flows']['started']} | {s['flows']['unfinished']} | "
            f"{s['flows']['completed_not_acked']} | "
            f"{num(sd['mean'], '.2f')} | {num(sd['p50'], '.2f')} | {num(sd['p99'], '.2f')} | {t['pause_sent']} | "
            f"{t['out_of_order_packets']} | {t['retransmitted_packets']} | {s['packets']['dropped']} | "
            f"{s['performance']['cpu_s']:.1f} |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sim", default="build/sim/lossless_sim")
    ap.add_argument("--scenario", default="sim/scenarios/rdma_leaf_spine_128.json")
    ap.add_argument("--out", default="build/peers")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--balancers", help="comma-separated subset (default: every balancer the simulator lists)")
    a = ap.parse_args()
    want = None
    if a.balancers is not None:
        want = [b.strip() for b in a.balancers.split(",")]
        if not a.balancers.strip():
            sys.exit("peers: --balancers is empty (give a comma-separated list, or leave it out for all)")
        if not all(want):
            sys.exit(f"peers: --balancers '{a.balancers}': an empty name in the list")
        twice = sorted({b for b in want if want.count(b) > 1})
        if twice:
            sys.exit(f"peers: --balancers names {', '.join(twice)} more than once")
    if a.jobs < 1:
        sys.exit("peers: --jobs must be at least 1")
    if not (os.path.isfile(a.sim) and os.access(a.sim, os.X_OK)):
        sys.exit(f"peers: {a.sim}: no simulator executable there (make peers builds it)")
    if not os.path.isfile(a.scenario):
        sys.exit(f"peers: --scenario {a.scenario}: no such scenario file")
    if dir_problem(a.out):
        sys.exit(f"peers: --out {a.out}: {dir_problem(a.out)}")
    try:
        names = balancers(a.sim)
        if want is not None:
            unknown = [b for b in want if b not in names]
            if unknown:
                sys.exit(f"peers: unknown balancer(s) {', '.join(unknown)}; the simulator has {', '.join(names)}")
            names = want
        jobs = [(f, sets, b) for f, sets in FABRICS for b in names]
        print(f"peers: {a.scenario}, {len(jobs)} runs ({a.jobs} at a time) -> {a.out}/", flush=True)
        with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
            futs = [(f, b, ex.submit(run, a.sim, a.scenario, a.out, f, sets, b)) for f, sets, b in jobs]
            rows = [(f, b, fut.result()) for f, b, fut in futs]
        text = table(rows)
        print(text)
        with open(os.path.join(a.out, "table.md"), "w") as f:
            f.write(text + "\n")
        for fabric, _ in FABRICS:
            res = [(b, s) for f, b, s in rows if f == fabric]
            plots(os.path.join(a.out, fabric), res)
    except RuntimeError as e:
        sys.exit(f"peers: {e}")
    print(f"\ntable: {a.out}/table.md; plots: {a.out}/<fabric>/fct_by_size.png, fct_cdf.png")


if __name__ == "__main__":
    main()
