#!/usr/bin/env python3
"""Formal property proofs of the RTL assertions with yosys-smtbmc (make formal).

The properties are the RTL's own assertions (the macros of rtl/common/ll_assert.svh; under
`read_verilog -formal` they are Yosys `assert`/`assume` cells). tb/<block>/formal.json says,
per block, which design is proved (top module and a small parameter set), the reset and
the assumptions, and the properties: each property names the assertion lines it consists of
(text anchors into the RTL, like the mutants of tb/<block>/mutants.json, optionally
restricted to one instance), a BMC depth, and a mutant of its own.

For every property:
  1. the design is elaborated once per block (read_verilog -formal: FORMAL defined, the
     macros give assert/assume; proc, flatten, memories mapped to flip-flops, outputs
     dropped so only the cone of the assertions is kept) and written as RTLIL;
  2. every assertion that is not part of the property is disabled (its enable tied low), the
     rest of the design and every assumption stay; write_smt2;
  3. BMC from reset (rst_ni low in step 0, --smtc) to the stated depth with z3, then
     k-induction (yosys-smtbmc -i) to the same depth: "proven" when both pass, "BMC" when
     only the base case passes (reported with its depth), FAIL when BMC finds a
     counterexample or the budget (--timeout, default 60 s per property) runs out in BMC.
  4. negative test: the property's mutant (a text substitution in a copy of rtl/) is
     elaborated the same way and BMC must find a counterexample for that property within
     its depth (budget --mutant-timeout, default 120 s); a mutant that survives fails the run.

Outputs: a table on stdout, build/formal/report.md and build/formal/summary.json (per block:
properties, proven by induction, BMC-only with depth, seconds; per property the result and
the mutant's counterexample step). Exit 1 when a property fails or a mutant survives,
2 on bad options.

Usage:
  formal.py [-j N] [--block B ...] [--property ID ...] [--no-mutants] [--timeout S]
"""
import argparse
import concurrent.futures as cf
import json
import os
import re
import shutil
import subprocess
import sys
import time

import ll_rtl  # scripts/ll_rtl.py: the one RTL file-list rule
from ll_out import dir_problem  # scripts/ll_out.py

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOLVER = "z3"
TIMEOUT_S = 60


def die(msg):
    print(f"formal: error: {msg}", file=sys.stderr)
    sys.exit(2)


def configs():
    """{block: config} of every tb/<block>/formal.json."""
    out = {}
    for b in ll_rtl.blocks():
        path = os.path.join(ROOT, "tb", b, "formal.json")
        if os.path.exists(path):
            try:
                with open(path) as f:
                    out[b] = json.load(f)
            except (OSError, json.JSONDecodeError) as e:
                die(f"tb/{b}/formal.json: {e}")
            if not isinstance(out[b], dict):
                die(f"tb/{b}/formal.json: not a JSON object")
    return out


def run(cmd, cwd, timeout):
    """(returncode or None on timeout, output)."""
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=timeout)
        return p.returncode, p.stdout
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        return None, out


def elaborate(cfg, rtl_root, work):
    """One design of the block as RTLIL (work/design.il); returns its path."""
    os.makedirs(work, exist_ok=True)
    files = " ".join(ll_rtl.files(cfg["rtl_block"], rtl_root))
    chparam = " ".join(f"-set {k} {v}" for k, v in cfg.get("params", {}).items())
    top = cfg["top"]
    script = "\n".join([
        f"read_verilog -formal -sv {files}",
        f"chparam {chparam} {top}" if chparam else "",
        f"hierarchy -check -top {top}",
        "proc", "flatten", "memory_nordff", "memory_map", "opt_clean",
        # only the assertions' cone is kept: outputs are no longer ports
        "delete -output", "opt_clean",
        "setundef -undriven -anyseq", "opt -keepdc -fast",
        "async2sync", "dffunmap", "check -assert",
        "write_rtlil design.il",
    ])
    with open(os.path.join(work, "elab.ys"), "w") as f:
        f.write(script + "\n")
    rc, out = run(["yosys", "-q", "-l", "elab.log", "-s", "elab.ys"], work, 600)
    if rc != 0:
        raise RuntimeError(f"yosys elaboration failed in {work}:\n" + "\n".join(out.splitlines()[-15:]))
    return os.path.join(work, "design.il")


def anchor_lines(rtl_root, a):
    """Line range (first, last) of the assertion macro that starts at anchor a["find"]."""
    path = os.path.join(rtl_root, os.path.relpath(os.path.join(ROOT, a["file"]), os.path.join(ROOT, "rtl")))
    src = open(path).read()
    n = src.count(a["find"])
    if n != 1:
        raise RuntimeError(f"anchor {a['find']!r} found {n} times in {a['file']} (must be exactly once)")
    pos = src.index(a["find"])
    first = src.count("\n", 0, pos) + 1
    # the macro call ends where its parentheses balance
    i = src.index("(", src.index("`LL_", pos))
    depth = 0
    while True:
        c = src[i]
        depth += c == "("
        depth -= c == ")"
        if depth == 0:
            break
        i += 1
    return path, first, src.count("\n", 0, i) + 1


def formal_cells(il_text):
    """[(kind, name, src, line index of its `cell` line)] of the assert/assume/cover cells."""
    lines = il_text.split("\n")
    out = []
    for i, ln in enumerate(lines):
        if ln.startswith("  cell $assert ") or ln.startswith("  cell $assume ") or ln.startswith("  cell $cover "):
            kind, name = ln.split()[1][1:], ln.split()[2]
            src = ""
            j = i - 1
            while j >= 0 and lines[j].startswith("  attribute "):
                m = re.match(r'  attribute \\src "([^"]*)"', lines[j])
                if m:
                    src = m.group(1)
                j -= 1
            out.append((kind, name, src, i))
    return out


def select_asserts(il_text, rtl_root, prop):
    """Names of the $assert cells that make up property prop."""
    wanted = []
    for a in prop["asserts"]:
        path, first, last = anchor_lines(rtl_root, a)
        wanted.append((os.path.basename(path), first, last, a.get("inst")))
    names, hits = [], [0] * len(wanted)
    for kind, cname, src, _ in formal_cells(il_text):
        if kind != "assert" or not src:
            continue
        # src lists the instance sites and the assertion's own range, in no fixed order
        spans = []
        for part in src.split("|"):
            mm = re.match(r"(.*):(\d+)\.\d+-(\d+)\.\d+$", part)
            if mm:
                spans.append((os.path.basename(mm.group(1)), int(mm.group(3))))
        # instance path of the cell: "$flatten\\a.\\b.$assert$..." -> "a.b"
        path = cname.split(".$assert")[0].replace("$flatten", "").replace("\\", "") if "$flatten" in cname else ""
        for n, (wf, first, last, inst) in enumerate(wanted):
            if any(f == wf and first <= end <= last for f, end in spans) and (
                    inst is None or path == inst or path.endswith("." + inst)):
                names.append(cname)
                hits[n] += 1
                break
    for n, a in enumerate(prop["asserts"]):
        if not hits[n]:
            raise RuntimeError(f"{prop['id']}: anchor {a['find']!r} ({a['file']}"
                               f"{', ' + a['inst'] if a.get('inst') else ''}) matches no assertion")
    return names


def keep_only(il_text, keep):
    """RTLIL with every $assert cell outside `keep` disabled (EN tied to 0)."""
    lines = il_text.split("\n")
    for kind, name, _, i in formal_cells(il_text):
        if kind != "assert" or name in keep:
            continue
        j = i + 1
        while lines[j] != "  end":
            if lines[j].startswith("    connect \\EN "):
                lines[j] = "    connect \\EN 1'0"
            j += 1
    return "\n".join(lines)


def smt2(il_text, work, tag):
    il = os.path.join(work, f"{tag}.il")
    with open(il, "w") as f:
        f.write(il_text)
    rc, out = run(["yosys", "-q", "-p", f"read_rtlil {tag}.il; opt_clean; write_smt2 -wires {tag}.smt2"], work, 300)
    if rc != 0:
        raise RuntimeError(f"write_smt2 failed ({work}/{tag}):\n{out[-2000:]}")
    return f"{tag}.smt2"


def smtbmc(work, model, depth, induction, timeout, reset):
    """('pass' | 'fail' | 'timeout' | 'error', step of the failure or None, seconds)."""
    smtc = os.path.join(work, "reset.smtc")
    with open(smtc, "w") as f:
        f.write(f"initial\nassume (not [{reset}])\n")
    cmd = ["yosys-smtbmc", "-s", SOLVER, "--unroll", "--presat", "--smtc", "reset.smtc", "-t", str(depth)]
    if induction:
        cmd.insert(1, "-i")
    else:
        cmd += ["--dump-vcd", model.replace(".smt2", ".vcd")]
    t0 = time.time()
    rc, out = run(cmd + [model], work, max(1, timeout))
    dt = time.time() - t0
    with open(os.path.join(work, model.replace(".smt2", "_ind.log" if induction else "_bmc.log")), "w") as f:
        f.write(out)
    if rc is None:
        return "timeout", None, dt
    if "Status: PASSED" in out:
        return "pass", None, dt
    if "Status: FAILED" in out:
        steps = re.findall(r"Checking assertions in step (\d+)", out) or re.findall(r"step (\d+)", out)
        return "fail", int(steps[-1]) if steps else None, dt
    return "error", None, dt


def prove(block, cfg, prop, il_text, work, timeout, reset):
    keep = set(select_asserts(il_text, os.path.join(ROOT, "rtl"), prop))
    if not keep:
        raise RuntimeError(f"{block}/{prop['id']}: no assertion matches its anchors")
    model = smt2(keep_only(il_text, keep), work, prop["id"])
    t0 = time.time()
    depth = prop["depth"]
    st, step, _ = smtbmc(work, model, depth, False, timeout, reset)
    res = {"id": prop["id"], "desc": prop["desc"], "asserts": len(keep), "depth": depth}
    if st != "pass":
        res.update(result={"fail": "FAIL", "timeout": "TIMEOUT"}.get(st, "ERROR"), fail_step=step)
    else:
        # k-induction to depth k (default: the BMC depth); "k": 0 marks a property whose
        # induction does not close (e.g. it rests on RAM contents): reported as BMC only
        k = prop.get("k", depth)
        left = timeout - (time.time() - t0)
        ist = smtbmc(work, model, k, True, left, reset)[0] if k and left > 1 else "skipped"
        res.update(result="proven" if ist == "pass" else "BMC", k=k)
    res["seconds"] = round(time.time() - t0, 1)
    return res


def mutant(block, cfg, prop, work, timeout, reset):
    """The property's mutant must give a BMC counterexample: (killed, step, seconds, note)."""
    m = prop["mutant"]
    rtl_copy = os.path.join(work, "rtl")
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(os.path.join(ROOT, "rtl"), rtl_copy)
    path = os.path.join(rtl_copy, os.path.relpath(os.path.join(ROOT, m["file"]), os.path.join(ROOT, "rtl")))
    src = open(path).read()
    if src.count(m["find"]) != 1:
        return False, None, 0.0, f"anchor found {src.count(m['find'])} times in {m['file']}"
    with open(path, "w") as f:
        f.write(src.replace(m["find"], m["replace"]))
    t0 = time.time()
    try:
        il_text = open(elaborate(cfg, rtl_copy, work)).read()
        keep = set(select_asserts(il_text, rtl_copy, prop))
        model = smt2(keep_only(il_text, keep), work, "mutant")
    except RuntimeError as e:
        return False, None, time.time() - t0, f"does not elaborate: {str(e).splitlines()[-1][:120]}"
    st, step, _ = smtbmc(work, model, m.get("depth", prop["depth"]), False, timeout, reset)
    dt = time.time() - t0
    if st == "fail":
        return True, step, dt, "counterexample"
    return False, None, dt, {"pass": "SURVIVED (BMC passed)", "timeout": "SURVIVED (timeout)"}.get(st, "error")


def designs(cfg):
    """The proof designs of a block config: cfg["designs"], or cfg itself when it has one."""
    return cfg["designs"] if "designs" in cfg else [cfg]


def run_block(block, cfg, out, pool, props_sel, timeout, mutant_timeout):
    work = os.path.join(out, block)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    t0 = time.time()
    futs = []
    for i, d in enumerate(designs(cfg)):
        d = dict(d, rtl_block=d.get("rtl_block", block))
        dwork = os.path.join(work, d.get("name", d["top"] if i == 0 else f"{d['top']}_{i}"))
        il_text = open(elaborate(d, os.path.join(ROOT, "rtl"), dwork)).read()
        reset = d.get("reset", "rst_ni")
        for p in d["properties"]:
            if props_sel and p["id"] not in props_sel:
                continue
            futs.append((d, p, pool.submit(prove, block, d, p, il_text, dwork, timeout, reset),
                         pool.submit(mutant, block, d, p, os.path.join(work, "mut_" + p["id"]), mutant_timeout, reset)
                         if mutant_timeout else None))
    rows = []
    for d, p, fp, fm in futs:
        r = fp.result()
        r["top"] = d["top"]
        if fm is not None:
            killed, step, dt, note = fm.result()
            r["mutant"] = {"id": p["mutant"]["id"], "killed": killed, "step": step,
                           "seconds": round(dt, 1), "note": note, "why": p["mutant"].get("why", "")}
        rows.append(r)
    return {"block": block,
            "designs": [{"top": d["top"], "params": d.get("params", {}), "name": d.get("name", "")}
                        for d in designs(cfg)],
            "assumptions": [a for d in designs(cfg) for a in d.get("assumptions", [])],
            "properties": rows, "seconds": round(time.time() - t0, 1)}


def summarize(res):
    rows = res["properties"]
    return {"properties": len(rows),
            "proven": sum(r["result"] == "proven" for r in rows),
            "bmc_only": {r["id"]: r["depth"] for r in rows if r["result"] == "BMC"},
            "failed": [r["id"] for r in rows if r["result"] not in ("proven", "BMC")],
            "mutants_killed": sum(1 for r in rows if r.get("mutant", {}).get("killed")),
            "mutants": sum(1 for r in rows if "mutant" in r),
            "seconds": res["seconds"]}


def report(results, total_s):
    lines = ["# Formal property proofs (make formal)", "",
             f"yosys-smtbmc with {SOLVER}; BMC from reset to the stated depth, then k-induction "
             "(`-i`) to the same depth. proven = BMC and induction pass; BMC = only the base "
             "case closes (bounded proof to that depth). Each property has its own mutant, "
             "which BMC must refute (counterexample step given).", "",
             "| block | property | asserts | result | depth | s | mutant | cex step |",
             "|---|---|---:|---|---:|---:|---|---:|"]
    for res in results:
        for r in res["properties"]:
            m = r.get("mutant", {})
            mut = (f"{m['id']} {'killed' if m['killed'] else m['note']}") if m else "-"
            lines.append(f"| {res['block']} | {r['id']} | {r['asserts']} | {r['result']} | {r['depth']} | "
                         f"{r['seconds']} | {mut} | {m.get('step', '') if m else ''} |")
    lines += ["", "| block | design | properties | proven (induction) | BMC only (depth) | s |",
              "|---|---|---:|---:|---|---:|"]
    for res in results:
        s = summarize(res)
        design = "; ".join(d["top"] + " " + ", ".join(f"{k}={v}" for k, v in d["params"].items())
                           for d in res["designs"])
        bmc = ", ".join(f"{k} ({v})" for k, v in s["bmc_only"].items()) or "-"
        lines.append(f"| {res['block']} | {design} | {s['properties']} | {s['proven']} | {bmc} | {s['seconds']} |")
    lines += ["", "Assumptions (environment and configuration):", ""]
    for res in results:
        for a in res["assumptions"]:
            lines.append(f"- {res['block']}: {a}")
    lines += ["", "Properties:", ""]
    for res in results:
        for r in res["properties"]:
            lines.append(f"- {res['block']}/{r['id']}: {r['desc']}")
    lines += ["", f"Total: {total_s:.0f} s"]
    return "\n".join(lines) + "\n"


def main():
    cfgs = configs()
    ap = argparse.ArgumentParser(description="Prove the RTL assertions with yosys-smtbmc (BMC and "
                                 "k-induction) and refute each property's mutant.")
    ap.add_argument("--block", action="append", help=f"block(s) to prove (default: all of {sorted(cfgs)})")
    ap.add_argument("--property", action="append", help="only these property ids")
    ap.add_argument("--no-mutants", action="store_true", help="skip the negative test")
    ap.add_argument("--timeout", type=int, default=TIMEOUT_S, help="seconds per proof (default %(default)s)")
    ap.add_argument("--mutant-timeout", type=int, default=2 * TIMEOUT_S,
                    help="seconds for a mutant's BMC to find its counterexample (default %(default)s)")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "formal"))
    args = ap.parse_args()
    if args.jobs < 1:
        die("--jobs must be >= 1")
    if args.timeout < 1 or args.mutant_timeout < 1:
        die("--timeout and --mutant-timeout must be >= 1")
    if dir_problem(args.out):   # ("" too: as an absolute path it would be the current directory)
        die(f"--out {args.out}: {dir_problem(args.out)}")
    args.out = os.path.abspath(args.out)
    for b in args.block or []:
        if b not in cfgs:
            die(f"no formal configuration for block {b!r} (known: {', '.join(sorted(cfgs))})")
    blocks = args.block or sorted(cfgs)
    if args.property:
        known = {p["id"] for b in blocks for d in designs(cfgs[b]) for p in d["properties"]}
        bad = [p for p in args.property if p not in known]
        if bad:
            die(f"unknown property {', '.join(bad)} (known: {', '.join(sorted(known))})")
    for tool in ("yosys", "yosys-smtbmc", SOLVER):
        if shutil.which(tool) is None:
            die(f"{tool} not found: run 'make deps'")
    os.makedirs(args.out, exist_ok=True)
    t0 = time.time()
    results = []
    with cf.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        bfuts = [(b, cf.ThreadPoolExecutor(max_workers=1).submit(
            run_block, b, cfgs[b], args.out, pool, args.property, args.timeout,
            args.mutant_timeout if not args.no_mutants else 0))
            for b in blocks]
        errors = 0
        for b, f in bfuts:
            try:
                results.append(f.result())
            except RuntimeError as e:
                print(f"formal: error: {b}: {e}", file=sys.stderr)
                errors += 1
    if errors:
        return 1
    total = time.time() - t0
    text = report(results, total)
    with open(os.path.join(args.out, "report.md"), "w") as f:
        f.write(text)
    summary = {r["block"]: dict(summarize(r), properties_detail=r["properties"], designs=r["designs"],
                                assumptions=r["assumptions"]) for r in results}
    summary["total_seconds"] = round(total, 1)
    with open(os.path.join(args.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    hdr = f"{'block':7s} {'property':22s} {'result':7s} {'depth':>5s} {'s':>6s}  mutant"
    print(hdr)
    bad = 0
    for res in results:
        for r in res["properties"]:
            m = r.get("mutant")
            ok_m = m is None or m["killed"]
            bad += (r["result"] not in ("proven", "BMC")) + (not ok_m)
            mt = "-" if m is None else (f"{m['id']}: killed at step {m['step']}" if m["killed"]
                                        else f"{m['id']}: {m['note']}")
            print(f"{res['block']:7s} {r['id']:22s} {r['result']:7s} {r['depth']:5d} {r['seconds']:6.1f}  {mt}")
    for res in results:
        s = summarize(res)
        print(f"formal: {res['block']:7s} {s['properties']} properties, {s['proven']} proven by induction, "
              f"{len(s['bmc_only'])} BMC-only, {len(s['failed'])} failed, mutants killed "
              f"{s['mutants_killed']}/{s['mutants']}, {s['seconds']} s")
    print(f"formal: {'FAIL' if bad else 'ok'} in {total:.0f} s; report {os.path.relpath(args.out, ROOT)}/report.md")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
