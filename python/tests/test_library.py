"""The game library out of the box: an installed stable-retro found without setup (its data and cores), the data
roots shared with the CLI, names with or without -v0, imports into the user root (another dump reported, --force),
and retrogym.data.library(). Each case runs in a child Python whose environment says what is installed (the rest of
the suite turns discovery off, see conftest.py); skipped without stable-retro (and ale-py / gym-super-mario-bros for
their ROMs)."""
import importlib.util
import json
import os
import subprocess
import sys

import pytest

import retrogym

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _package(name):
    spec = importlib.util.find_spec(name)
    return os.path.dirname(spec.origin) if spec is not None and spec.origin else None


STABLE_RETRO = _package("stable_retro")
needs_stable_retro = pytest.mark.skipif(STABLE_RETRO is None, reason="stable-retro is not installed")


def run_child(code, tmp_path, discover=True, **env_vars):
    """Runs code in a child Python with a private user root; returns its stdout parsed as JSON (last line)."""
    env = {k: v for k, v in os.environ.items() if k not in ("RETROGYM_STABLE_RETRO", "RETROGYM_DATA_PATH")}
    env["XDG_DATA_HOME"] = str(tmp_path / "xdg")
    if not discover:
        env["RETROGYM_STABLE_RETRO"] = ""
    env.update(env_vars)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


@needs_stable_retro
def test_stable_retro_found_without_setup(tmp_path):
    got = run_child("""
import json, os, retrogym
env = retrogym.make("Airstriker-Genesis")  # the name Gym Retro's docs use; stable-retro's folder has -v0
obs, info = env.reset(seed=0)
print(json.dumps({"sr": os.environ["RETROGYM_STABLE_RETRO"], "roots": retrogym.data.roots(), "core": env.core,
                  "shape": list(obs.shape), "folder": retrogym.data.game_folder("Airstriker-Genesis"),
                  "found": retrogym.data.find_stable_retro(),
                  "cores": {c["name"]: c["path"] for c in retrogym.data.list_cores()}}))
env.close()
""", tmp_path)
    assert os.path.realpath(got["sr"]) == os.path.realpath(STABLE_RETRO)
    assert os.path.realpath(got["found"]) == os.path.realpath(STABLE_RETRO)
    origins = [o for _, o in got["roots"]]
    assert origins == ["user", "own", "stable-retro"]
    assert got["roots"][0][0] == str(tmp_path / "xdg" / "retrogym")
    # our Genesis core runs it (the default since 2026-11-27, converting the GPGX start state); stable-retro's cores
    # are found all the same
    assert got["core"] == "genesis" and got["shape"] == [224, 320, 3]
    assert got["folder"] == "Airstriker-Genesis-v0"
    assert got["cores"]["genesis_plus_gx"].startswith(os.path.join(STABLE_RETRO, "cores"))


@needs_stable_retro
def test_without_stable_retro_the_error_names_the_roots(tmp_path):
    got = run_child("""
import json, retrogym
try:
    retrogym.make("Airstriker-Genesis")
    print(json.dumps({"error": None}))
except FileNotFoundError as e:
    print(json.dumps({"error": str(e), "hint": retrogym.data.core_install_hint("Genesis")}))
""", tmp_path, discover=False, RETROGYM_CORE_PATH="", HOME=str(tmp_path / "home"))
    assert got["error"].startswith("unknown game Airstriker-Genesis (searched ")
    assert "(user)" in got["error"] and "(own)" in got["error"] and "stable-retro" not in got["error"]
    assert got["hint"] == 'pip install "retrogym[cores]" (stable-retro\'s genesis_plus_gx core)'


@needs_stable_retro
def test_import_into_user_root_and_library(tmp_path):
    """ale-py's Atari ROMs (.bin) import into the user root, the library sees them and one starts."""
    ale = _package("ale_py")
    if ale is None or not os.path.isdir(os.path.join(ale, "roms")):
        pytest.skip("ale-py with its ROMs is not installed")
    got = run_child(f"""
import json, retrogym
report = retrogym.data.import_roms({os.path.join(ale, "roms")!r})
lib = retrogym.data.library(retrogym.Integrations.ALL)
pong = [g for g in lib if g["game"] == "Pong-Atari2600-v0"]
checked = retrogym.data.library(retrogym.Integrations.STABLE, check=True, frames=10, system="Genesis")
print(json.dumps({{"games": report["games"], "near": report["near"], "imported": report["imported"],
                  "pong": pong, "checked": [g for g in checked if g["rom"]],
                  "summary": retrogym.data.library_summary(checked)}}))
""", tmp_path)
    user = str(tmp_path / "xdg" / "retrogym")
    assert got["games"] >= 20
    assert all(path.startswith(user + "/stable/") and path.endswith("/rom.a26") for _, path in got["imported"])
    assert not os.path.exists(os.path.join(STABLE_RETRO, "data", "stable", "Pong-Atari2600-v0", "rom.a26"))
    # ale-py's other dumps are reported by name (e.g. amidar.bin for Amidar-Atari2600-v0)
    assert any(game.endswith("-Atari2600-v0") and candidate.endswith(".bin") for game, candidate, _ in got["near"])
    pong = got["pong"][0]
    assert pong["rom"].startswith(user) and pong["origin"] == "stable-retro" and pong["system"] == "Atari2600"
    assert pong["core"] is not None and pong["start"] is None
    air = [g for g in got["checked"] if g["game"] == "Airstriker-Genesis-v0"][0]
    assert air["start"] == "ok" and air["core"] == "genesis" and air["core_origin"] == "own"
    row = [r for r in got["summary"] if r[0] == "Genesis" and r[1] == "own"][0]
    assert row[2] > 300 and row[3] >= 1 and row[4] >= 1


@needs_stable_retro
def test_another_dump_is_reported_and_forced(tmp_path):
    smb = _package("gym_super_mario_bros")
    rom = os.path.join(smb or "", "_roms", "super-mario-bros.nes")
    if not os.path.exists(rom):
        pytest.skip("gym-super-mario-bros is not installed")
    cmd = [sys.executable, "-m", "retrogym.import"]
    env = {k: v for k, v in os.environ.items() if k != "RETROGYM_STABLE_RETRO"}
    env["XDG_DATA_HOME"] = str(tmp_path / "xdg")
    out = subprocess.run(cmd + [rom], capture_output=True, text=True, env=env)
    assert out.returncode == 0 and "Imported 0 games" in out.stdout
    assert "named like SuperMarioBros-Nes-v0" in out.stderr and "--force SuperMarioBros-Nes-v0" in out.stderr
    out = subprocess.run(cmd + ["--force", "SuperMarioBros-Nes", rom], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    assert "Importing SuperMarioBros-Nes-v0" in out.stdout
    written = tmp_path / "xdg" / "retrogym" / "stable" / "SuperMarioBros-Nes-v0" / "rom.nes"
    with open(rom, "rb") as a, open(written, "rb") as b:
        assert a.read() == b.read()
    out = subprocess.run(cmd + ["--force", "Nobody-Nes", rom], capture_output=True, text=True, env=env)
    assert out.returncode == 1 and "unknown game Nobody-Nes" in out.stderr
    got = run_child("""
import json, retrogym
env = retrogym.make("SuperMarioBros-Nes")
env.reset(seed=0)
for _ in range(60):
    env.step(env.action_space.sample() * 0)
print(json.dumps({"core": env.core, "state": env.statename}))
""", tmp_path)
    assert got == {"core": "nes", "state": "Level1-1"}  # our core converts FCEUmm's start state


def test_roots_in_process(saved_data_settings, tmp_path):
    data = saved_data_settings
    assert data.user_root() == os.path.join(os.environ["XDG_DATA_HOME"], "retrogym")
    assert [o for _, o in data.roots()] == ["user", "own"]  # discovery is off in this suite
    data.set_path(tmp_path)
    assert data.roots() == [(str(tmp_path), "given")]
    with pytest.raises(FileNotFoundError, match=r"unknown game Nobody-Nes \(searched .*\(given\)"):
        data.game_folder("Nobody-Nes")
    with pytest.raises(FileNotFoundError, match="--force: unknown game"):
        data.import_roms([str(tmp_path)], force="Nobody-Nes")
    with pytest.raises(KeyError, match="NoSuchSystem"):
        data.library(system="NoSuchSystem")
