"""Argument checks: a bad argument raises TypeError (wrong type) or ValueError (bad
value) naming it, in the words of the command line's message for the same flag."""

import numbers
from typing import Optional, Sequence, Tuple, Union

import numpy as np

from . import _nimtab

MAX_THREADS = 256
# The largest count a compiled call takes (a Rust usize on a 64-bit machine), as the
# command line's --limit.
MAX_COUNT = 2**64 - 1


def integer(name: str, value, what: str = "an integer") -> int:
    """``value`` as an int; bools, floats and strings are refused, numpy integers taken."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be {what}, got {value!r} ({type(value).__name__})")
    return int(value)


def max_size(value, name: str = "max") -> int:
    m = integer(name, value, "a non-negative integer")
    if m < 0:
        raise ValueError(f"{name} must be a non-negative integer, got {m}")
    if m > _nimtab.MAX_HEAP_SIZE:
        raise ValueError(f"{name} {m} is above the largest heap size, {_nimtab.MAX_HEAP_SIZE}")
    return m


def total(value) -> int:
    t = integer("total", value, "a non-negative integer")
    if t < 0:
        raise ValueError(f"total must be a non-negative integer, got {t}")
    if t > _nimtab.MAX_TOTAL:
        raise ValueError(f"total {t} is above the limit of {_nimtab.MAX_TOTAL}")
    return t


def heap_count(value, name: str = "heaps") -> int:
    n = integer(name, value, "a positive integer")
    if n < 1:
        raise ValueError(f"{name} must be at least 1, got {n}")
    if n > _nimtab.MAX_HEAPS:
        raise ValueError(f"{name} {n} is above the limit of {_nimtab.MAX_HEAPS}")
    return n


Heaps = Union[int, Tuple[int, int], range]


def heap_range(heaps: Heaps) -> Tuple[int, int]:
    """A count, a ``(lo, hi)`` pair or a range of step 1, as ``(lo, hi)``."""
    if isinstance(heaps, range):
        if heaps.step != 1 or len(heaps) == 0:
            raise ValueError(f"heaps must be a non-empty range of step 1, got {heaps!r}")
        lo, hi = heaps.start, heaps.stop - 1
    elif isinstance(heaps, tuple):
        if len(heaps) != 2:
            raise ValueError(f"heaps must be N, (lo, hi) or a range, got {heaps!r}")
        lo, hi = (integer("heaps", h, "N, (lo, hi) or a range of positive integers") for h in heaps)
        if lo < 1:
            raise ValueError(f"heaps {heaps!r}: heap counts start at 1")
        if lo > hi:
            raise ValueError(f"heaps {heaps!r}: the range is empty ({lo} > {hi})")
    else:
        lo = hi = integer("heaps", heaps, "N, (lo, hi) or a range of positive integers")
    return heap_count(lo), heap_count(hi)


def threads(value) -> Optional[int]:
    if value is None:
        return None
    what = f"an integer from 1 to {MAX_THREADS}"
    t = integer("threads", value, what)
    if not 1 <= t <= MAX_THREADS:
        raise ValueError(f"threads must be {what}, got {t}")
    return t


def names(name: str, value: Union[None, str, Sequence[str]]) -> Optional[str]:
    """A comma list as the command line takes it; ``None`` stays ``None`` (the
    defaults). An empty list, or an empty name in it, is refused as the command line
    refuses ``--rules ''``."""
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        value = ",".join(value) if value else ""
    if isinstance(value, str):
        if any(not part.strip() for part in value.split(",")):
            raise ValueError(f"{name} must name at least one, with no empty name, got {value!r}")
        return value
    if value is None:
        return value
    raise TypeError(
        f"{name} must be a comma list such as 'normal,misere' or a list of names, "
        f"got {value!r} ({type(value).__name__})"
    )


def text(name: str, value) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, got {value!r} ({type(value).__name__})")
    return value


def flag(name: str, value) -> bool:
    """``value`` as a bool: True or False (numpy's too); anything merely truthy, such as
    ``"no"`` or ``1``, is refused."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r} ({type(value).__name__})")
    return bool(value)


def limit(value) -> int:
    """The counterexamples kept per row, as ``--limit``: 1 to 2**64 - 1."""
    n = integer("limit", value, "a positive integer")
    if n < 1:
        raise ValueError(f"limit must be a positive integer, got {n}")
    if n > MAX_COUNT:
        raise ValueError(f"limit {n} is above the largest limit, 2**64 - 1")
    return n


def sequence_max(value) -> int:
    """The largest heap of one heap's Grundy sequence (``period``): 0 to 2**40."""
    m = integer("max", value, "a non-negative integer")
    if m < 0:
        raise ValueError(f"max must be a non-negative integer, got {m}")
    if m > _nimtab.MAX_SEQUENCE_HEAP:
        raise ValueError(
            f"max {m} is above the largest heap size of a sequence, {_nimtab.MAX_SEQUENCE_HEAP} (2^40)"
        )
    return m


def position(heaps) -> Tuple[int, ...]:
    """Heap sizes of one position (any sequence of non-negative integers)."""
    if isinstance(heaps, (str, bytes)) or not hasattr(heaps, "__iter__"):
        raise TypeError(f"heaps must be a sequence of heap sizes, got {heaps!r}")
    return tuple(max_size(h, "heap size") for h in heaps)


def shard(value) -> Tuple[int, int]:
    bad = f"shard must be (i, n) with 1 <= i <= n, got {value!r}"
    if not isinstance(value, tuple) or len(value) != 2:
        raise ValueError(bad)
    i, n = (integer("shard", v, "(i, n) with 1 <= i <= n") for v in value)
    if not 1 <= i <= n:
        raise ValueError(bad)
    if n > _nimtab.MAX_SHARDS:
        raise ValueError(
            f"shard {value!r}: n is above {_nimtab.MAX_SHARDS}, the most games a family can have, "
            "so most shards would be empty"
        )
    return i, n


def shard_count(value, games: int) -> int:
    what = f"an integer from 1 to {games} (the games of the family)"
    count = integer("shards", value, what)
    if not 1 <= count <= games:
        raise ValueError(f"shards must be {what}, got {count}")
    return count


def client(value):
    """A ``dask.distributed`` client (anything with its ``map``, ``gather`` and
    ``nthreads``)."""
    if not all(callable(getattr(value, m, None)) for m in ("map", "gather", "nthreads")):
        raise TypeError(
            f"client must be a dask.distributed Client, got {value!r} ({type(value).__name__})"
        )
    return value


def space(heaps, largest, sum_limit):
    """Tuples of heaps (``heaps`` and ``max``, given as ``largest``) or multisets
    (``total``, given as ``sum_limit``), checked, as ``(lo, hi, max, total)`` with the
    other kind's values ``None``."""
    if sum_limit is None:
        if heaps is None or largest is None:
            raise ValueError("give heaps and max (tuples of heaps), or total (multisets)")
        lo, hi = heap_range(heaps)
        return lo, hi, max_size(largest), None
    if heaps is not None or largest is not None:
        raise ValueError("give either heaps and max, or total, not both")
    return None, None, None, total(sum_limit)


# The largest games file read, as the command line's --games-file.
MAX_GAMES_FILE = 64 << 20


def games_file(path, argument: str = "games_file") -> Tuple[str, str]:
    """A games file's name and text, refused past 64 MiB or when it is not UTF-8; a FIFO
    or a socket is refused before it is opened (opening a FIFO waits for a writer), as
    ``--games-file`` refuses it. ``argument`` names it in messages (``codes_file``)."""
    import os
    import stat

    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(
            f"{argument} must be a path (str or os.PathLike), got {path!r} ({type(path).__name__})"
        )
    name = os.fspath(path)
    if not isinstance(name, str):
        raise TypeError(f"{argument} must be a str path, got {name!r} ({type(name).__name__})")
    try:
        mode = os.stat(name).st_mode
    except OSError:
        mode = 0  # open() below names the error
    for test, kind in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            raise ValueError(
                f"{argument} {name} is {kind}, not a file: opening it could wait for ever; give a file"
            )
    if stat.S_ISDIR(mode):
        raise ValueError(f"{argument} {name} is a directory, not a file")
    with open(name, "rb") as f:
        data = f.read(MAX_GAMES_FILE + 1)
    if len(data) > MAX_GAMES_FILE:
        raise ValueError(f"{argument} {name}: it is larger than 64 MiB")
    try:
        return name, data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{argument} {name}: it is not text (not UTF-8)") from None
