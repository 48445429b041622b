"""The command line's defaults, errors and reach from Python: default rules and
criteria chosen by the game, arguments refused naming them, quotients against
`nimtab quotient --format json`, labelled tables against `nimtab solve`'s CSV, games
files, progress reports and the version."""

import csv
import io
import json

import numpy as np
import pytest

import nimtab
from test_nimtab import CLI, GRAPH, cli, cli_error


@pytest.mark.parametrize("game,heaps", [("wythoff", 2), ("moore:2", 3), ("circular:2", 3), ("nim", 3)])
def test_solve_uses_the_rules_the_command_line_picks_for_the_game(game, heaps):
    _, out, _ = cli("solve", "--game", game, "--heaps", str(heaps), "--max", "6")
    header, *body = list(csv.reader(io.StringIO(out.decode())))
    tables = nimtab.solve(game, heaps, 6, progress=False)
    rules = [c for c in header[heaps:] if c != "gxor"]  # a sum's CSV has Grundy values too
    assert list(tables) == rules
    for row in body:
        position = tuple(int(h) for h in row[:heaps])
        assert [tables[r][position] for r in tables] == [v == "P" for v in row[-len(rules):]]


@pytest.mark.parametrize("game,heaps", [("moore:2", "2..=3"), ("wythoff", "2"), ("nim", "1..=3"), ("circular:2", "3")])
def test_verify_uses_the_rules_and_criteria_the_command_line_picks(game, heaps, tmp_path):
    cli("verify", "--game", game, "--heaps", heaps, "--max", "7", "--out", str(tmp_path))
    lo, _, hi = heaps.partition("..=")
    data = nimtab._nimtab.verify_csv(dict(game=game, heaps_lo=int(lo), heaps_hi=int(hi or lo), max=7))
    assert data == tuple((tmp_path / f).read_bytes() for f in ("summary.csv", "counterexamples.csv"))
    rows = nimtab.verify(game, (int(lo), int(hi or lo)), 7, progress=False)
    assert len(rows) == len((tmp_path / "summary.csv").read_text().splitlines()) - 1


def test_a_criterion_that_does_not_apply_and_sj_of_a_game_that_is_not_a_sum_are_refused():
    cases = [
        (lambda: nimtab.verify("wythoff", 3, 4, criteria="wythoff"),
         ["verify", "--game", "wythoff", "--heaps", "3", "--max", "4", "--criteria", "wythoff"]),
        (lambda: nimtab.solve("wythoff", 2, 4, rules="normal,sj"),
         ["solve", "--game", "wythoff", "--heaps", "2", "--max", "4", "--rules", "normal,sj"]),
    ]
    for call, args in cases:
        with pytest.raises(ValueError) as e:
            call()
        # The command line names its flag (`--rules '…'`), Python its argument (`rules '…'`).
        assert cli_error(*args).replace("--rules '", "rules '") == str(e.value)


class NotAClient:
    pass


BAD_ARGUMENTS = [
    (lambda: nimtab.solve("nim", -1, 3), ValueError, "heaps must be at least 1, got -1"),
    (lambda: nimtab.solve("nim", 65, 3), ValueError, "heaps 65 is above the limit of 64"),
    (lambda: nimtab.solve("nim", 2, -3), ValueError, "max must be a non-negative integer, got -3"),
    (lambda: nimtab.solve("nim", 2, 1 << 40), ValueError,
     "max 1099511627776 is above the largest heap size, 4194303"),
    (lambda: nimtab.solve("nim", 2.0, 3), TypeError, r"heaps must be a positive integer, got 2.0 \(float\)"),
    (lambda: nimtab.solve("nim", 2, 3, threads=5000), ValueError,
     "threads must be an integer from 1 to 256, got 5000"),
    (lambda: nimtab.solve("nim", 2, 3, rules=5), TypeError, "rules must be a comma list"),
    (lambda: nimtab.solve(3, 2, 3), TypeError, r"game must be a string, got 3 \(int\)"),
    (lambda: nimtab.verify("nim", (1.7, 2.2), 3), TypeError, r"heaps must be N, \(lo, hi\) or a range"),
    (lambda: nimtab.verify("nim", (3, 1), 3), ValueError, r"heaps \(3, 1\): the range is empty \(3 > 1\)"),
    (lambda: nimtab.verify("nim", (0, 2), 3), ValueError, r"heaps \(0, 2\): heap counts start at 1"),
    (lambda: nimtab.sweep("nim", 2, 3, client="tcp://nowhere:1"), TypeError,
     r"client must be a dask.distributed Client, got 'tcp://nowhere:1' \(str\)"),
    (lambda: nimtab.sweep("nim", 2, 3, client=NotAClient()), TypeError, "client must be a dask.distributed Client"),
    (lambda: nimtab.sweep("nim", 2, 3, shards=4), ValueError, "shards needs a client"),
    (lambda: nimtab.sweep_csv("nim", 2, 3, shard=(0, 3)), ValueError, r"shard must be \(i, n\) with 1 <= i <= n, got \(0, 3\)"),
    (lambda: nimtab.sweep("nim", 2, 3, claim="gxor == 0", criteria="xor"), ValueError,
     "the argument 'claim' cannot be used with 'criteria'"),
    (lambda: nimtab.sweep("nim", total=-1), ValueError, "total must be a non-negative integer, got -1"),
    (lambda: nimtab.sweep("nim", total=373), ValueError, "total 373 is above the limit of 372"),
    (lambda: nimtab.sweep(None, 2, 3), ValueError, "give games .* or games_file, not both"),
    (lambda: nimtab.quotient("nim", 0), ValueError, "max_heap must be from 1 to 16777216, got 0"),
    (lambda: nimtab.quotient("wythoff", 3), ValueError, "a misère quotient needs a sum of heaps"),
    (lambda: nimtab.quotient("nim", 3).is_p([1, 4]), ValueError, "heap 4 is above the quotient's largest heap, 3"),
]


@pytest.mark.parametrize("call,kind,message", BAD_ARGUMENTS)
def test_bad_arguments_raise_type_or_value_errors_naming_the_argument(call, kind, message):
    with pytest.raises(kind, match=message):
        call()


def test_shards_are_checked_against_the_family_before_anything_runs():
    from nimtab._dask import sweep_on_cluster

    args = nimtab._sweeps._sweep_args("nim;subtract:1,2", 2, 3, None, None, None, False, False, None, None)
    for shards in (0, 100000):
        message = rf"shards must be an integer from 1 to 2 \(the games of the family\), got {shards}"
        with pytest.raises(ValueError, match=message):
            sweep_on_cluster(object(), args, shards)


@pytest.mark.parametrize("game,max_heap", [("nim", 2), ("octal:0.75", 12), ("octal:0.07", 9), ("subtract:1,3,4", 8)])
def test_quotients_match_the_command_line_json(game, max_heap):
    _, out, _ = cli("quotient", "--game", game, "--max-heap", str(max_heap), "--format", "json")
    expected = json.loads(out)
    q = nimtab.quotient(game, max_heap, progress=False)
    assert q.json == out
    assert q.order == expected["order"] and q.elements == expected["elements"]
    assert q.product.tolist() == expected["product"] and q.product.shape == (q.order, q.order)
    assert q.phi.tolist() == expected["phi"] and q.p_portion == expected["p_portion"]
    assert q.presentation == expected["presentation"] and q.tame == expected["tame"]
    period = expected["period"]
    assert q.period == (None if period is None else (period["preperiod"], period["period"]))


def test_a_whole_game_quotient_stops_where_certified_and_predicts_every_heap():
    q = nimtab.quotient("octal:0.75", 30, progress=False)
    assert (q.max_heap, q.certified_at, q.period) == (21, 21, (8, 2))
    every = nimtab.quotient("octal:0.75", 30, progress=False, every_heap=True)
    assert (every.max_heap, every.certified_at, every.period) == (30, None, (8, 2))
    for heaps in ([25], [30, 27], [29, 3, 1], [22, 22]):
        assert q.is_p(heaps) == every.is_p(heaps), heaps


def test_a_quotient_predicts_the_misere_labels_of_the_engine():
    q = nimtab.quotient("subtract:1,3,4", 9, progress=False)
    assert q.order == 6 and q.presentation == "<a, b | a^2 = 1, b^3 = b>"
    misere = nimtab.solve("subtract:1,3,4", 3, 9, rules="misere", progress=False)["misere"]
    for position in np.ndindex(misere.shape):
        assert q.is_p(position) == misere[position], position
    assert q.is_p([]) is False and q.element_of([0, 0]) == 0
    normal = nimtab.quotient("nim", 3, play="normal", progress=False)
    assert [normal.is_p(p) for p in [(1, 2, 3), (1, 1), (2, 3)]] == [True, True, False]


@pytest.mark.parametrize("game,heaps,max_,canonical", [("subtract:1,3,4", 2, 9, False), ("nim", 3, 4, True), ("wythoff", 2, 5, False)])
def test_a_solve_frame_writes_the_command_line_csv(game, heaps, max_, canonical):
    pytest.importorskip("pandas")
    flags = ["--canonical"] if canonical else []
    _, out, _ = cli("solve", "--game", game, "--heaps", str(heaps), "--max", str(max_), *flags)
    frame = nimtab.solve(game, heaps, max_, canonical=canonical, as_frame=True, progress=False)
    assert frame.to_csv(index=False, lineterminator="\n").encode() == out
    assert str(frame["h1"].dtype) == "int64"


def test_canonical_positions_are_signed():
    result = nimtab.solve("nim", 2, 3, canonical=True, progress=False)
    assert result.positions.dtype == np.int64
    assert (result.positions[:, 0] - result.positions[:, 1]).min() < 0


def test_an_xarray_has_a_rule_coordinate_and_a_dimension_per_heap():
    pytest.importorskip("xarray")
    tables = nimtab.solve("subtract:1,3,4", 3, 6, progress=False)
    array = nimtab.solve("subtract:1,3,4", 3, 6, as_xarray=True, progress=False)
    assert array.dims == ("rule", "h1", "h2", "h3")
    assert list(array.coords["rule"].values) == ["normal", "misere", "sj"]
    assert bool(array.sel(rule="misere", h1=1, h2=0, h3=4)) == tables["misere"][1, 0, 4]
    assert int(array.sel(rule="normal").sum()) == int(tables["normal"].sum())


def test_frames_of_tuples_and_multisets_concatenate_with_numeric_columns():
    pandas = pytest.importorskip("pandas")
    tuples = nimtab.sweep("subtract:1,2", (1, 2), 6, rules="normal", criteria="xor", as_frame=True, progress=False)
    multisets = nimtab.sweep("subtract:1,2", total=6, rules="normal", criteria="xor", as_frame=True, progress=False)
    both = pandas.concat([tuples, multisets], ignore_index=True)
    assert list(both["space"]) == ["tuples", "tuples", "multisets"]
    assert both["heaps"].tolist()[:2] == [1, 2] and pandas.isna(both["heaps"][2])
    assert both["total"].tolist()[2] == 6 and str(both["heaps"].dtype) == "Int64"
    assert both["positions"].tolist() == [7, 49, 30]


def test_a_games_file_sweeps_like_the_command_line(tmp_path):
    path = tmp_path / "games.txt"
    path.write_text("# two games\nnim\nsubtract:subsets(1..=2)  # three more\n\nsubtract:2,5\n")
    out = tmp_path / "sweep.csv"
    cli("sweep", "--games-file", str(path), "--heaps", "1..=2", "--max", "6", "--out", str(out))
    assert nimtab.sweep_csv(games_file=path, heaps=(1, 2), max=6, progress=False) == out.read_bytes()
    assert nimtab.sweep_csv(games_file=str(path), heaps=(1, 2), max=6, progress=False) == out.read_bytes()


def test_the_version_is_the_command_line_version():
    _, out, _ = cli("--version")
    assert out.decode().split() == ["nimtab", nimtab.__version__]


def test_long_calls_report_their_progress_while_they_run():
    seen = []
    tables = nimtab._nimtab.solve_table("subtract:1,3,4", 3, 400, "normal", threads=1, report=seen.append)
    # Reports come every 100 ms while the call runs: at least one, however fast the machine.
    assert len(seen) >= 1, seen
    assert seen == sorted(seen) and 0 < seen[0] and seen[-1] <= 401**3
    assert tables[1][0].shape == (401, 401, 401)


@pytest.mark.parametrize(
    "args,kwargs",
    [
        (["--game", "subtract:1,2", "--heaps", "1..=2", "--max", "9", "--rules", "misere", "--criteria", "xor", "--limit", "4"],
         dict(game="subtract:1,2", heaps=(1, 2), max=9, rules="misere", criteria="xor", limit=4)),
        (["--game", "octal:0.77", "--total", "8"], dict(game="octal:0.77", total=8)),
        (["--game", "nim", "--total", "6", "--rules", "misere,sj"], dict(game="nim", total=6, rules="misere,sj")),
    ],
)
def test_verify_gives_the_command_line_summary_and_counterexamples(args, kwargs, tmp_path):
    cli("verify", *args, "--out", str(tmp_path))
    summary = (tmp_path / "summary.csv").read_bytes()
    examples = (tmp_path / "counterexamples.csv").read_bytes()
    heaps, total = kwargs.get("heaps"), kwargs.get("total")
    lo, hi = heaps if heaps else (None, None)
    raw = nimtab._nimtab.verify_csv(dict(
        game=kwargs["game"], heaps_lo=lo, heaps_hi=hi, max=kwargs.get("max"),
        rules=kwargs.get("rules"), criteria=kwargs.get("criteria"), total=total,
        limit=kwargs.get("limit", 20),
    ))
    assert raw == (summary, examples)
    rows, found = nimtab.verify(**kwargs, counterexamples=True, progress=False)
    assert len(found) == len(examples.splitlines()) - 1 > 0
    assert sum(min(r["disagree"], kwargs.get("limit", 20)) for r in rows if r["disagree"]) == len(found)
    first = next(r for r in rows if r["disagree"])
    match = next(e for e in found if (e["rule"], e["criterion"]) == (first["rule"], first["criterion"]))
    assert match["position"] == first["first_counterexample"]


def test_check_tests_a_claim_on_one_game_as_the_command_line():
    _, out, _ = cli("check", "--game", "nim", "--heaps", "2", "--max", "5", "--rule", "misere",
                    "--claim-p", "gxor == 0", check=False)
    assert "the claim fails on 4 of 36 positions" in out.decode()
    rows = nimtab.check("nim", "gxor == 0", 2, 5, progress=False)
    assert [r["rule"] for r in rows] == ["normal", "misere", "sj"]
    assert [r["disagree"] for r in rows] == [0, 4, 4]
    assert rows[1]["first_counterexample"] == (0, 0) and rows[1]["criterion"] == "gxor == 0"
    assert [r["rule"] for r in nimtab.check("wythoff", "h1 == h2", 2, 4, progress=False)] == ["normal", "misere"]
    # The negation of the Sprague-Grundy theorem fails on every multiset.
    multisets = nimtab.check("octal:0.77", "gxor != 0", total=8, rules="normal", progress=False)
    assert multisets[0]["disagree"] == multisets[0]["positions"] == 67


def test_plot_puts_the_origin_bottom_left_with_a_key_counts_and_a_difference_panel():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    tables = nimtab.solve("subtract:1,3,4", 2, 20, rules="normal,misere", progress=False)
    fig = nimtab.plot("subtract:1,3,4", 20, rules=["normal", "misere"], difference=("normal", "misere"))
    normal, misere, diff = fig.axes
    assert normal.get_title() == f"normal play: {tables['normal'].sum()} P-positions"
    assert misere.get_title() == f"misère play: {tables['misere'].sum()} P-positions"
    differ = (tables["normal"] != tables["misere"]).sum()
    assert diff.get_title() == f"{differ} positions differ" and differ > 0
    image = normal.get_images()[0]
    assert image.origin == "lower"
    # Row h2, column h1: the cell (h1, h2) = (1, 0) is drawn at x = 1, y = 0.
    assert np.array_equal(np.asarray(image.get_array()), tables["normal"].T)
    # The key and the title as `nimtab plot` words them.
    assert [t.get_text() for t in normal.get_legend().get_texts()] == ["P (player to move loses)", "N (player to move wins)"]
    assert fig.get_suptitle() == "P-positions (h1, h2) of subtract:1,3,4"
    assert normal.get_xlabel() == "h1" and normal.get_ylabel() == "h2"
    with pytest.raises(ValueError, match="difference must be two of the rules"):
        nimtab.plot("nim", 5, rules="normal", difference=("normal", "sj"))
