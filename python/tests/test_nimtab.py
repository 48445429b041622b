"""The Python package against the command line: solve arrays against `nimtab solve` CSV,
verify rows against `summary.csv`, sweep bytes against `nimtab sweep`, and errors.

Run from the repository root (`python -m pytest python/tests`): from inside python/,
the source folder nimtab/ (without the compiled module) would shadow the installed
package. The CLI is NIMTAB_BIN, or target/release/nimtab.
"""

import csv
import io
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import nimtab

ROOT = Path(__file__).resolve().parents[2]
CLI = os.environ.get("NIMTAB_BIN", str(ROOT / "target" / "release" / "nimtab"))
GRAPH = "graph:" + str(ROOT / "data" / "graphs" / "sj-counterexample.csv")


def cli(*args, check=True):
    """Runs the command line; returns (status, stdout bytes, stderr text)."""
    done = subprocess.run([CLI, *args], capture_output=True, cwd=ROOT)
    if check:
        assert done.returncode == 0, done.stderr.decode()
    return done.returncode, done.stdout, done.stderr.decode()


def cli_error(*args):
    """The one error line of a refused command, without the `nimtab: error: ` prefix."""
    status, _, stderr = cli(*args, check=False)
    assert status == 2, stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    return lines[0].removeprefix("nimtab: error: ")


@pytest.mark.parametrize(
    "game,heaps,max_",
    [("nim", 1, 9), ("nim", 3, 5), ("subtract:1,3,4", 2, 20), ("subtract:2,5", 4, 4), (GRAPH, 3, 3)],
)
def test_solve_arrays_match_the_cli_csv(game, heaps, max_):
    _, out, _ = cli("solve", "--game", game, "--heaps", str(heaps), "--max", str(max_))
    rows = list(csv.reader(io.StringIO(out.decode())))
    header, rows = rows[0], rows[1:]
    tables = nimtab.solve(game, heaps, max_)
    assert list(tables) == ["normal", "misere", "sj"]
    for rule, array in tables.items():
        assert array.dtype == np.bool_ and array.shape == (max_ + 1,) * heaps
        column = header.index(rule)
        for row in rows:
            position = tuple(int(h) for h in row[:heaps])
            assert array[position] == (row[column] == "P"), (rule, position)
    assert len(rows) == array.size


def test_canonical_solve_gives_sorted_positions_and_flat_labels():
    _, out, _ = cli("solve", "--game", "subtract:1,3,4", "--heaps", "3", "--max", "12", "--canonical")
    header, *rows = list(csv.reader(io.StringIO(out.decode())))
    result = nimtab.solve("subtract:1,3,4", 3, 12, rules=["misere", "normal"], canonical=True)
    assert isinstance(result, nimtab.Canonical)
    assert list(result.labels) == ["normal", "misere"], "rules come in column order"
    assert result.positions.shape == (len(rows), 3)
    assert [list(p) for p in result.positions] == [[int(h) for h in r[:3]] for r in rows]
    assert (np.diff(result.positions, axis=1) >= 0).all()
    misere = [r[header.index("misere")] == "P" for r in rows]
    assert result.labels["misere"].tolist() == misere
    full = nimtab.solve("subtract:1,3,4", 3, 12, rules="misere")["misere"]
    assert all(full[tuple(p)] == v for p, v in zip(result.positions, result.labels["misere"]))


def test_grundy_matches_the_cli():
    _, out, _ = cli("grundy", "--game", "subtract:2,3,7", "--max", "50", "--format", "bfile")
    expected = [int(line.split()[1]) for line in out.decode().splitlines()]
    values = nimtab.grundy("subtract:2,3,7", 50)
    assert values.dtype == np.uint32 and values.tolist() == expected


def test_verify_rows_match_summary_csv(tmp_path):
    args = ["--heaps", "1..=3", "--max", "3", "--rules", "misere,sj", "--criteria", "sj,xor"]
    cli("verify", "--game", GRAPH, *args, "--out", str(tmp_path))
    summary = (tmp_path / "summary.csv").read_text()
    rows = nimtab.verify(GRAPH, (1, 3), 3, rules=["misere", "sj"], criteria="sj,xor")
    expected = list(csv.DictReader(io.StringIO(summary)))
    assert len(rows) == len(expected) == 12
    for row, line in zip(rows, expected):
        first = row["first_counterexample"]
        as_text = {k: str(v) for k, v in row.items()}
        as_text["first_counterexample"] = " ".join(map(str, first)) if first else ""
        assert as_text == line
    # Criteria come in column order (xor, then sj), whatever order they were given in.
    assert [r["criterion"] for r in rows[:2]] == ["xor", "sj"]
    assert rows[1]["first_counterexample"] == (3,) and rows[1]["disagree"] == 1
    request = dict(game=GRAPH, heaps_lo=1, heaps_hi=3, max=3, rules="misere,sj", criteria="sj,xor")
    assert nimtab._nimtab.verify_csv(request)[0] == summary.encode()


SWEEP = ["--games", "subtract:subsets(1..=4)", "--heaps", "1..=3", "--max", "15"]


def test_sweep_bytes_and_shards_match_the_cli(tmp_path):
    out = tmp_path / "sweep.csv"
    cli("sweep", *SWEEP, "--out", str(out))
    data = nimtab.sweep_csv("subtract:subsets(1..=4)", range(1, 4), 15)
    assert data == out.read_bytes()
    parts = [nimtab.sweep_csv("subtract:subsets(1..=4)", (1, 3), 15, shard=(i, 3)) for i in (1, 2, 3)]
    cli("sweep", *SWEEP, "--shard", "2/3", "--out", str(tmp_path / "p2.csv"))
    assert parts[1] == (tmp_path / "p2.csv").read_bytes()
    assert nimtab.merge([parts[2], parts[0], parts[1]]) == data
    with pytest.raises(ValueError, match=r"^part 2/3 of sweep [0-9a-f]{16} is missing$"):
        nimtab.merge([parts[0], parts[2]])
    rows = nimtab.sweep("subtract:subsets(1..=4)", (1, 3), 15)
    assert len(rows) == 15 * 3 * 3 * 3
    assert rows[0]["game"] == "subtract:1" and rows[-1]["game"] == "subtract:1,2,3,4"


def test_a_claim_sweep_and_a_list_of_games(tmp_path):
    out = tmp_path / "claim.csv"
    games = ["nim", "subtract:1,2", GRAPH]
    claim = "(gmax > 1 && gxor == 0) || (gmax <= 1 && gxor != 0)"
    cli("sweep", "--games", ";".join(games), "--heaps", "1..=2", "--max", "3",
        "--rules", "misere,sj", "--claim-p", claim, "--out", str(out))
    data = nimtab.sweep_csv(games, (1, 2), 3, rules=("misere", "sj"), claim=claim)
    assert data == out.read_bytes()
    rows = nimtab.sweep(games, (1, 2), 3, rules=("misere", "sj"), claim=claim)
    failing = {(r["game"], r["heaps"], r["rule"]) for r in rows if r["disagree"]}
    assert failing == {(GRAPH, 1, "misere"), (GRAPH, 2, "misere")}


def test_a_game_listed_twice_runs_once():
    rows = nimtab.sweep("subtract:1,2;nim;subtract:2,1", (1, 2), 5, rules="normal", criteria="xor")
    assert [r["game"] for r in rows] == ["subtract:1,2"] * 2 + ["nim"] * 2


def test_a_total_sweep_holds_games_that_split_heaps(tmp_path):
    out = tmp_path / "total.csv"
    cli("sweep", "--games", "octal:0.?7", "--total", "10", "--out", str(out))
    data = nimtab.sweep_csv("octal:0.?7", total=10)
    assert data == out.read_bytes()
    parts = [nimtab.sweep_csv("octal:0.?7", total=10, shard=(i, 3)) for i in (1, 2, 3)]
    assert nimtab.merge([parts[1], parts[2], parts[0]]) == data
    assert parts[0].splitlines()[2] == b"# space multisets of total<=10"
    rows = nimtab.sweep("octal:0.?7", total=10, rules="normal", criteria="xor")
    assert [r["game"] for r in rows] == [f"octal:0.{d}7" for d in range(8)]
    assert {(r["heaps"], r["max"]) for r in rows} == {("any", "total<=10")}
    # Kayles: normal play is the XOR of Grundy values, a theorem for every sum.
    assert all(r["disagree"] == 0 for r in rows) and rows[7]["positions"] == 139
    # The SJ criterion calls the empty position N; normal play makes it P.
    sj = nimtab.sweep("octal:0.77", total=10, rules="normal", criteria="sj")
    assert sj[0]["disagree"] > 0 and sj[0]["first_counterexample"] == ()
    with pytest.raises(ValueError, match="give either heaps and max, or total, not both"):
        nimtab.sweep("nim", 2, 3, total=5)


@pytest.mark.parametrize(
    "call,cli_args",
    [
        (lambda: nimtab.solve("foo", 2, 3), ["solve", "--game", "foo", "--heaps", "2", "--max", "3"]),
        (lambda: nimtab.grundy("subtract:0,2", 5), ["grundy", "--game", "subtract:0,2", "--max", "5"]),
        (lambda: nimtab.verify("nim", 2, 3, rules="normal,foo"),
         ["verify", "--game", "nim", "--heaps", "2", "--max", "3", "--rules", "normal,foo"]),
        (lambda: nimtab.verify("nim", 2, 3, criteria="xor,bar"),
         ["verify", "--game", "nim", "--heaps", "2", "--max", "3", "--criteria", "xor,bar"]),
        (lambda: nimtab.sweep("subtract:subsets(1..=x)", 2, 3),
         ["sweep", "--games", "subtract:subsets(1..=x)", "--heaps", "2", "--max", "3"]),
        (lambda: nimtab.sweep("nim;octal:0.??", 2, 3),
         ["sweep", "--games", "nim;octal:0.??", "--heaps", "2", "--max", "3"]),
        (lambda: nimtab.sweep("nim;foo", 2, 3), ["sweep", "--games", "nim;foo", "--heaps", "2", "--max", "3"]),
        (lambda: nimtab.sweep("octal:0.77;wythoff", total=6), ["sweep", "--games", "octal:0.77;wythoff", "--total", "6"]),
        (lambda: nimtab.sweep("nim", total=6, criteria="moore"),
         ["sweep", "--games", "nim", "--total", "6", "--criteria", "moore"]),
    ],
)
def test_errors_are_value_errors_with_the_cli_message(call, cli_args):
    with pytest.raises(ValueError) as e:
        call()
    message = str(e.value)
    assert "\n" not in message
    # The command line may name the flag first (`--rules 'normal,foo': ...`).
    assert cli_error(*cli_args).endswith(message), (message, cli_error(*cli_args))


def test_size_limits_and_bad_values():
    with pytest.raises(ValueError, match=r"^the family 'subtract:subsets\(1..=14\)' has 16383 games, above the limit of 10000"):
        nimtab.sweep("subtract:subsets(1..=14)", 1, 3)
    assert cli_error("sweep", "--games", "subtract:subsets(1..=14)", "--heaps", "1", "--max", "3").startswith(
        "the family 'subtract:subsets(1..=14)' has 16383 games, above the limit of 10000"
    )
    with pytest.raises(ValueError, match="^heaps must be at least 1, got 0$"):
        nimtab.solve("nim", 0, 3)
    with pytest.raises(ValueError, match="^threads must be an integer from 1 to 256, got 0$"):
        nimtab.solve("nim", 2, 3, threads=0)
    with pytest.raises(ValueError, match=r"^claim, column 1: h3 names heap 3, but positions have 2 heaps$"):
        nimtab.sweep("nim", 2, 3, claim="h3 == 0")
    with pytest.raises(ValueError, match="^space too large: nim, 6 heaps, max 255"):
        nimtab.solve("nim", 6, 255)
    with pytest.raises(ValueError, match="^heaps must be at least 1, got -1$"):
        nimtab.solve("nim", -1, 3)


def test_threads_do_not_change_results():
    one = nimtab.sweep_csv("subtract:subsets(1..=5)", (1, 3), 20, threads=1)
    two = nimtab.sweep_csv("subtract:subsets(1..=5)", (1, 3), 20, threads=2)
    assert one == two
    a = nimtab.solve("subtract:1,4", 3, 30, threads=1)
    b = nimtab.solve("subtract:1,4", 3, 30, threads=2)
    assert all(np.array_equal(a[r], b[r]) for r in a)


def test_the_gil_is_released_while_the_engine_runs():
    # A sweep of a second or so runs in a thread while this thread ticks every ms: with
    # the GIL held there would be no tick between the call's start and end.
    span = {}

    def work():
        span["start"] = time.perf_counter()
        nimtab.sweep_csv("subtract:subsets(1..=7)", 4, 24, rules="misere", criteria="sj", threads=1)
        span["end"] = time.perf_counter()

    worker = threading.Thread(target=work)
    ticks = []
    worker.start()
    while worker.is_alive():
        ticks.append(time.perf_counter())
        time.sleep(0.001)
    worker.join()
    start, end = span["start"], span["end"]
    points = [start] + [t for t in ticks if start < t < end] + [end]
    gap = max(b - a for a, b in zip(points, points[1:]))
    assert end - start > 0.1, end - start
    assert gap < (end - start) / 3, (gap, end - start)


def test_panics_become_runtime_errors():
    for in_rayon in (False, True):
        with pytest.raises(RuntimeError, match="internal error"):
            nimtab._nimtab._panic(in_rayon)


THREADS_CHILD = r"""
import resource, sys
import nimtab
# 200 MB more address space than the process maps now: too little for 256 threads' stacks.
size = next(int(l.split()[1]) * 1024 for l in open("/proc/self/status") if l.startswith("VmSize:"))
resource.setrlimit(resource.RLIMIT_AS, (size + (200 << 20),) * 2)
try:
    nimtab.solve("nim", 2, 3, threads=THREADS, progress=False)
except RuntimeError as e:
    print(e)
"""


@pytest.mark.parametrize(
    "threads,environment,expected",
    [
        ("256", {}, "could not start 256 worker threads (threads=256): "),
        # The global pool, sized by rayon's variable as a Dask worker's may be.
        ("None", {"RAYON_NUM_THREADS": "256"}, "could not start the worker threads (default: one per core): "),
    ],
)
def test_threads_the_system_will_not_start_are_a_runtime_error_not_a_panic(threads, environment, expected):
    child = subprocess.run(
        [sys.executable, "-c", THREADS_CHILD.replace("THREADS", threads)],
        capture_output=True,
        text=True,
        env={**os.environ, **environment},
        timeout=60,
    )
    assert child.returncode == 0, child.stderr
    assert child.stdout.startswith(expected), child.stdout + child.stderr
    assert child.stdout.rstrip().endswith("; try threads=1 or a larger memory limit"), child.stdout


def test_rows_as_a_data_frame_when_pandas_is_installed(monkeypatch):
    pandas = pytest.importorskip("pandas")
    frame = nimtab.verify("nim", (1, 2), 7, as_frame=True)
    assert isinstance(frame, pandas.DataFrame)
    assert list(frame.columns)[:5] == ["game", "heaps", "max", "rule", "criterion"]
    assert len(frame) == 2 * 3 * 5  # the 5 criteria that apply to Nim, as `nimtab verify`
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match="as_frame=True needs pandas"):
        nimtab.sweep("nim", 1, 3, as_frame=True)
    assert len(nimtab.sweep("nim", 1, 3)) == 9, "rows need no pandas"


def test_grundy_rare_and_summary_are_the_command_s_tables():
    rare = nimtab.grundy("octal:0.6", 3000, format="rare")
    _, listed, said = cli("grundy", "--game", "octal:0.6", "--max", "3000", "--format", "rare")
    lines = listed.decode().splitlines()[1:]
    assert rare.dtype == np.uint64 and rare.shape == (len(lines), 2)
    assert [f"{h},{g}" for h, g in rare.tolist()] == lines
    rows = nimtab.grundy("octal:0.6", 3000, format="summary", snapshots="pow2")
    _, table, _ = cli("grundy", "--game", "octal:0.6", "--max", "3000", "--format", "summary",
                      "--snapshots", "pow2")
    expected = [line.split(",")[1:] for line in table.decode().splitlines()[1:]]
    assert [[str(v) for v in row.values()] for row in rows] == expected
    last = rows[-1]
    assert said == (f"nimtab: mask {last['rare_mask']} over heaps 0..=3000: {last['rare_count']} "
                    f"rare heaps, the last at heap {last['last_rare']}\n")
    given = nimtab.grundy("octal:0.16", 2000, format="summary", rare_mask="0x3")[0]
    assert given == nimtab.grundy("octal:0.16", 2000, format="summary", rare_mask=3)[0]
    assert given["rare_mask"] == "3"


@pytest.mark.parametrize("kwargs,error,message", [
    (dict(format="rare", rare_mask=0), ValueError, r"^rare_mask must be a nonzero hexadecimal mask"),
    (dict(format="rare", rare_mask="zz"), ValueError, r"^rare_mask must be a nonzero hexadecimal mask"),
    (dict(format="rare", rare_mask=1.5), TypeError, r"^rare_mask must be an int or hex text"),
    (dict(format="csv"), ValueError, r"^format must be 'values', 'rare' or 'summary', got 'csv'$"),
    (dict(rare_mask=3), ValueError, r"^rare_mask and snapshots are for format 'rare' or 'summary'$"),
    (dict(format="rare", snapshots="pow2"), ValueError, r"^snapshots is for format 'summary'"),
])
def test_bad_rare_arguments_are_refused_before_any_work(kwargs, error, message):
    with pytest.raises(error, match=message):
        nimtab.grundy("octal:0.6", 100, **kwargs)
