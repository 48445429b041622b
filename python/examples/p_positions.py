"""P-positions of subtract:1,3,4 with two heaps, under normal and misère play, and the
SJ conjecture over every subtraction set of 1..=6: the README's notebook example.

Run from the repository root with nimtab and matplotlib installed:
    python python/examples/p_positions.py
It writes python/examples/p-positions.png.
"""

from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt

import nimtab

# One bool array per rule, shape (41, 41): tables["misere"][h1, h2] is True where P.
tables = nimtab.solve("subtract:1,3,4", heaps=2, max=40, rules=["normal", "misere"])

fig, axes = plt.subplots(1, 2, figsize=(8, 4.3), constrained_layout=True)
for ax, (rule, p) in zip(axes, tables.items()):
    ax.imshow(p, cmap="Greys", interpolation="nearest")
    ax.set_title(f"subtract:1,3,4, {rule}: {p.sum()} P-positions")
    ax.set_xlabel("h2")
    ax.set_ylabel("h1")
out = Path(__file__).with_name("p-positions.png")
fig.savefig(out, dpi=80, metadata={"Software": None})
print("wrote", out)

# Does misère play agree with the SJ criterion for every subtraction set of 1..=6?
rows = nimtab.sweep("subtract:subsets(1..=6)", heaps=(1, 3), max=31, rules="misere", criteria="sj")
print(len(rows), "rows,", sum(r["disagree"] for r in rows), "disagreements")
