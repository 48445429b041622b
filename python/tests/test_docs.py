"""The Python guide cannot drift: every `>>>` example of docs/guide/python.md is run, in
order in one namespace, and must print what the page shows (an exception as its
`Type: message` line; a trailing `# comment` is ignored)."""

import contextlib
import io
import re
import sys

import pytest

from test_nimtab import ROOT

PAGE = ROOT / "docs" / "guide" / "python.md"


def examples():
    """(line number, source, expected output) of every `>>>` line of the page's
    ```python blocks."""
    found, block, current = [], False, None
    for number, line in enumerate(PAGE.read_text().splitlines(), start=1):
        if line.startswith("```"):
            block = line == "```python"
            current = None
            continue
        if not block:
            continue
        if line.startswith(">>> "):
            current = (number, line[4:], [])
            found.append(current)
        elif current is not None:
            current[2].append(line)
    return found


def run(source: str, namespace: dict) -> str:
    """What the interpreter prints for one line: the repr of its expression's value, or
    the exception's type and message."""
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            code = compile(source, "<python.md>", "single")
            exec(code, namespace)
    except Exception as e:
        return f"{type(e).__name__}: {e}"
    return out.getvalue().rstrip("\n")


def test_the_python_guide_shows_examples():
    assert len(examples()) >= 20


def test_every_example_of_the_python_guide_prints_what_it_shows(monkeypatch):
    pytest.importorskip("pandas")
    monkeypatch.setenv("TQDM_DISABLE", "1")
    namespace = {"__name__": "__main__"}
    exec("import nimtab", namespace)
    # Shown as an interactive session prints: the repr of the last expression.
    monkeypatch.setattr(sys, "displayhook", lambda v: v is not None and print(repr(v)))
    failures = []
    for number, source, expected in examples():
        source = re.sub(r"\s+# .*$", "", source)
        printed = run(source, namespace)
        if printed != "\n".join(expected):
            failures.append(f"python.md:{number}: {source}\n  shows:  {expected}\n  prints: {printed.splitlines()}")
    assert not failures, "\n".join(failures)
