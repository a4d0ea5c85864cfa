#!/usr/bin/env python3
"""make bench: speed and memory of the fabric simulator (goals in brackets).

1. Standard scenario sim/scenarios/bench_leaf_spine_256.json (256 hosts, 16 leaves x 16
   hosts, 16 spines, 10G, 1.5 KB MTU, 2 MB permutation + web search at 50% load):
   data packet-hops per CPU-second [>= 1M, single-threaded] and peak memory.
2. Memory per flow: the same fabric with the web-search load at 25% and at 50%: the
   difference in peak RSS over the difference in flows (every flow's state is allocated
   up front, so this bounds the per-active-flow cost from above) [<= 1 KB per active flow].
3. The DRILL paper's 48 x 48 x 48 fabric at 80% load for 10 ms of simulated time
   (sim/scenarios/drill_48x48x48.json) [< 10 minutes on 2 cores]. --skip-large skips it.
Each run is one lossless_sim process; figures come from its summary.json.
"""
import argparse
import json
import os
import subprocess
import sys

from ll_out import dir_problem  # scripts/ll_out.py


def run(sim, scenario, out, sets=()):
    cmd = [sim, scenario, "--quiet", "--out", out]
    for s in sets:
        cmd += ["--set", s]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"sim_bench: {' '.join(cmd)}: exit {p.returncode}: {p.stderr.strip()}")
    with open(os.path.join(out, "summary.json")) as f:
        return json.load(f)


def line(label, value, goal=""):
    print(f"  {label:<34} {value:>16}  {goal}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sim", default="build/sim/lossless_sim")
    ap.add_argument("--out", default="build/bench")
    ap.add_argument("--skip-large", action="store_true", help="skip the 48 x 48 x 48 run")
    a = ap.parse_args()
    if not os.path.exists(a.sim):
        sys.exit(f"sim_bench: {a.sim} not found (run make build first)")
    if not os.path.isfile(a.sim) or not os.access(a.sim, os.X_OK):
        sys.exit(f"sim_bench: {a.sim} is not an executable file")
    if dir_problem(a.out):
        sys.exit(f"sim_bench: --out {a.out}: {dir_problem(a.out)}")
    std, big = "sim/scenarios/bench_leaf_spine_256.json", "sim/scenarios/drill_48x48x48.json"
    for sc in [std] + ([] if a.skip_large else [big]):
        if not os.path.isfile(sc):
            sys.exit(f"sim_bench: {sc}: no such scenario file (run from the repository root)")
    res = {}

    print(f"[1] {std}: 256 hosts, 10G, MTU 1.5 KB, 2 MB permutation + web search at 50%", flush=True)
    s = run(a.sim, std, os.path.join(a.out, "std"))
    p = s["performance"]
    hops = s["packets"]["data_hops"]
    rate = hops / p["cpu_s"]
    line("data packet-hops", f"{hops:,}")
    line("CPU time", f"{p['cpu_s']:.2f} s")
    line("data packet-hops per CPU-second", f"{rate / 1e6:.2f} M", "[goal >= 1 M]" + (" MET" if rate >= 1e6 else " MISSED"))
    line("events per CPU-second", f"{p['events'] / p['cpu_s'] / 1e6:.2f} M")
    line("peak memory (RSS)", f"{p['peak_rss_mb']:.0f} MB")
    line("flows started / completed", f"{s['flows']['started']:,} / {s['flows']['completed']:,}")
    res["standard"] = {"hops": hops, "cpu_s": p["cpu_s"], "hops_per_cpu_s": rate, "peak_rss_mb": p["peak_rss_mb"],
                       "flows": s["flows"]["started"]}

    print("[2] memory per flow: web-search load 25% vs 50% on the same fabric", flush=True)
    lo = run(a.sim, std, os.path.join(a.out, "mem25"), ["workload.traffic[1].load=0.25", 'duration="40ms"'])
    hi = run(a.sim, std, os.path.join(a.out, "mem50"), ['duration="40ms"'])
    dflows = hi["flows"]["started"] - lo["flows"]["started"]
    drss = (hi["performance"]["peak_rss_mb"] - lo["performance"]["peak_rss_mb"]) * 1024 * 1024
    per = drss / dflows if dflows > 0 else float("nan")
    line("flows at 25% / 50%", f"{lo['flows']['started']:,} / {hi['flows']['started']:,}")
    line("peak RSS at 25% / 50%", f"{lo['performance']['peak_rss_mb']:.1f} / {hi['performance']['peak_rss_mb']:.1f} MB")
    line("bytes per flow (RSS slope)", f"{per:.0f} B", "[goal <= 1 KB per active flow]" + (" MET" if per <= 1024 else " MISSED"))
    res["memory"] = {"flows_lo": lo["flows"]["started"], "flows_hi": hi["flows"]["started"],
                     "rss_lo_mb": lo["performance"]["peak_rss_mb"], "rss_hi_mb": hi["performance"]["peak_rss_mb"],
                     "bytes_per_flow": per}

    if not a.skip_large:
        print(f"[3] {big}: 2304 hosts, DRILL(2,1), web search at 80%, 10 ms", flush=True)
        b = run(a.sim, big, os.path.join(a.out, "drill48"))
        bp = b["performance"]
        line("wall time", f"{bp['wall_s']:.1f} s", "[goal < 600 s]" + (" MET" if bp["wall_s"] < 600 else " MISSED"))
        line("CPU time", f"{bp['cpu_s']:.1f} s")
        line("data packet-hops", f"{b['packets']['data_hops']:,}")
        line("data packet-hops per CPU-second", f"{b['packets']['data_hops'] / bp['cpu_s'] / 1e6:.2f} M")
        line("peak memory (RSS)", f"{bp['peak_rss_mb']:.0f} MB")
        line("flows started / completed", f"{b['flows']['started']:,} / {b['flows']['completed']:,}")
        res["drill48"] = {"wall_s": bp["wall_s"], "cpu_s": bp["cpu_s"], "hops": b["packets"]["data_hops"],
                          "peak_rss_mb": bp["peak_rss_mb"], "flows": b["flows"]["started"]}

    with open(os.path.join(a.out, "bench.json"), "w") as f:
        json.dump(res, f, indent=2)
    print(f"figures: {a.out}/bench.json")


if __name__ == "__main__":
    main()
