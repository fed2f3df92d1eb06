"""Reward and done on our own game, StarCatcher-Nes, through the Python package: the same numbers as the C test
tests/game/test_starcatcher.c (the README's scripted input scores 30 at steps 469, 1237 and 2069; doing nothing
loses three lives and is done at step 10127 with 110)."""
import numpy as np
import pytest

import retrogym

pytestmark = pytest.mark.starcatcher

SCRIPT = [(30, ["RIGHT"]), (80, []), (500, ["LEFT"]), (600, []), (1200, ["A", "RIGHT"]), (1230, []), (2500, ["LEFT"])]


def script_actions(env, steps):
    """MultiBinary actions of the README's script, one per step."""
    acts, held, changes = [], [], dict(SCRIPT)
    for step in range(steps):
        held = changes.get(step, held)
        a = np.zeros(env.num_buttons, np.int8)
        for name in held:
            a[env.buttons.index(name)] = 1
        acts.append(a)
    return acts


@pytest.mark.parametrize("mode", [retrogym.Actions.ALL, retrogym.Actions.FILTERED])
def test_scripted_input_scores_30(env_factory, mode):
    env = env_factory(use_restricted_actions=mode, obs_type=retrogym.Observations.RAM)
    env.reset(seed=0)
    rewarded = []
    for step, a in enumerate(script_actions(env, 3600)):
        _, reward, terminated, truncated, info = env.step(a)
        assert not terminated and not truncated
        if reward:
            assert reward == 10.0
            rewarded.append(step)
    assert rewarded == [469, 1237, 2069]
    assert info["score"] == 30 and info["lives"] == 3
    assert env.data.total_reward() == 30.0


def test_doing_nothing_ends_the_episode(env_factory):
    env = env_factory(use_restricted_actions=retrogym.Actions.DISCRETE, obs_type=retrogym.Observations.RAM)
    env.reset(seed=0)
    total, lives, lost = 0.0, 3, 0
    for step in range(20000):
        _, reward, terminated, truncated, info = env.step(0)
        total += reward
        lost += info["lives"] < lives
        lives = info["lives"]
        if terminated:
            break
    assert terminated and not truncated
    assert step == 10127 and total == 110.0 and lost == 3
    assert info["gameover"] == 1 and env.data.is_done()
    assert env.compute_step() == (0.0, True, info)
    # a new episode starts over from the start state
    _, info = env.reset(seed=0)
    assert info["lives"] == 3 and info["score"] == 0 and not env.data.is_done()
    assert env.data.total_reward() == 0.0


def test_state_none_powers_on(env_factory):
    env = env_factory(state=retrogym.State.NONE)
    assert env.statename is None
    _, info = env.reset(seed=0)
    assert info["game_state"] != 1 or info["play_frames"] == 0  # not the saved playing state
    env2 = env_factory(state="Start")
    assert env2.statename == "Start"
