"""Sweeps (``nimtab sweep``): typed rows from the compiled module, the command's bytes,
shards and their merge, locally or on a Dask cluster."""

from collections.abc import Iterable
from typing import Optional, Sequence, Tuple, Union

from . import _checks, _nimtab
from ._progress import bar
from ._quotient import quotient_bounds, quotient_rows, refuse_with_quotients
from ._rows import frame, rows
from ._tables import Rules

Heaps = _checks.Heaps


def _family_args(games, games_file, force) -> dict:
    """The family of a sweep: a family text, a list of specs or a games file."""
    if (games is None) == (games_file is None):
        raise ValueError("give games (a family or a list of specs) or games_file, not both")
    if games is None:
        text, listed, file = None, None, _checks.games_file(games_file)
    elif isinstance(games, str):
        text, listed, file = games, None, None
    elif isinstance(games, (list, tuple)) and all(isinstance(g, str) for g in games):
        text, listed, file = None, list(games), None
    else:
        raise TypeError(f"games must be a family text or a list of specs, got {games!r}")
    return dict(games=text, game_list=listed, games_file=file, force=_checks.flag("force", force))


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
        quotients=None,
        max_order=None,
        game_timeout=None,
        game_memory=None,
    )


def _any_sweep_args(games, heaps, max, rules, criteria, claim, canonical, force, total,
                    games_file, quotients, limits: dict) -> Tuple[dict, bool]:
    """The request of ``_nimtab.sweep_csv`` (a dict), and whether it is a quotient sweep;
    ``limits`` holds ``max_order``, ``game_timeout`` and ``game_memory``."""
    if quotients is None:
        for name, value in limits.items():
            if value is not None:
                raise ValueError(f"the argument '{name}' cannot be used without 'quotients'")
        return _sweep_args(games, heaps, max, rules, criteria, claim, canonical, force, total, games_file), False
    given = dict(heaps=heaps, max=max, total=total, criteria=criteria, claim=claim)
    refuse_with_quotients(given, _checks.names("rules", rules), _checks.flag("canonical", canonical))
    family = dict(**_family_args(games, games_file, force), **quotient_bounds(quotients, **limits))
    # No space, rules or criteria: the sweep is the family's quotients.
    space = dict(heaps_lo=None, heaps_hi=None, max=None, rules="", criteria="", total=None,
                 claim=None, canonical=False)
    return dict(**family, **space), True


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
    game_timeout: Optional[float] = None,
    game_memory: Union[None, int, str] = None,
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
    own (``RAYON_NUM_THREADS``). With ``quotients=N`` (and no space, criteria, claim,
    canonical or rules but the default) each game's misère quotient for heaps up to N is
    computed instead, one row per game, as ``nimtab sweep --quotients N``, each game within
    ``max_order``, ``game_timeout`` and ``game_memory`` as ``--max-order``,
    ``--game-timeout`` and ``--game-memory``.

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
    quotients : int, optional
        Instead of a space: each game's misère quotient for heaps up to ``quotients``
        (1 to 2**24), stopping at the first heap where the whole game is certified, as
        ``--quotients``.
    max_order : int, optional
        With ``quotients``: a quotient past ``max_order`` elements (1 to 65536; default
        4096, or with ``game_memory`` the largest order whose tables fit it) stops its
        game, a row of status ``order_bound``, as ``--max-order``.
    game_timeout : float, optional
        With ``quotients``: the seconds each game may take (more than 0), a row of status
        ``timeout`` past them, as ``--game-timeout``. Such rows depend on the machine.
    game_memory : int or str, optional
        With ``quotients``: the bytes each game may hold (an int, or ``"512M"``,
        ``"1G"``), a row of status ``memory`` past them, as ``--game-memory``; by default
        games share the memory, and one that passes its share runs again alone.

    Returns
    -------
    bytes
        The CSV, or the part of one shard.

    Raises
    ------
    ValueError, TypeError
        A bad argument, named in the command line's words.
    """
    progress = _checks.flag("progress", progress)
    limits = dict(max_order=max_order, game_timeout=game_timeout, game_memory=game_memory)
    args, _ = _any_sweep_args(games, heaps, max, rules, criteria, claim, canonical, force, total,
                              games_file, quotients, limits)
    threads = _checks.threads(threads)
    if client is None:
        if shards is not None:
            raise ValueError("shards needs a client: give shard=(i, n) to run one shard here")
        shard = None if shard is None else _checks.shard(shard)
        count = _nimtab.sweep_games(args)
        with bar(progress, "sweep", count, "game") as report:
            return _nimtab.sweep_csv(args, shard=shard, threads=threads, report=report)
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
    game_timeout: Optional[float] = None,
    game_memory: Union[None, int, str] = None,
):
    """Verify (or test ``claim`` on) every game of a family, as ``nimtab sweep``.

    Parameters
    ----------
    games, heaps, max, rules, criteria, claim, canonical, force, threads, client, shards, total, games_file, progress, quotients, max_order, game_timeout, game_memory
        As :func:`sweep_csv`.
    as_frame : bool
        Return a pandas DataFrame with numeric ``heaps``, ``max`` and ``total`` columns
        and a ``space`` column (``tuples`` or ``multisets``); of a quotient sweep, with
        nullable ``Int64`` counts and a nullable ``boolean`` ``tame``.

    Returns
    -------
    list of dict or DataFrame
        One row per (game, heap count, rule, criterion or claim), in the family's order,
        with the columns of ``summary.csv``, typed (over multisets ``heaps`` is
        ``"any"`` and ``max`` is ``"total<=T"``). With ``quotients``: one row per game
        with the columns of ``nimtab sweep --quotients`` (``game``, ``max_heap``,
        ``last_heap``, ``order``, ``p_portion_size``, ``tame``, ``preperiod``,
        ``period``, ``status``), counts as int, ``tame`` as bool, ``None`` where the CSV
        cell is empty.

    Raises
    ------
    ValueError, TypeError
        A bad argument, named in the command line's words.
    """
    as_frame = _checks.flag("as_frame", as_frame)
    progress = _checks.flag("progress", progress)
    limits = dict(max_order=max_order, game_timeout=game_timeout, game_memory=game_memory)
    args, of_quotients = _any_sweep_args(games, heaps, max, rules, criteria, claim, canonical,
                                         force, total, games_file, quotients, limits)
    threads = _checks.threads(threads)
    if client is None:
        if shards is not None:
            raise ValueError("shards needs a client: give shard=(i, n) to run one shard here")
        count = _nimtab.sweep_games(args)
        with bar(progress, "sweep", count, "game") as report:
            found = _nimtab.sweep_rows(args, threads=threads, report=report)
        if of_quotients:
            return quotient_rows(found, as_frame)
        summary = found
    else:
        data = sweep_csv(
            games, heaps, max, rules, criteria, claim, canonical, force, threads, client, shards,
            total=total, games_file=games_file, progress=progress, quotients=quotients,
            max_order=max_order, game_timeout=game_timeout, game_memory=game_memory,
        )
        # The cluster's parts are merged (and checked) as the command's bytes.
        if of_quotients:
            return quotient_rows(_nimtab.quotient_rows_of_csv(data), as_frame)
        summary = _nimtab.summary_rows(data)
    return frame(summary) if as_frame else rows(summary)


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
    if isinstance(parts, (bytes, bytearray, str)) or not isinstance(parts, Iterable):
        raise TypeError(
            f"parts must be a sequence of bytes (one per part), got {parts!r:.60} ({type(parts).__name__})"
        )
    parts = list(parts)
    for i, part in enumerate(parts):
        if not isinstance(part, (bytes, bytearray)):
            raise TypeError(f"parts[{i}] must be bytes, got {type(part).__name__}")
    return _nimtab.merge([bytes(p) for p in parts])
