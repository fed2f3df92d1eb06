"""Every error path maps to the Python exception the issue names, with the C library's message."""
import json
import os
import shutil

import gymnasium as gym
import numpy as np
import pytest

import retrogym
from retrogym import _retrogym
from conftest import GAME

A = retrogym.Actions


def test_error_table():
    # code: (the builtin it raised before retrogym.Error, and still is; its retrogym class)
    cases = {
        "RG_ENOMEM": (MemoryError, retrogym.OutOfMemory), "RG_EINVAL": (ValueError, retrogym.InvalidArgument),
        "RG_ENOTFOUND": (FileNotFoundError, retrogym.NotFound), "RG_EIO": (OSError, retrogym.IOFailure),
        "RG_EUNSUPPORTED": (NotImplementedError, retrogym.Unsupported), "RG_ECORE": (RuntimeError, retrogym.CoreError),
        "RG_ESTATE": (ValueError, retrogym.StateError), "RG_EMISUSE": (RuntimeError, retrogym.Misuse),
        "RG_ERANGE": (ValueError, retrogym.OutOfRange), "RG_ECORRUPT": (ValueError, retrogym.CorruptData),
        "RG_ETOOBIG": (ValueError, retrogym.TooBig), "RG_EBUFFER": (ValueError, retrogym.BufferTooSmall),
        "RG_ETIMEOUT": (ValueError, retrogym.ScriptTimeout),
    }
    assert set(cases) == set(retrogym.errors.BY_NAME)
    codes = set()
    for name, (exc, cls) in cases.items():
        code = getattr(_retrogym, name)
        codes.add(code)
        with pytest.raises(exc, match="the message") as e:
            _retrogym.raise_error(code, "the message")
        assert type(e.value) is cls and isinstance(e.value, retrogym.Error)
        assert e.value.rg_error == name and e.value.rg_code == code and cls.rg_error == name
        assert _retrogym.error_name(code) == name
    assert len(codes) == len(cases)  # distinct codes
    assert issubclass(retrogym.ScriptTimeout, TimeoutError)
    # an unknown code is a plain RuntimeError (no class of the hierarchy claims it)
    with pytest.raises(RuntimeError) as e:
        _retrogym.raise_error(-999, "odd")
    assert not isinstance(e.value, retrogym.Error) and e.value.rg_error == "RG_E?"


def test_unknown_game():
    with pytest.raises(FileNotFoundError, match="unknown game NoSuchGame-Nes") as e:
        retrogym.make("NoSuchGame-Nes")
    assert e.value.rg_error == "RG_ENOTFOUND"


def game_copy(tmp_path, saved_data_settings, keep_rom=True):
    """Our game copied into a custom integration folder, to break its files."""
    src = os.path.dirname(retrogym.data.get_romfile_path(GAME))
    dst = tmp_path / "custom" / "Broken-Nes"
    shutil.copytree(src, dst)
    if not keep_rom:
        os.remove(dst / "rom.nes")
    saved_data_settings.add_custom_path(str(tmp_path / "custom"))
    return dst


@pytest.mark.starcatcher
def test_game_without_rom_says_how_to_import(tmp_path, saved_data_settings):
    game_copy(tmp_path, saved_data_settings, keep_rom=False)
    with pytest.raises(FileNotFoundError, match="no ROM for game Broken-Nes: import") as e:
        retrogym.make("Broken-Nes", inttype=retrogym.Integrations.CUSTOM_ONLY)
    assert "retrogym" in str(e.value) and "import" in str(e.value)


@pytest.mark.starcatcher
def test_missing_state_and_scenario(env_factory):
    with pytest.raises(FileNotFoundError, match="no state"):
        retrogym.make(GAME, state="NoSuchState")
    with pytest.raises(FileNotFoundError, match="no nope.json"):
        retrogym.make(GAME, scenario="nope")
    with pytest.raises(FileNotFoundError):
        retrogym.make(GAME, info="/no/such/data.json")


@pytest.mark.starcatcher
def test_broken_files(tmp_path, saved_data_settings):
    d = game_copy(tmp_path, saved_data_settings)
    custom = retrogym.Integrations.CUSTOM_ONLY
    (d / "bad.json").write_text("{not json")
    with pytest.raises(ValueError) as e:
        retrogym.make("Broken-Nes", inttype=custom, scenario="bad")
    assert e.value.rg_error == "RG_ECORRUPT"
    with pytest.raises(ValueError):
        retrogym.make("Broken-Nes", inttype=custom, info="bad")
    (d / "Garbage.state").write_bytes(b"\x1f\x8b garbage")
    with pytest.raises(ValueError) as e:
        retrogym.make("Broken-Nes", inttype=custom, state="Garbage")
    assert e.value.rg_error == "RG_ESTATE"
    (d / "crop.json").write_text(json.dumps({"crop": [300, 300, 10, 10], "reward": {}}))
    with pytest.raises(ValueError, match="crop"):
        retrogym.make("Broken-Nes", inttype=custom, scenario="crop")


@pytest.mark.starcatcher
def test_missing_core():
    with pytest.raises(FileNotFoundError) as e:
        retrogym.make(GAME, core="no_such_core")
    assert "no_such_core" in str(e.value)


@pytest.mark.starcatcher
@pytest.mark.parametrize("kwargs, exc", [
    ({"players": 0}, ValueError),
    ({"players": 5}, ValueError),
    ({"use_restricted_actions": 7}, ValueError),
    ({"use_restricted_actions": "discrete"}, ValueError),
    ({"obs_type": 3}, ValueError),
    ({"state": 3.5}, ValueError),
    ({"render_mode": "ansi"}, ValueError),
    ({"inttype": 99}, ValueError),
    ({"frameskip": 0}, ValueError),
    ({"frameskip": "2"}, ValueError),
    ({"sticky_prob": 1.5}, ValueError),
    ({"sticky_prob": 0.1, "repeat_action_probability": 0.1}, ValueError),
    ({"noop_max": -1}, ValueError),
    ({"max_episode_steps": -1}, ValueError),
    ({"core_options": {"a": 1}}, ValueError),
    ({"log_level": "loud"}, ValueError),
    ({"no_such_option": 1}, TypeError),
    ({"record": 42}, ValueError),
    ({"record": "/no/such/folder"}, FileNotFoundError),
])
def test_bad_arguments(kwargs, exc):
    with pytest.raises(exc):
        retrogym.make(GAME, **kwargs)
    with pytest.raises(ValueError):
        retrogym.make("")


@pytest.mark.starcatcher
def test_step_errors(env_factory):
    env = env_factory()
    with pytest.raises(RuntimeError, match="reset") as e:
        env.step(np.zeros(9, np.int8))
    assert e.value.rg_error == "RG_EMISUSE"
    env.reset(seed=0)
    with pytest.raises(ValueError, match="9 expected"):
        env.step(np.zeros(8, np.int8))
    with pytest.raises(ValueError):
        env.step(np.zeros((3, 3), np.int8))
    with pytest.raises(ValueError):
        env.step("abc")
    d = env_factory(use_restricted_actions=A.DISCRETE)
    d.reset(seed=0)
    with pytest.raises(ValueError, match="not in"):
        d.step(36)
    with pytest.raises(ValueError):
        d.step(-1)
    with pytest.raises(ValueError):
        d.step([1, 2])
    m = env_factory(use_restricted_actions=A.MULTI_DISCRETE)
    m.reset(seed=0)
    with pytest.raises(ValueError):
        m.step([0, 0, 4])
    with pytest.raises(ValueError):
        m.step([0, 0])
    with pytest.raises((TypeError, gym.error.Error)):
        env.reset(seed="x")


@pytest.mark.starcatcher
def test_use_after_close():
    env = retrogym.make(GAME)
    env.reset(seed=0)
    snap = env.clone_state()
    env.close()
    env.close()
    calls = [
        lambda: env.reset(),
        lambda: env.step(np.zeros(9, np.int8)),
        lambda: env.data["lives"],
        lambda: env.data.lookup_all(),
        lambda: env.get_ram(),
        lambda: env.get_screen(),
        lambda: env.clone_state(),
        lambda: env.restore_state(snap),
        lambda: env.em.get_state(),
        lambda: env.decode_action(np.zeros(9, np.int8)),
        lambda: env.load_state("Start"),
        lambda: env.core,
    ]
    for call in calls:
        with pytest.raises(RuntimeError, match="closed"):
            call()
    assert "closed" in repr(env)


@pytest.mark.starcatcher
def test_human_rendering_without_display(monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    from gymnasium.error import DependencyNotInstalled

    with pytest.raises((RuntimeError, DependencyNotInstalled)) as e:
        retrogym.make(GAME, render_mode="human")
    assert "render_mode='human'" in str(e.value)
    assert "pygame" in str(e.value) or "display" in str(e.value)
