"""Verifications and claims (``nimtab verify`` and ``check``): typed rows from the
compiled module."""

from typing import Optional

from . import _checks, _nimtab
from ._progress import bar
from ._rows import counterexample_rows, frame, rows
from ._sweeps import sweep
from ._tables import Rules

Heaps = _checks.Heaps


def verify(
    game: str,
    heaps: Optional[Heaps] = None,
    max: Optional[int] = None,
    rules: Rules = None,
    criteria: Rules = None,
    canonical: bool = False,
    threads: Optional[int] = None,
    as_frame: bool = False,
    progress: bool = True,
    total: Optional[int] = None,
    limit: int = 20,
    counterexamples: bool = False,
    pass_: bool = False,
):
    """Compare the labels with each criterion, as ``nimtab verify``.

    Parameters
    ----------
    game : str
        The game spec, as ``--game``.
    heaps : int or (int, int) or range, optional
        A heap count, a ``(lo, hi)`` pair or a range of step 1.
    max : int, optional
        The largest heap size.
    rules, criteria : str or list of str, optional
        By default those ``nimtab verify`` uses for the game (the criteria that apply to
        each heap count).
    canonical : bool
        Label only sorted tuples.
    threads : int, optional
        Threads of the engine, 1 to 256.
    as_frame : bool
        Return pandas DataFrames (``heaps``, ``max``, ``total`` nullable integers and a
        ``space`` column, ``tuples`` or ``multisets``).
    progress : bool
        Show a tqdm bar for a long call (when tqdm is installed).
    total : int, optional
        Instead of ``heaps`` and ``max``: every multiset of total at most ``total``, as
        ``--total``.
    limit : int
        The counterexamples kept per row of the summary, as ``--limit``.
    counterexamples : bool
        Also return the rows of ``counterexamples.csv``.
    pass_ : bool
        Add one pass, shared by both players, as ``--pass`` (no criterion applies to such
        a game: its rows count positions and P-positions).

    Returns
    -------
    list of dict or DataFrame, or a pair of them
        One row per (heap count, rule, criterion) with the columns of ``summary.csv``,
        typed (counts as int, the first counterexample as a tuple of heap sizes, ``None``
        where the CSV cell is empty); with ``counterexamples=True`` the pair of the rows
        and the counterexamples (up to ``limit`` per row, in index order).

    Raises
    ------
    ValueError, TypeError
        A bad argument, named in the command line's words.
    """
    game = _checks.text("game", game)
    lo, hi, max, total = _checks.space(heaps, max, total)
    canonical = _checks.flag("canonical", canonical)
    pass_ = _checks.flag("pass_", pass_)
    as_frame = _checks.flag("as_frame", as_frame)
    counterexamples = _checks.flag("counterexamples", counterexamples)
    progress = _checks.flag("progress", progress)
    if total is not None and canonical:
        raise ValueError("canonical applies to tuples of heaps, not to a total")
    limit = _checks.limit(limit)
    rules = _checks.names("rules", rules)
    criteria = _checks.names("criteria", criteria)
    threads = _checks.threads(threads)
    with bar(progress, f"verify {game}", None, "pos") as report:
        request = dict(game=game, heaps_lo=lo, heaps_hi=hi, max=max, rules=rules,
                       criteria=criteria, canonical=canonical, total=total, limit=limit,
                       with_pass=pass_)
        summary, examples = _nimtab.verify_rows(request, threads=threads, report=report)
    found = frame(summary) if as_frame else rows(summary)
    if not counterexamples:
        return found
    return found, counterexample_rows(examples, as_frame)


def check(
    game: str,
    claim: str,
    heaps: Optional[Heaps] = None,
    max: Optional[int] = None,
    rules: Rules = None,
    total: Optional[int] = None,
    threads: Optional[int] = None,
    as_frame: bool = False,
    progress: bool = True,
    canonical: bool = False,
    pass_: bool = False,
    grundy: bool = False,
    limit: int = 20,
):
    """Test the claim "P exactly when ``claim``" on every position of one game.

    The expression language is that of ``nimtab check --claim-p``.

    Parameters
    ----------
    game : str
        The game spec, as ``--game``.
    claim : str
        The claim, e.g. ``"gxor == 0"``.
    heaps : int or (int, int) or range, optional
        The heap counts.
    max : int, optional
        The largest heap size.
    rules : str or list of str, optional
        By default the game's (normal, misère and, for a sum of heaps, SJ).
    total : int, optional
        Instead of ``heaps`` and ``max``: the multisets of total at most ``total``.
    threads : int, optional
        Threads of the engine, 1 to 256.
    as_frame : bool
        Return a pandas DataFrame.
    progress : bool
        Show a tqdm bar for a long call (when tqdm is installed).
    canonical : bool
        Test only sorted tuples.
    pass_ : bool
        Add one pass, shared by both players, as ``--pass``: every position is tested in
        both pass states (the feature ``pass`` is 1 while the pass is available).
    grundy : bool
        Compute the whole positions' Grundy values, the feature ``grundy``, as
        ``--grundy``.
    limit : int
        The counterexamples kept per row (only the first is shown).

    Returns
    -------
    list of dict or DataFrame
        One row per (heap count, rule) with the columns of ``summary.csv``, the claim in
        ``criterion``; with a pass a counterexample's position ends with its pass state,
        ``"pass=0"`` or ``"pass=1"``.

    Raises
    ------
    ValueError, TypeError
        A bad argument or claim, named in the command line's words.
    """
    game = _checks.text("game", game)
    claim = _checks.text("claim", claim)
    canonical = _checks.flag("canonical", canonical)
    pass_ = _checks.flag("pass_", pass_)
    grundy = _checks.flag("grundy", grundy)
    as_frame = _checks.flag("as_frame", as_frame)
    progress = _checks.flag("progress", progress)
    limit = _checks.limit(limit)
    threads = _checks.threads(threads)
    lo, hi, max, total = _checks.space(heaps, max, total)
    if total is not None:
        # The multisets of a sum of heaps, as a sweep of the one game.
        for name, given in (("canonical", canonical), ("pass_", pass_)):
            if given:
                raise ValueError(f"{name} applies to tuples of heaps, not to a total")
        if grundy:
            raise ValueError("grundy is not available with total (the multiset tables have no Grundy values)")
        if rules is None:
            rules = "normal,misere,sj" if _nimtab.is_sum(game) else "normal,misere"
        return sweep([game], None, None, rules, claim=claim, threads=threads,
                     as_frame=as_frame, total=total, progress=progress)
    with bar(progress, f"check {game}", None, "pos") as report:
        request = dict(game=game, claim=claim, heaps_lo=lo, heaps_hi=hi, max=max,
                       rules=_checks.names("rules", rules), canonical=canonical,
                       with_pass=pass_, grundy=grundy, limit=limit)
        found = _nimtab.check_rows(request, threads=threads, report=report)
    return frame(found) if as_frame else rows(found)
