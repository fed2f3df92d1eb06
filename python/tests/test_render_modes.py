"""render_modes declares "human" only where pygame can be imported (docs/python.md, "Rendering"), so Gymnasium's
check_env, which makes the environment again in every declared mode, passes on a plain install; asking for "human"
without pygame names the extra to install. pygame is hidden from a child Python by an import hook."""
import importlib.util
import json
import subprocess
import sys

import pytest

import retrogym
from retrogym.rendering import render_modes

# Makes `import pygame` fail and find_spec("pygame") return None, as in an environment without it.
HIDE_PYGAME = r'''
import importlib.abc, sys
class _NoPygame(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "pygame" or name.startswith("pygame."):
            raise ModuleNotFoundError(f"No module named {name!r}")
        return None
sys.meta_path.insert(0, _NoPygame())
'''

CHILD = HIDE_PYGAME + r'''
import importlib.util, json
import gymnasium as gym
from gymnasium.utils.env_checker import check_env
import retrogym
out = {"spec": None}
try:
    out["spec"] = repr(importlib.util.find_spec("pygame"))
except ModuleNotFoundError:
    pass
out["modes"] = retrogym.RetroEnv.metadata["render_modes"]
retrogym.register_games()
env = gym.make("retrogym/StarCatcher-Nes-v0", render_mode="rgb_array")
check_env(env.unwrapped)
env.close()
try:
    retrogym.make("StarCatcher-Nes", render_mode="human").close()
    out["human"] = "made"
except Exception as e:
    out["human"] = f"{type(e).__name__}: {e}"
try:
    retrogym.make("StarCatcher-Nes", render_mode="ansi").close()
    out["ansi"] = "made"
except Exception as e:
    out["ansi"] = f"{type(e).__name__}: {e}"
print(json.dumps(out))
'''


def test_render_modes_follow_pygame():
    """In this environment: "human" is declared exactly when pygame is installed; "rgb_array" always."""
    has_pygame = importlib.util.find_spec("pygame") is not None
    assert render_modes() == (["human", "rgb_array"] if has_pygame else ["rgb_array"])
    assert retrogym.RetroEnv.metadata["render_modes"] == render_modes()


@pytest.mark.starcatcher
def test_without_pygame_check_env_passes_and_human_names_the_extra():
    r = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["spec"] is None  # the hook works: pygame cannot be found
    assert out["modes"] == ["rgb_array"]
    assert out["human"].startswith("DependencyNotInstalled") and "pip install 'retrogym[human]'" in out["human"]
    assert out["ansi"].startswith("ValueError") and "['rgb_array']" in out["ansi"], out["ansi"]


@pytest.mark.starcatcher
def test_with_pygame_human_is_declared_and_checked(monkeypatch):
    """With pygame, "human" is declared and check_env makes and renders it (SDL's headless driver)."""
    pytest.importorskip("pygame")
    import gymnasium as gym
    from gymnasium.utils.env_checker import check_env

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    assert "human" in retrogym.RetroEnv.metadata["render_modes"]
    retrogym.register_games()
    env = gym.make("retrogym/StarCatcher-Nes-v0", render_mode="rgb_array")
    try:
        check_env(env.unwrapped)
    finally:
        env.close()
