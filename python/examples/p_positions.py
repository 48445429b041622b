"""P-positions of subtract:1,3,4 with two heaps, under normal and misère play and where
they differ, and the SJ conjecture over every subtraction set of 1..=6: the README's
notebook example.

Run from the repository root with nimtab and matplotlib installed:
    python python/examples/p_positions.py [OUT.png]
It writes the picture to OUT.png, by default p-positions.png in the system's temporary
directory, so a run leaves the checkout as it was. The picture of docs/guide/python.md is
refreshed with
    python python/examples/p_positions.py python/examples/p-positions.png
"""

import sys
import tempfile
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # no display needed

import nimtab

# One panel per rule (origin bottom left, P black), and one of the cells that differ.
fig = nimtab.plot("subtract:1,3,4", 40, rules=["normal", "misere"], difference=("normal", "misere"))
out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.gettempdir()) / "p-positions.png"
fig.savefig(out, dpi=150, metadata={"Software": None})
print("wrote", out)

# Does misère play agree with the SJ criterion for every subtraction set of 1..=6?
rows = nimtab.sweep("subtract:subsets(1..=6)", heaps=(1, 3), max=31, rules="misere", criteria="sj")
print(len(rows), "rows,", sum(r["disagree"] for r in rows), "disagreements")
