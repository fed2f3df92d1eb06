"""retrogym.make(rom_path): a ROM file without an integration (power-on, no reward, never done, the system's
buttons), and with integration files given explicitly, on our StarCatcher ROM and the demo ROMs of ../shared/roms."""
import os

import numpy as np
import pytest

import retrogym
from conftest import GAME, SOURCE, core_for

pytestmark = pytest.mark.starcatcher

SHARED_ROMS = os.path.join(os.path.dirname(SOURCE), "shared", "roms")
DEMO_ROMS = sorted(f for f in os.listdir(SHARED_ROMS)
                   if os.path.splitext(f)[1].lower() in retrogym.data.EMU_EXTENSIONS and not f.startswith("README")) if os.path.isdir(SHARED_ROMS) \
    else []


@pytest.fixture
def made():
    envs = []

    def factory(*args, **kwargs):
        env = retrogym.make(*args, **kwargs)
        envs.append(env)
        return env

    yield factory
    for env in envs:
        env.close()


def starcatcher_rom():
    return retrogym.data.get_romfile_path(GAME)


def test_rom_file_alone_has_no_integration(made):
    rom = starcatcher_rom()
    env = made(rom, max_episode_steps=150)
    nes = retrogym.get_system_info("Nes")
    assert env.gamename == "rom" and env.rom_path == os.path.abspath(rom) and env.statename is None
    assert env.system == "Nes" and env.buttons == nes["buttons"]
    assert env.action_space.n == len(nes["buttons"])  # MultiBinary over every button
    assert env.initial_state is None  # a power-on start
    obs, info = env.reset(seed=0)
    assert info == {}
    env.action_space.seed(0)
    for step in range(1, 151):
        obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
        assert reward == 0 and not terminated and info == {}
        assert truncated == (step == 150)  # only the step limit ends an episode
    assert obs.shape == env.observation_space.shape and obs.any()
    # the integration's own environment is another thing: its start state, variables and reward
    with retrogym.make(GAME) as integrated:
        assert integrated.statename == "Start" and integrated.reset(seed=0)[1] != {}


def test_rom_file_with_explicit_files_equals_the_integration(made):
    rom = starcatcher_rom()
    folder = os.path.dirname(rom)
    kw = dict(use_restricted_actions=retrogym.Actions.DISCRETE, frameskip=2)
    ours = made(rom, state=os.path.join(folder, "Start.state"), data=os.path.join(folder, "data.json"),
                scenario=os.path.join(folder, "scenario.json"), **kw)
    ref = made(GAME, **kw)
    assert ours.action_space == ref.action_space and ours.observation_space == ref.observation_space
    o1, i1 = ours.reset(seed=3)
    o2, i2 = ref.reset(seed=3)
    assert np.array_equal(o1, o2) and i1 == i2
    rng = np.random.default_rng(3)
    total = 0.0
    for step in range(400):
        a = int(rng.integers(0, ref.action_space.n))
        r1, r2 = ours.step(a), ref.step(a)
        assert np.array_equal(r1[0], r2[0]), step
        assert r1[1:] == r2[1:], step  # reward, terminated, truncated, info
        assert np.array_equal(ours.get_ram(), ref.get_ram()), step
        total += r1[1]
        if r1[2] or r1[3]:
            break
    assert i1.keys() == r1[4].keys() and "score" in i1


def test_rom_file_forms_and_make_vec(made, monkeypatch):
    rom = starcatcher_rom()
    first = made(rom).reset(seed=0)[0]
    monkeypatch.chdir(os.path.dirname(rom))
    import pathlib

    assert np.array_equal(made(pathlib.Path("rom.nes")).reset(seed=0)[0], first)  # a PathLike
    assert np.array_equal(made("rom.nes").reset(seed=0)[0], first)  # a file name with a ROM extension
    envs = retrogym.make_vec(rom, 2)
    try:
        obs, infos = envs.reset(seed=0)
        assert np.array_equal(obs[0], first) and np.array_equal(obs[1], first) and infos == {}
    finally:
        envs.close()


def test_rom_file_bad_input(made, tmp_path):
    rom = starcatcher_rom()
    with pytest.raises(FileNotFoundError, match="no ROM file"):
        retrogym.make(str(tmp_path / "missing.nes"))
    (tmp_path / "notes.txt").write_text("not a ROM")
    with pytest.raises(ValueError):
        retrogym.make(str(tmp_path / "notes.txt"))
    with pytest.raises(ValueError, match="info or data"):
        retrogym.make(rom, info="a.json", data="b.json")
    with pytest.raises(FileNotFoundError):
        retrogym.make(rom, data=str(tmp_path / "none.json"))
    (tmp_path / "scenario.json").write_text("{ not json")
    with pytest.raises((ValueError, OSError)):
        retrogym.make(rom, scenario=str(tmp_path / "scenario.json"))
    with pytest.raises(FileNotFoundError):
        retrogym.make(rom, state=str(tmp_path / "none.state"))
    # nothing was lost: the ROM still makes an environment
    assert made(rom).reset(seed=0)[1] == {}


@pytest.mark.skipif(not DEMO_ROMS, reason="../shared/roms (the demo ROMs) is not here")
@pytest.mark.parametrize("name", DEMO_ROMS)
def test_demo_rom_without_integration(made, name):
    path = os.path.join(SHARED_ROMS, name)
    system = retrogym.data.get_romfile_system(path)
    core = core_for(system)  # skips when no core runs the system here
    env = made(path, core=core) if core else made(path)
    assert env.system == system and env.gamename == os.path.splitext(name)[0]
    obs, info = env.reset(seed=1)
    assert info == {} and obs.shape == env.observation_space.shape
    env.action_space.seed(1)
    start_ram, changed = env.get_ram(), False
    for _ in range(120):
        obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
        assert reward == 0 and not terminated and not truncated and info == {}
        changed = changed or obs.any()
    assert changed or not np.array_equal(env.get_ram(), start_ram)  # the demo runs (draws, or at least computes)
