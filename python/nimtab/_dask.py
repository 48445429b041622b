"""Sweeps on a dask.distributed cluster: one task per shard, parts merged on the client.

Dask is optional and imported only here. A task is a pure function of its arguments, so
Dask recomputes the shard of a worker that died, and the merge checks that every shard
is there exactly once. An atlas's codes go out in batches the same way, and its entries
are assembled (each code exactly once) on the client.
"""

import json

from . import _checks, _nimtab
from ._progress import bar
from .dask_tasks import atlas_part, sweep_part


def default_shards(client, games: int) -> int:
    """Four shards per worker thread, so a lost worker's share is small; at most one per
    game. (`nthreads` lists every worker; `scheduler_info` may list only a few.)"""
    threads = sum(client.nthreads().values()) or 1
    return max(1, min(games, 4 * threads))


def sweep_on_cluster(client, args: dict, shards=None, progress: bool = True) -> bytes:
    """Runs the sweep described by ``args`` (the request of ``_nimtab.sweep_csv``)
    as shard tasks on ``client`` and merges the parts; the bar counts shards done."""
    games = _nimtab.sweep_games(args)  # refuses a bad sweep before anything is sent
    count = default_shards(client, games) if shards is None else _checks.shard_count(shards, games)
    # pure=False: every call is new work, never a result cached from an earlier sweep.
    futures = client.map(sweep_part, range(1, count + 1), count=count, args=args, pure=False)
    try:
        with bar(progress, "sweep on the cluster", count, "shard") as report:
            if report is not None:
                from distributed import as_completed

                for done, _ in enumerate(as_completed(futures), start=1):
                    report(done)
            parts = client.gather(futures)
    except BaseException:
        # Ctrl-C (or a failed shard): the cluster's remaining work is cancelled.
        client.cancel(futures)
        raise
    return _nimtab.merge(parts)


def default_batches(client, codes: int) -> int:
    """Sixteen batches per worker thread, at most one per code: the codes' costs differ by
    orders of magnitude (a period certified at heap 50, or no period to 2^20), so small
    batches keep every worker busy to the end and a lost worker's share small."""
    threads = sum(client.nthreads().values()) or 1
    return max(1, min(codes, 16 * threads))


def atlas_on_cluster(client, request: dict, codes: list, done: list, held, batches, report) -> list:
    """Computes the codes of the atlas that the entries ``done`` lack as batch tasks on
    ``client``, the codes dealt in turn into the batches; each batch's entries are kept
    in ``held`` (the atlas directory, or ``None``) as it finishes, and ``report`` (or
    ``None``) is called with the codes computed so far. Returns the new entries."""
    have = {json.loads(e)["code"] for e in done}
    missing = [c for c in codes if c not in have]
    if not missing:
        return []
    what = f"an integer from 1 to {len(missing)} (the codes to compute)"
    count = default_batches(client, len(missing)) if batches is None else _checks.integer("batches", batches, what)
    if not 1 <= count <= len(missing):
        raise ValueError(f"batches must be {what}, got {count}")
    dealt = [missing[i::count] for i in range(count)]
    # pure=False: every call is new work, never a result cached from an earlier atlas.
    futures = client.map(atlas_part, dealt, request=request, pure=False)
    entries: list = []
    try:
        from distributed import as_completed

        for future in as_completed(futures):
            found = future.result()
            for entry in found:
                if held is not None:
                    held.keep(entry)
            entries.extend(found)
            if report is not None:
                report(len(entries))
    except BaseException:
        # Ctrl-C, a failed batch or a state file that cannot be kept: the rest is cancelled.
        client.cancel(futures)
        raise
    return entries
