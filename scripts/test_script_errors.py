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
                  with --exp-out; --seeds and --index (read results/ back, run nothing) with --full
  cosim_check.py  an unknown --mutant block, mutant id or case; --mutant with --no-mutant
  cosim_slowdown.py  --runs 0; no co-simulation build; --out under a file
  peers.py        --balancers empty or with an empty name; a missing --scenario file; an
                  unknown balancer, --out a regular file (need --sim: skipped, with a note,
                  when it is absent)
  signoff.py      --readme missing or a directory; --build a regular file
  sim_compare.py  --base a directory; a missing scenario; --out under a file; two scenarios
                  of one file name (their runs shared a directory)
  sim_demo.py     --jobs 0; --sim a directory; --scenario a directory; --out a regular file
  sim_bench.py    --out a regular file
  summary.py      build/synth/smoke.json not JSON, or without a key
  coverage.py     --out a regular file; --build under a file; an unknown bench; --holes -1
  formal.py, gates.py, equiv.py  --out a regular file; gates.py --cycles 0; equiv.py
                  --timeout 0 and an unknown block (no --out left behind)
  mutants.py      --matrix --sets naming no set, or empty; --build a regular file; --seeds
                  1-1000000000 (the list was built first: killed for memory)
  gates.py, equiv.py  --selftest-only with --bench / --block (they were ignored)
  sim_demo.py, formal.py, gates.py, equiv.py, mutants.py, jobs.py run: an empty --out
                  (--build), which was the current directory or a traceback
  lint.py         a block "" or ".." (linted nothing and passed); -j 0; an unknown block after
                  a known one
  tb_profile.py   --build a regular file or missing (was created); --seed -1
  jobs.py         status / gather / resume / exec on a directory that is missing or a file, a
                  manifest.json that is JSON but no manifest (a list, no jobs, an unknown flow,
                  a job without its fields), a result that is JSON but no object; exec without
                  --task or with a SLURM_ARRAY_TASK_ID that is no number; resume --jobs 0 or
                  --max-parallel 0; run soak --cycles 0; run --out a regular file
  test_slurm.py, gates_icarus.py  a --cycles / --full-cycles a bench would refuse (below 100)
  regmap.py, params.py  a block that is a path or '..' (regmap.py wrote beside a file it found
                  there); regmap.py on a broken source (run as a copy in a tree of its own): not
                  JSON, a field without its width, an address that is no number or negative, a
                  constant without its value, "block" naming another block, a register that is
                  no object (each was a traceback, or wrote a bad package)
  (where the old script would have started a long run, the case also holds a second bad
  argument the old script tripped on first, so no synthesis or mutant run can start)

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


def manifest(d, text):
    """A jobs.py run directory holding manifest.json (text) and nothing else."""
    write(os.path.join(d, "manifest.json"), text)
    return d


JOB = {"id": "a", "kind": "cmd", "args": {"cmd": ["true"]}, "time_min": 10, "mem_mb": 512, "key": "0"}


def more_cases(tmp):
    """The cases of sim_compare.py ... jobs.py (none needs a simulator or a build)."""
    py = sys.executable   # an executable file that stands in for the simulator
    a_file = os.path.join(tmp, "a_file")
    under = os.path.join(a_file, "sub")
    scen = os.path.join(tmp, "scen.json")
    write(scen, "{}\n")
    write(os.path.join(tmp, "b_notjson", "synth", "smoke.json"), "{ not json")
    write(os.path.join(tmp, "b_nokey", "synth", "smoke.json"), json.dumps([{"block": "marker"}]))
    cmp_, demo, cov, covb = (os.path.join(tmp, n) for n in ("cmp", "demo", "cov", "covb"))
    gates, equiv, mut, nob = (os.path.join(tmp, n) for n in ("gates", "equiv", "mut", "nobuild"))
    jdir = os.path.join(tmp, "jobs_ok")
    ok_man = json.dumps({"flow": "list", "jobs": [JOB], "gather": {}})
    manifest(jdir, ok_man)
    write(os.path.join(tmp, "list.json"), json.dumps([{k: JOB[k] for k in ("id", "kind", "args")}]))
    jlist = manifest(os.path.join(tmp, "jobs_list"), "[]\n")
    jnojobs = manifest(os.path.join(tmp, "jobs_nojobs"), json.dumps({"flow": "list"}))
    jflow = manifest(os.path.join(tmp, "jobs_flow"), json.dumps({"flow": "nope", "jobs": []}))
    jjob = manifest(os.path.join(tmp, "jobs_job"), json.dumps({"flow": "list", "jobs": [{"id": "a"}]}))
    jlog = [os.path.join(jdir, "logs"), os.path.join(jdir, "results")]
    jfile = [os.path.join(jdir, "manifest.json")]
    with open(os.path.join(ROOT, "tb", "marker", "mutants.json")) as f:
        mutant = json.load(f)["mutants"][0]["id"]
    no_slurm = ["env", "-u", "SLURM_ARRAY_TASK_ID"]
    return [
        ("sim_compare: --base a directory", script("sim_compare.py") + ["--base", tmp, "--new", py, "--out", cmp_],
         "not an executable file", None, [cmp_], []),
        ("sim_compare: a missing scenario", script("sim_compare.py") + ["--base", py, "--new", py, "--out", cmp_,
                                                                         os.path.join(tmp, "none.json")],
         "no such scenario file", None, [cmp_], []),
        ("sim_compare: two scenarios of one file name", script("sim_compare.py") + ["--base", py, "--new", py, "--out",
                                                                                   cmp_, scen, scen],
         "a second scenario named scen.json", None, [cmp_], []),
        ("gates: --selftest-only with --bench", script("gates.py") + ["--selftest-only", "--bench", "marker", "--out", gates],
         "--selftest-only", None, [gates], []),
        ("equiv: --selftest-only with --block", script("equiv.py") + ["--selftest-only", "--block", "marker", "--out",
                                                                      equiv], "--selftest-only", None, [equiv], []),
        ("mutants: --seeds a range of 10^9", script("mutants.py") + ["marker", "--matrix", "--seeds", "1-1000000000",
                                                                     "--build", mut], "at most 1000", None, [mut], []),
        ("sim_compare: --out under a file", script("sim_compare.py") + ["--base", py, "--new", py, "--out", under, scen],
         "--out", None, [], [a_file]),
        ("sim_demo: --jobs 0", script("sim_demo.py") + ["--sim", py, "--scenario", scen, "--out", demo, "--jobs", "0"],
         "--jobs", None, [demo], []),
        ("sim_demo: --sim a directory", script("sim_demo.py") + ["--sim", tmp, "--scenario", scen, "--out", demo],
         "--sim", None, [demo], []),
        ("sim_demo: --scenario a directory", script("sim_demo.py") + ["--sim", py, "--scenario", tmp, "--out", demo],
         "--scenario", None, [demo], []),
        ("sim_demo: --out a regular file", script("sim_demo.py") + ["--sim", py, "--scenario", scen, "--out", a_file],
         "--out", None, [], [a_file]),
        ("sim_demo: --out empty", script("sim_demo.py") + ["--sim", py, "--scenario", scen, "--out", ""],
         "empty path", None, [], []),
        ("sim_bench: --out a regular file", script("sim_bench.py") + ["--sim", py, "--out", a_file, "--skip-large"],
         "--out", None, [], [a_file]),
        ("summary: smoke.json not JSON", script("summary.py") + [os.path.join(tmp, "b_notjson")], "smoke.json", None,
         [], []),
        ("summary: smoke.json without a key", script("summary.py") + [os.path.join(tmp, "b_nokey")], "smoke.json", None,
         [], []),
        ("coverage: --out a regular file", script("coverage.py") + ["--out", a_file, "--build", covb],
         "--out", None, [covb], [a_file]),
        ("coverage: --build under a file", script("coverage.py") + ["--out", cov, "--build", under],
         "--build", None, [cov], [a_file]),
        ("coverage: an unknown bench", script("coverage.py") + ["--benches", "nope", "--out", cov, "--build", under],
         "nope", None, [cov], [a_file]),
        ("coverage: --holes -1", script("coverage.py") + ["--holes", "-1", "--out", cov, "--build", under],
         "--holes", None, [cov], [a_file]),
        ("formal: --out a regular file", script("formal.py") + ["--out", a_file], "--out", None, [], [a_file]),
        # "" was the current directory (the repository): each case also names something the old
        # script refused before it started work there
        ("formal: --out empty", script("formal.py") + ["--out", "", "--property", "nope_prop"], "empty path", None,
         [], []),
        ("gates: --out empty", script("gates.py") + ["--bench", "marker", "--set", "nope_set", "--out", ""],
         "empty path", None, [], []),
        ("equiv: --out empty", script("equiv.py") + ["--block", "marker", "--config", "nope", "--out", ""],
         "empty path", None, [], []),
        ("mutants: --build empty", script("mutants.py") + ["marker", "--only", "nope_id", "--build", ""], "empty path",
         None, [], []),
        ("jobs: run --out empty", script("jobs.py") + ["run", "list", "--list", os.path.join(tmp, "none.json"),
                                                       "--out", ""], "empty path", None, [], []),
        ("gates: --out a regular file", script("gates.py") + ["--bench", "marker", "--out", a_file], "--out", None,
         [], [a_file]),
        ("gates: --cycles 0", script("gates.py") + ["--bench", "marker", "--cycles", "0", "--out", under],
         "--cycles", None, [], [a_file]),
        ("equiv: an unknown block leaves no --out", script("equiv.py") + ["--block", "nope", "--out", equiv],
         "nope", None, [equiv], []),
        ("equiv: --out a regular file", script("equiv.py") + ["--out", a_file], "--out", None, [], [a_file]),
        ("equiv: --timeout 0", script("equiv.py") + ["--timeout", "0", "--block", "marker", "--config", "nope",
                                                     "--out", equiv], "--timeout", None, [equiv], []),
        ("mutants: --matrix --sets naming no set", script("mutants.py") + ["marker", "--matrix", "--sets", "zz",
                                                                            "--build", mut],
         "zz", None, [mut], []),
        ("mutants: --matrix --sets empty", script("mutants.py") + ["marker", "--matrix", "--sets", "", "--only",
                                                                    "nope_id", "--build", mut],
         "--sets", None, [mut], []),
        ("mutants: --build a regular file", script("mutants.py") + ["marker", "--only", mutant, "--build", a_file],
         "--build", None, [], [a_file]),
        ("lint: an empty block name", script("lint.py") + [""], "no block ''", None, [], []),
        ("lint: block ..", script("lint.py") + [".."], "no block '..'", None, [], []),
        ("lint: -j 0", script("lint.py") + ["-j", "0", "marker"], "--jobs", None, [], []),
        ("lint: an unknown block after a known one", script("lint.py") + ["marker", "nope"], "nope", None, [], []),
        ("tb_profile: --build a regular file", script("tb_profile.py") + ["--build", a_file], "--build", None, [],
         [a_file]),
        ("tb_profile: --build missing", script("tb_profile.py") + ["--build", nob], "--build", None, [nob], []),
        ("tb_profile: --seed -1", script("tb_profile.py") + ["--seed", "-1", "--build", nob], "--seed", None, [nob], []),
        ("jobs: status of a missing directory", script("jobs.py") + ["status", os.path.join(tmp, "nojobs")], "nojobs",
         None, [os.path.join(tmp, "nojobs")], []),
        ("jobs: exec in a regular file", script("jobs.py") + ["exec", a_file, "--task", "0"], a_file, None, [], [a_file]),
        ("jobs: status, manifest.json a list", script("jobs.py") + ["status", jlist], "manifest.json", None, [],
         [os.path.join(jlist, "manifest.json")]),
        ("jobs: gather, manifest.json without jobs", script("jobs.py") + ["gather", jnojobs], "manifest.json", None,
         [os.path.join(jnojobs, "results.json")], [os.path.join(jnojobs, "manifest.json")]),
        ("jobs: resume, manifest.json of an unknown flow", script("jobs.py") + ["resume", jflow], "manifest.json", None,
         [os.path.join(jflow, "logs")], [os.path.join(jflow, "manifest.json")]),
        ("jobs: exec, a job without its fields", script("jobs.py") + ["exec", jjob, "--task", "0"], "job 0", None,
         [os.path.join(jjob, "logs"), os.path.join(jjob, "results")], [os.path.join(jjob, "manifest.json")]),
        ("jobs: exec without --task", no_slurm + script("jobs.py") + ["exec", jdir], "--task", None, jlog, jfile),
        ("jobs: exec, SLURM_ARRAY_TASK_ID no number", ["env", "SLURM_ARRAY_TASK_ID=x"] + script("jobs.py")
         + ["exec", jdir], "SLURM_ARRAY_TASK_ID", None, jlog, jfile),
        ("jobs: resume --jobs 0", script("jobs.py") + ["resume", jdir, "--jobs", "0"], "--jobs", None, jlog, jfile),
        ("jobs: resume --max-parallel 0", script("jobs.py") + ["resume", jdir, "--max-parallel", "0"], "--max-parallel",
         None, jlog, jfile),
        ("jobs: run soak --cycles 0", script("jobs.py") + ["run", "soak", "--cycles", "0", "--build", nob, "--out",
                                                           os.path.join(tmp, "soak")],
         "--cycles", None, [os.path.join(tmp, "soak")], []),
        ("jobs: run --out a regular file", script("jobs.py") + ["run", "list", "--list", os.path.join(tmp, "list.json"),
                                                                "--out", a_file], "--out", None, [], [a_file]),
    ]


def generator_cases(tmp):
    """regmap.py and params.py: a block that is no block, and (regmap.py, run as a copy beside a
    tree of its own) a register map source that is broken; none may write a generated file."""
    tree = os.path.join(tmp, "regtree")
    write(os.path.join(tree, "scripts", "regmap.py"), open(os.path.join(ROOT, "scripts", "regmap.py")).read())
    good = {"block": "x", "prefix": "X", "desc": "d",
            "regs": [{"name": "CTRL", "addr": "0x0", "access": "rw", "desc": "c",
                      "fields": [{"name": "EN", "lsb": 0, "width": 1}]}],
            "constants": [{"name": "K", "value": 3, "desc": "k"}]}
    def broken(name, change):
        spec = json.loads(json.dumps(good))
        change(spec)
        write(os.path.join(tree, "rtl", name, f"{name}_regs.json"), json.dumps(spec).replace('"block": "x"',
                                                                                            f'"block": "{name}"'))
        outs = [os.path.join(tree, "rtl", name, f"{name}_regs_pkg.sv"),
                os.path.join(tree, "cpp_model", name, f"{name}_regs.h"), os.path.join(tree, "docs", f"{name}_regmap.md")]
        return [sys.executable, os.path.join(tree, "scripts", "regmap.py"), name], outs
    write(os.path.join(tree, "rtl", "notjson", "notjson_regs.json"), "{ not json")
    c = [("regmap: a block that is an absolute path", script("regmap.py") + [tmp], "unknown block", None, [], []),
         ("regmap: a block '..'", script("regmap.py") + [".."], "unknown block", None, [], []),
         ("params: a block that is an absolute path", script("params.py") + [tmp], "unknown block", None, [], []),
         ("regmap: a source that is not JSON", [sys.executable, os.path.join(tree, "scripts", "regmap.py"), "notjson"],
          "notjson_regs.json", None, [os.path.join(tree, "docs", "notjson_regmap.md")], [])]
    for what, name, change, must in [
            ("a field without its width", "nowidth", lambda s: s["regs"][0]["fields"][0].pop("width"), "width"),
            ("an address that is no number", "badaddr", lambda s: s["regs"][0].update(addr="zz"), "malformed"),
            ("a negative address", "negaddr", lambda s: s["regs"][0].update(addr=-4), "aligned"),
            ("a constant without its value", "noval", lambda s: s["constants"][0].pop("value"), "value"),
            ("'block' naming another block", "other", lambda s: s.update(block="y"), "not 'other'"),
            ("a register that is a list", "reglist", lambda s: s["regs"].append([1]), "malformed")]:
        cmd, outs = broken(name, change)
        c.append((f"regmap: {what}", cmd, must, "Traceback", outs, []))
    return c


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
        ("experiments: --seeds with --full", script("experiments.py") + ["--seeds", "--full"],
         "--seeds", None, [], real),
        ("experiments: --index with --full", script("experiments.py") + ["--index", "--full"],
         "--index", None, [], real),
        ("jobs: experiments --full with --exp-out", script("jobs.py") + ["run", "experiments", "--out",
                                                                           os.path.join(tmp, "jobs"), "--full",
                                                                           "--exp-out", os.path.join(tmp, "exp"),
                                                                           "--sim", os.path.join(tmp, "no_sim")],
         "--exp-out", None, [os.path.join(tmp, "jobs"), os.path.join(tmp, "exp")], real),
        ("cosim_slowdown: --out under a file", script("cosim_slowdown.py") + ["--out", os.path.join(a_file, "slow")],
         a_file, None, [], [a_file]),
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
    c += more_cases(tmp)
    c += generator_cases(tmp)
    # the benches refuse runs below 100 cycles: the scripts that pass --cycles say so first
    c.append(("test_slurm: --cycles below 100 after --perturb's 10", script("test_slurm.py") + ["--cycles", "105",
                                                                                                "--perturb"],
              "--cycles must be at least 110", None, [], []))
    c.append(("gates_icarus: --full-cycles below 100", script("gates_icarus.py") + ["--block", "dcqcn", "--set", "s0",
                                                                                   "--netlist", a_file, "--cycles", "10",
                                                                                   "--full-cycles", "50",
                                                                                   "--out", os.path.join(tmp, "gi")],
              "--full-cycles must be at least 100", None, [os.path.join(tmp, "gi")], [a_file]))
    if os.path.isdir("/proc"):
        c.append(("sim_plot: OUT under /proc", script("sim_plot.py") + ["/proc/ll_no_such_dir/plot", run("good")],
                  "/proc/ll_no_such_dir", None, ["/proc/ll_no_such_dir"], []))
    if os.access(sim, os.X_OK):
        c.append(("peers: --out a regular file", script("peers.py") + ["--sim", sim, "--out", a_file], a_file, None, [],
                  [a_file]))
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
        for name in ("sim_plot.py", "experiments.py", "cosim_check.py", "cosim_slowdown.py", "peers.py", "signoff.py",
                     "sim_compare.py", "sim_demo.py", "summary.py", "sim_bench.py", "coverage.py", "formal.py",
                     "gates.py", "equiv.py", "mutants.py", "lint.py", "tb_profile.py", "jobs.py"):
            checks += 1
            r = subprocess.run(script(name) + ["--help"], capture_output=True, text=True, cwd=ROOT, timeout=60)
            if r.returncode or not r.stdout.startswith("usage:") or r.stderr:
                failed.append(f"{name} --help: exit {r.returncode}, stderr {r.stderr.strip()[-200:]!r}")
            elif not a.quiet:
                print(f"test_script_errors: {name} --help: ok")
        # a result file that is JSON but no object counts as not run (as one that is not JSON)
        checks += 1
        jres = manifest(os.path.join(tmp, "jobs_res"), json.dumps({"flow": "list", "jobs": [JOB], "gather": {}}))
        write(os.path.join(jres, "results", "a.json"), "[]\n")
        r = subprocess.run(script("jobs.py") + ["status", jres], capture_output=True, text=True, cwd=ROOT, timeout=60)
        if r.returncode != 1 or r.stderr or "0 failed, 1 pending" not in r.stdout:
            failed.append(f"jobs.py status, a result that is a JSON list: exit {r.returncode}, "
                          f"stderr {r.stderr.strip()[-200:]!r}, stdout {r.stdout[-200:]!r}")
        elif not a.quiet:
            print("test_script_errors: jobs.py status, a result that is a JSON list: counted as not run: ok")
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
