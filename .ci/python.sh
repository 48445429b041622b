#!/usr/bin/env bash
# The Python package: a virtual environment, `pip install ./python` (maturin builds the
# PyO3 extension), the extension crate's fmt and clippy, pytest against the CLI, and the
# Dask end-to-end test on a real local cluster (.ci/dask.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${NIMTAB_VENV:-$PWD/target/pyvenv}   # under target/: ignored by git; a fixed path
py=$venv/bin/python                       # keeps pyo3's build cache valid between runs
stage() { echo "== python: $1 (at ${SECONDS}s)"; }

stage "virtual environment $venv"
[ -x "$py" ] || python3 -m venv "$venv"
# Pinned to the versions the tests were written against (they need Python 3.11, the
# package's requires-python). pandas, xarray, tqdm and matplotlib are optional for nimtab
# (the extra "all"); they are installed here to test the frames, bars and pictures, and
# nbclient with a kernel runs the tour notebook (python/tests/test_notebook.py); mypy checks
# the typed stub against the module and numpydoc the docstrings (python/tests/test_stub.py).
"$py" -m pip install -q --disable-pip-version-check \
  "dask[distributed]==2026.8.0" pytest==9.2.0 numpy==2.4.6 pandas==3.1.1 \
  xarray==2025.12.0 tqdm==4.67.1 matplotlib==3.10.8 \
  nbclient==0.11.0 nbformat==5.11.1 ipykernel==7.4.0 ipywidgets==8.1.9 mypy==2.4.1 numpydoc==1.11.0

stage "pip install ./python"
"$py" -m pip install -q --disable-pip-version-check ./python

stage "cargo fmt and clippy of python/ (its own workspace)"
cargo fmt --manifest-path python/Cargo.toml -- --check
cargo clippy --manifest-path python/Cargo.toml --all-targets --quiet -- -D warnings

stage "pytest python/tests"
# The bars of long calls would fill the log (the tests that check them record them).
export TQDM_DISABLE=1
cargo build --release --quiet --bin nimtab
export NIMTAB_BIN=$PWD/target/release/nimtab
# From the repository root: inside python/, the source folder nimtab/ (without the
# compiled module) would shadow the installed package.
"$py" -m pytest -q -p no:cacheprovider python/tests

stage "Dask cluster on 127.0.0.1"
PYTHON=$py .ci/dask.sh
