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

from typing import Dict, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np

from . import _checks, _nimtab
from ._plot import plot
from ._progress import bar
from ._quotient import Quotient, quotient, quotient_bounds, quotient_sweep_rows
from ._rows import counterexample_rows, frame, rows

__version__: str = _nimtab.__version__

__all__ = [
    "Canonical",
    "FAMILY_LIMIT",
    "Quotient",
    "__version__",
    "check",
    "grundy",
    "merge",
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
    heaps: int,
    max: int,
    rules: Rules = None,
    canonical: bool = False,
    threads: Optional[int] = None,
    as_frame: bool = False,
    as_xarray: bool = False,
    progress: bool = True,
):
    """Labels every position of ``heaps`` heaps of at most ``max`` stones.

    ``rules`` defaults to those ``nimtab solve`` uses for the game (normal, misère and,
    for a sum of heaps, SJ). Returns ``{rule: array}`` with bool arrays of shape
    ``(max + 1,) * heaps``: ``array[h1, h2, ...]`` is ``True`` where the position is P.
    With ``canonical=True`` only sorted tuples are labelled, and a :class:`Canonical`
    holds one flat array per rule and the positions in their index order.

    ``as_frame=True`` returns a pandas DataFrame with the columns of ``nimtab solve``'s
    CSV (``h1..hn`` as int64, for a sum of heaps ``gxor``, the XOR of the heaps' Grundy
    values, then one column of ``"P"``/``"N"`` per rule): its
    ``to_csv(index=False)`` is the command's output. ``as_xarray=True`` returns a bool
    ``xarray.DataArray`` with dimensions ``rule, h1, ..., hn`` (full mode only).
    """
    game = _checks.text("game", game)
    heaps = _checks.heap_count(heaps)
    max = _checks.max_size(max)
    rules = _checks.names("rules", rules)
    canonical = _checks.flag("canonical", canonical)
    threads = _checks.threads(threads)
    if as_xarray and canonical:
        raise ValueError("as_xarray needs the full table: it cannot be used with canonical")
    total = _positions(heaps, max, canonical)
    with bar(progress, f"solve {game}", total, "pos") as report:
        names, arrays, positions = _nimtab.solve(
            game, heaps, max, rules, canonical=canonical, threads=threads, report=report
        )
    labels = dict(zip(names, arrays))
    if canonical:
        result = Canonical(labels, positions.astype(np.int64))
    else:
        result = labels
    if as_frame:
        return _solve_frame(game, result, heaps, max)
    if as_xarray:
        return _solve_xarray(labels, heaps, max)
    return result


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


def _solve_frame(game: str, result, heaps: int, max: int):
    pandas = _pandas("as_frame=True")
    if isinstance(result, Canonical):
        positions, labels = result.positions, result.labels
    else:
        grid = np.indices((max + 1,) * heaps).reshape(heaps, -1).T
        positions = grid.astype(np.int64)
        labels = {rule: array.reshape(-1) for rule, array in result.items()}
    columns = {f"h{i + 1}": positions[:, i] for i in range(heaps)}
    if _nimtab.is_sum(game):
        # A sum's position has the XOR of its heaps' Grundy values, as the CSV's gxor.
        values = _nimtab.grundy(game, max).astype(np.int64)
        columns["gxor"] = np.bitwise_xor.reduce(values[positions], axis=1)
    for rule, values in labels.items():
        columns[rule] = np.where(values, "P", "N")
    return pandas.DataFrame(columns)


def _solve_xarray(labels: Dict[str, np.ndarray], heaps: int, max: int):
    try:
        import xarray
    except ImportError as e:
        raise ImportError("as_xarray=True needs xarray: pip install xarray (or nimtab[all])") from e
    dims = ["rule"] + [f"h{i + 1}" for i in range(heaps)]
    coords = {"rule": list(labels)}
    coords.update({d: np.arange(max + 1) for d in dims[1:]})
    data = np.stack(list(labels.values()))
    return xarray.DataArray(data, dims=dims, coords=coords, name="p")


def grundy(game: str, max: int) -> np.ndarray:
    """The Grundy values of one heap of sizes ``0..=max`` (uint32)."""
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
):
    """Compares the labels with each criterion: one dict per (heap count, rule,
    criterion) with the columns of ``nimtab verify``'s ``summary.csv``. ``heaps`` is a
    count, a ``(lo, hi)`` pair or a range; or ``total=T`` (without ``heaps`` and
    ``max``) checks every multiset of total at most T, as ``nimtab verify --total T``.
    ``rules`` and ``criteria`` default to those ``nimtab verify`` uses for the game (the
    criteria that apply to each heap count). ``as_frame=True`` returns a pandas
    DataFrame. With ``counterexamples=True`` the result is a pair: the rows, and the rows
    of ``counterexamples.csv`` (up to ``limit`` per row of the summary, in index order)."""
    game = _checks.text("game", game)
    lo, hi, max, total = _checks.space(heaps, max, total)
    if total is not None and canonical:
        raise ValueError("canonical applies to tuples of heaps, not to a total")
    limit = _checks.integer("limit", limit, "a positive integer")
    if limit < 1:
        raise ValueError(f"limit must be a positive integer, got {limit}")
    with bar(progress, f"verify {game}", None, "pos") as report:
        summary, examples = _nimtab.verify_csv(
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
        )
    found = rows(summary)
    found = frame(found) if as_frame else found
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


def _refuse_with_quotients(given: dict, rules, canonical) -> None:
    """A quotient sweep has no space, rules (but the default), criteria or claim, as the
    command line's ``--quotients``."""
    for name, value in given.items():
        if value is not None:
            raise ValueError(f"the argument '{name}' cannot be used with 'quotients'")
    if _checks.names("rules", rules) not in (None, "normal,misere,sj"):
        raise ValueError("the argument 'rules' cannot be used with 'quotients'")
    if _checks.flag("canonical", canonical):
        raise ValueError("the argument 'canonical' cannot be used with 'quotients'")


def _family_args(games, games_file, force) -> dict:
    """The family of a sweep: a family text, a list of specs or a games file."""
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
    return dict(games=text, game_list=listed, games_file=file, force=_checks.flag("force", force))


def _quotient_sweep_args(games, force, games_file, quotients, max_order) -> dict:
    """The arguments of ``_nimtab.sweep_csv`` for a quotient sweep (no space, rules or
    criteria: the empty texts are not read)."""
    return dict(
        **_family_args(games, games_file, force),
        heaps_lo=None,
        heaps_hi=None,
        max=None,
        total=None,
        rules="",
        criteria="",
        **quotient_bounds(quotients, max_order),
    )


def _sweep_args(games, heaps, max, rules, criteria, claim, canonical, force, total, games_file) -> dict:
    lo, hi, max, total = _checks.space(heaps, max, total)
    if claim is not None and criteria is not None:
        raise ValueError("the argument 'claim' cannot be used with 'criteria'")
    return dict(
        **_family_args(games, games_file, force),
        heaps_lo=lo,
        heaps_hi=hi,
        max=max,
        rules=_checks.names("rules", rules) or "normal,misere,sj",
        criteria=_checks.names("criteria", criteria) or "xor,anti-nim,sj",
        claim=None if claim is None else _checks.text("claim", claim),
        canonical=_checks.flag("canonical", canonical),
        total=total,
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
    quotients: Optional[int] = None,
    max_order: Optional[int] = None,
) -> bytes:
    """The bytes ``nimtab sweep`` writes for the same arguments.

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
    own (``RAYON_NUM_THREADS``). With ``quotients=N`` (and no space, rules, criteria,
    claim or canonical) each game's misère quotient for heaps up to N is computed
    instead, one row per game, as ``nimtab sweep --quotients N --max-order K``
    (``max_order``, default 4096).
    """
    if quotients is None:
        if max_order is not None:
            raise ValueError("max_order applies only with quotients")
        args = _sweep_args(games, heaps, max, rules, criteria, claim, canonical, force, total, games_file)
    else:
        given = dict(heaps=heaps, max=max, total=total, criteria=criteria, claim=claim)
        _refuse_with_quotients(given, rules, canonical)
        args = _quotient_sweep_args(games, force, games_file, quotients, max_order)
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
    quotients: Optional[int] = None,
    max_order: Optional[int] = None,
):
    """Verifies (or tests ``claim`` on) every game of a family: one dict per (game, heap
    count, rule, criterion or claim), in the family's order, with the columns of
    ``summary.csv`` (over multisets, ``heaps`` is ``"any"`` and ``max`` is
    ``"total<=T"``). Arguments as :func:`sweep_csv`; ``as_frame=True`` returns a pandas
    DataFrame with numeric ``heaps``, ``max`` and ``total`` columns and a ``space``
    column (``tuples`` or ``multisets``). With ``quotients=N``: one dict per game with
    the columns of ``nimtab sweep --quotients`` (``game``, ``max_heap``, ``order``,
    ``p_portion_size``, ``tame``, ``preperiod``, ``period``, ``status``; the result
    cells ``None`` where the CSV's are empty)."""
    data = sweep_csv(
        games, heaps, max, rules, criteria, claim, canonical, force, threads, client, shards,
        total=total, games_file=games_file, progress=progress, quotients=quotients,
        max_order=max_order,
    )
    if quotients is not None:
        return quotient_sweep_rows(data, as_frame)
    found = rows(data)
    return frame(found) if as_frame else found


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
):
    """Tests the claim "P exactly when ``claim``" (the expression language of ``nimtab
    check --claim-p``) on every position of one game: one dict per (heap count, rule)
    with the columns of ``summary.csv``, the claim in ``criterion``. ``rules`` defaults
    to the game's (normal, misère and, for a sum of heaps, SJ); ``total=T`` tests the
    multisets of total at most T."""
    game = _checks.text("game", game)
    if rules is None:
        rules = "normal,misere,sj" if _nimtab.is_sum(game) else "normal,misere"
    return sweep(
        [game], heaps, max, rules, claim=_checks.text("claim", claim), threads=threads,
        as_frame=as_frame, total=total, progress=progress,
    )


def merge(parts: Sequence[bytes]) -> bytes:
    """Merges the parts of a sharded sweep (as ``sweep_csv(..., shard=(i, n))`` or
    ``nimtab sweep --shard`` write them) into the bytes of the whole run."""
    return _nimtab.merge(list(parts))
