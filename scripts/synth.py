#!/usr/bin/env python3
"""Synthesis flow: area, timing and FPGA resources of every block configuration.

For each configuration in synth/<block>/configs.json:
  1. Yosys generic synthesis with memories kept as memories (`memory -nomap`): generic
     cell counts and memory bits, `check -assert` (no undriven nets, no logic dropped);
  2. IHP SG13G2 130 nm: dfflibmap + abc -liberty: area in um^2 and NAND2 equivalents
     (memories excluded, reported in bits), and ABC's delay estimate of the longest
     register-to-register logic path;
  3. Xilinx 7-series: synth_xilinx -family xc7 -noiopad: LUT / FF / DSP / BRAM counts;
  4. iCE40 HX8K (configs with "ice40": true): the block wrapped in registers and fed
     through a serial shift chain, synth_ice40 + nextpnr-ice40 --seed 1: logic cells and
     the placed-and-routed Fmax.
Reports: synth/reports/<block>/<config>.{md,json} and the table in README.md.

Usage:
  synth.py                       every configuration, reports + README table
  synth.py --smoke               one configuration per block ("smoke": true), checked
                                 against synth/baseline.json (Fmax >= 90% of baseline)
  synth.py --smoke --update-baseline   rewrite synth/baseline.json (a deliberate commit)
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

import ll_rtl  # scripts/ll_rtl.py: the one RTL file-list rule

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIB = os.path.join(ROOT, "synth", "techlib", "sg13g2_stdcell_typ_1p20V_25C.lib")
BASELINE = os.path.join(ROOT, "synth", "baseline.json")
README = os.path.join(ROOT, "README.md")
FMAX_TOLERANCE = 0.90
ABC_TARGET_PS = 4000


def die(msg):
    print(f"synth: error: {msg}", file=sys.stderr)
    sys.exit(2)


def nand2_area():
    text = open(LIB).read()
    m = re.search(r"cell\s*\(\s*\"?sg13g2_nand2_1\"?\s*\)\s*\{\s*area\s*:\s*([0-9.]+)", text)
    if not m:
        die(f"{LIB}: no sg13g2_nand2_1 area")
    return float(m.group(1))


def rtl_files(block):
    return ll_rtl.files(block)


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


def run_config(block, spec, cfg, out_dir):
    name = cfg["name"]
    top = cfg["top"]
    work = os.path.join(out_dir, "work", block, name)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    files = " ".join(rtl_files(block))
    read = (f"read_verilog -sv -noautowire -DSYNTHESIS {files}\n{chparams(cfg['params'], top)}"
            f"hierarchy -check -top {top}\nrename -top {top}\n")
    t0 = time.time()
    r = {"block": block, "config": name, "top": top, "params": cfg["params"]}

    # 1 + 2: generic and IHP SG13G2
    abc_script = os.path.join(work, "abc.script")
    with open(abc_script, "w") as f:
        f.write("strash\nifraig\nscorr\ndc2\nstrash\n&get -n\n&dch -f\n&nf {D}\n&put\nbuffer\nupsize {D}\ndnsize {D}\nstime -p\n")
    asic = os.path.join(work, "asic.ys")
    with open(asic, "w") as f:
        f.write(read + f"""synth -top {top} -flatten -run begin:fine
tee -q -o {work}/mems.txt dump t:$mem_v2 t:$mem
opt -fast -full
opt -full
techmap
opt -fast
abc -fast
opt -fast
check -assert
tee -q -o {work}/generic.txt stat
dfflibmap -liberty {LIB}
abc -D {ABC_TARGET_PS} -liberty {LIB} -script {abc_script}
opt_clean
tee -q -o {work}/asic.txt stat -liberty {LIB}
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
    m = re.search(r"Chip area for (?:top )?module '[^']*':\s*([0-9.]+)", at)
    r["area_um2"] = float(m.group(1)) if m else 0.0
    r["nand2_eq"] = round(r["area_um2"] / nand2_area())
    d = re.findall(r"Delay\s*=\s*([0-9.]+)\s*ps", log)
    r["abc_delay_ps"] = float(d[-1]) if d else None
    if r["generic_cells"] == 0 or r["area_um2"] <= 0:
        raise RuntimeError(f"{block}/{name}: synthesis produced no logic")

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
        p = subprocess.run(["nextpnr-ice40", "--hx8k", "--package", "ct256", "--seed", "1",
                            "--json", f"{work}/ice40.json", "--asc", f"{work}/ice40.asc",
                            "--freq", "200", "--report", f"{work}/pnr.json",
                            "--pcf-allow-unconstrained", "--timing-allow-fail", "-q", "--log", f"{work}/pnr.log"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if p.returncode or not os.path.exists(f"{work}/pnr.json"):
            r["ice40_note"] = "did not place and route on HX8K: " + p.stdout.strip().splitlines()[-1][:120] if p.stdout.strip() else "nextpnr failed"
        else:
            rep = json.load(open(f"{work}/pnr.json"))
            r["ice40_lc"] = rep["utilization"]["ICESTORM_LC"]["used"]
            r["ice40_ram"] = rep["utilization"].get("ICESTORM_RAM", {}).get("used", 0)
            fm = rep.get("fmax", {})
            clk = next((v for k, v in fm.items() if "clk" in k), None)
            r["ice40_fmax_mhz"] = round(clk["achieved"], 1) if clk else None
    r["seconds"] = round(time.time() - t0, 1)
    return r


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


def write_report(r, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    base = os.path.join(out_dir, r["config"])
    with open(base + ".json", "w") as f:
        json.dump(r, f, indent=2, sort_keys=True)
        f.write("\n")
    params = ", ".join(f"{k}={v}" for k, v in r["params"].items())
    mem = "; ".join(f"{m['name']} {m['depth']}x{m['width']} = {m['bits']} bits" for m in r["memories"]) or "none"
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
| Xilinx 7-series LUT / FF / DSP / BRAM / LUTRAM | {r['xc7_lut']} / {r['xc7_ff']} / {r['xc7_dsp']} / {r['xc7_bram']} / {r['xc7_lutram']} |
| iCE40 HX8K logic cells (with wrapper) | {fmt(r.get('ice40_lc'))} |
| iCE40 HX8K Fmax (nextpnr, seed 1) | {fmt(r.get('ice40_fmax_mhz'), 1)} MHz |
""")
        if r.get("ice40_note"):
            f.write(f"\niCE40: {r['ice40_note']}\n")


def table(results):
    rows = ["| block | config | NAND2-eq | area um^2 | memory bits | ABC delay ps | xc7 LUT / FF / DSP | iCE40 LC | iCE40 Fmax MHz |",
            "| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: |"]
    for r in results:
        rows.append(f"| {r['block']} | {r['config']} | {fmt(r['nand2_eq'])} | {fmt(r['area_um2'], 0)} | "
                    f"{fmt(r['memory_bits'])} | {fmt(r['abc_delay_ps'], 0)} | {r['xc7_lut']} / {r['xc7_ff']} / {r['xc7_dsp']} | "
                    f"{fmt(r.get('ice40_lc'))} | {fmt(r.get('ice40_fmax_mhz'), 1)} |")
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
    with open(README, "w") as f:
        f.write(new)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--smoke", action="store_true")
    ap.add_argument("--update-baseline", action="store_true")
    ap.add_argument("--block", action="append")
    ap.add_argument("--config", action="append")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--out", default=None, help="work directory (default build/synth)")
    a = ap.parse_args()
    out = a.out or os.path.join(ROOT, "build", "synth")
    blocks = a.block or sorted(os.path.basename(os.path.dirname(p))
                               for p in glob.glob(os.path.join(ROOT, "synth", "*", "configs.json")))
    jobs = []
    for b in blocks:
        spec = load_configs(b)
        for c in spec["configs"]:
            if a.smoke and not c.get("smoke"):
                continue
            if a.config and c["name"] not in a.config:
                continue
            jobs.append((b, spec, c))
    if not jobs:
        die("no configuration selected")
    t0 = time.time()
    results, failed = [], 0
    with cf.ProcessPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        futs = {ex.submit(run_config, b, s, c, out): (b, c["name"]) for b, s, c in jobs}
        for fut in cf.as_completed(futs):
            b, n = futs[fut]
            try:
                r = fut.result()
            except Exception as e:  # noqa: BLE001 - report and count every failure
                print(f"synth: {b}/{n}: FAILED: {e}", flush=True)
                failed += 1
                continue
            results.append(r)
            if not a.smoke:  # write each report as soon as it exists
                write_report(r, os.path.join(ROOT, "synth", "reports", r["block"]))
            print(f"synth: {b}/{n}: {r['nand2_eq']:,} NAND2-eq ({r['area_um2']:,.0f} um^2), "
                  f"{r['memory_bits']} memory bits, ABC delay {fmt(r['abc_delay_ps'])} ps, "
                  f"xc7 {r['xc7_lut']} LUT / {r['xc7_ff']} FF / {r['xc7_dsp']} DSP, "
                  f"iCE40 {fmt(r.get('ice40_lc'))} LC @ {fmt(r.get('ice40_fmax_mhz'), 1)} MHz "
                  f"[{r['seconds']} s]", flush=True)
    order = {(b, c["name"]): i for i, (b, _, c) in enumerate(jobs)}
    results.sort(key=lambda r: order[(r["block"], r["config"])])

    base = json.load(open(BASELINE)) if os.path.exists(BASELINE) else {}
    if a.smoke:
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(out, "smoke.json"), "w") as f:
            json.dump(results, f, indent=2)
        if a.update_baseline:
            for r in results:
                base[f"{r['block']}/{r['config']}"] = {"ice40_fmax_mhz": r.get("ice40_fmax_mhz"),
                                                       "nand2_eq": r["nand2_eq"]}
            with open(BASELINE, "w") as f:
                json.dump(base, f, indent=2, sort_keys=True)
                f.write("\n")
            print(f"synth: baseline written to {os.path.relpath(BASELINE, ROOT)}")
        for r in results:
            key = f"{r['block']}/{r['config']}"
            ref = base.get(key)
            if ref is None:
                print(f"synth: {key}: FAIL: no committed baseline in synth/baseline.json")
                failed += 1
                continue
            fm, rf = r.get("ice40_fmax_mhz"), ref.get("ice40_fmax_mhz")
            if rf is not None and (fm is None or fm < FMAX_TOLERANCE * rf):
                print(f"synth: {key}: FAIL: iCE40 Fmax {fm} MHz is more than 10% below the baseline {rf} MHz")
                failed += 1
            else:
                print(f"synth: {key}: Fmax {fm} MHz vs baseline {rf} MHz: ok")
    else:
        # the README table lists every committed report, in configs.json order
        allr = []
        for b in sorted(os.path.basename(os.path.dirname(p))
                        for p in glob.glob(os.path.join(ROOT, "synth", "*", "configs.json"))):
            for c in load_configs(b)["configs"]:
                rp = os.path.join(ROOT, "synth", "reports", b, c["name"] + ".json")
                if os.path.exists(rp):
                    allr.append(json.load(open(rp)))
        update_readme(allr)
        print("\n" + table(results))
    print(f"synth: {len(results)} configurations in {time.time() - t0:.0f} s")
    print(f"{len(results)} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
