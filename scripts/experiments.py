#!/usr/bin/env python3
"""Paper experiments: each is data, not code (sim/experiments/<name>/experiment.json and
its scenario), run through lossless_sim.

  experiments.py [--name NAME] [--full | --out DIR] [--swap-check] [--sim BIN] [--jobs N] [--resume]
  experiments.py --seeds [--name NAME]
  experiments.py --index

An experiment names a scenario, the axes of its sweep (each value a list of --set
overrides, or a number for one key), the metrics to read from each run's summary.json,
the paper's claims with a check of ours against each, and direction assertions for the
quick form. Quick runs (the default, part of make test) use the experiment's "quick"
overrides and write build/experiments/<name>/ (--out DIR: DIR/<name>/); --full runs the
paper's scale with at least 3 seeds and writes results/<name>/ and the README tables (the
committed results; no --out). Each run directory gets points.csv (every run), means.csv
(mean and 95% confidence interval over seeds per point), a gnuplot PNG per plotted metric
and summary.md (paper beside ours, verdicts).
A quick run fails when a direction assertion fails; --swap-check swaps the two sides of
every assertion and fails unless each then fails (the assertions can fail).
--seeds runs nothing: it reads the committed results/<name>/ back, shows how many seeds agree
with each claim, and fails when a summary.md is not what its points.csv and the current
claims give. --index runs nothing either: it writes results/README.md and README.md's table
from the committed results (what a --full run does last).
"""
import argparse
import concurrent.futures
import csv
import itertools
import hashlib
import json
import math
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXP_DIR = os.path.join(ROOT, "sim", "experiments")
# two-sided 95% Student t quantiles for n - 1 degrees of freedom
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228}
OPS = {">": lambda a, b: a > b, ">=": lambda a, b: a >= b, "<": lambda a, b: a < b, "<=": lambda a, b: a <= b}


class Bad(Exception):
    pass


class NoPoint(Bad):
    """A claim's points are not in this sweep (a quick form leaves some out)."""


def load(name):
    path = os.path.join(EXP_DIR, name, "experiment.json")
    try:
        with open(path) as f:
            e = json.load(f)
    except (OSError, json.JSONDecodeError) as err:
        raise Bad(f"{path}: {err}")
    for key in ("title", "paper", "scenario", "axes", "metrics", "claims", "quick", "full"):
        if key not in e:
            raise Bad(f"{path}: missing key '{key}'")
    e["name"] = name
    e["dir"] = os.path.dirname(path)
    names = [a["name"] for a in e["axes"]]
    for c in e["claims"] + e.get("asserts", []):
        if c["metric"] not in e["metrics"] and c["metric"] not in e.get("fluid", {}).get("metrics", {}):
            raise Bad(f"{path}: unknown metric '{c['metric']}'")
        for where in [c.get("where", {}), c.get("vs", {}), c.get("a", {}), c.get("b", {})]:
            for k in where:
                if k not in names:
                    raise Bad(f"{path}: unknown axis '{k}'")
    return e


def axis_values(axis, override):
    vals = override if override is not None else axis["values"]
    if isinstance(vals, dict):  # named variants: name -> list of --set overrides
        return [(str(k), list(v)) for k, v in vals.items()]
    if isinstance(axis["values"], dict):  # an override that names a subset of the variants
        return [(str(k), list(axis["values"][k])) for k in vals]
    return [(str(v), [f"{axis['key']}={json.dumps(v)}"]) for v in vals]


def points(e, form):
    over = e[form].get("axes", {})
    per_axis = [[(a["name"], label, sets) for label, sets in axis_values(a, over.get(a["name"]))] for a in e["axes"]]
    out = []
    for combo in itertools.product(*per_axis):
        out.append(({n: label for n, label, _ in combo}, [s for _, _, sets in combo for s in sets]))
    return out


def gp_str(text):
    """Text for a single-quoted gnuplot string (a quote inside is written twice)."""
    return text.replace("'", "''")


def metric(summary, spec):
    def get(path):
        v = summary
        parts = path.split(".")
        i = 0
        while i < len(parts):
            part = parts[i]
            if isinstance(v, list) and part.isdigit() and int(part) < len(v):
                v = v[int(part)]  # a list element by index (by_entry.1)
                i += 1
                continue
            # the longest key that matches: a key may have dots in it (p99.99 before p99)
            key = next((".".join(parts[i:j]) for j in range(len(parts), i, -1)
                        if isinstance(v, dict) and ".".join(parts[i:j]) in v), None)
            if key is None:
                if spec.get("optional"):
                    return float("nan")  # a figure only some runs have (e.g. reorder_buffer)
                raise Bad(f"summary.json has no '{path}'")
            v = v[key]
            i += key.count(".") + 1
        return float("nan") if v is None else float(v)
    v = get(spec["path"])
    if "times" in spec:
        v *= get(spec["times"])
    if "over" in spec:  # a ratio of two figures of the same run
        d = get(spec["over"])
        v = v / d if d else float("nan")
    return v * spec.get("scale", 1.0)


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def run_key(sim, scenario, args):
    """What makes a run's output: the simulator binary, the scenario file and the arguments
    (--resume reuses a run only when all three are unchanged)."""
    return {"sim_sha256": sha256(sim), "scenario_sha256": sha256(scenario), "args": args}


def run_point(sim, e, form, labels, sets, seed, runs, resume=False):
    d = os.path.join(runs, run_name(labels, seed))
    scenario = os.path.join(e["dir"], e["scenario"])
    args = ["--set", f"seed={seed}"]
    for s in e[form].get("set", []) + sets:
        args += ["--set", s]
    cmd = [sim, scenario, "--quiet", "--out", d] + args
    key = run_key(sim, scenario, args)
    keyfile = os.path.join(d, "run_key.json")
    done = False
    if resume and os.path.isfile(keyfile) and os.path.isfile(os.path.join(d, "summary.json")):
        with open(keyfile) as f:
            done = json.load(f) == key
    if not done:
        if os.path.isdir(d):
            shutil.rmtree(d)
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            raise Bad(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr.strip()}")
        with open(keyfile, "w") as f:   # written last: a run cut short is never reused
            json.dump(key, f)
    with open(os.path.join(d, "summary.json")) as f:
        s = json.load(f)
    return {m: metric(s, spec) for m, spec in e["metrics"].items()}


def commit():
    """The code's commit, taken once before anything is written, with "-dirty" when a tracked
    file that a run can depend on differs from it: the files experiment runs write themselves
    (results/ and README.md's experiments table) do not count, so a second experiment run
    after a first one's results were written still names the plain commit."""
    global _COMMIT
    if _COMMIT is None:
        p = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
        q = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no", "--", ".",
                            ":(exclude)results", ":(exclude)README.md"], capture_output=True, text=True)
        if p.returncode or q.returncode:
            _COMMIT = "unknown"
        else:
            _COMMIT = p.stdout.strip() + ("-dirty" if q.stdout.strip() else "")
    return _COMMIT


_COMMIT = None


def mean_ci(xs):
    m = sum(xs) / len(xs)
    if len(xs) < 2:
        return m, 0.0
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))
    return m, T95.get(len(xs) - 1, 1.96) * sd / math.sqrt(len(xs))


def select(means, where):
    return [r for r in means if all(r["labels"][k] == str(v) for k, v in where.items())]


def claim_value(means, c):
    """The claim's figure: `reduce` of the metric over the points `where` selects; with
    `vs`, that divided by the same over the points `vs` selects (a ratio)."""
    def reduced(where):
        vals = [r["mean"][c["metric"]] for r in select(means, where)]
        if not vals:
            raise NoPoint(f"claim '{c['claim']}': no point matches {where}")
        return {"min": min, "max": max, "mean": lambda v: sum(v) / len(v)}[c.get("reduce", "mean")](vals)
    v = reduced(c.get("where", {}))
    if "vs" in c:
        d = reduced(c["vs"])
        if d == 0:
            raise Bad(f"claim '{c['claim']}': the 'vs' side is 0")
        v /= d
    return v


def check_asserts(e, means, swap):
    """Direction assertions: mean of `a` OP factor x mean of `b`. Returns failures."""
    failed = []
    for a in e.get("asserts", []):
        side_a, side_b = (a["b"], a["a"]) if swap else (a["a"], a["b"])
        va = [r["mean"][a["metric"]] for r in select(means, side_a)]
        vb = [r["mean"][a["metric"]] for r in select(means, side_b)]
        if not va or not vb:
            raise Bad(f"assertion '{a['what']}': no point matches one side")
        x, y = sum(va) / len(va), sum(vb) / len(vb)
        ok = OPS[a["op"]](x, a.get("factor", 1.0) * y)
        if not ok:
            failed.append(f"{a['what']}: {a['metric']} {x:.4g} at {side_a} is not {a['op']} "
                          f"{a.get('factor', 1.0)} x {y:.4g} at {side_b}")
    return failed


def plot(e, means, out):
    """spec "plot": {"x": axis, "y": [metric, or a list of metrics drawn together], "logx"}.
    A line per value of the other axes (and per metric of a list); x may be numeric or named."""
    gp = shutil.which("gnuplot")
    spec = e.get("plot")
    if not spec or not gp:
        return []
    x = spec["x"]
    others = [a["name"] for a in e["axes"] if a["name"] != x]

    def numeric(v):
        try:
            float(v)
            return True
        except ValueError:
            return False
    named = not all(numeric(r["labels"][x]) for r in means)
    pngs = []
    for item in spec["y"]:
        group = item if isinstance(item, list) else [item]
        name = "_and_".join(group)
        series = {}
        for m in group:
            for r in means:
                key = ", ".join([f"{k}={r['labels'][k]}" for k in others] + ([m] if len(group) > 1 else [])) or m
                series.setdefault(key, []).append((r, m))
        data = os.path.join(out, f"{name}.dat")
        with open(data, "w") as f:
            for key, rows in series.items():
                f.write(f'"{key}"\n')
                for r, m in rows:
                    label = f'"{r["labels"][x]}"' if named else r["labels"][x]
                    f.write(f"{label} {r['mean'][m]} {r['ci'][m]}\n")
                f.write("\n\n")
        png = os.path.join(out, f"{name}.png")
        using = "0:2:3:xtic(1)" if named else "1:2:3"
        script = (f"set terminal pngcairo size 900,500 noenhanced\nset output '{png}'\n"
                  f"set title '{gp_str(e['title'])}: {name} (mean, 95% CI over seeds)'\nset xlabel '{x}'\nset ylabel '{name}'\n"
                  f"set key outside right\nset grid\nset offsets graph 0.05, graph 0.05, 0, 0\n"
                  + ("set logscale x\n" if spec.get("logx") else "") +
                  f"plot for [i=0:{len(series) - 1}] '{data}' index i using {using} with yerrorlines "
                  f"title columnheader(1)\n")
        p = subprocess.run([gp], input=script, capture_output=True, text=True)
        if p.returncode != 0:
            raise Bad(f"gnuplot: {p.stderr.strip()}")
        pngs.append(os.path.basename(png))
    return pngs


def run_fluid(e, pts, out):
    """The experiment's "fluid" section: scripts/dcqcn_fluid.py once per point (it is
    deterministic) with "args" plus the point's "per_point" arguments; writes
    fluid_<point>.csv beside the results and returns {point tag: {metric: value}} for the
    section's "metrics" (paths into the solver's JSON)."""
    spec = e.get("fluid")
    if not spec:
        return {}
    got = {}
    for labels, _ in pts:
        tag = "_".join(f"{k}-{v}" for k, v in labels.items())
        args = list(spec.get("args", []))
        for axis, per in spec.get("per_point", {}).items():
            args += per.get(labels.get(axis, ""), [])
        csv_path, js = os.path.join(out, f"fluid_{tag}.csv"), os.path.join(out, f"fluid_{tag}.json")
        cmd = [sys.executable, os.path.join(ROOT, "scripts", "dcqcn_fluid.py")] + args + ["--out", csv_path, "--json", js]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            raise Bad(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr.strip()}")
        with open(js) as f:
            res = json.load(f)
        got[tag] = {m: metric(res, ms) for m, ms in spec.get("metrics", {}).items()}
    return got


def plot_series(e, pts, seed, runs, out):
    """Time series of one run per point (the first seed): spec "series": {"file": "paused.csv",
    "x": "time_us", "y": [columns], "ylabel": text}; a PNG per column with a line per point, and
    the CSVs copied beside it (series_<point>.csv)."""
    spec = e.get("series")
    if not spec:
        return []
    gp = shutil.which("gnuplot")
    files = []
    for labels, _ in pts:
        tag = "_".join(f"{k}-{v}" for k, v in labels.items())
        src = os.path.join(runs, f"{tag}_seed{seed}", spec["file"])
        if not os.path.isfile(src):
            raise Bad(f"series: the run wrote no {spec['file']} ({src})")
        dst = os.path.join(out, f"series_{tag}.csv")
        shutil.copyfile(src, dst)
        with open(dst) as f:
            header = f.readline().strip().split(",")
        files.append((tag, dst, header))
    if spec.get("fluid"):  # the fluid model's curves beside the packet runs'
        for tag, _, _ in list(files):
            fl = os.path.join(out, f"fluid_{tag}.csv")
            with open(fl) as f:
                files.append((tag + " fluid", fl, f.readline().strip().split(",")))
    if not gp:
        return []
    pngs = []
    for col in spec["y"]:
        lines = []
        for tag, dst, header in files:
            if col not in header or spec["x"] not in header:
                raise Bad(f"series: {dst} has no column '{col}' or '{spec['x']}'")
            lines.append(f"'{dst}' using {header.index(spec['x']) + 1}:{header.index(col) + 1} with steps title '{tag}'")
        png = os.path.join(out, f"series_{col}.png")
        script = (f"set terminal pngcairo size 900,450 noenhanced\nset output '{png}'\nset datafile separator ','\n"
                  f"set title '{gp_str(e['title'])}: {col} (seed {seed})'\nset xlabel '{spec['x']}'\nset ylabel '{spec.get('ylabel', col)}'\n"
                  f"set key outside right\nset grid\nplot " + ", ".join(lines) + "\n")
        p = subprocess.run([gp], input=script, capture_output=True, text=True)
        if p.returncode != 0:
            raise Bad(f"gnuplot: {p.stderr.strip()}")
        pngs.append(os.path.basename(png))
    return pngs


def plan(e, full):
    """The experiment's runs: (form, seeds, runs directory, points, [(labels, sets, seed)])."""
    form = "full" if full else "quick"
    seeds = e[form].get("seeds", [1])
    if full and len(seeds) < 3:
        raise Bad(f"{e['name']}: a full run needs at least 3 seeds")
    runs = os.path.join(ROOT, "build", "experiments", e["name"] + ("-full" if full else ""), "runs")
    pts = points(e, form)
    return form, seeds, runs, pts, [(labels, sets, seed) for labels, sets in pts for seed in seeds]


def run_experiment(e, sim, full, jobs, out, command, resume=False):
    form, seeds, runs, pts, jobs_list = plan(e, full)
    if os.path.isdir(runs) and not resume:
        shutil.rmtree(runs)
    os.makedirs(runs, exist_ok=True)
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        futs = [(labels, seed, ex.submit(run_point, sim, e, form, labels, sets, seed, runs, resume))
                for labels, sets, seed in jobs_list]
        rows = [(labels, seed, f.result()) for labels, seed, f in futs]
    return finish(e, full, rows, out, command)


def finish(e, full, rows, out, command):
    """Everything after the runs: rows are (labels, seed, metrics) in plan() order (a local
    pool here, or scripts/jobs.py gathering a job array's results)."""
    form, seeds, runs, pts, _ = plan(e, full)
    final, out = out, out + ".partial"  # the old results stay until the new ones are complete
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(out)
    fluid = run_fluid(e, pts, out)
    axes = [a["name"] for a in e["axes"]]
    metrics = list(e["metrics"])
    with open(os.path.join(out, "points.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(axes + ["seed"] + metrics)
        for labels, seed, vals in rows:
            w.writerow([labels[a] for a in axes] + [seed] + [f"{vals[m]:.6g}" for m in metrics])
    means = []
    for labels, _ in pts:
        got = [vals for lab, _, vals in rows if lab == labels]
        r = {"labels": labels, "mean": {}, "ci": {}}
        for m in metrics:
            r["mean"][m], r["ci"][m] = mean_ci([g[m] for g in got])
        for m, v in fluid.get("_".join(f"{k}-{v}" for k, v in labels.items()), {}).items():
            r["mean"][m], r["ci"][m] = v, 0.0  # the fluid model: one deterministic value
        means.append(r)
    all_m = metrics + list(e.get("fluid", {}).get("metrics", {}))
    with open(os.path.join(out, "means.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(axes + [f"{m}{s}" for m in all_m for s in ("_mean", "_ci95")])
        for r in means:
            w.writerow([r["labels"][a] for a in axes] + [f"{r[k][m]:.6g}" for m in all_m for k in ("mean", "ci")])
    pngs = plot(e, means, out) + plot_series(e, pts, seeds[0], runs, out)
    lines = [f"# {e['title']}", "",
             f"Made by `{command}` at commit {commit()} ({form} form, seeds {', '.join(map(str, seeds))}); "
             f"regenerate with the same command, never by hand. Each run's flows.csv and summary.json: `{os.path.relpath(runs, ROOT)}/`.", "",
             e["paper"], "", "| claim | paper | ours | verdict |", "| --- | --- | --- | --- |"]
    verdicts = []
    for c in e["claims"]:
        try:
            v = claim_value(means, c)
        except NoPoint:
            if full:
                raise
            lines.append(f"| {c['claim']} | {c['paper']} | - | not in the quick form |")
            continue
        ok = OPS[c["check"][0]](v, c["check"][1])
        verdicts.append(ok)
        lines.append(f"| {c['claim']} | {c['paper']} | {v:.4g} {c.get('unit', '')} | "
                     f"{'agree' if ok else 'disagree'}{': ' + c['why'] if c.get('why') and not ok else ''} |")
    if e.get("notes"):
        lines += ["", e["notes"]]
    lines += ["", cost_line(runs, rows)]
    lines += ["", "Data: `points.csv` (every run), `means.csv` (mean and 95% CI per point)"
              + (", `series_<point>.csv` (the time series of each point's first seed)." if e.get("series") else ".")]
    lines += [f"![{p}]({p})" for p in pngs]
    with open(os.path.join(out, "summary.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    if os.path.isdir(final):
        # the quick form's runs/ lives inside its results folder: keep it (summary.md points at it)
        inside = os.path.relpath(runs, final)
        if not inside.startswith("..") and os.path.isdir(runs):
            os.rename(runs, os.path.join(out, inside))
        shutil.rmtree(final)
    os.rename(out, final)
    return means, verdicts


def run_name(labels, seed):
    return "_".join(f"{k}-{v}" for k, v in labels.items()) + f"_seed{seed}"


def cost_line(runs, rows):
    """What the sweep cost, from each run's own performance record (summary.json)."""
    cpu, wall = [], []
    for labels, seed, _ in rows:
        with open(os.path.join(runs, run_name(labels, seed), "summary.json")) as f:
            perf = json.load(f).get("performance", {})
        cpu.append(float(perf.get("cpu_s", 0.0)))
        wall.append(float(perf.get("wall_s", 0.0)))
    def span(sec):
        return f"{sec:.1f} s" if sec < 600 else f"{sec / 3600:.2f} h"
    return (f"Cost: {len(rows)} runs, {span(sum(cpu))} of CPU in all (the runs' own CPU time), "
            f"longest run {max(cpu):.1f} CPU s; the runs' wall times add up to {span(sum(wall))} "
            f"(a pool of N jobs divides that by about N).")


def verdict(e, means, verdicts, out, full, swap_check):
    """Prints the claims' tally; returns the failed direction assertions (quick form)."""
    n, problems = e["name"], []
    print(f"{n}: {sum(verdicts)}/{len(verdicts)} claims agree; {out}/summary.md")
    if not full:
        for fail in check_asserts(e, means, False):
            problems.append(f"{n}: {fail}")
        if swap_check:
            swapped = check_asserts(e, means, True)
            if len(swapped) != len(e.get("asserts", [])):
                problems.append(f"{n}: an assertion still holds with its sides swapped (it cannot fail)")
        print(f"{n}: {len(e.get('asserts', []))} direction assertions checked")
    return problems


def seed_claims(n):
    """The committed results/<n>/ read back (None when there are none). Each claim is computed
    again from points.csv (every run) with the current experiment.json: from the means over
    the seeds, which must give the summary.md's figure and verdict (else the results are not
    current), and from each seed's runs alone (the claim's points share the seed). Returns
    (seeds, [(claim, value, agrees, [value at each seed or None], [agrees at each seed])],
    problems)."""
    res = os.path.join(ROOT, "results", n)
    if not os.path.isfile(os.path.join(res, "summary.md")):
        return None
    e = load(n)
    axes = [a["name"] for a in e["axes"]]
    try:
        with open(os.path.join(res, "points.csv"), newline="") as f:
            rows = list(csv.DictReader(f))
        with open(os.path.join(res, "means.csv"), newline="") as f:
            mrows = list(csv.DictReader(f))
        with open(os.path.join(res, "summary.md")) as f:
            shown = {}
            for line in f:
                cells = [x.strip() for x in line.strip().strip("|").split("|")]
                if line.startswith("| ") and len(cells) == 4:
                    shown[cells[0]] = cells
    except (OSError, csv.Error) as err:
        raise Bad(f"{res}: {err}")
    fluid = list(e.get("fluid", {}).get("metrics", {}))  # deterministic: means.csv only
    try:
        seeds = sorted({int(r["seed"]) for r in rows})
        pts = {}
        for r in rows:
            pts.setdefault(tuple(r[a] for a in axes), {})[int(r["seed"])] = {m: float(r[m]) for m in e["metrics"]}
        for r in mrows:
            for m in fluid:
                for per in pts.get(tuple(r[a] for a in axes), {}).values():
                    per[m] = float(r[m + "_mean"])
    except (KeyError, ValueError) as err:
        raise Bad(f"{res}/points.csv: {err!r} (not the columns experiment.json names)")
    if not pts or any(len(per) != len(seeds) for per in pts.values()):
        raise Bad(f"{res}/points.csv does not hold every point at every seed")

    def as_means(pick):
        return [{"labels": dict(zip(axes, k)), "mean": pick(per)} for k, per in pts.items()]
    out, problems = [], []
    for c in e["claims"]:
        v = claim_value(as_means(lambda per: {m: sum(x[m] for x in per.values()) / len(per)
                                              for m in next(iter(per.values()))}), c)
        ok = OPS[c["check"][0]](v, c["check"][1])
        per_seed = []
        for sd in seeds:
            try:
                per_seed.append(claim_value(as_means(lambda per, sd=sd: per[sd]), c))
            except NoPoint:
                raise
            except Bad:  # this seed's 'vs' side is 0: no ratio, counted as not agreeing
                per_seed.append(None)
        agree = [x is not None and OPS[c["check"][0]](x, c["check"][1]) for x in per_seed]
        out.append((c, v, ok, per_seed, agree))
        row = shown.get(c["claim"])
        if row is None:
            problems.append(f"{n}: claim '{c['claim']}' is not in results/{n}/summary.md")
            continue
        try:
            figure = float(row[2].split()[0])
        except (ValueError, IndexError):
            figure = None
        if figure is not None and not math.isfinite(figure):  # inf or nan: as printed
            figure = v if f"{v:.4g}" == row[2].split()[0] else None
        digit = 10 ** (math.floor(math.log10(abs(figure))) - 3) if figure else 0.0
        if figure is None or abs(v - figure) > 0.51 * digit + 1e-5 * abs(v):
            problems.append(f"{n}: '{c['claim']}': points.csv gives {v:.4g}, summary.md shows {row[2]}")
        if row[3].startswith("agree") != ok:
            problems.append(f"{n}: '{c['claim']}': the check {c['check'][0]} {c['check'][1]} gives "
                            f"{'agree' if ok else 'disagree'} on {v:.4g}, summary.md says {row[3].split(':')[0]}")
    return seeds, out, problems


def seeds_report(names):
    """--seeds: prints, for every committed result, how many seeds agree with each claim
    (seed_claims); returns the problems found."""
    problems, tally = [], {"every seed": 0, "the mean, not every seed": 0,
                           "no seed": 0, "some seeds, not the mean": 0}
    for n in names:
        got = seed_claims(n)
        if got is None:
            print(f"{n}: no committed results (results/{n}/summary.md)")
            continue
        seeds, claims, found = got
        problems += found
        print(f"{n}: {len(claims)} claims, seeds {', '.join(map(str, seeds))}")
        for c, v, ok, per_seed, agree in claims:
            k = sum(agree)
            key = ("every seed" if k == len(agree) else "the mean, not every seed") if ok else \
                  ("no seed" if k == 0 else "some seeds, not the mean")
            tally[key] += 1
            print(f"  {'agree   ' if ok else 'disagree'} {k} of {len(agree)} seeds  {v:<10.4g} "
                  f"({', '.join('-' if x is None else f'{x:.4g}' for x in per_seed)}) "
                  f"{c['check'][0]} {c['check'][1]}  {c['claim']}")
    print(f"claims that agree on the mean and on every seed: {tally['every seed']}; on the mean, not every "
          f"seed: {tally['the mean, not every seed']}; disagree on the mean, some seeds agree: "
          f"{tally['some seeds, not the mean']}; disagree on every seed: {tally['no seed']}")
    return problems


def out_dir(name, full, out=None):
    return os.path.join(ROOT, "results", name) if full else os.path.join(out or os.path.join(ROOT, "build", "experiments"), name)


def write_index(check=False):
    """results/README.md: every committed experiment with its verdicts (from its summary.md),
    and the same table in README.md. check: write nothing, fail if either is not current."""
    root = os.path.join(ROOT, "results")
    rows = ["# Experiment results", "",
            "Each folder is written by `make experiment NAME=<name> FULL=1` (paper scale, >= 3 seeds); this index by",
            "the same command. Verdicts compare the paper's number with ours; summary.md says why where they disagree.",
            "A verdict is on the mean over the seeds; the last but one column counts the claims that every seed's runs",
            "alone also agree with (`make experiments-seeds` lists each claim's seeds).", "",
            "| experiment | claims that agree | agree on every seed | summary |", "| --- | --- | --- | --- |"]
    for n in sorted(os.listdir(root)):
        md = os.path.join(root, n, "summary.md")
        if not os.path.isfile(md):
            continue
        with open(md) as f:
            text = f.read()
        title = text.splitlines()[0].lstrip("# ")
        agree = text.count("| agree |")
        total = agree + text.count("| disagree")
        every = sum(ok and all(per) for _, _, ok, _, per in seed_claims(n)[1])
        rows.append(f"| {title} | {agree} of {total} | {every} | [{n}/summary.md]({n}/summary.md) |")
    index = os.path.join(root, "README.md")
    if check:
        with open(index) as f:
            if f.read() != "\n".join(rows) + "\n":
                raise Bad(f"{index} is not current: make experiments FULL=1 (or make experiment NAME=<name> FULL=1) "
                          "writes it; python3 scripts/experiments.py --index from the committed results")
    else:
        with open(index, "w") as f:
            f.write("\n".join(rows) + "\n")
    # the same table in the top-level README, between its markers
    readme = os.path.join(ROOT, "README.md")
    with open(readme) as f:
        text = f.read()
    begin, end = "<!-- experiments:begin (scripts/experiments.py --full writes this table) -->", "<!-- experiments:end -->"
    if begin not in text or end not in text:
        raise Bad(f"{readme}: the experiments table markers are missing")
    table = [r.replace("](", "](results/") if r.startswith("| ") and "summary.md](" in r else r for r in rows[7:]]
    new = text[:text.index(begin) + len(begin)] + "\n" + "\n".join(table) + "\n" + text[text.index(end):]
    if check:
        if new != text:
            raise Bad(f"{readme}: the experiments table is not current: make experiments FULL=1 writes it; "
                      "python3 scripts/experiments.py --index from the committed results")
        return
    with open(readme, "w") as f:
        f.write(new)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--name", help="one experiment (default: all under sim/experiments/)")
    ap.add_argument("--full", action="store_true", help="the paper's scale, >= 3 seeds, into results/<name>/")
    ap.add_argument("--swap-check", action="store_true",
                    help="also check that every direction assertion fails with its sides swapped")
    ap.add_argument("--sim", default=os.path.join(ROOT, "build", "sim", "lossless_sim"))
    ap.add_argument("--out", help="where quick runs go (default build/experiments); not with --full, whose "
                                  "results are the committed results/<name>/ and the README tables")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--resume", action="store_true",
                    help="keep the runs directory and reuse every finished run whose simulator binary, "
                         "scenario file and arguments are unchanged (sha256; an interrupted paper-scale "
                         "sweep continues where it stopped)")
    ap.add_argument("--seeds", action="store_true",
                    help="run nothing: read the committed results/ back and show, per claim, how many "
                         "seeds agree with it; fail if a summary.md is not what its points.csv and the "
                         "current claims give")
    ap.add_argument("--index", action="store_true",
                    help="run nothing: write results/README.md and README.md's experiments table from the "
                         "committed results/ (a --full run writes them too)")
    a = ap.parse_args()
    names = sorted(d for d in os.listdir(EXP_DIR) if os.path.isfile(os.path.join(EXP_DIR, d, "experiment.json")))
    if a.name and a.name not in names:
        sys.exit(f"experiments: no experiment '{a.name}' (have: {', '.join(names)})")
    if a.index:
        if a.full or a.out is not None or a.resume or a.swap_check or a.seeds or a.name:
            sys.exit("experiments: --index runs nothing and covers every experiment: it takes no other option")
        try:
            write_index()
        except Bad as err:
            sys.exit(f"experiments: {err}")
        print("experiments: wrote results/README.md and README.md's experiments table")
        return
    if a.seeds:
        if a.full or a.out is not None or a.resume or a.swap_check:
            sys.exit("experiments: --seeds runs nothing: it takes only --name")
        try:
            problems = seeds_report([a.name] if a.name else names)
        except Bad as err:
            sys.exit(f"experiments: {err}")
        for p in problems:
            print(f"experiments: FAIL {p}", file=sys.stderr)
        sys.exit(1 if problems else 0)
    if a.full and a.out is not None:
        sys.exit("experiments: --out is for quick runs only: --full always writes results/<name>/ "
                 "and the README tables (the committed results)")
    if not os.access(a.sim, os.X_OK):
        sys.exit(f"experiments: {a.sim}: not an executable (make experiments builds it)")
    if a.jobs < 1:
        sys.exit("experiments: --jobs must be at least 1")
    if a.name:
        names = [a.name]
    command = "make experiment NAME=" + a.name if a.name else "make experiments"
    if a.full:
        command += " FULL=1"
    problems = []
    commit()
    try:
        for n in names:
            e = load(n)
            out = out_dir(n, a.full, a.out)
            means, verdicts = run_experiment(e, a.sim, a.full, a.jobs, out, command, a.resume)
            problems += verdict(e, means, verdicts, out, a.full, a.swap_check)
        write_index(check=not a.full)  # a quick run checks the committed tables are current
    except Bad as err:
        sys.exit(f"experiments: {err}")
    if problems:
        for p in problems:
            print(f"experiments: FAIL {p}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
