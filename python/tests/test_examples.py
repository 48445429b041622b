"""The examples in python/examples/ leave the checkout as it was: by default they write
into the system's temporary directory, and only a path given writes elsewhere."""

import os
import subprocess
import sys

import pytest

from test_nimtab import ROOT

EXAMPLE = ROOT / "python" / "examples" / "p_positions.py"
TRACKED = ROOT / "python" / "examples" / "p-positions.png"


def run_example(tmp_path, *args):
    env = dict(os.environ, TMPDIR=str(tmp_path), TQDM_DISABLE="1", MPLBACKEND="Agg")
    return subprocess.run(
        [sys.executable, str(EXAMPLE), *args], capture_output=True, text=True, cwd=ROOT, env=env, check=True
    )


def test_the_picture_example_writes_into_the_temporary_directory_by_default(tmp_path):
    pytest.importorskip("matplotlib")
    before = TRACKED.read_bytes()
    done = run_example(tmp_path)
    out = tmp_path / "p-positions.png"
    assert done.stdout.splitlines() == [f"wrote {out}", "189 rows, 0 disagreements"]
    assert out.read_bytes().startswith(b"\x89PNG")
    assert TRACKED.read_bytes() == before, "the tracked picture is left alone"


def test_the_picture_example_writes_the_path_given(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "picture.png"
    done = run_example(tmp_path, str(out))
    assert done.stdout.splitlines()[0] == f"wrote {out}"
    assert out.read_bytes().startswith(b"\x89PNG")
    assert not (tmp_path / "p-positions.png").exists()
