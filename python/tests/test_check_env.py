"""gymnasium's env_checker passes for every system that has a core, with image and RAM observations, and for our
game in every action mode."""
import importlib.util

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env

import retrogym
from conftest import GAME, SYSTEMS, core_for


@pytest.mark.parametrize("obs_type", list(retrogym.Observations), ids=lambda o: o.name)
@pytest.mark.parametrize("system", SYSTEMS)
def test_check_env_every_system(test_games, system, obs_type, monkeypatch):
    """Through gymnasium.make (the test games are registered from their custom folder), so the declared render
    modes are checked too: "human" on SDL's headless driver when pygame is installed."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    game = test_games[system]
    retrogym.register_games()
    kwargs = {"state": retrogym.State.NONE, "obs_type": obs_type, "render_mode": "rgb_array"}
    core = core_for(system)
    if core is not None:
        kwargs["core"] = core
    env = gym.make(f"retrogym/{game.name}-v0", **kwargs)
    try:
        check_env(env.unwrapped, skip_render_check=importlib.util.find_spec("pygame") is None)
    finally:
        env.close()


@pytest.mark.starcatcher
@pytest.mark.parametrize("obs_type", list(retrogym.Observations), ids=lambda o: o.name)
@pytest.mark.parametrize("mode", list(retrogym.Actions), ids=lambda a: a.name)
def test_check_env_starcatcher(mode, obs_type, monkeypatch):
    """Through gymnasium.make, so every declared render mode is made and checked too ("human" on SDL's headless
    driver; without pygame the render checks are left out here and done by test_check_env_every_system)."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    human = importlib.util.find_spec("pygame") is not None
    env = gym.make(f"retrogym/{GAME}-v0", use_restricted_actions=mode, obs_type=obs_type, render_mode="rgb_array",
                   sticky_prob=0.25, noop_max=10)
    try:
        check_env(env.unwrapped, skip_render_check=not human)
    finally:
        env.close()
