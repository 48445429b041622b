"""Every integer and boolean argument of the package checked before any work: a number
beyond what the argument can hold is a ValueError naming it (never an OverflowError from
the compiled module), a bool argument takes True or False only (never a truthy "no"),
and a request the command line refuses is refused in Python by the same rule."""

import numpy as np
import pytest

import nimtab
from nimtab._dask import sweep_on_cluster
from test_nimtab import cli_error

HUGE = 10**30

TOO_LARGE = [
    ("limit", lambda: nimtab.verify("nim", 2, 3, limit=HUGE)),
    ("limit", lambda: nimtab.check("nim", "xor == 0", 2, 3, limit=HUGE)),
    ("max", lambda: nimtab.period("nim", HUGE)),
    ("max", lambda: nimtab.period("subtract:1,2", 2**41)),
    ("max", lambda: nimtab.grundy("nim", HUGE)),
    ("max", lambda: nimtab.solve("nim", 2, HUGE)),
    ("max", lambda: nimtab.classes(2, HUGE)),
    ("max", lambda: nimtab.verify("nim", 2, HUGE)),
    ("max", lambda: nimtab.sweep("nim", 2, HUGE)),
    ("heaps", lambda: nimtab.solve("nim", HUGE, 3)),
    ("heaps", lambda: nimtab.verify("nim", (1, HUGE), 3)),
    ("heaps", lambda: nimtab.classes(HUGE, 3)),
    ("total", lambda: nimtab.solve("nim", total=HUGE)),
    ("total", lambda: nimtab.check("nim", "xor == 0", total=HUGE)),
    ("threads", lambda: nimtab.solve("nim", 2, 3, threads=HUGE)),
    ("threads", lambda: nimtab.period("nim", 3, threads=HUGE)),
    ("threads", lambda: nimtab.sweep("nim", 2, 3, threads=HUGE)),
    ("heap size", lambda: nimtab.moves("nim", [HUGE])),
    ("shard", lambda: nimtab.sweep_csv("nim", 2, 3, shard=(1, HUGE))),
    ("shard", lambda: nimtab.sweep_csv("nim", 2, 3, shard=(HUGE, HUGE))),
    ("shards", lambda: sweep_on_cluster(object(), nimtab._sweeps._sweep_args(
        "nim", 2, 3, None, None, None, False, False, None, None), HUGE)),
    ("quotients", lambda: nimtab.sweep("nim", quotients=HUGE)),
    ("max_order", lambda: nimtab.sweep("nim", quotients=3, max_order=HUGE)),
    ("max_heap", lambda: nimtab.quotient("nim", HUGE)),
    ("max_order", lambda: nimtab.quotient("nim", 3, max_order=HUGE)),
]


@pytest.mark.parametrize("name,call", TOO_LARGE)
def test_a_number_beyond_an_arguments_range_is_a_value_error_naming_it(name, call):
    with pytest.raises(ValueError) as e:
        call()
    assert str(e.value).startswith(name), str(e.value)


def test_the_largest_limit_and_sequence_heap_are_taken():
    rows = nimtab.verify("nim", 2, 3, limit=2**64 - 1, criteria="xor", rules="normal")
    assert [r["disagree"] for r in rows] == [0]
    with pytest.raises(ValueError, match=r"^limit 18446744073709551616 is above the largest limit, 2\*\*64 - 1$"):
        nimtab.verify("nim", 2, 3, limit=2**64)
    with pytest.raises(ValueError, match=r"^limit must be a positive integer, got 0$"):
        nimtab.check("nim", "xor == 0", 2, 3, limit=0)


def test_a_period_past_the_largest_sequence_heap_is_refused_in_the_command_lines_words():
    with pytest.raises(ValueError) as e:
        nimtab.period("nim", 2**40 + 1)
    cli = cli_error("period", "--game", "nim", "--max", str(2**40 + 1))
    assert cli.replace("--max ", "max ") == str(e.value)


BOOLEANS = [
    ("progress", lambda v: nimtab.solve("nim", 2, 3, progress=v)),
    ("as_frame", lambda v: nimtab.solve("nim", 2, 3, as_frame=v)),
    ("as_xarray", lambda v: nimtab.solve("nim", 2, 3, as_xarray=v)),
    ("canonical", lambda v: nimtab.solve("nim", 2, 3, canonical=v)),
    ("pass_", lambda v: nimtab.solve("nim", 2, 3, pass_=v)),
    ("grundy", lambda v: nimtab.solve("nim", 2, 3, grundy=v)),
    ("gxor", lambda v: nimtab.solve("nim", 2, 3, gxor=v)),
    ("progress", lambda v: nimtab.verify("nim", 2, 3, progress=v)),
    ("counterexamples", lambda v: nimtab.verify("nim", 2, 3, counterexamples=v)),
    ("as_frame", lambda v: nimtab.verify("nim", 2, 3, as_frame=v)),
    # Checked before the tuple-only refusal that a truthy value would meet.
    ("canonical", lambda v: nimtab.verify("nim", total=3, canonical=v)),
    ("pass_", lambda v: nimtab.verify("nim", 2, 3, pass_=v)),
    ("progress", lambda v: nimtab.check("nim", "xor == 0", 2, 3, progress=v)),
    ("as_frame", lambda v: nimtab.check("nim", "xor == 0", 2, 3, as_frame=v)),
    ("canonical", lambda v: nimtab.check("nim", "xor == 0", 2, 3, canonical=v)),
    ("grundy", lambda v: nimtab.check("nim", "xor == 0", 2, 3, grundy=v)),
    ("progress", lambda v: nimtab.sweep("nim", 2, 3, progress=v)),
    ("as_frame", lambda v: nimtab.sweep("nim", 2, 3, as_frame=v)),
    ("force", lambda v: nimtab.sweep("nim", 2, 3, force=v)),
    ("canonical", lambda v: nimtab.sweep("nim", 2, 3, canonical=v)),
    ("progress", lambda v: nimtab.sweep_csv("nim", 2, 3, progress=v)),
    ("pass_", lambda v: nimtab.moves("nim", [1, 2], pass_=v)),
    ("progress", lambda v: nimtab.period("nim", 3, progress=v)),
    ("progress", lambda v: nimtab.classes(2, 3, progress=v)),
    ("progress", lambda v: nimtab.quotient("nim", 3, progress=v)),
]


@pytest.mark.parametrize("name,call", BOOLEANS)
@pytest.mark.parametrize("value", ["no", "y", 1, 0, None])
def test_a_bool_argument_takes_true_or_false_only(name, call, value):
    with pytest.raises(TypeError, match=rf"^{name} must be True or False, got "):
        call(value)


def test_numpy_bools_are_bools():
    plain = nimtab.solve("nim", 2, 3, canonical=True, progress=False)
    numpy = nimtab.solve("nim", 2, 3, canonical=np.bool_(True), progress=np.bool_(False))
    assert np.array_equal(plain.positions, numpy.positions)


@pytest.mark.parametrize("game", ["wythoff", "moore:2", "circular:3"])
def test_one_heaps_grundy_values_need_a_sum_of_heaps_as_on_the_command_line(game):
    with pytest.raises(ValueError) as e:
        nimtab.grundy(game, 10)
    assert str(e.value) == cli_error("grundy", "--game", game, "--max", "10")
    assert str(e.value).startswith("the Grundy sequence of one heap needs a sum of heaps")
    with pytest.raises(ValueError) as e:
        nimtab.period(game, 10)
    assert str(e.value) == cli_error("period", "--game", game, "--max", "10")


def test_a_claim_naming_a_heap_the_positions_lack_is_refused_before_the_space_is_planned():
    # Tables of 116419 GiB: the claim is wrong first, as on the command line.
    with pytest.raises(ValueError, match=r"^claim, column 1: h4 names heap 4, but positions have 3 heaps$"):
        nimtab.check("subtract:1,3,4", "h4 == 0", 3, 100000)


@pytest.mark.parametrize("play", [1, None, b"normal"])
def test_a_quotients_play_that_is_not_a_string_is_a_type_error_naming_it(play):
    with pytest.raises(TypeError, match="play must be a string"):
        nimtab.quotient("nim", 3, play=play)
    with pytest.raises(ValueError, match="play must be 'misere' or 'normal', got 'mis'"):
        nimtab.quotient("nim", 3, play="mis")


@pytest.mark.parametrize("rules", ["", [], [""], "normal,", ["normal", " "]])
def test_an_empty_rule_list_or_name_is_refused_as_on_the_command_line(rules):
    with pytest.raises(ValueError, match="rules must name at least one"):
        nimtab.sweep("subtract:1", (2, 2), 3, rules=rules, progress=False)
    with pytest.raises(ValueError, match="rules must name at least one"):
        nimtab.solve("nim", 2, 3, rules=rules, progress=False)


def test_a_games_file_that_is_a_fifo_is_refused_before_it_is_opened(tmp_path):
    import os

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match="is a FIFO, not a file: opening it could wait for ever"):
        nimtab.sweep_csv(games_file=fifo, heaps=(2, 2), max=3)
    with pytest.raises(ValueError, match="is a directory, not a file"):
        nimtab.sweep_csv(games_file=tmp_path, heaps=(2, 2), max=3)


@pytest.mark.parametrize(
    "call,needle",
    [
        (lambda: nimtab.sweep_csv(games_file=3, heaps=(2, 2), max=3), "games_file must be a path"),
        (lambda: nimtab.merge(3), "parts must be a sequence of bytes"),
        (lambda: nimtab.merge(b"abc"), "parts must be a sequence of bytes"),
        (lambda: nimtab.merge([b"abc", 3]), r"parts\[1\] must be bytes, got int"),
    ],
)
def test_a_wrongly_typed_file_or_part_is_a_type_error_naming_the_argument(call, needle):
    with pytest.raises(TypeError, match=needle):
        call()
