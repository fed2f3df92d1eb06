"""retrogym.nes_py: nes-py's NESEnv and JoypadSpace on our emulator, and gym-super-mario-bros (the PyPI wheel in
.venv, never committed) running on it unchanged after retrogym.nes_py.install(). Tests needing the wheel skip
without it; every test needs an NES core (Debian's nestopia, or stable-retro's FCEUmm; conftest.core_for)."""
import importlib.util
import os
import sys

import numpy as np
import pytest

import retrogym
import retrogym.nes_py as rnes
from conftest import SOURCE, core_for
from retrogym.nes_py import JoypadSpace, NESEnv

STARCATCHER_ROM = os.path.join(SOURCE, "data", "stable", "StarCatcher-Nes", "rom.nes")


@pytest.fixture(scope="module")
def nes_core():
    """The core the tests run on, as $RETROGYM_NES_CORE (what gym-super-mario-bros' environments get)."""
    core = core_for("Nes")
    saved = os.environ.get(rnes.CORE_ENV)
    if core is not None:
        os.environ[rnes.CORE_ENV] = core
    yield core
    if saved is None:
        os.environ.pop(rnes.CORE_ENV, None)
    else:
        os.environ[rnes.CORE_ENV] = saved


@pytest.fixture(scope="module")
def smb(nes_core):
    """gym_super_mario_bros imported with retrogym.nes_py standing in for nes_py (and the gym stand-in)."""
    if importlib.util.find_spec("gym_super_mario_bros") is None:
        pytest.skip("gym-super-mario-bros is not installed (make venv installs it)")
    rnes.install()
    try:
        import gym_super_mario_bros

        yield gym_super_mario_bros
    finally:
        rnes.uninstall()


def smb_rom():
    spec = importlib.util.find_spec("gym_super_mario_bros")
    return os.path.join(os.path.dirname(spec.origin), "_roms", "super-mario-bros.nes")


# ---- gym-super-mario-bros unchanged ----


def test_install_puts_our_modules_in_place(smb):
    import gym
    import nes_py
    import nes_py.wrappers

    assert nes_py is rnes and nes_py.NESEnv is NESEnv and nes_py.wrappers.JoypadSpace is JoypadSpace
    assert sys.modules["nes_py.nes_env"].NESEnv is NESEnv
    import gymnasium

    assert gym.Env is gymnasium.Env and gym.make is gymnasium.make
    assert issubclass(smb.SuperMarioBrosEnv, NESEnv)
    assert issubclass(smb.SuperMarioBrosRandomStagesEnv, gymnasium.Env)


def test_super_mario_bros_v0_runs_and_reports(smb):
    from gym_super_mario_bros.actions import RIGHT_ONLY

    env = JoypadSpace(smb.make("SuperMarioBros-v0"), RIGHT_ONLY)
    try:
        obs, info = env.reset(seed=0)
        assert obs.shape == (240, 256, 3) and obs.dtype == np.uint8 and obs.any()
        assert env.action_space.n == len(RIGHT_ONLY)
        xs = []
        for i in range(300):
            obs, reward, terminated, truncated, info = env.step(4 if i % 40 < 20 else 3)  # right+A+B, right+B
            assert isinstance(reward, float) and not truncated
            xs.append(info["x_pos"])
        assert not terminated
        assert set(info) >= {"x_pos", "y_pos", "score", "time", "coins", "life", "world", "stage", "flag_get",
                             "status"}
        assert max(xs) > xs[0] + 150, xs[::30]  # Mario runs right (and may meet Goombas: a life lost, x back to 40)
        assert (info["world"], info["stage"]) == (1, 1) and info["life"] in (0, 1, 2)
        assert info["life"] == env.unwrapped.ram[0x075A]
        assert 300 < info["time"] < 400  # the clock started at 400 and ticks
        assert info["score"] >= 0 and info["coins"] >= 0
        assert env.unwrapped.core in {"fceumm", "nestopia", "nes"}
    finally:
        env.close()


def test_random_stages_env_picks_the_stage(smb):
    env = smb.make("SuperMarioBrosRandomStages-v0", stages=["4-2"])
    try:
        obs, info = env.reset(seed=1)
        assert obs.shape == (240, 256, 3)
        _, _, _, _, info = env.step(0)
        assert (info["world"], info["stage"]) == (4, 2)
        assert info["life"] == 2 and 390 < info["time"] <= 400 and info["x_pos"] == 40
        obs, info = env.reset(options={"stages": ["8-3"]})
        _, _, _, _, info = env.step(0)
        assert (info["world"], info["stage"]) == (8, 3)
    finally:
        env.close()


def test_ram_writes_reach_the_game(smb):
    env = smb.SuperMarioBrosEnv()
    try:
        env.reset()
        assert isinstance(env.ram, np.ndarray) and env.ram.shape == (0x800,) and env.ram.dtype == np.uint8
        env.ram[0x075A] = 7  # lives
        env.ram[0x07F8:0x07FB] = [1, 2, 3]  # the clock's digits: 123
        assert env._emu.ram()[0x075A] == 7  # the core's memory itself
        info = None
        for _ in range(60):
            _, _, _, _, info = env.step(0)
        assert info["life"] == 7
        assert 115 <= info["time"] <= 123  # the game counts down from what we wrote
        env.ram[0x075F] = 5  # world 6
        assert env._get_info()["world"] == 6
        assert type(env.ram[0x86]) is int and isinstance(env.ram[0x80:0x90], np.ndarray)
    finally:
        env.close()


def test_backup_restore_round_trip(smb):
    env = smb.SuperMarioBrosEnv()
    try:
        env.reset()
        for _ in range(40):
            env.step(0x80)

        def run():
            frames, rams = [], []
            for i in range(50):
                obs, *_ = env.step(0x81 if i % 10 < 5 else 0x82)
                frames.append(obs.copy())
                rams.append(np.array(env.ram))
            return frames, rams

        env._backup()
        at_backup = env.screen.copy()
        first = run()
        assert not np.array_equal(first[0][0], first[0][-1])
        env._restore()
        assert np.array_equal(env.screen, at_backup)
        second = run()
        for a, b in zip(first[0] + first[1], second[0] + second[1]):
            np.testing.assert_array_equal(a, b)
        # a reset now restores the backup
        obs, _ = env.reset()
        np.testing.assert_array_equal(obs, at_backup)
    finally:
        env.close()


def test_joypad_bits_press_the_right_buttons(smb):
    """A byte's bits are nes-py's: A (bit 0) jumps and B (bit 1) does not; right (bit 7) walks right and left
    (bit 6) does not."""
    env = smb.SuperMarioBrosEnv()
    try:

        def run(byte, frames=20):
            env.reset()
            start = env._get_info()
            for _ in range(frames):
                _, _, _, _, info = env.step(byte)
            return info["x_pos"] - start["x_pos"], info["y_pos"] - start["y_pos"]

        assert run(0x01)[1] > 10 and run(0x02)[1] == 0
        assert run(0x80)[0] > 5 and run(0x40)[0] <= 0
    finally:
        env.close()


# ---- NESEnv and JoypadSpace on our own game (no wheel needed) ----


class StarCatcher(NESEnv):
    def __init__(self, **kwargs):
        self.calls = []
        super().__init__(STARCATCHER_ROM, **kwargs)

    def _will_reset(self):
        self.calls.append("will_reset")

    def _did_reset(self):
        self.calls.append("did_reset")

    def _did_step(self, done):
        self.calls.append(("did_step", done))

    def _get_reward(self):
        return 5.0

    def _get_done(self):
        return self.ram[0x10] == 0x42

    def _get_info(self):
        return {"ram16": self.ram[0x10]}


def test_nesenv_life_cycle_on_our_game(nes_core):
    env = StarCatcher(core=nes_core, render_mode="rgb_array")
    try:
        assert env.action_space.n == 256 and env.observation_space.shape == (240, 256, 3)
        obs, info = env.reset(seed=3)
        assert info == {} and obs.shape == (240, 256, 3) and not obs.any()  # power-on: nothing drawn yet
        assert env.calls == ["will_reset", "did_reset"]
        for _ in range(30):
            obs, reward, terminated, truncated, info = env.step(0)
        assert obs.any() and reward == 5.0 and not terminated and not truncated
        assert np.array_equal(env.render(), obs) and env.render(mode="rgb_array") is env.screen
        env.ram[0x10] = 0x42
        _, _, terminated, _, info = env.step(0)
        # the game may rewrite the byte during the frame; done and info read the same RAM
        assert terminated == (info["ram16"] == 0x42) and env.calls[-1] == ("did_step", terminated)
        env.ram[0x10] = 0x42
        assert env._get_done()
        env.done = True
        with pytest.raises(ValueError, match="call `reset`"):
            env.step(0)
        env.reset()
        assert not env.done and not env.screen.any()  # no backup: back to power-on
    finally:
        env.close()


def test_joypad_space_maps_names_to_bytes(nes_core):
    env = JoypadSpace(StarCatcher(core=nes_core), [["NOOP"], ["right"], ["right", "A"], ["A"], ["B"], ["select"],
                                                  ["start"], ["up"], ["down"], ["left"], ["left", "B", "down"]])
    try:
        assert [env._action_map[i] for i in range(11)] == [0, 0x80, 0x81, 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40,
                                                          0x62]
        assert env.get_action_meanings()[2] == "right A" and env.action_space.n == 11
        assert JoypadSpace.buttons() == ["right", "left", "down", "up", "start", "select", "B", "A", "NOOP"]
        assert env.get_keys_to_action()[(ord("d"), ord("o"))] == 2
        env.reset()
        env.step(2)
        with pytest.raises(ValueError, match="action must be an int"):
            env.step(11)
        with pytest.raises(ValueError, match="unknown button 'jump'"):
            JoypadSpace(env.env, [["right"], ["jump"]])
        with pytest.raises(ValueError):
            JoypadSpace(env.env, ["right"])
    finally:
        env.close()


def test_bad_input_gives_clear_errors(nes_core, tmp_path):
    with pytest.raises(FileNotFoundError, match="no ROM file"):
        NESEnv(str(tmp_path / "missing.nes"), core=nes_core)
    junk = tmp_path / "junk.nes"
    junk.write_bytes(b"this is not a cartridge" * 1000)
    with pytest.raises(ValueError, match="not an iNES ROM"):
        NESEnv(str(junk), core=nes_core)
    short = tmp_path / "short.nes"
    short.write_bytes(b"NES")
    with pytest.raises(ValueError, match="not an iNES ROM"):
        NESEnv(str(short), core=nes_core)
    no_prg = tmp_path / "noprg.nes"
    no_prg.write_bytes(b"NES\x1a\x00\x01" + bytes(10) + bytes(8192))
    with pytest.raises(ValueError, match="no PRG-ROM"):
        NESEnv(str(no_prg), core=nes_core)
    with pytest.raises(FileNotFoundError, match="no_such_core"):
        NESEnv(STARCATCHER_ROM, core="no_such_core")
    with pytest.raises(ValueError, match="render_mode"):
        NESEnv(STARCATCHER_ROM, core=nes_core, render_mode="window")
    env = NESEnv(STARCATCHER_ROM, core=nes_core)
    env.reset()
    for bad in (256, -1, "A", 1.5, None):
        with pytest.raises(ValueError, match="joypad byte"):
            env.step(bad)
    with pytest.raises(RuntimeError, match="_backup"):
        env._restore()
    with pytest.raises(NotImplementedError, match="render modes"):
        env.render(mode="ansi")
    env.step(np.int64(0x80))  # NumPy ints are joypad bytes too
    ram = env.ram
    env.close()
    assert ram.shape == (0x800,) and int(ram[0]) >= 0  # a view taken before close() stays readable
    with pytest.raises(ValueError, match="already been closed"):
        env.close()
    with pytest.raises(RuntimeError, match="closed"):
        env.step(0)
    with pytest.raises(RuntimeError, match="closed"):
        env.reset()


def test_core_comes_from_the_environment_variable(nes_core, monkeypatch):
    monkeypatch.setenv(rnes.CORE_ENV, "no_such_core")
    with pytest.raises(FileNotFoundError, match="no_such_core"):
        NESEnv(STARCATCHER_ROM)


UNINSTALL_CHECK = """
import sys, types
real = types.ModuleType("gym")
sys.modules["gym"] = real
import retrogym.nes_py as rnes
rnes.install()  # "auto": a gym is there, so no stand-in
assert sys.modules["gym"] is real and sys.modules["nes_py"] is rnes
rnes.install(gym=True)
assert sys.modules["gym"].__retrogym_shim__ and sys.modules["gym.envs.registration"].register
rnes.install(gym=True)  # idempotent
rnes.uninstall()
assert sys.modules["gym"] is real and "nes_py" not in sys.modules and "gym.envs" not in sys.modules
try:
    rnes.install(gym="yes")
except ValueError as e:
    assert "gym must be" in str(e)
else:
    raise AssertionError("no error")
assert "nes_py" not in sys.modules
import gym_super_mario_bros  # imports nes_py: the real one is absent here, so this fails
"""


def test_install_and_uninstall_in_a_fresh_process():
    import subprocess

    r = subprocess.run([sys.executable, "-c", UNINSTALL_CHECK], capture_output=True, text=True)
    if importlib.util.find_spec("gym_super_mario_bros") is None or importlib.util.find_spec("nes_py") is not None:
        assert "AssertionError" not in r.stderr, r.stderr
        return
    assert r.returncode == 1 and "No module named 'nes_py'" in r.stderr, r.stderr
    assert retrogym.nes_py is rnes


def test_emu_ram_view_and_core_options(nes_core):
    """The extension's pieces NESEnv stands on: Emu(core_options=...) and Emu.ram_view(address, size)."""
    from retrogym import _retrogym as C

    emu = C.Emu(STARCATCHER_ROM, nes_core, {"fceumm_overscan": "disabled", "nestopia_overscan_v": "disabled",
                                            "nestopia_overscan_h": "disabled"}, False)
    emu.run()
    assert emu.screen().shape == (240, 256, 3)
    view = emu.ram_view(0x100, 0x10)
    view[:] = np.arange(16)
    assert list(emu.ram()[0x100:0x110]) == list(range(16))
    for address, size in ((0x800 - 4, 0x10), (0x5000, 1), (0, 0), (0, -1), (0, 1 << 40)):
        with pytest.raises(ValueError, match="no memory of the core"):
            emu.ram_view(address, size)
    with pytest.raises(TypeError):
        emu.ram_view("0", 1)
    emu.close()
    assert list(view) == list(range(16))  # the memory lives on until the last view goes
    with pytest.raises(RuntimeError, match="closed"):
        emu.ram_view(0, 1)
    del view
    with pytest.raises(TypeError, match="core_options"):
        C.Emu(STARCATCHER_ROM, nes_core, {"fceumm_overscan": 1})
    with pytest.raises(TypeError, match="core_options"):
        C.Emu(STARCATCHER_ROM, nes_core, ["fceumm_overscan"])


def test_a_cropped_frame_is_centred():
    from retrogym.nes_py.nes_env import _uncrop

    out = _uncrop(np.full((224, 240, 3), 7, np.uint8))
    assert out.shape == (240, 256, 3) and (out[8:232, 8:248] == 7).all()
    assert out[:8].sum() == out[232:].sum() == out[:, :8].sum() == out[:, 248:].sum() == 0
    with pytest.raises(RuntimeError, match="frame"):
        _uncrop(np.zeros((200, 200, 3), np.uint8))


def test_our_core_sends_the_whole_picture_when_asked():
    """Core "nes" takes FCEUmm's fceumm_overscan: "disabled" hands out all 256x240 (what NESEnv asks every NES core
    for), "enabled" or nothing FCEUmm's 240x224 middle; the two pictures agree where they overlap; a bad value is
    ignored (the crop)."""
    from retrogym import _retrogym as C

    frames = {}
    for name, options in (("full", {"fceumm_overscan": "disabled"}), ("crop", {"fceumm_overscan": "enabled"}),
                          ("default", {}), ("bad", {"fceumm_overscan": "sideways"})):
        emu = C.Emu(STARCATCHER_ROM, "nes", options, False)
        emu.set_buttons(1 << 3, 0)
        for _ in range(120):
            emu.run()
        frames[name] = emu.screen()
        emu.close()
    assert frames["full"].shape == (240, 256, 3)
    for name in ("crop", "default", "bad"):
        assert frames[name].shape == (224, 240, 3)
        assert np.array_equal(frames[name], frames["full"][8:232, 8:248])
    assert frames["full"].any()
    env = NESEnv(STARCATCHER_ROM, core="nes")
    env.reset()
    obs = env.step(0)[0]
    assert obs.shape == (240, 256, 3) and env._emu.screen().shape == (240, 256, 3)  # no padding on our side
    env.close()
