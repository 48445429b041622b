"""nimtab from Python: exhaustive, verified P/N position tables for Nim-like games.

The labels come from nimtab's Rust library (``nimtab._nimtab``), computed with the GIL
released on the engine's threads:

* ``solve`` labels every position: numpy bool arrays, ``True`` where the position is P;
* ``grundy`` gives the Grundy values of one heap;
* ``verify`` compares the labels with the XOR, Anti-Nim and SJ criteria (the rows of
  ``nimtab verify``'s ``summary.csv``);
* ``sweep`` does the same (or tests a claim) for every game of a family, locally or on a
  Dask cluster (``client=``), and ``sweep_csv`` returns the exact bytes ``nimtab sweep``
  writes.

Bad arguments raise ``ValueError`` with the message the command line prints.
"""

import csv
import io
from typing import Dict, List, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np

from . import _nimtab

__all__ = [
    "Canonical",
    "FAMILY_LIMIT",
    "grundy",
    "merge",
    "solve",
    "sweep",
    "sweep_csv",
    "verify",
]

FAMILY_LIMIT: int = _nimtab.FAMILY_LIMIT
"""Games a family may have without ``force=True``."""

Rules = Union[str, Sequence[str]]
Heaps = Union[int, Tuple[int, int], range]


class Canonical(NamedTuple):
    """The labels of sorted tuples only: ``labels[rule][i]`` is whether the sorted
    position ``positions[i]`` is P (positions in lexicographic order)."""

    labels: Dict[str, np.ndarray]
    positions: np.ndarray


def _names(value: Rules) -> str:
    """A comma list, as the command line takes it."""
    return value if isinstance(value, str) else ",".join(value)


def _heap_range(heaps: Heaps) -> Tuple[int, int]:
    if isinstance(heaps, range):
        if heaps.step != 1 or len(heaps) == 0:
            raise ValueError(f"heaps must be a non-empty range of step 1, got {heaps!r}")
        return heaps.start, heaps.stop - 1
    if isinstance(heaps, tuple):
        lo, hi = heaps
        return int(lo), int(hi)
    return int(heaps), int(heaps)


def solve(
    game: str,
    heaps: int,
    max: int,
    rules: Rules = ("normal", "misere", "sj"),
    canonical: bool = False,
    threads: Optional[int] = None,
) -> Union[Dict[str, np.ndarray], Canonical]:
    """Labels every position of ``heaps`` heaps of at most ``max`` stones.

    Returns ``{rule: array}`` with bool arrays of shape ``(max + 1,) * heaps``:
    ``array[h1, h2, ...]`` is ``True`` where the position is P. With ``canonical=True``
    only sorted tuples are labelled, and a :class:`Canonical` holds one flat array per
    rule and the positions in their index order.
    """
    names, arrays, positions = _nimtab.solve(
        game, heaps, max, _names(rules), canonical=canonical, threads=threads
    )
    labels = dict(zip(names, arrays))
    if canonical:
        return Canonical(labels, positions)
    return labels


def grundy(game: str, max: int) -> np.ndarray:
    """The Grundy values of one heap of sizes ``0..=max`` (uint32)."""
    return _nimtab.grundy(game, max)


_INTEGER_COLUMNS = ("heaps", "max", "positions", "p_positions", "agree", "disagree")
# Over multisets the space cells are words: heaps ``any``, max ``total<=T``.
_SPACE_COLUMNS = ("heaps", "max")


def _rows(data: bytes) -> List[dict]:
    """Rows of a summary CSV: integers as int, the first counterexample as a tuple of
    heap sizes (``None`` when there is none; ``()`` for the empty position, written
    ``()`` in the CSV)."""
    rows = []
    for row in csv.DictReader(io.StringIO(data.decode("utf-8"), newline="")):
        for column in _INTEGER_COLUMNS:
            if column in _SPACE_COLUMNS and not row[column].isdigit():
                continue
            row[column] = int(row[column])
        first = row["first_counterexample"]
        if not first:
            row["first_counterexample"] = None
        elif first == "()":
            row["first_counterexample"] = ()
        else:
            row["first_counterexample"] = tuple(int(h) for h in first.split())
        rows.append(row)
    return rows


def _frame(rows: List[dict]):
    try:
        import pandas
    except ImportError as e:
        raise ImportError(
            "as_frame=True needs pandas: pip install pandas (without it, rows come back "
            "as a list of dicts)"
        ) from e
    return pandas.DataFrame.from_records(rows)


def verify(
    game: str,
    heaps: Heaps,
    max: int,
    rules: Rules = ("normal", "misere", "sj"),
    criteria: Rules = ("xor", "anti-nim", "sj"),
    canonical: bool = False,
    threads: Optional[int] = None,
    as_frame: bool = False,
):
    """Compares the labels with each criterion: one dict per (heap count, rule,
    criterion) with the columns of ``nimtab verify``'s ``summary.csv``. ``heaps`` is a
    count, a ``(lo, hi)`` pair or a range. ``as_frame=True`` returns a pandas DataFrame."""
    lo, hi = _heap_range(heaps)
    data = _nimtab.verify_csv(
        game, lo, hi, max, _names(rules), _names(criteria), canonical=canonical, threads=threads
    )
    rows = _rows(data)
    return _frame(rows) if as_frame else rows


def _sweep_args(games, heaps, max, rules, criteria, claim, canonical, force, total) -> dict:
    if total is None:
        if heaps is None or max is None:
            raise ValueError("give heaps and max (tuples of heaps), or total (multisets)")
        lo, hi = _heap_range(heaps)
    elif heaps is not None or max is not None:
        raise ValueError("give either heaps and max, or total, not both")
    else:
        lo = hi = None
    text, listed = (games, None) if isinstance(games, str) else (None, list(games))
    return dict(
        games=text,
        game_list=listed,
        heaps_lo=lo,
        heaps_hi=hi,
        max=max,
        rules=_names(rules),
        criteria=_names(criteria),
        claim=claim,
        canonical=canonical,
        force=force,
        total=total,
    )


def sweep_csv(
    games: Union[str, Sequence[str]],
    heaps: Optional[Heaps] = None,
    max: Optional[int] = None,
    rules: Rules = ("normal", "misere", "sj"),
    criteria: Rules = ("xor", "anti-nim", "sj"),
    claim: Optional[str] = None,
    canonical: bool = False,
    force: bool = False,
    threads: Optional[int] = None,
    client=None,
    shards: Optional[int] = None,
    shard: Optional[Tuple[int, int]] = None,
    total: Optional[int] = None,
) -> bytes:
    """The bytes ``nimtab sweep`` writes for the same arguments.

    ``games`` is a family text (``"subtract:subsets(1..=6)"``, ``"nim;subtract:1,2"``)
    or a list of specs. The space is ``heaps`` heaps of at most ``max`` stones, or with
    ``total=T`` (and neither of those) every multiset of heaps of total at most T, as
    ``nimtab sweep --total T``: games that split heaps allowed, sums of heaps only.
    ``claim`` replaces the criteria. ``shard=(i, n)`` returns the
    part of shard i of n. With a ``dask.distributed`` ``client``, the sweep runs as
    ``shards`` tasks (default: four per worker thread, at most one per game) on the cluster and
    the parts are merged: the bytes are those of the local run. ``threads`` sizes the
    local pool; on a cluster each worker uses its own (``RAYON_NUM_THREADS``).
    """
    args = _sweep_args(games, heaps, max, rules, criteria, claim, canonical, force, total)
    if client is None:
        return _nimtab.sweep_csv(**args, shard=shard, threads=threads)
    if shard is not None:
        raise ValueError("shard and client cannot be used together: the client runs every shard")
    from ._dask import sweep_on_cluster

    return sweep_on_cluster(client, args, shards)


def sweep(
    games: Union[str, Sequence[str]],
    heaps: Optional[Heaps] = None,
    max: Optional[int] = None,
    rules: Rules = ("normal", "misere", "sj"),
    criteria: Rules = ("xor", "anti-nim", "sj"),
    claim: Optional[str] = None,
    canonical: bool = False,
    force: bool = False,
    threads: Optional[int] = None,
    client=None,
    shards: Optional[int] = None,
    as_frame: bool = False,
    total: Optional[int] = None,
):
    """Verifies (or tests ``claim`` on) every game of a family: one dict per (game, heap
    count, rule, criterion or claim), in the family's order, with the columns of
    ``summary.csv`` (over multisets, ``heaps`` is ``"any"`` and ``max`` is
    ``"total<=T"``). Arguments as :func:`sweep_csv`; ``as_frame=True`` returns a pandas
    DataFrame."""
    data = sweep_csv(
        games, heaps, max, rules, criteria, claim, canonical, force, threads, client, shards,
        total=total,
    )
    rows = _rows(data)
    return _frame(rows) if as_frame else rows


def merge(parts: Sequence[bytes]) -> bytes:
    """Merges the parts of a sharded sweep (as ``sweep_csv(..., shard=(i, n))`` or
    ``nimtab sweep --shard`` write them) into the bytes of the whole run."""
    return _nimtab.merge(list(parts))
