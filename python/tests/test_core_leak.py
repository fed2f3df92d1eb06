"""Creating and closing nestopia environments in a loop keeps resident memory flat (issue 16: the core leaked ~970 KiB
per load; src/host/lr_gamedb.c). Before the fix this loop grew by about 100 MiB."""
import retrogym
import pytest

pytestmark = pytest.mark.starcatcher

LOOPS = 100
BOUND_KIB = 8 * 1024


def rss_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    pytest.skip("no VmRSS in /proc/self/status")


def create_step_close(steps=3):
    env = retrogym.make("StarCatcher-Nes", core="nestopia", obs_type=retrogym.Observations.RAM)
    env.reset(seed=0)
    for _ in range(steps):
        env.step(env.action_space.sample())
    env.close()


def test_create_close_loop_stays_flat():
    for _ in range(10):  # warm-up: allocator pools, dynamic loader caches, the module's own first-use objects
        create_step_close()
    before = rss_kib()
    for _ in range(LOOPS):
        create_step_close()
    grown = rss_kib() - before
    assert grown < BOUND_KIB, f"RSS grew by {grown} KiB over {LOOPS} environments"
