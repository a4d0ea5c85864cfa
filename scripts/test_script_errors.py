#!/usr/bin/env python3
"""Bad input to the user-facing scripts: each case must be refused up front (before anything
runs or is written) with a non-zero exit and one stderr line naming the problem, no
traceback, nothing on stdout, and nothing written (the paths it names stay absent, the files
it names unchanged). Each case takes well under a second: none reaches a simulator run.

  sim_plot.py     summary.json not JSON, without a key, with a non-number; flows.csv empty,
                  header only (a run with no completed flow: nothing to plot), or empty
                  while summary.json counts completed flows; OUT a regular file, under a
                  file, under /proc; two runs with the same name
  experiments.py  --full with --out (--full writes the committed results/ only); jobs.py the same
                  with --exp-out
  cosim_check.py  an unknown --mutant block, mutant id or case; --mutant with --no-mutant
  cosim_slowdown.py  --runs 0; no co-simulation build
  peers.py        --balancers empty or with an empty name; a missing --scenario file; an
                  unknown balancer (needs --sim: skipped, with a note, when it is absent)
  signoff.py      --readme missing or a directory; --build a regular file

and next to them: --help of each script, and sim_plot.py on a good (synthetic) run beside one
without a completed flow writes both plots (needs gnuplot: skipped, with a note, when absent).

usage: test_script_errors.py [--quiet] [--sim BIN]. Exit 0 when every check holds, 1 otherwise."""
import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def script(name):
    return [sys.executable, os.path.join(ROOT, "scripts", name)]


def digest(path):
    """A file's content (or None when absent), to prove a case left it unchanged."""
    if not os.path.isfile(path):
        return None
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def summary(count=2, unfinished=1):
    return json.dumps({"flows": {"completed": count, "unfinished": unfinished},
                       "fct": {"by_size": [{"size": "<10KB", "count": count, "unfinished": unfinished,
                                            "slowdown": {"p99": 1.5}}]}})


FLOWS = "id,bytes,slowdown\n0,1000,1.0\n1,2000,1.5\n2,3000,\n"


def runs(tmp):
    """Synthetic run directories for sim_plot.py: name -> (summary.json, flows.csv) text."""
    spec = {
        "good": (summary(), FLOWS),
        "not_json": ("{ not json", FLOWS),
        "no_fct": (json.dumps({"flows": {"unfinished": 0}}), FLOWS),
        "count_text": (summary().replace('"count": 2', '"count": "two"'), FLOWS),
        "flows_empty": (summary(), ""),
        "no_flow": (summary(count=0), "id,bytes,slowdown\n2,3000,\n"),
        "header_only": (summary(count=0, unfinished=0), "id,bytes,slowdown\n"),
        "csv_short": (summary(), "id,bytes,slowdown\n"),
    }
    for name, (s, f) in spec.items():
        write(os.path.join(tmp, "runs", name, "summary.json"), s)
        write(os.path.join(tmp, "runs", name, "flows.csv"), f)
    write(os.path.join(tmp, "runs", "again", "good", "summary.json"), summary())
    write(os.path.join(tmp, "runs", "again", "good", "flows.csv"), FLOWS)
    return lambda name: os.path.join(tmp, "runs", name)


def cases(tmp, sim):
    """(what, command, text stderr must hold, text it must not, paths that must stay absent,
    files that must stay unchanged)."""
    run = runs(tmp)
    plot = os.path.join(tmp, "plot")
    a_file = os.path.join(tmp, "a_file")
    write(a_file, "not a directory\n")
    readme = os.path.join(tmp, "README.md")
    shutil.copyfile(os.path.join(ROOT, "README.md"), readme)
    real = [os.path.join(ROOT, "README.md"), os.path.join(ROOT, "results", "README.md")]
    c = [
        ("sim_plot: summary.json not JSON", script("sim_plot.py") + [plot, run("not_json")], "not JSON", None, [plot], []),
        ("sim_plot: summary.json without fct", script("sim_plot.py") + [plot, run("no_fct")], "fct.by_size", None, [plot], []),
        ("sim_plot: a count that is text", script("sim_plot.py") + [plot, run("count_text")],
         "fct.by_size.0.count", None, [plot], []),
        ("sim_plot: flows.csv of zero bytes", script("sim_plot.py") + [plot, run("flows_empty")], "flows.csv", None, [plot], []),
        ("sim_plot: no completed flow", script("sim_plot.py") + [plot, run("no_flow")], "no run has a completed flow", None,
         [plot], []),
        ("sim_plot: flows.csv header only, no flow", script("sim_plot.py") + [plot, run("header_only")],
         "no run has a completed flow", None, [plot], []),
        ("sim_plot: flows.csv header only, summary.json counts flows", script("sim_plot.py") + [plot, run("csv_short")],
         "flows.csv", None, [plot], []),
        ("sim_plot: OUT a regular file", script("sim_plot.py") + [a_file, run("good")], a_file, None, [], [a_file]),
        ("sim_plot: OUT under a file", script("sim_plot.py") + [os.path.join(a_file, "plot"), run("good")], a_file, None,
         [], [a_file]),
        ("sim_plot: two runs of one name", script("sim_plot.py") + [plot, run("good"), run("again/good")], "named good", None,
         [plot], []),
        ("experiments: --full with --out", script("experiments.py") + ["--full", "--out", os.path.join(tmp, "exp"),
                                                                       "--sim", os.path.join(tmp, "no_sim")],
         "--out", None, [os.path.join(tmp, "exp")], real),
        ("jobs: experiments --full with --exp-out", script("jobs.py") + ["run", "experiments", "--out",
                                                                           os.path.join(tmp, "jobs"), "--full",
                                                                           "--exp-out", os.path.join(tmp, "exp"),
                                                                           "--sim", os.path.join(tmp, "no_sim")],
         "--exp-out", None, [os.path.join(tmp, "jobs"), os.path.join(tmp, "exp")], real),
        ("cosim_slowdown: --runs 0", script("cosim_slowdown.py") + ["--runs", "0", "--out", os.path.join(tmp, "slow")],
         "--runs", None, [os.path.join(tmp, "slow")], []),
        ("cosim_slowdown: no co-simulation build", script("cosim_slowdown.py") + ["--build", os.path.join(tmp, "nobuild"),
                                                                                  "--out", os.path.join(tmp, "slow")],
         "make cosim", None, [os.path.join(tmp, "slow")], []),
        ("cosim_check: an unknown mutant block", script("cosim_check.py") + ["--build", os.path.join(tmp, "cosim"),
                                                                             "--mutant", "nope"],
         "nope", None, [os.path.join(tmp, "cosim")], []),
        ("cosim_check: an unknown mutant id", script("cosim_check.py") + ["--build", os.path.join(tmp, "cosim"),
                                                                          "--mutant", "marker:nope_id"],
         "nope_id", None, [os.path.join(tmp, "cosim")], []),
        ("cosim_check: an unknown case", script("cosim_check.py") + ["--build", os.path.join(tmp, "cosim"),
                                                                     "--mutant", "marker@nope_case"],
         "nope_case", None, [os.path.join(tmp, "cosim")], []),
        ("cosim_check: --mutant with --no-mutant", script("cosim_check.py") + ["--build", os.path.join(tmp, "cosim"),
                                                                               "--mutant", "marker", "--no-mutant"],
         "--no-mutant", None, [os.path.join(tmp, "cosim")], []),
        ("peers: --balancers empty", script("peers.py") + ["--balancers", "", "--sim", os.path.join(tmp, "no_sim"),
                                                           "--out", os.path.join(tmp, "peers")],
         "--balancers", None, [os.path.join(tmp, "peers")], []),
        ("peers: --balancers with an empty name", script("peers.py") + ["--balancers", "ecmp,,drill", "--sim",
                                                                         os.path.join(tmp, "no_sim"), "--out",
                                                                         os.path.join(tmp, "peers")],
         "--balancers", None, [os.path.join(tmp, "peers")], []),
        # the interpreter stands in for the simulator: the scenario is checked before it runs
        ("peers: a missing --scenario", script("peers.py") + ["--sim", sys.executable, "--scenario",
                                                              os.path.join(tmp, "none.json"), "--out",
                                                              os.path.join(tmp, "peers")],
         "--scenario", "simulator", [os.path.join(tmp, "peers")], []),
        ("signoff: --check --readme missing", script("signoff.py") + ["--check", "--readme", os.path.join(tmp, "none.md")],
         "--readme", None, [os.path.join(tmp, "none.md")], real),
        ("signoff: --readme a directory", script("signoff.py") + ["--check", "--readme", tmp], "--readme", None, [], real),
        ("signoff: --build a regular file", script("signoff.py") + ["--build", a_file, "--readme", readme],
         "--build", None, [], [readme, a_file] + real),
    ]
    if os.path.isdir("/proc"):
        c.append(("sim_plot: OUT under /proc", script("sim_plot.py") + ["/proc/ll_no_such_dir/plot", run("good")],
                  "/proc/ll_no_such_dir", None, ["/proc/ll_no_such_dir"], []))
    if os.access(sim, os.X_OK):
        c.append(("peers: an unknown balancer", script("peers.py") + ["--sim", sim, "--balancers", "ecmp,nope", "--out",
                                                                      os.path.join(tmp, "peers")],
                  "nope", None, [os.path.join(tmp, "peers")], []))
    else:
        print(f"test_script_errors: note: {sim} absent: the unknown-balancer case of peers.py is skipped")
    return c


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--sim", default=os.path.join("build", "sim", "lossless_sim"),
                    help="lossless_sim, for the one case that needs it (relative paths: to the repo root)")
    a = ap.parse_args()
    sim = os.path.join(ROOT, a.sim)
    failed, checks = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for what, cmd, must, must_not, absent, unchanged in cases(tmp, sim):
            checks += 1
            before = {p: digest(p) for p in unchanged}
            try:
                r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=60)
            except subprocess.TimeoutExpired:
                failed.append(f"{what}: still running after 60 s (not refused up front)")
                continue
            lines = r.stderr.strip().splitlines()
            wrote = [p for p in absent if os.path.exists(p)] + [p for p in unchanged if digest(p) != before[p]]
            if (r.returncode == 0 or len(lines) != 1 or must not in r.stderr or (must_not and must_not in r.stderr)
                    or r.stdout or wrote):
                failed.append(f"{what}: exit {r.returncode}, {len(lines)} stderr lines {r.stderr.strip()[-200:]!r}, "
                              f"stdout {r.stdout[:80]!r}, wrote {wrote}")
            elif not a.quiet:
                print(f"test_script_errors: {what}: refused ({lines[0]}): ok")
            for p in absent:  # so the next case starts clean
                if os.path.isdir(p):
                    shutil.rmtree(p)
                elif os.path.exists(p):
                    os.remove(p)
        for name in ("sim_plot.py", "experiments.py", "cosim_check.py", "cosim_slowdown.py", "peers.py", "signoff.py"):
            checks += 1
            r = subprocess.run(script(name) + ["--help"], capture_output=True, text=True, cwd=ROOT, timeout=60)
            if r.returncode or not r.stdout.startswith("usage:") or r.stderr:
                failed.append(f"{name} --help: exit {r.returncode}, stderr {r.stderr.strip()[-200:]!r}")
            elif not a.quiet:
                print(f"test_script_errors: {name} --help: ok")
        if shutil.which("gnuplot"):
            checks += 1
            plot = os.path.join(tmp, "plot")
            r = subprocess.run(script("sim_plot.py") + [plot, os.path.join(tmp, "runs", "good"),
                                                        os.path.join(tmp, "runs", "no_flow")],
                               capture_output=True, text=True, cwd=ROOT, timeout=60)
            pngs = [os.path.join(plot, p) for p in ("fct_by_size.png", "fct_cdf.png")]
            if r.returncode or r.stderr or not all(os.path.getsize(p) if os.path.isfile(p) else 0 for p in pngs):
                failed.append(f"sim_plot.py on a good run: exit {r.returncode}, stderr {r.stderr.strip()[-200:]!r}")
            elif not a.quiet:
                print("test_script_errors: sim_plot.py on a good run (beside one with no completed flow): both plots: ok")
        else:
            print("test_script_errors: note: no gnuplot: the good sim_plot.py run is skipped")
    for f in failed:
        print(f"test_script_errors: FAIL: {f}", file=sys.stderr)
    if not a.quiet or failed:
        print(f"test_script_errors: {'FAIL' if failed else 'ok'} ({len(failed)} of {checks} checks failed)")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
