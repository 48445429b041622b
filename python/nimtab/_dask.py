"""Sweeps on a dask.distributed cluster: one task per shard, parts merged on the client.

Dask is optional and imported only here. A task is a pure function of its arguments, so
Dask recomputes the shard of a worker that died, and the merge checks that every shard
is there exactly once.
"""

from . import _checks, _nimtab
from ._progress import bar
from .dask_tasks import sweep_part


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
