"""The Lua sandbox through the Python front (issue 16), on a real integration of our Atari test ROM on our own
Atari core: a pattern that used to overflow the C stack is an error of the step, not a crash of the trainer, and
a script's math.random follows the env's seed (the same streams whatever the thread count, replayed by a
restore)."""

import numpy as np
import pytest

import retrogym

GAME = "Test-Atari2600"


@pytest.fixture
def game_dir(a26_game_dir):
    (a26_game_dir / "scenario.json").write_text('{"reward": {"script": "lua:reward"}, "scripts": ["script.lua"]}')
    return a26_game_dir


def test_pattern_bomb_is_an_error_not_a_crash(game_dir):
    (game_dir / "script.lua").write_text(
        "function reward() if scenario.frame > 2 then return string.find('', string.rep('a*', 100000)) or 0 end\n"
        "return 0 end\n")
    vec = retrogym.make_vec(GAME, 2, core="atari2600", seed=1)
    try:
        vec.reset()
        with pytest.raises(Exception, match="pattern too complex"):
            for _ in range(10):
                vec.step(np.array([vec.single_action_space.sample() for _ in range(2)]))
    finally:
        vec.close()


def rewards(num_threads, steps=12):
    vec = retrogym.make_vec(GAME, 3, core="atari2600", seed=11, num_threads=num_threads)
    try:
        vec.reset()
        noop = np.zeros((3,) + vec.single_action_space.shape, dtype=vec.single_action_space.dtype)
        return np.array([vec.step(noop)[1] for _ in range(steps)])
    finally:
        vec.close()


def test_script_random_follows_the_seed(game_dir):
    (game_dir / "script.lua").write_text("function reward() return math.random(1000) end\n")
    one, three = rewards(1), rewards(3)
    np.testing.assert_array_equal(one, three)
    assert len(set(one[:, 0])) > 3  # draws, not a constant
    assert not np.array_equal(one[:, 0], one[:, 1])  # env i is seeded with seed + i
    env = retrogym.make(GAME, core="atari2600")
    try:
        env.reset(seed=4)
        noop = np.zeros(env.action_space.shape, dtype=env.action_space.dtype)
        env.step(noop)
        snap = env.clone_state()
        tail = [env.step(noop)[1] for _ in range(6)]
        env.restore_state(snap)
        assert [env.step(noop)[1] for _ in range(6)] == tail
    finally:
        env.close()


def test_runaway_script_raises_script_timeout(game_dir):
    """A script past its instruction budget (50 million by default) is RG_ETIMEOUT: retrogym.ScriptTimeout, which is
    also a ValueError (what it raised before) and a TimeoutError; the step fails, not the process."""
    (game_dir / "script.lua").write_text(
        "function reward() if scenario.frame > 2 then while true do end end return 0 end\n")
    env = retrogym.make(GAME, core="atari2600")
    try:
        env.reset(seed=0)
        noop = np.zeros(env.action_space.shape, dtype=env.action_space.dtype)
        with pytest.raises(retrogym.ScriptTimeout, match="budget") as e:
            for _ in range(10):
                env.step(noop)
        assert isinstance(e.value, retrogym.Error) and isinstance(e.value, ValueError)
        assert isinstance(e.value, TimeoutError)
        assert e.value.rg_error == "RG_ETIMEOUT" and e.value.rg_code == retrogym._retrogym.RG_ETIMEOUT
    finally:
        env.close()
