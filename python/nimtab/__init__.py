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
* ``quotient`` gives the misère quotient of a sum of heaps.

Defaults are those of the command line. A bad argument raises ``TypeError`` or
``ValueError`` naming it; Ctrl-C raises ``KeyboardInterrupt`` within a fraction of a
second and stops the engine. Long calls show a tqdm bar when tqdm is installed
(``progress=False`` hides it).
"""

from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np

from . import _checks, _nimtab
from ._plot import plot
from ._progress import bar
from ._quotient import Quotient, quotient
from ._reach import Classes, Moves, Period, classes, moves, period
from ._rows import counterexample_rows, frame, rows

__version__: str = _nimtab.__version__

__all__ = [
    "Canonical",
    "Classes",
    "FAMILY_LIMIT",
    "Moves",
    "Multisets",
    "Period",
    "Quotient",
    "__version__",
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

Rules = Union[None, str, Sequence[str]]
Heaps = _checks.Heaps

# The largest games file read, as the command line's --games-file.
_MAX_GAMES_FILE = 64 << 20


class Canonical(NamedTuple):
    """The labels of sorted tuples only: ``labels[rule][i]`` is whether the sorted
    position ``positions[i]`` is P (positions in lexicographic order, int64)."""

    labels: Dict[str, np.ndarray]
    positions: np.ndarray


def solve(
    game: str,
    heaps: Optional[int] = None,
    max: Optional[int] = None,
    rules: Rules = None,
    canonical: bool = False,
    threads: Optional[int] = None,
    as_frame: bool = False,
    as_xarray: bool = False,
    progress: bool = True,
    total: Optional[int] = None,
    pass_: bool = False,
    grundy: bool = False,
    gxor: bool = False,
):
    """Label every position of a space, as ``nimtab solve``.

    The labels come from the move rules alone, by retrograde dynamic programming.

    Parameters
    ----------
    game : str
        The game spec, as ``--game`` (``"nim"``, ``"subtract:1,3,4"``, ``"wythoff"``...).
    heaps, max : int
        ``heaps`` heaps of at most ``max`` stones each.
    rules : str or list of str, optional
        Ending rules among ``normal``, ``misere``, ``sj``; by default those ``nimtab
        solve`` uses for the game (all three for a sum of heaps, else normal and misère).
    canonical : bool
        Label only sorted tuples (``h1 <= ... <= hn``).
    threads : int, optional
        Threads of the engine, 1 to 256 (default: every core).
    as_frame : bool
        Return a pandas DataFrame with the columns of the command's CSV: its
        ``to_csv(index=False)`` is the command's output.
    as_xarray : bool
        Return a bool ``xarray.DataArray`` of the rules, with dimensions ``rule, h1, ...,
        hn`` (and ``pass`` for a game with a pass); full tables only.
    progress : bool
        Show a tqdm bar for a long call (when tqdm is installed).
    total : int, optional
        Instead of ``heaps`` and ``max``: every multiset of non-empty heaps of total at
        most ``total``, as ``--total`` (a sum of heaps only).
    pass_ : bool
        Add one pass, shared by both players, as ``--pass``: every array gains a last
        axis of 2, index 0 the pass used, 1 the pass still available.
    grundy : bool
        Add ``"grundy"``, the normal-play Grundy value of every whole position (by the mex
        rule over its options), as ``--grundy``.
    gxor : bool
        Add ``"gxor"``, the XOR of the heaps' Grundy values (a sum of heaps only).

    Returns
    -------
    dict or Canonical or Multisets or DataFrame or DataArray
        ``{column: array}`` in the command's column order (``gxor``, ``grundy``, then one
        bool array per rule, ``True`` where P) with arrays of shape ``(max + 1,) *
        heaps``: ``array[h1, h2, ...]``. With ``canonical=True`` a :class:`Canonical` of
        flat arrays and the sorted positions; with ``total`` a :class:`Multisets`.

    Raises
    ------
    ValueError, TypeError
        A bad argument, named in the command line's words.
    """
    game = _checks.text("game", game)
    rules = _checks.names("rules", rules)
    canonical = _checks.flag("canonical", canonical)
    pass_ = _checks.flag("pass_", pass_)
    grundy = _checks.flag("grundy", grundy)
    gxor = _checks.flag("gxor", gxor)
    threads = _checks.threads(threads)
    if total is not None:
        return _solve_multisets(game, heaps, max, total, rules, canonical, threads, progress,
                                pass_, grundy, gxor, as_frame, as_xarray)
    if heaps is None or max is None:
        raise ValueError("give heaps and max (tuples of heaps), or total (multisets)")
    heaps = _checks.heap_count(heaps)
    max = _checks.max_size(max)
    if as_xarray and canonical:
        raise ValueError("as_xarray needs the full table: it cannot be used with canonical")
    # A sum's frame has the gxor column, as the command's CSV.
    gxor_of = None
    if gxor or (as_frame and not pass_ and _nimtab.is_sum(game)):
        gxor_of = _gxor_of(game, heaps, max, pass_)
    count = _positions(heaps, max, canonical) * (2 if pass_ else 1)
    with bar(progress, f"solve {game}", count * (2 if grundy else 1), "pos") as report:
        names, arrays, values_of, positions = _nimtab.solve_table(
            game, heaps, max, rules, canonical=canonical, with_pass=pass_, grundy=grundy,
            threads=threads, report=report,
        )
    labels = dict(zip(names, arrays))
    if as_xarray:
        return _solve_xarray(labels, heaps, max, pass_)
    columns: Dict[str, np.ndarray] = {}
    if gxor and gxor_of is not None:
        columns["gxor"] = gxor_of(positions)
    if values_of is not None:
        columns["grundy"] = values_of.astype(np.int64)
    columns.update(labels)
    if as_frame:
        return _solve_frame(game, columns, positions, heaps, max, pass_, gxor_of)
    if positions is not None:
        return Canonical(columns, positions.astype(np.int64))
    return columns


def _gxor_of(game: str, heaps: int, max: int, pass_: bool):
    """A function of the canonical positions (``None`` for the full table) giving the
    XOR of the heaps' Grundy values of every position, in the table's shape."""
    _nimtab.require_sum(game, "gxor, the XOR of the heaps' Grundy values", with_pass=pass_)
    values = _nimtab.grundy(game, max).astype(np.int64)

    def of(positions):
        if positions is not None:
            return np.bitwise_xor.reduce(values[positions.astype(np.int64)], axis=1)
        table = np.zeros((max + 1,) * heaps, dtype=np.int64)
        for axis in range(heaps):
            shape = [1] * heaps
            shape[axis] = max + 1
            table ^= values.reshape(shape)
        return table

    return of


def _positions(heaps: int, max: int, canonical: bool) -> int:
    if canonical:
        from math import comb

        return comb(max + heaps, heaps)
    return (max + 1) ** heaps


def _pandas(what: str):
    try:
        import pandas
    except ImportError as e:
        raise ImportError(
            f"{what} needs pandas: pip install pandas (or nimtab[all])"
        ) from e
    return pandas


def _solve_frame(game, columns, positions, heaps, max, pass_, gxor_of):
    """The long-form table: a row per position (per pass state), the CSV's columns."""
    pandas = _pandas("as_frame=True")
    if positions is None:
        positions = np.indices((max + 1,) * heaps).reshape(heaps, -1).T
    positions = positions.astype(np.int64)
    states = 2 if pass_ else 1
    frame = {f"h{i + 1}": np.repeat(positions[:, i], states) for i in range(heaps)}
    if pass_:
        frame["pass"] = np.tile(np.array([0, 1], dtype=np.int64), len(positions))
    elif _nimtab.is_sum(game):
        # A sum's position has the XOR of its heaps' Grundy values, as the CSV's gxor.
        frame["gxor"] = gxor_of(positions)
    for name, values in columns.items():
        if name == "gxor":
            continue
        flat = values.reshape(-1)
        frame[name] = flat.astype(np.int64) if name == "grundy" else np.where(flat, "P", "N")
    return pandas.DataFrame(frame)


class Multisets(NamedTuple):
    """The labels of every multiset of non-empty heaps of total at most T (``solve(...,
    total=T)``), in the command's row order (by total, then reverse lexicographic):
    ``heaps[i]`` is position i's heap sizes (non-increasing), ``total[i]`` their sum,
    ``gxor[i]`` the XOR of their Grundy values, ``labels[rule][i]`` whether it is P."""

    labels: Dict[str, np.ndarray]
    heaps: List[Tuple[int, ...]]
    total: np.ndarray
    gxor: np.ndarray


def _solve_multisets(game, heaps, max, total, rules, canonical, threads, progress,
                     pass_, grundy, gxor, as_frame, as_xarray):
    _checks.space(heaps, max, total)
    total = _checks.total(total)
    for name, given in (("canonical", canonical), ("pass_", pass_), ("as_xarray", as_xarray)):
        if given:
            raise ValueError(f"{name} applies to tuples of heaps, not to a total")
    if grundy:
        raise ValueError("grundy is not available with total (the multiset tables have no Grundy values)")
    with bar(progress, f"solve {game}", None, "pos") as report:
        names, arrays, positions, totals, xors = _nimtab.solve_multisets(
            game, total, rules, threads=threads, report=report
        )
    labels = dict(zip(names, arrays))
    result = Multisets(labels, positions, totals.astype(np.int64), xors.astype(np.int64))
    if not as_frame:
        return result
    pandas = _pandas("as_frame=True")
    columns: Dict[str, Any] = {
        # The command's cell: the heap sizes separated by spaces.
        "heaps": [" ".join(map(str, p)) for p in positions],
        "total": result.total,
        "gxor": result.gxor,
    }
    columns.update({rule: np.where(v, "P", "N") for rule, v in labels.items()})
    return pandas.DataFrame(columns)


def _solve_xarray(labels: Dict[str, np.ndarray], heaps: int, max: int, pass_: bool):
    try:
        import xarray
    except ImportError as e:
        raise ImportError("as_xarray=True needs xarray: pip install xarray (or nimtab[all])") from e
    dims = ["rule"] + [f"h{i + 1}" for i in range(heaps)]
    coords: Dict[str, Any] = {"rule": list(labels)}
    coords.update({d: np.arange(max + 1) for d in dims[1:]})
    if pass_:
        dims.append("pass")
        coords["pass"] = np.array([0, 1])
    data = np.stack(list(labels.values()))
    return xarray.DataArray(data, dims=dims, coords=coords, name="p")


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
    if total is not None and canonical:
        raise ValueError("canonical applies to tuples of heaps, not to a total")
    limit = _checks.integer("limit", limit, "a positive integer")
    if limit < 1:
        raise ValueError(f"limit must be a positive integer, got {limit}")
    with bar(progress, f"verify {game}", None, "pos") as report:
        summary, examples = _nimtab.verify_rows(
            game,
            lo,
            hi,
            max,
            _checks.names("rules", rules),
            _checks.names("criteria", criteria),
            canonical=_checks.flag("canonical", canonical),
            threads=_checks.threads(threads),
            report=report,
            total=total,
            limit=limit,
            with_pass=_checks.flag("pass_", pass_),
        )
    found = frame(summary) if as_frame else rows(summary)
    if not counterexamples:
        return found
    return found, counterexample_rows(examples, as_frame)


def _games_file(path) -> Tuple[str, str]:
    import os

    name = os.fspath(path)
    with open(name, "rb") as f:
        data = f.read(_MAX_GAMES_FILE + 1)
    if len(data) > _MAX_GAMES_FILE:
        raise ValueError(f"games_file {name}: it is larger than 64 MiB")
    try:
        return name, data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"games_file {name}: it is not text (not UTF-8)") from None


def _sweep_args(games, heaps, max, rules, criteria, claim, canonical, force, total, games_file) -> dict:
    lo, hi, max, total = _checks.space(heaps, max, total)
    if claim is not None and criteria is not None:
        raise ValueError("the argument 'claim' cannot be used with 'criteria'")
    if (games is None) == (games_file is None):
        raise ValueError("give games (a family or a list of specs) or games_file, not both")
    if games is None:
        text, listed, file = None, None, _games_file(games_file)
    elif isinstance(games, str):
        text, listed, file = games, None, None
    elif isinstance(games, (list, tuple)) and all(isinstance(g, str) for g in games):
        text, listed, file = None, list(games), None
    else:
        raise TypeError(f"games must be a family text or a list of specs, got {games!r}")
    return dict(
        games=text,
        game_list=listed,
        heaps_lo=lo,
        heaps_hi=hi,
        max=max,
        rules=_checks.names("rules", rules) or "normal,misere,sj",
        criteria=_checks.names("criteria", criteria) or "xor,anti-nim,sj",
        claim=None if claim is None else _checks.text("claim", claim),
        canonical=_checks.flag("canonical", canonical),
        force=_checks.flag("force", force),
        total=total,
        games_file=file,
    )


def sweep_csv(
    games: Union[None, str, Sequence[str]] = None,
    heaps: Optional[Heaps] = None,
    max: Optional[int] = None,
    rules: Rules = ("normal", "misere", "sj"),
    criteria: Rules = None,
    claim: Optional[str] = None,
    canonical: bool = False,
    force: bool = False,
    threads: Optional[int] = None,
    client=None,
    shards: Optional[int] = None,
    shard: Optional[Tuple[int, int]] = None,
    total: Optional[int] = None,
    games_file=None,
    progress: bool = True,
) -> bytes:
    """Return the bytes ``nimtab sweep`` writes for the same arguments.

    ``games`` is a family text (``"subtract:subsets(1..=6)"``, ``"nim;subtract:1,2"``)
    or a list of specs; or ``games_file`` names a file of specs, one a line (``#``
    comments), as ``--games-file``. The space is ``heaps`` heaps of at most ``max``
    stones, or with ``total=T`` (and neither of those) every multiset of heaps of total
    at most T, as ``nimtab sweep --total T``. ``criteria`` defaults to
    ``xor,anti-nim,sj``; ``claim`` replaces them (and cannot be given with them).
    ``shard=(i, n)`` returns the part of shard i of n. With a ``dask.distributed``
    ``client``, the sweep runs as ``shards`` tasks (default: four per worker thread, at
    most one per game) on the cluster and the parts are merged: the bytes are those of
    the local run. ``threads`` sizes the local pool; on a cluster each worker uses its
    own (``RAYON_NUM_THREADS``).

    Parameters
    ----------
    games : str or list of str, optional
        A family text or a list of specs (or give ``games_file``).
    heaps : int or (int, int) or range, optional
        The heap counts.
    max : int, optional
        The largest heap size.
    rules : str or list of str
        The ending rules.
    criteria : str or list of str, optional
        The criteria compared (default ``xor,anti-nim,sj``).
    claim : str, optional
        A claim tested instead of the criteria, as ``--claim-p``.
    canonical : bool
        Label only sorted tuples.
    force : bool
        Allow a family above ``FAMILY_LIMIT`` games.
    threads : int, optional
        Threads of the local engine, 1 to 256.
    client : distributed.Client, optional
        Run the shards on this Dask cluster.
    shards : int, optional
        Shards on the cluster, from 1 to the family's games.
    shard : (int, int), optional
        Run only shard ``i`` of ``n`` here and return its part.
    total : int, optional
        Instead of ``heaps`` and ``max``: multisets of total at most ``total``.
    games_file : str or path, optional
        A file of game specs, one a line.
    progress : bool
        Show a tqdm bar (games done, or shards done on a cluster).

    Returns
    -------
    bytes
        The CSV, or the part of one shard.

    Raises
    ------
    ValueError, TypeError
        A bad argument, named in the command line's words.
    """
    args = _sweep_args(games, heaps, max, rules, criteria, claim, canonical, force, total, games_file)
    threads = _checks.threads(threads)
    if client is None:
        if shards is not None:
            raise ValueError("shards needs a client: give shard=(i, n) to run one shard here")
        shard = None if shard is None else _checks.shard(shard)
        count = _nimtab.sweep_games(**args)
        with bar(progress, "sweep", count, "game") as report:
            return _nimtab.sweep_csv(**args, shard=shard, threads=threads, report=report)
    if shard is not None:
        raise ValueError("shard and client cannot be used together: the client runs every shard")
    from ._dask import sweep_on_cluster

    return sweep_on_cluster(_checks.client(client), args, shards, progress)


def sweep(
    games: Union[None, str, Sequence[str]] = None,
    heaps: Optional[Heaps] = None,
    max: Optional[int] = None,
    rules: Rules = ("normal", "misere", "sj"),
    criteria: Rules = None,
    claim: Optional[str] = None,
    canonical: bool = False,
    force: bool = False,
    threads: Optional[int] = None,
    client=None,
    shards: Optional[int] = None,
    as_frame: bool = False,
    total: Optional[int] = None,
    games_file=None,
    progress: bool = True,
):
    """Verify (or test ``claim`` on) every game of a family, as ``nimtab sweep``.

    Parameters
    ----------
    games, heaps, max, rules, criteria, claim, canonical, force, threads, client, shards, total, games_file, progress
        As :func:`sweep_csv`.
    as_frame : bool
        Return a pandas DataFrame with numeric ``heaps``, ``max`` and ``total`` columns
        and a ``space`` column (``tuples`` or ``multisets``).

    Returns
    -------
    list of dict or DataFrame
        One row per (game, heap count, rule, criterion or claim), in the family's order,
        with the columns of ``summary.csv``, typed (over multisets ``heaps`` is
        ``"any"`` and ``max`` is ``"total<=T"``).

    Raises
    ------
    ValueError, TypeError
        A bad argument, named in the command line's words.
    """
    if client is None:
        args = _sweep_args(games, heaps, max, rules, criteria, claim, canonical, force, total, games_file)
        threads = _checks.threads(threads)
        if shards is not None:
            raise ValueError("shards needs a client: give shard=(i, n) to run one shard here")
        count = _nimtab.sweep_games(**args)
        with bar(progress, "sweep", count, "game") as report:
            found = _nimtab.sweep_rows(**args, threads=threads, report=report)
    else:
        data = sweep_csv(
            games, heaps, max, rules, criteria, claim, canonical, force, threads, client, shards,
            total=total, games_file=games_file, progress=progress,
        )
        # The cluster's parts are merged (and checked) as the command's bytes.
        found = _nimtab.summary_rows(data)
    return frame(found) if as_frame else rows(found)


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
    limit = _checks.integer("limit", limit, "a positive integer")
    if limit < 1:
        raise ValueError(f"limit must be a positive integer, got {limit}")
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
        found = _nimtab.check_rows(
            game, claim, lo, hi, max, _checks.names("rules", rules), canonical=canonical,
            with_pass=pass_, grundy=grundy, limit=limit, threads=_checks.threads(threads),
            report=report,
        )
    return frame(found) if as_frame else rows(found)


def merge(parts: Sequence[bytes]) -> bytes:
    """Merge the parts of a sharded sweep into the bytes of the whole run.

    Parameters
    ----------
    parts : sequence of bytes
        The parts, in any order, as ``sweep_csv(..., shard=(i, n))`` or ``nimtab sweep
        --shard`` write them.

    Returns
    -------
    bytes
        The bytes of the whole sweep.

    Raises
    ------
    ValueError
        A part missing, repeated, damaged or of another sweep.
    """
    return _nimtab.merge(list(parts))
