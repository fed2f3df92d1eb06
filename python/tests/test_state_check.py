"""``retrogym.make(..., check_state=True)``: the start state is tried in a child process first; a state that crashes
or hangs the core there raises in the caller, which goes on (docs/reliability.md, "Damaged save states"). Crashes
and hangs come from our fault cores (build/fault-cores, `make build`), chosen by path; skipped without them."""
import gzip
import os

import pytest

import retrogym
from conftest import A26_TEST_GAME, SOURCE

CORES = os.path.join(SOURCE, "build", "fault-cores")


def fault_core(name):
    path = os.path.join(CORES, f"fault_{name}_libretro.so")
    if not os.path.isfile(path):
        pytest.skip("the fault cores are not built (make build)")
    return path


@pytest.fixture
def game(a26_game_dir):
    env = retrogym.make(A26_TEST_GAME, state=retrogym.State.NONE)
    env.reset(seed=0)
    for _ in range(30):
        env.step(env.action_space.sample() * 0)
    (a26_game_dir / "Good.state").write_bytes(gzip.compress(env.em.get_state()))
    env.close()
    (a26_game_dir / "Bad.state").write_bytes(gzip.compress(b"not a state"))
    return a26_game_dir


def test_good_state_checked_then_made(game):
    env = retrogym.make(A26_TEST_GAME, state="Good", check_state=True)
    obs, _ = env.reset(seed=0)
    assert obs.shape == env.observation_space.shape
    plain = retrogym.make(A26_TEST_GAME, state="Good")
    plain_obs, _ = plain.reset(seed=0)
    assert (obs == plain_obs).all()  # the check changes nothing in the env the caller gets
    env.close()
    plain.close()


def test_refused_state_gives_make_error(game):
    with pytest.raises(Exception) as plain:
        retrogym.make(A26_TEST_GAME, state="Bad")
    with pytest.raises(type(plain.value)) as checked:
        retrogym.make(A26_TEST_GAME, state="Bad", check_state=True)
    assert str(checked.value) == str(plain.value)


def test_crashing_core_raises_in_caller(game):
    core = fault_core("run_segv")
    with pytest.raises(RuntimeError, match=r"state Good of Test-Atari2600 crashed the core .*SIGSEGV"):
        retrogym.make(A26_TEST_GAME, state="Good", core=core, check_state=True)
    env = retrogym.make(A26_TEST_GAME, state="Good")  # the caller goes on
    env.reset(seed=0)
    env.close()


def test_hanging_core_times_out(game):
    core = fault_core("run_hang")
    with pytest.raises(TimeoutError, match=r"did not finish in 2.0 s"):
        retrogym.make(A26_TEST_GAME, state="Good", core=core, check_state=2)
