"""nimtab.atlas against `nimtab atlas`: the typed rows written back are the command's
tables, `out=` holds its files (state included) byte for byte, a run of either resumes
from the other's state, one run at a time holds a directory, what stands where a file
goes is refused, and bad arguments are named before any work."""

import contextlib
import csv
import io
import json
import os
import shutil
import stat

import pytest

import nimtab
from test_nimtab import cli, cli_error

SMALL = dict(budget=2**12, dense_budget=2**12, progress=False)
FLAGS = ["--budget", "2^12", "--dense-budget", "2^12"]


@pytest.fixture(scope="module")
def cli_atlas(tmp_path_factory):
    """`nimtab atlas` of octal(2) (127 codes: solved and unsolved ones, classes of every
    kind, two rare heaps' files) at budget 2^12."""
    out = tmp_path_factory.mktemp("cli") / "atlas"
    cli("atlas", "--codes", "octal(2)", *FLAGS, "--out", str(out), "--quiet")
    return out


def files_of(directory):
    """Every file under `directory`, by relative path, with its bytes."""
    return {
        str(path.relative_to(directory)): path.read_bytes()
        for path in sorted(directory.rglob("*")) if path.is_file()
    }


def as_csv(rows) -> str:
    """Typed rows written back as CSV cells (`None` as the empty cell)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(rows[0].keys())
    writer.writerows([["" if v is None else v for v in row.values()] for row in rows])
    return out.getvalue()


@contextlib.contextmanager
def recorded_bars(monkeypatch):
    import nimtab._atlas

    reports = []

    @contextlib.contextmanager
    def recording(enabled, description, total, unit):
        reports.append(("total", total, unit))
        yield lambda done: reports.append(("done", done))

    monkeypatch.setattr(nimtab._atlas, "bar", recording)
    yield reports


def test_atlas_rows_and_classes_written_back_are_the_cli_s_tables(cli_atlas):
    found = nimtab.atlas("octal(2)", **SMALL)
    assert as_csv(found.rows) == (cli_atlas / "atlas.csv").read_text()
    assert as_csv(found.classes) == (cli_atlas / "classes.csv").read_text()
    assert repr(found) == "Atlas(127 codes: 102 solved, 25 unsolved; 50 classes)"
    kayles_like = {r["code"]: r for r in found.rows}["0.17"]
    assert (kayles_like["period"], kayles_like["quotient_order"]) == (34, 24)
    assert kayles_like["rare_mask"] is None and kayles_like["theorem"] == "octal periodicity theorem"
    assert {c["standard_form"]: c["class"] for c in found.classes}["0.05"] == 5
    assert [e["code"] for e in found.entries] == [r["code"] for r in found.rows]
    assert found.entries[0]["settings"] == dict(budget=4096, dense_budget=4096, quotient_heap=20,
                                                quotient_order=256, method=3)


def test_out_holds_the_cli_s_files_and_state_byte_for_byte(cli_atlas, tmp_path):
    out = tmp_path / "atlas"
    nimtab.atlas("octal(2)", **SMALL, out=out)
    assert files_of(out) == files_of(cli_atlas)
    assert "rare/0.16.csv" in files_of(out) and "state/0.16.json" in files_of(out)
    # No lock file or temporary is left, beside it or inside.
    assert [p.name for p in tmp_path.iterdir()] == ["atlas"]
    assert not [p for p in out.rglob(".*")]


def test_a_run_resumes_from_the_state_the_cli_kept_and_the_cli_from_python_s(cli_atlas, tmp_path, monkeypatch):
    out = tmp_path / "atlas"
    shutil.copytree(cli_atlas, out)
    shutil.rmtree(out / "rare")
    for name in ("atlas.csv", "classes.csv", "atlas.json", "state/0.16.json"):
        (out / name).unlink()
    # An entry of other settings is computed again.
    entry = json.loads((out / "state" / "0.07.json").read_text())
    entry["settings"]["budget"] = 99
    (out / "state" / "0.07.json").write_text(json.dumps(entry))
    with recorded_bars(monkeypatch) as reports:
        nimtab.atlas("octal(2)", **SMALL, out=out)
    assert reports[:2] == [("total", 127, "code"), ("done", 125)] and reports[-1] == ("done", 127)
    assert files_of(out) == files_of(cli_atlas)
    _, said, note = cli("atlas", "--codes", "octal(2)", *FLAGS, "--out", str(out))
    assert f"nimtab: resuming: 127 of 127 codes already done in {out}/state" in note
    assert files_of(out) == files_of(cli_atlas)


def test_a_time_budget_stops_a_long_run_kept_on_disk_and_its_files_are_removed(tmp_path):
    out = tmp_path / "atlas"
    # A run to 2**24 keeps its values in out/state; a second ends 0.36's run first.
    found = nimtab.atlas("0.36;0.07", budget=2**24, budget_seconds=1, quotient_heap=8, out=out,
                         progress=False)
    rows = {r["code"]: r for r in found.rows}
    assert (rows["0.07"]["status"], rows["0.07"]["stopped"]) == ("solved", "certified")
    assert (rows["0.36"]["status"], rows["0.36"]["stopped"]) == ("unsolved", "time")
    assert 2**16 <= rows["0.36"]["computed_to"] < 2**24
    assert found.entries[0]["settings"]["seconds"] == 1
    assert sorted(p.name for p in (out / "state").iterdir()) == ["0.07.json", "0.36.json"]


def test_a_family_a_list_and_a_codes_file_give_one_atlas(tmp_path):
    family = "0.07;octal:0.6?;4.7"
    listed = ["octal:0.07", "0.6", "0.61", "0.62", "0.63", "0.64", "0.65", "0.66", "0.67", "4.7"]
    path = tmp_path / "codes.txt"
    path.write_text("# the family, a line each\n0.07\noctal:0.6?\n4.7\n")
    found = nimtab.atlas(family, **SMALL)
    assert len(found.rows) == 10 and found.rows[0]["code"] == "0.07"
    assert nimtab.atlas(listed, **SMALL) == found
    assert nimtab.atlas(codes_file=path, **SMALL) == found
    cli("atlas", "--codes-file", str(path), *FLAGS, "--out", str(tmp_path / "cli"), "--quiet")
    assert as_csv(found.rows) == (tmp_path / "cli" / "atlas.csv").read_text()


def test_a_family_the_command_refuses_is_refused_with_its_message(tmp_path):
    for family in ("octal(0)", "0.07;subtract:1,2", "0.07;0.8", "nim"):
        line = cli_error("atlas", "--codes", family, "--out", str(tmp_path / "cli"))
        with pytest.raises(ValueError) as refused:
            nimtab.atlas(family, **SMALL)
        assert str(refused.value) == line


@pytest.mark.parametrize("kwargs,error,message", [
    (dict(codes="subtract:subsets(1..=3)"), ValueError,
     r"^game 1 of the family: 'subtract:1' is not an octal code: expected D0\.D1D2\.\.\."),
    (dict(codes="octal(2)", budget=0), ValueError, r"^budget must be an integer from 1 to 2\*\*40, got 0$"),
    (dict(codes="octal(2)", dense_budget=2**41), ValueError,
     r"^dense_budget must be an integer from 1 to 2\*\*40, got 2199023255552$"),
    (dict(codes="octal(2)", quotient_heap=2**24 + 1), ValueError,
     r"^quotient_heap must be an integer from 1 to 16777216, got 16777217$"),
    (dict(codes="octal(2)", quotient_order=0), ValueError,
     r"^quotient_order must be an integer from 1 to 65536, got 0$"),
    (dict(codes="octal(2)", budget_seconds=0), ValueError,
     r"^budget_seconds must be an integer from 1 to 10\*\*9, got 0$"),
    (dict(codes="octal(2)", budget="2^20"), TypeError,
     r"^budget must be an integer from 1 to 2\*\*40, got '2\^20' \(str\)$"),
    (dict(codes="octal(9)"), ValueError, r"^the family 'octal\(9\)' has 268435455 games, above the limit of 10000"),
    (dict(codes="0.0"), ValueError, r"^the family holds no octal code with a move"),
    (dict(codes=161), TypeError, r"^codes must be a family text or a list of codes, got 161$"),
    (dict(codes="0.07", codes_file="codes.txt"), ValueError, r"^give codes .* or codes_file, not both$"),
    (dict(codes="0.07", batches=4), ValueError, r"^batches needs a client"),
    (dict(codes="0.07", client="tcp://host:8786"), TypeError, r"^client must be a dask.distributed Client"),
    (dict(codes="0.07", out=3), TypeError, r"^out must be a path"),
    (dict(codes="0.07", progress="no"), TypeError, r"^progress must be True or False"),
])
def test_bad_arguments_are_refused_naming_the_value(kwargs, error, message):
    with pytest.raises(error, match=message):
        nimtab.atlas(**kwargs)


def test_an_atlas_directory_is_used_by_one_run_at_a_time(tmp_path):
    out = tmp_path / "atlas"
    request = nimtab._atlas._request("0.07", None, 2**12, 2**12, 20, 256, False)
    lock = tmp_path / ".atlas.nimtab-lock"
    with nimtab._nimtab.AtlasDir(str(out), request):
        assert lock.read_text() == f"{os.getpid()}\n"
        with pytest.raises(ValueError) as refused:
            nimtab.atlas("0.07", **SMALL, out=out)
        expected = (f"atlas directory {out} is in use by process {os.getpid()}: one run at a time "
                    f"may use it (its lock file is {lock})")
        assert str(refused.value) == expected
        assert cli_error("atlas", "--codes", "0.07", *FLAGS, "--out", str(out)) == expected
    assert not lock.exists()
    nimtab.atlas("0.07", **SMALL, out=out)
    assert (out / "atlas.csv").is_file() and not lock.exists()


def test_what_stands_where_a_file_goes_is_refused_and_left_alone(tmp_path):
    out = tmp_path / "atlas"
    out.mkdir()
    os.mkfifo(out / "atlas.csv")
    with pytest.raises(ValueError, match=r"atlas\.csv is a FIFO, which nimtab never replaces with an output file$"):
        nimtab.atlas("0.07", **SMALL, out=out)
    assert stat.S_ISFIFO(os.lstat(out / "atlas.csv").st_mode)
    assert not (out / "state").exists(), "refused before any work"
    (tmp_path / "file").write_text("not a directory")
    with pytest.raises(ValueError, match=r"file: not a directory$"):
        nimtab.atlas("0.07", **SMALL, out=tmp_path / "file")


def test_a_code_s_state_that_cannot_be_kept_stops_the_run_and_writes_nothing(tmp_path):
    out = tmp_path / "atlas"
    (out / "state" / "0.07.json").mkdir(parents=True)
    with pytest.raises(ValueError, match=r"state/0\.07\.json is a directory, which nimtab never replaces"):
        nimtab.atlas("0.07;0.6", **SMALL, out=out)
    assert (out / "state" / "0.07.json").is_dir()
    assert not (out / "atlas.csv").exists()


def test_a_failed_commit_leaves_the_old_files(tmp_path):
    out = tmp_path / "atlas"
    nimtab.atlas("0.16;0.07", **SMALL, out=out)
    before = files_of(out)
    (out / "rare" / "0.16.csv").unlink()
    os.mkfifo(out / "rare" / "0.16.csv")
    with pytest.raises(ValueError, match=r"rare/0\.16\.csv is a FIFO, which nimtab never replaces"):
        nimtab.atlas("0.16;0.07", budget=2**11, dense_budget=2**11, progress=False, out=out)
    assert (out / "atlas.csv").read_bytes() == before["atlas.csv"]
    assert stat.S_ISFIFO(os.lstat(out / "rare" / "0.16.csv").st_mode)
    assert not [p for p in out.rglob(".nimtab-*")], "a staging folder was left"
