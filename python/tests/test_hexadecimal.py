"""Hexadecimal codes (`hex:`) in Python as on the command line: Grundy values, solve over
multisets, the family hex(K), a period that no theorem certifies, quotients, and the
refusals.

Run from the repository root, as test_nimtab.py says.
"""

import os
import subprocess
from pathlib import Path

import pytest

import nimtab

ROOT = Path(__file__).resolve().parents[2]
CLI = os.environ.get("NIMTAB_BIN", str(ROOT / "target" / "release" / "nimtab"))


def cli(*args):
    """Runs the command line; returns (status, stdout bytes, stderr text)."""
    done = subprocess.run([CLI, *args], capture_output=True, cwd=ROOT)
    return done.returncode, done.stdout, done.stderr.decode()


def test_grundy_of_0_3f_is_the_command_s():
    expected = [0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5, 6, 7, 8]
    assert nimtab.grundy("hex:0.3F", 14).tolist() == expected
    assert nimtab.grundy("hex:0.3f", 14).tolist() == expected
    _, out, _ = cli("grundy", "--game", "hex:0.F7", "--max", "300", "--format", "bfile")
    assert nimtab.grundy("hex:0.F7", 300).tolist() == [int(l.split()[1]) for l in out.decode().splitlines()]


def test_solve_and_sweep_over_multisets_take_three_heap_moves(tmp_path):
    pytest.importorskip("pandas")
    frame = nimtab.solve("hex:C.1", total=8, as_frame=True, progress=False)
    status, out, _ = cli("solve", "--game", "hex:C.1", "--total", "8")
    assert status == 0 and frame.to_csv(index=False) == out.decode()
    csv = tmp_path / "hex1.csv"
    cli("sweep", "--games", "hex(1)", "--total", "8", "--out", str(csv))
    assert nimtab.sweep_csv("hex(1)", total=8) == csv.read_bytes()
    rows = nimtab.sweep("hex(1)", total=8, rules="normal", criteria="xor")
    assert len(rows) == 48 and rows[0]["game"] == "hex:0.8" and rows[-1]["game"] == "hex:C.F"
    assert all(r["disagree"] == 0 for r in rows)


def test_period_of_a_hex_code_is_proved_or_states_evidence():
    found = nimtab.period("hex:0.3F", 100, progress=False)
    assert found.certified
    assert (found.preperiod, found.period, found.saltus, found.checked_through) == (0, 6, 3, 38)
    status, out, _ = cli("period", "--game", "hex:0.3F", "--max", "100")
    assert status == 0 and out.decode().splitlines()[1] == "hex:0.3F,0,6,3,38"
    evidence = nimtab.period("hex:8.31C", 200, progress=False)
    assert not evidence.certified
    assert evidence.statement == (
        "no period certified for hex:8.31C from heap sizes 0..=200 (largest Grundy value 110): "
        "the values are arithmetic-periodic from heap 1 with period 11 and saltus 6 through "
        "heap 200: evidence to 200, not certified (the arithmetic-periodicity criterion finds "
        "no witness for the value f(n) - 1 at heap 89)"
    )
    certified = nimtab.period("hex:0.F", 100, progress=False)
    assert certified.certified and (certified.preperiod, certified.period) == (0, 2)
    assert certified.saltus == 0


def test_quotient_of_a_hex_code_is_the_command_s_and_predicts_its_play():
    # hex:0.F (take one token, leave up to three heaps) is certified at heap 9: period 2.
    q = nimtab.quotient("hex:0.F", 40, progress=False)
    assert (q.order, q.max_heap, q.certified_at, q.period) == (2, 9, 9, (0, 2))
    status, out, _ = cli("quotient", "--game", "hex:0.F", "--max-heap", "40", "--format", "json")
    assert status == 0 and q.json == out
    # hex:0.48 (take one and leave two heaps, or two and leave three): every misère label
    # of solve over multisets of total at most 10 is the quotient's prediction, and under
    # normal play the quotient is the group of Grundy values.
    misere = nimtab.quotient("hex:0.48", 10, progress=False)
    normal = nimtab.quotient("hex:0.48", 10, play="normal", progress=False)
    values = nimtab.grundy("hex:0.48", 10).tolist()
    _, table, _ = cli("solve", "--game", "hex:0.48", "--total", "10", "--rules", "misere")
    rows = table.decode().splitlines()
    heaps_column = rows[0].split(",").index("heaps")
    label_column = rows[0].split(",").index("misere")
    for row in rows[1:]:
        cells = row.split(",")
        heaps = [int(h) for h in cells[heaps_column].split()] if cells[heaps_column] else []
        assert misere.is_p(heaps) == (cells[label_column] == "P"), row
        xor = 0
        for h in heaps:
            xor ^= values[h]
        assert normal.is_p(heaps) == (xor == 0), row
    assert len(rows) == 1 + 139


@pytest.mark.parametrize(
    "call,message",
    [
        (lambda: nimtab.grundy("hex:0.3G", 5), "'G' (digit D2) is not a hexadecimal digit 0-F"),
        (lambda: nimtab.grundy("hex:0.00", 5), "every digit is 0, so the code allows no move at all"),
        (lambda: nimtab.grundy("octal:0.78", 5), "digits up to F are a hexadecimal code, hex:0.78"),
        (lambda: nimtab.grundy("hex:0.8", 65537), "at most 65536; got 65537"),
        (lambda: nimtab.quotient("hex:0.8", 16385, progress=False), "from 1 to 16384, got 16385"),
    ],
)
def test_bad_hex_codes_and_three_heap_refusals_are_value_errors(call, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        call()
