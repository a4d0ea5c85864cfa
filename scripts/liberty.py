"""The IHP SG13G2 Liberty file of the synthesis flows and the one way its cells are read
(scripts/synth.py: areas and which cells are sequential; scripts/ff_drive.py: output pins)."""
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIB = os.path.join(ROOT, "synth", "techlib", "sg13g2_stdcell_typ_1p20V_25C.lib")

_CELL_RE = re.compile(r"^\s*cell\s*\(\s*\"?(\w+)\"?\s*\)", re.M)


def cell_groups(lib_path=LIB):
    """{cell name: its group's text, from after `cell (name)` to the next cell} in file order."""
    with open(lib_path) as f:
        text = f.read()
    starts = [(m.end(), m.group(1)) for m in _CELL_RE.finditer(text)]
    out = {}
    for i, (pos, name) in enumerate(starts):
        end = starts[i + 1][0] if i + 1 < len(starts) else len(text)
        out[name] = text[pos:end]
    return out
