"""Sweeps on a dask.distributed cluster: one task per shard, parts merged on the client.

Dask is optional and imported only here. A task is a pure function of its arguments, so
Dask recomputes the shard of a worker that died, and the merge checks that every shard
is there exactly once.
"""

from . import _nimtab
from .dask_tasks import sweep_part


def default_shards(client, games: int) -> int:
    """Four shards per worker thread, so a lost worker's share is small; at most one per
    game. (`nthreads` lists every worker; `scheduler_info` may list only a few.)"""
    threads = sum(client.nthreads().values()) or 1
    return max(1, min(games, 4 * threads))


def sweep_on_cluster(client, args: dict, shards=None) -> bytes:
    """Runs the sweep described by ``args`` (the arguments of ``_nimtab.sweep_csv``)
    as shard tasks on ``client`` and merges the parts."""
    games = _nimtab.sweep_games(**args)  # refuses a bad sweep before anything is sent
    count = shards if shards is not None else default_shards(client, games)
    if count < 1:
        raise ValueError(f"shards must be at least 1, got {count}")
    # pure=False: every call is new work, never a result cached from an earlier sweep.
    futures = client.map(sweep_part, range(1, count + 1), count=count, args=args, pure=False)
    parts = client.gather(futures)
    return _nimtab.merge(parts)
