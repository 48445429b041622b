"""Misère quotients of sums of heaps (``nimtab quotient``), and the bounds and rows of
quotient sweeps (``nimtab sweep --quotients``)."""

import numbers
from typing import Any, List, Optional, Sequence, Tuple

import numpy as np

from . import _checks, _nimtab
from ._progress import bar

# The largest heap a quotient may be asked for, the library's own bound.
MAX_QUOTIENT_HEAP = _nimtab.MAX_QUOTIENT_HEAP
MAX_ORDER = 1 << 16
# The columns of a quotient sweep that hold counts (None where the cell is empty).
_COUNT_COLUMNS = ("max_heap", "last_heap", "order", "p_portion_size", "preperiod", "period")


class Quotient:
    """The quotient ``Q`` of a game for heaps of size at most ``max_heap``, proved by its
    certificate: a position is P exactly when the product of ``phi`` over its heaps is in
    ``p_portion``. Elements are numbered ``0..order-1`` (0 is the identity).

    Attributes: ``game``, ``max_heap``, ``order``, ``identity``, ``elements`` (normal
    forms, ``"1"``, ``"a"``, ``"ab^2"``), ``product`` (``order × order`` numpy array),
    ``p_portion`` (ascending list), ``phi`` (numpy array, ``phi[h]`` the element of one
    heap of size ``h``), ``presentation``, ``tame``, ``period`` (``None`` or
    ``(preperiod, period)`` when the whole game is certified), ``certified_at`` (the
    heap at which the computation stopped because the whole game was certified, else
    ``None``), ``generator_heaps``, ``relations``, and ``json``, the bytes
    ``nimtab quotient --format json`` writes. A quotient of the whole game predicts
    positions with heaps of any size.
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
        self.certified_at: Optional[int] = fields["certified_at"]
        self.generator_heaps: List[int] = fields["generator_heaps"]
        self.relations: List[Tuple[str, str]] = fields["relations"]
        self.json: bytes = fields["json"]
        self._p = np.zeros(self.order, dtype=bool)
        self._p[self.p_portion] = True

    def element_of(self, heaps: Sequence[int]) -> int:
        """The element of a position in the quotient.

        Parameters
        ----------
        heaps : sequence of int
            The position's heap sizes, in any order (0 for no heap), each at most
            ``max_heap``.

        Returns
        -------
        int
            The element's index: a row of ``product`` and an entry of ``elements``.

        Raises
        ------
        TypeError
            If ``heaps`` is not a sequence of integers.
        ValueError
            If a heap is negative, or above ``max_heap`` when the whole game is not
            certified.
        """
        x = self.identity
        for h in _checks.position(heaps):
            if h > self.max_heap:
                if self.period is None:
                    raise ValueError(
                        f"heap {h} is above the quotient's largest heap, {self.max_heap}"
                    )
                # phi(n + period) = phi(n) from the preperiod on, for every heap.
                pre, period = self.period
                h = pre + (h - pre) % period
            x = int(self.product[x, self.phi[h]])
        return x

    def is_p(self, heaps: Sequence[int]) -> bool:
        """Whether a position is P under the quotient's play.

        Parameters
        ----------
        heaps : sequence of int
            The position's heap sizes, in any order, each at most ``max_heap``.

        Returns
        -------
        bool
            True if the player to move loses (misère play, or normal play for a normal
            quotient): the position's element is in the P-portion.

        Raises
        ------
        TypeError, ValueError
            As :meth:`element_of`, for a bad position.
        """
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
    every_heap: bool = False,
) -> Quotient:
    """Compute the misère quotient of a sum of heaps, as ``nimtab quotient``.

    Parameters
    ----------
    game : str
        A sum of heaps (``nim``, ``subtract:S``, ``octal:CODE``, ``hex:CODE``, ...); a
        ``hex:`` code whose moves leave three heaps takes ``max_heap`` up to 16384.
    max_heap : int
        The largest heap size, from 1 (as far as the memory budget holds the heaps'
        options). The computation stops sooner, at the first heap at which the
        periodicity theorem certifies the whole game, unless ``every_heap``.
    max_order : int
        The most elements the quotient may grow to, 1 to 65536.
    play : str
        ``"misere"``, or ``"normal"`` for the group of Grundy values.
    progress : bool
        Show a tqdm bar, heap by heap (when tqdm is installed).
    every_heap : bool
        Go on to ``max_heap`` even once the whole game is certified.

    Returns
    -------
    Quotient
        The quotient, proved by its certificate for every position of heaps up to
        ``max_heap``.

    Raises
    ------
    ValueError
        A game that is not a sum, a quotient that outgrows ``max_order``, a bad argument.
    KeyboardInterrupt
        On Ctrl-C: the solver stops between its steps.
    """
    game = _checks.text("game", game)
    max_heap = _checks.integer("max_heap", max_heap, f"an integer from 1 to {MAX_QUOTIENT_HEAP}")
    if not 1 <= max_heap <= MAX_QUOTIENT_HEAP:
        raise ValueError(f"max_heap must be from 1 to {MAX_QUOTIENT_HEAP}, got {max_heap}")
    max_order = _checks.integer("max_order", max_order, "an integer from 1 to 65536")
    if not 1 <= max_order <= 1 << 16:
        raise ValueError(f"max_order must be from 1 to 65536, got {max_order}")
    play = _checks.text("play", play)
    if play not in ("misere", "misère", "normal"):
        raise ValueError(f"play must be 'misere' or 'normal', got {play!r}")
    with bar(progress, f"quotient {game}", max_heap, "heap") as report:
        fields = _nimtab.quotient(
            game,
            max_heap,
            max_order=max_order,
            normal=play == "normal",
            report=report,
            every_heap=bool(every_heap),
        )
    return Quotient(fields)


def quotient_bounds(quotients, max_order, game_timeout=None, game_memory=None) -> dict:
    """The checked bounds and limits of a quotient sweep, in the words of ``nimtab sweep``.

    Parameters
    ----------
    quotients : int
        The largest heap, 1 to 2**24 (``--quotients``).
    max_order : int or None
        The order bound, 1 to 65536; ``None`` for the default (``--max-order``): 4096, or
        with ``game_memory`` the largest order whose tables fit it.
    game_timeout : int or float or None
        The seconds each game may take, more than 0 (``--game-timeout``).
    game_memory : int or str or None
        The bytes each game may hold: an int, or an amount as text (``"512M"``, ``"1G"``),
        as ``--game-memory``.

    Returns
    -------
    dict
        ``quotients``, ``max_order``, ``game_timeout`` and ``game_memory`` (as text),
        keyword arguments of the compiled module.
    """
    n = _checks.integer("quotients", quotients, f"an integer from 1 to {MAX_QUOTIENT_HEAP}")
    if not 1 <= n <= MAX_QUOTIENT_HEAP:
        raise ValueError(
            f"quotients: the largest heap must be from 1 to {MAX_QUOTIENT_HEAP}, got {n}"
        )
    k = None
    if max_order is not None:
        k = _checks.integer("max_order", max_order, f"an integer from 1 to {MAX_ORDER}")
        if not 1 <= k <= MAX_ORDER:
            raise ValueError(f"max_order: the order bound must be from 1 to {MAX_ORDER}, got {k}")
    if game_timeout is not None:
        if isinstance(game_timeout, bool) or not isinstance(game_timeout, numbers.Real):
            raise TypeError(
                f"game_timeout must be a number of seconds, got {game_timeout!r} "
                f"({type(game_timeout).__name__})"
            )
        game_timeout = float(game_timeout)
    if game_memory is not None:
        if isinstance(game_memory, bool) or not isinstance(game_memory, (numbers.Integral, str)):
            raise TypeError(
                f"game_memory must be bytes (an int) or an amount as text such as '1G', got "
                f"{game_memory!r} ({type(game_memory).__name__})"
            )
        game_memory = str(game_memory) if isinstance(game_memory, str) else str(int(game_memory))
    return dict(quotients=n, max_order=k, game_timeout=game_timeout, game_memory=game_memory)


def refuse_with_quotients(given: dict, rules: Optional[str], canonical: bool) -> None:
    """Refuse what a quotient sweep has no use for, as ``--quotients`` refuses it.

    Parameters
    ----------
    given : dict
        The space, criteria and claim arguments by name (``None`` when not given).
    rules : str or None
        The rules as a comma list: only the default (all three) is accepted.
    canonical : bool
        Refused when true.

    Raises
    ------
    ValueError
        Naming the first argument given.
    """
    for name, value in given.items():
        if value is not None:
            raise ValueError(f"the argument '{name}' cannot be used with 'quotients'")
    if rules not in (None, "normal,misere,sj"):
        raise ValueError("the argument 'rules' cannot be used with 'quotients'")
    if canonical:
        raise ValueError("the argument 'canonical' cannot be used with 'quotients'")


def quotient_rows(found: Tuple[Sequence[str], Sequence[tuple]], as_frame: bool) -> Any:
    """The typed rows of a quotient sweep as dicts, or as a DataFrame.

    Parameters
    ----------
    found : tuple
        ``(header, rows)`` from the compiled module: the library's header and one tuple
        of values per game (counts as int, ``tame`` as bool, ``None`` for an empty cell).
    as_frame : bool
        Return a pandas DataFrame with nullable ``Int64`` counts and a nullable
        ``boolean`` ``tame``.

    Returns
    -------
    list of dict or pandas.DataFrame
        One row per game, in the family's order.
    """
    header, values = found
    if not as_frame:
        return [dict(zip(header, row)) for row in values]
    from ._rows import _pandas

    pandas = _pandas()
    # Built from the values, not from a frame's columns: None would become NaN there.
    columns = {name: [row[i] for row in values] for i, name in enumerate(header)}
    for name in _COUNT_COLUMNS:
        columns[name] = pandas.array(columns[name], dtype="Int64")
    columns["tame"] = pandas.array(columns["tame"], dtype="boolean")
    return pandas.DataFrame(columns, columns=list(header))
