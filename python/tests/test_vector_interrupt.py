"""Ctrl-C while a core hangs in a vector environment's worker (issue 16): the pool waits for its workers in slices of
20 ms and checks for signals between them, so SIGINT raises KeyboardInterrupt in step()/recv() within a slice even
though the core never returns; the pool is then refused ("interrupted ... close it"), close() returns (the stuck
worker is detached, not joined), and the process exits normally. The hanging core is the fault core run_hang
(tests/faults/fake_core.c, built by `make build` into build/fault-cores), in environment 0: lane 0, the lane a
synchronous pool's caller would run itself without the slices. Each scenario runs in a child process, with worker
threads and with worker processes (isolation="process": close() kills the stuck worker)."""
import os
import subprocess
import sys
import time

import pytest

from conftest import SOURCE

CORES = os.path.join(SOURCE, "build", "fault-cores")
HANG = os.path.join(CORES, "fault_run_hang_libretro.so")
GOOD = os.path.join(CORES, "fault_good_libretro.so")

CHILD = r"""
import os, signal, sys, threading, time
import numpy as np
import retrogym

mode, hang, good, isolation = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
vec = retrogym.make_vec("StarCatcher-Nes", 3, num_threads=2, seed=1, batch_size=1 if mode == "recv" else None,
                        env_kwargs=[{"core": hang}, {"core": good}, {"core": good}], isolation=isolation)
vec.reset(seed=1)
actions = np.zeros(vec.action_space.shape, dtype=vec.action_space.dtype)
sent = {}
def interrupt():
    sent["t"] = time.monotonic()
    os.kill(os.getpid(), signal.SIGINT)
timer = threading.Timer(0.2, interrupt)
timer.start()
steps = 0
try:
    while True:  # the hanging core stops at its 40th frame
        if mode == "step":
            vec.step(actions)
        else:  # batches of one, of env 0 only: its hung step is the one recv() waits for
            vec.send(actions[:1], [0])
            vec.recv()
        steps += 1
        if steps > 100000:
            print("FAIL: no hang")
            sys.exit(3)
except KeyboardInterrupt:
    got = time.monotonic()
print(f"steps {steps}; KeyboardInterrupt {1000 * (got - sent['t']):.1f} ms after SIGINT")
if got - sent["t"] > 0.3:
    print("FAIL: too late")
    sys.exit(4)
try:
    vec.step(actions)
    print("FAIL: an interrupted pool stepped")
    sys.exit(5)
except RuntimeError as e:
    assert "interrupted" in str(e) and "close it" in str(e), e
t = time.monotonic()
vec.close()
print(f"close {1000 * (time.monotonic() - t):.0f} ms")
print("OK")
"""


@pytest.mark.skipif(not (os.path.isfile(HANG) and os.path.isfile(GOOD)),
                    reason="the fault cores are not built (make build)")
@pytest.mark.parametrize("isolation", ["threads", "process"])
@pytest.mark.parametrize("mode", ["step", "recv"])
def test_ctrl_c_while_a_core_hangs(mode, isolation, tmp_path):
    env = dict(os.environ, RETROGYM_DATA_PATH=os.path.join(SOURCE, "data"), FAULT_FRAME="40", TMPDIR=str(tmp_path))
    t = time.monotonic()
    run = subprocess.run([sys.executable, "-c", CHILD, mode, HANG, GOOD, isolation], env=env, capture_output=True, text=True,
                         timeout=60)
    elapsed = time.monotonic() - t
    print(run.stdout)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "OK" in run.stdout
    assert elapsed < 20, elapsed  # the stuck worker did not hold the exit
