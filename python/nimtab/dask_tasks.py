"""Task functions that Dask workers run. They live in the installed package so that
workers (and the scheduler) unpickle them by reference: nimtab must be installed in
the environment of every worker."""


def sweep_part(index: int, count: int, args: dict) -> bytes:
    """Shard ``index`` of ``count`` of the sweep ``args``, as the bytes of its part."""
    from . import _nimtab

    return _nimtab.sweep_csv(**args, shard=(index, count))


def pid() -> int:
    """The worker's process id (tests use it to find the worker to stop)."""
    import os

    return os.getpid()
