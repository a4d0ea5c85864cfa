#!/usr/bin/env python3
"""The one rule for a block's RTL sources, shared by every flow.

A block's RTL is the headers of rtl/common (*.svh: the assertion macros of ll_assert.svh),
then every .sv file of rtl/common and rtl/<block>, packages (*_pkg.sv) first, common before
the block, each group sorted by name. The lint, synthesis and mutation
scripts import files(); CMake (tb/common/lockstep.cmake) runs this file and reads its
output, so the benches compile exactly the same list.

Usage: ll_rtl.py [--rtl-root DIR] [--cmake] BLOCK
  prints the files one per line, or as one CMake list (';'-separated) with --cmake.
"""
import argparse
import glob
import os
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
