"""Fixtures: our game StarCatcher-Nes (installed with the package) and one integration per test ROM of
tests/roms (built in a temporary folder, as tests/compat/stable_retro_diff.py does), with the core that runs it.

A system runs on an installed libretro core (Debian's: NES, SNES, Game Boy/Color, GBA, PC Engine) or, when
stable-retro is installed in the same environment, on the core its wheel ships (Atari 2600, Genesis, SMS, Game
Gear); tests of a system without any core are skipped."""
import atexit
import hashlib
import importlib.util
import json
import os
import shutil
import tempfile

import pytest

# The user data root (imports write there) is a private folder for the session, never the real home's. The tests
# run on the machine's own cores (stable-retro's are passed by path where a system has none, see core_for): the
# package's discovery of an installed stable-retro is turned off here and tested in child processes
# (test_library.py).
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="retrogym-test-xdg-")
atexit.register(shutil.rmtree, os.environ["XDG_DATA_HOME"], True)
os.environ["RETROGYM_STABLE_RETRO"] = ""

import retrogym  # noqa: E402

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ROMS = os.path.join(SOURCE, "tests", "roms")
GAME = "StarCatcher-Nes"
DONE_COUNTER = 200  # the test ROM scenarios end when the frame counter reaches this value


def _installed_cores():
    return {c["name"] for c in retrogym.data.list_cores()}


def _stable_retro_cores():
    spec = importlib.util.find_spec("stable_retro")
    if spec is None or not spec.origin:
        return None
    folder = os.path.join(os.path.dirname(spec.origin), "cores")
    return folder if os.path.isdir(folder) else None


def core_for(system):
    """None (the system's preferred installed core), a path to a stable-retro core, or pytest.skip."""
    info = retrogym.get_system_info(system)
    if set(info["cores"]) & _installed_cores():
        return None
    folder = _stable_retro_cores()
    if folder:
        for name in info["cores"]:
            path = os.path.join(folder, f"{name}_libretro.so")
            if os.path.exists(path):
                return path
    pytest.skip(f"no libretro core for {system} ({', '.join(info['cores'])})")


def _manifests():
    out = []
    for folder in sorted(os.listdir(ROMS)):
        path = os.path.join(ROMS, folder, "rom.json")
        if os.path.exists(path):
            with open(path) as f:
                out.append((folder, json.load(f)))
    return out


MANIFESTS = _manifests()
SYSTEMS = [m["system"] for _, m in MANIFESTS]


class RomGame:
    """An integration around one test ROM: a frame counter (reward +1 per frame) and the pad byte(s)."""

    def __init__(self, folder, manifest, root):
        self.system = manifest["system"]
        self.manifest = manifest
        self.name = f"RetrogymTest{folder.capitalize()}-{self.system}"
        self.dir = os.path.join(root, self.name)
        self.pad_bits = manifest["pad"]["bits"]
        os.makedirs(self.dir)
        ext = retrogym.get_system_info(self.system)["extensions"][0]
        rom = os.path.join(self.dir, "rom" + ext)
        shutil.copy(os.path.join(ROMS, "bin", manifest["rom"]), rom)
        with open(rom, "rb") as f:
            data = f.read()
        with open(os.path.join(self.dir, "rom.sha"), "w") as f:
            f.write(hashlib.sha1(data[16:] if self.system == "Nes" else data).hexdigest() + "\n")
        pad = manifest["pad"]
        pad_type = "|u1" if pad["bytes"] == 1 else ("<" if pad["endian"] == "little" else ">") + "u2"
        variables = {"counter": {"address": manifest["counter"]["addr"], "type": "|u1"},
                     "pad": {"address": pad["addr"], "type": pad_type}}
        with open(os.path.join(self.dir, "data.json"), "w") as f:
            json.dump({"info": variables}, f)
        scenario = {"reward": {"variables": {"counter": {"reward": 1}}},
                    "done": {"variables": {"counter": {"op": "equal", "reference": DONE_COUNTER}}}}
        with open(os.path.join(self.dir, "scenario.json"), "w") as f:
            json.dump(scenario, f)
        with open(os.path.join(self.dir, "metadata.json"), "w") as f:
            json.dump({}, f)

    def make(self, **kwargs):
        """retrogym.make for this game, on the core found for its system (skips when there is none)."""
        core = core_for(self.system)
        if core is not None:
            kwargs.setdefault("core", core)
        kwargs.setdefault("inttype", retrogym.Integrations.CUSTOM_ONLY)
        kwargs.setdefault("state", retrogym.State.NONE)
        return retrogym.make(self.name, **kwargs)


@pytest.fixture(scope="session")
def test_games(tmp_path_factory):
    """{system: RomGame}; their folder is a custom integration path for the whole session."""
    root = str(tmp_path_factory.mktemp("integrations"))
    games = {m["system"]: RomGame(folder, m, root) for folder, m in MANIFESTS}
    retrogym.data.add_custom_path(root)
    yield games
    retrogym.data.clear_custom_paths()


@pytest.fixture
def saved_data_settings():
    """Restores the process-wide data settings (root, custom paths, default integrations) after a test."""
    from retrogym import data

    saved = (data._root, list(data._custom), data._default)
    yield data
    data._root, data._custom[:], data._default = saved[0], saved[1], saved[2]


@pytest.fixture
def env_factory():
    """Makes environments and closes every one of them after the test."""
    made = []

    def factory(game=GAME, **kwargs):
        env = game.make(**kwargs) if isinstance(game, RomGame) else retrogym.make(game, **kwargs)
        made.append(env)
        return env

    yield factory
    for env in made:
        env.close()


def pytest_collection_modifyitems(config, items):
    if "nestopia" not in _installed_cores():
        skip = pytest.mark.skip(reason="StarCatcher-Nes needs the nestopia core (Debian libretro-nestopia)")
        for item in items:
            if "starcatcher" in item.keywords:
                item.add_marker(skip)


def pytest_configure(config):
    config.addinivalue_line("markers", "starcatcher: needs our game StarCatcher-Nes and the nestopia core")


A26_TEST_ROM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "roms", "bin", "test.a26")
A26_TEST_GAME = "Test-Atari2600"


@pytest.fixture
def a26_game_dir(saved_data_settings, tmp_path):
    """A data root in tmp_path holding stable/Test-Atari2600: our Atari test ROM with its rom.sha, a variable `byte`
    (RAM $80) and a scenario rewarding it (tests rewrite what they need); the process data path points there for
    the test. The folder is returned."""
    from pathlib import Path

    d = Path(tmp_path) / "stable" / A26_TEST_GAME
    d.mkdir(parents=True)
    shutil.copy(A26_TEST_ROM, d / "rom.a26")
    with open(A26_TEST_ROM, "rb") as f:
        (d / "rom.sha").write_text(hashlib.sha1(f.read()).hexdigest() + "\n")
    (d / "data.json").write_text('{"info": {"byte": {"address": 128, "type": "|u1"}}}')
    (d / "scenario.json").write_text('{"reward": {"variables": {"byte": {"reward": 1}}}}')
    saved_data_settings.set_path(tmp_path)
    return d
