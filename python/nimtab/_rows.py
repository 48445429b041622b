"""Rows of ``verify`` and ``sweep`` as dicts, and as pandas DataFrames.

The compiled module hands rows across typed, under the library's own header (the one
definition of the ``summary.csv`` and ``counterexamples.csv`` schemas): ``(header, rows,
totals)``, one tuple of values per row and each row's total (``None`` for a tuple space).
"""

from typing import List, Optional, Sequence, Tuple

Typed = Tuple[Sequence[str], Sequence[tuple], Sequence[Optional[int]]]


def rows(found: Typed) -> List[dict]:
    """The rows as dicts in the header's column order.

    Parameters
    ----------
    found : tuple
        ``(header, rows, totals)`` from the compiled module.

    Returns
    -------
    list of dict
        One dict per row.
    """
    header, values, _ = found
    return [dict(zip(header, row)) for row in values]


def _pandas():
    try:
        import pandas
    except ImportError as e:
        raise ImportError(
            "as_frame=True needs pandas: pip install pandas (without it, rows come back "
            "as a list of dicts)"
        ) from e
    return pandas


def frame(found: Typed):
    """The rows as a DataFrame whose columns are the same over tuples and multisets:
    ``heaps``, ``max`` and ``total`` nullable integers (``<NA>`` where they do not apply)
    and ``space``, ``tuples`` or ``multisets``; so frames of both concatenate.

    Parameters
    ----------
    found : tuple
        ``(header, rows, totals)`` from the compiled module.

    Returns
    -------
    pandas.DataFrame
        The header's columns, then ``space`` and ``total``.
    """
    pandas = _pandas()
    header, values, totals = found
    table = pandas.DataFrame.from_records(list(values), columns=list(header))
    table["space"] = ["tuples" if t is None else "multisets" for t in totals]
    table["total"] = pandas.array(list(totals), dtype="Int64")
    multisets = table["space"] == "multisets"
    for column in ("heaps", "max"):
        table[column] = pandas.array(
            [None if m else v for v, m in zip(table[column], multisets)], dtype="Int64"
        )
    return table


def counterexample_rows(found: Typed, as_frame: bool):
    """Rows of ``counterexamples.csv``: integer cells as int (a multiset's space cells
    stay words), the position as a tuple of heap sizes, as dicts or a DataFrame.

    Parameters
    ----------
    found : tuple
        ``(header, rows, totals)`` from the compiled module.
    as_frame : bool
        Return a pandas DataFrame instead of dicts.

    Returns
    -------
    list of dict or pandas.DataFrame
        One row per counterexample.
    """
    if not as_frame:
        return rows(found)
    header, values, _ = found
    return _pandas().DataFrame.from_records(list(values), columns=list(header))
