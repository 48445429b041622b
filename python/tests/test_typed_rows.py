"""Rows cross the binding typed: verify and sweep rows are built from the library's
results (no CSV read again in Python), under the library's header, and written back as
cells they are the command line's files byte for byte."""

import csv
import inspect
import io
from pathlib import Path

import pytest

import nimtab
from test_nimtab import cli


def cell(value, empty: str) -> str:
    """A typed value as the CSV writes it: nothing for None, heaps separated by spaces
    (``empty`` for the empty position: ``()`` in the summary, nothing in
    counterexamples.csv)."""
    if value is None:
        return ""
    if isinstance(value, tuple):
        return " ".join(map(str, value)) if value else empty
    return str(value)


def as_csv(rows, header, empty: str = "()") -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        assert list(row) == list(header)
        writer.writerow([cell(v, empty) for v in row.values()])
    return out.getvalue().encode()


def header_of(data: bytes):
    return data.decode().splitlines()[0].split(",")


@pytest.mark.parametrize(
    "args,kwargs",
    [
        (["--game", "subtract:1,2", "--heaps", "1..=3", "--max", "9", "--rules", "misere,sj", "--limit", "3"],
         dict(game="subtract:1,2", heaps=(1, 3), max=9, rules="misere,sj", limit=3)),
        (["--game", "octal:0.77", "--total", "9", "--criteria", "xor,sj"], dict(game="octal:0.77", total=9, criteria="xor,sj")),
        (["--game", "circular:2", "--heaps", "3", "--max", "4"], dict(game="circular:2", heaps=3, max=4)),
        (["--game", "nim", "--heaps", "2", "--max", "6", "--canonical"], dict(game="nim", heaps=2, max=6, canonical=True)),
    ],
)
def test_verify_rows_written_back_are_the_command_line_files(args, kwargs, tmp_path):
    cli("verify", *args, "--out", str(tmp_path))
    summary = (tmp_path / "summary.csv").read_bytes()
    examples = (tmp_path / "counterexamples.csv").read_bytes()
    found, counterexamples = nimtab.verify(**kwargs, counterexamples=True, progress=False)
    assert as_csv(found, header_of(summary)) == summary
    assert as_csv(counterexamples, header_of(examples), empty="") == examples
    for row in found:
        assert isinstance(row["positions"], int) and isinstance(row["p_positions"], int)
        assert row["disagree"] is None or isinstance(row["disagree"], int)


@pytest.mark.parametrize(
    "args,kwargs",
    [
        (["--games", "subtract:subsets(1..=4)", "--heaps", "1..=2", "--max", "12", "--rules", "misere", "--criteria", "sj,xor"],
         dict(games="subtract:subsets(1..=4)", heaps=(1, 2), max=12, rules="misere", criteria="sj,xor")),
        (["--games", "octal:0.?7", "--total", "10"], dict(games="octal:0.?7", total=10)),
        (["--games", "nim;wythoff", "--heaps", "2", "--max", "5", "--rules", "normal,misere", "--claim-p", "h1 == h2"],
         dict(games="nim;wythoff", heaps=2, max=5, rules="normal,misere", claim="h1 == h2")),
    ],
)
def test_sweep_rows_written_back_are_the_command_line_bytes(args, kwargs, tmp_path):
    out = tmp_path / "sweep.csv"
    cli("sweep", *args, "--out", str(out))
    expected = out.read_bytes()
    found = nimtab.sweep(**kwargs, progress=False)
    assert as_csv(found, header_of(expected)) == expected
    assert nimtab.sweep_csv(**kwargs, progress=False) == expected
    # The rows a Dask sweep gets from its merged bytes are the same typed values.
    assert nimtab._rows.rows(nimtab._nimtab.summary_rows(expected)) == found


def test_typed_rows_have_integers_tuples_and_nones_where_the_csv_has_text():
    row = nimtab.verify("subtract:1,2", 2, 5, rules="misere", criteria="xor", progress=False)[0]
    assert row["heaps"] == 2 and row["max"] == 5 and row["positions"] == 36
    assert isinstance(row["first_counterexample"], tuple) and len(row["first_counterexample"]) == 2
    empty = nimtab.verify("octal:0.77", total=6, rules="normal", criteria="sj", progress=False)[0]
    assert (empty["heaps"], empty["max"], empty["first_counterexample"]) == ("any", "total<=6", ())
    none = nimtab.verify("circular:2", 3, 2, progress=False)[0]
    assert none["criterion"] == "none" and none["agree"] is None and none["first_counterexample"] is None


def test_python_reads_no_csv_and_keeps_no_copy_of_the_summary_schema():
    package = Path(nimtab.__file__).parent
    for source in package.glob("*.py"):
        text = source.read_text()
        assert "import csv" not in text and "DictReader" not in text, source.name
        assert "p_positions" not in text, f"{source.name} names a summary column"
    assert "summary_rows" in inspect.getsource(nimtab.sweep)
