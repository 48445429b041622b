"""Quotient sweeps from Python (``quotients=N, max_order=K``): the bytes of ``nimtab
sweep --quotients N --max-order K``, whole and in parts, typed rows built in Rust from
the library's rows, and the arguments a quotient sweep refuses."""

import pytest

import nimtab
from test_nimtab import cli

FAMILY = "octal:0.?7;octal:0.53;octal:0.75;wythoff"
CLI_ARGS = ["--games", FAMILY, "--quotients", "14", "--max-order", "200", "--quiet"]
EMPTY = dict(order=None, p_portion_size=None, tame=None, preperiod=None, period=None)


def cells(row) -> list:
    """A typed row as the CSV writes it: nothing for None, ``true``/``false`` for tame."""
    def cell(value):
        if value is None:
            return ""
        return str(value).lower() if isinstance(value, bool) else str(value)

    return [cell(v) for v in row.values()]


def test_a_quotient_sweep_gives_the_command_line_bytes_and_rows(tmp_path):
    cli("sweep", *CLI_ARGS, "--out", str(tmp_path / "q.csv"))
    expected = (tmp_path / "q.csv").read_bytes()
    assert nimtab.sweep_csv(FAMILY, quotients=14, max_order=200, progress=False) == expected
    found = nimtab.sweep(FAMILY, quotients=14, max_order=200, progress=False)
    lines = expected.decode().splitlines()
    assert list(found[0]) == lines[0].split(",")
    assert [",".join(cells(r)) for r in found] == lines[1:]
    by_game = {r["game"]: r for r in found}
    assert by_game["octal:0.07"] == dict(
        game="octal:0.07", max_heap=14, order=24, p_portion_size=5, tame=False,
        preperiod=None, period=None, status="ok",
    )
    assert by_game["wythoff"] == dict(game="wythoff", max_heap=14, **EMPTY, status="not_a_sum")
    assert "proof_failed" not in {r["status"] for r in found}
    # The rows a Dask sweep reads from its merged bytes are the same typed values.
    header, values = nimtab._nimtab.quotient_rows_of_csv(expected)
    assert [dict(zip(header, v)) for v in values] == found


def test_a_quotient_sweep_s_parts_are_the_command_line_parts_and_merge_to_its_bytes(tmp_path):
    cli("sweep", *CLI_ARGS, "--shard", "2/3", "--out", str(tmp_path / "p2.csv"))
    parts = [nimtab.sweep_csv(FAMILY, quotients=14, max_order=200, shard=(i, 3), progress=False)
             for i in (1, 2, 3)]
    assert parts[1] == (tmp_path / "p2.csv").read_bytes()
    whole = nimtab.sweep_csv(FAMILY, quotients=14, max_order=200, progress=False)
    assert nimtab.merge([parts[2], parts[0], parts[1]]) == whole


def test_a_certified_period_and_the_order_bound_reach_the_rows():
    row = nimtab.sweep(["octal:0.75"], quotients=40, progress=False)[0]
    assert (row["order"], row["preperiod"], row["period"], row["tame"]) == (8, 8, 2, False)
    # octal:0.6's quotient at heap 16 has 304 elements: past a bound of 100 it is refused.
    small = nimtab.sweep("octal:0.6", quotients=16, max_order=100, progress=False)[0]
    assert small == dict(game="octal:0.6", max_heap=16, **EMPTY, status="grew_past_max_order")


def test_a_memory_row_of_merged_bytes_reads_back_typed():
    # A game past the memory budget (an address-space limit on a cluster's worker) is a
    # row of status memory in the part, and in the bytes a Dask sweep merges.
    header = "game,max_heap,order,p_portion_size,tame,preperiod,period,status"
    data = f"{header}\noctal:0.76,20,,,,,,memory\noctal:0.75,20,8,2,false,8,2,ok\n".encode()
    names, values = nimtab._nimtab.quotient_rows_of_csv(data)
    rows = [dict(zip(names, v)) for v in values]
    assert rows[0] == dict(game="octal:0.76", max_heap=20, **EMPTY, status="memory")
    assert rows[1]["status"] == "ok"


def test_a_quotient_frame_has_nullable_integer_and_boolean_columns():
    pytest.importorskip("pandas")
    table = nimtab.sweep("octal:0.75;wythoff", quotients=40, as_frame=True, progress=False)
    assert list(table.columns) == ["game", "max_heap", "order", "p_portion_size", "tame",
                                   "preperiod", "period", "status"]
    assert str(table["order"].dtype) == "Int64" and str(table["tame"].dtype) == "boolean"
    assert table["period"].tolist()[0] == 2 and table["order"].isna().tolist() == [False, True]
    assert table["tame"].isna().tolist() == [False, True]


@pytest.mark.parametrize(
    "arguments,message",
    [
        (dict(quotients=0), "quotients: the largest heap must be from 1 to 1000, got 0"),
        (dict(quotients=1001), "quotients: the largest heap must be from 1 to 1000, got 1001"),
        (dict(quotients=5, max_order=0), "max_order: the order bound must be from 1 to 65536, got 0"),
        (dict(quotients=5, max_order=65537), "max_order: the order bound must be from 1 to 65536, got 65537"),
        (dict(max_order=5, heaps=2, max=3), "the argument 'max_order' cannot be used without 'quotients'"),
        (dict(quotients=5, heaps=2), "the argument 'heaps' cannot be used with 'quotients'"),
        (dict(quotients=5, max=3), "the argument 'max' cannot be used with 'quotients'"),
        (dict(quotients=5, total=8), "the argument 'total' cannot be used with 'quotients'"),
        (dict(quotients=5, criteria="xor"), "the argument 'criteria' cannot be used with 'quotients'"),
        (dict(quotients=5, claim="gxor == 0"), "the argument 'claim' cannot be used with 'quotients'"),
        (dict(quotients=5, canonical=True), "the argument 'canonical' cannot be used with 'quotients'"),
        (dict(quotients=5, rules="misere"), "the argument 'rules' cannot be used with 'quotients'"),
    ],
)
def test_a_quotient_sweep_refuses_what_the_command_line_refuses(arguments, message):
    for call in (nimtab.sweep, nimtab.sweep_csv):
        with pytest.raises(ValueError, match=f"^{message}$"):
            call("nim", **arguments, progress=False)


def test_the_command_line_words_the_bounds_as_python_does():
    for flags, message in [(["--quotients", "0"], "the largest heap must be from 1 to 1000, got 0"),
                           (["--quotients", "3", "--max-order", "0"],
                            "the order bound must be from 1 to 65536, got 0")]:
        status, _, stderr = cli("sweep", "--games", "nim", *flags, check=False)
        assert status == 2 and message in stderr, stderr
