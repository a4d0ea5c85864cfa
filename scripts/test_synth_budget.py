#!/usr/bin/env python3
"""Tests of the synthesis budget check (scripts/synth.py, synth/baseline.json).

No synthesis runs: the checks are fed synthetic results and the committed reports
(synth/reports/*/*.json). Run: python3 scripts/test_synth_budget.py
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import synth  # noqa: E402
import ff_drive  # noqa: E402

ROOT = os.path.dirname(HERE)


def result(nand2=10000, mem=2048, wns=-0.5, clock=4.0, fmax=40.0):
    return {"block": "b", "config": "c", "nand2_eq": nand2, "memory_bits": mem,
            "sta": {"wns_ns": wns, "clock_ns": clock}, "ice40_fmax_mhz": fmax}


class BudgetCheck(unittest.TestCase):
    def setUp(self):
        self.ref = synth.baseline_entry(result())

    def fails(self, r):
        return synth.check_budget(r, self.ref)

    def test_own_figures_pass(self):
        self.assertEqual(self.fails(result()), [])

    def test_area(self):
        self.assertEqual(self.fails(result(nand2=10499)), [])
        f = self.fails(result(nand2=10501))
        self.assertEqual(len(f), 1)
        self.assertTrue(f[0].startswith("NAND2-eq"), f)

    def test_memory_bits(self):
        self.assertEqual(self.fails(result(mem=2150)), [])
        f = self.fails(result(mem=2151))
        self.assertTrue(len(f) == 1 and f[0].startswith("memory bits"), f)

    def test_slack_floor(self):
        # floor = baseline WNS - 5% of 4 ns = -0.7 ns
        self.assertEqual(self.fails(result(wns=-0.69)), [])
        self.assertEqual(self.fails(result(wns=0.3)), [])
        f = self.fails(result(wns=-0.71))
        self.assertTrue(len(f) == 1 and f[0].startswith("STA slack"), f)

    def test_clock_change_needs_new_baseline(self):
        f = self.fails(result(clock=5.0))
        self.assertTrue(len(f) == 1 and f[0].startswith("STA clock"), f)

    def test_missing_sta(self):
        r = result()
        del r["sta"]
        self.assertTrue(any(x.startswith("no STA") for x in self.fails(r)))

    def test_ice40_floor(self):
        self.assertEqual(self.fails(result(fmax=36.0)), [])
        f = self.fails(result(fmax=35.9))
        self.assertTrue(len(f) == 1 and f[0].startswith("iCE40 Fmax"), f)
        self.assertTrue(self.fails(result(fmax=None)))

    def test_no_entry_or_incomplete_entry(self):
        self.assertTrue(synth.check_budget(result(), None))
        ref = dict(self.ref)
        del ref["sta_wns_ns"]
        self.assertTrue(synth.check_budget(result(), ref))

    def test_self_test_catches_a_blind_check(self):
        self.assertEqual(synth.self_test([result()]), [])
        real = synth.check_budget
        try:
            synth.check_budget = lambda r, ref: []  # a check that can never fail
            self.assertTrue(synth.self_test([result()]))
        finally:
            synth.check_budget = real


class CommittedBaseline(unittest.TestCase):
    """`synth.py --check-baseline FILE` on the committed reports: the committed baseline
    passes, a tampered copy of it fails with one message per tampered figure."""

    def run_check(self, base):
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(base, f)
        try:
            return subprocess.run([sys.executable, os.path.join(HERE, "synth.py"), "--check-baseline", f.name],
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT)
        finally:
            os.unlink(f.name)

    def test_committed_and_tampered(self):
        base = json.load(open(synth.BASELINE))
        p = self.run_check(base)
        self.assertEqual(p.returncode, 0, p.stdout)
        bad = {}
        for key, e in base.items():
            e = dict(e)
            e["nand2_eq"] = int(e["nand2_eq"] / 1.10)
            if e["sta_wns_ns"] is not None:
                e["sta_wns_ns"] += 0.10 * e["sta_clock_ns"]
            bad[key] = e
        p = self.run_check(bad)
        self.assertEqual(p.returncode, 1, p.stdout)
        for key, e in bad.items():
            self.assertIn(f"{key}: FAIL", p.stdout)
            if e["sta_wns_ns"] is not None:
                self.assertRegex(p.stdout, rf"{key}: FAIL .*STA slack")
        self.assertEqual(self.run_check({"nope/none": bad[next(iter(bad))]}).returncode, 1)


class Breakdown(unittest.TestCase):
    """The area breakdown helpers (no synthesis)."""

    def test_macc_decoding(self):
        # Yosys 0.23 $macc CONFIG, LSB first: field width 5, then a 24 x 16 product and an
        # 8-bit addend (no B operand): one multiplier
        bits = "1010"  # field width 5 (4 bits, LSB first)
        bits += "00" + "00011" + "00001"  # unsigned, add, A 24, B 16
        bits += "00" + "00010" + "00000"  # unsigned, add, A 8, no B
        cell = f"parameter \\CONFIG_WIDTH {len(bits)}\nparameter \\CONFIG {len(bits)}'{bits[::-1]}\n"
        self.assertEqual(synth.macc_products(cell), [(24, 16)])
        # a product with a 1-bit operand is a gate, not a multiplier
        one = "1010" + "00" + "00011" + "10000"
        self.assertEqual(synth.macc_products(f"parameter \\CONFIG_WIDTH {len(one)}\nparameter \\CONFIG {len(one)}'{one[::-1]}\n"), [])

    def test_memory_estimate(self):
        kind, a = synth.memory_estimate(32, 64, 1)
        self.assertEqual(kind, "flip-flop register file")
        self.assertAlmostEqual(a, 2048 * (47.1744 + 2 * 18.144), places=3)
        kind, a = synth.memory_estimate(16, 1024, 1)
        self.assertTrue(kind.startswith("SRAM (RM_IHPSG13_2P_1024x16"))
        self.assertAlmostEqual(a, 402.61 * 385.37, places=0)
        # the depth picks the macro class: its access time and its area per bit
        kind, a = synth.memory_estimate(49, 256, 1)
        self.assertTrue(kind.startswith("SRAM (RM_IHPSG13_2P_256x8"))
        self.assertAlmostEqual(a, 49 * 256 * 38147.5147 / 2048, places=3)
        kind, a = synth.memory_estimate(231, 64, 1)
        self.assertTrue(kind.startswith("SRAM (RM_IHPSG13_2P_64x32"))
        self.assertAlmostEqual(a, 231 * 64 * 52620.8821 / 2048, places=3)
        self.assertEqual(synth.mem_timing(49, 256), ("SRAM macro", 2.95, 0.21))
        self.assertEqual(synth.mem_timing(49, 257), ("SRAM macro", 4.31, 0.21))
        self.assertEqual(synth.mem_timing(231, 64), ("SRAM macro", 3.10, 0.21))

    def test_lib_cells_sequential(self):
        lc = synth.lib_cells()
        self.assertTrue(lc["sg13g2_dfrbp_1"][1])
        self.assertFalse(lc["sg13g2_nand2_1"][1])
        ff, comb, n = synth.kind_areas({"sg13g2_dfrbp_1": 2, "sg13g2_nand2_1": 3, "ll_sta_mem_0": 1})
        self.assertEqual(n, 2)
        self.assertAlmostEqual(ff, 2 * 47.1744, places=3)
        self.assertAlmostEqual(comb, 3 * 7.2576, places=3)

    def test_abc_recipes(self):
        # the default recipe is the one every baseline is measured with; "area" differs
        # from it by dc2 alone
        self.assertEqual(synth.ABC_RECIPE, "timing")
        self.assertEqual(synth.ABC_RECIPES["area"], "strash\nifraig\nscorr\ndc2\nstrash\n&get -n\n&dch -f\n"
                         "&nf {D}\n&put\nbuffer\nupsize {D}\ndnsize {D}\nstime -p\n")
        self.assertEqual(synth.ABC_RECIPES["timing"], synth.ABC_RECIPES["area"].replace("dc2\n", ""))

    def test_targets_judge(self):
        reps = [{"block": "b", "config": "x", "nand2_eq": 5000, "sta": {"critical_ns": 4.5}},
                {"block": "b", "config": "y", "nand2_eq": 7000, "sta": {"critical_ns": 3.5},
                 "ice40_fmax_median_mhz": 80.0}]
        t = {"configs": ["b/*"], "metric": "critical_ns", "op": "<=", "target": 4.0}
        self.assertEqual(synth.target_value(t, reps), (4.5, "b/x"))
        t = {"configs": ["b/y"], "metric": "ice40_median_mhz", "op": ">=", "target": 75}
        self.assertEqual(synth.target_value(t, reps), (80.0, "b/y"))


class FileList(unittest.TestCase):
    """synth reads, per configuration, only the files its top needs (ll_rtl.files_for_top)."""

    def test_only_what_the_top_instantiates(self):
        import ll_rtl
        with tempfile.TemporaryDirectory() as root:
            os.makedirs(os.path.join(root, "common"))
            os.makedirs(os.path.join(root, "blk"))
            src = {
                "common/ll_a.svh": "`define X 1\n",
                "common/ll_pkg.sv": "package ll_pkg; endpackage\n",
                "common/used.sv": "module used #(parameter int W = 1) (input wire logic a_i); endmodule\n",
                "common/unused.sv": "module unused (input wire logic a_i); endmodule\n",
                "blk/blk_pkg.sv": "package blk_pkg; endpackage\n",
                "blk/top.sv": ("module top (input wire logic a_i);\n  used #(.W(2)) u_used (.a_i(a_i));\n"
                               "  // unused u_old (.a_i(a_i));  a comment, not an instance\n"
                               "  /* unused u_older (.a_i(a_i)); */\nendmodule\n"),
                "blk/other.sv": "module other (input wire logic a_i);\n  unused u_x (.a_i(a_i));\nendmodule\n",
            }
            for name, text in src.items():
                with open(os.path.join(root, name), "w") as f:
                    f.write(text)
            got = [os.path.relpath(f, root) for f in ll_rtl.files_for_top("blk", "top", root)]
            self.assertEqual(got, ["common/ll_a.svh", "common/ll_pkg.sv", "blk/blk_pkg.sv", "common/used.sv", "blk/top.sv"])
            got = [os.path.relpath(f, root) for f in ll_rtl.files_for_top("blk", "other", root)]
            self.assertIn("common/unused.sv", got)
            self.assertNotIn("blk/top.sv", got)
            with self.assertRaises(ValueError):
                ll_rtl.files_for_top("blk", "no_such_top", root)

    def test_every_configuration_top_resolves(self):
        import ll_rtl
        for block in ll_rtl.blocks():
            for cfg in synth.load_configs(block)["configs"]:
                fs = ll_rtl.files_for_top(block, cfg["top"])
                self.assertTrue(any(f.endswith(".sv") and not f.endswith("_pkg.sv") for f in fs), (block, cfg["top"]))


class FlipFlopDrive(unittest.TestCase):
    """scripts/ff_drive.py: which flip-flops get the strong cell, and its script."""

    def netlist(self, loads_a, loads_b, out_port_on_a=False):
        # two flip-flops: ll_ff_0 drives net 10, ll_ff_1 net 11; each load a NAND2 input
        cells = {"ll_ff_0": {"type": ff_drive.FF_CELL, "connections": {"CLK": [2], "D": [3], "Q": [10], "Q_N": [20], "RESET_B": ["1"]}},
                 "ll_ff_1": {"type": ff_drive.FF_CELL, "connections": {"CLK": [2], "D": [4], "Q": [11], "Q_N": [21], "RESET_B": ["1"]}}}
        for i in range(loads_a):
            cells[f"g{i}"] = {"type": "sg13g2_nand2_1", "connections": {"A": [10], "B": [5], "Y": [100 + i]}}
        for i in range(loads_b):
            cells[f"h{i}"] = {"type": "sg13g2_nand2_1", "connections": {"A": [21], "B": [11], "Y": [200 + i]}}
        ports = {"o": {"direction": "output", "bits": [10] if out_port_on_a else [5]}}
        return {"modules": {"top": {"ports": ports, "cells": cells}}}

    def test_fanout_count_and_limit(self):
        lo = ff_drive.lib_output_pins()
        self.assertEqual(lo[ff_drive.FF_CELL], {"Q", "Q_N"})
        self.assertEqual(lo["sg13g2_nand2_1"], {"Y"})
        fo = ff_drive.fanouts(self.netlist(ff_drive.FANOUT_LIMIT, 9, out_port_on_a=True), lo)
        # Q and Q_N both count; an output port counts one pin; the driving flop's own pins do not
        self.assertEqual(fo, {("top", "ll_ff_0"): ff_drive.FANOUT_LIMIT + 1, ("top", "ll_ff_1"): 18})

    def test_script(self):
        with tempfile.TemporaryDirectory() as d:
            js, ys = os.path.join(d, "n.json"), os.path.join(d, "d.ys")
            with open(js, "w") as f:
                json.dump(self.netlist(ff_drive.FANOUT_LIMIT, 3), f)
            subprocess.run([sys.executable, os.path.join(HERE, "ff_drive.py"), js, ys], check=True,
                           stdout=subprocess.DEVNULL)
            text = open(ys).read()
            # ll_ff_0 drives exactly the limit: stays weak; ll_ff_1 drives 6
            self.assertNotIn("chtype", text)
            self.assertIn(f"select -assert-count 0 t:{ff_drive.FF_STRONG}", text)
            with open(js, "w") as f:
                json.dump(self.netlist(ff_drive.FANOUT_LIMIT + 1, 3), f)
            subprocess.run([sys.executable, os.path.join(HERE, "ff_drive.py"), js, ys], check=True,
                           stdout=subprocess.DEVNULL)
            text = open(ys).read()
            self.assertIn(f"chtype -set {ff_drive.FF_STRONG} top/ll_ff_0\n", text)
            self.assertIn(f"select -assert-count 1 t:{ff_drive.FF_STRONG}", text)
            # a flip-flop Yosys did not rename is refused, not silently left weak
            n = self.netlist(1, 1)
            n["modules"]["top"]["cells"]["$auto$x"] = n["modules"]["top"]["cells"].pop("ll_ff_0")
            with open(js, "w") as f:
                json.dump(n, f)
            p = subprocess.run([sys.executable, os.path.join(HERE, "ff_drive.py"), js, ys],
                               capture_output=True, text=True)
            self.assertNotEqual(p.returncode, 0)
            self.assertIn("not renamed", p.stderr)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description="Tests of the synthesis budget check (no synthesis runs).")
    ap.add_argument("-q", "--quiet", action="store_true", help="one line per failure only")
    args = ap.parse_args()
    unittest.main(argv=sys.argv[:1], verbosity=1 if args.quiet else 2)
