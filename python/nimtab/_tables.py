"""Label tables (``nimtab solve``): numpy arrays per rule, sorted tuples, multisets of
heaps, the pass states and Grundy values, as DataFrames or DataArrays."""

from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np

from . import _checks, _nimtab
from ._progress import bar

Rules = Union[None, str, Sequence[str]]


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
    as_frame = _checks.flag("as_frame", as_frame)
    as_xarray = _checks.flag("as_xarray", as_xarray)
    progress = _checks.flag("progress", progress)
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
