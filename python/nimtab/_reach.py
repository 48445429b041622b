"""One position and one heap: winning moves (``nimtab moves``), the certified period of
the Grundy values (``nimtab period``) and misère Nim's classes (``nimtab classes``)."""

from typing import Dict, List, NamedTuple, Optional, Sequence, Tuple

import numpy as np

from . import _checks, _nimtab
from ._progress import bar


class Moves(NamedTuple):
    """The winning moves from a position (``nimtab moves``).

    Attributes
    ----------
    moves : list of dict
        One dict per winning move, in the command's order. For a sum of heaps the cells of
        ``nimtab moves --format csv``: ``heap`` (from 1), ``from``, ``to``, ``take``; for
        another game (several heaps at once, or a pass) ``option``, the heaps after the
        step as a tuple, or ``"pass"``. Each has ``text``, the command's line.
    lost : bool
        The position is P: lost for the player to move (there is no winning move).
    over : bool
        The ending rule has ended the game: the player to move has won.
    """

    moves: List[dict]
    lost: bool
    over: bool


def moves(
    game: str,
    position: Sequence[int],
    rules: Optional[str] = None,
    pass_: bool = False,
    *,
    rule: Optional[str] = None,
) -> Moves:
    """List every winning move from a position, as ``nimtab moves``.

    Parameters
    ----------
    game : str
        The game spec, as ``--game`` (the command's default is ``"nim"``).
    position : sequence of int
        The heap sizes (at least one).
    rules : str, optional
        The ending rule, one of ``normal`` (the default), ``misere`` or ``sj`` (sums of
        heaps only): the word the other functions use, as ``--rules``.
    pass_ : bool
        Add one pass, shared by both players, as ``--pass``; the position starts with it
        available.
    rule : str, optional
        The older name of ``rules``, still accepted.

    Returns
    -------
    Moves
        The winning moves, and whether the position is lost or over.

    Raises
    ------
    ValueError, TypeError
        A bad argument, named in the command line's words.
    """
    game = _checks.text("game", game)
    position = _checks.position(position)
    if not position:
        raise ValueError("a position needs at least one heap size")
    if rule is not None:
        if rules is not None:
            raise TypeError("moves() takes rules or its older name rule, not both")
        rules = rule
    rules = _checks.text("rules", "normal" if rules is None else rules)
    pass_ = _checks.flag("pass_", pass_)
    found, lost, over = _nimtab.moves(game, list(position), rules, with_pass=pass_)
    return Moves(found, lost, over)


class Period(NamedTuple):
    """The period of one heap's Grundy values (``nimtab period``).

    Attributes
    ----------
    game : str
        The game spec.
    certified : bool
        A period was proved for every heap size: by the periodicity theorem that covers
        the game, or (saltus above 0, hexadecimal codes) by the arithmetic-periodicity
        criterion.
    preperiod, period : int or None
        The least preperiod and the least period (``None`` when none was certified).
    saltus : int or None
        ``s`` in ``G(n + period) = G(n) + s`` from the preperiod on: 0 for ordinary
        periodicity, above 0 for an arithmetic period (``None`` when none was certified).
    checked_through : int
        Certified: the first heap size at which the theorem's window fits, or the last
        heap the arithmetic criterion reads (the values the proof reads). Not certified:
        the largest heap size whose value was computed.
    largest_value : int or None
        Not certified: the largest Grundy value computed.
    statement : str or None
        Not certified: why, in the command's words.
    """

    game: str
    certified: bool
    preperiod: Optional[int]
    period: Optional[int]
    saltus: Optional[int]
    checked_through: int
    largest_value: Optional[int]
    statement: Optional[str]


def period(game: str, max: int, threads: Optional[int] = None, progress: bool = True) -> Period:
    """Find the least period of a game's Grundy values, certified by a theorem.

    As ``nimtab period --max N``: the values are computed up to ``max`` at most, and the
    search stops at the first heap size where a period's window fits.

    Parameters
    ----------
    game : str
        A sum of heaps (a subtraction or take-and-break game, Nim, a graph).
    max : int
        The largest heap size, up to 2**40 (the values must fit in memory; the command
        line keeps larger runs in a file).
    threads : int, optional
        Threads of the sequence run, 1 to 256.
    progress : bool
        Show a tqdm bar of the heaps done (when tqdm is installed).

    Returns
    -------
    Period
        The certified period, or the statement that none was found.

    Raises
    ------
    ValueError, TypeError
        A bad argument, or a game that is not a sum of heaps.
    """
    game = _checks.text("game", game)
    max = _checks.sequence_max(max)
    threads = _checks.threads(threads)
    progress = _checks.flag("progress", progress)
    with bar(progress, f"period {game}", max + 1, "heap") as report:
        found, checked, largest, statement = _nimtab.period(game, max, threads=threads, report=report)
    preperiod, length, saltus = found if found else (None, None, None)
    return Period(game, found is not None, preperiod, length, saltus, checked, largest, statement)


class Classes(NamedTuple):
    """Misère Nim's classes S0, S1, S2, T0, T2 (``nimtab classes``).

    Attributes
    ----------
    counts : list of dict
        The rows of ``classes.csv``: ``class``, ``positions``, ``p_normal``, ``p_misere``.
    transitions : list of dict
        The rows of ``transitions.csv``: ``from``, ``to``, ``moves`` (all 25 pairs).
    moves : numpy.ndarray
        ``moves[i, j]``: moves from a position of class ``names[i]`` to one of
        ``names[j]`` (int64, 5 × 5).
    names : list of str
        The classes in order.
    claims : list of dict
        Each claim the command checks: ``claim``, ``holds``, ``checked`` (positions) and
        ``counterexample`` (``None`` where it holds).
    """

    counts: List[dict]
    transitions: List[dict]
    moves: np.ndarray
    names: List[str]
    claims: List[dict]




def classes(heaps: int, max: int, threads: Optional[int] = None, progress: bool = True) -> Classes:
    """Count misère Nim's classes and check the claims about them, as ``nimtab classes``.

    The claims are checked against the engine's labels; the classes never decide a label.

    Parameters
    ----------
    heaps : int
        The number of heaps.
    max : int
        The largest heap size.
    threads : int, optional
        Threads of the engine, 1 to 256.
    progress : bool
        Show a tqdm bar for a long call (when tqdm is installed).

    Returns
    -------
    Classes
        The counts, the moves between classes and the claims.

    Raises
    ------
    ValueError, TypeError
        A bad argument, named in the command line's words.
    """
    heaps = _checks.heap_count(heaps)
    max = _checks.max_size(max)
    threads = _checks.threads(threads)
    progress = _checks.flag("progress", progress)
    with bar(progress, "classes", (max + 1) ** heaps, "pos") as report:
        found = _nimtab.classes(heaps, max, threads=threads, report=report)
    names = found["names"]
    counts = [dict(zip(("class", "positions", "p_normal", "p_misere"), row)) for row in found["counts"]]
    table = found["moves"].astype(np.int64)
    transitions = [
        {"from": a, "to": b, "moves": int(table[i, j])}
        for i, a in enumerate(names)
        for j, b in enumerate(names)
    ]
    claims = [
        {"claim": claim, "holds": example is None, "checked": checked, "counterexample": example}
        for claim, checked, example in found["claims"]
    ]
    return Classes(counts, transitions, table, names, claims)
