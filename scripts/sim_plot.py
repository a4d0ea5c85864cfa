#!/usr/bin/env python3
"""Plots of fabric-simulator runs (gnuplot, PNG).

  scripts/sim_plot.py OUT RUN_DIR [RUN_DIR...]

Each RUN_DIR holds one run's flows.csv and summary.json (lossless_sim --out RUN_DIR); the
run is labelled by its directory name. Writes OUT/fct_by_size.png (FCT slowdown p99 by flow
size, one bar per run) and OUT/fct_cdf.png (CDF of the FCT slowdown of all completed flows).
"""
import argparse
import csv
import json
import os
import shutil
import subprocess
import sys


def label(name, summary):
    """A run's legend entry: its name and how many of its flows did not complete."""
    n = summary["flows"]["unfinished"]
    return f"{name} ({n} unfinished)" if n else name


def plots(out, results, dirs=None):
    """results: [(label, summary dict)]; dirs: label -> run directory (default out/label).
    The gnuplot data files go to out/data/, the PNGs to out/."""
    dirs = dirs or {name: os.path.join(out, name) for name, _ in results}
    gp = shutil.which("gnuplot")
    if not gp:
        raise RuntimeError("gnuplot not found (make deps installs gnuplot-nox)")
    data = os.path.join(out, "data")
    os.makedirs(data, exist_ok=True)
    # FCT p99 slowdown by size bucket; buckets no run has a completed flow in are skipped,
    # and each bucket's label counts the flows left unfinished in it (all runs together)
    nb = len(results[0][1]["fct"]["by_size"])
    keep = [i for i in range(nb) if any(s["fct"]["by_size"][i]["count"] for _, s in results)]
    if not keep:
        raise RuntimeError("no run has a completed flow: nothing to plot")
    dat = os.path.join(data, "fct_by_size.dat")
    with open(dat, "w") as f:
        f.write("bucket " + " ".join(f'"{label(n, s)}"' for n, s in results) + "\n")
        for i in keep:
            b = results[0][1]["fct"]["by_size"][i]["size"]
            unf = sum(s["fct"]["by_size"][i]["unfinished"] for _, s in results)
            row = []
            for _, s in results:
                e = s["fct"]["by_size"][i]
                row.append(f"{e['slowdown']['p99']:.3f}" if e["count"] else "NaN")
            name = f"{b}: {unf} unfinished" if unf else b
            f.write(f'"{name}" ' + " ".join(row) + "\n")
    # slowdown CDFs of the completed flows
    cdfs = []
    for name, s in results:
        vals = []
        with open(os.path.join(dirs[name], "flows.csv")) as f:
            for r in csv.DictReader(f):
                if r["slowdown"]:
                    vals.append(float(r["slowdown"]))
        if not vals:
            continue
        vals.sort()
        path = os.path.join(data, f"cdf_{name}.dat")
        with open(path, "w") as f:
            for i, v in enumerate(vals):
                f.write(f"{v} {(i + 1) / len(vals)}\n")
        cdfs.append((label(name, s), path))
    script = f"""
set terminal pngcairo size 1100,600 noenhanced
set output '{os.path.join(out, "fct_by_size.png")}'
set title 'FCT slowdown p99 by flow size (completed flows; unfinished counted in the labels)'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y
set ylabel 'slowdown p99 (FCT / ideal)'
set key top right
set grid ytics
set xtics rotate by -20 left
set bmargin 5
plot for [c=2:{len(results) + 1}] '{dat}' using c:xtic(1) title columnheader(c)
unset logscale y
set xtics norotate
set bmargin
set output '{os.path.join(out, "fct_cdf.png")}'
set title 'CDF of FCT slowdown, completed flows (unfinished counted in the key)'
set style data lines
set logscale x
set xrange [1:*]
set xlabel 'slowdown (FCT / ideal)'
set ylabel 'fraction of completed flows'
set key bottom right
set yrange [0:1]
plot {", ".join(f"'{p}' using 1:2 with lines lw 2 title '{n}'" for n, p in cdfs)}
"""
    p = subprocess.run([gp], input=script, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("gnuplot: " + p.stderr.strip())


def main():
    ap = argparse.ArgumentParser(description="FCT plots of simulator runs (gnuplot).")
    ap.add_argument("out", help="directory for the plots")
    ap.add_argument("runs", nargs="+", help="run directories (each with summary.json, flows.csv)")
    args = ap.parse_args()
    out, runs = args.out, args.runs
    results, dirs = [], {}
    for d in runs:
        name = os.path.basename(os.path.normpath(d))
        try:
            with open(os.path.join(d, "summary.json")) as f:
                results.append((name, json.load(f)))
        except OSError as e:
            sys.exit(f"sim_plot: {d}: no summary.json ({e.strerror})")
        if not os.path.exists(os.path.join(d, "flows.csv")):
            sys.exit(f"sim_plot: {d}: no flows.csv")
        dirs[name] = d
    os.makedirs(out, exist_ok=True)
    try:
        plots(out, results, dirs)
    except RuntimeError as e:
        sys.exit(f"sim_plot: {e}")
    print(f"plots: {out}/fct_by_size.png, {out}/fct_cdf.png")


if __name__ == "__main__":
    main()
