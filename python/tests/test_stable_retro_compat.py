"""stable-retro code on retrogym unchanged (issue 15): the ``retro``/``stable_retro`` alias, ``retro.testing.tools``
on our validators, ``RetroEmulator``, ROM lookup through ``retrogym.data.get_romfile_path`` (which stable-retro's
tests replace), Gymnasium ids of stable-retro 1.0.1's ``-v0`` games, ``env.initial_state`` and the Gym Retro docs'
movie loop, and every integration of the installed stable-retro loading through our loaders and validators.

Tests that need stable-retro's data or cores skip cleanly without it."""
import gzip
import importlib.util
import json
import os
import shutil
import subprocess
import sys

import gymnasium as gym
import numpy as np
import pytest

import retrogym
from conftest import GAME, SOURCE, _stable_retro_cores
from retrogym import _retrogym as _C
from retrogym import compat
from retrogym.movie import recorded_rewards
from retrogym.testing import tools

STABLE = retrogym.Integrations.STABLE
GAME_DIR = os.path.join(SOURCE, "data", "stable", GAME)


def _stable_retro_data():
    spec = importlib.util.find_spec("stable_retro")
    if spec is None or not spec.origin:
        return None
    folder = os.path.join(os.path.dirname(spec.origin), "data")
    return folder if os.path.isdir(folder) else None


SR_DATA = _stable_retro_data()
needs_sr = pytest.mark.skipif(SR_DATA is None or _stable_retro_cores() is None,
                              reason="stable-retro (data and cores) is not installed")


@pytest.fixture
def alias():
    """``import retro`` / ``import stable_retro`` give retrogym for the test."""
    compat.install_alias()
    yield
    compat.remove_alias()


@pytest.fixture
def sr_paths(monkeypatch, saved_data_settings):
    """stable-retro's data root and cores (until data/core discovery finds them by itself)."""
    monkeypatch.setenv("RETROGYM_DATA_PATH", SR_DATA)
    monkeypatch.setenv("RETROGYM_CORE_PATH", _stable_retro_cores())
    saved_data_settings.set_path(None)
    saved_data_settings.clear_custom_paths()  # the session's test-ROM folder (conftest) is not stable-retro's data


# ---- the alias ----

def test_alias_maps_module_names(alias):
    import retro
    import retro.data
    import retro.retro_env
    import stable_retro.testing.tools as sr_tools

    assert retro is retrogym and retro.data is retrogym.data and sr_tools is tools
    assert retro.retro_env.RetroEnv is retrogym.RetroEnv and retro.RetroEmulator is retrogym.RetroEmulator
    assert sys.modules["stable_retro"] is retrogym
    with pytest.raises(ModuleNotFoundError):
        import retro.no_such_module  # noqa: F401
    compat.remove_alias()
    assert "retro" not in sys.modules and "stable_retro.testing.tools" not in sys.modules
    assert not compat.alias_installed()
    compat.install_alias()
    compat.install_alias()  # idempotent
    assert sys.meta_path.count(compat._finder) == 1


def test_alias_off_by_default_and_opt_in(tmp_path):
    """Without the opt-in nothing is aliased; ``RETROGYM_ALIAS_RETRO=1`` and ``python -m retrogym.compat`` opt in."""
    env = {k: v for k, v in os.environ.items() if k != "RETROGYM_ALIAS_RETRO"}
    probe = "import sys, retrogym, retrogym.compat as c; print(c.alias_installed(), 'retro' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]
    out = subprocess.run([sys.executable, "-c", "import retrogym, retro; print(retro.__name__)"],
                         env=dict(env, RETROGYM_ALIAS_RETRO="1"), capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "retrogym"
    script = tmp_path / "user.py"
    script.write_text("import sys\nimport retro\nfrom retro.testing import tools\n"
                      "print(retro.__name__, tools.__name__, sys.argv[1:])\n")
    out = subprocess.run([sys.executable, "-m", "retrogym.compat", str(script), "x", "y"], env=env,
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "retrogym retrogym.testing.tools ['x', 'y']"
    bad = subprocess.run([sys.executable, "-m", "retrogym.compat"], env=env, capture_output=True, text=True)
    assert bad.returncode == 2 and "usage" in bad.stdout


# ---- Gymnasium ids and game names ----

@needs_sr
def test_gym_ids_keep_one_version_suffix(sr_paths):
    added = retrogym.register_games()
    try:
        assert "retrogym/Airstriker-Genesis-v0" in gym.registry
        assert gym.spec("retrogym/Airstriker-Genesis-v0").kwargs["game"] == "Airstriker-Genesis-v0"
        assert not [i for i in gym.registry if i.startswith("retrogym/") and i.endswith("-v0-v0")]
        # an experimental game without a suffix gets one
        assert gym.spec("retrogym/DavidCranesAmazingTennis-Genesis-v0").kwargs["game"] == \
            "DavidCranesAmazingTennis-Genesis"
    finally:
        for gid in added:
            del gym.registry[gid]
    assert retrogym.registration.env_id(GAME) == f"retrogym/{GAME}-v0"
    assert retrogym.registration.env_id("Foo-Nes-v2") == "retrogym/Foo-Nes-v2"


@needs_sr
def test_make_takes_both_name_forms(sr_paths):
    screens = []
    for name in ("Airstriker-Genesis", "Airstriker-Genesis-v0"):
        env = retrogym.make(name)
        assert env.statename == "Level1" and env.system == "Genesis"
        env.reset(seed=0)
        for _ in range(30):
            obs, *_ = env.step(env.action_space.sample() * 0)
        screens.append(obs)
        env.close()
    assert np.array_equal(screens[0], screens[1])
    added = retrogym.register_games()
    try:
        env = gym.make("retrogym/Airstriker-Genesis-v0")
        obs, _ = env.reset(seed=0)
        assert obs.shape == screens[0].shape
        env.close()
    finally:
        for gid in added:
            del gym.registry[gid]


# ---- ROM lookup through retrogym.data.get_romfile_path ----

@pytest.mark.starcatcher
def test_make_uses_the_romfile_path_function_at_call_time(tmp_path, alias, monkeypatch):
    """stable-retro's test_env replaces ``retro.data.get_romfile_path`` and ``get_file_path`` to run ROMs that have
    no integration; make() must take the ROM from them."""
    import retro
    import retro.data

    rom = tmp_path / "MyDemo.nes"
    shutil.copy(os.path.join(GAME_DIR, "rom.nes"), rom)
    dummy = tmp_path / "dummy.json"
    dummy.write_text(json.dumps({"info": {"Nes": {"address": 0, "type": "|u1"}}}))
    asked = []

    def romfile(game, *args, **kwargs):
        asked.append(game)
        return str(rom)

    monkeypatch.setattr(retro.data, "get_romfile_path", romfile)
    monkeypatch.setattr(retro.data, "get_file_path", lambda game, file, *a, **k: str(tmp_path / file))
    env = retro.make(game="MyDemo", state=retro.State.NONE, info=str(dummy), scenario=str(dummy))
    try:
        assert asked == ["MyDemo"] and env.system == "Nes"
        obs, info = env.reset()
        assert obs in env.observation_space and isinstance(info, dict)
        obs, rew, terminated, truncated, info = env.step(env.action_space.sample())
        assert obs in env.observation_space
        assert isinstance(rew, float) and rew == 0
        assert terminated is False and truncated is False
        assert isinstance(env.data[env.system], int)
    finally:
        env.close()
    # a path to nothing is the C library's error, not another game's ROM
    monkeypatch.setattr(retro.data, "get_romfile_path", lambda game, *a, **k: str(tmp_path / "gone.nes"))
    with pytest.raises(FileNotFoundError):
        retro.make(game="MyDemo", state=retro.State.NONE, info=str(dummy), scenario=str(dummy))


# ---- RetroEmulator ----

@pytest.mark.starcatcher
def test_retro_emulator():
    rom = os.path.join(GAME_DIR, "rom.nes")
    a, b = retrogym.RetroEmulator(rom, core="nestopia"), retrogym.RetroEmulator(rom, core="nestopia")
    assert a.system == "Nes" and a.core == "nestopia" and a.get_screen_rate() > 50 and a.get_audio_rate() > 0
    for _ in range(60):
        a.step()
        b.step()
    assert np.array_equal(a.get_screen(), b.get_screen()) and np.array_equal(a.get_ram(), b.get_ram())
    w, h = a.get_resolution()
    assert a.get_screen().shape == (h, w, 3) and a.get_audio().shape[1] == 2
    saved = a.get_state()
    for _ in range(20):
        a.set_button_mask([0, 0, 0, 0, 0, 0, 0, 1], 0)  # RIGHT
        a.step()
    after = a.get_screen()
    assert a.set_state(saved) is True
    for _ in range(20):
        a.step()
    assert np.array_equal(a.get_screen(), after)
    assert a.set_state(b"not a state") is False
    with pytest.raises(ValueError):
        a.set_button_mask([1] * 17)
    for call in (lambda: a.add_cheat("0000"), a.clear_cheats, lambda: a.configure_data(None)):
        with pytest.raises(NotImplementedError):
            call()
    a.close()
    a.close()
    with pytest.raises(RuntimeError, match="closed"):
        a.step()
    b.close()
    with pytest.raises(FileNotFoundError):
        retrogym.RetroEmulator("/nonexistent/game.nes")


@needs_sr
def test_retro_emulator_loads_stable_retro_states(sr_paths, alias):
    """stable-retro's test_load/test_state for its one shipped ROM."""
    import retro

    rom = retro.data.get_romfile_path("Airstriker-Genesis", retro.data.Integrations.STABLE)
    emu = retro.RetroEmulator(rom)
    emu.step()
    for name in retro.data.list_states("Airstriker-Genesis-v0"):
        with gzip.open(retro.data.get_file_path("Airstriker-Genesis-v0", f"{name}.state"), "rb") as f:
            assert emu.set_state(f.read())
        emu.step()
    emu.close()


# ---- env.initial_state and the Gym Retro docs' movie loop ----

def _scripted_episode(env, steps):
    from test_starcatcher import script_actions

    total = 0.0
    for a in script_actions(env, steps):
        total += env.step(a)[1]
    return total


def _docs_loop(retro, path, set_initial_state=True):
    """The Gym Retro / stable-retro docs' playback loop, as written there (only the file name is ours)."""
    movie = retro.Movie(path)
    movie.step()

    env = retro.make(
        game=movie.get_game(),
        state=None,
        # bk2s can contain any button presses, so allow everything
        use_restricted_actions=retro.Actions.ALL,
        players=movie.players,
    )
    if set_initial_state:
        env.initial_state = movie.get_state()
    env.reset()

    rewards = []
    while movie.step():
        keys = []
        for p in range(movie.players):
            for i in range(env.num_buttons):
                keys.append(movie.get_key(i, p))
        _obs, _rew, _done, _trunc, _info = env.step(keys)
        rewards.append(_rew)
    env.close()
    return rewards


@pytest.mark.starcatcher
def test_docs_movie_loop_replays_exactly(tmp_path, env_factory, alias, monkeypatch):
    """Recorded and replayed on Debian's nestopia (StarCatcher's Start.state is nestopia's): stable-retro's cores are
    left out, and the loop's power-on environment (state=None) is made on nestopia, else it would get the NES default
    core, our own, which converts FCEUmm's states but not nestopia's Core.bin."""
    import retro

    monkeypatch.setenv("RETROGYM_STABLE_RETRO", "")
    make = retro.make
    monkeypatch.setattr(retro, "make", lambda *a, **k: make(*a, core="nestopia", **k))

    env = env_factory(use_restricted_actions=retrogym.Actions.ALL)
    env.reset(seed=0)
    path = str(tmp_path / "run.bk2")
    env.record_movie(path)
    assert _scripted_episode(env, 1300) == 20.0  # the README's script scores at steps 469 and 1237
    env.stop_record()
    recorded = recorded_rewards(path)
    want = [recorded.at(frame)[0][0] for frame in range(1, recorded.frames)]
    assert sum(want) == 20.0

    got = _docs_loop(retro, path)
    assert got == want
    # the loop without the assignment starts from power-on and misses the rewards: the test can tell
    assert _docs_loop(retro, path, set_initial_state=False) != want


@pytest.mark.starcatcher
def test_initial_state_property(env_factory):
    env = env_factory()
    start = env.initial_state
    with gzip.open(os.path.join(GAME_DIR, "Start.state"), "rb") as f:
        assert start == f.read()  # the raw state, as stable-retro's load_state keeps it
    env.reset(seed=0)
    for _ in range(200):
        env.step(env.action_space.sample() * 0)
    later = env.em.get_state()
    env.initial_state = later
    assert env.initial_state == later
    obs_later = env.reset(seed=0)[0]
    env.initial_state = bytearray(start)
    obs_start = env.reset(seed=0)[0]
    assert not np.array_equal(obs_later, obs_start)
    with pytest.raises(ValueError):
        env.initial_state = b"\x01\x02junk"
    assert env.initial_state == start  # a refused state changes nothing
    with pytest.raises(ValueError, match="gzip"):
        env.initial_state = gzip.compress(start)
    with pytest.raises(TypeError):
        env.initial_state = "Start"
    env.initial_state = None
    assert env.initial_state is None and env.statename is None
    assert not np.array_equal(env.reset(seed=0)[0], obs_start)  # power-on
    env.close()
    assert env.initial_state is None
    with pytest.raises(RuntimeError, match="closed"):
        env.initial_state = start


# ---- retrogym.testing.tools ----

def _write_game(root, name, data=None, scenario=None, metadata=None, states=("Start",), sha="0" * 40):
    folder = os.path.join(root, "stable", name)
    os.makedirs(folder)
    for file, content in (("data.json", data), ("scenario.json", scenario), ("metadata.json", metadata)):
        if content is not None:
            with open(os.path.join(folder, file), "w") as f:
                f.write(content if isinstance(content, str) else json.dumps(content))
    for s in states:
        shutil.copy(os.path.join(GAME_DIR, "Start.state"), os.path.join(folder, f"{s}.state"))
    with open(os.path.join(folder, "rom.sha"), "w") as f:
        f.write(sha + "\n")
    return folder


def test_tools_on_our_game():
    for check in (tools.verify_data, tools.verify_scenario, tools.verify_default_state, tools.verify_rom,
                  tools.verify_hash):
        assert check(GAME, STABLE) == ([], []), check.__name__
    assert tools.load_whitelist(GAME, STABLE) == ({}, [])
    label = os.path.join("stable", GAME, "data.json")
    assert tools.verify_data(GAME, STABLE, raw='{"info": {"x": {"address": 1}}}') == \
        ([], [(label, "missing type for x")])
    assert tools.verify_data(GAME, STABLE, raw="{broken")[1][0][0] == label
    scen = os.path.join("stable", GAME, "scenario.json")
    raw = json.dumps({"reward": {"variables": {"score": {"reward": 1}}},
                      "done": {"condition": "all", "variables": {"lives": {"op": "zero"}}}})
    assert tools.verify_scenario(GAME, STABLE, raw=raw) == \
        ([], [(scen, "incorrect done condition all with only 1 check")])
    assert tools.verify_scenario(GAME, STABLE, raw=raw, dataraw='{"info": {}}') == ([], [
        (scen, "invalid variable score"), (scen, "incorrect done condition all with only 1 check"),
        (scen, "invalid variable lives")])
    meta = os.path.join("stable", GAME, "metadata.json")
    assert tools.verify_default_state(GAME, STABLE, raw='{"default_state": "Nowhere"}') == \
        ([], [(meta, "invalid default state Nowhere")])
    assert tools.verify_data("NoSuchGame-Nes", STABLE) == ([], [])


def test_tools_whitelist_missing_files_and_collisions(tmp_path, saved_data_settings):
    root = str(tmp_path)
    lives = {"info": {"lives": {"address": 1, "type": ">u2"}}}
    scen = {"reward": {"variables": {"lives": {"reward": 1}}}, "done": {"variables": {"lives": {"op": "zero"}}}}
    _write_game(root, "Warned-Nes", lives, scen, {"default_state": "Start"}, sha="a" * 40)
    _write_game(root, "Whitelisted-Nes", lives, scen,
                {"default_state": "Start", "whitelist": {"data.json": ["suspicious type >u2 for lives",
                                                                      "suspicious type |u1 for score"]}},
                sha="a" * 40)
    _write_game(root, "Stub-Nes", lives, states=(), sha="b" * 40)
    _write_game(root, "BadMeta-Nes", lives, scen, "{nope", sha="c" * 40)
    saved_data_settings.set_path(root)
    saved_data_settings.clear_custom_paths()  # only this root: the session's test-ROM folder would add games
    label = os.path.join("stable", "Warned-Nes", "data.json")
    assert tools.verify_data("Warned-Nes", STABLE) == ([(label, "suspicious type >u2 for lives")], [])
    warnings, errors = tools.verify_data("Whitelisted-Nes", STABLE)
    assert warnings == [] and len(errors) == 1 and errors[0][1].startswith("missing warning")
    assert "suspicious type |u1 for score" in errors[0][1]
    whitelist, errs = tools.load_whitelist("Whitelisted-Nes", STABLE)
    assert errs == [] and "data.json" in whitelist
    assert tools.load_whitelist("BadMeta-Nes", STABLE)[0] is None
    assert tools.load_whitelist("BadMeta-Nes", STABLE)[1][0][1] == "fail decode"
    assert sorted(tools.scan_missing()) == [("Stub-Nes", "*.state"), ("Stub-Nes", "metadata.json"),
                                           ("Stub-Nes", "scenario.json")]
    assert sorted(tools.verify_hash_collisions()[1]) == [("Warned-Nes", "sha duplicate"),
                                                         ("Whitelisted-Nes", "sha duplicate")]
    assert tools.verify_rom("Warned-Nes", STABLE) == ([], [("Warned-Nes", "ROM file missing")])
    warnings, errors = tools.verify_all(STABLE)
    assert ("Stub-Nes", "missing *.state") in errors and ("Warned-Nes", "sha duplicate") in errors
    assert (label, "suspicious type >u2 for lives") in warnings


# ---- every stable-retro integration loads (issue 15 item 9) ----

# Integrations stable-retro ships that we refuse, and why: both name a 2-player default state with a trailing dot
# ("PenguinsVsSenators.start."), a typo for a state that does not exist.
EXPECTED_ERRORS = {
    ("stable", "NHL94-Genesis-v0"): "invalid default player state PenguinsVsSenators.start.",
    ("stable", "NHL941on1-Genesis-v0"): "invalid default player state PenguinsVsSenators.start.",
}
# A data-only stub (only data.json and rom.sha) is flagged by the missing-files scan, as by stable-retro's.
STUB_ERRORS = {"missing scenario.json", "missing metadata.json", "missing *.state", "missing rom.sha"}


@pytest.mark.skipif(SR_DATA is None, reason="stable-retro is not installed")
def test_every_stable_retro_integration_loads():
    walked, stubs, refused = 0, [], {}
    for integration in ("stable", "experimental", "contrib"):
        base = os.path.join(SR_DATA, integration)
        for game in sorted(os.listdir(base)):
            folder = os.path.join(base, game)
            if not os.path.isdir(folder) or game == "__pycache__":
                continue
            walked += 1
            files = sorted(os.listdir(folder))
            data = os.path.join(folder, "data.json") if "data.json" in files else None
            for name in files:
                kind = {"data.json": "data", "metadata.json": "metadata", "rom.sha": "rom.sha"}.get(name)
                if kind is None and name.endswith(".json"):
                    kind = "scenario"  # scenario.json and others (contest.json), their Lua scripts run
                if kind is None:
                    continue
                try:
                    _C.load_check(kind, os.path.join(folder, name), data)
                except (ValueError, OSError) as e:
                    refused[(integration, game)] = f"{name}: {e}"
            errors = {msg for _file, severity, msg in _C.validate_dir(folder) if severity == "error"}
            if errors and errors <= STUB_ERRORS and not any(f.endswith(".state") for f in files):
                stubs.append(game)
            elif errors:
                refused[(integration, game)] = "; ".join(sorted(errors))
    assert walked > 1000
    assert refused == EXPECTED_ERRORS
    assert 0 < len(stubs) < 100


def test_loader_and_validator_bindings_refuse_bad_input(tmp_path):
    bad = tmp_path / "data.json"
    bad.write_text('{"info": {"x": {"address": "nope", "type": "|u1"}}}')
    with pytest.raises(ValueError, match="x"):
        _C.load_check("data", str(bad))
    (tmp_path / "rom.sha").write_text("not a sha\n")
    with pytest.raises(ValueError, match="line 1"):
        _C.load_check("rom.sha", str(tmp_path / "rom.sha"))
    (tmp_path / "metadata.json").write_text('{"default_state": 5}')
    with pytest.raises(ValueError, match="default_state"):
        _C.load_check("metadata", str(tmp_path / "metadata.json"))
    (tmp_path / "scenario.json").write_text('{"reward": {"script": "lua:f"}, "scripts": ["script.lua"]}')
    (tmp_path / "script.lua").write_text("function f( return 1 end")
    with pytest.raises(ValueError):
        _C.load_check("scenario", str(tmp_path / "scenario.json"))
    with pytest.raises(FileNotFoundError):
        _C.load_check("data", str(tmp_path / "missing.json"))
    with pytest.raises(ValueError, match="unknown kind"):
        _C.load_check("nope", str(bad))
    with pytest.raises(ValueError, match="unknown check"):
        _C.validate("nope", None, (), GAME, 1)
    with pytest.raises(ValueError, match="needs a game"):
        _C.validate("data", None, (), None, 1)
    with pytest.raises(ValueError, match="flags"):
        _C.validate("data", None, (), GAME, 99)
    with pytest.raises(FileNotFoundError):
        _C.validate_dir(str(tmp_path / "nowhere"))


def test_tools_command_line(tmp_path):
    root = str(tmp_path)
    _write_game(root, "Stub-Nes", {"info": {"lives": {"address": 1, "type": "|u1"}}}, states=())
    env = dict(os.environ, RETROGYM_DATA_PATH=root)
    out = subprocess.run([sys.executable, "-m", "retrogym.testing.tools", "--integrations", "stable"], env=env,
                         capture_output=True, text=True)
    assert out.returncode == 1, out.stderr
    assert "error: Stub-Nes: missing scenario.json" in out.stdout and out.stdout.rstrip().endswith("warnings")


@needs_sr
def test_stable_retro_integration_suite_expectations(sr_paths, alias):
    """stable-retro's test_integration.py and test_roms.py over its own data, through the alias: every check passes
    except the two default_player_state typos (which its checks do not look at)."""
    import retro
    import retro.testing.tools as sr_tools

    ALL = retro.data.Integrations.ALL
    warnings, errors = sr_tools.verify_json(ALL)
    assert sorted(game for file, _ in errors for game in [file.split(os.sep)[1]]) == \
        ["NHL94-Genesis-v0", "NHL941on1-Genesis-v0"]
    assert all("default player state" in message for _, message in errors)
    assert sr_tools.scan_missing() == []
    assert sr_tools.verify_hash_collisions() == ([], [])
    assert retro.data.verify_hash("Airstriker-Genesis-v0", STABLE) == []
    assert sr_tools.verify_rom("Airstriker-Genesis-v0", STABLE) == ([], [])
    assert len(retro.data.list_games(ALL)) > 1000
