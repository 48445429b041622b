"""Task functions that Dask workers run. They live in the installed package so that
workers (and the scheduler) unpickle them by reference: nimtab must be installed in
the environment of every worker."""


def sweep_part(index: int, count: int, args: dict) -> bytes:
    """Run one shard of a sweep, as a Dask task does.

    Parameters
    ----------
    index : int
        The shard, 1 to ``count``.
    count : int
        How many shards the sweep is cut into.
    args : dict
        The sweep's request (a dict) for the compiled module's ``sweep_csv``.

    Returns
    -------
    bytes
        The part, as ``nimtab sweep --shard index/count`` writes it.
    """
    from . import _nimtab

    return _nimtab.sweep_csv(args, shard=(index, count))


def atlas_part(codes: list, request: dict) -> list:
    """Solve a batch of an atlas's codes, as a Dask task does.

    Parameters
    ----------
    codes : list of str
        The codes of the batch, as ``atlas_codes`` lists them.
    request : dict
        The atlas's request (a dict) for the compiled module: its settings apply.

    Returns
    -------
    list of str
        Each code's entry (JSON text), as ``nimtab atlas`` keeps it in ``state/CODE.json``.
    """
    from . import _nimtab

    batch = dict(request, codes=None, code_list=list(codes), codes_file=None, force=True)
    return _nimtab.atlas_solve(batch)


def pid() -> int:
    """The worker's process id (tests use it to find the worker to stop).

    Returns
    -------
    int
        The id of the process the task ran in.
    """
    import os

    return os.getpid()
