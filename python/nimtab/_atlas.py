"""The atlas of octal and hexadecimal games (``nimtab atlas``): every code of a family
solved with a certified period or computed to a budget, here or on a Dask cluster,
assembled into the rows of ``atlas.csv`` and ``classes.csv`` and, with ``out=``, the
command's files."""

import json
import os
from typing import List, NamedTuple, Optional, Sequence, Union

from . import _checks, _nimtab
from ._progress import bar
from ._quotient import MAX_ORDER, MAX_QUOTIENT_HEAP

MAX_BUDGET = _nimtab.MAX_SEQUENCE_HEAP
# The columns of atlas.csv and classes.csv that hold counts (None where the cell is empty).
_ATLAS_COUNTS = (
    "preperiod", "period", "checked_through", "computed_to", "largest_value", "largest_at",
    "rare_count", "last_rare", "quotient_max_heap", "quotient_order", "quotient_preperiod",
    "quotient_period",
)
_CLASSES_COUNTS = ("class", "through")


class Atlas(NamedTuple):
    """The atlas of a family of octal or hexadecimal codes (``nimtab atlas``).

    Attributes
    ----------
    rows : list of dict
        One row per code, in the order of ``atlas.csv`` and under its header: counts as
        int, every other cell as the CSV's text (``rare_mask`` in hexadecimal, the
        quotient's P-portion as its names separated by spaces), ``None`` where the CSV
        cell is empty. Written back as CSV cells, they are ``atlas.csv`` byte for byte.
    classes : list of dict
        The rows of ``classes.csv``, typed the same way (``class`` and ``through`` int,
        ``members`` the codes separated by spaces).
    entries : list of dict
        Everything found for each code, in the order of ``rows``: the entry the command
        keeps in ``state/CODE.json`` (the certified period with its theorem's window, the
        first 100 values, the values the period repeats, the rare heaps, the quotient's
        presentation and P-portion).
    """

    rows: List[dict]
    classes: List[dict]
    entries: List[dict]

    def __repr__(self) -> str:
        solved = sum(r["status"] == "solved" for r in self.rows)
        return (f"Atlas({len(self.rows)} codes: {solved} solved, {len(self.rows) - solved} "
                f"unsolved; {len(self.classes)} classes)")


def _typed(header: Sequence[str], cells: Sequence[Sequence[str]], counts) -> List[dict]:
    def value(column: str, cell: str):
        if cell == "":
            return None
        return int(cell) if column in counts else cell

    return [{c: value(c, cell) for c, cell in zip(header, row)} for row in cells]


#: The largest time budget, in seconds.
MAX_SECONDS = 10**9


def _bound(name: str, value, limit: int, shown: str) -> int:
    what = f"an integer from 1 to {shown}"
    n = _checks.integer(name, value, what)
    if not 1 <= n <= limit:
        raise ValueError(f"{name} must be {what}, got {n}")
    return n


def _request(
    codes, codes_file, budget, dense_budget, quotient_heap, quotient_order, force, budget_seconds=None
) -> dict:
    """The request of the compiled module's atlas functions (a dict, every key given)."""
    if (codes is None) == (codes_file is None):
        raise ValueError("give codes (a family or a list of codes) or codes_file, not both")
    text = listed = file = None
    if codes_file is not None:
        file = _checks.games_file(codes_file, "codes_file")
    elif isinstance(codes, str):
        text = codes
    elif isinstance(codes, (list, tuple)) and all(isinstance(c, str) for c in codes):
        listed = list(codes)
    else:
        raise TypeError(f"codes must be a family text or a list of codes, got {codes!r}")
    return dict(
        codes=text, code_list=listed, codes_file=file, force=_checks.flag("force", force),
        budget=_bound("budget", budget, MAX_BUDGET, "2**40"),
        dense_budget=_bound("dense_budget", dense_budget, MAX_BUDGET, "2**40"),
        quotient_heap=_bound("quotient_heap", quotient_heap, MAX_QUOTIENT_HEAP, str(MAX_QUOTIENT_HEAP)),
        quotient_order=_bound("quotient_order", quotient_order, MAX_ORDER, str(MAX_ORDER)),
        seconds=None if budget_seconds is None else _bound("budget_seconds", budget_seconds, MAX_SECONDS, "10**9"),
    )


def atlas(
    codes: Union[None, str, Sequence[str]] = None,
    *,
    codes_file=None,
    budget: int = 2**20,
    budget_seconds: Optional[int] = None,
    dense_budget: int = 2**16,
    quotient_heap: int = 20,
    quotient_order: int = 256,
    force: bool = False,
    out=None,
    client=None,
    batches: Optional[int] = None,
    threads: Optional[int] = None,
    progress: bool = True,
) -> Atlas:
    """Solve every octal or hexadecimal code of a family, as ``nimtab atlas``.

    Each code's Grundy values are computed to a period the periodicity theorem certifies
    (for moves that leave up to two heaps, or three for a ``hex:`` code), or to ``budget``
    (``dense_budget`` for a code whose values do not split into common and rare), with
    their largest value, rare/common split and misère quotient; codes with one sequence
    are grouped into classes. The result is the same whether the codes are computed here
    or on a cluster, whatever its workers.

    Parameters
    ----------
    codes : str or list of str, optional
        As ``--codes``: ``"octal(K)"`` for every octal code of 1 to K digits,
        ``"hex(K)"`` for every hexadecimal one, codes (``"0.161"``, ``"octal:0.161"`` or
        ``"hex:0.3F"``) and ``octal:`` patterns with ``?``, separated by ``;``; or a list
        of them.
    codes_file : str or path, optional
        Instead of ``codes``: a file of codes or patterns, one a line (``#`` comments).
    budget : int
        The last heap computed for a code without a certified period, 1 to 2**40. With
        ``out``, a run past 2**22 heaps keeps its values in the ``state`` folder, with a
        checkpoint every minute from which a stopped run resumes (without ``out``, in
        memory).
    budget_seconds : int, optional
        As ``--budget N,TIME``: each code's sequence stops after this many seconds (1 to
        10**9) with the values it has (``stopped`` is ``time``); where it stops then
        depends on the machine.
    dense_budget : int
        The last heap computed for a code whose values do not split into common and rare
        (lowered to ``budget``), 1 to 2**40.
    quotient_heap : int
        The misère quotient's heap bound, 1 to 1000 (lowered for a code whose quotient
        outgrows ``quotient_order``, to the last heap where it fits).
    quotient_order : int
        The misère quotient's order bound, 1 to 65536.
    force : bool
        Allow more than ``FAMILY_LIMIT`` codes.
    out : str or path, optional
        The atlas directory, as ``--out``: each finished code is kept in its ``state``
        folder (a stopped run, of the command or of this function, resumes from it), and
        at the end ``atlas.csv``, ``classes.csv``, ``atlas.json`` and ``rare/CODE.csv`` are
        put in place together, the command's bytes. One run at a time may use it.
    client : distributed.Client, optional
        Compute the codes on this Dask cluster, in batches, and assemble them here.
    batches : int, optional
        With ``client``: the tasks the codes to compute are dealt into, 1 to their number
        (default sixteen per worker thread: the codes' costs differ by orders of
        magnitude, so small batches keep every worker busy).
    threads : int, optional
        Threads of the local run, 1 to 256 (one code per thread).
    progress : bool
        Show a tqdm bar counting the codes done.

    Returns
    -------
    Atlas
        The rows of ``atlas.csv`` and ``classes.csv``, typed, and each code's entry.

    Raises
    ------
    ValueError, TypeError
        A bad argument, named in the command line's words, before any work.
    """
    request = _request(
        codes, codes_file, budget, dense_budget, quotient_heap, quotient_order, force, budget_seconds
    )
    progress = _checks.flag("progress", progress)
    threads = _checks.threads(threads)
    if client is not None:
        client = _checks.client(client)
        if threads is not None:
            raise ValueError("threads sizes the local run: a cluster's workers use their own")
    elif batches is not None:
        raise ValueError("batches needs a client: the local run computes one code per thread")
    listed = _nimtab.atlas_codes(request)
    if not listed:
        raise ValueError("no octal code to compute")
    if out is not None and not isinstance(out, (str, os.PathLike)):
        raise TypeError(f"out must be a path (str or os.PathLike), got {out!r} ({type(out).__name__})")
    held = None if out is None else _nimtab.AtlasDir(os.fspath(out), request)
    try:
        done = [] if held is None else held.done()
        with bar(progress, "atlas", len(listed), "code") as report:
            counted = None if report is None else (lambda n: report(len(done) + n))
            if counted is not None:
                counted(0)
            if client is None:
                entries = _nimtab.atlas_solve(request, done, out=held, threads=threads, report=counted)
            else:
                from ._dask import atlas_on_cluster

                entries = done + atlas_on_cluster(client, request, listed, done, held, batches, counted)
        (header, rows, classes_header, classes), entries = _nimtab.atlas_tables(request, entries)
        if held is not None:
            held.write(entries)
    finally:
        if held is not None:
            held.release()
    return Atlas(
        rows=_typed(header, rows, _ATLAS_COUNTS),
        classes=_typed(classes_header, classes, _CLASSES_COUNTS),
        entries=[json.loads(e) for e in entries],
    )
