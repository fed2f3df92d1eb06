"""render_mode="human" through pygame (the optional extra), on SDL's headless driver."""
import numpy as np
import pytest

import retrogym
from conftest import GAME

pytestmark = pytest.mark.starcatcher


def test_human_window(monkeypatch):
    pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    env = retrogym.make(GAME, render_mode="human")
    try:
        env.reset(seed=0)
        for _ in range(5):
            env.step(np.zeros(9, np.int8))
        assert env.render() is None and env.viewer.isopen
        assert env.viewer is not None and env.viewer.size == (512, 448)
    finally:
        env.close()
    assert env.viewer is None


def test_human_without_pygame(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "pygame", None)  # import pygame fails
    from gymnasium.error import DependencyNotInstalled

    with pytest.raises(DependencyNotInstalled, match=r"retrogym\[human\]"):
        retrogym.make(GAME, render_mode="human")
