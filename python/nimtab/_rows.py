"""Rows of a summary CSV (``verify``, ``sweep``) as dicts, and as a pandas DataFrame."""

import csv
import io
from typing import List

_INTEGER_COLUMNS = ("heaps", "max", "positions", "p_positions", "agree", "disagree")
# Over multisets the space cells are words: heaps ``any``, max ``total<=T``.
_SPACE_COLUMNS = ("heaps", "max")


def rows(data: bytes) -> List[dict]:
    """Rows of a summary CSV: integers as int, the first counterexample as a tuple of
    heap sizes (``None`` when there is none; ``()`` for the empty position, written
    ``()`` in the CSV). A game no criterion applies to has rows of criterion ``none``
    whose ``agree`` and ``disagree`` are ``None``."""
    found = []
    for row in csv.DictReader(io.StringIO(data.decode("utf-8"), newline="")):
        for column in _INTEGER_COLUMNS:
            if column in _SPACE_COLUMNS and not row[column].isdigit():
                continue
            row[column] = int(row[column]) if row[column] else None
        first = row["first_counterexample"]
        if not first:
            row["first_counterexample"] = None
        elif first == "()":
            row["first_counterexample"] = ()
        else:
            row["first_counterexample"] = tuple(int(h) for h in first.split())
        found.append(row)
    return found


def frame(found: List[dict]):
    """The rows as a DataFrame whose columns are the same over tuples and multisets:
    ``heaps``, ``max`` and ``total`` nullable integers (``<NA>`` where they do not
    apply) and ``space``, ``tuples`` or ``multisets``; so frames of both concatenate."""
    try:
        import pandas
    except ImportError as e:
        raise ImportError(
            "as_frame=True needs pandas: pip install pandas (without it, rows come back "
            "as a list of dicts)"
        ) from e
    records = []
    for row in found:
        row = dict(row)
        if isinstance(row["heaps"], int):
            row["space"], row["total"] = "tuples", None
        else:
            row["space"], row["total"] = "multisets", int(row["max"].removeprefix("total<="))
            row["heaps"] = row["max"] = None
        records.append(row)
    columns = list(found[0]) + ["space", "total"] if found else None
    table = pandas.DataFrame.from_records(records, columns=columns)
    for column in ("heaps", "max", "total"):
        if column in table:
            table[column] = table[column].astype("Int64")
    return table


def counterexample_rows(data: bytes, as_frame: bool):
    """Rows of ``counterexamples.csv``: integer cells as int (a multiset's space cells
    stay words), the position as a tuple of heap sizes, as dicts or a DataFrame."""
    found = []
    for row in csv.DictReader(io.StringIO(data.decode("utf-8"), newline="")):
        row = {k: int(v) if v.isdigit() else v for k, v in row.items()}
        row["position"] = tuple(int(h) for h in str(row["position"]).split())
        found.append(row)
    if not as_frame:
        return found
    try:
        import pandas
    except ImportError as e:
        raise ImportError("as_frame=True needs pandas: pip install pandas") from e
    header = next(csv.reader(io.StringIO(data.decode("utf-8"))))
    return pandas.DataFrame.from_records(found, columns=header)
