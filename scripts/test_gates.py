#!/usr/bin/env python3
"""Tests of the gate-level netlist handling in scripts/gates.py (run by `make gates` first).

A small module with a false combinational loop through a vector wire goes through the same
steps as a block's netlist: Yosys maps it to gates, bit-blasts it (`splitnets -ports`) and
renames it <top>__bits, gates.wrap_netlist puts the wrapper in front; then
  - Icarus simulates the wrapped netlist against the RTL for every input, and a wrapper
    with two port bits swapped must fail that comparison;
  - Verilator sees a false loop (UNOPTFLAT) in the vector netlist and none in the wrapped one;
plus the port check (a [0:N] port is refused), the negative test's AND pattern and its
choice of the AND nearest an output (1-bit output ports included).
Run: python3 scripts/test_gates.py [--quiet]
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
import gates  # noqa: E402

# y's bits are a permutation of the chain w, so a wrapper that mis-wires a bit shows
RTL = """module t(input wire [3:0] a, input wire b, output wire [3:0] y, output wire z);
  wire [3:0] w;
  assign w[0] = a[0] ^ b;
  assign w[1] = w[0] & a[1];
  assign w[2] = w[1] | a[2];
  assign w[3] = w[2] ^ a[3];
  assign y = {w[2], w[0], w[3], w[1]};
  assign z = ^w;
endmodule
"""

TB = """`timescale 1ns/1ps
module tb;
  reg [3:0] a; reg b; wire [3:0] y, y_ref; wire z, z_ref;
  integer i, bad;
  t dut (.a(a), .b(b), .y(y), .z(z));
  t_ref ref_ (.a(a), .b(b), .y(y_ref), .z(z_ref));
  initial begin
    bad = 0;
    for (i = 0; i < 32; i = i + 1) begin
      {b, a} = i[4:0];
      #1;
      if (y !== y_ref || z !== z_ref) bad = bad + 1;
    end
    $display("MISMATCHES %0d", bad);
    $finish;
  end
endmodule
"""


def run(cmd, cwd):
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)


class Wrapper(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        d = cls.dir = cls.tmp.name
        with open(os.path.join(d, "t.v"), "w") as f:
            f.write(RTL)
        script = ("read_verilog t.v\nhierarchy -top t\nproc\nflatten\nopt\ntechmap\nopt -fast\n"
                  "write_json ports.json\nwrite_verilog -noattr vector.v\n"
                  f"splitnets -ports\nrename t t{gates.BIT_SUFFIX}\nwrite_verilog -noattr bits.v\n")
        r = run(["yosys", "-q", "-p", script], d)
        if r.returncode:
            raise RuntimeError(f"yosys failed: {r.stderr[-500:]}")
        with open(os.path.join(d, "ports.json")) as f:
            cls.rtl = gates.rtl_ports("t", json.load(f)["modules"]["t"])
        cls.wrapped = os.path.join(d, "wrapped.v")
        with open(os.path.join(d, "bits.v")) as f, open(cls.wrapped, "w") as g:
            g.write(f.read())
        gates.wrap_netlist("t", cls.wrapped, "t", cls.rtl)
        with open(os.path.join(d, "ref.v"), "w") as f:
            f.write(RTL.replace("module t(", "module t_ref("))
        with open(os.path.join(d, "tb.v"), "w") as f:
            f.write(TB)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def mismatches(self, netlist):
        d = self.dir
        r = run(["iverilog", "-g2012", "-o", "sim", "tb.v", "ref.v", netlist], d)
        self.assertEqual(r.returncode, 0, r.stderr)
        out = run(["vvp", "-n", "sim"], d).stdout
        return int(out.split("MISMATCHES")[1].split()[0])

    def test_ports_are_the_rtl_tops(self):
        self.assertEqual(self.rtl, [("a", "input", 4), ("b", "input", 1), ("y", "output", 4), ("z", "output", 1)])
        self.assertEqual(gates.verilog_ports(self.wrapped, "t"), self.rtl)

    def test_wrapped_netlist_equals_rtl(self):
        self.assertEqual(self.mismatches(self.wrapped), 0)

    def test_swapped_port_bits_are_seen(self):
        with open(self.wrapped) as f:
            text = f.read()
        bad = text.replace(".\\y[0] (y[0])", ".\\y[0] (TMP)").replace(".\\y[1] (y[1])", ".\\y[1] (y[0])") \
                  .replace(".\\y[0] (TMP)", ".\\y[0] (y[1])")
        self.assertNotEqual(bad, text)
        path = os.path.join(self.dir, "swapped.v")
        with open(path, "w") as f:
            f.write(bad)
        self.assertGreater(self.mismatches(path), 0)

    def test_no_false_loop_left(self):
        def unoptflat(netlist):
            r = run(["verilator", "--lint-only", "-Wall", "-Wno-fatal", "-Wno-DECLFILENAME", "-Wno-UNUSED",
                     "--top", "t", netlist], self.dir)
            return r.stderr.count("%Warning-UNOPTFLAT")
        self.assertGreater(unoptflat("vector.v"), 0)   # the check can see a loop
        self.assertEqual(unoptflat("wrapped.v"), 0)

    def test_mismatched_ports_refused(self):
        path = os.path.join(self.dir, "short.v")
        with open(os.path.join(self.dir, "bits.v")) as f:
            bits = f.read()
        with open(path, "w") as f:
            f.write(bits)
        with self.assertRaises(RuntimeError):
            gates.wrap_netlist("t", path, "t", [("a", "input", 5)] + self.rtl[1:])


class Checks(unittest.TestCase):
    def test_reversed_or_offset_port_refused(self):
        for extra in ({"upto": 1}, {"offset": 1}):
            mod = {"ports": {"a": dict({"direction": "input", "bits": [2, 3]}, **extra),
                             "y": {"direction": "output", "bits": [4]}}}
            with self.assertRaisesRegex(RuntimeError, r"\['a'\]"):
                gates.rtl_ports("m", mod)
        ok = {"ports": {"a": {"direction": "input", "bits": [2, 3]}}}
        self.assertEqual(gates.rtl_ports("m", ok), [("a", "input", 2)])

    def test_and_pattern(self):
        yes = ["  assign _1_ = a & b;", "  assign _1_ = \\u.x[3]  & _2_;", "  assign \\y[0]  = _1_ & \\b ;",
               "  assign _1_ = a [2] & b;"]
        no = ["  assign _1_ = ~a & b;", "  assign _1_ = a | b;", "  assign _1_ = a & b & c;"]
        for ln in yes:
            self.assertTrue(gates.MUT_RE.match(ln), ln)
        for ln in no:
            self.assertFalse(gates.MUT_RE.match(ln), ln)

    def test_nearest_and_counts_one_bit_outputs(self):
        text = ("module m(a, v);\n  input [1:0] a;\n  output v;\n  m__bits bits (\n    .\\a[0] (a[0]),\n"
                "    .\\a[1] (a[1]),\n    .v(v)\n  );\nendmodule\n\n"
                "module m__bits(\\a[0] , \\a[1] , v);\n  input \\a[0] ;\n  input \\a[1] ;\n  output v;\n"
                "  wire _1_;\n  wire _2_;\n  assign _1_ = \\a[0]  & \\a[1] ;\n  assign _2_ = _1_ & \\a[0] ;\n"
                "  assign v = _2_ & \\a[1] ;\nendmodule\n")
        with tempfile.NamedTemporaryFile("w", suffix=".v", delete=False) as f:
            f.write(text)
        try:
            lines, i, hops = gates.pick_and(f.name)
        finally:
            os.unlink(f.name)
        self.assertEqual((lines[i].strip(), hops), ("assign v = _2_ & \\a[1] ;", 0))


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quiet", action="store_true")
    a, rest = ap.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=1 if a.quiet else 2)
