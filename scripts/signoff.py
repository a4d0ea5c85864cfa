#!/usr/bin/env python3
"""make signoff: the README's sign-off table, one row per block, from the flows' own outputs.

Reads what the sign-off flows wrote (it runs none of them):
  build/equiv/summary.json     make equiv     proven / total $equiv cells per netlist (a
                                              configuration whose proof did not finish: FAILED)
  build/formal/summary.json    make formal    properties proven by induction, BMC-only (depth)
  build/gates/summary.json     make gates     gate-level lockstep compared cycles, mismatches
  build/coverage/summary.json  make coverage  line and toggle coverage per bench
  synth/reports/<block>/<smoke>.json          make synth(-smoke)  STA WNS at the target clock
and rewrites the table between `<!-- signoff:begin -->` and `<!-- signoff:end -->` in
README.md. A flow whose output is missing is shown as "not run" and named on stderr; with
--require every flow's output must exist (exit 1 naming the command to run). --check
compares instead of writing (exit 1 if README differs).
"""
import argparse
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BLOCKS = ["marker", "drill", "pfc", "dcqcn"]
BEGIN, END = "<!-- signoff:begin -->", "<!-- signoff:end -->"
FLOWS = {"equiv": "make equiv", "formal": "make formal", "gates": "make gates", "coverage": "make coverage"}


def load(build, flow):
    path = os.path.join(build, flow, "summary.json")
    try:
        with open(path) as f:
            return json.load(f)
    except FileNotFoundError:
        return None
    except json.JSONDecodeError as e:
        raise SystemExit(f"signoff: {path}: {e}")


def smoke_config(block):
    with open(os.path.join(ROOT, "synth", block, "configs.json")) as f:
        cfgs = json.load(f)["configs"]
    smoke = [c["name"] for c in cfgs if c.get("smoke")]
    return smoke[0] if smoke else None


def equiv_configs(block):
    """The configurations `make equiv` proves for a block (smoke or "equiv" set, not false)."""
    with open(os.path.join(ROOT, "synth", block, "configs.json")) as f:
        cfgs = json.load(f)["configs"]
    return [c["name"] for c in cfgs if (c.get("smoke") or c.get("equiv")) and c.get("equiv") is not False]


def equiv_cell(rows, block):
    if rows is None:
        return "not run"
    mine = [r for r in rows if r["block"] == block]
    if not mine:
        return "not proved"
    parts = []
    # a configuration the last run left out (make test runs EQUIV_ARGS=--ci, without the
    # "signoff" ones) is shown as such, not dropped from the table
    done = {r["config"] for r in mine}
    missing = [c for c in equiv_configs(block) if c not in done]
    for r in mine:
        if "error" in r:          # synthesis or proof did not finish: no verdict
            parts.append(f"{r['config']} FAILED ({r['error']})")
        elif r["unproven"]:
            parts.append(f"{r['config']} {r['netlist']} {r['proven']}/{r['cells']} NOT PROVEN")
        else:
            parts.append(f"{r['config']} {r['netlist']} {r['proven']}/{r['cells']}")
    parts += [f"{c} NOT RUN (the last equivalence run left it out: make equiv)" for c in missing]
    return "; ".join(parts)


def formal_cell(summary, block):
    if summary is None:
        return "not run"
    s = summary.get(block)
    if not s:
        return "none"
    bmc = s.get("bmc_only", {})
    depths = sorted(set(bmc.values()))
    out = f"{s['proven']} proven, {len(bmc)} BMC-only"
    if depths:
        out += f" (depth {'/'.join(str(d) for d in depths)})"
    out += f" of {s['properties']}; mutants {s['mutants_killed']}/{s['mutants']}"
    if s.get("failed"):
        out += f"; FAILED {', '.join(s['failed'])}"
    return out


def gates_cell(summary, block):
    if summary is None:
        return "not run"
    rows = [r for r in summary.get("rows", []) if r["block"] == block]
    if not rows:
        return "none"
    return "; ".join(f"{r['bench']} {r['set']}: {r['compared']:,} cycles, {r['mismatches']} mismatches" for r in rows)


def coverage_cell(rows, block):
    if rows is None:
        return "not run"
    mine = [r for r in rows if r["bench"].split("_")[0] == block]
    if not mine:
        return "none"
    return "; ".join(f"{r['bench']} {r['line_pct']:.1f}% / {r['toggle_pct']:.1f}%" for r in mine)


def sta_cell(block):
    cfg = smoke_config(block)
    path = os.path.join(ROOT, "synth", "reports", block, f"{cfg}.json")
    try:
        with open(path) as f:
            sta = json.load(f)["sta"]
    except (FileNotFoundError, KeyError):
        return "not run"
    return f"{cfg}: {sta['wns_ns']:+.3f} ns at {sta['clock_ns']:g} ns"


def table(build):
    data = {flow: load(build, flow) for flow in FLOWS}
    lines = ["| block | equivalence (proven / cells) | formal properties | gate-level lockstep | line / toggle coverage | STA WNS (smoke) |",
             "| --- | --- | --- | --- | --- | --- |"]
    for b in BLOCKS:
        lines.append(f"| {b} | {equiv_cell(data['equiv'], b)} | {formal_cell(data['formal'], b)} | "
                     f"{gates_cell(data['gates'], b)} | {coverage_cell(data['coverage'], b)} | {sta_cell(b)} |")
    missing = [flow for flow, d in data.items() if d is None]
    return "\n".join(lines), missing


def main():
    ap = argparse.ArgumentParser(description="the README's sign-off table from the flows' outputs")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"), help="the build directory the flows wrote")
    ap.add_argument("--readme", default=os.path.join(ROOT, "README.md"))
    ap.add_argument("--require", action="store_true", help="fail if a flow's output is missing")
    ap.add_argument("--check", action="store_true", help="compare with README instead of writing it")
    a = ap.parse_args()
    if os.path.exists(a.build) and not os.path.isdir(a.build):  # missing: every flow "not run"
        print(f"signoff: --build {a.build}: not a directory (the build directory the flows wrote)", file=sys.stderr)
        return 1
    try:
        with open(a.readme) as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        print(f"signoff: --readme {a.readme}: cannot read it ({getattr(e, 'strerror', None) or e})", file=sys.stderr)
        return 1
    if BEGIN not in text or END not in text:
        print(f"signoff: {a.readme} has no {BEGIN} ... {END} markers", file=sys.stderr)
        return 1
    tab, missing = table(a.build)
    for flow in missing:
        print(f"signoff: no {flow} results in {os.path.join(a.build, flow)} (run `{FLOWS[flow]}`)", file=sys.stderr)
    if missing and a.require:
        return 1
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    new = f"{head}{BEGIN}\n{tab}\n{END}{tail}"
    if a.check:
        if new != text:
            print("signoff: the README's sign-off table is not what the flows' outputs give: run `make signoff`",
                  file=sys.stderr)
            return 1
        print("signoff: README table current")
        return 0
    try:
        with open(a.readme, "w") as f:
            f.write(new)
    except OSError as e:
        print(f"signoff: --readme {a.readme}: cannot write it ({e.strerror})", file=sys.stderr)
        return 1
    print(tab)
    return 0


if __name__ == "__main__":
    sys.exit(main())
