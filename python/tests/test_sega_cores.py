"""Our own Sega cores (core "sms", "gamegear", "genesis"; docs/sms.md, docs/genesis.md) through the Python API, on
the integrations of our test ROMs (conftest's test_games): with no libretro core on the search path a Master System
or Game Gear game runs on ours; gymnasium's check_env passes; make_vec steps a pool of them; and where stable-retro's
wheel ships Genesis Plus GX, every step on our core equals GPGX's through our host on the same actions: observation
shape and bytes, RAM, reward, terminated, truncated and info."""
import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import retrogym
from conftest import _stable_retro_cores

OURS = {"Sms": "sms", "GameGear": "gamegear", "Genesis": "genesis"}
SYSTEMS = list(OURS)


def _gpgx():
    folder = _stable_retro_cores()
    path = folder and f"{folder}/genesis_plus_gx_libretro.so"
    import os

    return path if path and os.path.exists(path) else None


def _actions(env, n, seed):
    rng = np.random.default_rng(seed)
    return [rng.integers(0, 2, size=env.action_space.shape, dtype=np.int8) for _ in range(n)]


@pytest.mark.parametrize("system", ["Sms", "GameGear"])
def test_without_any_libretro_core_the_game_runs_on_ours(test_games, system, monkeypatch, tmp_path):
    """The test process sees no stable-retro (conftest) and Debian packages no Sega core, so with an empty
    $RETROGYM_CORE_PATH the system's preference list ends at our core."""
    monkeypatch.setenv("RETROGYM_CORE_PATH", str(tmp_path))
    game = test_games[system]
    env = retrogym.make(game.name, state=retrogym.State.NONE, inttype=retrogym.Integrations.CUSTOM_ONLY)
    try:
        assert env.core == OURS[system]
        obs, info = env.reset(seed=0)
        total = 0.0
        for _ in range(60):
            obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
            total += reward
        assert total > 0  # the test ROM's frame counter is the reward: the game runs
        assert obs.shape == env.observation_space.shape and obs.any()
    finally:
        env.close()


@pytest.mark.parametrize("obs_type", list(retrogym.Observations), ids=lambda o: o.name)
@pytest.mark.parametrize("system", SYSTEMS)
def test_check_env_on_our_core(test_games, system, obs_type):
    retrogym.register_games()  # the test games, from their custom folder
    env = gym.make(f"retrogym/{test_games[system].name}-v0", state=retrogym.State.NONE, obs_type=obs_type,
                   core=OURS[system], inttype=retrogym.Integrations.CUSTOM_ONLY, render_mode="rgb_array")
    try:
        assert env.unwrapped.core == OURS[system]
        check_env(env.unwrapped, skip_render_check=True)
    finally:
        env.close()


@pytest.mark.parametrize("system", SYSTEMS)
def test_make_vec_on_our_core(test_games, system):
    game = test_games[system]
    vec = retrogym.make_vec(game.name, 3, num_threads=2, core=OURS[system], state=retrogym.State.NONE,
                            inttype=retrogym.Integrations.CUSTOM_ONLY)
    try:
        obs, info = vec.reset(seed=1)
        assert obs.shape[0] == 3
        rewards = np.zeros(3)
        ended = 0
        for _ in range(250):  # the test scenarios end when the frame counter reaches 200
            obs, reward, terminated, truncated, info = vec.step(vec.action_space.sample())
            rewards += reward
            ended += int(np.sum(terminated | truncated))
        assert (rewards > 0).all() and ended >= 3
        assert obs.shape == vec.observation_space.shape
    finally:
        vec.close()


# The Genesis since 2026-11-27: the first frame after power-on of our test ROM (lines drawn before its switch to H40,
# which GPGX leaves black past column 256) now equals GPGX's too (docs/genesis.md, "Equivalence").
@pytest.mark.parametrize("system", ["Sms", "GameGear", "Genesis"])
def test_every_step_equals_genesis_plus_gx(test_games, system):
    gpgx = _gpgx()
    if gpgx is None:
        pytest.skip("stable-retro's wheel (Genesis Plus GX) is not installed")
    game = test_games[system]
    ours = game.make(core=OURS[system])
    theirs = game.make(core=gpgx)
    try:
        assert ours.core == OURS[system] and theirs.core == "genesis_plus_gx"
        assert ours.observation_space == theirs.observation_space
        assert ours.action_space == theirs.action_space
        o1, i1 = ours.reset(seed=3)
        o2, i2 = theirs.reset(seed=3)
        assert o1.shape == o2.shape and np.array_equal(o1, o2) and i1 == i2
        episodes = 0
        for step, action in enumerate(_actions(ours, 450, seed=7)):
            r1 = ours.step(action)
            r2 = theirs.step(action)
            where = f"{system}, step {step}"
            assert r1[0].shape == r2[0].shape, where
            if not np.array_equal(r1[0], r2[0]):
                diff = np.argwhere(r1[0] != r2[0])
                pytest.fail(f"{where}: {len(diff)} observation bytes differ, first at {diff[0].tolist()}")
            assert np.array_equal(ours.get_ram(), theirs.get_ram()), f"{where}: RAM differs"
            assert r1[1:] == r2[1:], f"{where}: (reward, terminated, truncated, info) {r1[1:]} != {r2[1:]}"
            if r1[2] or r1[3]:
                episodes += 1
                o1, _ = ours.reset()
                o2, _ = theirs.reset()
                assert np.array_equal(o1, o2), f"{where}: the reset observations differ"
        assert episodes >= 2  # each episode is 200 frames of the test ROM's counter
    finally:
        ours.close()
        theirs.close()
