#!/usr/bin/env python3
"""Parameter ranges of a block, from one hand-written source: rtl/<block>/<block>_params.json.

From it this generator writes, like regmap.py does for the register maps:
  - the RTL elaboration checks: the region between the marker lines
        // params.py: begin generated checks (rtl/<block>/<block>_params.json)
        // params.py: end generated checks
    inside each listed module's `initial begin ... end` block, one
    `if (<violated>) $error("<module prefix>: <message>");` per rule that module can
    evaluate (a rule is emitted where every parameter it names is declared);
  - cpp_model/<block>/<block>_params.h: `params::check(config)`, the same rules over the
    golden model's Config (fields named as the RTL parameters), returning the first
    broken rule's message (Config::validate() throws it);
  - rtl/<block>/illegal_params.json: one case per rule, a parameter combination that
    breaks it, which scripts/lint.py elaborates with Yosys and Icarus and which must stop
    with the rule's message.

Source format:
  {"block": "drill", "modules": {"drill_top": "drill", "drill_engine": "drill_engine"},
   "params": [{"name": "Ports", "min": 2, "max": 64}, ...,
              {"name": "Engines", "min": 1, "max": 4, "model_max": 64},
              {"name": "FlowEntries", "min": 2, "max": 65536, "pow2": true},
              {"name": "Groups", "min": 2, "max": 64, "or_zero": true},
              {"name": "PortAw", "derived": "clog2(Ports)"}],
   "rules": [{"ok": "HashW > clog2(FlowEntries)", "msg": "HashW must exceed log2(FlowEntries)",
              "breaking": {"HashW": 8, "FlowEntries": 256}}]}
A parameter without min/max/derived (e.g. a seed) has no rule but is settable through
params::set(), which Config::from_params uses. A parameter with min/max gives the rule "<name> must be in <min>..<max>" (model_max
widens the model's range: it also serves the transaction face); "derived" gives
"<name> is derived; do not override it" (RTL only). Expressions use parameter names,
integers, + - * / % ( ) comparisons, && || ! ?: and clog2(NAME) / pow2(NAME). A parameter
or rule with "icarus_fails": "<reason>" has an illegal case that only has to stop
elaboration (Yosys refuses it; Icarus fails on its own error, e.g. a zero-width vector,
before the $error can print): the reason is kept in the case.

Usage: params.py BLOCK [--check]     (--check: exit 1 if a generated output is stale)
       params.py --all [--check]
"""
import argparse
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN = "// params.py: begin generated checks"
END = "// params.py: end generated checks"


def fail(msg):
    print(f"params: error: {msg}", file=sys.stderr)
    sys.exit(2)


def load(block):
    path = os.path.join(ROOT, "rtl", block, f"{block}_params.json")
    try:
        with open(path) as f:
            spec = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        fail(f"{path}: {e}")
    names = [p["name"] for p in spec.get("params", [])]
    if len(set(names)) != len(names):
        fail(f"{path}: a parameter is listed twice")
    for k in ("block", "modules", "params"):
        if k not in spec:
            fail(f"{path}: missing key '{k}'")
    return path, spec


def idents(expr):
    return set(re.findall(r"\b[A-Za-z_]\w*\b", expr)) - {"clog2", "pow2"}


def to_sv(expr):
    e = re.sub(r"\bpow2\((\w+)\)", r"((\1 & (\1 - 1)) == 0)", expr)
    return re.sub(r"\bclog2\(", "$clog2(", e)


def to_cpp(expr, names):
    e = re.sub(r"\bpow2\((\w+)\)", r"((\1 & (\1 - 1)) == 0)", expr)
    e = re.sub(r"\bclog2\(", "::ll::clog2(", e)
    return re.sub(r"\b([A-Za-z_]\w*)\b", lambda m: f"uint64_t(c.{m.group(1)})" if m.group(1) in names else m.group(1), e)


def rules_of(spec, face):
    """[(ok expression, message, parameters named, breaking example, why Icarus cannot reach
    the check or None)] for face rtl|model."""
    out = []
    for p in spec["params"]:
        n = p["name"]
        if "derived" in p:
            if face == "rtl":
                out.append((f"{n} == ({p['derived']})", f"{n} is derived; do not override it",
                            {n}, {n: p.get("breaking", 99)}, p.get("icarus_fails")))
            continue
        if "min" not in p or "max" not in p:
            continue
        hi = p.get("model_max", p["max"]) if face == "model" else p["max"]
        rng = f"({n} >= {p['min']} && {n} <= {hi})"
        if p.get("pow2"):
            ok, msg = f"({rng} && pow2({n}))", f"{n} must be a power of 2 in {p['min']}..{hi}"
            brk = {n: p["min"] + 1 if p["min"] > 1 else 3}
            if brk[n] & (brk[n] - 1) == 0 or brk[n] > hi:
                brk = {n: hi + 1}
        elif p.get("or_zero"):
            ok, msg = f"({n} == 0 || {rng})", f"{n} must be 0 or in {p['min']}..{hi}"
            brk = {n: hi + 1}
        else:
            ok, msg = rng, f"{n} must be in {p['min']}..{hi}"
            brk = {n: hi + 1}
        if face == "model" and "model_max" in p:
            msg += f" ({p['min']}..{p['max']} for the RTL)"
        out.append((ok, msg, {n}, brk, p.get("icarus_fails")))
    for r in spec.get("rules", []):
        if face in r.get("faces", ["rtl", "model"]):
            out.append((r["ok"], r["msg"], idents(r["ok"]), r["breaking"], r.get("icarus_fails")))
    return out


def module_params(sv_text, module):
    m = re.search(rf"\bmodule\s+{module}\b\s*(?:import[^;]*;\s*)?#\((.*?)\)\s*\(", sv_text, re.S)
    if not m:
        return set()
    return set(re.findall(r"\bparameter\s+(?:int|logic\s*\[[^\]]*\]|integer)?\s*(\w+)\s*=", m.group(1)))


def sv_region(spec, module, prefix, sv_text, indent):
    declared = module_params(sv_text, module)
    lines = [f"{indent}{BEGIN} (rtl/{spec['block']}/{spec['block']}_params.json)"]
    for ok, msg, names, _, _ in rules_of(spec, "rtl"):
        if names <= declared:
            lines.append(f'{indent}if (!({to_sv(ok)})) $error("{prefix}: {msg}");')
    lines.append(f"{indent}{END}")
    return "\n".join(lines)


def gen_sv(spec, module, prefix, path):
    text = open(path).read()
    m = re.search(rf"^([ \t]*){re.escape(BEGIN)}.*?^[ \t]*{re.escape(END)}[^\n]*", text, re.S | re.M)
    if not m:
        fail(f"{path}: no '{BEGIN}' ... '{END}' region in module {module} (put it in its initial block)")
    return text[:m.start()] + sv_region(spec, module, prefix, text, m.group(1)) + text[m.end():]


def gen_cpp(spec):
    b = spec["block"]
    names = {p["name"] for p in spec["params"]}
    out = [f"// Generated by scripts/params.py from rtl/{b}/{b}_params.json. Do not edit.",
           "#pragma once", "#include <cstdint>", "#include <map>", "#include <string>", "", '#include "common/bits.h"', '#include "common/params_util.h"', "",
           f"namespace ll::{b}::params {{", "",
           "// The first broken parameter rule's message, or \"\" (Config::validate() throws it).",
           "template <class Config>", "std::string check(const Config& c) {"]
    for ok, msg, used, _, _ in rules_of(spec, "model"):
        if not used <= names:
            continue
        shown = " + std::string(\" (got \") + std::to_string(c.%s) + \")\"" % next(iter(used)) if len(used) == 1 else ""
        out.append(f"  if (!({to_cpp(ok, names)})) return std::string(\"{msg}\"){shown};")
    out += ["  return \"\";", "}", "",
            "// Sets parameter `name` (an RTL parameter name) of c; false if c has none of that name.",
            "template <class Config>", "bool set(Config& c, const std::string& name, uint64_t v) {"]
    for p in spec["params"]:
        if "derived" not in p:
            n = p["name"]
            out.append(f'  if (name == "{n}") {{ c.{n} = static_cast<decltype(c.{n})>(v); return true; }}')
    out += ["  return false;", "}", "",
            "// Config::from_params: every named parameter set, then Config::validate().",
            "template <class Config>",
            "Config from_params(const std::map<std::string, uint64_t>& p) {",
            f"  return ::ll::config_from_params<Config>(p, \"{b}\", set<Config>);",
            "}", "", f"}}  // namespace ll::{b}::params", ""]
    return "\n".join(out)


def gen_illegal(spec):
    b = spec["block"]
    top, prefix = next(iter(spec["modules"].items()))
    cases = []
    for _, msg, _, brk, icarus_fails in rules_of(spec, "rtl"):
        if icarus_fails:  # Icarus stops on its own elaboration error before the $error runs
            cases.append({"top": top, "params": brk, "expect": None, "why": f"{msg}; {icarus_fails}"})
        else:
            cases.append({"top": top, "params": brk, "expect": f"{prefix}: {msg}"})
    cases += spec.get("extra_illegal", [])
    doc = (f"Generated by scripts/params.py from rtl/{b}/{b}_params.json: one parameter combination per "
           "rule, each must stop elaboration with $error (checked by scripts/lint.py).")
    rows = ",\n".join("    " + json.dumps(c) for c in cases)
    return "{\n  \"_doc\": " + json.dumps(doc) + ",\n  \"cases\": [\n" + rows + "\n  ]\n}\n"


def outputs(block):
    path, spec = load(block)
    if spec["block"] != block:
        fail(f"{path}: block is '{spec['block']}', expected '{block}'")
    out = {}
    for module, prefix in spec["modules"].items():
        sv = os.path.join(ROOT, "rtl", block, f"{module}.sv")
        if not os.path.exists(sv):
            fail(f"{path}: module {module}: no {sv}")
        out[sv] = gen_sv(spec, module, prefix, sv)
    out[os.path.join(ROOT, "cpp_model", block, f"{block}_params.h")] = gen_cpp(spec)
    out[os.path.join(ROOT, "rtl", block, "illegal_params.json")] = gen_illegal(spec)
    return out


def main():
    ap = argparse.ArgumentParser(description="Generate a block's parameter checks (RTL, C++, "
                                 "illegal-parameter cases) from rtl/<block>/<block>_params.json.")
    ap.add_argument("block", nargs="?")
    ap.add_argument("--all", action="store_true", help="every block with a <block>_params.json")
    ap.add_argument("--check", action="store_true", help="exit 1 if a generated output is stale")
    args = ap.parse_args()
    if args.all == bool(args.block):
        ap.error("give a block or --all")
    known = sorted(d for d in os.listdir(os.path.join(ROOT, "rtl"))
                   if os.path.isfile(os.path.join(ROOT, "rtl", d, f"{d}_params.json")))
    if args.block and args.block not in known:
        fail(f"unknown block '{args.block}' (blocks with a parameter source: {', '.join(known)})")
    blocks = [args.block] if args.block else known
    generated = {}
    for b in blocks:  # every output formed before any is written
        try:
            generated.update(outputs(b))
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            fail(f"rtl/{b}/{b}_params.json: malformed ({type(e).__name__}: {e})")
    stale = []
    for path, text in generated.items():
        old = open(path).read() if os.path.exists(path) else None
        if old == text:
            continue
        if args.check:
            stale.append(os.path.relpath(path, ROOT))
        else:
            with open(path, "w") as f:
                f.write(text)
            print(f"params: wrote {os.path.relpath(path, ROOT)}")
    if stale:
        print("params: stale generated files (run python3 scripts/params.py --all): " + ", ".join(stale),
              file=sys.stderr)
        sys.exit(1)
    if args.check:
        print(f"params: generated parameter checks are current ({' '.join(blocks)})")


if __name__ == "__main__":
    main()
