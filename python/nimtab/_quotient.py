"""Misère quotients of sums of heaps (``nimtab quotient``), and the rows of quotient
sweeps (``nimtab sweep --quotients``)."""

import csv
import io
from typing import List, Optional, Sequence, Tuple

import numpy as np

from . import _checks, _nimtab
from ._progress import bar

MAX_QUOTIENT_HEAP = 1000
MAX_ORDER = 1 << 16
# The columns of a quotient sweep that hold counts (empty unless the status is ok).
_COUNT_COLUMNS = ("max_heap", "order", "p_portion_size", "preperiod", "period")


class Quotient:
    """The quotient ``Q`` of a game for heaps of size at most ``max_heap``, proved by its
    certificate: a position is P exactly when the product of ``phi`` over its heaps is in
    ``p_portion``. Elements are numbered ``0..order-1`` (0 is the identity).

    Attributes: ``game``, ``max_heap``, ``order``, ``identity``, ``elements`` (normal
    forms, ``"1"``, ``"a"``, ``"ab^2"``), ``product`` (``order × order`` numpy array),
    ``p_portion`` (ascending list), ``phi`` (numpy array, ``phi[h]`` the element of one
    heap of size ``h``), ``presentation``, ``tame``, ``period`` (``None`` or
    ``(preperiod, period)`` when the whole game is certified), ``generator_heaps``,
    ``relations``, and ``json``, the bytes ``nimtab quotient --format json`` writes.
    """

    def __init__(self, fields: dict):
        self.game: str = fields["game"]
        self.max_heap: int = fields["max_heap"]
        self.order: int = fields["order"]
        self.identity: int = fields["identity"]
        self.elements: List[str] = fields["elements"]
        self.product: np.ndarray = fields["product"].astype(np.int64)
        self.p_portion: List[int] = fields["p_portion"]
        self.phi: np.ndarray = fields["phi"].astype(np.int64)
        self.presentation: str = fields["presentation"]
        self.tame: bool = fields["tame"]
        self.period: Optional[Tuple[int, int]] = fields["period"]
        self.generator_heaps: List[int] = fields["generator_heaps"]
        self.relations: List[Tuple[str, str]] = fields["relations"]
        self.json: bytes = fields["json"]
        self._p = np.zeros(self.order, dtype=bool)
        self._p[self.p_portion] = True

    def element_of(self, heaps: Sequence[int]) -> int:
        """The element of a position (heaps in any order; 0 for no heap)."""
        x = self.identity
        for h in _checks.position(heaps):
            if h > self.max_heap:
                raise ValueError(f"heap {h} is above the quotient's largest heap, {self.max_heap}")
            x = int(self.product[x, self.phi[h]])
        return x

    def is_p(self, heaps: Sequence[int]) -> bool:
        """Whether the position is P (misère play, or normal play for a normal quotient)."""
        return bool(self._p[self.element_of(heaps)])

    def __repr__(self) -> str:
        return (
            f"Quotient({self.game!r}, max_heap={self.max_heap}: order {self.order}, "
            f"P-portion {len(self.p_portion)}, {self.presentation})"
        )


def quotient(
    game: str,
    max_heap: int,
    max_order: int = 4096,
    play: str = "misere",
    progress: bool = True,
) -> Quotient:
    """The misère quotient of ``game`` (a sum of heaps) with heaps up to ``max_heap``,
    as ``nimtab quotient``; ``play="normal"`` gives the group of Grundy values instead.
    ``max_heap`` from 1 to 1000, ``max_order`` from 1 to 65536."""
    game = _checks.text("game", game)
    max_heap = _bound("max_heap", max_heap, MAX_QUOTIENT_HEAP)
    max_order = _bound("max_order", max_order, MAX_ORDER)
    if play not in ("misere", "misère", "normal"):
        raise ValueError(f"play must be 'misere' or 'normal', got {play!r}")
    with bar(progress, f"quotient {game}", max_heap, "heap") as report:
        fields = _nimtab.quotient(
            game, max_heap, max_order=max_order, normal=play == "normal", report=report
        )
    return Quotient(fields)


def _bound(name: str, value, limit: int) -> int:
    n = _checks.integer(name, value, f"an integer from 1 to {limit}")
    if not 1 <= n <= limit:
        raise ValueError(f"{name} must be from 1 to {limit}, got {n}")
    return n


def quotient_bounds(quotients, max_order) -> dict:
    """The checked ``quotients`` (largest heap, 1 to 1000) and ``max_order`` (1 to 65536,
    default 4096) of a quotient sweep, as keyword arguments of ``_nimtab.sweep_csv``."""
    max_order = 4096 if max_order is None else max_order
    return dict(
        quotients=_bound("quotients", quotients, MAX_QUOTIENT_HEAP),
        max_order=_bound("max_order", max_order, MAX_ORDER),
    )


def quotient_sweep_rows(data: bytes, as_frame: bool = False):
    """The rows of a quotient sweep's CSV as dicts: counts as int, ``tame`` as bool, and
    ``None`` for an empty cell (every result cell of a row whose status is not ``ok``,
    the period cells when no period is certified). ``as_frame=True``: a pandas
    DataFrame with nullable integer and boolean columns."""
    found = []
    for row in csv.DictReader(io.StringIO(data.decode("utf-8"), newline="")):
        for column in _COUNT_COLUMNS:
            row[column] = int(row[column]) if row[column] else None
        row["tame"] = {"true": True, "false": False}.get(row["tame"])
        found.append(row)
    if not as_frame:
        return found
    try:
        import pandas
    except ImportError as e:
        raise ImportError("as_frame=True needs pandas: pip install pandas") from e
    header = next(csv.reader(io.StringIO(data.decode("utf-8"))))
    table = pandas.DataFrame.from_records(found, columns=header)
    for column in _COUNT_COLUMNS:
        table[column] = table[column].astype("Int64")
    table["tame"] = table["tame"].astype("boolean")
    return table
