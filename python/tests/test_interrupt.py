"""Ctrl-C in the middle of long calls: KeyboardInterrupt within a second, the engine
stopped (no CPU used afterwards), and a clean exit, also when the interrupted call is
the first of the process (the numpy API is set up at import)."""

import os
import signal
import subprocess
import sys
import time

import pytest

CHILD = r"""
import signal, sys, time
# A process started in the background by a shell ignores SIGINT; a notebook does not.
signal.signal(signal.SIGINT, signal.default_int_handler)
import nimtab
print("started", flush=True)
start = time.monotonic()
try:
    CALL
    print("finished", flush=True)
except KeyboardInterrupt:
    cpu = time.process_time()
    time.sleep(0.5)
    print("interrupted", round(time.monotonic() - start, 2), round(time.process_time() - cpu, 3), flush=True)
"""

CALLS = {
    # Each takes tens of seconds on one thread.
    "solve": 'nimtab.solve("subtract:1,3,4", 3, 1023, threads=1, progress=False)',
    "sweep": 'nimtab.sweep("subtract:subsets(1..=9)", (1, 4), 60, rules="misere", criteria="sj", threads=1, progress=False)',
    # Verifying streams its rows: on two threads it needs a larger space to last seconds.
    "verify on the global pool": 'nimtab.verify("subtract:1,3,4", 3, 2047, progress=False)',
    # Sixteen seconds of searching for the quotient at heap 34 (which then fails).
    "quotient": 'nimtab.quotient("octal:0.07", 300, progress=False)',
    # The same search as one game of a sweep: the sweep stops inside it, not after it.
    "quotient sweep": 'nimtab.sweep("octal:0.07", quotients=300, threads=1, progress=False)',
    # Grundy's game has no periodicity theorem: the run goes on to 2^22.
    "period": 'nimtab.period("grundys-game", 1 << 22, progress=False)',
    # 127 codes, most of a second each on one thread; the runs stop inside their codes.
    "atlas": 'nimtab.atlas("octal(2)", threads=1, progress=False)',
}


def interrupted(call: str):
    """Runs `call` in a child, sends it SIGINT after a second; returns its line after the
    interrupt (split), the latency, its stderr and its status."""
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD.replace("CALL", call)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout.readline().strip() == "started"
        time.sleep(1.0)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        line = child.stdout.readline().split()
        latency = time.monotonic() - sent - 0.5  # the child sleeps 0.5 s before it prints
        out, err = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
    return line, latency, err, child.returncode


@pytest.mark.parametrize("name", list(CALLS))
def test_ctrl_c_raises_keyboard_interrupt_within_a_second_and_stops_the_engine(name):
    line, latency, err, status = interrupted(CALLS[name])
    assert line and line[0] == "interrupted", (line, err)
    assert latency < 1.0, latency
    assert float(line[2]) < 0.1, f"{line[2]} s of CPU after the interrupt: the engine ran on"
    assert status == 0 and "Panic" not in err and "Traceback" not in err, err


def test_an_interrupted_atlas_keeps_its_finished_codes_and_puts_no_table_in_place(tmp_path):
    out = tmp_path / "atlas"
    line, _, err, _ = interrupted(f'nimtab.atlas("octal(2)", threads=1, progress=False, out={str(out)!r})')
    assert line and line[0] == "interrupted", (line, err)
    kept = sorted(p.name for p in (out / "state").iterdir())
    assert kept and all(name.endswith(".json") and not name.startswith(".") for name in kept), kept
    assert sorted(p.name for p in out.iterdir()) == ["state"]
    assert [p.name for p in tmp_path.iterdir()] == ["atlas"], "the lock file was left"
