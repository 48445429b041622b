#!/usr/bin/env bash
# Dask end-to-end: a real `dask scheduler` and three `dask worker` processes on 127.0.0.1,
# then python/tests_dask against them (two tests each kill a worker, one mid-sweep and one
# mid-atlas, so one worker is left at the end). Every process
# this script starts is recorded with its id and start time, and stopped by id in the
# EXIT trap whatever the outcome: the tests first, then the workers, the scheduler last.
#
# Usage: PYTHON=/path/to/venv/bin/python .ci/dask.sh [extra pytest arguments]
#   The interpreter must have nimtab (pip install ./python), dask[distributed] and pytest:
#   the scheduler, the workers and the client all run from it (the scheduler unpickles
#   task graphs too, so it imports nimtab).
# Env: NIMTAB_DASK_TIMEOUT (seconds for the whole pytest run, default 300).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
py=${PYTHON:-python3}
timeout_s=${NIMTAB_DASK_TIMEOUT:-300}
SECONDS=0

work=$(mktemp -d "${TMPDIR:-/tmp}/nimtab-dask.XXXXXX")
pids=() names=() starts=()
test_idx=""

# A process's start time (clock ticks since boot), so that a reused id is never signalled.
start_time() { sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f20; }
is_ours() {
  local pid=${pids[$1]} state
  state=$(ps -o stat= -p "$pid" 2>/dev/null) || return 1
  [[ $state != Z* ]] && [ "$(start_time "$pid")" = "${starts[$1]}" ]
}
stop() {   # stop INDEX...: SIGTERM, up to 10 s to exit, then SIGKILL
  local i n any
  for i in "$@"; do is_ours "$i" && kill -TERM "${pids[$i]}" 2>/dev/null; done
  for n in $(seq 50); do
    any=0
    for i in "$@"; do is_ours "$i" && any=1; done
    [ "$any" = 0 ] && return 0
    sleep 0.2
  done
  for i in "$@"; do
    if is_ours "$i"; then
      echo "dask.sh: ${names[$i]} (pid ${pids[$i]}) ignored SIGTERM for 10 s; SIGKILL"
      kill -KILL "${pids[$i]}" 2>/dev/null || true
    fi
  done
}
cleanup() {
  local rc=$? i workers=()
  set +e   # a failing kill must not end the cleanup half-way
  trap - EXIT INT TERM
  [ -n "$test_idx" ] && stop "$test_idx"
  for i in "${!names[@]}"; do [[ ${names[$i]} == worker* ]] && workers+=("$i"); done
  [ "${#workers[@]}" -gt 0 ] && stop "${workers[@]}"
  [ "${#pids[@]}" -gt 0 ] && stop 0
  for i in "${!pids[@]}"; do wait "${pids[$i]}" 2>/dev/null; done
  if [ "$rc" != 0 ]; then
    for i in "${!names[@]}"; do
      [ "$i" = "$test_idx" ] && continue
      echo "---- last lines of the ${names[$i]} log (pid ${pids[$i]})"
      tail -n 30 "$work/${names[$i]}.log" 2>/dev/null
    done
  fi
  rm -rf "$work"
  echo "dask.sh: finished in ${SECONDS}s with status $rc"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

start_bg() {   # start_bg NAME COMMAND...: in the background, logged to $work/NAME.log
  local name=$1
  shift
  RAYON_NUM_THREADS=1 "$@" > "$work/$name.log" 2>&1 &
  pids+=("$!") names+=("$name") starts+=("$(start_time "$!")")
  echo "dask.sh: started $name, pid $!"
}

# The scheduler picks a free port (--port 0) and writes its address to a file. A killed
# worker is noticed at once (its connection closes); worker-ttl bounds a hung one.
# --idle-timeout stops it should this script itself be killed before its trap runs.
DASK_DISTRIBUTED__SCHEDULER__WORKER_TTL=30s \
  start_bg scheduler "$py" -m dask scheduler --host 127.0.0.1 --port 0 --no-dashboard \
  --scheduler-file "$work/scheduler.json" --idle-timeout 900
for _ in $(seq 300); do
  [ -s "$work/scheduler.json" ] && break
  is_ours 0 || { echo "dask.sh: the scheduler exited early"; exit 1; }
  sleep 0.1
done
[ -s "$work/scheduler.json" ] || { echo "dask.sh: no scheduler file after 30 s"; exit 1; }
address=$("$py" -c 'import json, sys; print(json.load(open(sys.argv[1]))["address"])' \
  "$work/scheduler.json")
echo "dask.sh: scheduler at $address after ${SECONDS}s"

# Workers without a nanny: the recorded id is the worker itself, so killing it removes
# a worker for good. One thread each, and one rayon thread (RAYON_NUM_THREADS above).
for i in 1 2 3; do
  start_bg "worker$i" "$py" -m dask worker "$address" --host 127.0.0.1 --nworkers 1 \
    --nthreads 1 --no-nanny --no-dashboard --name "w$i" --local-directory "$work/w$i" \
    --death-timeout 60
done
timeout 90 "$py" - "$address" <<'PYEOF' || { echo "dask.sh: the workers did not connect"; exit 1; }
import sys
from distributed import Client
with Client(sys.argv[1], timeout="30s") as client:
    client.wait_for_workers(3, timeout=60)
PYEOF
echo "dask.sh: 3 workers ready after ${SECONDS}s"

# pytest in the background and `wait`: bash runs the trap at once on a signal only
# between foreground commands.
NIMTAB_DASK_SCHEDULER=$address NIMTAB_DASK_WORKER_PIDS="${pids[1]} ${pids[2]} ${pids[3]}" \
  timeout --kill-after=10 "$timeout_s" "$py" -m pytest -q -s -p no:cacheprovider \
  "$root/python/tests_dask" "$@" &
pids+=("$!") names+=("pytest") starts+=("$(start_time "$!")")
test_idx=$((${#pids[@]} - 1))
wait "${pids[$test_idx]}"
