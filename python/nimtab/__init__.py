"""nimtab from Python: exhaustive, verified P/N position tables for Nim-like games.

The labels come from nimtab's Rust library (``nimtab._nimtab``), computed with the GIL
released on the engine's threads:

* ``solve`` labels every position: numpy bool arrays, ``True`` where the position is P
  (or a long-form pandas DataFrame, or an xarray DataArray);
* ``grundy`` gives the Grundy values of one heap;
* ``verify`` compares the labels with the criteria that apply to the game (the rows of
  ``nimtab verify``'s ``summary.csv``);
* ``sweep`` does the same (or tests a claim) for every game of a family, locally or on a
  Dask cluster (``client=``), and ``sweep_csv`` returns the exact bytes ``nimtab sweep``
  writes;
* ``check`` tests a claim "P exactly when EXPR" on one game;
* ``moves``, ``period`` and ``classes`` give a position's winning moves, the certified
  period of a heap's Grundy values and misère Nim's classes;
* ``quotient`` gives the misère quotient of a sum of heaps;
* ``genus`` gives the genus of every heap of a take-and-break game, or of a sum of heaps;
* ``atlas`` solves every octal code of a family (``nimtab atlas``), locally or on a Dask
  cluster, and writes the command's files with ``out=``.

The compiled module's types are in ``nimtab/_nimtab.pyi`` (the package ships
``py.typed``).

Defaults are those of the command line. A bad argument raises ``TypeError`` or
``ValueError`` naming it; Ctrl-C raises ``KeyboardInterrupt`` within a fraction of a
second and stops the engine. Long calls show a tqdm bar when tqdm is installed
(``progress=False`` hides it).
"""

import numpy as np
from typing import Optional

from . import _checks, _nimtab
from ._atlas import Atlas, atlas
from ._genus import genus
from ._plot import plot
from ._quotient import Quotient, quotient
from ._reach import Classes, Moves, Period, classes, moves, period
from ._summaries import check, verify
from ._sweeps import merge, sweep, sweep_csv
from ._tables import Canonical, Multisets, solve

__version__: str = _nimtab.__version__

__all__ = [
    "Atlas",
    "Canonical",
    "Classes",
    "FAMILY_LIMIT",
    "Moves",
    "Multisets",
    "Period",
    "Quotient",
    "__version__",
    "atlas",
    "check",
    "classes",
    "genus",
    "grundy",
    "merge",
    "moves",
    "period",
    "plot",
    "quotient",
    "solve",
    "sweep",
    "sweep_csv",
    "verify",
]

FAMILY_LIMIT: int = _nimtab.FAMILY_LIMIT
"""Games a family may have without ``force=True``."""


def grundy(game: str, max: int, format: str = "values", rare_mask=None, snapshots: Optional[str] = None):
    """Compute the Grundy values of one heap, as ``nimtab grundy``.

    Parameters
    ----------
    game : str
        The game spec, as ``--game``.
    max : int
        The largest heap size.
    format : str
        ``"values"`` (every value), ``"rare"`` (as ``--format rare``: every rare heap of
        the sparse-space split) or ``"summary"`` (as ``--format summary``).
    rare_mask : int or str, optional
        With ``"rare"`` or ``"summary"``: the mask (an int, or hex text as
        ``--rare-mask``); default the one with the fewest rare heaps.
    snapshots : str, optional
        With ``"summary"``: ``"pow2"`` for a row at every power of two and the max.

    Returns
    -------
    numpy.ndarray or list of dict
        ``"values"``: the values of heap sizes ``0..=max`` (uint32). ``"rare"``: one row
        ``(heap, grundy)`` per rare heap (uint64, shape ``(k, 2)``). ``"summary"``: one
        dict per row of the command's CSV (``through``, ``largest_value``,
        ``largest_at``, ``rare_mask`` as hex text, ``rare_count``, ``last_rare``).
    """
    game = _checks.text("game", game)
    max = _checks.max_size(max)
    if format == "values":
        if rare_mask is not None or snapshots is not None:
            raise ValueError("rare_mask and snapshots are for format 'rare' or 'summary'")
        return _nimtab.grundy(game, max)
    if format not in ("rare", "summary"):
        raise ValueError(f"format must be 'values', 'rare' or 'summary', got {format!r}")
    mask = _rare_mask(rare_mask)
    if snapshots not in (None, "pow2"):
        raise ValueError(f"snapshots must be None or 'pow2', got {snapshots!r}")
    if snapshots is not None and format != "summary":
        raise ValueError("snapshots is for format 'summary' here (one array per call)")
    points = [max]
    if snapshots == "pow2":
        points = [1 << k for k in range(64) if 1 << k <= max]
        if max > 0 and max & (max - 1):
            points.append(max)
    rows, heaps = _nimtab.grundy_rare(game, max, points, mask)
    if format == "rare":
        return heaps
    names = ("through", "largest_value", "largest_at", "rare_mask", "rare_count", "last_rare")
    return [dict(zip(names, (r[0], r[1], r[2], _hex(r[3]), r[4], r[5]))) for r in rows]


def _hex(mask: int) -> str:
    """A mask as the tables write it: lowercase hex, no prefix."""
    return f"{mask:x}"


def _rare_mask(mask) -> Optional[int]:
    if mask is None:
        return None
    if isinstance(mask, str):
        try:
            value = int(mask.removeprefix("0x"), 16)
        except ValueError:
            value = 0
    elif isinstance(mask, int) and not isinstance(mask, bool):
        value = mask
    else:
        raise TypeError(f"rare_mask must be an int or hex text, got {mask!r}")
    if not 1 <= value < 2**32:
        raise ValueError(f"rare_mask must be a nonzero hexadecimal mask below 2**32, got {mask!r}")
    return value
