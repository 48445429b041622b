"""The typed stub of the compiled module matches it (names and parameters; mypy's
stubtest where mypy is installed), the package type-checks against it, and every public
function has a numpydoc docstring."""

import ast
import inspect
import subprocess
import sys
from pathlib import Path

import pytest

import nimtab
from nimtab import _nimtab

PACKAGE = Path(nimtab.__file__).parent
STUB = PACKAGE / "_nimtab.pyi"


def stub_functions():
    tree = ast.parse(STUB.read_text())
    return {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}


def test_the_stub_and_py_typed_ship_with_the_package():
    assert STUB.is_file() and (PACKAGE / "py.typed").is_file()


def test_the_stub_names_every_function_of_the_module_with_its_parameters():
    functions = stub_functions()
    compiled = {name for name in dir(_nimtab) if callable(getattr(_nimtab, name))
                and not isinstance(getattr(_nimtab, name), type) and not name.startswith("__")}
    assert set(functions) == compiled
    for name, node in functions.items():
        runtime = list(inspect.signature(getattr(_nimtab, name)).parameters)
        assert [a.arg for a in node.args.args] == runtime, name
        defaults = len(node.args.defaults)
        with_defaults = [p for p in inspect.signature(getattr(_nimtab, name)).parameters.values()
                         if p.default is not inspect.Parameter.empty]
        assert defaults == len(with_defaults), name


def test_the_stub_declares_every_class_of_the_module():
    classes = {node.name for node in ast.parse(STUB.read_text()).body if isinstance(node, ast.ClassDef)}
    compiled = {name for name in dir(_nimtab) if isinstance(getattr(_nimtab, name), type)}
    assert classes == compiled == {"AtlasDir"}


def run(*args, cwd):
    """`python -m ARGS` from `cwd` (not the repository: its python/nimtab folder lacks the
    compiled module)."""
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True, cwd=cwd)


def test_stubtest_finds_the_stub_true_to_the_module(tmp_path):
    pytest.importorskip("mypy")
    done = run("mypy.stubtest", "nimtab._nimtab", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_package_type_checks_against_the_stub(tmp_path):
    pytest.importorskip("mypy")
    done = run("mypy", "--ignore-missing-imports", "--no-incremental", "-p", "nimtab", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


PUBLIC_FUNCTIONS = [
    f"nimtab.{n}" for n in nimtab.__all__ if inspect.isfunction(getattr(nimtab, n))
]
# The methods of the public types, and the functions Dask workers import.
PUBLIC_METHODS = [
    f"{value.__module__}.{value.__qualname__}.{method}"
    for value in (getattr(nimtab, n) for n in nimtab.__all__)
    if isinstance(value, type)
    for method, function in vars(value).items()
    if not method.startswith("_") and inspect.isfunction(function)
]
DASK_TASKS = ["nimtab.dask_tasks.sweep_part", "nimtab.dask_tasks.atlas_part", "nimtab.dask_tasks.pid"]


def test_the_public_types_have_methods_to_check():
    assert "nimtab._quotient.Quotient.is_p" in PUBLIC_METHODS


@pytest.mark.parametrize("name", PUBLIC_FUNCTIONS + PUBLIC_METHODS + DASK_TASKS)
def test_public_functions_have_numpydoc_docstrings(name):
    validate = pytest.importorskip("numpydoc.validate").validate
    found = validate(name)
    # A docstring, a one-line summary in the imperative, every parameter described, and
    # a Returns section.
    wanted = {"GL08", "SS03", "SS05", "SS06", "PR01", "PR02", "PR07", "RT01"}
    problems = [(code, message) for code, message in found["errors"] if code in wanted]
    assert problems == [], problems


def test_public_types_have_docstrings():
    for name in nimtab.__all__:
        value = getattr(nimtab, name)
        if isinstance(value, type):
            assert value.__doc__ and len(value.__doc__.split()) > 10, name
