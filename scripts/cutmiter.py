#!/usr/bin/env python3
"""The proof engine of scripts/equiv.py: a register-cut miter of an `equiv_make` module,
proved by SAT sweeping in ABC (yosys-abc, installed with Yosys).

Input: the `ll_equiv` module that `equiv_make` builds from the RTL (gold) and a netlist
(gate), lowered to Yosys's fine-grained gates and $_DFF_P_ (`techmap`) and written
with `write_json`. Memories ($mem_v2) and boxed multipliers stay cells: the two sides share
them (equiv_make merges them by name), their outputs are free inputs of the miter.

Every $equiv cell (A = gold bit, B = gate bit, Y = the merged bit its readers use) is one
obligation, one output of a combinational AIG that must be constant 0:
  * A and B both register outputs: the pair is cut. Y, A and B become one free input (the
    two registers hold the same value), the obligation is gold D == gate D (same clock).
    Registers paired with each other through several cells form one class: one input.
  * one side a register, the other a constant c: the register holds c (Q := c), the
    obligation is D == c.
  * otherwise (ports, named nets, memory inputs): A == B, and Y := A, so the readers of
    the merged bit see the gold value (sound: if A == B is proven everywhere, the gate
    reading A computes what it computes reading B); but Y := B's cut value when B is a
    paired register (equiv_make can route A's own cone through Y: pfc_codec's tx_keep_o).
State registers synthesis re-encoded (Yosys fsm_recode) are paired through the code table
of the synthesis log (fsm_codes, fsm_pairs): the gold state is cut to a free code, the
gate flops hold its recoded form; obligations: the gold next state is a code, the gate
next state its recoded form.
Registers equiv_make did not pair (their wires have different widths on the two sides,
e.g. upper bits the netlist found constant) are paired by wire name and bit
(`<name>_gold` / `<name>_gate`): an extra obligation each. A register still unpaired that
an obligation reads is assumed to hold 0 and its D == 0 is one more obligation (the
netlist dropped it as constant); unpaired registers nobody reads stay out.
The induction is therefore one step over all register pairs at once (the same claim as
`equiv_simple -short` + `equiv_induct`: from equal register states, equal forever);
no reset sequence is assumed beyond that.

The miter is written as binary AIGER; ABC runs `&get -n; &fraig; &put` (combinational
SAT sweeping: simulation finds candidate equal nodes, SAT proves each and merges them, so
restructured arithmetic that a single SAT call per output cannot decide closes node by
node) and writes the swept AIG; an output that is the constant 0 literal is proven, any
other output is unproven (disproved or not decided: the proof fails either way).

Stand-alone (debugging): cutmiter.py equiv.json out.aig [--sweep]
"""
import argparse
import json
import re
import subprocess
import sys

GATES = {"$_NOT_": "A", "$_BUF_": "A", "$_AND_": "AB", "$_NAND_": "AB", "$_OR_": "AB", "$_NOR_": "AB",
         "$_XOR_": "AB", "$_XNOR_": "AB", "$_ANDNOT_": "AB", "$_ORNOT_": "AB", "$_MUX_": "ABS",
         "$_NMUX_": "ABS", "$_AOI3_": "ABC", "$_OAI3_": "ABC", "$_AOI4_": "ABCD", "$_OAI4_": "ABCD"}
LEAF_TYPES = ("$mem_v2",)          # shared cells whose outputs are free inputs
LEAF_PREFIX = "ll_box_"            # boxed multipliers (scripts/equiv.py)


class Aig:
    def __init__(self):
        self.nvar = 0
        self.inputs = []
        self.ands = []

    def input(self):
        self.nvar += 1
        self.inputs.append(self.nvar)
        return 2 * self.nvar

    def AND(self, a, b):
        if a == 0 or b == 0 or a == (b ^ 1):
            return 0
        if a == 1:
            return b
        if b == 1 or a == b:
            return a
        self.nvar += 1
        self.ands.append((2 * self.nvar, a, b))
        return 2 * self.nvar

    def XOR(self, a, b):
        return self.AND(self.AND(a, b ^ 1) ^ 1, self.AND(a ^ 1, b) ^ 1) ^ 1

    def OR(self, a, b):
        return self.AND(a ^ 1, b ^ 1) ^ 1

    def MUX(self, a, b, s):   # s ? b : a
        return self.OR(self.AND(a, s ^ 1), self.AND(b, s))

    def gate(self, t, v):
        """The Yosys fine-grained gate t ($_AND_, ..., see GATES) on literals v."""
        if t == "$_NOT_":
            return v[0] ^ 1
        if t == "$_BUF_":
            return v[0]
        if t in ("$_AND_", "$_NAND_"):
            return self.AND(v[0], v[1]) ^ (t == "$_NAND_")
        if t in ("$_OR_", "$_NOR_"):
            return self.OR(v[0], v[1]) ^ (t == "$_NOR_")
        if t in ("$_XOR_", "$_XNOR_"):
            return self.XOR(v[0], v[1]) ^ (t == "$_XNOR_")
        if t == "$_ANDNOT_":
            return self.AND(v[0], v[1] ^ 1)
        if t == "$_ORNOT_":
            return self.OR(v[0], v[1] ^ 1)
        if t in ("$_MUX_", "$_NMUX_"):
            return self.MUX(v[0], v[1], v[2]) ^ (t == "$_NMUX_")
        if t == "$_AOI3_":
            return self.OR(self.AND(v[0], v[1]), v[2]) ^ 1
        if t == "$_OAI3_":
            return self.AND(self.OR(v[0], v[1]), v[2]) ^ 1
        if t == "$_AOI4_":
            return self.OR(self.AND(v[0], v[1]), self.AND(v[2], v[3])) ^ 1
        if t == "$_OAI4_":
            return self.AND(self.OR(v[0], v[1]), self.OR(v[2], v[3])) ^ 1
        raise RuntimeError(f"cut miter: no gate {t}")

    def write(self, path, outs):
        """Binary AIGER: inputs 1..I, then the AND gates in creation (topological) order."""
        ren = {0: 0}
        for i, v in enumerate(self.inputs):
            ren[v] = i + 1
        base = len(self.inputs) + 1
        for i, (x, _, _) in enumerate(self.ands):
            ren[x >> 1] = base + i

        def r(lt):
            return 2 * ren[lt >> 1] + (lt & 1)

        def enc(x):
            out = bytearray()
            while x & ~0x7f:
                out.append((x & 0x7f) | 0x80)
                x >>= 7
            out.append(x)
            return out
        body = bytearray()
        for x, y, z in self.ands:
            lhs, a, b = r(x), r(y), r(z)
            if a < b:
                a, b = b, a
            body += enc(lhs - a) + enc(a - b)
        with open(path, "wb") as f:
            m = len(self.inputs) + len(self.ands)
            f.write(f"aig {m} {len(self.inputs)} 0 {len(outs)} {len(self.ands)}\n".encode())
            f.write("".join(f"{r(o)}\n" for o in outs).encode())
            f.write(bytes(body))


def load(json_path, module="ll_equiv"):
    return json.load(open(json_path))["modules"][module]


def build(mod, aig_path, free=frozenset(), fsms=None):
    """Write the cut miter of module mod (from load()) as AIGER; returns {obligations:
    [{name, kind, cell, reg}], registers: paired register classes}. Output i of the AIG is
    obligation i. free: unpaired registers (Q bits) left free instead of assumed 0.
    fsms: {state register name: [(RTL code, netlist code), ...]} of the FSMs synthesis
    re-encoded (fsm_recode; codes MSB first, '-' read as 0), see fsm_pairs()."""
    g = Aig()
    lit, drv, dffq, equivs = {}, {}, {}, []
    for p in mod["ports"].values():
        if p["direction"] == "input":
            for b in p["bits"]:
                if isinstance(b, int) and b not in lit:
                    lit[b] = g.input()
    for name, c in mod["cells"].items():
        t, con = c["type"], c["connections"]
        if t in GATES:
            drv[con["Y"][0]] = (t,) + tuple(con[p][0] for p in GATES[t])
        elif t == "$_DFF_P_":
            dffq[con["Q"][0]] = (con["D"][0], con["C"][0], name)
        elif t == "$equiv":
            equivs.append((name, con["A"][0], con["B"][0], con["Y"][0]))
            drv[con["Y"][0]] = ("buf", con["A"][0])
        elif t in LEAF_TYPES or t.lstrip("\\").startswith(LEAF_PREFIX):
            for pn, d in c["port_directions"].items():
                if d == "output":
                    for b in con[pn]:
                        if isinstance(b, int):
                            lit.setdefault(b, g.input())
        else:
            raise RuntimeError(f"cut miter: unexpected cell {name} of type {t}")
    names = {}
    for n, v in sorted(mod["netnames"].items(), key=lambda kv: (kv[0].startswith("$"), kv[0])):
        for i, b in enumerate(v["bits"]):
            if isinstance(b, int):
                names.setdefault(b, f"{n}[{i}]" if len(v["bits"]) > 1 else n)

    parent = {}

    def find(x):
        while parent.get(x, x) != x:
            x = parent[x]
        return x

    def union(a, b):
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb

    obl = []   # (name, kind, is $equiv cell, gold-side bit, gate-side bit)
    paired = set()
    outports = {b for p in mod["ports"].values() if p["direction"] == "output" for b in p["bits"]}
    for name, a, b, y in equivs:
        nm = names.get(y, name)
        if b in ("x", "z") and y not in outports:
            obl.append((nm, "gatex", True, a, b))
        elif a in dffq and b in dffq:
            union(a, b)
            paired.update((a, b))
            kind = "reg" if dffq[a][1] == dffq[b][1] else "clock"
            obl.append((nm, kind, True, dffq[a][0], dffq[b][0]))
        elif a in dffq and b in ("0", "1"):
            lit[a] = lit[y] = int(b)
            obl.append((nm, "regconst", True, dffq[a][0], b))
        elif b in dffq and a in ("0", "1"):
            lit[b] = lit[y] = int(a)
            obl.append((nm, "regconst", True, a, dffq[b][0]))
        else:
            obl.append((nm, "comb", True, a, b))
    fsm_obl = fsm_pairs(g, mod, dffq, lit, fsms or {})
    byname = {}
    for n, v in mod["netnames"].items():
        m = re.fullmatch(r"(.*)_(gold|gate)", n)
        if m:
            for i, b in enumerate(v["bits"]):
                # a gold register the netlist merged into another one (opt_merge: equal
                # registers) pairs with that one: the netlist's net of the same name is its Q
                if b in dffq and b not in lit and (m.group(2) == "gate" or b not in paired):
                    byname.setdefault((m.group(1), i), {})[m.group(2)] = b
    for (n, i), sides in sorted(byname.items()):
        if len(sides) == 2 and sides["gold"] not in paired:
            a, b = sides["gold"], sides["gate"]
            union(a, b)
            paired.update((a, b))
            kind = "regname" if dffq[a][1] == dffq[b][1] else "clock"
            obl.append((f"{n}[{i}]", kind, False, dffq[a][0], dffq[b][0]))
    classes = {}
    for q in dffq:
        if q in paired and q not in lit:
            r = find(q)
            if r not in classes:
                classes[r] = g.input()
            lit[q] = classes[r]
    for name, a, b, y in equivs:
        if a in dffq and b in dffq:
            lit[y] = lit[a]
        elif b in dffq and b in lit and y not in lit:
            # a compared net the netlist takes straight from a cut register (pfc_codec's
            # tx_keep_o[3:0] is the flop of busy_q): its readers see that register's value,
            # not A (equiv_make may route A's own cone through Y: Y := A would be a cycle)
            lit[y] = lit[b]
    hyp = []

    def const(bit):
        return int(bit) if bit in ("0", "1") else g.input()   # x/z: free

    visiting, loops = set(), []

    def ev(bit):
        if isinstance(bit, str):
            return const(bit)
        stack = [bit]
        while stack:
            x = stack[-1]
            if x in lit:
                stack.pop()
                continue
            if x in dffq:          # an unpaired register: assumed 0 (proved below) or free
                if x in free:
                    lit[x] = g.input()
                else:
                    lit[x] = 0
                    hyp.append(x)
                stack.pop()
                continue
            d = drv.get(x)
            if d is None:          # undriven: free
                lit[x] = g.input()
                stack.pop()
                continue
            todo = [a for a in d[1:] if isinstance(a, int) and a not in lit]
            if todo:
                if x in visiting:     # a combinational cycle: cut it with a free input
                    lit[x] = g.input()
                    loops.append(x)
                    stack.pop()
                    continue
                visiting.add(x)
                stack.extend(todo)
                continue
            v = [lit[a] if isinstance(a, int) else const(a) for a in d[1:]]
            lit[x] = v[0] if d[0] == "buf" else g.gate(d[0], v)
            stack.pop()
        return lit[bit]

    for nm, kind, fn in fsm_obl:    # the re-encoded state registers (see fsm_pairs)
        obl.append((nm, kind, False, fn, None))
    outs, rows = [], []
    for nm, kind, cell, a, b in obl:
        rows.append({"name": nm, "kind": kind, "cell": cell})
        if kind == "clock":
            outs.append(1)        # registers on different clocks: not handled, unproven
        elif kind in ("fsm", "fsmcode"):
            outs.append(a(ev))
        elif kind == "gatex":
            outs.append(0)        # the netlist does not compute this net (x), nothing reads it
        elif a in ("x", "z"):
            outs.append(0)        # the RTL does not care (x): any netlist value refines it
        else:
            outs.append(g.XOR(ev(a), ev(b)))
    k = 0
    while k < len(hyp):
        q = hyp[k]
        k += 1
        rows.append({"name": names.get(q, dffq[q][2]), "kind": "regzero", "cell": False, "reg": q})
        outs.append(ev(dffq[q][0]))
    for x in loops:   # a cut cycle is sound (any value) but must not pass unnoticed
        rows.append({"name": names.get(x, str(x)), "kind": "loop", "cell": False})
        outs.append(1)
    g.write(aig_path, outs)
    return {"obligations": rows, "registers": len(classes), "inputs": len(g.inputs), "ands": len(g.ands)}


def fsm_pairs(g, mod, dffq, lit, fsms):
    """Pair the state registers synthesis re-encoded (Yosys `fsm`: fsm_recode, e.g. a 3-bit
    binary opcode register becomes 6 one-hot flip-flops of the same name, so equiv_make
    does not pair them and bit-by-bit name pairing would be wrong). For each FSM, the
    RTL's state register (<name>_gold) is cut to a free value restricted to the FSM's
    state codes (a free value that is no code reads as the first code), the netlist's
    (<name>_gate) is the recoded form of that value; the obligations are: the RTL's next
    state is one of the codes (kind fsmcode, so the restriction is inductive) and the
    netlist's next state is its recoded form (kind fsm, one per netlist bit). Sets lit[]
    of both registers' bits; returns [(name, kind, fn(ev) -> literal)]."""
    out = []
    nets = mod["netnames"]
    for name, codes in sorted(fsms.items()):
        ga, gb = nets.get(f"{name}_gold"), nets.get(f"{name}_gate")
        if not ga or not gb:
            continue    # not an unpaired register pair of this module
        qa, qb = ga["bits"], gb["bits"]
        # a netlist state bit nothing reads is removed (its net is x): no obligation for it
        if not all(isinstance(b, int) and b in dffq for b in qa) or \
                not all(b in dffq for b in qb if isinstance(b, int)):
            raise RuntimeError(f"cut miter: FSM {name}: a state bit that is not a flip-flop")
        enc = [([c == "1" for c in reversed(old)], [c == "1" for c in reversed(new)]) for old, new in codes]
        if any(len(o) != len(qa) or len(n) != len(qb) for o, n in enc):
            raise RuntimeError(f"cut miter: FSM {name}: code widths do not match the registers "
                               f"({len(qa)} / {len(qb)} bits)")

        recode = _recoder(g, enc)
        x = [g.input() for _ in qa]
        valid = recode(x)[1]
        gold = [g.MUX(int(enc[0][0][i]), x[i], valid) for i in range(len(qa))]
        for b, lt in zip(qa, gold):
            lit[b] = lt
        gate, _ = recode(gold)
        for b, lt in zip(qb, gate):
            if isinstance(b, int):
                lit[b] = lt
        da, db = [dffq[b][0] for b in qa], [dffq[b][0] if isinstance(b, int) else None for b in qb]

        def ok(ev, da=da, recode=recode):
            return recode([ev(d) for d in da])[1] ^ 1

        out.append((f"{name} (FSM state code)", "fsmcode", ok))
        for j, d in enumerate(db):
            if d is None:
                continue

            def eq(ev, da=da, d=d, j=j, recode=recode):
                return g.XOR(recode([ev(x) for x in da])[0][j], ev(d))
            out.append((f"{name}[{j}] (FSM, recoded)", "fsm", eq))
    return out


def _recoder(g, enc):
    """fn(RTL state literals) -> (netlist state literals, "is one of the codes") of an FSM's
    code table enc [(RTL code bits, netlist code bits), LSB first]."""
    def is_code(v, o):
        r = 1
        for lt, bit in zip(v, o):
            r = g.AND(r, lt ^ (0 if bit else 1))
        return r

    def recode(v):
        sel = [is_code(v, o) for o, _ in enc]
        nb = len(enc[0][1])
        return [_or_all(g, [s for s, (_, n) in zip(sel, enc) if n[j]]) for j in range(nb)], _or_all(g, sel)
    return recode


def _or_all(g, lits):
    r = 0
    for lt in lits:
        r = g.OR(r, lt)
    return r


FSM_RE = re.compile(r"^Recoding FSM `\$fsm\$\\(\S+)\$\d+' from module .*?\n((?:  .*\n)+)", re.M)


def fsm_codes(log_path):
    """The state codes of every FSM that Yosys's fsm_recode re-encoded, from a synthesis log:
    {state register name: [(RTL code, netlist code)]} (MSB first; one-hot codes print the
    bits they do not test as '-': the flip-flops hold 0 there)."""
    out = {}
    for m in FSM_RE.finditer(open(log_path).read()):
        codes = re.findall(r"^  ([01]+) -> ([01-]+)$", m.group(2), re.M)
        if codes:
            out[m.group(1)] = [(a, b.replace("-", "0")) for a, b in codes]
    return out


def blacklist(regs_json, out_path, keep_prefixes=("llmask.",)):
    """The names equiv_make must not pair: every public net of ll_gold / ll_gate that is not
    a port, not a register output (any bit driven by a flip-flop, aliases included) and not a
    masked memory input. Internal nets are then compared only through what they drive
    (ABC finds the internal correspondences itself), so a named net the netlist computes
    differently where nothing observes it (an unreachable state, an x of the RTL) is no
    obligation. regs_json: both modules with every cell but the flip-flops deleted.
    Returns (kept names, blacklisted names)."""
    mods = json.load(open(regs_json))["modules"]
    keep, names = set(), set()
    for m in ("ll_gold", "ll_gate"):
        mod = mods[m]
        q = set()
        for c in mod["cells"].values():
            q.update(b for b in c["connections"]["Q"] if isinstance(b, int))
        keep.update(mod["ports"])
        for n, v in mod["netnames"].items():
            if n.startswith("$"):
                continue
            names.add(n)
            if any(b in q for b in v["bits"]) or n.startswith(keep_prefixes):
                keep.add(n)
    black = sorted(names - keep)
    with open(out_path, "w") as f:
        f.write("".join(f"{n}\n" for n in black))
    return sorted(keep & names), black


def read_outputs(aig_path):
    """The output literals of a binary AIGER file (they are ASCII lines after the header)."""
    with open(aig_path, "rb") as f:
        hdr = f.readline().split()
        if hdr[0] not in (b"aig", b"aag"):
            raise RuntimeError(f"{aig_path}: not AIGER")
        _, _, nl, no = map(int, hdr[1:5])
        for _ in range(nl):
            f.readline()
        return [int(f.readline().split()[0]) for _ in range(no)]


def prove(mod, aig, work_prefix, timeout=None, rounds=4, fsms=None):
    """build + sweep; an unpaired register whose "holds 0" obligation fails is left free
    and the miter rebuilt (at most `rounds` times). Returns (build result, output literals)."""
    free = set()
    for _ in range(rounds):
        r = build(mod, aig, frozenset(free), fsms)
        v = sweep(aig, work_prefix + ".swept.aig", work_prefix + ".abc.log", timeout=timeout)
        bad = {o["reg"] for o, x in zip(r["obligations"], v) if x and o["kind"] == "regzero"}
        if not bad:
            break
        free |= bad
    r["free_registers"] = len(free)
    return r, v


def sweep(aig_in, aig_out, log, timeout=None):
    """ABC SAT sweeping of the miter; returns the output literals (0 = proven)."""
    cmd = f"read_aiger {aig_in}; print_stats; &get -n; &fraig; &put; print_stats; write_aiger {aig_out}"
    try:
        p = subprocess.run(["yosys-abc", "-c", cmd], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"ABC did not finish in {timeout} s ({aig_in})")
    with open(log, "w") as f:
        f.write(p.stdout)
    if p.returncode:
        raise RuntimeError(f"ABC failed on {aig_in} (log {log})")
    n_in = read_outputs(aig_in)
    n_out = read_outputs(aig_out)
    if len(n_in) != len(n_out):
        raise RuntimeError(f"ABC changed the number of outputs ({len(n_in)} -> {len(n_out)})")
    return n_out


def main():
    ap = argparse.ArgumentParser(description="register-cut miter of an equiv_make module (see scripts/equiv.py)")
    ap.add_argument("json")
    ap.add_argument("aig")
    ap.add_argument("--sweep", action="store_true", help="also prove it with ABC")
    a = ap.parse_args()
    r = build(load(a.json), a.aig)
    print(f"{len(r['obligations'])} obligations, {r['registers']} register classes, {r['inputs']} inputs, "
          f"{r['ands']} AND gates")
    if a.sweep:
        v = sweep(a.aig, a.aig + ".swept", a.aig + ".abc.log")
        bad = [o for o, x in zip(r["obligations"], v) if x]
        print(f"{len(v) - len(bad)} proven, {len(bad)} unproven")
        for o in bad[:20]:
            print(f"  {o['kind']} {o['name']}")
        sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
