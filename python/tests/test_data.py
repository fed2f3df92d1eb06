"""retrogym.data (paths, listing, custom integrations) and env.data (variables, custom variables, memory)."""
import os

import numpy as np
import pytest

import retrogym
from retrogym import Integrations as I
from conftest import GAME


def test_paths_per_flag(saved_data_settings):
    data = saved_data_settings
    data.clear_custom_paths()
    data.DefaultIntegrations.reset()
    assert I.STABLE.paths == ["stable"]
    assert I.CONTRIB_ONLY.paths == ["contrib"]
    assert I.EXPERIMENTAL_ONLY.paths == ["experimental"]
    assert I.CUSTOM_ONLY.paths == []
    assert I.CONTRIB.paths == ["contrib", "stable"]
    assert I.EXPERIMENTAL.paths == ["experimental", "stable"]
    assert I.CUSTOM.paths == ["stable"]
    assert I.ALL.paths == ["contrib", "experimental", "stable"]
    assert I.DEFAULT.paths == ["stable"]
    data.add_custom_path("a")
    data.add_custom_path("b")
    assert I.CUSTOM.paths == ["a", "b", "stable"]
    assert I.DEFAULT.paths == ["stable"]
    data.clear_custom_paths()
    data.add_custom_integration("a")
    assert I.DEFAULT.paths == ["a", "stable"]
    data.DefaultIntegrations.reset()
    assert I.DEFAULT.paths == ["stable"] and I.CUSTOM.paths == ["a", "stable"]
    data.add_integrations(I.CONTRIB_ONLY)
    assert I.DEFAULT.paths == ["contrib", "stable"]
    assert str(I.STABLE) == "stable" and str(I.ALL) == "all" and str(I.CONTRIB) == "stable|contrib"
    with pytest.raises(ValueError):
        data.add_integrations(16)


def test_absolute_custom_path(saved_data_settings, tmp_path):
    data = saved_data_settings
    (tmp_path / "f.txt").write_text("x")
    data.add_custom_path(str(tmp_path))
    assert data.get_file_path("", "f.txt", I.CUSTOM_ONLY) == str(tmp_path / "f.txt")
    assert data.get_file_path("", "missing.txt", I.CUSTOM_ONLY) is None


@pytest.mark.starcatcher
def test_listing_our_game():
    data = retrogym.data
    assert GAME in data.list_games()
    assert data.list_states(GAME) == ["Start"]
    assert data.list_scenarios(GAME) == ["scenario"]
    rom = data.get_romfile_path(GAME)
    assert rom.endswith(os.path.join("stable", GAME, "rom.nes")) and os.path.exists(rom)
    assert data.get_file_path(GAME, "data.json").endswith("data.json")
    assert data.get_file_path(GAME, "nothing.json") is None
    assert data.get_default_state(GAME) == "Start"
    assert data.get_game_system(GAME) == "Nes"
    # the installed package finds its own data: one of the default roots, after the user root
    roots = data.roots()
    assert (os.path.realpath(data.PACKAGE_DATA), "own") in [(os.path.realpath(p), o) for p, o in roots]
    assert data.path() == roots[0][0]
    with pytest.raises(FileNotFoundError, match="unknown game NoSuchGame-Nes \\(searched .*\\(own\\)"):
        data.get_romfile_path("NoSuchGame-Nes")


def test_data_root_from_environment(saved_data_settings, tmp_path, monkeypatch):
    data = saved_data_settings
    game = tmp_path / "stable" / "Mine-Nes"
    game.mkdir(parents=True)
    (game / "rom.sha").write_text("0" * 40 + "\n")
    monkeypatch.setenv("RETROGYM_DATA_PATH", str(tmp_path))
    assert data.path() == str(tmp_path)
    assert data.roots()[0] == (str(tmp_path), "env var")  # first, then the default roots
    assert "Mine-Nes" in data.list_games() and GAME in data.list_games()
    monkeypatch.delenv("RETROGYM_DATA_PATH")
    data.set_path(tmp_path)
    assert data.list_games() == ["Mine-Nes"]
    data.set_path(None)
    assert "Mine-Nes" not in data.list_games()
    with pytest.raises(FileNotFoundError):
        data.set_path(tmp_path / "nope")


def test_custom_integration_games(test_games):
    names = retrogym.data.list_games(I.CUSTOM_ONLY)
    assert sorted(g.name for g in test_games.values()) == names
    assert retrogym.data.list_scenarios(test_games["Nes"].name, I.CUSTOM_ONLY) == ["scenario"]
    assert retrogym.data.list_states(test_games["Nes"].name, I.CUSTOM_ONLY) == []


@pytest.mark.starcatcher
class TestEnvData:
    def test_variables(self, env_factory):
        env = env_factory()
        env.reset(seed=0)
        assert env.data["lives"] == 3 and env.data.lookup_value("score") == 0
        assert type(env.data["lives"]) is int
        assert "lives" in env.data and "nothing" not in env.data
        assert env.data.lookup_all() == env.data._c.info()
        assert env.data.vars["score"] == {"address": 32, "type": ">d3"}
        assert set(env.data.vars) == set(env.data.lookup_all())
        assert env.data.crop_info() == (0, 0, 0, 0)

    def test_set_variable_writes_memory(self, env_factory):
        env = env_factory()
        env.reset(seed=0)
        env.data["lives"] = 5
        assert env.data["lives"] == 5 and env.get_ram()[35] == 5
        env.set_value("score", 123)
        assert env.data["score"] == 123
        assert env.data.memory.read(32, 3) == bytes([0x00, 0x01, 0x23])  # big-endian BCD
        env.data.memory.write(35, b"\x02")
        assert env.data["lives"] == 2
        with pytest.raises(IndexError):
            env.data.memory.read(0x10000000, 1)

    def test_custom_variables_live_until_reset(self, env_factory):
        env = env_factory()
        env.reset(seed=0)
        env.data["foo"] = 1
        assert env.data["foo"] == 1
        env.data["half"] = 0.5
        env.data["flag"] = True
        assert env.data["half"] == 0.5 and env.data["flag"] is True
        _, _, _, _, info = env.step(np.zeros(9, np.int8))
        assert info["foo"] == 1 and info["half"] == 0 and info["flag"] == 1
        env.reset()
        with pytest.raises(KeyError):
            env.data["foo"]
        with pytest.raises(TypeError):
            env.data["bar"] = "text"

    def test_unknown_names_raise_key_error(self, env_factory):
        env = env_factory()
        env.reset(seed=0)
        with pytest.raises(KeyError) as e:
            env.data["nothing"]
        assert e.value.args == ("nothing",)
        with pytest.raises(KeyError):
            env.data.lookup_delta("nothing")
        with pytest.raises(KeyError):
            env.data.remove_variable("nothing")

    def test_edit_variables(self, env_factory):
        env = env_factory()
        env.reset(seed=0)
        env.data.vars["lives2"] = {"address": 35, "type": "|u1"}
        assert env.data["lives2"] == 3
        env.data.set_variable("masked", {"address": 35, "type": "|u1", "mask": 1})
        assert env.data["masked"] == 1
        del env.data.vars["lives2"]
        assert "lives2" not in env.data.vars
        with pytest.raises(ValueError):
            env.data.vars["bad"] = {"address": 1, "type": "|q"}

    def test_load_state(self, env_factory, tmp_path):
        # StarCatcher's states are nestopia's; a power-on env would get the NES default core (ours), which does not
        # read them
        env = env_factory(state=retrogym.State.NONE, core="nestopia")
        assert env.statename is None
        env.load_state("Start")
        assert env.statename == "Start.state"
        _, info = env.reset(seed=0)
        assert info["lives"] == 3
        with pytest.raises(FileNotFoundError):
            env.load_state("NoSuchState")
