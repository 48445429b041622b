"""Sweeps and atlases on a real dask.distributed cluster on the loopback address.

Run by .ci/dask.sh, which starts `dask scheduler` and three `dask worker` processes and
passes their address and process ids: NIMTAB_DASK_SCHEDULER, NIMTAB_DASK_WORKER_PIDS.
The two kill tests each stop one worker for good, so they run last (the sweep's, then
the atlas's, on the two workers left).
"""

import os
import shutil
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest
from distributed import Client

import nimtab

ROOT = Path(__file__).resolve().parents[2]
CLI = os.environ.get("NIMTAB_BIN", str(ROOT / "target" / "release" / "nimtab"))
# Long enough (a few seconds on three single-threaded workers) to kill a worker mid-sweep.
FAMILY = "subtract:subsets(1..=9)"
SWEEP = dict(heaps=(1, 4), max=40, rules="misere", criteria="sj")
SHARDS = 12


@pytest.fixture(scope="module")
def client():
    with Client(os.environ["NIMTAB_DASK_SCHEDULER"], timeout="30s") as c:
        c.wait_for_workers(3, timeout=60)
        yield c


@pytest.fixture(scope="module")
def local_bytes():
    return nimtab.sweep_csv(FAMILY, **SWEEP)


# octal(2) (127 codes) at these bounds: about four seconds on one thread, so a worker
# can be killed midway.
ATLAS = "octal(2)"
ATLAS_BOUNDS = dict(budget=2**16, dense_budget=2**12)
ATLAS_FLAGS = ["--budget", "2^16", "--dense-budget", "2^12"]


@pytest.fixture(scope="module")
def cli_atlas(tmp_path_factory):
    out = tmp_path_factory.mktemp("cli") / "atlas"
    subprocess.run([CLI, "atlas", "--codes", ATLAS, *ATLAS_FLAGS, "--out", str(out), "--quiet"],
                   check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
    return out


def files_of(directory):
    """Every file under `directory`, by relative path, with its bytes."""
    return {
        str(path.relative_to(directory)): path.read_bytes()
        for path in sorted(directory.rglob("*")) if path.is_file()
    }


def worker_pids(client):
    """Worker address -> process id, checked against the ids the CI script recorded."""
    pids = client.run(os.getpid)
    recorded = {int(p) for p in os.environ["NIMTAB_DASK_WORKER_PIDS"].split()}
    assert set(pids.values()) <= recorded, (pids, recorded)
    return pids


def test_the_ci_sweep_on_the_cluster_equals_the_cli_bytes(client, tmp_path):
    out = tmp_path / "sweep.csv"
    args = ["sweep", "--games", "subtract:subsets(1..=6)", "--heaps", "1..=3", "--max", "31"]
    subprocess.run([CLI, *args, "--out", str(out)], check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
    on_cluster = nimtab.sweep_csv("subtract:subsets(1..=6)", (1, 3), 31, client=client)
    assert on_cluster == out.read_bytes()
    rows = nimtab.sweep("subtract:subsets(1..=6)", (1, 3), 31, client=client, shards=5)
    assert len(rows) == 63 * 3 * 3 * 3


def test_a_sweep_on_the_cluster_equals_the_local_sweep(client, local_bytes):
    assert len(worker_pids(client)) == 3
    on_cluster = nimtab.sweep_csv(FAMILY, **SWEEP, client=client, shards=SHARDS)
    assert on_cluster == local_bytes


def test_typed_rows_from_the_cluster_are_the_local_rows(client):
    local = nimtab.sweep(FAMILY, **SWEEP, progress=False)
    assert nimtab.sweep(FAMILY, **SWEEP, client=client, shards=SHARDS, progress=False) == local
    assert len(local) > 0 and isinstance(local[0]["positions"], int)


def test_errors_reach_the_caller_before_any_task(client):
    with pytest.raises(ValueError, match="octal:0.04 can split a heap"):
        nimtab.sweep("octal:0.??", 2, 3, client=client)


def test_shards_are_counted_as_they_finish_and_bad_counts_are_refused(client, monkeypatch):
    import contextlib

    import nimtab._dask

    reports = []

    @contextlib.contextmanager
    def recording(enabled, description, total, unit):
        reports.append(("total", total))
        yield lambda done: reports.append(("done", done))

    monkeypatch.setattr(nimtab._dask, "bar", recording)
    local = nimtab.sweep_csv("subtract:subsets(1..=5)", (1, 2), 12)
    assert nimtab.sweep_csv("subtract:subsets(1..=5)", (1, 2), 12, client=client, shards=6) == local
    assert reports == [("total", 6)] + [("done", d) for d in range(1, 7)]
    for shards in (0, 32):
        with pytest.raises(ValueError, match=rf"^shards must be an integer from 1 to 31 \(the games of the family\), got {shards}$"):
            nimtab.sweep("subtract:subsets(1..=5)", (1, 2), 12, client=client, shards=shards)


def test_a_total_sweep_on_the_cluster_equals_the_local_one(client):
    # Games that split heaps, over the multisets of total at most 20.
    local = nimtab.sweep_csv("octal:0.?7;grundys-game", total=20)
    assert nimtab.sweep_csv("octal:0.?7;grundys-game", total=20, client=client, shards=4) == local
    with pytest.raises(ValueError, match="wythoff is not one"):
        nimtab.sweep("nim;wythoff", total=5, client=client)


def test_a_quotient_sweep_on_the_cluster_gives_the_cli_bytes_and_the_local_rows(client, tmp_path):
    family = "octal:0.?7;octal:0.53;octal:0.75;wythoff"
    out = tmp_path / "quotients.csv"
    args = ["sweep", "--games", family, "--quotients", "14", "--max-order", "200", "--quiet"]
    subprocess.run([CLI, *args, "--out", str(out)], check=True, cwd=ROOT)
    on_cluster = nimtab.sweep_csv(family, quotients=14, max_order=200, client=client, shards=5)
    assert on_cluster == out.read_bytes()
    local = nimtab.sweep(family, quotients=14, max_order=200, progress=False)
    rows = nimtab.sweep(family, quotients=14, max_order=200, client=client, progress=False)
    assert rows == local and len(rows) == 11
    assert {r["game"]: r["order"] for r in rows}["octal:0.07"] == 24
    assert {r["game"]: r["status"] for r in rows}["wythoff"] == "not_a_sum"


def test_a_quotient_sweep_s_game_limits_reach_the_cluster_s_tasks(client, tmp_path):
    # Each game's memory and time travel in the request to every shard: the merged bytes
    # are the command's for the same limits (a time no game reaches keeps them exact).
    family = "octal:0.??"
    limits = ["--game-memory", "1M", "--max-order", "300", "--game-timeout", "3600"]
    out = tmp_path / "limited.csv"
    args = ["sweep", "--games", family, "--quotients", "24", *limits, "--quiet"]
    subprocess.run([CLI, *args, "--out", str(out)], check=True, cwd=ROOT)
    kwargs = dict(quotients=24, game_memory="1M", max_order=300, game_timeout=3600)
    assert nimtab.sweep_csv(family, **kwargs, client=client, shards=4) == out.read_bytes()
    rows = nimtab.sweep(family, **kwargs, client=client, progress=False)
    assert {"ok", "order_bound", "memory"} <= {r["status"] for r in rows}
    # A game past its time on a worker is a timeout row there too.
    timed = nimtab.sweep("octal:0.76", quotients=12, max_order=60000, game_timeout=0.5,
                         client=client, progress=False)
    assert [r["status"] for r in timed] == ["timeout"]


def test_an_atlas_on_the_cluster_writes_the_cli_s_files_whatever_its_batches(client, cli_atlas, tmp_path):
    out = tmp_path / "atlas"
    found = nimtab.atlas(ATLAS, **ATLAS_BOUNDS, client=client, out=out, progress=False)
    assert files_of(out) == files_of(cli_atlas)
    for batches in (1, 127):
        again = nimtab.atlas(ATLAS, **ATLAS_BOUNDS, client=client, batches=batches, progress=False)
        assert again == found
    with pytest.raises(ValueError, match=r"^batches must be an integer from 1 to 127 \(the codes to compute\), got 128$"):
        nimtab.atlas(ATLAS, **ATLAS_BOUNDS, client=client, batches=128)


def test_an_atlas_on_the_cluster_computes_only_the_codes_its_state_lacks(client, cli_atlas, tmp_path, monkeypatch):
    import contextlib

    import nimtab._atlas

    out = tmp_path / "atlas"
    shutil.copytree(cli_atlas, out)
    for code in ("0.16", "0.61", "4.7"):
        (out / "state" / f"{code}.json").unlink()
    (out / "atlas.csv").unlink()
    reports = []

    @contextlib.contextmanager
    def recording(enabled, description, total, unit):
        reports.append(("total", total))
        yield lambda done: reports.append(("done", done))

    monkeypatch.setattr(nimtab._atlas, "bar", recording)
    nimtab.atlas(ATLAS, **ATLAS_BOUNDS, client=client, out=out, batches=3)
    assert reports == [("total", 127), ("done", 124), ("done", 125), ("done", 126), ("done", 127)]
    assert files_of(out) == files_of(cli_atlas)


def test_atlas_errors_reach_the_caller_before_any_task(client, tmp_path):
    with pytest.raises(ValueError, match=r"game 2 of the family: '0\.8' is not an octal code"):
        nimtab.atlas("0.07;0.8", client=client, out=tmp_path / "atlas")
    with pytest.raises(ValueError, match=r"^threads sizes the local run"):
        nimtab.atlas("0.07", client=client, threads=2)
    assert not (tmp_path / "atlas").exists()


def killing_a_worker_midway(client, call):
    """Runs `call` in a thread and kills (SIGKILL) a worker busy with a task once another
    task has finished; returns what the call returned once it has finished. Asserts that
    the cluster then has one worker fewer."""
    pids = worker_pids(client)
    result = {}

    def run():
        try:
            result["value"] = call()
        except BaseException as e:  # reported by the main thread
            result["error"] = e

    running = threading.Thread(target=run)
    started = time.monotonic()
    running.start()
    victim = None
    while running.is_alive() and victim is None:
        done = any(client.has_what().values())
        busy = [w for w, keys in client.processing().items() if keys]
        if done and busy:
            victim = busy[0]
        else:
            time.sleep(0.02)
    assert victim is not None, "the call ended before a worker could be killed"
    tasks = len(client.processing()[victim])
    os.kill(pids[victim], signal.SIGKILL)
    print(f"killed worker {pids[victim]} after {time.monotonic() - started:.2f}s with {tasks} task(s)")
    running.join(timeout=240)
    assert not running.is_alive(), "the call did not finish after the kill"
    assert "error" not in result, result.get("error")
    assert len(client.nthreads()) == len(pids) - 1
    return result["value"]


def test_a_killed_worker_s_shards_are_recomputed(client, local_bytes):
    on_cluster = killing_a_worker_midway(
        client, lambda: nimtab.sweep_csv(FAMILY, **SWEEP, client=client, shards=SHARDS))
    assert on_cluster == local_bytes


def test_a_killed_worker_s_atlas_batches_are_recomputed(client, cli_atlas, tmp_path):
    out = tmp_path / "atlas"
    found = killing_a_worker_midway(
        client, lambda: nimtab.atlas(ATLAS, **ATLAS_BOUNDS, client=client, out=out, progress=False))
    assert files_of(out) == files_of(cli_atlas)
    assert len(found.rows) == 127 and len(client.nthreads()) == 1
