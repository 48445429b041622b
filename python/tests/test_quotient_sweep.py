"""Quotient sweeps from Python (``quotients=N, max_order=K, game_timeout=S,
game_memory=SIZE``): the bytes of ``nimtab sweep --quotients N`` with the same limits,
whole and in parts, typed rows built in Rust from the library's rows, and the arguments a
quotient sweep refuses."""

import pytest

import nimtab
from test_nimtab import cli

FAMILY = "octal:0.?7;octal:0.53;octal:0.75;wythoff"
CLI_ARGS = ["--games", FAMILY, "--quotients", "14", "--max-order", "200", "--quiet"]
EMPTY = dict(last_heap=None, order=None, p_portion_size=None, tame=None, preperiod=None, period=None)
HEADER = "game,max_heap,last_heap,order,p_portion_size,tame,preperiod,period,status"


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
        game="octal:0.07", max_heap=14, last_heap=14, order=24, p_portion_size=5, tame=False,
        preperiod=None, period=None, status="ok",
    )
    # Past the order bound at heap 13: the quotient of heaps up to 12 is kept.
    assert by_game["octal:0.67"] == dict(
        game="octal:0.67", max_heap=14, last_heap=12, order=122, p_portion_size=17, tame=False,
        preperiod=None, period=None, status="order_bound",
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
    # Certified as a whole game at heap 21: the sweep stops there.
    assert (row["last_heap"], row["order"], row["preperiod"], row["period"], row["tame"]) == (21, 8, 8, 2, False)
    assert row["status"] == "ok"
    # octal:0.6's quotient at heap 16 has 304 elements: past a bound of 100 it stops, with
    # the quotient of heaps up to 15.
    small = nimtab.sweep("octal:0.6", quotients=16, max_order=100, progress=False)[0]
    assert small == dict(game="octal:0.6", max_heap=16, last_heap=15, order=96, p_portion_size=12,
                         tame=False, preperiod=None, period=None, status="order_bound")


def test_the_game_limits_give_the_command_line_bytes(tmp_path):
    family = "octal:0.07;octal:0.75;wythoff;octal:0.6"
    for flags, limits in [
        (["--game-memory", "256K"], dict(game_memory="256K")),
        (["--game-memory", "262144"], dict(game_memory=262144)),
        (["--game-timeout", "3600", "--max-order", "1000"], dict(game_timeout=3600, max_order=1000)),
    ]:
        out = tmp_path / "q.csv"
        cli("sweep", "--games", family, "--quotients", "40", *flags, "--quiet", "--out", str(out))
        assert nimtab.sweep_csv(family, quotients=40, progress=False, **limits) == out.read_bytes()
        # The part names the limits, as the command line's does.
        cli("sweep", "--games", family, "--quotients", "40", *flags, "--quiet", "--shard", "1/1",
            "--out", str(out))
        part = nimtab.sweep_csv(family, quotients=40, shard=(1, 1), progress=False, **limits)
        assert part == out.read_bytes()
    rows = nimtab.sweep(family, quotients=40, game_memory="256K", progress=False)
    assert [(r["game"], r["last_heap"], r["status"]) for r in rows] == [
        ("octal:0.07", 24, "memory"), ("octal:0.75", 21, "ok"), ("wythoff", None, "not_a_sum"),
        ("octal:0.6", 15, "memory"),
    ]


def test_a_game_past_its_time_is_a_timeout_row():
    rows = nimtab.sweep("octal:0.76;octal:0.75", quotients=12, max_order=60000, game_timeout=0.5,
                        threads=1, progress=False)
    assert rows[0]["status"] == "timeout" and rows[0]["max_heap"] == 12
    assert rows[0]["last_heap"] is None or rows[0]["last_heap"] < 12
    assert rows[1] == dict(game="octal:0.75", max_heap=12, last_heap=12, order=8, p_portion_size=2,
                           tame=False, preperiod=None, period=None, status="ok")


def test_a_memory_row_of_merged_bytes_reads_back_typed():
    # A game past the memory budget (an address-space limit on a cluster's worker) is a
    # row of status memory in the part, and in the bytes a Dask sweep merges.
    data = f"{HEADER}\noctal:0.76,20,11,34,9,false,,,memory\noctal:0.74,20,,,,,,,memory\n"
    data += "octal:0.75,24,21,8,2,false,8,2,ok\n"
    names, values = nimtab._nimtab.quotient_rows_of_csv(data.encode())
    rows = [dict(zip(names, v)) for v in values]
    assert rows[0] == dict(game="octal:0.76", max_heap=20, last_heap=11, order=34, p_portion_size=9,
                           tame=False, preperiod=None, period=None, status="memory")
    assert rows[1] == dict(game="octal:0.74", max_heap=20, **EMPTY, status="memory")
    assert rows[2]["status"] == "ok" and rows[2]["last_heap"] == 21
    # A row the sweep never writes is refused, naming it.
    bad = f"{HEADER}\noctal:0.75,24,21,8,2,false,,,ok\n".encode()
    with pytest.raises(ValueError, match="row 1 of the quotient sweep: .*without a period"):
        nimtab._nimtab.quotient_rows_of_csv(bad)


def test_a_quotient_frame_has_nullable_integer_and_boolean_columns():
    pytest.importorskip("pandas")
    table = nimtab.sweep("octal:0.75;wythoff", quotients=40, as_frame=True, progress=False)
    assert list(table.columns) == ["game", "max_heap", "last_heap", "order", "p_portion_size",
                                   "tame", "preperiod", "period", "status"]
    assert str(table["order"].dtype) == "Int64" and str(table["tame"].dtype) == "boolean"
    assert table["period"].tolist()[0] == 2 and table["order"].isna().tolist() == [False, True]
    assert table["tame"].isna().tolist() == [False, True]


@pytest.mark.parametrize(
    "arguments,message",
    [
        (dict(quotients=0), "quotients: the largest heap must be from 1 to 16777216, got 0"),
        (dict(quotients=2**24 + 1), "quotients: the largest heap must be from 1 to 16777216, got 16777217"),
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
        (dict(game_timeout=5, heaps=2, max=3), "the argument 'game_timeout' cannot be used without 'quotients'"),
        (dict(game_memory="1G", heaps=2, max=3), "the argument 'game_memory' cannot be used without 'quotients'"),
        (dict(quotients=5, game_timeout=0),
         "game_timeout: expected the seconds each game may take, more than 0 and at most 1e9, got 0"),
        (dict(quotients=5, game_timeout=-1.5),
         "game_timeout: expected the seconds each game may take, more than 0 and at most 1e9, got -1.5"),
        (dict(quotients=5, game_timeout=float("nan")),
         "game_timeout: expected the seconds each game may take, more than 0 and at most 1e9, got NaN"),
        (dict(quotients=5, game_memory=0), "game_memory: the amount of memory must be more than 0, got '0'"),
        (dict(quotients=5, game_memory="x"),
         r"game_memory: expected bytes or a number with K, M, G or T \(powers of 1024: 512M, 1.5G\), got 'x'"),
    ],
)
def test_a_quotient_sweep_refuses_what_the_command_line_refuses(arguments, message):
    for call in (nimtab.sweep, nimtab.sweep_csv):
        with pytest.raises(ValueError, match=f"^{message}$"):
            call("nim", **arguments, progress=False)


@pytest.mark.parametrize("arguments", [dict(game_timeout="5"), dict(game_timeout=True),
                                       dict(game_memory=1.5), dict(game_memory=False)])
def test_game_limits_of_another_type_are_refused(arguments):
    with pytest.raises(TypeError, match=f"^{next(iter(arguments))} must be "):
        nimtab.sweep("nim", quotients=5, **arguments, progress=False)


def test_the_command_line_words_the_bounds_as_python_does():
    for flags, message in [(["--quotients", "0"], "the largest heap must be from 1 to 16777216, got 0"),
                           (["--quotients", "3", "--max-order", "0"],
                            "the order bound must be from 1 to 65536, got 0")]:
        status, _, stderr = cli("sweep", "--games", "nim", *flags, check=False)
        assert status == 2 and message in stderr, stderr
