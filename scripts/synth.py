#!/usr/bin/env python3
"""Synthesis flow: area, timing and FPGA resources of every block configuration.

For each configuration in synth/<block>/configs.json (its RTL: the block's files that its
top instantiates, scripts/ll_rtl.py files_for_top(), so an edit to another module of the
block cannot move its figures):
  1. Yosys generic synthesis with memories kept as memories (`memory -nomap`): generic
     cell counts and memory bits, `check -assert` (no undriven nets, no logic dropped);
  2. IHP SG13G2 130 nm: dfflibmap + abc -liberty (the "timing" recipe), then buffer trees on
     nets that drive more than 24 pins (scripts/fanout_buf.py) and the strong
     flip-flop where one drives many pins (scripts/ff_drive.py): area in um^2 and NAND2 equivalents
     (memories excluded, reported in bits), and ABC's delay estimate of the longest
     register-to-register logic path;
  2b. static timing of that netlist with OpenSTA (`sta`, see "Static timing" below);
  3. Xilinx 7-series: synth_xilinx -family xc7 -noiopad: LUT / FF / DSP / BRAM counts;
  4. iCE40 HX8K (configs with "ice40": true): the block wrapped in registers and fed
     through a serial shift chain, synth_ice40 + nextpnr-ice40 --seed 1: logic cells and
     the placed-and-routed Fmax.
Reports: synth/reports/<block>/<config>.{md,json} and the table in README.md.

Static timing (step 2b): the SG13G2 netlist is written with `write_verilog -noattr`
(after `splitnets -ports`, which OpenSTA's Verilog reader needs) and timed by
`sta -no_init -exit` with a generated Tcl script: the Liberty
synth/techlib/sg13g2_stdcell_typ_1p20V_25C.lib (typical corner only), its smallest
wire-load model (found in the .lib: the one with the least wire capacitance per fanout,
"Zero"; mode "top"), and an SDC generated per block: one clock on the block's clock port
(`clock_port`, default clk_i) with the period `clock_ns` of synth/<block>/configs.json (a
configuration may override it), ideal clock network. I/O is registered by constraint:
every input arrives `IO_IN_DELAY_NS` after the edge (the clock-to-Q of an sg13g2_dfrbp_1
flip-flop) and every output must arrive `IO_OUT_DELAY_NS` before the next edge (that
flip-flop's setup time) into a load of one flip-flop D pin, so every path is timed as
register to register. Memories kept as `$mem` are black boxes: each becomes a cell of a
generated Liberty (build/synth/work/<b>/<c>/sta_mem.lib) with a stated read access time
(clock -> read data) and setup time (address, enable, data -> clock):
  - memories of at most FLOP_RAM_BITS bits are modelled as flip-flop register files: read
    data launched by a flip-flop (clock-to-Q 0.20 ns), inputs need the flip-flop setup
    plus one mux2 level per address bit (0.12 + 0.10 * ceil(log2(depth)) ns);
  - larger memories are modelled as IHP SG13G2 two-port SRAM macros (public Liberty
    of the IHP Open PDK, typical corner; SRAM_CLASSES): access 3.10 ns up to 64 words
    (RM_IHPSG13_2P_64x32_c2), 2.95 ns up to 256 (RM_IHPSG13_2P_256x8_c2_bm_bist), 4.31 ns
    above (RM_IHPSG13_2P_1024x16_c2_bm_bist); setup 0.21 ns; area at the same macro's
    density.
An asynchronous read port gets a combinational address -> data arc of the same size.
Reported: worst slack (WNS, negative when the target is missed), TNS, the STA Fmax
1 / (period - WNS), and the three worst paths (startpoint, endpoint, logic stages,
arrival). Any error or unexpected warning from sta fails the configuration.

Budgets (synth/baseline.json, one entry per configuration "<block>/<config>"):
nand2_eq, memory_bits, sta_wns_ns (with the clock it was measured at) and
ice40_fmax_mhz. A run fails when, for a configuration it synthesised,
  - NAND2-eq or memory bits grow more than 5% over the baseline (AREA_TOLERANCE),
  - the STA worst slack falls below its floor: baseline WNS - 5% of the clock period
    (WNS_FLOOR_FRACTION; 0.2 ns at 4 ns), or the clock period changed,
  - the iCE40 Fmax falls below its floor: 90% of the baseline (FMAX_TOLERANCE;
    nextpnr's placement moves Fmax by a few percent on small netlist changes),
  - or the configuration has no baseline entry.
Updating a baseline is a deliberate commit that says why (`--update-baseline`).

Usage:
  synth.py                       every configuration, reports + README table, checked
                                 against synth/baseline.json
  synth.py --smoke               one configuration per block ("smoke": true), checked
                                 against synth/baseline.json (what `make test` runs)
  synth.py [--smoke] --update-baseline   rewrite the baseline entries of the configurations run
  synth.py --check-baseline FILE check the committed reports (synth/reports) against FILE
                                 (no synthesis; exit 1 on any budget failure)
  synth.py [--block B] [--config C] [-j N] [--out DIR]
"""
import argparse
import concurrent.futures as cf
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time

import ff_drive   # scripts/ff_drive.py: flip-flop drive strength by fanout
import liberty    # scripts/liberty.py: the Liberty file and its cells
import sta_endpoints  # scripts/sta_endpoints.py: flip-flops of a netlist and the nets they drive

import ll_rtl  # scripts/ll_rtl.py: the one RTL file-list rule

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIB = liberty.LIB
BASELINE = os.path.join(ROOT, "synth", "baseline.json")
README = os.path.join(ROOT, "README.md")
FMAX_TOLERANCE = 0.90       # iCE40 Fmax floor: 90% of the baseline
AREA_TOLERANCE = 1.05       # NAND2-eq and memory bits: at most 5% over the baseline
WNS_FLOOR_FRACTION = 0.05   # STA slack floor: baseline WNS - 5% of the clock period
ABC_TARGET_PS = 4000
# ABC recipe of the SG13G2 mapping. "timing" (the default, what every baseline is measured
# with) runs the choice computation and delay-driven mapping without dc2. "area" adds dc2,
# which rewrites the Brent-Kung carry tree of Yosys' $lcu into a ripple chain (a registered
# 48-bit add: 5.00 ns in STA with dc2, 2.07 ns without, +4.5% area); the baselines used it
# until the area and timing targets' re-measurement (--abc-recipe area: an experiment, see docs/synthesis.md).
_TIMING_RECIPE = "strash\nifraig\nscorr\nstrash\n&get -n\n&dch -f\n&nf {D}\n&put\nbuffer\nupsize {D}\ndnsize {D}\nstime -p\n"
ABC_RECIPES = {
    "timing": _TIMING_RECIPE,
    "area": _TIMING_RECIPE.replace("scorr\n", "scorr\ndc2\n"),
}
ABC_RECIPE = "timing"
DEFAULT_CLOCK_NS = 4.0
# registered I/O (OpenSTA on the Liberty: sg13g2_dfrbp_1 CLK->Q driving one D pin 0.18 ns,
# setup 0.12 ns, D pin 0.0018 pF)
IO_IN_DELAY_NS = 0.18
IO_OUT_DELAY_NS = 0.12
IO_LOAD_PF = 0.0018
# memory black boxes (see the module docstring)
FLOP_RAM_BITS = 8192
RF_ACCESS_NS = 0.20
RF_SETUP_NS = 0.12
RF_MUX_LEVEL_NS = 0.10
# SRAM macro classes of the IHP Open PDK (ihp-sg13g2/libs.ref/sg13g2_sram): a memory of more
# than FLOP_RAM_BITS bits is modelled as the two-port macro of the first class deep enough for
# it: its clock -> A_DOUT time of the typical-corner Liberty (1.20 V, 25 C; smallest input slew
# and load) and its area per bit (the Liberty's cell area, equal to its LEF's size where the
# PDK has a LEF: 402.61 x 385.37 um for the 1024x16 macro). Designs deeper than 256 words that
# must meet 4 ns split their RAM into 256-word banks (rtl/common/ll_ram_1r1w_banked.sv).
# (max words or None, macro, access ns, macro um^2, macro bits)
SRAM_CLASSES = (
    (64, "RM_IHPSG13_2P_64x32_c2", 3.10, 52620.8821, 64 * 32),
    (256, "RM_IHPSG13_2P_256x8_c2_bm_bist", 2.95, 38147.5147, 256 * 8),
    (None, "RM_IHPSG13_2P_1024x16_c2_bm_bist", 4.31, 155153.8157, 1024 * 16),
)
SRAM_SETUP_NS = 0.21          # worst A_MEN / A_WEN setup of the macros at the smallest slews
# memory area estimate (see "Area breakdown" in the module docstring): memories of at most
# FLOP_RAM_BITS bits as flip-flop register files (per bit: one sg13g2_dfrbp_1, one sg13g2_mux2_1
# to hold or write, one sg13g2_mux2_1 of read tree per read port), larger ones at the density
# of their SRAM class above.


def sram_class(depth):
    """(macro, access ns, um^2 per bit) of the SRAM class of a memory of `depth` words (the
    last class has no bound, so one always matches)."""
    _, macro, acc, um2, bits = next(c for c in SRAM_CLASSES if c[0] is None or depth <= c[0])
    return macro, acc, um2 / bits


RF_BIT_CELLS = ("sg13g2_dfrbp_1", "sg13g2_mux2_1")  # + one sg13g2_mux2_1 per read port
BREAKDOWN_ROWS = 24         # submodule rows in the report (largest first)
FF_ROWS = 12                # flip-flop register rows in the report (largest first)


def die(msg):
    print(f"synth: error: {msg}", file=sys.stderr)
    sys.exit(2)


def nand2_area():
    text = open(LIB).read()
    m = re.search(r"cell\s*\(\s*\"?sg13g2_nand2_1\"?\s*\)\s*\{\s*area\s*:\s*([0-9.]+)", text)
    if not m:
        die(f"{LIB}: no sg13g2_nand2_1 area")
    return float(m.group(1))


def fresh_work(path, files):
    """An empty work directory at path (absolute) holding files {name: text}: the small
    designs of the flow tests (scripts/test_equiv.py, scripts/test_fanout_buf.py)."""
    work = os.path.abspath(path)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    for name, text in files.items():
        with open(os.path.join(work, name), "w") as f:
            f.write(text)
    return work


def rtl_files(block, top):
    """The files a configuration reads: the block's list (scripts/ll_rtl.py) cut to what
    `top` needs, so a configuration's result depends only on the RTL it synthesises."""
    try:
        return ll_rtl.files_for_top(block, top)
    except ValueError as e:
        die(f"{block}/{top}: {e}")


def load_configs(block):
    path = os.path.join(ROOT, "synth", block, "configs.json")
    try:
        spec = json.load(open(path))
    except (OSError, json.JSONDecodeError) as e:
        die(f"{path}: {e}")
    for key in ("block", "top", "configs"):
        if key not in spec:
            die(f"{path}: missing key '{key}'")
    smoke = [c for c in spec["configs"] if c.get("smoke")]
    if len(smoke) != 1:
        die(f"{path}: exactly one configuration must have \"smoke\": true (found {len(smoke)})")
    for c in spec["configs"]:
        if "name" not in c or "params" not in c:
            die(f"{path}: every configuration needs 'name' and 'params'")
        c.setdefault("top", spec["top"])
        c.setdefault("clock_ns", spec.get("clock_ns", DEFAULT_CLOCK_NS))
        c.setdefault("clock_port", spec.get("clock_port", "clk_i"))
        if not isinstance(c["clock_ns"], (int, float)) or isinstance(c["clock_ns"], bool) or c["clock_ns"] <= 0:
            die(f"{path}: {c['name']}: clock_ns must be a positive number of ns (got {c['clock_ns']!r})")
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", str(c["clock_port"])):
            die(f"{path}: {c['name']}: clock_port must be a port name (got {c['clock_port']!r})")
    return spec


def yosys(script, log, cwd):
    p = subprocess.run(["yosys", "-q", "-l", log, "-s", script], cwd=cwd,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode:
        tail = "\n".join(open(log).read().splitlines()[-15:]) if os.path.exists(log) else p.stdout
        raise RuntimeError(f"yosys failed ({script}):\n{tail}")
    return open(log).read()


def chparams(params, top):
    # `chparam` before `hierarchy` (hierarchy -chparam trips an assertion in Yosys 0.23
    # when a parameterised module is re-derived)
    sets = " ".join(f"-set {k} {v}" for k, v in params.items())
    return f"chparam {sets} {top}\n" if params else ""


def parse_stat_cells(text):
    """Cell counts of the last `stat` block in a log."""
    blocks = text.split("Number of cells:")
    if len(blocks) < 2:
        return 0, {}
    last = blocks[-1]
    total = int(last.split()[0])
    cells = {}
    for m in re.finditer(r"^\s+(\S+)\s+(\d+)\s*$", last, re.M):
        cells[m.group(1)] = int(m.group(2))
    return total, cells


# ---------------------------------------------------------------------------------------
# Static timing with OpenSTA

def smallest_wire_load(lib_path=LIB):
    """The Liberty's wire-load model with the least wire capacitance at every fanout it
    lists (capacitance per unit length x fanout length); returns (name, description)."""
    text = open(lib_path).read()
    best = None
    for m in re.finditer(r'wire_load\s*\(\s*"?([^")\s]+)"?\s*\)\s*\{(.*?)\n\s*\}', text, re.S):
        name, body = m.group(1), m.group(2)
        cap = re.search(r"capacitance\s*:\s*([0-9.eE+-]+)", body)
        fl = [(int(a), float(b)) for a, b in re.findall(r"fanout_length\s*\(\s*(\d+)\s*,\s*([0-9.eE+-]+)\s*\)", body)]
        if not cap or not fl:
            continue
        worst = max(float(cap.group(1)) * length for _, length in fl)
        if best is None or worst < best[0]:
            best = (worst, name, float(cap.group(1)), fl)
    if best is None:
        die(f"{lib_path}: no wire_load group with capacitance and fanout_length")
    _, name, cap, fl = best
    lengths = ", ".join(f"fanout {f}: {length:g}" for f, length in fl)
    return name, f"{cap:g} pF per unit length, lengths {lengths}"


# The stated timing of each black-boxed memory cell, as sta_mem.lib's comment on it states it
# (the comment written in the generator below): {cell: (access ns, setup ns)}.
MEM_LIB_RE = re.compile(r"cell \((\S+)\) \{\s*/\* .*?: access ([0-9.]+) ns, setup ([0-9.]+) ns \*/")


def mem_lib_timings(text):
    return {m.group(1): (float(m.group(2)), float(m.group(3))) for m in MEM_LIB_RE.finditer(text)}


def mem_timing(width, size):
    """(class, access ns, setup ns) of a black-boxed memory (see the module docstring)."""
    bits = width * size
    if bits <= FLOP_RAM_BITS:
        levels = max(1, (size - 1).bit_length())
        return "register file", RF_ACCESS_NS, round(RF_SETUP_NS + RF_MUX_LEVEL_NS * levels, 3)
    return "SRAM macro", sram_class(size)[1], SRAM_SETUP_NS


def _split_concat(expr):
    """Bits (MSB first) of a Yosys write_verilog connection: a net, a constant or a
    concatenation of them (nets are one bit after `splitnets -ports`)."""
    expr = expr.strip()
    if expr.startswith("{") and expr.endswith("}"):
        parts, cur, i, body = [], "", 0, expr[1:-1]
        while i < len(body):
            ch = body[i]
            if ch == "\\":  # escaped identifier: up to the next whitespace
                j = i
                while j < len(body) and not body[j].isspace():
                    j += 1
                cur += body[i:j] + " "
                i = j
                continue
            if ch == ",":
                parts.append(cur.strip())
                cur = ""
            else:
                cur += ch
            i += 1
        if cur.strip():
            parts.append(cur.strip())
        bits = []
        for part in parts:
            bits += _split_concat(part)
        return bits
    m = re.fullmatch(r"(\d+)'([bhd])([0-9a-fA-FxXzZ_]+)", expr)
    if m:
        n, base, digits = int(m.group(1)), m.group(2), m.group(3).replace("_", "")
        if base == "d":
            val = bin(int(digits))[2:]
        elif base == "h":
            val = "".join("xxxx" if d in "xX" else ("zzzz" if d in "zZ" else format(int(d, 16), "04b")) for d in digits)
        else:
            val = digits
        val = val.rjust(n, "0")[-n:]
        return ["1'b0" if b == "0" else ("1'b1" if b == "1" else "1'b0") for b in val]
    if re.search(r"[\[\]]", expr) and not expr.startswith("\\"):
        raise RuntimeError(f"STA netlist: unexpected multi-bit connection '{expr[:80]}'")
    return [expr]


def blackbox_memories(netlist_in, netlist_out, lib_out):
    """Replace every LL_STA_MEM instance (a $mem_v2 cell renamed by chtype) by a cell of a
    generated Liberty with scalar pins and the stated timing; returns the memory list and
    the memory pins left open (repeated write enables)."""
    text = open(netlist_in).read()
    pat = re.compile(r"^(\s*)LL_STA_MEM\s*#\((.*?)\n\s*\)\s*(\\\S+\s|\S+)\s*\((.*?)\n\s*\);", re.S | re.M)
    shapes, mems, pieces, last, open_pins = {}, [], [], 0, set()
    for m in pat.finditer(text):
        params = {k: v for k, v in re.findall(r"\.(\w+)\(([^()]*)\)", m.group(2))}

        def ival(k):
            v = params.get(k)
            if v is None:
                raise RuntimeError(f"STA netlist: memory {m.group(3).strip()} has no parameter {k}")
            mm = re.fullmatch(r"(?:\d+'[sd]?d?)?(\d+)", v.strip())
            if mm:
                return int(mm.group(1))
            mm = re.fullmatch(r"(\d+)'h([0-9a-fA-F]+)", v.strip())
            if mm:
                return int(mm.group(2), 16)
            mm = re.fullmatch(r"(\d+)'b([01]+)", v.strip())
            if mm:
                return int(mm.group(2), 2)
            raise RuntimeError(f"STA netlist: cannot read parameter {k}={v}")
        abits, width, size = ival("ABITS"), ival("WIDTH"), ival("SIZE")
        nrd, nwr = ival("RD_PORTS"), ival("WR_PORTS")
        rd_clk_en = ival("RD_CLK_ENABLE") if nrd else 0
        conns = {}
        for cm in re.finditer(r"\.(\w+)\((.*?)\)(?=\s*,\s*\n|\s*$)", m.group(4), re.S):
            conns[cm.group(1)] = _split_concat(cm.group(2)) if cm.group(2).strip() else []
        want = {"RD_CLK": nrd, "RD_EN": nrd, "RD_ADDR": abits * nrd, "RD_DATA": width * nrd,
                "WR_CLK": nwr, "WR_EN": width * nwr, "WR_ADDR": abits * nwr, "WR_DATA": width * nwr}
        for port, n in want.items():
            if n and len(conns.get(port, [])) != n:
                raise RuntimeError(f"STA netlist: memory {m.group(3).strip()} port {port} has "
                                   f"{len(conns.get(port, []))} bits, expected {n}")
        cls, acc, su = mem_timing(width, size)
        key = (abits, width, size, nrd, nwr, rd_clk_en, cls)
        if key not in shapes:
            shapes[key] = f"ll_sta_mem_{len(shapes)}"
        cell = shapes[key]
        pins = []
        for port, n in want.items():
            bits = conns.get(port, [])
            seen = set()
            for i in range(n):  # connection lists are MSB first; pin index = bit index
                b = bits[n - 1 - i]
                if port == "WR_EN":
                    # Yosys repeats one write enable on every data bit; a macro or register
                    # file has one enable input per port (per distinct net): the repeats
                    # stay unconnected instead of loading the net once per bit
                    if (i // width, b) in seen:
                        open_pins.add(f"{m.group(3).strip().lstrip(chr(92))}/{port}_{i}")
                        continue
                    seen.add((i // width, b))
                pins.append(f".{port}_{i}({b}{' ' if b.startswith(chr(92)) else ''})")  # escaped names end in a space
        pieces.append(text[last:m.start()])
        pieces.append(f"{m.group(1)}{cell} {m.group(3).strip()} ( " + ", ".join(pins) + " );")
        last = m.end()
        memid = params.get("MEMID", "").strip().strip('"').replace("\\\\", "")
        mems.append({"name": memid or m.group(3).strip(), "cell": cell, "width": width, "depth": size,
                     "read_ports": nrd, "write_ports": nwr, "class": cls, "access_ns": acc,
                     "setup_ns": su, "async_read": bool(nrd and rd_clk_en != (1 << nrd) - 1)})
    pieces.append(text[last:])
    out = "".join(pieces)
    if "LL_STA_MEM" in out:
        raise RuntimeError("STA netlist: a memory instance was not recognised")
    with open(netlist_out, "w") as f:
        f.write(out)
    with open(lib_out, "w") as f:
        f.write(memory_liberty(shapes))
    return mems, open_pins


def memory_liberty(shapes):
    def scalar(v):
        return f'(scalar) {{ values ("{v:.4f}"); }}'
    lines = ["/* generated by scripts/synth.py: memory black boxes for OpenSTA, stated timing */",
             "library (ll_sta_mem) {", "  delay_model : table_lookup;", '  time_unit : "1ns";',
             '  voltage_unit : "1V";', '  current_unit : "1uA";', '  pulling_resistance_unit : "1kohm";',
             '  leakage_power_unit : "1pW";', "  capacitive_load_unit (1,pf);",
             "  nom_process : 1;", "  nom_temperature : 25;", "  nom_voltage : 1.2;"]
    for k in ("input_threshold_pct", "output_threshold_pct"):
        lines += [f"  {k}_rise : 50;", f"  {k}_fall : 50;"]
    lines += ["  slew_lower_threshold_pct_rise : 20;", "  slew_lower_threshold_pct_fall : 20;",
              "  slew_upper_threshold_pct_rise : 80;", "  slew_upper_threshold_pct_fall : 80;"]
    for (abits, width, size, nrd, nwr, rd_clk_en, cls), cell in shapes.items():
        _, acc, su = mem_timing(width, size)
        lines += [f"  cell ({cell}) {{", f"    /* {size} x {width}, {nrd}R{nwr}W, {cls}: access {acc} ns, setup {su} ns */",  # MEM_LIB_RE
                  "    area : 0;", "    dont_use : true;"]

        def setup(pin, clk):
            lines.append(f"    pin ({pin}) {{ direction : input; capacitance : 0.002; timing () {{ related_pin : \"{clk}\"; "
                         f"timing_type : setup_rising; rise_constraint {scalar(su)} fall_constraint {scalar(su)} }} }}")
        for p in range(nwr):
            lines.append(f"    pin (WR_CLK_{p}) {{ direction : input; clock : true; capacitance : 0.003; }}")
            for i in range(width):
                setup(f"WR_EN_{p * width + i}", f"WR_CLK_{p}")
                setup(f"WR_DATA_{p * width + i}", f"WR_CLK_{p}")
            for i in range(abits):
                setup(f"WR_ADDR_{p * abits + i}", f"WR_CLK_{p}")
        for p in range(nrd):
            sync = bool(rd_clk_en >> p & 1)
            addr = [f"RD_ADDR_{p * abits + i}" for i in range(abits)]
            if sync:
                lines.append(f"    pin (RD_CLK_{p}) {{ direction : input; clock : true; capacitance : 0.003; }}")
                setup(f"RD_EN_{p}", f"RD_CLK_{p}")
                for a in addr:
                    setup(a, f"RD_CLK_{p}")
            else:
                lines.append(f"    pin (RD_CLK_{p}) {{ direction : input; capacitance : 0.002; }}")
                lines.append(f"    pin (RD_EN_{p}) {{ direction : input; capacitance : 0.002; }}")
                for a in addr:
                    lines.append(f"    pin ({a}) {{ direction : input; capacitance : 0.002; }}")
            for i in range(width):
                if sync:
                    arc = (f'related_pin : "RD_CLK_{p}"; timing_type : rising_edge; ')
                else:
                    arc = f'related_pin : "{" ".join(addr)}"; timing_type : combinational; '
                lines.append(f"    pin (RD_DATA_{p * width + i}) {{ direction : output; timing () {{ {arc}"
                             f"timing_sense : non_unate; cell_rise {scalar(acc)} cell_fall {scalar(acc)} "
                             f"rise_transition {scalar(0.1)} fall_transition {scalar(0.1)} }} }}")
        lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def sdc_text(cfg):
    clk, per = cfg["clock_port"], float(cfg["clock_ns"])
    return f"""# generated by scripts/synth.py from synth/<block>/configs.json (clock_ns, clock_port)
create_clock -name clk -period {per:.3f} [get_ports {{{clk}}}]
# registered I/O: inputs launched by a flip-flop (sg13g2_dfrbp_1 CLK->Q), outputs captured by one (setup, D pin load)
set_input_delay {IO_IN_DELAY_NS:.3f} -clock clk [delete_from_list [all_inputs] [get_ports {{{clk}}}]]
set_output_delay {IO_OUT_DELAY_NS:.3f} -clock clk [all_outputs]
set_load {IO_LOAD_PF} [all_outputs]
"""


STA_PATHS = 3


def parse_paths(text):
    """The full-format path reports of `report_checks`: start, end, stages, arrival, slack."""
    paths = []
    for blk in re.split(r"\n(?=Startpoint: )", text):
        if not blk.startswith("Startpoint: "):
            continue
        sp = re.match(r"Startpoint: (\S+)(?: \((.*?)\))?", blk)
        ep = re.search(r"^Endpoint: (\S+)(?: \((.*?)\))?", blk, re.M)
        sl = re.search(r"^\s*(-?[0-9.]+)\s+slack \((MET|VIOLATED)\)", blk, re.M)
        arr = re.search(r"^\s*(-?[0-9.]+)\s+data arrival time", blk, re.M)
        if not (sp and ep and sl and arr):
            raise RuntimeError(f"sta: cannot parse a path report:\n{blk[:600]}")
        body = blk[:arr.start()]
        pins = re.findall(r"^\s*-?[0-9.]+\s+-?[0-9.]+\s+[\^v]\s+(\S+)\s+\(([^)]*)\)\s*$", body, re.M)
        if not pins:
            raise RuntimeError(f"sta: no pins in the path report:\n{blk[:600]}")
        launch = pins[0][0].rsplit("/", 1)[0] if "/" in pins[0][0] else None
        stages = 0
        for pin, cell in pins[1:-1]:
            inst = pin.rsplit("/", 1)[0] if "/" in pin else None
            if inst is not None and inst != launch and cell not in ("in", "out"):
                stages += 1
        nets = [(int(n) if n else 0, net) for n, net in
                re.findall(r"^\s*(\d+)?\s+(\S+) \(net\)\s*$", body, re.M)]
        top_fo = max(nets, default=(0, ""))
        # the stages: every cell output on the path with its delay, arrival and the net it drives
        stage_list, cur = [], None
        for ln in body.splitlines():
            pm = re.match(r"^\s*(-?[0-9.]+)\s+(-?[0-9.]+)\s+[\^v]\s+(\S+)\s+\(([^)]*)\)\s*$", ln)
            if pm:
                cur = None
                inst, pin = (pm.group(3).rsplit("/", 1) + [""])[:2] if "/" in pm.group(3) else (pm.group(3), "")
                if pm.group(4) in ("in", "out") or pin in ("CLK",):
                    continue
                if inst == launch and len(stage_list) == 0 and pm.group(4).startswith("sg13g2_df"):
                    kind = "launch"
                elif pm.group(3) == pins[-1][0]:
                    kind = "end"
                else:
                    kind = "cell"
                cur = {"cell": pm.group(4), "pin": pm.group(3), "delay_ns": float(pm.group(1)),
                       "arrival_ns": float(pm.group(2)), "kind": kind, "net": "", "fanout": 0}
                stage_list.append(cur)
                continue
            nm = re.match(r"^\s*(\d+)?\s+(\S+) \(net\)\s*$", ln)
            if nm and cur is not None:
                cur["net"], cur["fanout"] = nm.group(2), int(nm.group(1) or 0)
        paths.append({"start": sp.group(1), "start_kind": sp.group(2) or "",
                      "start_net": nets[0][1] if nets else "", "end": ep.group(1),
                      "end_kind": ep.group(2) or "", "end_pin": pins[-1][0], "stages": stages,
                      "max_fanout": top_fo[0], "max_fanout_net": top_fo[1], "stage_list": stage_list,
                      "arrival_ns": float(arr.group(1)), "slack_ns": float(sl.group(1))})
    return paths


# sta warnings that do not affect the timed paths
STA_BENIGN = (re.compile(r"Warning: .*sg13g2_stdcell_typ_1p20V_25C\.lib.*"),)


def constant_endpoints(netlist):
    """Names of top-level outputs assigned a constant and of instance pins connected to a
    constant ("inst/pin", as OpenSTA prints them) in a Yosys structural netlist."""
    text = open(netlist).read()
    const = r"\d+'[bhd][0-9a-fA-FxXzZ]+"
    names = set()
    for m in re.finditer(r"^\s*assign\s+(\\\S+|\S+)\s*=\s*(" + const + r")\s*;", text, re.M):
        names.add(m.group(1).lstrip("\\"))
    for m in re.finditer(r"^\s*(\w+)\s+(\\\S+|\S+)\s*\((.*?)\);", text, re.M | re.S):
        inst = m.group(2).lstrip("\\")
        for pm in re.finditer(r"\.(\w+)\(\s*(" + const + r")\s*\)", m.group(3)):
            names.add(f"{inst}/{pm.group(1)}")
    return names


def run_sta(work, cfg, top):
    """Black-box the memories of work/sta_netlist.v, write the SDC and the Tcl script, run
    OpenSTA and parse its reports. Raises RuntimeError on any failure."""
    t0 = time.time()
    mems, open_pins = blackbox_memories(f"{work}/sta_netlist.v", f"{work}/sta_netlist_bb.v", f"{work}/sta_mem.lib")
    wl_name, _ = smallest_wire_load()
    with open(f"{work}/{top}.sdc", "w") as f:
        f.write(sdc_text(cfg))
    tcl = f"""# generated by scripts/synth.py
read_liberty {LIB}
read_liberty {work}/sta_mem.lib
read_verilog {work}/sta_netlist_bb.v
link_design {top}
set_wire_load_mode top
set_wire_load_model -name {wl_name} -library sg13g2_stdcell_typ_1p20V_25C
if {{[llength [get_ports -quiet {{{cfg['clock_port']}}}]] != 1}} {{
  puts "Error: clock port {cfg['clock_port']} not found on {top} (clock_port in synth/<block>/configs.json)"
}}
source {work}/{top}.sdc
puts "LL_STA_BEGIN_CHECKS"
report_checks -path_delay max -format full -digits 4 -group_count {STA_PATHS} -fields {{net}}
puts "LL_STA_END_CHECKS"
report_tns -digits 4
report_worst_slack -digits 4
puts "LL_STA_UNCLOCKED"
check_setup -verbose -unconstrained_endpoints
check_setup -verbose -no_clock
puts "LL_STA_DONE"
"""
    with open(f"{work}/sta.tcl", "w") as f:
        f.write(tcl)
    try:
        p = subprocess.run(["sta", "-no_init", "-no_splash", "-exit", f"{work}/sta.tcl"], cwd=work,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=1800)
    except FileNotFoundError:
        raise RuntimeError("OpenSTA (`sta`) is not installed: make deps (Debian package opensta)")
    except subprocess.TimeoutExpired:
        raise RuntimeError("sta did not finish in 30 minutes")
    out = p.stdout
    with open(f"{work}/sta.log", "w") as f:
        f.write(out)
    body = out.split("LL_STA_UNCLOCKED", 1)[0]
    bad = [ln for ln in body.splitlines()
           if (ln.startswith("Error") or ln.startswith("Warning") or "black box" in ln)
           and not any(b.fullmatch(ln) for b in STA_BENIGN)]
    if p.returncode or bad or "LL_STA_DONE" not in out:
        raise RuntimeError(f"sta failed (exit {p.returncode}; log {work}/sta.log):\n" + "\n".join((bad or out.splitlines())[-15:]))
    # unconstrained endpoints are allowed only where a constant drives them (tied outputs,
    # memory enables tied to 1): anything else (a register without the clock, a missed
    # port) fails
    tail = out.split("LL_STA_UNCLOCKED", 1)[-1].split("LL_STA_DONE")[0].splitlines()
    const_ok, unconstrained, other = constant_endpoints(f"{work}/sta_netlist_bb.v") | open_pins, [], []
    for ln in tail[1:]:
        if re.match(r"Warning: There (are|is) \d+ unconstrained endpoints?\.", ln):
            continue
        if ln.startswith("  ") and ln.strip():
            (unconstrained if ln.strip() in const_ok else other).append(ln.strip())
        elif ln.strip():
            other.append(ln.strip())
    if other:
        raise RuntimeError(f"sta: unconstrained endpoints or unclocked registers not driven by a constant "
                           f"(log {work}/sta.log):\n" + "\n".join(other[:10]))
    checks = out.split("LL_STA_BEGIN_CHECKS", 1)[1].split("LL_STA_END_CHECKS", 1)[0]
    paths = parse_paths(checks)
    tns = re.search(r"^tns (-?[0-9.]+)", out, re.M)
    ws = re.search(r"^worst slack (-?[0-9.]+)", out, re.M)
    if not paths or not tns or not ws:
        raise RuntimeError(f"sta: no timed path or no slack figures (log {work}/sta.log): is the clock port "
                           f"'{cfg['clock_port']}' right?")
    per = float(cfg["clock_ns"])
    wns = float(ws.group(1))
    if abs(wns - paths[0]["slack_ns"]) > 1e-3:
        raise RuntimeError(f"sta: worst slack {wns} differs from the worst path's slack {paths[0]['slack_ns']}")
    return {"clock_port": cfg["clock_port"], "clock_ns": per, "wire_load": wl_name,
            "wns_ns": round(wns, 4), "tns_ns": round(float(tns.group(1)), 4),
            "critical_ns": round(per - wns, 4), "fmax_mhz": round(1000.0 / (per - wns), 1),
            "paths": paths, "memories": mems, "constant_endpoints": len(unconstrained),
            "seconds": round(time.time() - t0, 1)}


def read_script(block, cfg):
    """Yosys commands that read a block's RTL with a configuration's parameters and make its
    top the design top (shared by every flow that synthesises a configuration)."""
    top = cfg["top"]
    files = " ".join(rtl_files(block, top))
    return (f"read_verilog -sv -noautowire -DSYNTHESIS {files}\n{chparams(cfg['params'], top)}"
            f"hierarchy -check -top {top}\nrename -top {top}\n")


def gate_script(top, work, generic_rtlil=None, asic_rtlil=None):
    """Yosys commands from the read design to the IHP SG13G2 netlist: generic synthesis with
    memories kept (`memory -nomap`), then dfflibmap + abc -liberty, then buffer trees on
    high-fanout nets (scripts/fanout_buf.py, a round trip through Yosys JSON) and the strong
    flip-flop cell where one drives many pins (scripts/ff_drive.py). Writes work/abc.script.
    generic_rtlil / asic_rtlil: also write the generic-gate / SG13G2 netlist as RTLIL there
    (scripts/equiv.py proves both against the RTL)."""
    abc_script = os.path.join(work, "abc.script")
    with open(abc_script, "w") as f:
        f.write(ABC_RECIPES[ABC_RECIPE])
    dump_generic = f"write_rtlil {generic_rtlil}\n" if generic_rtlil else ""
    dump_asic = f"write_rtlil {asic_rtlil}\n" if asic_rtlil else ""
    return f"""synth -top {top} -flatten -run begin:fine
tee -q -o {work}/mems.txt dump t:$mem_v2 t:$mem
opt -fast -full
opt -full
techmap
opt -fast
abc -fast
opt -fast
check -assert
tee -q -o {work}/generic.txt stat
{dump_generic}dfflibmap -liberty {LIB}
abc -D {ABC_TARGET_PS} -liberty {LIB} -script {abc_script}
opt_clean
rename -enumerate -pattern {ff_drive.FF_PATTERN} t:{ff_drive.FF_CELL}
write_json {work}/fo_netlist.json
exec -expect-return 0 -- {sys.executable} {os.path.join(ROOT, "scripts", "fanout_buf.py")} --liberty {LIB} {work}/fo_netlist.json {work}/fo_buffered.json
design -reset
read_json {work}/fo_buffered.json
write_json {work}/ff_netlist.json
exec -expect-return 0 -- {sys.executable} {os.path.join(ROOT, "scripts", "ff_drive.py")} --liberty {LIB} {work}/ff_netlist.json {work}/ff_drive.ys
script {work}/ff_drive.ys
tee -q -o {work}/asic.txt stat -liberty {LIB}
{dump_asic}"""


# ---------------------------------------------------------------------------------------
# Area breakdown: by kind (flat netlist) and by submodule (a hierarchical run)

_LIB_CELLS = None


def lib_cells(lib_path=LIB):
    """{cell: (area um^2, sequential)} of the Liberty (sequential: it has an ff or latch group)."""
    global _LIB_CELLS
    if _LIB_CELLS is None:
        cells = {}
        for name, group in liberty.cell_groups(lib_path).items():
            area = re.match(r"\s*\{\s*area\s*:\s*([0-9.]+)", group)
            if area:
                cells[name] = (float(area.group(1)), bool(re.search(r"\b(ff|latch|ff_bank|latch_bank)\s*\(", group)))
        _LIB_CELLS = cells
    return _LIB_CELLS


def chip_area(text):
    """The first "Chip area" figure (um^2) of a Yosys `stat -liberty` text, 0.0 if it has none."""
    m = re.search(r"Chip area for (?:top )?module '[^']*':\s*([0-9.]+)", text)
    return float(m.group(1)) if m else 0.0


def parse_stat_modules(text):
    """Per module of a Yosys `stat -liberty` log: {module: {"cells": {type: n}, "area": um^2}}."""
    mods = {}
    for blk in re.split(r"\n=== ", "\n" + text)[1:]:
        name = blk.split(" ===", 1)[0].strip()
        cells = {m.group(1): int(m.group(2)) for m in re.finditer(r"^\s{5,}(\S+)\s+(\d+)\s*$", blk, re.M)}
        mods[name] = {"cells": cells, "area": chip_area(blk)}
    return mods


def kind_areas(cells):
    """(flip-flop um^2, combinational um^2, flip-flop count) of a {lib cell: count} map."""
    lc = lib_cells()
    ff = comb = 0.0
    nff = 0
    for c, n in cells.items():
        if c not in lc:
            continue
        area, seq = lc[c]
        if seq:
            ff += area * n
            nff += n
        else:
            comb += area * n
    return ff, comb, nff


def register_group(net):
    """The register row a flip-flop's Q net belongs to: bits of a bus, instances of a
    generate loop and elements of an array folded into [*]; Yosys's own names in one row."""
    reg = re.sub(r"\[\d+\]", "[*]", sta_endpoints.register_of(net))
    return "(nets without an RTL name)" if re.fullmatch(r"_\d+_|\?", reg) else reg


def ff_registers(work):
    """The flat SG13G2 netlist's flip-flops grouped by register: the net each one's Q drives
    (an RTL register's name where Yosys kept one; the bits of a bus together, and the
    instances of a generate loop or the elements of an array together, their index shown
    as [*]), with their area. Memories are black boxes in that netlist, so their bits are
    not among them."""
    lc = lib_cells()
    nand2 = nand2_area()
    groups = {}
    for cell, net in sta_endpoints.ff_cells(os.path.join(work, "sta_netlist.v")).values():
        reg = register_group(net)
        n, area = groups.get(reg, (0, 0.0))
        groups[reg] = (n + 1, area + lc[cell][0])
    rows = sorted(({"register": k, "ffs": n, "nand2_eq": round(a / nand2)} for k, (n, a) in groups.items()),
                  key=lambda x: (-x["nand2_eq"], x["register"]))
    return {"registers": len(rows), "ffs": sum(x["ffs"] for x in rows),
            "nand2_eq": sum(x["nand2_eq"] for x in rows), "rows": rows[:FF_ROWS]}


def memory_estimate(width, depth, read_ports):
    """(model, um^2) of one memory (see the SRAM_* / RF_* constants)."""
    bits = width * depth
    if bits <= FLOP_RAM_BITS:
        lc = lib_cells()
        per_bit = sum(lc[c][0] for c in RF_BIT_CELLS) + lc["sg13g2_mux2_1"][0] * max(1, read_ports)
        return "flip-flop register file", bits * per_bit
    macro, _, per_bit = sram_class(depth)
    return f"SRAM ({macro} density)", bits * per_bit


def macc_products(cell_text):
    """Multiplier terms (a_width, b_width) of a dumped $macc cell (Yosys 0.23 CONFIG encoding:
    4 bits of field width, then per port: signed, subtract, size A, size B; LSB first)."""
    cw = re.search(r"parameter \\CONFIG_WIDTH (\d+)", cell_text)
    cf = re.search(r"parameter \\CONFIG (\d+)'([01]+)", cell_text)
    if not cw or not cf:
        return []
    bits = cf.group(2)[::-1]  # index 0 = LSB
    n = int(cw.group(1))

    def take(cur, k):
        return sum(1 << i for i in range(k) if cur + i < len(bits) and bits[cur + i] == "1"), cur + k
    nb, cur = take(0, 4)
    out = []
    while cur < n and nb:
        cur += 2
        a, cur = take(cur, nb)
        b, cur = take(cur, nb)
        if a > 1 and b > 1:
            out.append((a, b))
    return out


def parse_dump_modules(text):
    """{module: [(cell type, cell name, cell text)]} of a Yosys `dump` of selected cells."""
    mods, cur = {}, None
    for blk in re.split(r"\n(?=\s*(?:module|cell) )", "\n" + text):
        m = re.match(r"\s*module (\S+)", blk)
        if m:
            cur = m.group(1).lstrip("\\")
            mods.setdefault(cur, [])
            continue
        m = re.match(r"\s*cell (\S+) (\S+)", blk)
        if m and cur is not None:
            mods[cur].append((m.group(1), m.group(2), blk))
    return mods


def pretty_module(name):
    """A readable name of a Yosys (possibly parameterised) module name."""
    name = name.lstrip("\\")
    if name.startswith("$paramod"):
        parts = name.split("\\")
        base = parts[1] if len(parts) > 1 else name
        return base
    return name


def hier_script(block, cfg, work):
    top = cfg["top"]
    return read_script(block, cfg) + f"""synth -top {top} -run begin:fine
tee -q -o {work}/hier_cells.txt dump t:$mem_v2 t:$mem t:$macc t:$mul
opt -fast -full
opt -full
techmap
opt -fast
abc -fast
opt -fast
dfflibmap -liberty {LIB}
abc -D {ABC_TARGET_PS} -liberty {LIB}
opt_clean
tee -q -o {work}/hier_stat.txt stat -liberty {LIB}
delete t:sg13g2_* t:$mem_v2 t:$mem
write_json {work}/hier_tree.json
"""


def run_breakdown(block, cfg, work, flat_cells, mems, sta_mems):
    """Area by kind (from the flat SG13G2 netlist's cell counts) and by submodule (a
    hierarchical SG13G2 mapping: same passes without -flatten, ABC per module)."""
    top = cfg["top"]
    hier = os.path.join(work, "hier.ys")
    with open(hier, "w") as f:
        f.write(hier_script(block, cfg, work))
    yosys(hier, os.path.join(work, "hier.log"), work)
    stat = parse_stat_modules(open(f"{work}/hier_stat.txt").read())
    dump = parse_dump_modules(open(f"{work}/hier_cells.txt").read())
    tree = json.load(open(f"{work}/hier_tree.json"))["modules"]
    tree = {k.lstrip("\\"): v for k, v in tree.items()}
    stat = {k.lstrip("\\"): v for k, v in stat.items()}
    nand2 = nand2_area()
    rdp = {m["name"]: m["read_ports"] for m in sta_mems}

    def own(mod):
        st = stat.get(mod, {"cells": {}, "area": 0.0})
        ff, comb, nff = kind_areas(st["cells"])
        membits, mult = 0, []
        for typ, _, txt in dump.get(mod, []):
            if typ in ("$mem_v2", "$mem"):
                w = re.search(r"parameter \\WIDTH (\d+)", txt)
                sz = re.search(r"parameter \\SIZE (\d+)", txt)
                if w and sz:
                    membits += int(w.group(1)) * int(sz.group(1))
            elif typ == "$macc":
                mult += macc_products(txt)
            elif typ == "$mul":
                a = re.search(r"parameter \\A_WIDTH (\d+)", txt)
                b = re.search(r"parameter \\B_WIDTH (\d+)", txt)
                if a and b:
                    mult.append((int(a.group(1)), int(b.group(1))))
        return {"area": ff + comb, "ff_area": ff, "ffs": nff, "memory_bits": membits, "multipliers": mult}

    rows = []

    def walk(mod, path, depth):
        o = own(mod)
        tot = dict(o, multipliers=list(o["multipliers"]))
        kids = []
        for iname, c in sorted((tree.get(mod) or {}).get("cells", {}).items()):
            t = c["type"].lstrip("\\")
            if t in tree:
                sub = walk(t, f"{path}/{iname.lstrip(chr(92))}" if path else iname.lstrip("\\"), depth + 1)
                kids.append(sub)
                for k in ("area", "ff_area", "ffs", "memory_bits"):
                    tot[k] += sub[k]
                tot["multipliers"] += sub["multipliers"]
        tot["module"] = pretty_module(mod)
        pv = (tree.get(mod) or {}).get("parameter_default_values") or {}
        if mod.startswith("$paramod") and pv:
            tot["module"] += " (" + ", ".join(f"{k}={int(v, 2) if re.fullmatch('[01]+', str(v)) else v}"
                                              for k, v in pv.items()) + ")"
        tot["path"] = path
        tot["depth"] = depth
        rows.append(tot)
        if kids and path is not None:
            rows.append({"module": "(glue logic of this level)", "path": (path or top) + "/.", "depth": depth + 1,
                         "area": o["area"], "ff_area": o["ff_area"], "ffs": o["ffs"],
                         "memory_bits": o["memory_bits"], "multipliers": o["multipliers"], "glue": True})
        return tot

    total = walk(top, "", 0)
    subs = []
    for rw in rows:
        if rw["depth"] == 0:
            continue
        subs.append({"path": rw["path"] if not rw.get("glue") else rw["path"], "module": rw["module"],
                     "depth": rw["depth"], "nand2_eq": round(rw["area"] / nand2),
                     "ff_nand2_eq": round(rw["ff_area"] / nand2), "ffs": rw["ffs"],
                     "memory_bits": rw["memory_bits"],
                     "multipliers": [f"{a}x{b}" for a, b in rw["multipliers"]]})
    ff, comb, nff = kind_areas(flat_cells)
    mem_rows, mem_area = [], 0.0
    for m in mems:
        model, a = memory_estimate(m["width"], m["depth"], rdp.get(m["name"], 1))
        mem_rows.append({"name": m["name"], "bits": m["bits"], "model": model, "um2": round(a, 1),
                         "nand2_eq": round(a / nand2)})
        mem_area += a
    logic = ff + comb
    return {
        "hier_nand2_eq": round(total["area"] / nand2),
        "submodules": subs,
        "kinds": {"ff_um2": round(ff, 1), "ff_nand2_eq": round(ff / nand2), "ffs": nff,
                  "comb_um2": round(comb, 1), "comb_nand2_eq": round(comb / nand2),
                  "logic_um2": round(logic, 1), "logic_nand2_eq": round(logic / nand2),
                  "memory_bits": sum(m["bits"] for m in mems),
                  "memory_um2": round(mem_area, 1), "memory_nand2_eq": round(mem_area / nand2),
                  "total_um2": round(logic + mem_area, 1), "total_nand2_eq": round((logic + mem_area) / nand2),
                  "multipliers": [f"{a}x{b}" for a, b in total["multipliers"]]},
        "memories_est": mem_rows,
    }


def run_config(block, spec, cfg, out_dir):
    name = cfg["name"]
    top = cfg["top"]
    work = os.path.join(out_dir, "work", block, name)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    files = " ".join(rtl_files(block, top))
    read = read_script(block, cfg)
    t0 = time.time()
    r = {"block": block, "config": name, "top": top, "params": cfg["params"]}

    # 1 + 2: generic and IHP SG13G2
    asic = os.path.join(work, "asic.ys")
    with open(asic, "w") as f:
        f.write(read + gate_script(top, work) + f"""chtype -set LL_STA_MEM t:$mem_v2
opt_clean -purge
splitnets -ports
opt_clean -purge
write_verilog -noattr {work}/sta_netlist.v
""")
    log = yosys(asic, os.path.join(work, "asic.log"), work)
    total, cells = parse_stat_cells(open(f"{work}/generic.txt").read())
    r["generic_cells"] = total
    r["generic_ffs"] = sum(n for c, n in cells.items() if "DFF" in c.upper())
    mem_bits, mems = 0, []
    memtext = open(f"{work}/mems.txt").read()
    for cell in re.split(r"\n\s*cell ", memtext)[1:]:
        w = re.search(r"parameter \\WIDTH (\d+)", cell)
        s = re.search(r"parameter \\SIZE (\d+)", cell)
        n = re.search(r"\\MEMID \"\\\\?([^\"]+)\"", cell)
        if w and s:
            bits = int(w.group(1)) * int(s.group(1))
            mem_bits += bits
            mems.append({"name": n.group(1) if n else "?", "width": int(w.group(1)),
                         "depth": int(s.group(1)), "bits": bits})
    r["memories"] = mems
    r["memory_bits"] = mem_bits
    at = open(f"{work}/asic.txt").read()
    r["area_um2"] = chip_area(at)
    r["nand2_eq"] = round(r["area_um2"] / nand2_area())
    d = re.findall(r"Delay\s*=\s*([0-9.]+)\s*ps", log)
    r["abc_delay_ps"] = float(d[-1]) if d else None
    if r["generic_cells"] == 0 or r["area_um2"] <= 0:
        raise RuntimeError(f"{block}/{name}: synthesis produced no logic")

    # 2b: static timing of the SG13G2 netlist
    r["sta"] = run_sta(work, cfg, top)

    # 2c: area by kind (flat netlist) and by submodule (hierarchical mapping), memory estimate
    _, flat_cells = parse_stat_cells(at)
    r["breakdown"] = run_breakdown(block, cfg, work, flat_cells, mems, r["sta"]["memories"])
    r["breakdown"]["ff_registers"] = ff_registers(work)

    # 3: Xilinx 7-series
    xil = os.path.join(work, "xilinx.ys")
    with open(xil, "w") as f:
        f.write(read + f"synth_xilinx -family xc7 -noiopad -top {top} -flatten\ntee -q -o {work}/xilinx.txt stat -tech xilinx\n")
    yosys(xil, os.path.join(work, "xilinx.log"), work)
    _, xc = parse_stat_cells(open(f"{work}/xilinx.txt").read())
    r["xc7_lut"] = sum(n for c, n in xc.items() if re.fullmatch(r"LUT\d", c))
    r["xc7_ff"] = sum(n for c, n in xc.items() if re.fullmatch(r"FD[A-Z]*", c))
    r["xc7_dsp"] = sum(n for c, n in xc.items() if c.startswith("DSP48"))
    r["xc7_bram"] = sum(n for c, n in xc.items() if c.startswith("RAMB"))
    r["xc7_lutram"] = sum(n for c, n in xc.items() if re.fullmatch(r"RAM\d+[MXSD].*", c))

    # 4: iCE40 HX8K, placed and routed
    r["ice40_lc"] = r["ice40_fmax_mhz"] = None
    if cfg.get("ice40", True):
        ports = port_list(read, top, work)
        wrap = os.path.join(work, "ll_synth_wrap.v")
        with open(wrap, "w") as f:
            f.write(wrapper(top, cfg["params"], ports))
        ice = os.path.join(work, "ice40.ys")
        with open(ice, "w") as f:
            f.write(f"read_verilog -sv -noautowire -DSYNTHESIS {files} {wrap}\n"
                    f"hierarchy -check -top ll_synth_wrap\n"
                    f"synth_ice40 -top ll_synth_wrap -json {work}/ice40.json\n")
        yosys(ice, os.path.join(work, "ice40.log"), work)
        p = subprocess.run(pnr_args(work, 1), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if p.returncode or not os.path.exists(f"{work}/pnr.json"):
            r["ice40_note"] = "did not place and route on HX8K: " + p.stdout.strip().splitlines()[-1][:120] if p.stdout.strip() else "nextpnr failed"
        else:
            rep = json.load(open(f"{work}/pnr.json"))
            r["ice40_lc"] = rep["utilization"]["ICESTORM_LC"]["used"]
            r["ice40_ram"] = rep["utilization"].get("ICESTORM_RAM", {}).get("used", 0)
            r["ice40_fmax_mhz"] = pnr_fmax(rep)
            # the area and timing targets judge iCE40 on the median of seeds 1-3 ("ice40_seeds" in
            # configs.json); seed 1 stays the budgeted figure
            seeds = [int(x) for x in cfg.get("ice40_seeds", [1])]
            per_seed = {1: r["ice40_fmax_mhz"]}
            # the other seeds side by side (each run is deterministic for its seed; in the
            # smoke stage the other configurations are done by then, so the second core is free)
            for sd in seeds:
                if sd != 1 and os.path.exists(f"{work}/pnr_s{sd}.json"):
                    os.remove(f"{work}/pnr_s{sd}.json")
            procs = {sd: subprocess.Popen(pnr_args(work, sd), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                     for sd in seeds if sd != 1}
            for sd, q in procs.items():
                if q.wait() or not os.path.exists(f"{work}/pnr_s{sd}.json"):
                    raise RuntimeError(f"nextpnr-ice40 seed {sd} failed (log {work}/pnr_s{sd}.log)")
                per_seed[sd] = pnr_fmax(json.load(open(f"{work}/pnr_s{sd}.json")))
            if len(seeds) > 1 and None not in per_seed.values():
                vals = sorted(per_seed[sd] for sd in seeds)
                r["ice40_fmax_seeds"] = {str(sd): per_seed[sd] for sd in seeds}
                r["ice40_fmax_median_mhz"] = vals[len(vals) // 2]
    r["seconds"] = round(time.time() - t0, 1)
    return r


def pnr_args(work, seed):
    """nextpnr-ice40 on the HX8K for one seed; seed 1 writes ice40.asc / pnr.json / pnr.log,
    seed n the same names with _s<n>."""
    sfx = "" if seed == 1 else f"_s{seed}"
    return ["nextpnr-ice40", "--hx8k", "--package", "ct256", "--seed", str(seed),
            "--json", f"{work}/ice40.json", "--asc", f"{work}/ice40{sfx}.asc",
            "--freq", "200", "--report", f"{work}/pnr{sfx}.json",
            "--pcf-allow-unconstrained", "--timing-allow-fail", "-q", "--log", f"{work}/pnr{sfx}.log"]


def pnr_fmax(report):
    """The clock's achieved Fmax (MHz, one decimal) of a nextpnr --report, None without one."""
    clk = next((v for k, v in report.get("fmax", {}).items() if "clk" in k), None)
    return round(clk["achieved"], 1) if clk else None


def port_list(read, top, work):
    ys = os.path.join(work, "ports.ys")
    with open(ys, "w") as f:
        f.write(read + f"proc\nwrite_json {work}/ports.json\n")
    yosys(ys, os.path.join(work, "ports.log"), work)
    mod = json.load(open(f"{work}/ports.json"))["modules"][top]
    return [(n, p["direction"], len(p["bits"])) for n, p in mod["ports"].items()]


def wrapper(top, params, ports):
    """Registers around the block; inputs and outputs go through serial shift chains so
    the design fits the HX8K's pins and the pads do not dominate the timing."""
    ins = [(n, w) for n, d, w in ports if d == "input" and n != "clk_i"]
    outs = [(n, w) for n, d, w in ports if d == "output"]
    ni = sum(w for _, w in ins)
    no = sum(w for _, w in outs)
    lines = ["// generated by scripts/synth.py: registers and shift chains around the block",
             "`default_nettype none",
             "module ll_synth_wrap (input wire clk, input wire sin, input wire load, output wire sout);",
             f"  reg [{ni}:0] ish;", f"  reg [{ni - 1}:0] ireg;", f"  wire [{no - 1}:0] dout;",
             f"  reg [{no - 1}:0] oreg;", f"  reg [{no}:0] osh;",
             f"  always @(posedge clk) ish <= {{ish[{ni - 1}:0], sin}};",
             f"  always @(posedge clk) if (load) ireg <= ish[{ni - 1}:0];",
             "  always @(posedge clk) oreg <= dout;",
             f"  always @(posedge clk) osh <= load ? {{1'b0, oreg}} : {{osh[{no - 1}:0], 1'b0}};",
             f"  assign sout = osh[{no}] ^ ish[{ni}];"]
    pstr = ", ".join(f".{k}({v})" for k, v in params.items())
    conns = [".clk_i(clk)"]
    lo = 0
    for n, w in ins:
        conns.append(f".{n}(ireg[{lo + w - 1}:{lo}])")
        lo += w
    lo = 0
    for n, w in outs:
        conns.append(f".{n}(dout[{lo + w - 1}:{lo}])")
        lo += w
    lines.append(f"  {top} #({pstr}) u_dut ({', '.join(conns)});")
    lines += ["endmodule", "`default_nettype wire", ""]
    return "\n".join(lines)


def fmt(v, nd=0):
    if v is None:
        return "n/a"
    return f"{v:,.{nd}f}" if isinstance(v, float) else f"{v:,}"


def sta_summary(r):
    """(WNS ns, critical ns, Fmax MHz) of a report, None when it has no STA figures."""
    st = r.get("sta")
    if not st:
        return None, None, None
    return st["wns_ns"], st["critical_ns"], st["fmax_mhz"]


def write_report(r, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    base = os.path.join(out_dir, r["config"])
    with open(base + ".json", "w") as f:
        json.dump(r, f, indent=2, sort_keys=True)
        f.write("\n")
    params = ", ".join(f"{k}={v}" for k, v in r["params"].items())
    mem = "; ".join(f"{m['name']} {m['depth']}x{m['width']} = {m['bits']} bits" for m in r["memories"]) or "none"
    st = r.get("sta")
    with open(base + ".md", "w") as f:
        f.write(f"""# {r['block']} / {r['config']}

Generated by `make synth` (scripts/synth.py); do not edit.

Top `{r['top']}`, parameters: {params}

| metric | value |
| --- | --- |
| Yosys generic cells (memories kept) | {fmt(r['generic_cells'])} (of which flip-flops {fmt(r['generic_ffs'])}) |
| memories (`memory -nomap`) | {mem} |
| memory bits | {fmt(r['memory_bits'])} |
| IHP SG13G2 logic area | {fmt(r['area_um2'], 1)} um^2 |
| NAND2 equivalents | {fmt(r['nand2_eq'])} |
| ABC delay estimate (longest reg-to-reg logic) | {fmt(r['abc_delay_ps'], 0)} ps |
""")
        if st:
            f.write(f"| STA worst slack (WNS) / TNS at {st['clock_ns']:.2f} ns | {st['wns_ns']:.3f} ns / {st['tns_ns']:.3f} ns |\n"
                    f"| STA critical path (period - WNS) / ASIC Fmax | {st['critical_ns']:.3f} ns / {st['fmax_mhz']:.1f} MHz |\n")
        f.write(f"""| Xilinx 7-series LUT / FF / DSP / BRAM / LUTRAM | {r['xc7_lut']} / {r['xc7_ff']} / {r['xc7_dsp']} / {r['xc7_bram']} / {r['xc7_lutram']} |
| iCE40 HX8K logic cells (with wrapper) | {fmt(r.get('ice40_lc'))} |
| iCE40 HX8K Fmax (nextpnr, seed 1) | {fmt(r.get('ice40_fmax_mhz'), 1)} MHz |
""")
        if r.get("ice40_fmax_seeds"):
            f.write(f"| iCE40 HX8K Fmax, median of seeds {', '.join(r['ice40_fmax_seeds'])} | "
                    f"{fmt(r['ice40_fmax_median_mhz'], 1)} MHz (seeds: "
                    f"{', '.join(fmt(v, 1) for v in r['ice40_fmax_seeds'].values())}) |\n")
        if r.get("ice40_note"):
            f.write(f"\niCE40: {r['ice40_note']}\n")
        bd = r.get("breakdown")
        if bd:
            k = bd["kinds"]
            mul = ", ".join(k["multipliers"]) or "none"
            f.write(f"""
## Area breakdown

By kind (the flat SG13G2 netlist above; "logic" = everything but memories, flip-flops
included; memories estimated, see below):

| kind | NAND2-eq | um^2 | share of total |
| --- | ---: | ---: | ---: |
| flip-flops ({fmt(k['ffs'])} cells) | {fmt(k['ff_nand2_eq'])} | {fmt(k['ff_um2'], 0)} | {100.0 * k['ff_um2'] / max(k['total_um2'], 1e-9):.1f}% |
| combinational logic | {fmt(k['comb_nand2_eq'])} | {fmt(k['comb_um2'], 0)} | {100.0 * k['comb_um2'] / max(k['total_um2'], 1e-9):.1f}% |
| **logic** (flip-flops + combinational) | **{fmt(k['logic_nand2_eq'])}** | {fmt(k['logic_um2'], 0)} | {100.0 * k['logic_um2'] / max(k['total_um2'], 1e-9):.1f}% |
| memories ({fmt(k['memory_bits'])} bits, estimated) | {fmt(k['memory_nand2_eq'])} | {fmt(k['memory_um2'], 0)} | {100.0 * k['memory_um2'] / max(k['total_um2'], 1e-9):.1f}% |
| **total** | **{fmt(k['total_nand2_eq'])}** | {fmt(k['total_um2'], 0)} | 100% |

Multipliers (operand widths, from Yosys `$mul` / `$macc` before mapping): {mul}.

""")
            if bd["memories_est"]:
                classes = "; ".join(
                    f"{'above' if w is None else f'up to {w:,} words'}: {m} ({um2 / b:.2f} um^2 per bit)"
                    for w, m, _, um2, b in SRAM_CLASSES)
                f.write(f"Memory area estimate: up to {FLOP_RAM_BITS:,} bits a flip-flop register file "
                        f"(per bit one sg13g2_dfrbp_1, one sg13g2_mux2_1 to write or hold and one "
                        f"sg13g2_mux2_1 of read tree per read port), above it the density of the IHP "
                        f"SG13G2 two-port SRAM macro of the memory's depth class, from the cell area "
                        f"of its typical-corner Liberty in the IHP Open PDK ({classes}).\n\n"
                        "| memory | bits | model | um^2 | NAND2-eq |\n| --- | ---: | --- | ---: | ---: |\n")
                for m in bd["memories_est"]:
                    f.write(f"| {m['name']} | {fmt(m['bits'])} | {m['model']} | {fmt(m['um2'], 0)} | {fmt(m['nand2_eq'])} |\n")
                f.write("\n")
            subs = [s for s in bd["submodules"] if s["depth"] <= 2]
            keep = sorted(subs, key=lambda s: -s["nand2_eq"])[:BREAKDOWN_ROWS]
            keep = sorted(keep, key=lambda s: s["path"])
            f.write(f"""By submodule (a hierarchical SG13G2 mapping of the same RTL: the same passes without
`-flatten`, ABC per module, so no optimisation across module boundaries; its logic total
{fmt(bd['hier_nand2_eq'])} NAND2-eq against {fmt(r['nand2_eq'])} flat). Instances to depth 2, each row
includes its sub-instances; "." is the logic of that level outside its sub-instances; largest
{BREAKDOWN_ROWS} rows:

| instance | module | logic NAND2-eq | share | of which flip-flops | memory bits | multipliers |
| --- | --- | ---: | ---: | ---: | ---: | --- |
""")
            for s in keep:
                share = 100.0 * s["nand2_eq"] / max(bd["hier_nand2_eq"], 1)
                f.write(f"| {s['path']} | {s['module']} | {fmt(s['nand2_eq'])} | {share:.1f}% | "
                        f"{fmt(s['ff_nand2_eq'])} ({fmt(s['ffs'])}) | {fmt(s['memory_bits'])} | "
                        f"{', '.join(s['multipliers']) or '-'} |\n")
            fr = bd.get("ff_registers")
            if fr:
                f.write(f"""
By register (the flat netlist's {fmt(fr['ffs'])} flip-flops grouped by the net each one drives:
an RTL register's name where Yosys kept one, the bits of a bus together, the instances of a
generate loop or the elements of an array together as [*]; memories are not among them),
the largest {len(fr['rows'])} of {fmt(fr['registers'])} by area:

| register | flip-flops | NAND2-eq | share of logic |
| --- | ---: | ---: | ---: |
""")
                for x in fr["rows"]:
                    f.write(f"| {x['register']} | {fmt(x['ffs'])} | {fmt(x['nand2_eq'])} | "
                            f"{100.0 * x['nand2_eq'] / max(r['nand2_eq'], 1):.1f}% |\n")
        if st:
            f.write(f"""
## Static timing (OpenSTA)

Netlist: the IHP SG13G2 netlist above (`write_verilog -noattr`), Liberty
`synth/techlib/sg13g2_stdcell_typ_1p20V_25C.lib` (typical corner, 1.20 V, 25 C), wire-load
model `{st['wire_load']}` (the Liberty's smallest; mode top), ideal clock `{st['clock_port']}` at
{st['clock_ns']:.2f} ns ({1000.0 / st['clock_ns']:.0f} MHz). Registered I/O by constraint: inputs
arrive {IO_IN_DELAY_NS} ns after the edge, outputs are due {IO_OUT_DELAY_NS} ns before it into
{IO_LOAD_PF} pF. Endpoints not timed because a constant drives them or they are a memory's
repeated write-enable pins (left open: one enable per port): {st['constant_endpoints']}.

Memories are black boxes with stated timing (`$mem` cannot be timed):
""")
            if st["memories"]:
                f.write("\n| memory | words x bits | ports | model | clock -> read data | setup |\n| --- | ---: | --- | --- | ---: | ---: |\n")
                for m in st["memories"]:
                    rd = f"{m['read_ports']}R{m['write_ports']}W" + (" (async read)" if m["async_read"] else "")
                    f.write(f"| {m['name']} | {m['depth']} x {m['width']} | {rd} | {m['class']} | {m['access_ns']:.2f} ns | {m['setup_ns']:.2f} ns |\n")
            else:
                f.write("\n(no memories)\n")
            f.write("\nWorst paths (`report_checks -group_count 3`; stages = cells between the launching "
                    "register or port and the endpoint):\n\n"
                    "| slack ns | arrival ns | start (launch net) | end | stages | largest fanout on the path |\n"
                    "| ---: | ---: | --- | --- | ---: | --- |\n")
            for pth in st["paths"]:
                f.write(f"| {pth['slack_ns']:.3f} | {pth['arrival_ns']:.3f} | {pth['start']} ({pth['start_net']}) | "
                        f"{pth['end_pin']} | {pth['stages']} | {pth['max_fanout']} ({pth['max_fanout_net']}) |\n")
            first = (st["paths"][0].get("stage_list") or []) if st["paths"] else []
            for i, pth in enumerate(st["paths"], 1):
                sl = pth.get("stage_list") or []
                if not sl:
                    continue
                same = 0
                if i > 1:
                    while same < min(len(sl), len(first)) - 1 and sl[same]["pin"] == first[same]["pin"]:
                        same += 1
                f.write(f"\nPath {i} stages ({pth['start']} -> {pth['end_pin']}; arrival ns, cell delay, cell, "
                        "output pin, net driven and its fanout; RTL net names appear where Yosys kept them)"
                        + (f"; its first {same} stages are those of path 1" if same else "") + ":\n\n```\n")
                for stg in sl[same:]:
                    net = f"{stg['net']} (fanout {stg['fanout']})" if stg["net"] else ""
                    tag = {"launch": "launch ", "end": "end    "}.get(stg["kind"], "       ")
                    f.write(f"{tag}{stg['arrival_ns']:7.3f} {stg['delay_ns']:+.3f}  {stg['cell']:<18} {stg['pin']:<28} {net}\n")
                f.write("```\n")


def table(results):
    rows = ["| block | config | NAND2-eq | area um^2 | memory bits | memory NAND2-eq (est.) | total NAND2-eq | ABC delay ps | STA path ps | STA WNS ns @ clock | ASIC Fmax MHz (STA) | xc7 LUT / FF / DSP | iCE40 LC | iCE40 Fmax MHz |",
            "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |"]
    for r in results:
        wns, crit, fmax = sta_summary(r)
        wcol = "n/a" if wns is None else f"{wns:.3f} @ {r['sta']['clock_ns']:g}"
        k = (r.get("breakdown") or {}).get("kinds") or {}
        rows.append(f"| {r['block']} | {r['config']} | {fmt(r['nand2_eq'])} | {fmt(r['area_um2'], 0)} | "
                    f"{fmt(r['memory_bits'])} | {fmt(k.get('memory_nand2_eq'))} | {fmt(k.get('total_nand2_eq'))} | "
                    f"{fmt(r['abc_delay_ps'], 0)} | {fmt(None if crit is None else crit * 1000.0, 0)} | "
                    f"{wcol} | {fmt(fmax, 1)} | {r['xc7_lut']} / {r['xc7_ff']} / {r['xc7_dsp']} | "
                    f"{fmt(r.get('ice40_lc'))} | {fmt(r.get('ice40_fmax_mhz'), 1)} |")
    return "\n".join(rows)


# ---------------------------------------------------------------------------------------
# Area and timing targets: synth/targets.json, README table between the synth-targets markers

TARGETS = os.path.join(ROOT, "synth", "targets.json")


def target_value(t, reports):
    """(value, config) of one target over the committed reports: the worst configuration
    for critical_ns / nand2_eq, the lowest for ice40_median_mhz; (None, why) when missing."""
    import fnmatch
    keys = {f"{r['block']}/{r['config']}": r for r in reports}
    sel = [k for k in keys if any(fnmatch.fnmatchcase(k, pat) for pat in t["configs"])]
    vals = []
    for k in sel:
        r = keys[k]
        if t["metric"] == "critical_ns":
            v = (r.get("sta") or {}).get("critical_ns")
        elif t["metric"] == "nand2_eq":
            v = r.get("nand2_eq")
        elif t["metric"] == "ice40_median_mhz":
            v = r.get("ice40_fmax_median_mhz")
            if v is None and r.get("ice40_fmax_mhz") is not None:
                v = r["ice40_fmax_mhz"]  # a report from before ice40_seeds: seed 1
                k = f"{k} (seed 1 only)"
        else:
            die(f"{TARGETS}: unknown metric {t['metric']}")
        if v is not None:
            vals.append((v, k))
    if not vals:
        return None, "no report with the figure yet"
    return (min(vals) if t["op"] == ">=" else max(vals))


def target_fmt(metric, v):
    if v is None:
        return "n/a"
    return {"critical_ns": f"{v:.2f} ns", "nand2_eq": f"{v:,} NAND2-eq",
            "ice40_median_mhz": f"{v:.1f} MHz"}[metric]


def targets_table(reports):
    if not os.path.exists(TARGETS):
        return None
    spec = json.load(open(TARGETS))
    rows = ["| target | figure when set | before (branch start) | now (`make synth`) | worst configuration now | target | met |",
            "| --- | ---: | ---: | ---: | --- | ---: | :---: |"]
    for t in spec["targets"]:
        v, where = target_value(t, reports)
        tgt = f"{t['op']} {target_fmt(t['metric'], t['target'])}"
        met = "n/a" if v is None else ("yes" if (v <= t["target"] if t["op"] == "<=" else v >= t["target"]) else "no")
        rows.append(f"| {t['what']} | {t.get('issue', '-')} | {t.get('before', '-')} | {target_fmt(t['metric'], v)} | "
                    f"{where} | {tgt} | {met} |")
    return "\n".join(rows)


def update_readme(results):
    if not os.path.exists(README):
        return
    text = open(README).read()
    a, b = "<!-- synth-table:begin -->", "<!-- synth-table:end -->"
    if a not in text or b not in text:
        print("synth: README.md has no synth-table markers; table not written", file=sys.stderr)
        return
    new = text[:text.index(a) + len(a)] + "\n" + table(results) + "\n" + text[text.index(b):]
    ta, tb = "<!-- synth-targets:begin -->", "<!-- synth-targets:end -->"
    tt = targets_table(results)
    if tt is not None and ta in new and tb in new:
        new = new[:new.index(ta) + len(ta)] + "\n" + tt + "\n" + new[new.index(tb):]
    with open(README, "w") as f:
        f.write(new)


# ---------------------------------------------------------------------------------------
# Budgets: synth/baseline.json

def baseline_entry(r):
    st = r.get("sta") or {}
    return {"nand2_eq": r["nand2_eq"], "memory_bits": r["memory_bits"],
            "sta_wns_ns": st.get("wns_ns"), "sta_clock_ns": st.get("clock_ns"),
            "ice40_fmax_mhz": r.get("ice40_fmax_mhz")}


def check_budget(r, ref):
    """Budget failures (strings) of a result against its baseline entry (see the docstring)."""
    fails = []
    if ref is None:
        return ["no committed baseline in synth/baseline.json (add it with --update-baseline)"]
    for key in ("nand2_eq", "memory_bits", "sta_wns_ns", "sta_clock_ns", "ice40_fmax_mhz"):
        if key not in ref:
            fails.append(f"baseline entry has no '{key}'")
    if fails:
        return fails
    for key, what in (("nand2_eq", "NAND2-eq"), ("memory_bits", "memory bits")):
        if r[key] > AREA_TOLERANCE * ref[key]:
            fails.append(f"{what} {r[key]:,} is more than {AREA_TOLERANCE * 100 - 100:.0f}% over the baseline {ref[key]:,}")
    st = r.get("sta")
    if ref["sta_wns_ns"] is not None:
        if not st:
            fails.append("no STA figures, the baseline has a slack")
        elif abs(st["clock_ns"] - ref["sta_clock_ns"]) > 1e-9:
            fails.append(f"STA clock {st['clock_ns']} ns differs from the baseline's {ref['sta_clock_ns']} ns "
                         f"(a new target needs a new baseline)")
        else:
            floor = ref["sta_wns_ns"] - WNS_FLOOR_FRACTION * ref["sta_clock_ns"]
            if st["wns_ns"] < floor - 1e-9:
                fails.append(f"STA slack {st['wns_ns']:.3f} ns is below its floor {floor:.3f} ns "
                             f"(baseline {ref['sta_wns_ns']:.3f} ns - {WNS_FLOOR_FRACTION * 100:.0f}% of "
                             f"{ref['sta_clock_ns']} ns)")
    fm, rf = r.get("ice40_fmax_mhz"), ref["ice40_fmax_mhz"]
    if rf is not None and (fm is None or fm < FMAX_TOLERANCE * rf):
        fails.append(f"iCE40 Fmax {fm} MHz is below its floor {FMAX_TOLERANCE * rf:.1f} MHz "
                     f"({FMAX_TOLERANCE * 100:.0f}% of the baseline {rf} MHz)")
    return fails


def check_results(results, base, label="baseline"):
    failed = 0
    for r in results:
        key = f"{r['block']}/{r['config']}"
        fails = check_budget(r, base.get(key))
        for msg in fails:
            print(f"synth: {key}: FAIL ({label}): {msg}")
        if fails:
            failed += 1
        else:
            ref = base[key]
            wns = (r.get("sta") or {}).get("wns_ns")
            print(f"synth: {key}: within budget: {r['nand2_eq']:,} NAND2-eq (baseline {ref['nand2_eq']:,}), "
                  f"{r['memory_bits']:,} memory bits, STA WNS {fmt(wns, 3)} ns (baseline {fmt(ref['sta_wns_ns'], 3)}), "
                  f"iCE40 {fmt(r.get('ice40_fmax_mhz'), 1)} MHz (baseline {fmt(ref['ice40_fmax_mhz'], 1)})")
    return failed


def tampered(base, results):
    """A copy of the baseline that every result must fail on every budget: 10% less area
    and memory, 10% of the clock more slack, 20% more iCE40 Fmax."""
    t = {}
    for r in results:
        e = dict(baseline_entry(r))
        e["nand2_eq"] = int(r["nand2_eq"] / 1.10)
        e["memory_bits"] = int(r["memory_bits"] / 1.10) if r["memory_bits"] else None
        if e["sta_wns_ns"] is not None:
            e["sta_wns_ns"] = e["sta_wns_ns"] + 0.10 * e["sta_clock_ns"]
        if e["ice40_fmax_mhz"] is not None:
            e["ice40_fmax_mhz"] = round(e["ice40_fmax_mhz"] * 1.2, 1)
        t[f"{r['block']}/{r['config']}"] = e
    return t


def self_test(results):
    """The budget check must reject a tampered baseline on each figure it holds (a test
    that the check can fail; runs with --smoke, no synthesis)."""
    bad = tampered({}, results)
    problems = []
    for r in results:
        key = f"{r['block']}/{r['config']}"
        ref = bad[key]
        if ref["memory_bits"] is None:
            ref["memory_bits"] = r["memory_bits"]
        fails = check_budget(r, ref)
        expect = ["NAND2-eq"] + (["memory bits"] if r["memory_bits"] else []) + \
                 (["STA slack"] if ref["sta_wns_ns"] is not None else []) + \
                 (["iCE40 Fmax"] if ref["ice40_fmax_mhz"] is not None else [])
        for e in expect:
            if not any(f.startswith(e) for f in fails):
                problems.append(f"{key}: a tampered {e} baseline was not rejected")
        if check_budget(r, baseline_entry(r)):
            problems.append(f"{key}: its own figures fail the check: {check_budget(r, baseline_entry(r))}")
    return problems


def committed_reports(keys=None):
    out = []
    for b in sorted(os.path.basename(os.path.dirname(p))
                    for p in glob.glob(os.path.join(ROOT, "synth", "*", "configs.json"))):
        for c in load_configs(b)["configs"]:
            if keys is not None and f"{b}/{c['name']}" not in keys:
                continue
            rp = os.path.join(ROOT, "synth", "reports", b, c["name"] + ".json")
            if os.path.exists(rp):
                out.append(json.load(open(rp)))
    return out


def check_baseline_file(path):
    try:
        base = json.load(open(path))
    except (OSError, json.JSONDecodeError) as e:
        die(f"{path}: {e}")
    if not isinstance(base, dict) or not base:
        die(f"{path}: expected a non-empty JSON object of \"<block>/<config>\" entries")
    reports = committed_reports(set(base))
    found = {f"{r['block']}/{r['config']}" for r in reports}
    failed = 0
    for key in sorted(set(base) - found):
        print(f"synth: {key}: FAIL: no committed report synth/reports/{key}.json")
        failed += 1
    failed += check_results(reports, base, label=os.path.basename(path))
    print(f"{len(base) - failed} within budget, {failed} failed (committed reports vs {path})")
    sys.exit(1 if failed else 0)


def expected_seconds(block, name):
    rp = os.path.join(ROOT, "synth", "reports", block, name + ".json")
    try:
        return float(json.load(open(rp)).get("seconds", 0))
    except (OSError, ValueError, json.JSONDecodeError):
        return 0.0


def unknown_configs(blocks, configs):
    """The error for --config names that are no configuration of the chosen blocks (a typo,
    not a filter), or None."""
    known = {c["name"] for b in blocks for c in load_configs(b)["configs"]}
    unknown = [c for c in configs or [] if c not in known]
    if not unknown:
        return None
    return f"no configuration {', '.join(repr(c) for c in unknown)} in {', '.join(blocks)} (synth/<block>/configs.json)"


def block_config_error(block, config):
    """The error for one --block / --config pair that names no synthesised configuration
    (an unknown block, or a configuration not in its configs.json), or None."""
    if not os.path.isfile(os.path.join(ROOT, "synth", block, "configs.json")):
        return f"unknown block '{block}' (no synth/{block}/configs.json)"
    return unknown_configs([block], [config])


def select(blocks, configs, smoke):
    """The configurations to run: [(block, configs.json, config)] in configs.json order."""
    all_blocks = sorted(os.path.basename(os.path.dirname(p))
                        for p in glob.glob(os.path.join(ROOT, "synth", "*", "configs.json")))
    for b in blocks or []:
        if b not in all_blocks:
            die(f"unknown block '{b}' (have {', '.join(all_blocks)})")
    jobs = []
    for b in blocks or all_blocks:
        spec = load_configs(b)
        for c in spec["configs"]:
            if smoke and not c.get("smoke"):
                continue
            if configs and c["name"] not in configs:
                continue
            jobs.append((b, spec, c))
    bad = unknown_configs(blocks or all_blocks, configs)
    if bad:
        die(bad)
    if not jobs:
        die("no configuration selected")
    return jobs


def main():
    global ABC_RECIPE
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--smoke", action="store_true")
    ap.add_argument("--update-baseline", action="store_true")
    ap.add_argument("--check-baseline", metavar="FILE", help="check the committed reports against FILE and exit")
    ap.add_argument("--block", action="append")
    ap.add_argument("--config", action="append")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--out", default=None, help="work directory (default build/synth)")
    ap.add_argument("--abc-recipe", choices=sorted(ABC_RECIPES), default=ABC_RECIPE,
                    help="ABC script of the SG13G2 mapping (default timing; 'area' is an experiment: its "
                         "reports go to OUT/reports, the README and the baseline are left alone)")
    a = ap.parse_args()
    if a.jobs < 1:
        die(f"--jobs must be >= 1 (got {a.jobs})")
    experiment = a.abc_recipe != ABC_RECIPE
    ABC_RECIPE = a.abc_recipe
    if experiment and a.update_baseline:
        die("--update-baseline measures the default recipe; change ABC_RECIPE to re-baseline with another")
    if a.check_baseline:
        check_baseline_file(a.check_baseline)
    out = os.path.abspath(a.out) if a.out else os.path.join(ROOT, "build", "synth")  # tools run in work dirs
    jobs = select(a.block, a.config, a.smoke)
    t0 = time.time()
    results, failed = [], 0
    # longest first (by the last committed report's time): the pool finishes sooner
    order_run = sorted(jobs, key=lambda j: -expected_seconds(j[0], j[2]["name"]))
    with cf.ProcessPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        futs = {ex.submit(run_config, b, s, c, out): (b, c["name"]) for b, s, c in order_run}
        for fut in cf.as_completed(futs):
            b, n = futs[fut]
            try:
                r = fut.result()
            except Exception as e:  # noqa: BLE001 - report and count every failure
                print(f"synth: {b}/{n}: FAILED: {e}", flush=True)
                failed += 1
                continue
            results.append(r)
            if experiment:
                write_report(r, os.path.join(out, "reports", r["block"]))
            elif not a.smoke:  # write each report as soon as it exists
                write_report(r, os.path.join(ROOT, "synth", "reports", r["block"]))
            st = r["sta"]
            print(f"synth: {b}/{n}: {r['nand2_eq']:,} NAND2-eq ({r['area_um2']:,.0f} um^2), "
                  f"{r['memory_bits']} memory bits, ABC delay {fmt(r['abc_delay_ps'])} ps, "
                  f"STA WNS {st['wns_ns']:.3f} ns @ {st['clock_ns']:g} ns ({st['fmax_mhz']:.1f} MHz, "
                  f"{st['paths'][0]['stages']} stages {st['paths'][0]['start']} -> {st['paths'][0]['end_pin']}), "
                  f"xc7 {r['xc7_lut']} LUT / {r['xc7_ff']} FF / {r['xc7_dsp']} DSP, "
                  f"iCE40 {fmt(r.get('ice40_lc'))} LC @ {fmt(r.get('ice40_fmax_mhz'), 1)} MHz "
                  f"[{r['seconds']} s, STA {st['seconds']} s]", flush=True)
    sys.exit(finish(results, failed, jobs, a.smoke or experiment, a.update_baseline, out, t0))


def finish(results, failed, jobs, smoke, update_baseline, out, t0):
    """After the runs (a local pool here, or scripts/jobs.py gathering a job array): order,
    baseline, budgets, self-test, smoke.json or README table. Returns the exit status."""
    order = {(b, c["name"]): i for i, (b, _, c) in enumerate(jobs)}
    results.sort(key=lambda r: order[(r["block"], r["config"])])

    base = json.load(open(BASELINE)) if os.path.exists(BASELINE) else {}
    if update_baseline:
        if failed:
            die("not updating the baseline: a configuration failed")
        for r in results:
            base[f"{r['block']}/{r['config']}"] = baseline_entry(r)
        with open(BASELINE, "w") as f:
            json.dump(base, f, indent=2, sort_keys=True)
            f.write("\n")
        print(f"synth: baseline written to {os.path.relpath(BASELINE, ROOT)}")
    failed += check_results(results, base)
    problems = self_test(results)
    for msg in problems:
        print(f"synth: baseline self-test: FAIL: {msg}")
    if results and not problems:
        print(f"synth: baseline self-test: a tampered baseline is rejected on every figure of "
              f"{len(results)} configurations")
    failed += len(problems)
    if smoke:
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(out, "smoke.json"), "w") as f:
            json.dump(results, f, indent=2)
    else:
        # the README table lists every committed report, in configs.json order
        update_readme(committed_reports())
        print("\n" + table(results))
    print(f"synth: {len(results)} configurations in {time.time() - t0:.0f} s")
    print(f"{len(results)} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    main()
