#!/usr/bin/env bash
# The atlas's web site in a real browser: Debian's Chromium and chromedriver (installed
# when missing: CI machines start bare), Selenium in a virtual environment under target/,
# and tests/browser/atlas_site.py against the release binary.
set -euo pipefail
cd "$(dirname "$0")/.."
stage() { echo "== browser: $1 (at ${SECONDS}s)"; }

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  stage "apt-get install chromium chromium-driver"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium chromium-driver >/dev/null
fi

venv=${NIMTAB_BROWSER_VENV:-$PWD/target/browser-venv}
py=$venv/bin/python
stage "virtual environment $venv"
[ -x "$py" ] || python3 -m venv "$venv"
# Pinned to the version the test was written against; the browser and its driver are
# Debian's, named to Selenium, so nothing else is downloaded.
"$py" -m pip install -q --disable-pip-version-check selenium==4.50.0

stage "tests/browser/atlas_site.py"
cargo build --release --quiet --bin nimtab
NIMTAB_BIN=${NIMTAB_BIN:-$PWD/target/release/nimtab} "$py" tests/browser/atlas_site.py
