#!/usr/bin/env python3
"""Heavy flows as lists of independent jobs, run locally (a bounded pool) or as one Slurm
job array, gathered into the files a local run writes.

  jobs.py run FLOW --out DIR [--runner local|slurm] [options]   plan, run what is not done, gather
  jobs.py resume DIR [--runner local|slurm] [--only ID ...]     run an existing manifest's unfinished jobs, gather
  jobs.py status DIR                                            done / failed / pending, with log paths
  jobs.py exec DIR [--task N]     one job (N defaults to $SLURM_ARRAY_TASK_ID; what array tasks run)
  jobs.py gather DIR              list failed jobs with their logs (exit 1), else the flow's own gather

Flows (one job each per):
  soak         lockstep bench run (block x set x seed, from CTest), LL_TB_CYCLES cycles (10^8)
  mutants      block (its unmutated bench must pass) and mutant (own scratch build, lint,
               build, run; killed when the bench reports a mismatch)
  synth        synthesis configuration (synth/<block>/configs.json; --smoke: the smoke ones)
  experiments  experiment point x seed (sim/experiments/, quick form; --full: paper scale)
  list         the jobs of a JSON file (--list FILE: [{"id", "kind", "args"}], kinds tb,
               exp, cmd); gathered into DIR/results.json (what scripts/test_slurm.py compares)

DIR/manifest.json holds the jobs; DIR/results/<id>.json each finished job's result
(timings apart, under "timing"); DIR/logs/<id>.log its output. A job is done when its
result exists, says ok, and carries the job's key: a hash of the job and of its inputs
(RTL and bench sources, the executables' size and time, the experiment's files), so a
re-run skips done jobs and redoes those whose inputs changed (resumable sweeps). Slurm:
one `sbatch --array` of the unfinished jobs (its time and memory the largest any of them
asks, overridable), then a gather job with `--dependency=afterany:<array>`, waited for
(squeue once a second; its exit status, which it writes beside its output, is this
command's). --partition, --account, --time,
--mem, --max-parallel and --sbatch-arg pass through to sbatch.
"""
import argparse
import concurrent.futures
import glob
import hashlib
import json
import os
import re
import resource
import shlex
import shutil
import socket
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from ll_out import dir_problem  # noqa: E402  scripts/ll_out.py
# per-kind defaults: Slurm time limit (minutes) and memory (MB) of one task
LIMITS = {"tb": (30, 1024), "soak": (240, 1024), "exp": (30, 2048), "exp-full": (240, 4096),
          "mutant": (60, 4096), "synth": (120, 4096), "cmd": (10, 512)}
GATHER_LIMITS = (30, 2048)
TIMING = re.compile(r"\b\d+(\.\d+)? cycles/s\b")


class Bad(Exception):
    pass


def safe(s):
    return re.sub(r"[^A-Za-z0-9_.+-]", "_", s)


def write_json(path, obj, sort=True):
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w") as f:
        json.dump(obj, f, indent=1, sort_keys=sort)
        f.write("\n")
    os.replace(tmp, path)  # a reader never sees half a file


def read_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, json.JSONDecodeError):
        return None


# ---- inputs fingerprint: a result is reused only while its inputs are unchanged ----

def file_stamp(path):
    st = os.stat(path)
    return f"{path}:{st.st_size}:{int(st.st_mtime_ns)}"


def tree_hash(*dirs):
    h = hashlib.sha256()
    for d in dirs:
        for p in sorted(glob.glob(os.path.join(d, "**", "*"), recursive=True)):
            if os.path.isfile(p):
                h.update(os.path.relpath(p, ROOT).encode())
                with open(p, "rb") as f:
                    h.update(f.read())
    return h.hexdigest()[:16]


def job_key(job, inputs):
    blob = json.dumps({"kind": job["kind"], "args": job["args"], "inputs": inputs}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def job(jid, kind, args, inputs, limits=None):
    t, m = limits or LIMITS[kind]
    j = {"id": safe(jid), "kind": kind, "args": args, "time_min": t, "mem_mb": m}
    j["key"] = job_key(j, inputs)
    return j


# ---- planning: flow -> jobs ----

def ctest_tests(build, label):
    p = subprocess.run(["ctest", "--test-dir", build, "-N", "-L", label, "--show-only=json-v1"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise Bad(f"ctest -N in {build}: {p.stderr.strip()}")
    out = []
    for t in json.loads(p.stdout)["tests"]:
        if "command" not in t:
            raise Bad(f"{t['name']}: its bench is not built (make build)")
        props = {q["name"]: q["value"] for q in t.get("properties", [])}
        env = dict(kv.split("=", 1) for kv in props.get("ENVIRONMENT", []))
        out.append((t["name"], t["command"], props.get("WORKING_DIRECTORY", build), env))
    return out


def plan_soak(a):
    if a.cycles < 100:  # the benches' shortest run: every job would fail on it
        raise Bad(f"--cycles must be at least 100 (got {a.cycles})")
    build = os.path.abspath(a.build)
    jobs = []
    bench_inputs = tree_hash(os.path.join(ROOT, "rtl"), os.path.join(ROOT, "tb"), os.path.join(ROOT, "cpp_model"))
    for name, cmd, cwd, env in ctest_tests(build, "tb"):
        env = dict(env, LL_TB_CYCLES=str(a.cycles))
        jobs.append(job(name, "tb", {"cmd": cmd, "cwd": cwd, "env": env},
                        [file_stamp(cmd[0]), bench_inputs], LIMITS["soak"]))
    return jobs, {}


def plan_experiments(a):
    import experiments as ex
    names = sorted(d for d in os.listdir(ex.EXP_DIR) if os.path.isfile(os.path.join(ex.EXP_DIR, d, "experiment.json")))
    if a.full and a.exp_out is not None:  # as experiments.py: --full writes the committed results
        raise Bad("--exp-out is for quick runs only: --full always writes results/<name>/ and the README tables")
    if a.name:
        if a.name not in names:
            raise Bad(f"no experiment '{a.name}' (have: {', '.join(names)})")
        names = [a.name]
    sim = os.path.abspath(a.sim)
    if not os.access(sim, os.X_OK):
        raise Bad(f"{sim}: not an executable (make sim builds it)")
    jobs = []
    for n in names:
        e = ex.load(n)
        form, seeds, runs, pts, jl = ex.plan(e, a.full)
        inputs = [file_stamp(sim), tree_hash(e["dir"])]
        for labels, sets, seed in jl:
            tag = ex.run_name(labels, seed)
            jobs.append(job(f"{n}.{tag}", "exp", {"name": n, "full": a.full, "labels": labels, "sets": sets,
                                                  "seed": seed, "sim": sim}, inputs,
                            LIMITS["exp-full" if a.full else "exp"]))
    command = ("make experiment NAME=" + a.name if a.name else "make experiments") + (" FULL=1" if a.full else "")
    return jobs, {"names": names, "full": a.full, "swap_check": a.swap_check, "exp_out": a.exp_out,
                  "command": command}


def plan_mutants(a):
    import mutants as mu
    blocks = a.blocks or mu.blocks_with_mutants()
    jobs = []
    scratch = os.path.join(os.path.abspath(a.out), "scratch")
    for b in blocks:
        spec = mu.load(b)
        inputs = [tree_hash(os.path.join(ROOT, "rtl"), os.path.join(ROOT, "tb"), os.path.join(ROOT, "cpp_model"))]
        jobs.append(job(f"{b}.unmutated", "mutant", {"block": b, "mutant": None,
                                                     "work": os.path.join(scratch, b, "unmutated")}, inputs))
        for m in spec["mutants"]:
            jobs.append(job(f"{b}.{m['id']}", "mutant", {"block": b, "mutant": m["id"],
                                                         "work": os.path.join(scratch, b, safe(m["id"]))}, inputs))
    return jobs, {"blocks": blocks}


def plan_synth(a):
    import synth as sy
    sel = sy.select(a.block, a.config, a.smoke)
    work = os.path.abspath(a.synth_out or os.path.join(ROOT, "build", "synth"))
    jobs = []
    for b, _, c in sel:
        inputs = [tree_hash(os.path.join(ROOT, "rtl"), os.path.join(ROOT, "synth", b), os.path.join(ROOT, "synth", "techlib")),
                  tree_hash(os.path.join(ROOT, "scripts", "synth.py"))]
        jobs.append(job(f"{b}.{c['name']}", "synth", {"block": b, "config": c["name"], "work": work}, inputs))
    return jobs, {"block": a.block, "config": a.config, "smoke": a.smoke, "update_baseline": a.update_baseline,
                  "work": work}


def plan_list(a):
    if not a.list:
        raise Bad("run list needs --list FILE (a JSON list of jobs)")
    spec = read_json(a.list)
    if not isinstance(spec, list):
        raise Bad(f"{a.list}: not a JSON list of jobs")
    jobs = []
    for n, s in enumerate(spec):
        if not isinstance(s, dict) or not isinstance(s.get("id"), str) or not s["id"]:
            raise Bad(f"{a.list}: job {n}: not an object with an \"id\" string")
        kind, args = s.get("kind"), s.get("args")
        if kind not in ("tb", "exp", "cmd"):
            raise Bad(f"{a.list}: job {s['id']}: \"kind\" must be tb, exp or cmd (got {json.dumps(kind)})")
        if not isinstance(args, dict):
            raise Bad(f"{a.list}: job {s['id']}: \"args\" must be an object")
        if kind in ("tb", "cmd") and not (isinstance(args.get("cmd"), list) and args["cmd"]
                                          and all(isinstance(c, str) for c in args["cmd"])):
            raise Bad(f"{a.list}: job {s['id']}: args.cmd must be a non-empty list of strings")
        if kind == "exp" and not isinstance(args.get("sim"), str):
            raise Bad(f"{a.list}: job {s['id']}: args.sim must name the simulator")
        inputs = []
        if kind in ("tb", "exp"):
            exe = args["cmd"][0] if kind == "tb" else args["sim"]
            if not os.path.isfile(exe):
                raise Bad(f"{a.list}: job {s['id']}: {exe} is not a file (a tb job's cmd starts with the bench binary)")
            inputs.append(file_stamp(exe))
        jobs.append(job(s["id"], kind, args, inputs))
    return jobs, {}


PLANS = {"soak": plan_soak, "experiments": plan_experiments, "mutants": plan_mutants, "synth": plan_synth,
         "list": plan_list}


# ---- one job ----

def run_logged(cmd, log, cwd=None, env=None):
    log.write("$ " + " ".join(shlex.quote(c) for c in cmd) + "\n")
    log.flush()
    p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    log.write(p.stdout)
    log.write(f"(exit {p.returncode})\n")
    return p.returncode, p.stdout


def kind_tb(args, log):
    env = dict(os.environ, **args.get("env", {}))
    rc, out = run_logged(args["cmd"], log, args.get("cwd"), env)
    cmd = args["cmd"]
    res = {"rc": rc, "output": TIMING.sub("<cycles/s>", out)}
    # the bench's coverage report (bin hit counts) beside its output
    if "--out" in cmd and "--set" in cmd and "--seed" in cmd:
        d = os.path.join(args.get("cwd") or ".", cmd[cmd.index("--out") + 1])
        name = f"_{cmd[cmd.index('--set') + 1]}_seed{cmd[cmd.index('--seed') + 1]}.txt"
        for p in sorted(glob.glob(os.path.join(d, "coverage_*" + name))):
            with open(p) as f:
                res["coverage:" + os.path.basename(p)] = f.read()
    return rc == 0, res


def kind_cmd(args, log):
    rc, out = run_logged(args["cmd"], log, args.get("cwd"))
    return rc == 0, {"rc": rc, "output": out}


def kind_exp(args, log):
    import experiments as ex
    e = ex.load(args["name"])
    form, _, runs, _, _ = ex.plan(e, args["full"])
    runs = args.get("runs") or runs  # (a list job may run elsewhere than the experiment's runs/)
    os.makedirs(runs, exist_ok=True)
    log.write(f"experiment {args['name']} ({form}) point {args['labels']} seed {args['seed']}\n")
    try:
        vals = ex.run_point(args["sim"], e, form, args["labels"], args["sets"], args["seed"], runs)
    except ex.Bad as err:
        log.write(f"{err}\n")
        return False, {"error": str(err)}
    log.write(json.dumps(vals) + "\n")
    run_dir = os.path.join(runs, ex.run_name(args["labels"], args["seed"]))
    # the gather reads the run's files too (time series): done only while they are there
    return True, {"metrics": vals}, [os.path.join(run_dir, "summary.json")]


def kind_mutant(args, log):
    import mutants as mu
    verdict, note = mu.check_one(args["block"], args["mutant"], args["work"], log)
    log.write(f"{args['block']} {args['mutant'] or 'unmutated'}: {verdict} {note}\n")
    # a job that ran to its verdict is done (the gather judges it); an unmutated bench must pass
    ok = verdict == "pass" if args["mutant"] is None else True
    if verdict in ("pass", "killed"):  # a scratch build per mutant: keep only the surprising ones
        shutil.rmtree(args["work"], ignore_errors=True)
    else:
        log.write(f"scratch tree kept: {args['work']}\n")
    return ok, {"verdict": verdict, "note": note}


def kind_synth(args, log):
    import synth as sy
    spec = sy.load_configs(args["block"])
    cfg = [c for c in spec["configs"] if c["name"] == args["config"]][0]
    try:
        r = sy.run_config(args["block"], spec, cfg, args["work"])
    except Exception as err:  # noqa: BLE001 - the job fails with the reason in its log
        log.write(f"FAILED: {err}\n")
        return False, {"error": str(err)}
    log.write(json.dumps(r, indent=1) + "\n")
    return True, {"synth": r}


KINDS = {"tb": kind_tb, "cmd": kind_cmd, "exp": kind_exp, "mutant": kind_mutant, "synth": kind_synth}


def exec_job(d, task):
    man = load_manifest(d)
    if not 0 <= task < len(man["jobs"]):
        raise Bad(f"task {task}: the manifest has {len(man['jobs'])} jobs")
    j = man["jobs"][task]
    for sd in ("logs", "results"):
        os.makedirs(os.path.join(d, sd), exist_ok=True)
    log_path = os.path.join(d, "logs", j["id"] + ".log")
    t0, c0 = time.time(), resource.getrusage(resource.RUSAGE_CHILDREN)
    c1 = resource.getrusage(resource.RUSAGE_SELF)
    with open(log_path, "w") as log:
        log.write(f"job {j['id']} ({j['kind']}) task {task} on {socket.gethostname()}\n")
        try:
            ok, res, *needs = KINDS[j["kind"]](j["args"], log)
        except (Exception, SystemExit) as err:  # noqa: BLE001 - any crash is this job's failure, in its log
            import traceback
            traceback.print_exc(file=log)
            ok, res = False, {"error": f"{type(err).__name__}: {err}"}
        log.write(f"job {j['id']}: {'ok' if ok else 'FAILED'}\n")
    c0b, c1b = resource.getrusage(resource.RUSAGE_CHILDREN), resource.getrusage(resource.RUSAGE_SELF)
    cpu = (c0b.ru_utime + c0b.ru_stime - c0.ru_utime - c0.ru_stime) + (c1b.ru_utime + c1b.ru_stime - c1.ru_utime - c1.ru_stime)
    write_json(os.path.join(d, "results", j["id"] + ".json"),
               {"id": j["id"], "key": j["key"], "ok": ok, "result": res, "needs": needs[0] if needs else [],
                "timing": {"wall_s": round(time.time() - t0, 3), "cpu_s": round(cpu, 3)},
                "host": socket.gethostname(), "slurm_job": os.environ.get("SLURM_JOB_ID"),
                "slurm_out": slurm_out(d)})
    return 0 if ok else 1


# ---- manifest, state ----

def load_manifest(d):
    """The run directory's manifest, checked before anything reads a field of it."""
    if not os.path.isdir(d):
        raise Bad(f"{d}: {'not a directory' if os.path.exists(d) else 'no such directory'} "
                  "(a run directory of jobs.py run)")
    path = os.path.join(d, "manifest.json")
    man = read_json(path)
    if man is None:
        raise Bad(f"{path}: missing, unreadable or not JSON (jobs.py run writes it)")
    if not isinstance(man, dict) or man.get("flow") not in GATHERS or not isinstance(man.get("jobs"), list):
        raise Bad(f"{path}: not a jobs.py manifest (an object with \"flow\" one of {', '.join(sorted(GATHERS))} "
                  "and a \"jobs\" list)")
    for n, j in enumerate(man["jobs"]):
        if not (isinstance(j, dict) and isinstance(j.get("id"), str) and j["id"] and j["id"] == safe(j["id"])
                and j.get("kind") in KINDS and isinstance(j.get("args"), dict) and isinstance(j.get("key"), str)
                and all(isinstance(j.get(k), int) and not isinstance(j[k], bool) for k in ("time_min", "mem_mb"))):
            raise Bad(f"{path}: job {n}: not a job (id, kind one of {', '.join(sorted(KINDS))}, args, key, "
                      "time_min, mem_mb)")
    if len({j["id"] for j in man["jobs"]}) != len(man["jobs"]):
        raise Bad(f"{path}: two jobs with one id")
    return man


def state(d, man):
    """[(index, job, 'done' | 'failed' | 'pending', result)]"""
    out = []
    for i, j in enumerate(man["jobs"]):
        r = read_json(os.path.join(d, "results", j["id"] + ".json"))
        if not isinstance(r, dict) or r.get("key") != j["key"] or not all(os.path.exists(p) for p in r.get("needs", [])):
            out.append((i, j, "pending", None))
        else:
            out.append((i, j, "done" if r.get("ok") else "failed", r))
    return out


def slurm_out(d):
    """The array task's own output file (sbatch --output %A_%a.out), when in an array."""
    arr, task = os.environ.get("SLURM_ARRAY_JOB_ID"), os.environ.get("SLURM_ARRAY_TASK_ID")
    return os.path.join(d, "slurm", f"{arr}_{task}.out") if arr and task else None


def log_paths(d, j, r):
    paths = [os.path.join(d, "logs", j["id"] + ".log")]
    if r and r.get("slurm_out") and os.path.isfile(r["slurm_out"]):
        paths.append(r["slurm_out"])
    return paths


def ranges(idx):
    """[0, 1, 2, 5, 7, 8] -> '0-2,5,7-8' (an sbatch --array list)."""
    parts, i = [], 0
    while i < len(idx):
        k = i
        while k + 1 < len(idx) and idx[k + 1] == idx[k] + 1:
            k += 1
        parts.append(str(idx[i]) if k == i else f"{idx[i]}-{idx[k]}")
        i = k + 1
    return ",".join(parts)


# ---- running ----

def me():
    return [sys.executable, os.path.abspath(__file__)]


def run_local(d, todo, jobs):
    def one(i):
        return subprocess.run(me() + ["exec", d, "--task", str(i)], stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
        for (i, j), p in zip(todo, ex.map(one, [i for i, _ in todo])):
            print(f"jobs: {j['id']}: {'ok' if p.returncode == 0 else 'FAILED'}", flush=True)
            if p.returncode not in (0, 1):
                print(p.stderr, file=sys.stderr)


def slurm_opts(a, minutes, mb):
    opts = ["--time", str(a.time or minutes), "--mem", a.mem or f"{mb}M"]
    if a.partition:
        opts += ["--partition", a.partition]
    if a.account:
        opts += ["--account", a.account]
    for x in a.sbatch_arg or []:
        opts += shlex.split(x)
    return opts


def sbatch(cmd):
    print("jobs: " + " ".join(shlex.quote(c) for c in cmd), flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise Bad(f"sbatch failed (exit {p.returncode}): {p.stderr.strip()}")
    return p.stdout.strip().split(";")[0]


def run_slurm(d, man, todo, a):
    """One array of the unfinished jobs, then the gather step after it. Returns the
    gather's exit status (waited for) or 0 when --no-wait."""
    sd = os.path.join(d, "slurm")
    os.makedirs(sd, exist_ok=True)
    name = f"ll-{man['flow']}"
    dep = []
    if todo:
        minutes = max(j["time_min"] for _, j in todo)
        mb = max(j["mem_mb"] for _, j in todo)
        arr = ranges([i for i, _ in todo]) + (f"%{a.max_parallel}" if a.max_parallel else "")
        cmd = (["sbatch", "--parsable", "--job-name", name, "--array", arr, "--cpus-per-task", "1",
                "--chdir", ROOT, "--output", os.path.join(sd, "%A_%a.out")] + slurm_opts(a, minutes, mb)
               + ["--wrap", " ".join(shlex.quote(c) for c in me() + ["exec", d])])
        arr_id = sbatch(cmd)
        print(f"jobs: array {arr_id}: {len(todo)} task{'s' if len(todo) != 1 else ''} ({arr}), {minutes} min and {a.mem or str(mb) + 'M'} each")
        dep = ["--dependency", f"afterany:{arr_id}", "--kill-on-invalid-dep=yes"]
    gout = os.path.join(sd, "gather-%j.out")
    gid = sbatch(["sbatch", "--parsable", "--job-name", name + "-gather", "--chdir", ROOT, "--output", gout] + dep
                 + slurm_opts(a, *GATHER_LIMITS) + ["--wrap", " ".join(shlex.quote(c) for c in me() + ["gather", d])])
    out = gout.replace("%j", gid)
    if a.no_wait:
        print(f"jobs: gather job {gid} runs after the array; its output: {out}; then: jobs.py status {d}")
        return 0
    state = wait_job(gid)
    if os.path.isfile(out):
        with open(out) as f:
            sys.stdout.write(f.read())
    rc_file = os.path.join(sd, f"gather-{gid}.rc")
    if not os.path.isfile(rc_file):
        print(f"jobs: gather job {gid} ended ({state}) without an exit status ({out})", file=sys.stderr)
        return 1
    with open(rc_file) as f:
        rc = int(f.read().strip() or 1)
    print(f"jobs: gather job {gid} exit {rc} ({out})")
    return rc


def wait_job(jid, poll=1.0):
    """Until the job has left the queue (or reached an end state): its last state. The
    exit status comes from the file the gather writes, so no accounting database is needed."""
    last, since_ok = "PENDING", time.time()
    ends = {"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "OUT_OF_MEMORY", "NODE_FAIL", "PREEMPTED",
            "BOOT_FAIL", "DEADLINE"}
    while True:
        p = subprocess.run(["squeue", "-h", "-j", jid, "-o", "%T"], capture_output=True, text=True)
        if p.returncode == 0:
            since_ok = time.time()
            st = p.stdout.strip()
            if not st or st in ends:
                return st or last
            last = st
        elif "Invalid job id" in p.stderr:
            return last
        elif time.time() - since_ok > 120:
            raise Bad(f"squeue has failed for 2 minutes: {p.stderr.strip()}")
        time.sleep(poll)


def status(d, quiet=False):
    man = load_manifest(d)
    st = state(d, man)
    counts = {k: sum(1 for s in st if s[2] == k) for k in ("done", "failed", "pending")}
    if not quiet:
        print(f"jobs: {man['flow']} in {d}: {len(st)} jobs, {counts['done']} done, {counts['failed']} failed, "
              f"{counts['pending']} pending")
        for i, j, s, r in st:
            if s == "failed":
                res = r.get("result", {})
                why = f"exit {res['rc']}" if "rc" in res else res.get("error", res.get("verdict", ""))
                logs = log_paths(d, j, r)
                print(f"jobs: FAILED {j['id']} (task {i}{', ' + why if why else ''}): log {', '.join(logs)}")
                try:
                    with open(logs[0]) as f:
                        tail = f.read().splitlines()[-4:]
                    print("".join(f"    | {t[:200]}\n" for t in tail), end="")
                except OSError:
                    pass
        for i, j, s, r in st:
            if s == "pending":
                print(f"jobs: NOT RUN {j['id']} (task {i})" + (f": see {os.path.join(d, 'slurm')}" if os.path.isdir(os.path.join(d, "slurm")) else ""))
    return man, st, counts


def execute(d, a):
    man = load_manifest(d)
    st = state(d, man)
    only = set(a.only or [])
    unknown = only - {j["id"] for _, j, _, _ in st}
    if unknown:
        raise Bad(f"--only: no such job: {', '.join(sorted(unknown))}")
    todo = [(i, j) for i, j, s, _ in st if s != "done" and (not only or j["id"] in only)]
    print(f"jobs: {man['flow']}: {len(st)} jobs, {len(st) - sum(1 for s in st if s[2] != 'done')} already done, "
          f"running {len(todo)} ({a.runner})", flush=True)
    t0 = time.time()
    if a.runner == "slurm":
        if not shutil.which("sbatch"):
            raise Bad("RUNNER=slurm: no sbatch here (make deps installs the Slurm client; SLURM_CONF or "
                      "/etc/slurm/slurm.conf must name the cluster)")
        rc = run_slurm(d, man, todo, a)
        print(f"jobs: slurm run {time.time() - t0:.1f} s")
        return rc
    run_local(d, todo, a.jobs)
    rc = gather(d)
    print(f"jobs: local run {time.time() - t0:.1f} s")
    return rc


# ---- gathering ----

def gather(d):
    man, st, counts = status(d)
    if counts["failed"] or counts["pending"]:
        print(f"jobs: gather: {counts['failed']} failed, {counts['pending']} not run; run those alone with: "
              f"python3 scripts/jobs.py resume {d} --runner <local|slurm>", flush=True)
        return 1
    results = {j["id"]: r["result"] for _, j, _, r in st}
    return GATHERS[man["flow"]](d, man, st, results)


def gather_list(d, man, st, results):
    write_json(os.path.join(d, "results.json"), results)
    print(f"jobs: {len(results)} results (timings apart) in {os.path.join(d, 'results.json')}")
    return 0


def gather_soak(d, man, st, results):
    write_json(os.path.join(d, "results.json"), results)
    print(f"soak: {len(results)} lockstep runs passed ({os.path.join(d, 'results.json')})")
    return 0


def gather_experiments(d, man, st, results):
    import experiments as ex
    g = man["gather"]
    problems = []
    by_id = {j["id"]: (j, results[j["id"]]) for _, j, _, _ in st}
    try:
        for n in g["names"]:
            e = ex.load(n)
            rows = [(j["args"]["labels"], j["args"]["seed"], r["metrics"]) for j, r in by_id.values()
                    if j["args"]["name"] == n]
            out = ex.out_dir(n, g["full"], g["exp_out"])
            means, verdicts = ex.finish(e, g["full"], rows, out, g["command"])
            problems += ex.verdict(e, means, verdicts, out, g["full"], g["swap_check"])
        ex.write_index(check=not g["full"])  # a quick run checks the committed tables are current
    except ex.Bad as err:
        print(f"experiments: {err}", file=sys.stderr)
        return 1
    for p in problems:
        print(f"experiments: FAIL {p}", file=sys.stderr)
    return 1 if problems else 0


def gather_mutants(d, man, st, results):
    total = killed = 0
    per = {}
    for _, j, _, _ in st:
        r = results[j["id"]]
        if j["args"]["mutant"] is None:
            continue
        b = j["args"]["block"]
        k = r["verdict"] == "killed"
        print(f"  {b:8s} {j['args']['mutant']:28s} {r['verdict']:8s} {r['note']}")
        per.setdefault(b, [0, 0])
        per[b][0] += k
        per[b][1] += 1
        total += 1
        killed += k
    for b, (k, n) in per.items():
        print(f"mutants: {b}: {k}/{n} killed")
    print(f"mutants: {killed}/{total} killed")
    print(f"{killed} passed, {total - killed} failed")
    return 0 if killed == total else 1


def gather_synth(d, man, st, results):
    import synth as sy
    g = man["gather"]
    sel = sy.select(g["block"], g["config"], g["smoke"])
    rs = [results[j["id"]]["synth"] for _, j, _, _ in st]
    if not g["smoke"]:  # as synth.py: every configuration's report
        for r in rs:
            sy.write_report(r, os.path.join(ROOT, "synth", "reports", r["block"]))
    return sy.finish(rs, 0, sel, g["smoke"], g["update_baseline"], g["work"], man.get("planned", time.time()))


GATHERS = {"list": gather_list, "soak": gather_soak, "experiments": gather_experiments,
           "mutants": gather_mutants, "synth": gather_synth}


# ---- command line ----

def runner_args(p):
    p.add_argument("--runner", choices=("local", "slurm"), default=os.environ.get("RUNNER") or "local")
    p.add_argument("--jobs", "-j", type=int, default=2, help="local pool size")
    p.add_argument("--partition", default=os.environ.get("SLURM_PARTITION") or None)
    p.add_argument("--account", default=os.environ.get("SLURM_ACCOUNT") or None)
    p.add_argument("--time", default=os.environ.get("SLURM_TIME") or None,
                   help="time limit per array task (sbatch --time; default: the largest the jobs ask)")
    p.add_argument("--mem", default=os.environ.get("SLURM_MEM") or None, help="memory per array task (sbatch --mem)")
    p.add_argument("--max-parallel", type=int, help="at most this many array tasks at once (--array ...%%N)")
    p.add_argument("--sbatch-arg", action="append", help="more sbatch options (repeatable; e.g. '--qos=long')")
    p.add_argument("--no-wait", action="store_true", help="slurm: submit and return (gather runs after the array)")
    p.add_argument("--only", action="append", help="run only this job id (repeatable)")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="plan a flow, run its unfinished jobs, gather")
    r.add_argument("flow", choices=sorted(PLANS))
    r.add_argument("--out", required=True, help="the run directory (manifest, results, logs)")
    runner_args(r)
    r.add_argument("--build", default=os.path.join(ROOT, "build"), help="soak: the CMake build")
    r.add_argument("--cycles", type=int, default=100000000, help="soak: cycles per run (LL_TB_CYCLES)")
    r.add_argument("--sim", default=os.path.join(ROOT, "build", "sim", "lossless_sim"), help="experiments")
    r.add_argument("--name", help="experiments: one experiment")
    r.add_argument("--full", action="store_true", help="experiments: paper scale into results/")
    r.add_argument("--swap-check", action="store_true", help="experiments: as experiments.py")
    r.add_argument("--exp-out", help="experiments: where quick results go (default build/experiments; not with --full)")
    r.add_argument("--blocks", nargs="*", help="mutants: these blocks")
    r.add_argument("--block", action="append", help="synth")
    r.add_argument("--config", action="append", help="synth")
    r.add_argument("--smoke", action="store_true", help="synth")
    r.add_argument("--update-baseline", action="store_true", help="synth")
    r.add_argument("--synth-out", help="synth: work directory (default build/synth)")
    r.add_argument("--list", help="list: the JSON file of jobs")
    s = sub.add_parser("resume", help="run an existing manifest's unfinished jobs, gather")
    s.add_argument("dir")
    runner_args(s)
    st = sub.add_parser("status", help="done / failed / pending jobs")
    st.add_argument("dir")
    e = sub.add_parser("exec", help="run one job (an array task)")
    e.add_argument("dir")
    e.add_argument("--task", type=int, default=None)
    g = sub.add_parser("gather", help="list failures (exit 1) or gather the results")
    g.add_argument("dir")
    a = ap.parse_args()
    try:
        if a.cmd in ("run", "resume"):  # before anything is planned, written or run
            if a.jobs < 1:
                raise Bad(f"--jobs must be at least 1 (got {a.jobs})")
            if a.max_parallel is not None and a.max_parallel < 1:
                raise Bad(f"--max-parallel must be at least 1 (got {a.max_parallel})")
        if a.cmd == "run":
            if dir_problem(a.out):   # ("" too: as an absolute path it would be the current directory)
                raise Bad(f"--out {a.out}: {dir_problem(a.out)}")
            d = os.path.abspath(a.out)
            a.out = d
            jobs, gather_args = PLANS[a.flow](a)   # (a plan that fails leaves no run directory)
            ids = [j["id"] for j in jobs]
            if len(set(ids)) != len(ids):
                raise Bad("two jobs with one id")
            for sd in ("logs", "results"):
                os.makedirs(os.path.join(d, sd), exist_ok=True)
            write_json(os.path.join(d, "manifest.json"), {"flow": a.flow, "root": ROOT, "dir": d, "jobs": jobs,
                                                          "gather": gather_args, "planned": time.time()},
                       sort=False)  # the order of a point's labels names its run directory
            sys.exit(execute(d, a))
        if a.cmd == "resume":
            sys.exit(execute(os.path.abspath(a.dir), a))
        if a.cmd == "status":
            _, _, c = status(os.path.abspath(a.dir))
            sys.exit(1 if c["failed"] or c["pending"] else 0)
        if a.cmd == "exec":
            task = a.task
            if task is None:
                env = os.environ.get("SLURM_ARRAY_TASK_ID", "")
                if not re.fullmatch(r"\d+", env):
                    raise Bad("exec needs --task N (or SLURM_ARRAY_TASK_ID, the task number of a Slurm array task"
                              + (f"; it is {env!r})" if env else ")"))
                task = int(env)
            sys.exit(exec_job(os.path.abspath(a.dir), task))
        if a.cmd == "gather":
            d = os.path.abspath(a.dir)
            rc = gather(d)
            if os.environ.get("SLURM_JOB_ID"):  # for the waiting `jobs.py run` (no accounting needed)
                with open(os.path.join(d, "slurm", f"gather-{os.environ['SLURM_JOB_ID']}.rc"), "w") as f:
                    f.write(f"{rc}\n")
            sys.exit(rc)
    except Bad as err:
        sys.exit(f"jobs: {err}")


if __name__ == "__main__":
    main()
