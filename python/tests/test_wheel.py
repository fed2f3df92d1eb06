"""The wheel of `make wheel` (docs/install.md) installed with pip alone into a fresh virtual environment, without
network and without the build tree: its system libraries are vendored (ldd resolves every library outside the
manylinux list into the wheel's retrogym.libs), our cores are inside (built in, and the libretro builds in
retrogym/cores), the `retrogym` command is installed, and the installed package runs our game and a real Atari ROM
exactly as the development build does; check_env passes there without pygame. The sdist stops with the missing
Debian packages named. Skipped when `make wheel` has not been run (`make test` runs it first)."""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile

import pytest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
WHEEL_BUILD = os.path.join(REPO, "build-wheel")
WHEELS = sorted(glob.glob(os.path.join(WHEEL_BUILD, "dist", "retrogym-*.whl")))
DEPS = os.path.join(WHEEL_BUILD, "deps")
STARCATCHER_ROM = os.path.join(REPO, "data", "stable", "StarCatcher-Nes", "rom.nes")
DEV_CLI = os.path.join(REPO, "build", "cli", "retrogym")

# The libraries a manylinux wheel may take from the system (auditwheel's policy for manylinux_2_34, plus the loader
# and the vDSO); anything else must come from the wheel itself.
SYSTEM_LIBS = {"libc.so.6", "libm.so.6", "libdl.so.2", "libpthread.so.0", "librt.so.1", "libz.so.1",
               "libgcc_s.so.1", "libstdc++.so.6", "ld-linux-x86-64.so.2", "linux-vdso.so.1"}
# The -dev packages' libraries that the wheel carries in retrogym.libs.
VENDORED = ("libjansson", "liblua5", "libzip", "libnettle", "libpng16")

pytestmark = pytest.mark.skipif(not WHEELS, reason="no wheel in build-wheel/dist: run `make wheel`")

# Run by both the wheel's and the development environment's Python; prints what a user sees, as JSON.
PROBE = r'''
import hashlib, importlib.util, json, sys
import gymnasium as gym
import retrogym
out = {"file": retrogym.__file__, "pygame": importlib.util.find_spec("pygame") is not None}

def episode(game, steps=300):
    env = retrogym.make(game)
    env.action_space.seed(0)
    h = hashlib.sha256()
    obs, info = env.reset(seed=0)
    h.update(obs.tobytes())
    total = 0.0
    for _ in range(steps):
        obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
        h.update(obs.tobytes())
        h.update(env.get_ram().tobytes())
        h.update(json.dumps([reward, terminated, truncated, info], sort_keys=True).encode())
        total += reward
        if terminated or truncated:
            obs, info = env.reset()
    modes = env.metadata["render_modes"]
    env.close()
    return {"digest": h.hexdigest(), "return": total, "shape": list(obs.shape), "render_modes": modes}

out["starcatcher"] = episode("StarCatcher-Nes")
if len(sys.argv) > 1:
    out["atari"] = episode(sys.argv[1])
try:
    retrogym.make("NoSuchGame-Nes")
except Exception as e:
    out["unknown_game"] = str(e)
print(json.dumps(out))
'''

CHECK_ENV = r'''
import json
import gymnasium as gym
from gymnasium.utils.env_checker import check_env
import retrogym
retrogym.register_games()
env = gym.make("retrogym/StarCatcher-Nes-v0", render_mode="rgb_array")
check_env(env.unwrapped)  # made again in every declared render mode (its spec is set)
env.close()
try:
    retrogym.make("StarCatcher-Nes", render_mode="human")
    human = "made"
except Exception as e:
    human = f"{type(e).__name__}: {e}"
print(json.dumps({"human": human, "render_modes": retrogym.RetroEnv.metadata["render_modes"]}))
'''


def _clean_env(tmp, venv):
    """The environment of a user who has only the fresh venv: no RETROGYM_*/PYTHON*/LD_* settings, an empty home."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RETROGYM_", "PYTHON", "LD_", "PIP_", "XDG_"))}
    home = os.path.join(tmp, "home")
    os.makedirs(home, exist_ok=True)
    env.update(HOME=home, PATH=os.path.join(venv, "bin") + ":/usr/bin:/bin", PIP_CONFIG_FILE=os.devnull)
    return env


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A fresh venv with the wheel installed by pip from local files only (the wheel, numpy's and gymnasium's)."""
    if not glob.glob(os.path.join(DEPS, "numpy-*.whl")):
        pytest.skip("no numpy wheel in build-wheel/deps (make wheel fetches it)")
    tmp = str(tmp_path_factory.mktemp("wheel"))
    venv = os.path.join(tmp, "venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True)
    env = _clean_env(tmp, venv)
    py = os.path.join(venv, "bin", "python")
    r = subprocess.run([sys.executable, "-m", "pip", "--python", py, "install", "-q", "--no-index", "--no-cache-dir",
                        "--find-links", os.path.dirname(WHEELS[-1]), "--find-links", DEPS, "retrogym"],
                       env=env, cwd=tmp, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    site = subprocess.run([py, "-c", "import sysconfig; print(sysconfig.get_path('platlib'))"], env=env,
                          capture_output=True, text=True, check=True).stdout.strip()
    return {"tmp": tmp, "venv": venv, "py": py, "env": env, "site": site}


def test_wheel_contents_and_tag():
    """One manylinux wheel with the extension, the CLI, both libretro cores and the vendored libraries."""
    assert len(WHEELS) == 1, WHEELS
    name = os.path.basename(WHEELS[0])
    assert re.search(r"-manylinux_2_\d+_x86_64\.whl$", name), name
    names = zipfile.ZipFile(WHEELS[0]).namelist()
    for need in ("retrogym/_bin/retrogym", "retrogym/cores/atari2600_libretro.so", "retrogym/cores/nes_libretro.so",
                 "retrogym/_cli.py", "retrogym/data/stable/StarCatcher-Nes/rom.nes"):
        assert need in names, need
    assert any(re.match(r"retrogym/_retrogym\..*\.so$", n) for n in names)
    libs = [n for n in names if n.startswith("retrogym.libs/")]
    for lib in VENDORED:
        assert any(os.path.basename(n).startswith(lib) for n in libs), (lib, libs)
    entry = [n for n in names if n.endswith(".dist-info/entry_points.txt")]
    assert "retrogym = retrogym._cli:main" in zipfile.ZipFile(WHEELS[0]).read(entry[0]).decode()


def _ldd(path, env):
    r = subprocess.run(["ldd", path], env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    libs = {}
    for line in r.stdout.splitlines():
        m = re.match(r"\s*(\S+)(?: => (\S+))?", line)
        if m:
            assert "not found" not in line, line
            libs[m.group(1)] = m.group(2) or m.group(1)
    return libs


def test_installed_binaries_use_only_vendored_or_manylinux_libraries(installed):
    """ldd of the installed extension, CLI and cores: every library outside the manylinux list resolves into the
    venv's retrogym.libs, none into the system's -dev libraries (/usr/lib/.../libjansson.so.4, ...)."""
    site = installed["site"]
    libdir = os.path.join(site, "retrogym.libs")
    files = glob.glob(os.path.join(site, "retrogym", "_retrogym.*.so")) + [
        os.path.join(site, "retrogym", "_bin", "retrogym"),
        os.path.join(site, "retrogym", "cores", "atari2600_libretro.so"),
        os.path.join(site, "retrogym", "cores", "nes_libretro.so")]
    seen = set()
    for f in files:
        for soname, path in _ldd(f, installed["env"]).items():
            base = os.path.basename(soname)
            if base in SYSTEM_LIBS:
                continue
            assert os.path.realpath(path).startswith(os.path.realpath(libdir) + os.sep), (f, soname, path)
            seen.add(base)
    for lib in VENDORED:  # each found, and in the wheel (the extension links all but libpng, the CLI's)
        assert any(s.startswith(lib) for s in seen), (lib, seen)


def _atari_rom(tmp):
    try:
        import ale_py.roms
    except ImportError:
        return None
    src = os.path.join(os.path.dirname(ale_py.roms.__file__), "breakout.bin")
    if not os.path.isfile(src):
        return None
    dst = os.path.join(tmp, "breakout.a26")
    shutil.copyfile(src, dst)
    return dst


def test_installed_package_plays_as_the_development_build(installed):
    """Our game (the package's own data) and ale-py's Breakout on our built-in Atari core: observations, RAM,
    rewards, flags and info of 300 random steps are identical in the wheel's venv and in the development .venv."""
    tmp = installed["tmp"]
    probe = os.path.join(tmp, "probe.py")
    with open(probe, "w") as f:
        f.write(PROBE)
    rom = _atari_rom(tmp)
    args = [probe] + ([rom] if rom else [])
    wheel = subprocess.run([installed["py"], *args], env=installed["env"], cwd=tmp, capture_output=True, text=True,
                           timeout=300)
    assert wheel.returncode == 0, wheel.stderr
    dev_env = dict(installed["env"], PATH=os.environ.get("PATH", "/usr/bin:/bin"))  # the same empty home
    dev = subprocess.run([sys.executable, *args], env=dev_env, cwd=tmp, capture_output=True, text=True, timeout=300)
    assert dev.returncode == 0, dev.stderr
    w, d = json.loads(wheel.stdout), json.loads(dev.stdout)
    assert w["file"].startswith(installed["site"]), w["file"]
    assert not w["pygame"]
    for game in ("starcatcher", "atari") if rom else ("starcatcher",):
        assert w[game]["digest"] == d[game]["digest"], game
        assert w[game]["return"] == d[game]["return"]
    assert w["starcatcher"]["shape"] == [224, 256, 3]
    assert w["starcatcher"]["render_modes"] == ["rgb_array"]
    # The hint names a command that a pip user has.
    assert "retrogym games" in w["unknown_game"], w["unknown_game"]


def test_check_env_passes_without_pygame(installed):
    """A plain install has no pygame: "human" is not declared, so check_env (which makes every declared mode) passes,
    and asking for "human" anyway names the extra to install."""
    tmp = installed["tmp"]
    r = subprocess.run([installed["py"], "-c", CHECK_ENV], env=installed["env"], cwd=tmp, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["render_modes"] == ["rgb_array"]
    assert out["human"].startswith("DependencyNotInstalled") and "retrogym[human]" in out["human"], out["human"]


def test_retrogym_command_is_installed(installed):
    """`retrogym` in the venv's bin runs the C tool from the wheel: its help, our game from the package's data, and
    our NES core, built in and as the wheel's libretro build, each giving the RAM the development build's gives."""
    tmp, env = installed["tmp"], installed["env"]
    cli = os.path.join(installed["venv"], "bin", "retrogym")
    assert os.access(cli, os.X_OK)
    r = subprocess.run([cli, "--help"], env=env, cwd=tmp, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "games" in r.stdout and "validate" in r.stdout, r.stdout + r.stderr
    r = subprocess.run([cli, "games"], env=env, cwd=tmp, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "StarCatcher-Nes" in r.stdout, r.stdout + r.stderr
    run = ["run", STARCATCHER_ROM, "--frames", "300", "--buttons", "START@30", "--ram", "0:2048", "--quiet"]
    core = os.path.join(installed["site"], "retrogym", "cores", "nes_libretro.so")
    builtin = subprocess.run([cli, *run], env=env, cwd=tmp, capture_output=True, text=True, timeout=60)
    libretro = subprocess.run([cli, *run, "--core", core], env=env, cwd=tmp, capture_output=True, text=True,
                              timeout=60)
    assert builtin.returncode == 0 and libretro.returncode == 0, builtin.stderr + libretro.stderr
    assert builtin.stdout.count("\n") == 128 and libretro.stdout.count("\n") == 128
    dev_core = os.path.join(REPO, "build", "cores", "nes_libretro.so")
    if os.access(DEV_CLI, os.X_OK) and os.path.isfile(dev_core):
        dev = subprocess.run([DEV_CLI, *run], cwd=tmp, capture_output=True, text=True, timeout=60)
        dev_libretro = subprocess.run([DEV_CLI, *run, "--core", dev_core], cwd=tmp, capture_output=True, text=True,
                                      timeout=60)
        assert dev.returncode == 0 and dev.stdout == builtin.stdout
        assert dev_libretro.returncode == 0 and dev_libretro.stdout == libretro.stdout


def test_sdist_names_missing_debian_packages(tmp_path):
    """The sdist builds from source; where the -dev packages cannot be found (pkg-config sees none here) the build
    stops with each missing library, its Debian package and the apt-get line, not CMake's generic message."""
    pytest.importorskip("scikit_build_core")
    out = tmp_path / "sdist"
    r = subprocess.run([sys.executable, "-c", "import sys; from scikit_build_core.build import build_sdist; "
                        "print(build_sdist(sys.argv[1]))", str(out)], cwd=REPO, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    sdist = out / r.stdout.strip().splitlines()[-1]
    empty = tmp_path / "no-pc"
    empty.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PKG_CONFIG", "PIP_"))}
    env.update(PKG_CONFIG_LIBDIR=str(empty), PIP_CONFIG_FILE=os.devnull)
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                        "-C", f"build-dir={tmp_path / 'build'}", "-w", str(tmp_path / "w"), str(sdist)],
                       env=env, capture_output=True, text=True, timeout=300)
    text = r.stdout + r.stderr
    assert r.returncode != 0
    assert "retrogym cannot be built here: these build dependencies are missing" in text, text[-3000:]
    for module, package in (("jansson", "libjansson-dev"), ("lua5.1", "liblua5.1-0-dev"), ("libzip", "libzip-dev"),
                            ("nettle", "nettle-dev"), ("libpng", "libpng-dev")):
        assert f"{module} ({package})" in text, module
    assert re.search(r"apt-get install libjansson-dev liblua5\.1-0-dev libzip-dev nettle-dev", text), text[-3000:]
    assert "required packages were not found" not in text
