#!/usr/bin/env python3
"""The one rule for a block's RTL sources, shared by every flow.

A block's RTL is the headers of rtl/common (*.svh: the assertion macros of ll_assert.svh),
then every .sv file of rtl/common and rtl/<block>, packages (*_pkg.sv) first, common before
the block, each group sorted by name. The lint, gate-level and mutation scripts import
files(); CMake (tb/common/lockstep.cmake) runs this file and reads its output, so the
benches compile exactly the same list. Synthesis and the equivalence proofs read
files_for_top(): the same list cut to what one top instantiates.

Usage: ll_rtl.py [--rtl-root DIR] [--cmake] BLOCK
  prints the files one per line, or as one CMake list (';'-separated) with --cmake.
"""
import argparse
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RTL = os.path.join(ROOT, "rtl")


def files(block, rtl_root=RTL):
    """RTL files of `block` under `rtl_root` in compile order (block "common": only common)."""
    dirs = ["common"] if block == "common" else ["common", block]
    hdrs = sorted(glob.glob(os.path.join(rtl_root, "common", "*.svh")))
    pkgs = [f for d in dirs for f in sorted(glob.glob(os.path.join(rtl_root, d, "*_pkg.sv")))]
    rest = [f for d in dirs for f in sorted(glob.glob(os.path.join(rtl_root, d, "*.sv")))]
    return hdrs + pkgs + [f for f in rest if f not in pkgs]


_MODULE_RE = re.compile(r"^\s*module\s+(\w+)", re.M)


def _strip_comments(text):
    return re.sub(r"//[^\n]*", "", re.sub(r"/\*.*?\*/", "", text, flags=re.S))


def files_for_top(block, top, rtl_root=RTL):
    """The part of files(block) that `top` needs, in the same order: the headers, every
    package of common and the block, and the files of the modules reachable from `top`
    by instantiation (`name #(` or `name inst (`, comments ignored). A flow that
    synthesises one top reads only these, so an edit to a module it does not use cannot
    move its result (Yosys numbers what it parses; ABC's mapping follows the numbering).
    Raises ValueError if a reachable module is defined in none of the files."""
    all_files = files(block, rtl_root)
    defs, texts = {}, {}
    for f in all_files:
        if f.endswith(".sv") and not f.endswith("_pkg.sv"):
            with open(f) as fh:
                texts[f] = _strip_comments(fh.read())
            for m in _MODULE_RE.finditer(texts[f]):
                defs[m.group(1)] = f
    inst = {name: re.compile(r"\b" + name + r"\s*(#\s*\(|\w+\s*\()") for name in defs}
    need, stack = set(), [top]
    while stack:
        name = stack.pop()
        f = defs.get(name)
        if f is None:
            raise ValueError(f"module {name} is defined in none of the {block} RTL files")
        if f in need:
            continue
        need.add(f)
        body = re.sub(r"\bmodule\s+\w+", "", texts[f])
        stack.extend(n for n, rx in inst.items() if rx.search(body))
    return [f for f in all_files if not f.endswith(".sv") or f.endswith("_pkg.sv") or f in need]


def blocks(rtl_root=RTL):
    """Every block folder of rtl/ except common, sorted."""
    return sorted(d for d in os.listdir(rtl_root)
                  if d != "common" and os.path.isdir(os.path.join(rtl_root, d)))


def main():
    ap = argparse.ArgumentParser(description="List a block's RTL files in compile order.")
    ap.add_argument("block")
    ap.add_argument("--rtl-root", default=RTL, help="RTL tree (default: rtl/ of this checkout)")
    ap.add_argument("--cmake", action="store_true", help="print one ';'-separated CMake list")
    args = ap.parse_args()
    if not os.path.isdir(os.path.join(args.rtl_root, args.block)):
        print(f"ll_rtl: error: no RTL folder {args.block!r} under {args.rtl_root}", file=sys.stderr)
        sys.exit(2)
    out = files(args.block, args.rtl_root)
    print(";".join(out) if args.cmake else "\n".join(out))


if __name__ == "__main__":
    main()
