"""The tour notebook (python/examples/tour.ipynb) runs from top to bottom without an
error, so it cannot rot; its checks (asserts in its cells) hold."""

from pathlib import Path

import pytest

NOTEBOOK = Path(__file__).resolve().parents[1] / "examples" / "tour.ipynb"


def test_the_tour_notebook_runs_and_its_checks_hold(tmp_path):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("distributed")
    pytest.importorskip("matplotlib")
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    # No warning either (tqdm's "IProgress not found" without ipywidgets, say).
    streams = [o.get("text", "") for o in outputs if o.output_type == "stream" and o.get("name") == "stderr"]
    assert not [t for t in streams if "Warning" in t or "warn" in t.lower()], streams
    text = [o["data"]["text/plain"] for o in outputs if o.output_type == "execute_result"]
    assert text[1] == "{'normal': 45, 'misere': 45, 'sj': 45}"
    assert "(93, 0)" in text, "31 games by 3 heap counts, no disagreement"
    assert text[-1].endswith("True)")
    assert any("image/png" in o.get("data", {}) for o in outputs), "the picture is drawn"
