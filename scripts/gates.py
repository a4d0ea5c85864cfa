#!/usr/bin/env python3
"""Gate-level lockstep: the lockstep benches run on Yosys gate netlists (make gates).

For each bench of BENCHES (every block, plus the PFC frame codec) and one of its
parameter sets (tb/<block>/CMakeLists.txt; the parameters are baked into the netlist, so
the bench must run the set the netlist was synthesised for):
  1. synthesis with the flow of `make synth` (scripts/synth.py: the same read of the RTL,
     the same gate_script), to
       generic  the generic-gate netlist (Yosys internal gates and flip-flops after
                `abc -fast`), or
       sg13g2   the IHP SG13G2 netlist with every cell replaced by its Liberty function
                (read_liberty without -lib, flatten: the Liberty has no Verilog models),
     every wire bit-blasted (`splitnets -ports`: Verilator sees no false combinational
     loop), written by `write_verilog -noattr` as the module <top>__bits under a wrapper
     with the RTL top's name and ports (checked bit by bit: names, directions).
     Memories (--memories):
       rtl      (default) every ll_ram_1r1w instance is a black box during synthesis
                (read_verilog -lib), kept as an instance with its Width/Depth parameters,
                and the bench links rtl/common/ll_ram_1r1w.sv (behavioural array and its
                address-range assertion): what an ASIC does with an SRAM macro;
       flops    the RAMs are synthesised too (memory_map: flip-flops and read muxes);
  2. the bench is built on the netlist (CMake -DLL_GATES_DIR, tb/common/lockstep.cmake;
     one build tree build/gates/build, no tracing) and run for --cycles compared cycles
     (default 10^6), one seed; any mismatch fails the run (exit 1);
  3. negative test (--selftest, run by `make gates`): one AND gate of SELFTEST's netlist
     becomes an OR (the AND closest to an output port, so the bench sees it); the bench,
     rebuilt on that netlist in the same tree, must report a mismatch, else the run
     fails; the good netlist and bench are restored.
Arrays Yosys infers as memories outside ll_ram_1r1w are always mapped to flip-flops.

Output: a table on stdout, build/gates/summary.json and build/gates/report.md.

Usage:
  gates.py [--selftest]                    every bench of BENCHES
  gates.py --bench marker [--bench pfc_codec] [--netlist sg13g2] [--memories flops]
  gates.py --selftest-only
"""
import argparse
import concurrent.futures as cf
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import time

import ll_rtl   # scripts/ll_rtl.py: the RTL file list
from ll_out import dir_problem  # scripts/ll_out.py
import synth    # scripts/synth.py: chparams, gate_script, the Liberty

ROOT = synth.ROOT
# (block, bench name, bench CMakeLists, the parameter set the gate run uses). The small
# sets: Verilator compiles flat netlists slowly, and the point is the netlist, not size.
BENCHES = (
    ("marker", "marker", "tb/marker/CMakeLists.txt", "s0"),
    ("drill", "drill", "tb/drill/CMakeLists.txt", "s0"),
    ("pfc", "pfc", "tb/pfc/CMakeLists.txt", "p0"),
    ("pfc", "pfc_codec", "tb/pfc/codec/CMakeLists.txt", "c0"),
    ("dcqcn", "dcqcn", "tb/dcqcn/CMakeLists.txt", "s0"),
)
BIT_SUFFIX = "__bits"      # the bit-blasted netlist module; the wrapper keeps the top's name
SELFTEST = "pfc_codec"     # the bench whose netlist the negative test mutates
SEED = 1
RAM = "ll_ram_1r1w"
# a netlist operand: an escaped name (a port bit of the bit-blasted netlist, or a
# hierarchical one), which write_verilog ends with a space, or a plain name
_OPND = r"(?:\\\S+ |[A-Za-z_][\w$]*(?: \[\d+\])?)"
MUT_RE = re.compile(rf"^  assign ({_OPND}) = ({_OPND}) & ({_OPND});$")


def die(msg):
    print(f"gates: error: {msg}", file=sys.stderr)
    sys.exit(2)


def cpu_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def yosys(script, path, log, cwd):
    """Run a Yosys script; returns (wall, CPU seconds of Yosys and its ABC children). Safe
    to call from several threads (the CPU time is this child's own, from wait4)."""
    with open(path, "w") as f:
        f.write(script)
    t0 = time.time()
    with open(log + ".out", "w") as out:
        p = subprocess.Popen(["yosys", "-q", "-l", log, "-s", path], cwd=cwd, stdout=out, stderr=subprocess.STDOUT)
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode:
        raise RuntimeError(f"yosys failed ({path}):\n{tail(log) if os.path.exists(log) else ''}")
    return time.time() - t0, ru.ru_utime + ru.ru_stime


def run(cmd, log, cwd=ROOT, env=None):
    """Run cmd with its output in log; returns (rc, seconds)."""
    t0 = time.time()
    with open(log, "w") as f:
        p = subprocess.run(cmd, cwd=cwd, stdout=f, stderr=subprocess.STDOUT, env=env)
    return p.returncode, time.time() - t0


def tail(log, n=15):
    return "\n".join(open(log).read().splitlines()[-n:])


def bench_spec(name, cmakelists):
    """TOP and the sets {name: {param: value}} of a bench's ll_lockstep_tb() call."""
    text = open(os.path.join(ROOT, cmakelists)).read()
    m = re.search(r"ll_lockstep_tb\((.*?)\)", text, re.S)
    if not m:
        die(f"{cmakelists}: no ll_lockstep_tb() call")
    call = m.group(1)
    top = re.search(r"\bTOP\s+(\w+)", call)
    sets = {}
    for s, params in re.findall(r'"(\w+):([^"]*)"', call):
        sets[s] = {k: v for k, v in (kv.split("=", 1) for kv in params.split(",") if kv)}
    if not top or not sets:
        die(f"{cmakelists}: cannot read TOP and SETS of bench {name}")
    return top.group(1), sets


# ---------------------------------------------------------------------------------------
# Synthesis

def read_script(block, top, params, memories):
    """synth.read_script with the RAM read as a black box (--memories rtl)."""
    files = ll_rtl.files(block)
    lib = ""
    if memories == "rtl":
        ram = [f for f in files if os.path.basename(f) == RAM + ".sv"]
        files = [f for f in files if f not in ram]
        lib = f"read_verilog -sv -lib -DSYNTHESIS {' '.join(ram)}\n"
    return (f"{lib}read_verilog -sv -noautowire -DSYNTHESIS {' '.join(files)}\n"
            f"{synth.chparams(params, top)}hierarchy -check -top {top}\nrename -top {top}\n")


def verilog_ports(path, module):
    """[(name, direction, width)] of one module of a write_verilog netlist, sorted; an
    escaped name (a port bit of the bit-blasted netlist, `\\x_o[3] `) without its escape."""
    with open(path) as f:
        text = f.read()
    m = re.search(rf"^module {re.escape(module)}\(.*?^endmodule", text, re.M | re.S)
    if not m:
        raise RuntimeError(f"{path}: no module {module}")
    ports = []
    for d, hi, lo, n in re.findall(r"^  (input|output)\s+(?:\[(\d+):(\d+)\]\s+)?(\S+)\s*;", m.group(0), re.M):
        ports.append((n.lstrip("\\"), d, abs(int(hi) - int(lo)) + 1 if hi else 1))
    return sorted(ports)


def netlist_top(path):
    """The first module of a netlist file: the wrapper of a gates.py netlist."""
    with open(path) as f:
        m = re.search(r"^module (\S+?)\s*\(", f.read(), re.M)
    if not m:
        raise RuntimeError(f"{path}: no module")
    return m.group(1)


def rtl_ports(name, mod):
    """[(name, direction, width)] of a Yosys write_json module, sorted. splitnets names a
    bit by its declared index and the wrapper declares [w-1:0], so a port declared [0:w-1]
    or from a nonzero index would be wired reversed or shifted: refused."""
    odd = sorted(n for n, p in mod["ports"].items() if p.get("upto") or p.get("offset", 0))
    if odd:
        raise RuntimeError(f"{name}: ports {odd} are not declared [W-1:0]; the gate-level "
                           f"wrapper wires bit i of the RTL port to bit i of the netlist's")
    return sorted((n, p["direction"], len(p["bits"])) for n, p in mod["ports"].items())


def wrap_netlist(name, path, top, rtl):
    """Check that the bit-blasted module <top>__bits of the netlist at path has the RTL
    ports rtl bit by bit, then put the wrapper (the top's name and vector ports) in front."""
    inner = top + BIT_SUFFIX
    bits = sorted((n if w == 1 else f"{n}[{i}]", d, 1) for n, d, w in rtl for i in range(w))
    net = verilog_ports(path, inner)
    if bits != net:
        raise RuntimeError(f"{name}: netlist ports differ from the RTL top's: "
                           f"{sorted(set(bits) ^ set(net))[:6]}")
    with open(path) as f:
        text = f.read()
    with open(path, "w") as f:
        f.write(wrapper(top, inner, rtl) + text)


def wrapper(top, inner, ports):
    """The module the bench binds: the RTL top's name and ports [(name, direction,
    width)], each port bit wired to the bit-level module's port of that bit."""
    decl = [f"  {d} {f'[{w - 1}:0] ' if w > 1 else ''}{n};" for n, d, w in ports]
    conn = [f"    .{n}({n})" if w == 1 else f"    .\\{n}[{i}] ({n}[{i}])"
            for n, _, w in ports for i in range(w)]
    return (f"// {top}: the RTL top's ports over the bit-blasted netlist {inner} (scripts/gates.py)\n"
            f"module {top}({', '.join(n for n, _, _ in ports)});\n" + "\n".join(decl) + "\n"
            f"  {inner} bits (\n" + ",\n".join(conn) + "\n  );\nendmodule\n\n")


# Diagnosis (--stop-after): the generic flow cut before the pass that follows the named
# step, so a mismatch that the generic netlist shows and `elab` does not can be bisected
# to a step of gate_script: after `synth -run begin:fine` (word-level, memories kept),
# after `opt -full`, after `techmap` alone (techmap-raw) or with the `opt -fast` that
# follows it (techmap; fine-grained gates before ABC). docs/gates.md has the DCQCN bisect.
STOP_AFTER = {"fine": "opt -fast -full\n", "opt": "techmap\n", "techmap-raw": "opt -fast\nabc -fast\n",
              "techmap": "abc -fast\n"}


def synthesise(bench, work, netlist, memories, out_v, stop_after=None):
    """Write the netlist out_v; returns facts for the report."""
    block, name, top, params = bench["block"], bench["name"], bench["top"], bench["params"]
    read = read_script(block, top, params, memories)
    gate = synth.gate_script(top, work)
    cut = gate.index(STOP_AFTER[stop_after]) if stop_after else gate.index("dfflibmap")
    if netlist == "generic":
        gate = gate[:cut]
        if stop_after in ("fine", "opt"):   # $alu and $macc have no Verilog form: map those alone
            gate += "techmap t:$alu t:$macc\ntechmap t:$lcu t:$alu t:$macc t:$fa\nopt_clean\n"
    elif netlist == "elab":   # diagnosis: Yosys's reading of the RTL, word-level, not synthesised
        gate = f"proc\nflatten\nhierarchy -top {top}\nopt_clean\nmemory -nomap\nmemory_map\nopt_clean\n"
    # Arrays inferred as memories outside ll_ram_1r1w (e.g. DCQCN's per-slot lists) become
    # flip-flops and read muxes, and with --memories flops the RAMs too: the netlist holds
    # no behavioural memory
    if netlist != "elab":
        first = gate.index("\n") + 1
        gate = gate[:first] + "memory_map\nopt -fast\n" + gate[first:]
    post = ""
    if netlist == "sg13g2":   # every cell becomes its Liberty function
        post = f"read_liberty -ignore_miss_func {synth.LIB}\nflatten\nopt_clean\n"
    # Bit-blast every wire, ports included: a multi-bit wire whose bits feed one another
    # through gates is a false combinational loop to Verilator (UNOPTFLAT: 2,023 of them in
    # the DCQCN netlist), and Verilator 5.006 computed such a netlist wrongly (docs/gates.md,
    # "DCQCN: two Verilator faults"). With single-bit wires it sees no loop, and the bench
    # build makes a new one an error (tb/common/lockstep.cmake). The bit-level module is
    # renamed <top>__bits (BIT_SUFFIX); wrap_netlist puts a wrapper with the RTL top's name
    # and ports in front of it.
    inner = top + BIT_SUFFIX
    script = (read + gate + post + f"tee -q -o {work}/netlist_stat.txt stat\n"
              f"splitnets -ports\nrename {top} {inner}\nwrite_verilog -noattr {out_v}\n")
    secs, cpu = yosys(script, os.path.join(work, "gates.ys"), os.path.join(work, "gates.log"), work)
    total, cells = synth.parse_stat_cells(open(f"{work}/netlist_stat.txt").read())
    rams = cells.get(RAM, 0)
    # the bit-level module's ports must be the RTL top's, bit by bit
    yosys(synth.read_script(block, {"top": top, "params": params}) + f"proc\nwrite_json {work}/ports.json\n",
          os.path.join(work, "ports.ys"), os.path.join(work, "ports.log"), work)
    with open(f"{work}/ports.json") as f:
        rtl = rtl_ports(name, json.load(f)["modules"][top])
    wrap_netlist(name, out_v, top, rtl)
    mems = sum(v for k, v in cells.items() if k.startswith("$mem"))
    if mems:
        raise RuntimeError(f"{name}: {mems} memories left as $mem cells in the netlist")
    return {"cells": total - rams, "rams": rams, "flops": sum(v for k, v in cells.items() if "DFF" in k.upper()),
            "ports": len(rtl), "synth_s": round(secs, 1), "synth_cpu_s": round(cpu, 1)}


# ---------------------------------------------------------------------------------------
# Build and run

def configure(netlist_dir, build_dir, log):
    """Configure the gate-level build tree (the benches with a netlist in netlist_dir);
    returns seconds (CMake runs Verilator once per netlist to list its outputs)."""
    rc, secs = run(["cmake", "-S", ROOT, "-B", build_dir, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                     "-DLL_BUILD_SIM=OFF", "-DLL_BUILD_MODEL_TESTS=OFF", "-DLL_TRACE=OFF",
                    f"-DLL_GATES_DIR={netlist_dir}"], log)
    if rc:
        raise RuntimeError(f"cmake configure failed (log {log}):\n{tail(log)}")
    return secs


def build(build_dir, targets, jobs, log):
    """Build bench targets; returns (wall seconds, CPU seconds of the compilers)."""
    t0, c0 = time.time(), cpu_children()
    rc, _ = run(["cmake", "--build", build_dir, "-j", str(jobs), "--target"] + targets, log)
    if rc:
        raise RuntimeError(f"build failed (log {log}):\n{tail(log)}")
    return time.time() - t0, cpu_children() - c0


RESULT_RE = re.compile(r": (\d+) cycles compared, 0 mismatches, (\d+) cycles/s")


def run_bench(build_dir, bench, cycles, out):
    """Run one bench on its netlist; returns facts (mismatches 0 or 1: the bench stops at
    the first mismatch)."""
    exe = os.path.join(build_dir, os.path.relpath(os.path.dirname(os.path.join(ROOT, bench["cmakelists"])), ROOT),
                       f"tb_{bench['name']}")
    os.makedirs(out, exist_ok=True)
    log = os.path.join(out, f"{bench['name']}.{bench['set']}.seed{SEED}.log")
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    env.pop("LL_TB_CYCLES", None)
    rc, secs = run([exe, "--set", bench["set"], "--seed", str(SEED), "--cycles", str(cycles), "--no-wave",
                    "--bins", os.path.join(os.path.dirname(os.path.join(ROOT, bench["cmakelists"])),
                                           "coverage_bins.txt"), "--out", out], log, env=env)
    text = open(log).read()
    m = RESULT_RE.search(text)
    mm = re.search(r"MISMATCH .* at cycle (\d+)", text)
    return {"rc": rc, "compared": int(m.group(1)) if m else (int(mm.group(1)) if mm else 0),
            "mismatches": 1 if mm else 0, "first_mismatch": int(mm.group(1)) if mm else None,
            "cycles_per_s": int(m.group(2)) if m else None, "run_s": round(secs, 1), "log": log}


# ---------------------------------------------------------------------------------------
# Negative test: one AND becomes an OR

def _base(tok):
    """A netlist operand's signal name without its bit select."""
    tok = tok.strip().lstrip("~(").rstrip(")")
    return re.sub(r"\s*\[[\d:]+\]$", "", tok)


def _operands(expr):
    return {_base(t) for t in re.findall(r"\\\S+|[A-Za-z_][\w$]*", expr) if not re.fullmatch(r"\d+'h\w+", t)}


def pick_and(path):
    """The line index of the 2-input AND closest (in signal hops, through gates and
    flip-flops) to an output port, first in file order on a tie."""
    with open(path) as f:
        lines = f.read().split("\n")
    outs = {_base("\\" + n if "[" in n else n)   # a port bit is escaped, a 1-bit port is not
            for n, d, _ in verilog_ports(path, netlist_top(path) + BIT_SUFFIX) if d == "output"}
    drivers = {}   # signal -> signals it is computed from
    for ln in lines:
        s = ln.strip()
        m = re.match(r"assign (.+?) = (.+);$", s)
        if m:
            drivers.setdefault(_base(m.group(1)), set()).update(_operands(m.group(2)))
            continue
        m = re.match(r"(?:else )?(?:if \((.*?)\) )?(.+?) <= (.+);$", s)
        if m:
            drivers.setdefault(_base(m.group(2)), set()).update(_operands(m.group(3)) | _operands(m.group(1) or ""))
    dist, frontier = {o: 0 for o in outs}, list(outs)
    while frontier:
        nxt = []
        for sig in frontier:
            for src in drivers.get(sig, ()):
                if src not in dist:
                    dist[src] = dist[sig] + 1
                    nxt.append(src)
        frontier = nxt
    best = None
    for i, ln in enumerate(lines):
        m = MUT_RE.match(ln)
        if m and _base(m.group(1)) in dist:
            d = dist[_base(m.group(1))]
            if best is None or d < best[0]:
                best = (d, i)
    if best is None:
        raise RuntimeError(f"self-test: no AND gate in the output cone of {path}")
    return lines, best[1], best[0]


def selftest(bench, netlist_v, bdir, out, cycles, jobs):
    """Mutate one AND of netlist_v into an OR, rebuild the bench on it in the gate-level
    tree bdir (ccache keeps the unchanged files), run it: it must report a mismatch. The
    good netlist and bench are restored afterwards. Returns (line, problem or None)."""
    good = open(netlist_v).read()
    lines, i, d = pick_and(netlist_v)
    old = lines[i]
    lines[i] = old.replace(" & ", " | ", 1)
    mdir = os.path.join(out, "mutant")
    os.makedirs(mdir, exist_ok=True)
    target = [f"tb_{bench['name']}"]
    try:
        with open(netlist_v, "w") as f:
            f.write("\n".join(lines))
        shutil.copy(netlist_v, os.path.join(mdir, os.path.basename(netlist_v)))
        bsecs = build(bdir, target, jobs, os.path.join(mdir, "build.log"))[0]
        r = run_bench(bdir, bench, cycles, mdir)
    finally:
        with open(netlist_v, "w") as f:
            f.write(good)
    rsecs = build(bdir, target, jobs, os.path.join(mdir, "restore.log"))[0]
    where = (f"{bench['name']}/{bench['set']} netlist line {i + 1}: `{old.strip()}` -> `{lines[i].strip()}` "
             f"({d} hops from an output)")
    if r["mismatches"] and r["rc"] == 3:
        return (f"{where}: mismatch at cycle {r['first_mismatch']} (rebuild {bsecs:.0f} s, run {r['run_s']} s, "
                f"restore {rsecs:.0f} s)"), None
    line = f"{where}: bench exit {r['rc']}, {r['compared']} cycles compared, no mismatch"
    return line, f"the one-gate mutant was not detected ({line})"


# ---------------------------------------------------------------------------------------

def table(rows):
    out = ["| block | bench | set (parameters) | netlist | memories | cells | RAM instances | compared cycles | "
           "mismatches | cycles/s | synth s (CPU s) | build s (CPU s) | run s |",
           "| --- | --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        params = ",".join(f"{k}={v}" for k, v in r["params"].items()) or "none"
        out.append(f"| {r['block']} | {r['bench']} | {r['set']} ({params}) | {r['netlist']} | {r['memories']} | "
                   f"{r.get('cells', 'n/a')} | {r.get('rams', 'n/a')} | {r.get('compared', 0):,} | "
                   f"{r.get('mismatches', 'n/a')} | {r.get('cycles_per_s') or 'n/a'} | {r.get('synth_s', 'n/a')} "
                   f"({r.get('synth_cpu_s', 'n/a')}) | "
                   f"{r.get('build_s', 'n/a')} ({r.get('build_cpu_s', 'n/a')}) | {r.get('run_s', 'n/a')} |")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    names = [b[1] for b in BENCHES]
    ap.add_argument("--bench", action="append", choices=names,
                    help="bench(es) to run (default: all)")
    ap.add_argument("--netlist", choices=("generic", "sg13g2", "elab"), default="generic",
                    help="elab: the RTL as Yosys reads it, not synthesised (tells a frontend misreading "
                         "from a synthesis error)")
    ap.add_argument("--stop-after", choices=sorted(STOP_AFTER),
                    help="diagnosis, generic netlist only: stop the synthesis after this step of the flow "
                         "(bisects a mismatch that the generic netlist shows and elab does not)")
    ap.add_argument("--set", dest="pset",
                    help="the parameter set to run (one --bench only; default: the set BENCHES gives the "
                         "bench, as make gates runs it)")
    ap.add_argument("--memories", choices=("rtl", "flops"), default="rtl")
    ap.add_argument("--cycles", type=int, default=1000000, help="compared cycles per bench (default %(default)s)")
    ap.add_argument("--selftest", action="store_true", help="also run the negative test")
    ap.add_argument("--selftest-only", action="store_true")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="build jobs (default %(default)s)")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "gates"))
    a = ap.parse_args()
    if a.jobs < 1:
        die(f"--jobs must be >= 1 (got {a.jobs})")
    if a.cycles < 100:
        die(f"--cycles must be at least 100 (the benches' shortest run; got {a.cycles})")
    if dir_problem(a.out):   # ("" too: as an absolute path it would be the current directory)
        die(f"--out {a.out}: {dir_problem(a.out)}")
    a.out = os.path.abspath(a.out)
    if a.stop_after and a.netlist != "generic":
        die(f"--stop-after {a.stop_after} needs --netlist generic (got {a.netlist})")
    if a.pset and (not a.bench or len(a.bench) != 1 or a.selftest or a.selftest_only):
        die("--set needs exactly one --bench and no --selftest / --selftest-only")
    if a.selftest_only and a.bench:
        die("--selftest-only runs the negative test alone: no --bench with it")
    want = set(a.bench or names)
    if a.selftest_only:
        want = {SELFTEST}
    benches = []
    for block, name, cml, s in BENCHES:
        if name not in want:
            continue
        top, sets = bench_spec(name, cml)
        s = a.pset or s
        if s not in sets:
            die(f"{cml}: bench {name} has no set {s} (sets: {', '.join(sets)})")
        benches.append({"block": block, "name": name, "cmakelists": cml, "top": top, "set": s, "params": sets[s]})
    t0 = time.time()
    ndir = os.path.join(a.out, "netlists")
    shutil.rmtree(ndir, ignore_errors=True)
    os.makedirs(ndir)
    def synth_one(b):
        r = {"block": b["block"], "bench": b["name"], "set": b["set"], "params": b["params"], "top": b["top"],
             "netlist": a.netlist + (f" (stopped after {a.stop_after})" if a.stop_after else ""),
             "memories": a.memories, "seed": SEED}
        work = os.path.join(a.out, "work", b["name"])
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        try:
            r.update(synthesise(b, work, a.netlist, a.memories, os.path.join(ndir, f"{b['name']}.{b['set']}.v"),
                                a.stop_after))
            print(f"gates: {b['name']}/{b['set']}: {a.netlist} netlist, {r['cells']} cells ({r['flops']} flip-flops), "
                  f"{r['rams']} RAM instances [{r['synth_s']} s, {r['synth_cpu_s']} s CPU]", flush=True)
        except RuntimeError as e:
            r["error"] = str(e)
            print(f"gates: {b['name']}: synthesis FAILED: {e}", flush=True)
        return r

    # Yosys runs in parallel (-j), largest netlist first; the builds one bench at a time
    order = {"dcqcn": 0, "pfc": 1, "drill": 2}
    with cf.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        futs = {b["name"]: ex.submit(synth_one, b) for b in sorted(benches, key=lambda b: order.get(b["name"], 9))}
        rows = [futs[b["name"]].result() for b in benches]
    failed = sum(1 for r in rows if "error" in r)
    bdir = os.path.join(a.out, "build")
    conf_s = 0.0
    if any("error" not in r for r in rows):
        try:
            conf_s = configure(ndir, bdir, os.path.join(a.out, "configure.log"))
            print(f"gates: configured {os.path.relpath(bdir, ROOT)} [{conf_s:.0f} s]", flush=True)
        except RuntimeError as e:
            die(str(e))
    for r, b in zip(rows, benches):
        if "error" in r:
            continue
        try:   # one target at a time: each build time is the bench's own
            wall, cpu = build(bdir, [f"tb_{b['name']}"], a.jobs, os.path.join(a.out, f"build_{b['name']}.log"))
            r["build_s"], r["build_cpu_s"] = round(wall, 1), round(cpu, 1)
        except RuntimeError as e:
            r["error"] = str(e)
            print(f"gates: {b['name']}: build FAILED: {e}", flush=True)
            failed += 1
            continue
        if a.selftest_only:
            continue
        res = run_bench(bdir, b, a.cycles, os.path.join(a.out, "run"))
        r.update({k: v for k, v in res.items() if k != "rc"})
        ok = res["rc"] == 0 and res["mismatches"] == 0 and res["compared"] == a.cycles
        if not ok:
            failed += 1
            r["error"] = f"bench exit {res['rc']} (log {res['log']})"
        print(f"gates: {b['name']}/{b['set']}: {res['compared']:,} cycles compared, {res['mismatches']} mismatches, "
              f"{res['cycles_per_s'] or 'n/a'} cycles/s [build {r['build_s']} s ({r['build_cpu_s']} s CPU), run {res['run_s']} s]: "
              f"{'PASS' if ok else 'FAIL'}", flush=True)
        if not ok:
            print(tail(res["log"], 8))
    st_line, st_problem = None, None
    if a.selftest or a.selftest_only:
        sb = next((b for b in benches if b["name"] == SELFTEST), None)
        sr = next((r for r in rows if r["bench"] == SELFTEST), None)
        if sb is None or sr is None or "build_s" not in sr:
            st_problem = f"the self-test needs the {SELFTEST} netlist (run it with --bench {SELFTEST})"
        else:
            try:
                st_line, st_problem = selftest(sb, os.path.join(ndir, f"{sb['name']}.{sb['set']}.v"), bdir,
                                               a.out, a.cycles, a.jobs)
            except RuntimeError as e:
                st_problem = str(e)
        if st_line:
            print(f"gates: self-test: {st_line}")
        print(f"gates: self-test: {'FAIL: ' + st_problem if st_problem else 'the one-gate mutant is detected'}")
        failed += 1 if st_problem else 0
    secs = time.time() - t0
    if not a.selftest_only:
        print("\n" + table(rows) + "\n")
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "summary.json"), "w") as f:
        json.dump({"rows": rows, "selftest": st_line, "selftest_problem": st_problem, "cycles": a.cycles,
                   "configure_s": round(conf_s, 1), "seconds": round(secs, 1), "failed": failed}, f, indent=2)
    with open(os.path.join(a.out, "report.md"), "w") as f:
        f.write("# Gate-level lockstep (make gates)\n\nGenerated by scripts/gates.py; see docs/gates.md. Each bench "
                f"runs on the Yosys {a.netlist} netlist of one parameter set, seed {SEED}; "
                + ("RAMs are ll_ram_1r1w instances linked from the RTL.\n\n" if a.memories == "rtl"
                   else "RAMs are mapped to flip-flops.\n\n")
                + table(rows) + "\n")
        if st_line or st_problem:
            f.write("\nNegative test (a one-gate mutant must mismatch):\n\n"
                    + (f"- {st_line}\n" if st_line else "") + (f"- FAIL: {st_problem}\n" if st_problem else ""))
        f.write(f"\nTotal {secs:.0f} s; {failed} failures.\n")
    print(f"gates: report {os.path.relpath(os.path.join(a.out, 'report.md'), ROOT)}; total {secs:.0f} s, "
          f"{failed} failures")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
