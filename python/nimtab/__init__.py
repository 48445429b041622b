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

from . import _checks, _nimtab
from ._atlas import Atlas, atlas
from ._plot import plot
from ._quotient import Quotient, quotient
from ._reach import Classes, Moves, Period, classes, moves, period
from ._summaries import check, merge, sweep, sweep_csv, verify
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


def grundy(game: str, max: int) -> np.ndarray:
    """Compute the Grundy values of one heap, as ``nimtab grundy``.

    Parameters
    ----------
    game : str
        The game spec, as ``--game``.
    max : int
        The largest heap size.

    Returns
    -------
    numpy.ndarray
        The values of heap sizes ``0..=max`` (uint32).
    """
    return _nimtab.grundy(_checks.text("game", game), _checks.max_size(max))
