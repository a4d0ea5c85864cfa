#!/usr/bin/env python3
"""Plots of fabric-simulator runs (gnuplot, PNG).

  scripts/sim_plot.py OUT RUN_DIR [RUN_DIR...]

Each RUN_DIR holds one run's flows.csv and summary.json (lossless_sim --out RUN_DIR); the
run is labelled by its directory name. Writes OUT/fct_by_size.png (FCT slowdown p99 by flow
size, one bar per run) and OUT/fct_cdf.png (CDF of the FCT slowdown of all completed flows).
A run without a completed flow is named in the keys; when no run has one, nothing is written.
Every input is read and checked before anything is written.
"""
import argparse
import csv
import json
import os
import shutil
import subprocess
import sys

from ll_out import dir_problem  # scripts/ll_out.py


def label(name, summary):
    """A run's legend entry: its name and how many of its flows did not complete."""
    n = summary["flows"]["unfinished"]
    return f"{name} ({n} unfinished)" if n else name


def need(summary, path):
    """summary's value at a dotted path (list items by index); RuntimeError naming the path
    when it is missing."""
    v = summary
    for k in path.split("."):
        if isinstance(v, list) and k.isdigit() and int(k) < len(v):
            v = v[int(k)]
        elif isinstance(v, dict) and k in v:
            v = v[k]
        else:
            raise RuntimeError(f"summary.json has no '{path}'")
    return v


def check_summary(summary):
    """The keys plots() reads, with numbers where it computes; RuntimeError naming the first bad one."""
    paths = ["flows.unfinished"]
    buckets = need(summary, "fct.by_size")
    if not isinstance(buckets, list) or not buckets:
        raise RuntimeError("summary.json: 'fct.by_size' is not a list of size buckets")
    for i, b in enumerate(buckets):
        paths += [f"fct.by_size.{i}.count", f"fct.by_size.{i}.unfinished"]
        if isinstance(b, dict) and b.get("count"):
            paths.append(f"fct.by_size.{i}.slowdown.p99")
        if not isinstance(need(summary, f"fct.by_size.{i}.size"), str):
            raise RuntimeError(f"summary.json: 'fct.by_size.{i}.size' is not a bucket name")
    for path in paths:
        v = need(summary, path)
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise RuntimeError(f"summary.json: '{path}' is not a number ({json.dumps(v)})")


def slowdowns(path):
    """The FCT slowdowns of the completed flows in a run's flows.csv (an unfinished flow's is empty)."""
    with open(path, newline="") as f:
        rows = csv.DictReader(f)
        try:
            if rows.fieldnames is None:
                raise RuntimeError(f"{path}: empty (not even the header line)")
            if "slowdown" not in rows.fieldnames:
                raise RuntimeError(f"{path}: no 'slowdown' column in the header")
            return [float(r["slowdown"]) for r in rows if r["slowdown"]]
        except (ValueError, csv.Error) as e:  # a bad number, bytes that are not UTF-8, a NUL
            raise RuntimeError(f"{path}: line {rows.line_num}: {e}")


def plots(out, results, dirs=None):
    """results: [(label, summary dict)]; dirs: label -> run directory (default out/label).
    The gnuplot data files go to out/data/, the PNGs to out/. Everything is read and checked
    before anything is written: a RuntimeError leaves out/ as it was."""
    dirs = dirs or {name: os.path.join(out, name) for name, _ in results}
    gp = shutil.which("gnuplot")
    if not gp:
        raise RuntimeError("gnuplot not found (make deps installs gnuplot-nox)")
    sizes = [b["size"] for b in results[0][1]["fct"]["by_size"]]
    for name, s in results:
        if [b["size"] for b in s["fct"]["by_size"]] != sizes:
            raise RuntimeError(f"{name}: other flow-size buckets than {results[0][0]} ({', '.join(sizes)})")
    # FCT p99 slowdown by size bucket; buckets no run has a completed flow in are skipped,
    # and each bucket's label counts the flows left unfinished in it (all runs together)
    nb = len(sizes)
    keep = [i for i in range(nb) if any(s["fct"]["by_size"][i]["count"] for _, s in results)]
    if not keep:
        unf = sum(s["flows"]["unfinished"] for _, s in results)
        raise RuntimeError(f"no run has a completed flow ({unf} unfinished): nothing to plot")
    vals = {}
    for name, s in results:
        vals[name] = sorted(slowdowns(os.path.join(dirs[name], "flows.csv")))
        done = sum(b["count"] for b in s["fct"]["by_size"])
        if done and not vals[name]:
            raise RuntimeError(f"{dirs[name]}: summary.json counts {done} completed flows, flows.csv none")
    data = os.path.join(out, "data")
    if dir_problem(out):  # the callers (main, sim_demo, peers) asked it already, before their runs
        raise RuntimeError(f"{out}: {dir_problem(out)}")
    try:
        os.makedirs(data, exist_ok=True)
    except OSError as e:
        raise RuntimeError(f"{out}: cannot create the directory ({e.strerror})")
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
    # a run with no completed flow has no bar and no curve (gnuplot refuses a column of
    # NaN): a key entry names it instead
    none = "keyentry title '{}: no completed flow'"
    bars = [f"'{dat}' using {c}:xtic(1) title columnheader({c})"
            if any(s["fct"]["by_size"][i]["count"] for i in keep) else none.format(label(name, s))
            for c, (name, s) in enumerate(results, 2)]
    # slowdown CDFs of the completed flows
    cdfs = []
    for name, s in results:
        if not vals[name]:
            cdfs.append(none.format(label(name, s)))
            continue
        path = os.path.join(data, f"cdf_{name}.dat")
        with open(path, "w") as f:
            for i, v in enumerate(vals[name]):
                f.write(f"{v} {(i + 1) / len(vals[name])}\n")
        cdfs.append(f"'{path}' using 1:2 with lines lw 2 title '{label(name, s)}'")
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
plot {", ".join(bars)}
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
plot {", ".join(cdfs)}
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
    if dir_problem(out):
        sys.exit(f"sim_plot: OUT {out}: {dir_problem(out)}")
    results, dirs = [], {}
    for d in runs:
        name = os.path.basename(os.path.normpath(d))
        if name in dirs:
            sys.exit(f"sim_plot: {d}: a second run named {name} (a run is labelled by its directory name)")
        try:
            with open(os.path.join(d, "summary.json")) as f:
                results.append((name, json.load(f)))
            check_summary(results[-1][1])
        except OSError as e:
            sys.exit(f"sim_plot: {d}: no summary.json ({e.strerror})")
        except ValueError as e:  # json.JSONDecodeError, or bytes that are not UTF-8
            sys.exit(f"sim_plot: {d}: summary.json is not JSON ({e})")
        except RuntimeError as e:
            sys.exit(f"sim_plot: {d}: {e}")
        if not os.path.isfile(os.path.join(d, "flows.csv")):
            sys.exit(f"sim_plot: {d}: no flows.csv")
        dirs[name] = d
    try:
        plots(out, results, dirs)
    except RuntimeError as e:
        sys.exit(f"sim_plot: {e}")
    except OSError as e:
        sys.exit(f"sim_plot: {e.filename}: {e.strerror}")
    print(f"plots: {out}/fct_by_size.png, {out}/fct_cdf.png")


if __name__ == "__main__":
    main()
