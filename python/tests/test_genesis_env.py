"""Airstriker-Genesis (the game every Gym Retro page shows; its ROM ships in stable-retro's wheel) on our own Genesis
core (core "genesis", built into the library; docs/genesis.md): with no libretro core on the machine at all
(checked in a child process: no Genesis core on the search path, no libretro shared object mapped into the process),
gymnasium's check_env, random play, make_vec with 84x84 gray frames, frame skip 4 and a stack of 4, and a recorded
.bk2 movie that plays back to the same observations, RAM, rewards, done and info at every step. Then the equivalence
bar of issue 22 at the environment level: from Level1.state, seeded random MultiBinary input, every step on our core
against Genesis Plus GX (stable-retro's wheel, through our host): observation shape and bytes, RAM, reward,
terminated, truncated and info; and from power-on on ../shared/roms/Dekadence-Dekadrive.md (no integration: the
emulator API, picture and RAM every frame).

Every test skips without stable-retro's wheel (its data holds the ROM); the power-on comparison skips without
../shared. RETROGYM_GENESIS_EQ_STEPS=10000 runs the comparisons over 10,000 steps / frames (default 2,000 each,
about 2 s apiece) and prints each one's agreement."""
import hashlib
import importlib.util
import json
import os
import subprocess
import sys

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import retrogym
from conftest import SOURCE
from test_movie import compare_playback, random_episode

GAME = "Airstriker-Genesis"
DEKADRIVE = os.path.join(SOURCE, "..", "shared", "roms", "Dekadence-Dekadrive.md")
SHAPE = (224, 320, 3)  # stable-retro's screen for a Genesis game on Genesis Plus GX
EQ_STEPS = int(os.environ.get("RETROGYM_GENESIS_EQ_STEPS", "0") or 0) or 2000


def _stable_retro():
    spec = importlib.util.find_spec("stable_retro")
    folder = spec and spec.origin and os.path.dirname(spec.origin)
    if not folder or not os.path.exists(os.path.join(folder, "data", "stable", "Airstriker-Genesis-v0", "rom.md")):
        return None
    return folder


SR = _stable_retro()
pytestmark = pytest.mark.skipif(SR is None, reason="stable-retro's wheel (Airstriker-Genesis' ROM) is not installed")


def _gpgx():
    path = SR and os.path.join(SR, "cores", "genesis_plus_gx_libretro.so")
    if not path or not os.path.exists(path):
        pytest.skip("stable-retro's wheel has no genesis_plus_gx core")
    return path


@pytest.fixture(autouse=True)
def airstriker_data(monkeypatch):
    """stable-retro's data as a data root of its own (conftest turns the discovery of stable-retro off, which also
    keeps its cores off the search path)."""
    monkeypatch.setenv("RETROGYM_DATA_PATH", os.path.join(SR, "data"))


def _actions(n, seed, buttons=12):
    """Seeded random MultiBinary actions, a new one every step (stable-retro's action_space.sample())."""
    rng = np.random.default_rng(seed)
    return rng.integers(0, 2, size=(n, buttons), dtype=np.int8)


# ---- no libretro core at all ----

CHILD = r"""
import hashlib, json, sys
import numpy as np
import retrogym
out = {"cores": sorted(c["name"] for c in retrogym.data.list_cores()),
       "system_cores": retrogym.get_system_info("Genesis")["cores"]}
def run(env):
    obs, info = env.reset(seed=0)
    shapes, pictures, rams, total = {obs.shape}, {hashlib.sha1(obs.tobytes()).hexdigest()}, set(), 0.0
    for a in np.random.default_rng(1).integers(0, 2, size=(300, env.action_space.n), dtype=np.int8):
        obs, reward, terminated, truncated, info = env.step(a)
        shapes.add(obs.shape)
        pictures.add(hashlib.sha1(obs.tobytes()).hexdigest())
        rams.add(hashlib.sha1(env.get_ram().tobytes()).hexdigest())
        total += reward
    return {"core": env.core, "shapes": sorted(shapes), "pictures": len(pictures), "rams": len(rams),
            "info": info, "statename": env.statename}
try:
    env = retrogym.make(sys.argv[1]) if sys.argv[2] == "default" else retrogym.make(sys.argv[1], core=sys.argv[2])
    out["run"] = run(env)
    env.close()
except Exception as e:
    out["error"] = [type(e).__name__, str(e)]
with open("/proc/self/maps") as f:
    out["libretro"] = sorted({l.split()[-1] for l in f if "libretro" in l and ".so" in l})
print(json.dumps(out))
"""


def _without_libretro(tmp_path, core):
    """Runs CHILD in a process that sees no libretro core for the Genesis: an empty $RETROGYM_CORE_PATH, no
    stable-retro (its data given as a data root), a home without RetroArch folders. The package's own folder and
    Debian's hold no foreign Genesis core (checked below from the child's list); the child lists every libretro
    shared object mapped into it, which must be none."""
    empty = tmp_path / "cores"
    empty.mkdir()
    env = dict(os.environ, RETROGYM_CORE_PATH=str(empty), RETROGYM_STABLE_RETRO="", HOME=str(tmp_path),
               XDG_DATA_HOME=str(tmp_path / "xdg"), RETROGYM_DATA_PATH=os.path.join(SR, "data"))
    p = subprocess.run([sys.executable, "-c", CHILD, GAME, core], env=env, capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout.strip().splitlines()[-1])
    # Only our own libretro builds may be listed (genesis_libretro.so among them); none is loaded (out["libretro"]).
    assert not set(out["cores"]) & {"genesis_plus_gx", "picodrive"}, out["cores"]
    return out


def _check_run(out):
    assert out.get("error") is None, out.get("error")
    run = out["run"]
    assert run["core"] == "genesis" and run["statename"] == "Level1"
    assert run["shapes"] == [list(SHAPE)]
    assert run["pictures"] > 100 and run["rams"] > 100, run  # 300 steps of play: the game moves
    assert set(run["info"]) == {"gameover", "lives", "score"}
    assert out["libretro"] == [], f"a libretro core was loaded: {out['libretro']}"


def test_named_core_runs_without_any_libretro_core(tmp_path):
    _check_run(_without_libretro(tmp_path, "genesis"))


def test_make_without_any_libretro_core_picks_ours(tmp_path):
    """retrogym.make(GAME) with no core named. Our core is chosen only from the system's list
    (systems/Genesis.json "cores"; src/emu/emu.c pick_core: a built-in core named in the list is always available),
    where it is since f433888; were it taken out, there would be no fallback: the test then checks that make raises
    NotFound and reports an expected failure."""
    out = _without_libretro(tmp_path, "default")
    if "genesis" not in out["system_cores"]:
        assert out.get("error") and out["error"][0] == "NotFound" and "genesis_plus_gx" in out["error"][1], out
        assert out["libretro"] == []
        pytest.xfail(f"systems/Genesis.json lists {out['system_cores']}, not our core 'genesis': {out['error'][1]}")
    _check_run(out)


def test_default_core_with_genesis_plus_gx_installed(monkeypatch):
    """With GPGX installed too, make(GAME) runs on the first core of the system's list that reads Level1.state (a
    GPGX state: src/emu/state_core.c). With "genesis" first in systems/Genesis.json (since f433888) that must be
    ours, which needs "genesis" among the converters of GPGX's states there as well; with GPGX first it runs on
    GPGX (an expected failure)."""
    gpgx = _gpgx()
    monkeypatch.setenv("RETROGYM_CORE_PATH", os.path.dirname(gpgx))
    cores = retrogym.get_system_info("Genesis")["cores"]
    env = retrogym.make(GAME)
    try:
        used = env.core
    finally:
        env.close()
    if cores[0] != "genesis":
        assert used == cores[0] == "genesis_plus_gx"
        pytest.xfail(f"systems/Genesis.json lists {cores}: Level1.state runs on {used}")
    assert used == "genesis", f"{cores[0]} is first for .md but Level1.state (GPGX's) runs on {used}"


# ---- the environment on our core ----

@pytest.mark.parametrize("obs_type", list(retrogym.Observations), ids=lambda o: o.name)
def test_check_env(obs_type):
    env = retrogym.make(GAME, core="genesis", obs_type=obs_type, render_mode="rgb_array")
    try:
        assert env.core == "genesis"
        if obs_type == retrogym.Observations.IMAGE:
            assert env.observation_space.shape == SHAPE
        check_env(env, skip_render_check=True)
    finally:
        env.close()


def test_random_play():
    env = retrogym.make(GAME, core="genesis")
    try:
        assert env.action_space.n == 12 and env.statename == "Level1"
        obs, info = env.reset(seed=0)
        assert obs.shape == SHAPE and obs.dtype == np.uint8 and info == {"gameover": 9, "lives": 3, "score": 0}
        pictures, rams, score = set(), set(), 0
        for step, a in enumerate(_actions(400, seed=2)):
            obs, reward, terminated, truncated, info = env.step(a)
            assert obs.shape == SHAPE and obs.dtype == np.uint8
            assert not truncated and (not terminated or info["lives"] == 0)
            pictures.add(hashlib.sha1(obs.tobytes()).hexdigest())
            rams.add(hashlib.sha1(env.get_ram().tobytes()).hexdigest())
            score = info["score"]
        assert len(pictures) > 300 and len(rams) > 300
        assert len(np.unique(obs.reshape(-1, 3), axis=0)) >= 8  # a real picture, not one colour
        assert score > 0, "400 steps of random fire score points: rewards are exercised"
    finally:
        env.close()


def _luma(img):
    s = img.astype(np.int64)
    return ((299 * s[..., 0] + 587 * s[..., 1] + 114 * s[..., 2] + 500) // 1000).astype(np.uint8)


def test_make_vec_gray_84_frame_skip_4():
    """3 environments, 84x84 gray, frame skip 4, a stack of 4: (3, 4, 84, 84); each row is what a RetroEnv of its
    own gives on the same actions (rewards, flags, info; with OpenCV installed, the frame's bytes through
    cv2.resize INTER_AREA, as the pool documents)."""
    n = 3
    vec = retrogym.make_vec(GAME, n, num_threads=2, core="genesis", frameskip=4, grayscale=True, resize=(84, 84),
                            frame_stack=4)
    single = retrogym.make(GAME, core="genesis", frameskip=4)
    try:
        cv2 = importlib.import_module("cv2") if importlib.util.find_spec("cv2") else None
        assert vec.single_observation_space.shape == (4, 84, 84)
        obs, infos = vec.reset(seed=5)
        frame, info = single.reset(seed=5)
        assert obs.shape == (n, 4, 84, 84) and obs.dtype == np.uint8
        assert all(np.array_equal(obs[i][k], obs[0][0]) for i in range(n) for k in range(4))  # reset fills the stack
        prev = obs
        changed = 0
        for step, a in enumerate(_actions(150, seed=3)):
            obs, rewards, terms, truncs, infos = vec.step(np.stack([a] * n))
            frame, reward, terminated, truncated, info = single.step(a)
            assert obs.shape == (n, 4, 84, 84)
            assert np.array_equal(obs[:, :3], prev[:, 1:]), step  # the stack moves by one frame per step
            assert all(np.array_equal(obs[i], obs[0]) for i in range(n)), step  # same actions, same start
            if cv2 is not None:
                want = cv2.resize(_luma(frame), (84, 84), interpolation=cv2.INTER_AREA)
                assert np.array_equal(obs[0][3], want), f"step {step}: the gray 84x84 frame"
            assert (rewards == np.float32(reward)).all() and (terms == terminated).all() and (truncs == truncated).all()
            assert all(int(infos[k][0]) == v for k, v in info.items()), step
            changed += not np.array_equal(obs[0][3], prev[0][3])
            prev = obs
        assert changed > 100, "the frames change"
    finally:
        vec.close()
        single.close()


def test_movie_records_and_plays_back(tmp_path):
    env = retrogym.make(GAME, core="genesis", record=str(tmp_path))
    try:
        trace = random_episode(env, 1, 600)
        env.stop_record()
    finally:
        env.close()
    assert sum(t[2] for t in trace) > 0, "the episode scored: rewards are compared"
    path = tmp_path / f"{GAME}-Level1-000000.bk2"
    assert sorted(os.listdir(tmp_path)) == [path.name]
    m = retrogym.Movie(path)
    assert m.frame_count == len(trace) and m.get_game() == GAME and m.players == 1
    assert m.get_state()[:10] == b"GENPLUS-GX"  # Level1.state as stable-retro ships it, converted on load
    assert retrogym.movie.recorded_rewards(path).core == "genesis"
    compare_playback(str(path), trace)  # on the recording core (retrogym.txt), as a user plays it back


# ---- the equivalence bar: every step against Genesis Plus GX ----

class Agreement:
    """Per field: the first step that differs (with what), and how many steps differ."""

    FIELDS = ("obs shape", "obs bytes", "RAM", "reward", "terminated", "truncated", "info")

    def __init__(self, name, steps):
        self.name, self.steps = name, steps
        self.first, self.count = {}, dict.fromkeys(self.FIELDS, 0)

    def note(self, step, field, detail):
        self.count[field] += 1
        self.first.setdefault(field, (step, detail))

    def summary(self):
        if not self.first:
            return f"{self.name}: every field equal on all {self.steps} steps"
        order = list(self.first.items())  # in the order met
        return f"{self.name}, {self.steps} steps: first difference at step {order[0][1][0]}, " + "; ".join(
            f"{f}: {self.count[f]} steps differ, first step {s} ({d})" for f, (s, d) in order)


def _picture_diff(a, b):
    if a.shape != b.shape:
        return f"ours {a.shape}, GPGX {b.shape}"
    where = np.argwhere((a != b).any(axis=-1) if a.ndim == 3 else a != b)
    y, x = where[0][:2]
    return f"{len(where)} pixels, first at row {y} column {x}: ours {a[y, x].tolist()}, GPGX {b[y, x].tolist()}"


def _ram_diff(a, b):
    k = np.flatnonzero(a != b)
    return f"{len(k)} bytes, first at offset {k[0]:#x}: ours {a[k[0]]:#04x}, GPGX {b[k[0]]:#04x}"


def _compare_step(agree, step, ours, theirs, r1, r2):
    (o1, *rest1), (o2, *rest2) = r1, r2
    if o1.shape != o2.shape:
        agree.note(step, "obs shape", _picture_diff(o1, o2))
    elif not np.array_equal(o1, o2):
        agree.note(step, "obs bytes", _picture_diff(o1, o2))
    m1, m2 = ours.get_ram(), theirs.get_ram()
    if m1.shape != m2.shape or not np.array_equal(m1, m2):
        agree.note(step, "RAM", _ram_diff(m1, m2) if m1.shape == m2.shape else f"{m1.shape} vs {m2.shape}")
    for field, v1, v2 in zip(Agreement.FIELDS[3:], rest1, rest2):
        if v1 != v2:
            agree.note(step, field, f"ours {v1!r}, GPGX {v2!r}")


def test_level1_every_step_equals_genesis_plus_gx():
    """From Level1.state, EQ_STEPS steps (default frame skip 1) of seeded random MultiBinary actions; after an
    episode ends both reset and go on. Measured 2026-11-27: every field equal on all of 10,000 steps (5 episodes)."""
    gpgx = _gpgx()
    ours = retrogym.make(GAME, core="genesis")
    theirs = retrogym.make(GAME, core=gpgx)
    agree = Agreement(f"{GAME} Level1.state, ours vs genesis_plus_gx", EQ_STEPS)
    try:
        assert ours.core == "genesis" and theirs.core == "genesis_plus_gx"
        assert ours.statename == theirs.statename == "Level1" and ours.frameskip == theirs.frameskip == 1
        assert ours.observation_space == theirs.observation_space and ours.action_space == theirs.action_space
        o1, i1 = ours.reset(seed=0)
        o2, i2 = theirs.reset(seed=0)
        _compare_step(agree, "reset", ours, theirs, (o1, 0.0, False, False, i1), (o2, 0.0, False, False, i2))
        episodes = scored = 0
        for step, a in enumerate(_actions(EQ_STEPS, seed=22)):
            r1, r2 = ours.step(a), theirs.step(a)
            _compare_step(agree, step, ours, theirs, r1, r2)
            scored += r2[1] != 0
            if r1[2] or r1[3] or r2[2] or r2[3]:
                episodes += 1
                o1, i1 = ours.reset()
                o2, i2 = theirs.reset()
                _compare_step(agree, f"reset after {step}", ours, theirs, (o1, 0.0, False, False, i1),
                              (o2, 0.0, False, False, i2))
        print(agree.summary() + f" ({episodes} episodes ended, {scored} steps rewarded)")
        assert scored > 0, "no reward in the run: rewards were not compared"
        assert not agree.first, agree.summary()
    finally:
        ours.close()
        theirs.close()


def test_dekadrive_power_on_every_frame_equals_genesis_plus_gx():
    """The demo has no integration: the emulator API (RetroEmulator) from power-on, EQ_STEPS frames of seeded
    random buttons, comparing the screen (resolution, shape and bytes) and RAM every frame. Measured 2026-11-27: all
    equal on 10,000 frames; the dump (a byte short) loops on both cores with a black screen (its frame 3 is 256
    wide in ours, 320 in GPGX's, which the fixed 320x224 screen does not show: docs/genesis.md, "Equivalence") and
    its work RAM changes once."""
    gpgx = _gpgx()
    if not os.path.exists(DEKADRIVE):
        pytest.skip(f"{DEKADRIVE} is not there")
    ours = retrogym.RetroEmulator(DEKADRIVE, core="genesis")
    theirs = retrogym.RetroEmulator(DEKADRIVE, core=gpgx)
    agree = Agreement("Dekadrive from power-on, ours vs genesis_plus_gx", EQ_STEPS)
    try:
        assert ours.core == "genesis" and theirs.core == "genesis_plus_gx"
        assert ours.get_resolution() == theirs.get_resolution() == (320, 224)
        rams = set()
        for frame, a in enumerate(_actions(EQ_STEPS, seed=23)):
            mask = int(sum(int(v) << i for i, v in enumerate(a)))
            ours.set_button_mask(mask)
            theirs.set_button_mask(mask)
            ours.step()
            theirs.step()
            s1, s2 = ours.get_screen(), theirs.get_screen()
            if s1.shape != s2.shape:
                agree.note(frame, "obs shape", _picture_diff(s1, s2))
            elif not np.array_equal(s1, s2):
                agree.note(frame, "obs bytes", _picture_diff(s1, s2))
            m1, m2 = ours.get_ram(), theirs.get_ram()
            if not np.array_equal(m1, m2):
                agree.note(frame, "RAM", _ram_diff(m1, m2))
            rams.add(hashlib.sha1(m2.tobytes()).hexdigest())
        print(agree.summary())
        assert len(rams) > 1, "GPGX's RAM never changed: nothing was compared"
        assert not agree.first, agree.summary()
    finally:
        ours.close()
        theirs.close()
