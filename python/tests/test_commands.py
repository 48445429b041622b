"""The rest of the command line's reach from Python, each against the command's own
output: multiset tables (`solve --total`), games with a pass and whole-position Grundy
values (`solve --pass --grundy`), the gxor column as an array, `moves`, `period` and
`classes`."""

import csv
import io

import numpy as np
import pytest

import nimtab
from test_nimtab import cli, cli_error


@pytest.mark.parametrize("game,total,rules", [("octal:0.77", 9, None), ("subtract:1,3,4", 8, "misere"), ("nim", 6, "sj,normal")])
def test_a_multiset_table_is_the_command_line_table(game, total, rules):
    pytest.importorskip("pandas")
    flags = ["--rules", rules] if rules else []
    _, out, _ = cli("solve", "--game", game, "--total", str(total), *flags)
    frame = nimtab.solve(game, total=total, rules=rules, as_frame=True, progress=False)
    assert frame.to_csv(index=False, lineterminator="\n").encode() == out
    table = nimtab.solve(game, total=total, rules=rules, progress=False)
    header, *rows = list(csv.reader(io.StringIO(out.decode())))
    assert [tuple(int(h) for h in r[0].split()) for r in rows] == table.heaps
    assert table.total.tolist() == [int(r[1]) for r in rows]
    assert table.gxor.tolist() == [int(r[2]) for r in rows]
    for rule, labels in table.labels.items():
        assert labels.tolist() == [r[header.index(rule)] == "P" for r in rows]


@pytest.mark.parametrize(
    "game,heaps,max_,flags",
    [("nim", 2, 4, ["--pass"]), ("wythoff", 2, 6, ["--grundy"]), ("subtract:1,3,4", 3, 5, ["--grundy"]),
     ("moore:2", 3, 3, ["--pass", "--grundy"]), ("nim", 3, 4, ["--pass", "--canonical", "--grundy"])],
)
def test_pass_and_grundy_tables_are_the_command_line_table(game, heaps, max_, flags):
    pytest.importorskip("pandas")
    _, out, _ = cli("solve", "--game", game, "--heaps", str(heaps), "--max", str(max_), *flags)
    kwargs = dict(pass_="--pass" in flags, grundy="--grundy" in flags, canonical="--canonical" in flags)
    frame = nimtab.solve(game, heaps, max_, as_frame=True, progress=False, **kwargs)
    assert frame.to_csv(index=False, lineterminator="\n").encode() == out
    header, *rows = list(csv.reader(io.StringIO(out.decode())))
    table = nimtab.solve(game, heaps, max_, progress=False, **kwargs)
    columns = table.labels if kwargs["canonical"] else table
    for name, array in columns.items():
        if kwargs["pass_"]:
            assert array.shape[-1] == 2
        cells = [int(r[header.index(name)]) if name == "grundy" else r[header.index(name)] == "P" for r in rows]
        assert array.reshape(-1).tolist() == cells, name


def test_a_pass_position_has_its_two_states_on_the_last_axis():
    table = nimtab.solve("nim", 2, 3, rules="normal", pass_=True, progress=False)["normal"]
    # With the pass used the game is Nim; with it available, (1, 2) is P (the CLI's example).
    assert table[1, 1, 0] and not table[1, 1, 1]
    assert table[1, 2, 1] and not table[1, 2, 0]
    array = pytest.importorskip("xarray") and nimtab.solve("nim", 2, 3, pass_=True, as_xarray=True, progress=False)
    assert array.dims == ("rule", "h1", "h2", "pass")
    assert bool(array.sel(rule="normal", h1=1, h2=2, **{"pass": 1}))


def test_gxor_is_the_xor_of_the_heaps_grundy_values_and_grundy_the_mex_of_the_options():
    _, out, _ = cli("solve", "--game", "subtract:2,5", "--heaps", "3", "--max", "7", "--grundy")
    header, *rows = list(csv.reader(io.StringIO(out.decode())))
    table = nimtab.solve("subtract:2,5", 3, 7, gxor=True, grundy=True, progress=False)
    assert list(table)[:2] == ["gxor", "grundy"] and table["gxor"].shape == (8, 8, 8)
    assert table["gxor"].reshape(-1).tolist() == [int(r[header.index("gxor")]) for r in rows]
    # The Sprague-Grundy theorem: the mex rule over whole positions gives the XOR.
    assert np.array_equal(table["gxor"], table["grundy"])
    canonical = nimtab.solve("subtract:2,5", 3, 7, canonical=True, gxor=True, progress=False)
    assert all(canonical.labels["gxor"][i] == table["gxor"][tuple(p)] for i, p in enumerate(canonical.positions))


def test_solve_refuses_what_the_command_line_refuses():
    cases = [
        (dict(game="wythoff", total=5), ["--game", "wythoff", "--total", "5"]),
        (dict(game="nim", total=5, grundy=True), ["--game", "nim", "--total", "5", "--grundy"]),
        (dict(game="nim", heaps=2, max=3, pass_=True, rules="sj"), ["--game", "nim", "--pass", "--heaps", "2", "--max", "3", "--rules", "sj"]),
    ]
    for kwargs, args in cases:
        with pytest.raises(ValueError) as e:
            nimtab.solve(**kwargs, progress=False)
        expected = cli_error("solve", *args)
        # The command line names its flags (`--total`), Python its arguments (`total`).
        for flag, argument in [("(--total)", "(total)"), ("--grundy is", "grundy is"), ("with --total", "with total"), ("--rules '", "rules '")]:
            expected = expected.replace(flag, argument)
        assert str(e.value) == expected
    with pytest.raises(ValueError, match="gxor, the XOR of the heaps' Grundy values needs a sum of heaps"):
        nimtab.solve("wythoff", 2, 3, gxor=True)
    with pytest.raises(ValueError, match="give either heaps and max, or total, not both"):
        nimtab.solve("nim", 2, 3, total=4)


@pytest.mark.parametrize(
    "args,kwargs",
    [(["3", "4", "5"], dict(game="nim", position=[3, 4, 5])),
     (["--rules", "misere", "1", "1", "4"], dict(game="nim", position=[1, 1, 4], rules="misere")),
     (["--game", "subtract:1,3,4", "--rules", "sj", "6", "2"], dict(game="subtract:1,3,4", position=[6, 2], rules="sj")),
     (["--game", "wythoff", "4", "6"], dict(game="wythoff", position=[4, 6])),
     (["--game", "moore:2", "--pass", "1", "1", "3"], dict(game="moore:2", position=[1, 1, 3], pass_=True)),
     (["--game", "nim", "--pass", "1", "1"], dict(game="nim", position=[1, 1], pass_=True))],
)
def test_moves_are_the_command_line_moves(args, kwargs):
    _, text, note = cli("moves", "-q", *args)
    _, table, _ = cli("moves", "-q", "--format", "csv", *args)
    found = nimtab.moves(**kwargs)
    assert [m["text"] for m in found.moves] == text.decode().splitlines()
    header, *rows = list(csv.reader(io.StringIO(table.decode())))
    assert len(rows) == len(found.moves) > 0
    for row, move in zip(rows, found.moves):
        if header[0] == "heap":
            assert [int(c) for c in row] == [move[h] for h in header]
        else:
            option = move["option"]
            assert row[1] == (option if option == "pass" else " ".join(map(str, option)))
    assert not found.lost and not found.over


def test_a_lost_or_finished_position_has_no_winning_move():
    _, _, note = cli("moves", "--game", "wythoff", "1", "2")
    assert "is a P-position" in note
    assert nimtab.moves("wythoff", (1, 2)) == nimtab.Moves([], True, False)
    _, out, note = cli("moves", "--rules", "sj", "0", "0")
    assert out == b"" and "is over under the sj rule" in note
    assert nimtab.moves("nim", [0, 0], rules="sj") == nimtab.Moves([], False, True)
    assert nimtab.moves("nim", [0, 1], rules="misere") == nimtab.Moves([], True, False)
    with pytest.raises(ValueError) as e:
        nimtab.moves("wythoff", [1, 2], rules="sj")
    assert str(e.value) == cli_error("moves", "--game", "wythoff", "--rules", "sj", "1", "2").replace("--rules", "rules")


def test_moves_takes_rules_as_the_other_functions_and_rule_as_its_older_name():
    assert nimtab.moves("nim", [0, 1], "misere") == nimtab.moves("nim", [0, 1], rules="misere")
    assert nimtab.moves("nim", [0, 1], rule="misere") == nimtab.Moves([], True, False)
    assert nimtab.moves("nim", [0, 1]) == nimtab.moves("nim", [0, 1], rules="normal")
    with pytest.raises(TypeError, match="moves\\(\\) takes rules or its older name rule, not both"):
        nimtab.moves("nim", [0, 1], rules="normal", rule="misere")
    with pytest.raises(TypeError, match="rules must be a string, got 3 \\(int\\)"):
        nimtab.moves("nim", [0, 1], rules=3)
    with pytest.raises(ValueError, match="a position needs at least one heap size"):
        nimtab.moves("nim", [])
    with pytest.raises(ValueError, match="heap size must be a non-negative integer, got -1"):
        nimtab.moves("nim", [2, -1])


@pytest.mark.parametrize("game,max_", [("subtract:1,3,4", 100), ("octal:0.07", 2000), ("subtract:2,5,7", 300)])
def test_a_certified_period_is_the_command_line_period(game, max_):
    _, out, _ = cli("period", "--game", game, "--max", str(max_))
    row = list(csv.DictReader(io.StringIO(out.decode())))[0]
    found = nimtab.period(game, max_)
    assert found.certified and found.statement is None
    assert (found.game, found.preperiod, found.period, found.saltus, found.checked_through) == (
        row["game"], int(row["preperiod"]), int(row["period"]), int(row["saltus"]),
        int(row["checked_through"]))


@pytest.mark.parametrize("game,max_", [("octal:0.77", 100), ("nim", 50)])
def test_no_period_found_is_stated_in_the_command_line_words(game, max_):
    status, out, note = cli("period", "--game", game, "--max", str(max_), check=False)
    assert status == 1 and out == b""
    found = nimtab.period(game, max_)
    assert not found.certified and found.preperiod is None and found.period is None
    assert found.saltus is None
    assert found.statement == note.strip().removeprefix("nimtab: ").replace("raise --max", "raise max")
    assert found.checked_through == max_ and found.largest_value > 0


def test_period_refuses_what_the_command_line_refuses():
    for game, max_ in [("wythoff", "10"), ("nim", str(2**41))]:
        with pytest.raises(ValueError) as e:
            nimtab.period(game, int(max_))
        # The command line names its flag (`--max N`), Python its argument (`max N`).
        assert str(e.value) == cli_error("period", "--game", game, "--max", max_).replace("--max ", "max ")


def test_classes_are_the_command_line_classes(tmp_path):
    _, out, _ = cli("classes", "--heaps", "4", "--max", "7", "--out", str(tmp_path))
    found = nimtab.classes(4, 7, progress=False)
    counts = list(csv.DictReader(io.StringIO((tmp_path / "classes.csv").read_text())))
    assert found.counts == [{k: v if k == "class" else int(v) for k, v in row.items()} for row in counts]
    transitions = list(csv.DictReader(io.StringIO((tmp_path / "transitions.csv").read_text())))
    assert found.transitions == [{**row, "moves": int(row["moves"])} for row in transitions]
    assert found.moves.sum() == sum(int(r["moves"]) for r in transitions) > 0
    lines = [f"holds  {c['claim']} (checked {c['checked']})" for c in found.claims]
    assert lines == out.decode().splitlines() and all(c["holds"] for c in found.claims)
    with pytest.raises(ValueError) as e:
        nimtab.classes(4, 400)
    expected = cli_error("classes", "--heaps", "4", "--max", "400", "--out", str(tmp_path))
    assert str(e.value) == expected.replace("--heaps", "heaps").replace("--max", "max")


def test_verify_with_a_pass_counts_what_the_command_line_counts(tmp_path):
    cli("verify", "--game", "wythoff", "--pass", "--heaps", "2..=3", "--max", "4", "--out", str(tmp_path))
    rows = list(csv.DictReader(io.StringIO((tmp_path / "summary.csv").read_text())))
    found = nimtab.verify("wythoff", (2, 3), 4, pass_=True, progress=False)
    assert [(r["game"], r["heaps"], r["rule"], r["criterion"], r["positions"], r["p_positions"]) for r in found] == [
        (r["game"], int(r["heaps"]), r["rule"], r["criterion"], int(r["positions"]), int(r["p_positions"])) for r in rows]
    assert found[0]["positions"] == 2 * 5**2 and found[0]["agree"] is None


def test_verify_over_multisets_refuses_a_game_that_is_not_a_sum_in_the_command_line_words():
    for game, pass_, flags in [("wythoff", False, []), ("nim", True, ["--pass"])]:
        with pytest.raises(ValueError) as e:
            nimtab.verify(game, total=5, pass_=pass_, progress=False)
        expected = cli_error("verify", "--game", game, *flags, "--total", "5")
        assert str(e.value) == expected.replace("(--total)", "(total)")


def check_table(*args):
    """The command's summary table of `nimtab check`: one dict per heap count."""
    _, out, _ = cli("check", *args, check=False)
    lines = out.decode().splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith("heaps "))
    rows = []
    for line in lines[start + 1:]:
        if line.startswith("the claim"):
            break
        heaps, positions, p, agree, disagree, first = line.split(None, 5)
        rows.append(dict(heaps=int(heaps), positions=int(positions), p_positions=int(p),
                         agree=int(agree), disagree=int(disagree), first=first))
    return rows


@pytest.mark.parametrize(
    "game,claim,heaps,max_,rule,flags",
    [("nim", "h1 == h2 && pass == 0 || h1 != h2 && pass == 1 && h1 + h2 == 3", (2, 2), 3, "normal", ["--pass"]),
     ("wythoff", "grundy == 0", (2, 2), 8, "misere", ["--grundy"]),
     ("moore:2", "grundy == 0 && pass == 0", (2, 3), 4, "normal", ["--pass", "--grundy"]),
     ("subtract:1,3,4", "gxor == 0", (2, 3), 7, "misere", ["--canonical"])],
)
def test_check_with_a_pass_grundy_values_or_sorted_tuples_is_the_command_line_check(game, claim, heaps, max_, rule, flags):
    lo, hi = heaps
    span = str(lo) if lo == hi else f"{lo}..={hi}"
    args = ["--game", game, "--heaps", span, "--max", str(max_), "--rule", rule, "--claim-p", claim]
    expected = check_table(*args, *flags)
    found = nimtab.check(game, claim, heaps, max_, rules=rule, pass_="--pass" in flags, grundy="--grundy" in flags,
                         canonical="--canonical" in flags, progress=False)
    assert len(found) == len(expected) > 0
    for row, shown in zip(found, expected):
        assert [row[k] for k in ("heaps", "positions", "p_positions", "agree", "disagree")] == [
            shown[k] for k in ("heaps", "positions", "p_positions", "agree", "disagree")]
        first = row["first_counterexample"]
        assert shown["first"] == ("-" if first is None else f"({' '.join(map(str, first))}) is " + shown["first"].split(" is ")[1])
    assert any(r["disagree"] for r in found) or "--grundy" in flags


def test_check_refuses_a_claim_in_the_command_line_words():
    cases = [("nim", "h1 +", []), ("nim", "h3 == 0", []), ("nim", "grundy == 0", []), ("wythoff", "gxor == 0", [])]
    for game, claim, flags in cases:
        with pytest.raises(ValueError) as e:
            nimtab.check(game, claim, 2, 3, progress=False)
        expected = cli_error_first_line("check", "--game", game, "--heaps", "2", "--max", "3", "--rule", "normal", "--claim-p", claim)
        assert str(e.value) == expected.replace("--claim-p", "claim").replace("--grundy", "grundy=True")
    with pytest.raises(ValueError, match="grundy is not available with total"):
        nimtab.check("nim", "gxor == 0", total=5, grundy=True)


def cli_error_first_line(*args):
    """The first line of a refused command's error (a claim's error shows it with a
    caret below)."""
    status, _, stderr = cli(*args, check=False)
    assert status == 2, stderr
    return stderr.splitlines()[0].removeprefix("nimtab: error: ")


def test_a_max_below_every_window_is_refused_as_the_command_refuses_it():
    line = cli_error("period", "--game", "octal:0.77", "--max", "4")
    with pytest.raises(ValueError) as refused:
        nimtab.period("octal:0.77", 4)
    assert str(refused.value) == line.replace("--max", "max")
    assert str(refused.value) == ("max 4 is below heap 5, the first at which any period of octal:0.77 "
                                  "can be certified (octal periodicity theorem): raise max")
