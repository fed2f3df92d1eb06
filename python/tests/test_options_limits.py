"""The option limits (issue 20): each is checked once, in C (rg_env_create, rg_pool_create, named RG_ENV_MAX_* and
RG_POOL_MAX_* in env.h and pool.h, exported by the extension without the RG_ prefix); Python and the extension only
convert types. At each limit the value is accepted, one over it is refused with retrogym.InvalidArgument (a
ValueError) whose message names the limit. On our Atari test ROM and our own Atari core: nothing to install."""
import pytest

import retrogym
from retrogym import _retrogym as C

GAME = "Test-Atari2600"


@pytest.fixture(autouse=True)
def game(a26_game_dir):
    return a26_game_dir


def make(**kwargs):
    return retrogym.make(GAME, core="atari2600", **kwargs)


def vec(num_envs=1, **kwargs):
    return retrogym.make_vec(GAME, num_envs, core="atari2600", **kwargs)


def refused(limit, fn):
    with pytest.raises(retrogym.InvalidArgument, match=limit) as e:
        fn()
    assert isinstance(e.value, ValueError) and e.value.rg_error == "RG_EINVAL"


def test_env_limits():
    env = make(frameskip=C.ENV_MAX_FRAMESKIP)
    try:
        assert env.frameskip == C.ENV_MAX_FRAMESKIP
    finally:
        env.close()
    refused(f"1..{C.ENV_MAX_FRAMESKIP} \\(RG_ENV_MAX_FRAMESKIP\\)", lambda: make(frameskip=C.ENV_MAX_FRAMESKIP + 1))
    refused("RG_SCENARIO_MAX_PLAYERS", lambda: make(players=C.MAX_PLAYERS + 1))
    refused("RG_SCENARIO_MAX_PLAYERS", lambda: make(players=0))
    refused(r"sticky action probability 1.5 is not in \[0, 1\]", lambda: make(sticky_prob=1.5))
    # at the limit the sequence passes (the missing state then fails: no 100000 frames to run); one more does not
    with pytest.raises(retrogym.NotFound):
        make(state="NoSuchState", reset_sequence=[0] * C.ENV_MAX_RESET_SEQUENCE)
    refused("RG_ENV_MAX_RESET_SEQUENCE",
            lambda: make(state=retrogym.State.NONE, reset_sequence=[0] * (C.ENV_MAX_RESET_SEQUENCE + 1)))
    # what has no C representation is the extension's to refuse: a negative count
    with pytest.raises(ValueError, match="must not be negative"):
        C.Env(GAME, players=-1, core="atari2600")


def test_pool_limits():
    refused("RG_POOL_MAX_NUM_ENVS", lambda: vec(C.POOL_MAX_NUM_ENVS + 1))
    refused("RG_POOL_MAX_THREADS", lambda: vec(num_threads=C.POOL_MAX_THREADS + 1))
    refused("RG_POOL_MAX_FRAME_STACK", lambda: vec(frame_stack=C.POOL_MAX_FRAME_STACK + 1))
    refused("RG_POOL_MAX_RESIZE", lambda: vec(resize=(C.POOL_MAX_RESIZE + 1, 84)))
    refused("RG_POOL_MAX_RESIZE", lambda: vec(resize=(84, C.POOL_MAX_RESIZE + 1)))
    refused("RG_POOL_MAX_WORKER_TIMEOUT_MS",
            lambda: vec(isolation="process", worker_timeout=C.POOL_MAX_WORKER_TIMEOUT_MS / 1000 + 0.001))
    refused("batch_size 3 is larger than num_envs 2", lambda: vec(2, batch_size=3))
    # at the limits: a real pool (threads are capped at num_envs)
    v = vec(num_threads=C.POOL_MAX_THREADS, frame_stack=C.POOL_MAX_FRAME_STACK)
    try:
        obs, _ = v.reset(seed=0)
        assert obs.shape[1] == C.POOL_MAX_FRAME_STACK
    finally:
        v.close()
    v = vec(isolation="process", worker_timeout=C.POOL_MAX_WORKER_TIMEOUT_MS / 1000)
    v.close()
