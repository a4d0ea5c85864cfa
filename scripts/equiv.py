#!/usr/bin/env python3
"""Formal equivalence of the synthesised netlists with the RTL (Yosys 0.23 `equiv_make` + ABC).

For each selected configuration of synth/<block>/configs.json (default: every block's
smoke configuration and every configuration marked "equiv": true or "equiv": "signoff";
--ci leaves the "signoff" ones out: they take minutes each, `make test` runs --ci):
  1. synthesis exactly as `make synth` does it (scripts/synth.py: read_script + gate_script):
     the generic-gate netlist (after `abc -fast`, memories kept as $mem_v2) and the IHP
     SG13G2 netlist (dfflibmap + abc -liberty) are written as RTLIL;
  2. the gold design: the same RTL elaborated only: proc, flatten, opt_dff -nosdff (enables
     onto flip-flops, so memory_dff can merge read registers as synthesis does), memory -nomap;
  3. memories are black boxes on both sides: every $mem_v2 stays an unmapped cell, and
     equiv_make merges the gold and gate memory of the same name (parameters must match), so
     both sides read the same free data and every memory input becomes a proof obligation.
     Inputs that a memory ignores are masked first (same masks on both sides): write data
     AND its per-bit write enable, write address when no enable bit of its port is set, read
     address of a clocked read port when its read enable is low. Without the masks the
     RTL's don't-care values (proc drives an unwritten port with x) could not be matched;
  4. the SG13G2 cells are replaced by their Liberty functions (`read_liberty` without -lib,
     then flatten: the Liberty has no Verilog models; async2sync + opt_expr fold the tied-off
     asynchronous resets so every flop output is a plain wire again), both sides get
     dffunmap (enables and synchronous resets as logic, plain $dff only);
  5. `equiv_make -blacklist` pairs the two designs by net name and puts a $equiv cell on
     every bit of every net both have that is observable: ports, register outputs (any bit
     of the name driven by a flip-flop, on either side), memory and multiplier-box inputs.
     Internal named nets are blacklisted: they are compared only through what they drive,
     so a net the netlist computes differently where nothing observes it is no obligation;
  6. the proof (scripts/cutmiter.py): the paired registers are cut (one free value per
     pair, the obligation is gold D == gate D), every $equiv cell becomes one output of a
     combinational AIG miter, and ABC (yosys-abc, installed with Yosys) proves the outputs
     constant by SAT sweeping (&fraig). proven = its output swept to constant 0. This is
     the claim of equiv_simple -short + equiv_induct (from equal register states the two
     designs stay equal) decided by an engine that closes restructured arithmetic; Yosys
     0.23's equiv_simple (one MiniSat call per bit, no internal equivalences) did not close
     the marker's EWMA update within minutes. When cells stay unproven, the same pairing
     goes to equiv_simple -short + equiv_induct (prove_yosys); its result counts only if
     it proves every cell. State registers that synthesis re-encoded (the fsm pass) are
     paired through the code table fsm_recode prints in work/gate.log (cutmiter.fsm_pairs).
Multipliers with two variable operands are boxed out: every such $mul becomes an instance of
a black-box module of its own right after proc/flatten (the same file feeds synthesis and
the gold side), the netlists keep the instance, equiv_make merges the two instances and
their inputs are obligations like a memory's; each boxed multiplier shape is then proved on
its own at reduced width (`Y = A * B`, operands cut to MUL_MAX_W bits, the box's
signedness, through the same flow, generic and SG13G2).

Any unproven cell fails the run (exit 1). The self-test (--selftest, run by `make equiv`)
applies a one-gate change to a proved netlist (the first AND2 becomes an OR2, in the SG13G2
and in the generic netlist) and fails unless the proof then fails.

Reports: a table on stdout and in build/equiv/report.md (and report.json).

Usage:
  equiv.py                    default set (smoke + "equiv": true or "signoff"), self-test included
  equiv.py --ci               the same without the "signoff" configurations (make test)
  equiv.py --smoke            smoke configurations only
  equiv.py --block B --config C [--netlist sg13g2|generic]
  equiv.py --selftest-only    only the negative test
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

import cutmiter  # scripts/cutmiter.py: the register-cut miter and its proof
from ll_out import dir_problem  # scripts/ll_out.py
import synth  # scripts/synth.py: configurations, the read script and the synthesis flow

ROOT = synth.ROOT
LIB = synth.LIB
NETLISTS = ("sg13g2", "generic")
SELFTEST = ("dcqcn", "np_q64")          # the configuration the negative test mutates
MUTATION = {"sg13g2": ("sg13g2_and2_1", "sg13g2_or2_1"), "generic": ("$_AND_", "$_OR_")}
PROOF_TIMEOUT_S = 600                   # one equiv_make..equiv_status run


def die(msg):
    print(f"equiv: error: {msg}", file=sys.stderr)
    sys.exit(2)


def yosys(script_text, path, log, cwd, check=True, timeout=None):
    with open(path, "w") as f:
        f.write(script_text)
    try:
        p = subprocess.run(["yosys", "-q", "-l", log, "-s", path], cwd=cwd, timeout=timeout,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"yosys did not finish in {timeout} s ({path}; log {log})")
    if check and p.returncode:
        tail = "\n".join(open(log).read().splitlines()[-15:]) if os.path.exists(log) else p.stdout
        raise RuntimeError(f"yosys failed ({path}):\n{tail}")
    return p.returncode


# ---------------------------------------------------------------------------------------
# Multiplier boxes (configurations with "equiv_box": ["mul"])

# ---------------------------------------------------------------------------------------
# Memory masks on RTLIL text

CELL_RE = re.compile(r"^(\s*)cell \$mem_v2 (\S+)\n(.*?)^\s*end\n", re.S | re.M)


def cell_fields(body):
    """({parameter: value text}, {port: signal text}) of one RTLIL cell's body."""
    return (dict(re.findall(r"^\s*parameter \\(\w+) (.*)$", body, re.M)),
            dict(re.findall(r"^\s*connect \\(\w+) (.*)$", body, re.M)))


def _const_bits(v):
    """A parameter value of RTLIL text: int or bit string (MSB first)."""
    v = v.strip()
    m = re.fullmatch(r"(\d+)'([01xz]*)", v)
    if m:
        return m.group(2).rjust(int(m.group(1)), "0")
    return bin(int(v))[2:]


# The gold design: the elaborated RTL with its memories collected as synthesis collects them.
# opt_merge comes before the memories are collected: the RTL may read one array at the same
# address in several places (the wheel's head_q[rs], three times), which synthesis merges
# into one read port (its `opt` runs before `memory -nomap`); without the merge the gold
# memory keeps three ports, equiv_make cannot pair it with the netlist's, and Yosys 0.23
# stops on an internal assertion (two $mem_v2 cells with one MEMID). memory_mismatches()
# names such a difference before equiv_make runs.
GOLD_PASSES = "opt_clean\nopt_dff -nosdff\nopt_merge\nopt_clean\nmemory -nomap\nopt_clean\n"

MEM_SHAPE = ("ABITS", "WIDTH", "SIZE", "RD_PORTS", "WR_PORTS")


def memory_shapes(il_path):
    """{memory name: {parameter: value}} of every $mem_v2 of an RTLIL file, for the
    parameters equiv_make needs equal to pair a gold memory with a netlist's (MEM_SHAPE)."""
    shapes = {}
    for m in CELL_RE.finditer(open(il_path).read()):
        par, _ = cell_fields(m.group(3))
        shapes[m.group(2).lstrip("\\")] = {k: par.get(k, "?").strip() for k in MEM_SHAPE}
    return shapes


def memory_mismatches(gold, netlist):
    """Why the memories of two memory_shapes() results cannot be paired (one line each);
    empty when every memory is on both sides with the same shape."""
    out = []
    for name in sorted(set(gold) | set(netlist)):
        if name not in netlist:
            out.append(f"{name}: in the RTL, not in the netlist")
        elif name not in gold:
            out.append(f"{name}: in the netlist, not in the RTL")
        else:
            diff = [f"{k} {gold[name][k]} (RTL) vs {netlist[name][k]} (netlist)"
                    for k in MEM_SHAPE if gold[name][k] != netlist[name][k]]
            if diff:
                out.append(f"{name}: " + ", ".join(diff))
    return out


def mask_memories(il_in, il_out):
    """Mask the inputs each $mem_v2 ignores (see the module docstring); returns the memory
    names. The masked signals are new wires named \\llmask.<memory>.<port>."""
    text = open(il_in).read()
    out, last, names = [], 0, []
    for n, m in enumerate(CELL_RE.finditer(text)):
        ind, name, body = m.group(1), m.group(2), m.group(3)
        par, con = cell_fields(body)
        abits, width = int(par["ABITS"]), int(par["WIDTH"])
        nrd, nwr = int(par["RD_PORTS"]), int(par["WR_PORTS"])
        rd_clk = _const_bits(par["RD_CLK_ENABLE"])[::-1] if nrd else ""  # LSB first
        base = name.lstrip("\\")
        uid = f"$llmask${n}"
        decl, cells = [], []

        def wire(nm, w):
            decl.append(f"{ind}wire width {w} {nm}\n")
            return nm

        def cell(kind, cname, params, conns):
            s = f"{ind}cell {kind} {cname}\n"
            s += "".join(f"{ind}  parameter \\{k} {v}\n" for k, v in params.items())
            s += "".join(f"{ind}  connect \\{k} {v}\n" for k, v in conns.items())
            cells.append(s + f"{ind}end\n")

        def zeros(w):
            return f"{w}'" + "0" * w

        new = dict(con)
        if nwr:
            nd = width * nwr
            en = wire(f"{uid}$wr_en", nd)
            decl.append(f"{ind}connect {en} {con['WR_EN']}\n")
            wd = wire(f"\\llmask.{base}.wr_data", nd)
            cell("$and", f"{uid}$and", {"A_SIGNED": 0, "B_SIGNED": 0, "A_WIDTH": nd, "B_WIDTH": nd,
                                         "Y_WIDTH": nd}, {"A": con["WR_DATA"], "B": en, "Y": wd})
            new["WR_DATA"] = wd
            if abits:
                ain = wire(f"{uid}$wr_addr_in", abits * nwr)
                decl.append(f"{ind}connect {ain} {con['WR_ADDR']}\n")
                wa = wire(f"\\llmask.{base}.wr_addr", abits * nwr)
                for p in range(nwr):
                    anyw = wire(f"{uid}$wr_any{p}", 1)
                    cell("$reduce_or", f"{uid}$any{p}", {"A_SIGNED": 0, "A_WIDTH": width, "Y_WIDTH": 1},
                         {"A": f"{en} [{p * width + width - 1}:{p * width}]", "Y": anyw})
                    cell("$mux", f"{uid}$wmux{p}", {"WIDTH": abits},
                         {"A": zeros(abits), "B": f"{ain} [{p * abits + abits - 1}:{p * abits}]",
                          "S": anyw, "Y": f"{wa} [{p * abits + abits - 1}:{p * abits}]"})
                new["WR_ADDR"] = wa
        if nrd and abits and "1" in rd_clk:
            ren = wire(f"{uid}$rd_en", nrd)
            decl.append(f"{ind}connect {ren} {con['RD_EN']}\n")
            rin = wire(f"{uid}$rd_addr_in", abits * nrd)
            decl.append(f"{ind}connect {rin} {con['RD_ADDR']}\n")
            ra = wire(f"\\llmask.{base}.rd_addr", abits * nrd)
            for p in range(nrd):
                sl = f"[{p * abits + abits - 1}:{p * abits}]"
                if rd_clk[p] == "1":   # a clocked read port ignores its address while disabled
                    cell("$mux", f"{uid}$rmux{p}", {"WIDTH": abits},
                         {"A": zeros(abits), "B": f"{rin} {sl}", "S": f"{ren} [{p}]", "Y": f"{ra} {sl}"})
                else:
                    decl.append(f"{ind}connect {ra} {sl} {rin} {sl}\n")
            new["RD_ADDR"] = ra
        body2 = body
        for k in ("WR_DATA", "WR_ADDR", "RD_ADDR"):
            if k in new and new[k] != con.get(k):
                body2 = re.sub(rf"^(\s*connect \\{k} ).*$", lambda mm, v=new[k]: mm.group(1) + v, body2,
                               count=1, flags=re.M)
        out.append(text[last:m.start()])
        out.append("".join(decl) + "".join(cells))
        out.append(f"{ind}cell $mem_v2 {name}\n{body2}{ind}end\n")
        last = m.end()
        names.append(base)
    out.append(text[last:])
    with open(il_out, "w") as f:
        f.write("".join(out))
    return names


# ---------------------------------------------------------------------------------------
# Synthesis, gold design, proof

def synthesise(block, cfg, work):
    """Write work/{gold,generic,sg13g2}.il (multipliers boxed, memories masked); returns
    facts for the report."""
    top = cfg["top"]
    t0 = time.time()
    # elaborate once (proc + flatten: the first steps of `synth` too), box the multipliers
    yosys(synth.read_script(block, cfg) + f"proc\nflatten\nrename -enumerate -pattern ll_mul_% t:$mul\n"
          f"write_rtlil {work}/elab.il\n", os.path.join(work, "elab.ys"), os.path.join(work, "elab.log"), work)
    boxes = box_multipliers(f"{work}/elab.il", f"{work}/boxed.il")
    read = f"read_rtlil {work}/boxed.il\nhierarchy -check -top {top}\n"
    gate = read + synth.gate_script(top, work, f"{work}/generic_raw.il", f"{work}/sg13g2_raw.il")
    yosys(gate, os.path.join(work, "gate.ys"), os.path.join(work, "gate.log"), work)
    t_synth = time.time() - t0
    gold = read + GOLD_PASSES + f"write_rtlil {work}/gold_raw.il\n"
    yosys(gold, os.path.join(work, "gold.ys"), os.path.join(work, "gold.log"), work)
    mems = mask_memories(f"{work}/gold_raw.il", f"{work}/gold.il")
    gold_shapes = memory_shapes(f"{work}/gold_raw.il")
    for n in NETLISTS:
        bad = memory_mismatches(gold_shapes, memory_shapes(f"{work}/{n}_raw.il"))
        if bad:   # equiv_make would leave them unpaired (Yosys 0.23 may stop on an assertion)
            raise RuntimeError(f"the {n} netlist's memories differ from the RTL's: " + "; ".join(bad))
        mask_memories(f"{work}/{n}_raw.il", f"{work}/{n}.il")
    return {"memories": mems, "boxes": boxes, "synth_s": round(t_synth, 1)}


MUL_RE = re.compile(r"^((?:\s*attribute [^\n]*\n)*)(\s*)cell \$mul (\\ll_mul_\d+)\n(.*?)^\s*end\n", re.S | re.M)


def box_multipliers(il_in, il_out):
    """Replace every $mul with two variable operands by an instance of a black-box module of
    its own (\\ll_box_mul_<n>, ports A, B, Y); the same file feeds the gold and the gate
    side. Returns [{name, a, b, y, signed, src}]."""
    text = open(il_in).read()
    out, last, boxes, mods = [], 0, [], []
    for m in MUL_RE.finditer(text):
        attrs, ind, name, body = m.groups()
        par, con = cell_fields(body)
        if any(re.fullmatch(r"\d+'[01xz]+|\d+", con[p].strip()) for p in ("A", "B")):
            continue   # a constant factor: shifts and adds, left in the proof
        a, b, y = int(par["A_WIDTH"]), int(par["B_WIDTH"]), int(par["Y_WIDTH"])
        sgn = int(par.get("A_SIGNED", "0")) or int(par.get("B_SIGNED", "0"))
        mod = "\\ll_box_" + name.lstrip("\\")[3:]
        src = re.search(r'attribute \\src "([^"]*)"', attrs)
        boxes.append({"name": name.lstrip("\\"), "a": a, "b": b, "y": y, "signed": bool(sgn),
                      "src": src.group(1).replace(ROOT + "/", "") if src else ""})
        out.append(text[last:m.start()])
        out.append(f"{attrs}{ind}cell {mod} {name}\n" + "".join(f"{ind}  connect \\{k} {con[k]}\n" for k in ("A", "B", "Y"))
                   + f"{ind}end\n")
        last = m.end()
        mods.append(f"attribute \\blackbox 1\nmodule {mod}\n  wire width {a} input 1 \\A\n"
                    f"  wire width {b} input 2 \\B\n  wire width {y} output 3 \\Y\nend\n")
    out.append(text[last:])
    with open(il_out, "w") as f:
        f.write("".join(out) + "".join(mods))
    return boxes


MUL_MAX_W = 8      # boxed multipliers are proved on their own with operands cut to this width


def mul_shape(box):
    """The reduced-width shape a boxed multiplier is proved at: operands at most MUL_MAX_W
    bits, the product as wide as the box's but at most a + b bits (a 30 x 30 SG13G2
    multiplier does not close in ABC within 10 minutes; 8 x 8 closes in seconds)."""
    a, b = min(box["a"], MUL_MAX_W), min(box["b"], MUL_MAX_W)
    return (a, b, min(box["y"], a + b), box["signed"])


def shape_name(shape):
    a, b, y, sgn = shape
    return f"{a}x{b}->{y}" + (" signed" if sgn else "")


def prove_multiplier(out, shape):
    """One boxed multiplier shape on its own: Y = A * B at the reduced widths of mul_shape (and
    the box's signedness) through the same synthesis flow, generic and SG13G2, proved like a
    block."""
    a, b, y, sgn = shape
    tag = f"mul_{a}x{b}_{y}" + ("_s" if sgn else "")
    work = os.path.join(out, "work", tag)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    sd = "signed " if sgn else ""
    with open(f"{work}/ll_mul_check.v", "w") as f:
        f.write(f"module ll_mul_check (input wire {sd}[{a - 1}:0] A, input wire {sd}[{b - 1}:0] B, "
                f"output wire {sd}[{y - 1}:0] Y);\n  assign Y = A * B;\nendmodule\n")
    t0 = time.time()
    read = f"read_verilog {work}/ll_mul_check.v\nhierarchy -check -top ll_mul_check\n"
    yosys(read + synth.gate_script("ll_mul_check", work, f"{work}/generic_raw.il", f"{work}/sg13g2_raw.il"),
          os.path.join(work, "gate.ys"), os.path.join(work, "gate.log"), work)
    t_synth = round(time.time() - t0, 1)
    yosys(read + f"proc\nwrite_rtlil {work}/gold.il\n", os.path.join(work, "gold.ys"),
          os.path.join(work, "gold.log"), work)
    res = []
    for n in NETLISTS:
        shutil.copy(f"{work}/{n}_raw.il", f"{work}/{n}.il")
        r = prove(work, "ll_mul_check", n)
        r.update({"block": "(multiplier)", "config": shape_name(shape), "top": "Y = A * B", "netlist": n,
                  "memories": 0, "boxes": 0, "synth_s": t_synth})
        res.append(r)
    return res, {}


def prove(work, top, netlist, gate_il=None, tag=None):
    """Pair the RTL with a netlist (equiv_make), cut the registers and prove every $equiv cell
    with ABC's SAT sweeping (see the module docstring); returns {proven, unproven, total,
    seconds, merged memories, ...}."""
    tag = tag or netlist
    gate_il = gate_il or f"{work}/{netlist}.il"
    lib = f"read_liberty -ignore_miss_func {LIB}\n" if netlist == "sg13g2" else ""
    prep = f"""read_rtlil {work}/gold.il
rename {top} ll_gold
{lib}read_rtlil {gate_il}
rename {top} ll_gate
flatten ll_gate
async2sync
opt_expr ll_gate
dffunmap
opt_clean
write_rtlil {work}/{tag}.prep.il
delete ll_gold/t:* ll_gold/t:$dff %d ll_gate/t:* ll_gate/t:$_DFF_P_ %d
write_json {work}/{tag}.regs.json
"""
    script = f"""read_rtlil {work}/{tag}.prep.il
equiv_make -blacklist {work}/{tag}.blacklist.txt ll_gold ll_gate ll_equiv
hierarchy -top ll_equiv
tee -q -o {work}/{tag}.merged.txt select -list t:$mem_v2
tee -q -o {work}/{tag}.status.txt equiv_status
techmap
write_json {work}/{tag}.json
"""
    t0 = time.time()
    yosys(prep, os.path.join(work, f"prep_{tag}.ys"), os.path.join(work, f"prep_{tag}.log"), work,
          timeout=PROOF_TIMEOUT_S)
    _, black = cutmiter.blacklist(f"{work}/{tag}.regs.json", f"{work}/{tag}.blacklist.txt")
    yosys(script, os.path.join(work, f"prove_{tag}.ys"), os.path.join(work, f"prove_{tag}.log"), work,
          timeout=PROOF_TIMEOUT_S)
    st = open(f"{work}/{tag}.status.txt").read()
    m2 = re.search(r"Found (\d+) \$equiv cells", st)
    if not m2:
        raise RuntimeError(f"{tag}: no equiv_status figures ({work}/{tag}.status.txt)")
    # state registers synthesis re-encoded (fsm_recode) are paired through their code table
    fsms = cutmiter.fsm_codes(f"{work}/gate.log") if os.path.exists(f"{work}/gate.log") else {}
    obl, res = cutmiter.prove(cutmiter.load(f"{work}/{tag}.json"), f"{work}/{tag}.aig", f"{work}/{tag}",
                              timeout=PROOF_TIMEOUT_S, fsms=fsms)
    secs = time.time() - t0
    cells = [o for o in obl["obligations"] if o["cell"]]
    extra = [o for o in obl["obligations"] if not o["cell"]]
    if len(cells) != int(m2.group(1)):
        raise RuntimeError(f"{tag}: {len(cells)} obligations for {m2.group(1)} $equiv cells")
    unproven = [o for o, v in zip(obl["obligations"], res) if v != 0]
    merged = [ln for ln in open(f"{work}/{tag}.merged.txt").read().split("\n") if "/" in ln]
    with open(f"{work}/{tag}.unproven.txt", "w") as f:
        f.write("".join(f"{o['kind']} {o['name']}\n" for o in unproven))
    os.remove(f"{work}/{tag}.json")   # large; the .aig and the logs stay
    engine = "abc"
    if unproven and FALLBACK:
        fb = prove_yosys(work, tag)
        if fb and fb[1] == 0 and fb[2] == len(cells):
            engine, unproven, extra = "equiv_simple+induct", [], []
    return {"proven": len(cells) - sum(1 for o in unproven if o["cell"]), "engine": engine,
            "unproven": len(unproven), "total": len(cells),
            "registers": obl["registers"], "free_registers": obl["free_registers"], "extra": len(extra),
            "extra_unproven": sum(1 for o in unproven if not o["cell"]),
            "seconds": round(secs, 1), "merged_memories": len(merged),
            "unproven_examples": [o["name"] for o in unproven[:5]]}


FALLBACK = True
FALLBACK_TIMEOUT_S = 300


def prove_yosys(work, tag):
    """The fallback when the cut miter leaves cells unproven: the same pairing (prep.il,
    blacklist) proved by Yosys's own equiv_simple -short + equiv_induct (an engine that does
    not cut the registers: equiv_induct assumes every cell equal in the previous cycles).
    Returns (proven, unproven, total) or None when it does not finish in FALLBACK_TIMEOUT_S."""
    script = f"""read_rtlil {work}/{tag}.prep.il
equiv_make -blacklist {work}/{tag}.blacklist.txt ll_gold ll_gate ll_equiv
hierarchy -top ll_equiv
equiv_simple -short
equiv_induct
tee -q -o {work}/{tag}.fallback.txt equiv_status
"""
    try:
        yosys(script, os.path.join(work, f"fallback_{tag}.ys"), os.path.join(work, f"fallback_{tag}.log"), work,
              check=False, timeout=FALLBACK_TIMEOUT_S)
    except RuntimeError:
        return None
    st = open(f"{work}/{tag}.fallback.txt").read() if os.path.exists(f"{work}/{tag}.fallback.txt") else ""
    m = re.search(r"Of those cells (\d+) are proven and (\d+) are unproven", st)
    m2 = re.search(r"Found (\d+) \$equiv cells", st)
    if not m or not m2:
        return None
    return int(m.group(1)), int(m.group(2)), int(m2.group(1))


def run_config(block, cfg, out, netlists):
    work = os.path.join(out, "work", block, cfg["name"])
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    info = synthesise(block, cfg, work)
    res = []
    for n in netlists:
        r = prove(work, cfg["top"], n)
        if r["merged_memories"] != len(info["memories"]):
            r["unproven"] += 1
            r["note"] = (f"only {r['merged_memories']} of {len(info['memories'])} memories matched "
                         f"(parameters differ between RTL and netlist)")
        r.update({"block": block, "config": cfg["name"], "top": cfg["top"], "netlist": n,
                  "memories": len(info["memories"]), "boxes": len(info["boxes"]),
                  "synth_s": info["synth_s"]})
        res.append(r)
    return res, info


# ---------------------------------------------------------------------------------------
# Negative test: a one-gate change must fail the proof

def mutate(il_in, il_out, netlist):
    old, new = MUTATION[netlist]
    text = open(il_in).read()
    pat = re.compile(r"^(\s*cell )" + re.escape(("\\" if netlist == "sg13g2" else "") + old) + r"( \S+)$", re.M)
    m = pat.search(text)
    if not m:
        raise RuntimeError(f"self-test: no {old} cell in {il_in}")
    repl = m.group(1) + ("\\" if netlist == "sg13g2" else "") + new + m.group(2)
    with open(il_out, "w") as f:
        f.write(text[:m.start()] + repl + text[m.end():])
    return m.group(2).strip()


def mutant_proof(work, top, n, good):
    """Prove the netlist n of work/ with one AND2 turned into an OR2; returns (line, problem
    or None). good: the unmutated proof's figures."""
    block, name = SELFTEST
    inst = mutate(f"{work}/{n}.il", f"{work}/{n}_mutant.il", n)
    bad = prove(work, top, n, gate_il=f"{work}/{n}_mutant.il", tag=f"{n}_mutant")
    old, new = MUTATION[n]
    line = (f"{block}/{name} {n}: {old} -> {new} at {inst}: {bad['unproven']} of {bad['total']} cells unproven "
            f"(unmutated: {good['proven']}/{good['total']} proven)")
    return line, (f"{n}: the mutant {old} -> {new} at {inst} still proves equivalent" if bad["unproven"] == 0 else None)


def selftest(out, netlists):
    """The negative test on its own (when the run does not prove the SELFTEST configuration
    anyway): synthesise, prove, mutate, prove again."""
    block, name = SELFTEST
    cfg = next(c for c in synth.load_configs(block)["configs"] if c["name"] == name)
    work = os.path.join(out, "work", "selftest")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    synthesise(block, cfg, work)
    problems, lines = [], []
    for n in netlists:
        good = prove(work, cfg["top"], n)
        if good["unproven"]:
            problems.append(f"{n}: the unmutated netlist does not prove ({good['unproven']} unproven)")
        line, problem = mutant_proof(work, cfg["top"], n, good)
        lines.append(line)
        if problem:
            problems.append(problem)
    return lines, problems


# ---------------------------------------------------------------------------------------

def table(rows):
    out = ["| block | config | top | netlist | $equiv cells | proven | unproven | memories (black boxes) | "
           "multipliers boxed | synth s | proof s |",
           "| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        out.append(f"| {r['block']} | {r['config']} | {r['top']} | {r['netlist']} | {r['total']} | {r['proven']} | "
                   f"{r['unproven']} | {r['memories']} | {r['boxes']} | {r['synth_s']} | {r['seconds']} |")
    return "\n".join(out)


def main():
    global PROOF_TIMEOUT_S
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--smoke", action="store_true", help="smoke configurations only")
    ap.add_argument("--block", action="append")
    ap.add_argument("--config", action="append")
    ap.add_argument("--netlist", action="append", choices=NETLISTS)
    ap.add_argument("--selftest", action="store_true", help="also run the negative test")
    ap.add_argument("--selftest-only", action="store_true")
    ap.add_argument("--timeout", type=int, default=PROOF_TIMEOUT_S, help="seconds per proof (default %(default)s)")
    ap.add_argument("--no-multiplier", action="store_true", help="skip the proofs of the boxed multipliers")
    ap.add_argument("--ci", action="store_true",
                    help="leave out the configurations marked \"equiv\": \"signoff\" (make test's set)")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "equiv"))
    a = ap.parse_args()
    if a.jobs < 1:
        die(f"--jobs must be >= 1 (got {a.jobs})")
    if a.timeout < 1:
        die(f"--timeout must be >= 1 (got {a.timeout})")
    PROOF_TIMEOUT_S = a.timeout   # read by prove() in the worker processes (fork)
    if a.selftest_only and (a.block or a.config):
        die("--selftest-only runs the negative test alone: no --block or --config with it")
    if dir_problem(a.out):   # ("" too: as an absolute path it would be the current directory)
        die(f"--out {a.out}: {dir_problem(a.out)}")
    a.out = os.path.abspath(a.out)
    netlists = tuple(a.netlist or NETLISTS)
    t0 = time.time()
    jobs, skipped = [], []
    if not a.selftest_only:
        blocks = sorted(os.path.basename(os.path.dirname(p)) for p in
                        __import__("glob").glob(os.path.join(ROOT, "synth", "*", "configs.json")))
        for b in a.block or []:
            if b not in blocks:
                die(f"unknown block '{b}' (have {', '.join(blocks)})")
        for b in a.block or blocks:
            for c in synth.load_configs(b)["configs"]:
                if a.config:
                    if c["name"] not in a.config:
                        continue
                elif a.smoke or a.block:
                    if not c.get("smoke"):
                        continue
                elif not (c.get("smoke") or c.get("equiv")) or c.get("equiv") is False:
                    if c.get("equiv") is False:
                        skipped.append((b, c))
                    continue
                elif a.ci and c.get("equiv") == "signoff" and not c.get("smoke"):
                    skipped.append((b, c))
                    continue
                jobs.append((b, c))
        bad = synth.unknown_configs(a.block or blocks, a.config)
        if bad:
            die(bad)
        if not jobs:
            die("no configuration selected")
    os.makedirs(a.out, exist_ok=True)   # once the selection holds
    rows, failed, errors = [], 0, []   # errors: configurations whose synthesis or proof did not finish
    with cf.ProcessPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        futs = {ex.submit(run_config, b, c, a.out, netlists): (b, c["name"]) for b, c in jobs}
        want_st = a.selftest or a.selftest_only
        reuse = want_st and any((b, c["name"]) == SELFTEST for b, c in jobs)
        # the negative test reuses the SELFTEST configuration's proof when the run has it
        st_fut = ex.submit(selftest, a.out, netlists) if (want_st and not reuse) else None
        mut_futs, shapes = [], set()
        pending = set(futs)
        while pending:
            done, pending = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
            fut = done.pop()
            pending |= done
            b, n = futs[fut]
            try:
                res, info = fut.result()
            except Exception as e:  # noqa: BLE001 - report and count every failure
                print(f"equiv: {b}/{n}: FAILED: {e}", flush=True)
                errors.append({"block": b, "config": n, "error": str(e).splitlines()[0][:300]})
                failed += 1
                continue
            for box in info.get("boxes", []):   # each boxed multiplier shape, proved once
                sh = mul_shape(box)
                if sh not in shapes and not a.no_multiplier:
                    shapes.add(sh)
                    f = ex.submit(prove_multiplier, a.out, sh)
                    futs[f] = ("(multiplier)", shape_name(sh))
                    pending.add(f)
            if reuse and (b, n) == SELFTEST:
                for r in res:
                    if r["unproven"] == 0:
                        mut_futs.append(ex.submit(mutant_proof, os.path.join(a.out, "work", b, n), r["top"],
                                                  r["netlist"], r))
            for r in res:
                rows.append(r)
                verdict = "PROVEN" if r["unproven"] == 0 else "NOT PROVEN"
                print(f"equiv: {b}/{n} {r['netlist']}: {r['proven']}/{r['total']} cells proven, "
                      f"{r['unproven']} unproven, {r['memories']} memories black-boxed, {r['boxes']} multipliers "
                      f"boxed [synth {r['synth_s']} s, proof {r['seconds']} s]: {verdict}"
                      + (f" ({r['note']})" if r.get("note") else "")
                      + (f"; unproven e.g. {', '.join(r['unproven_examples'])}" if r["unproven_examples"] else ""),
                      flush=True)
                if r["unproven"]:
                    failed += 1
        st_lines, st_problems = [], []
        if st_fut:
            try:
                st_lines, st_problems = st_fut.result()
            except Exception as e:  # noqa: BLE001
                st_problems = [str(e)]
        elif reuse:
            for f in mut_futs:
                try:
                    line, problem = f.result()
                except Exception as e:  # noqa: BLE001
                    line, problem = None, str(e)
                if line:
                    st_lines.append(line)
                if problem:
                    st_problems.append(problem)
            if len(mut_futs) != len(netlists):
                st_problems.append(f"{SELFTEST[0]}/{SELFTEST[1]} did not prove, so its mutants were not tried")
        if st_fut or reuse:
            for ln in st_lines:
                print(f"equiv: self-test: {ln}")
            for p in st_problems:
                print(f"equiv: self-test: FAIL: {p}")
            if not st_problems:
                print("equiv: self-test: every one-gate mutant fails the proof")
            failed += len(st_problems)
    order = {(b, c["name"]): i for i, (b, c) in enumerate(jobs)}
    rows.sort(key=lambda r: (order.get((r["block"], r["config"]), len(order)), r["config"],
                             NETLISTS.index(r["netlist"])))
    secs = time.time() - t0
    if rows:
        print("\n" + table(rows) + "\n")
    for b, c in skipped:
        print(f"equiv: {b}/{c['name']} is not in this set (\"equiv\": {json.dumps(c.get('equiv'))}): {c.get('equiv_note', '')}")
    with open(os.path.join(a.out, "report.json"), "w") as f:
        json.dump({"rows": rows, "errors": errors, "selftest": st_lines, "selftest_problems": st_problems,
                   "seconds": round(secs, 1)}, f, indent=2)
    with open(os.path.join(a.out, "summary.json"), "w") as f:   # the sign-off table's input
        # a configuration that did not finish is a row with "error" (make signoff shows it)
        json.dump([{"block": r["block"], "config": r["config"], "netlist": r["netlist"], "cells": r["total"],
                    "proven": r["proven"], "unproven": r["unproven"], "seconds": r["seconds"],
                    "synth_seconds": r["synth_s"]} for r in rows] + errors, f, indent=1)
    with open(os.path.join(a.out, "report.md"), "w") as f:
        f.write("# Netlist vs RTL equivalence (make equiv)\n\nGenerated by scripts/equiv.py; see docs/synthesis.md "
                "(\"Formal equivalence\").\n\n" + (table(rows) if rows else "(no configurations)") + "\n")
        if st_lines or st_problems:
            f.write("\nNegative test (one-gate mutants must fail the proof):\n\n" +
                    "".join(f"- {ln}\n" for ln in st_lines) + "".join(f"- FAIL: {p}\n" for p in st_problems))
        for e in errors:
            f.write(f"\nFAILED (no verdict): {e['block']}/{e['config']}: {e['error']}\n")
        for b, c in skipped:
            f.write(f"\nNot in this set (`\"equiv\": {json.dumps(c.get('equiv'))}`): {b}/{c['name']}: {c.get('equiv_note', '')}\n")
        f.write(f"\nTotal {secs:.0f} s; {failed} failures.\n")
    print(f"equiv: report {os.path.relpath(os.path.join(a.out, 'report.md'), ROOT)}; {len(rows)} proofs in {secs:.0f} s")
    print(f"{len(rows) - sum(1 for r in rows if r['unproven'])} proven, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
