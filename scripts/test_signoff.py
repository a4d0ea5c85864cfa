#!/usr/bin/env python3
"""signoff.py's equivalence cell: a configuration the last `make equiv` run left out is shown
as NOT RUN (make test's --ci run leaves out the "signoff" ones), an unfinished proof as FAILED,
unproven cells as NOT PROVEN; nothing is dropped from the row. Synthetic summaries only."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import signoff  # noqa: E402


def row(block, config, proven=10, cells=10, **extra):
    r = {"block": block, "config": config, "netlist": "sg13g2", "proven": proven, "cells": cells,
         "unproven": cells - proven}
    r.update(extra)
    return r


class EquivCell(unittest.TestCase):
    def setUp(self):
        # a block with two configurations to prove, from its synth/<block>/configs.json
        self.block = next(b for b in signoff.BLOCKS if len(signoff.equiv_configs(b)) >= 2)
        self.first, self.second = signoff.equiv_configs(self.block)[:2]

    def test_all_proved(self):
        configs = signoff.equiv_configs(self.block)
        cell = signoff.equiv_cell([row(self.block, c) for c in configs], self.block)
        self.assertEqual(cell, "; ".join(f"{c} sg13g2 10/10" for c in configs))

    def test_left_out_is_not_run(self):
        cell = signoff.equiv_cell([row(self.block, self.first)], self.block)
        self.assertIn(f"{self.first} sg13g2 10/10", cell)
        self.assertIn(f"{self.second} NOT RUN", cell)

    def test_unproven_and_failed(self):
        cell = signoff.equiv_cell([row(self.block, self.first, proven=9),
                                   row(self.block, self.second, error="timeout")], self.block)
        self.assertIn(f"{self.first} sg13g2 9/10 NOT PROVEN", cell)
        self.assertIn(f"{self.second} FAILED (timeout)", cell)

    def test_no_rows(self):
        self.assertEqual(signoff.equiv_cell(None, self.block), "not run")
        self.assertEqual(signoff.equiv_cell([row("other", "x")], self.block), "not proved")


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1] + [a for a in sys.argv[1:] if a != "--quiet"],
                  verbosity=0 if "--quiet" in sys.argv else 2)
