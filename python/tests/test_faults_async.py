"""A core that crashes inside gymnasium's AsyncVectorEnv (one process per environment) stays in its worker: the
parent sees an exception and goes on (tests/faults/async_vector_crash.py does the work; docs/reliability.md,
"Faults"). The fault cores are built by the C build (`make build`: build/fault-cores); skipped without them."""
import os
import subprocess
import sys

import pytest

from conftest import SOURCE

CORES = os.path.join(SOURCE, "build", "fault-cores")
SCRIPT = os.path.join(SOURCE, "tests", "faults", "async_vector_crash.py")


@pytest.mark.skipif(not os.path.isfile(os.path.join(CORES, "fault_run_segv_libretro.so")),
                    reason="the fault cores are not built (make build)")
def test_crashing_core_in_async_vector_env(tmp_path):
    env = dict(os.environ, TMPDIR=str(tmp_path))
    run = subprocess.run([sys.executable, SCRIPT, CORES, os.path.join(SOURCE, "data")], env=env,
                         capture_output=True, text=True, timeout=240)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "OK: the crash stayed in its worker process" in run.stdout
    assert os.listdir(tmp_path) == []  # the script removed what the killed workers left, and nothing else remains
