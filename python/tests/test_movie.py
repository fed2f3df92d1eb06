"""Movies: retrogym.Movie (stable-retro's methods), recording from RetroEnv (record=, record_movie, stop_record,
movie, movie_path, movie_id), retrogym.playback_movie (identical frames, RAM, rewards and done at every step), round
trips, stable-retro's reference movies of tests/movie/data played back (and compared with stable-retro's own
playback when it is installed), and the errors."""
import gc
import hashlib
import json
import os
import shutil
import subprocess
import sys
import zipfile

import numpy as np
import pytest

import retrogym
from conftest import GAME, MANIFESTS, SOURCE, _stable_retro_cores

MOVIE_DATA = os.path.join(SOURCE, "tests", "movie", "data")
# stable-retro's core for each system (the cores its wheel ships) and the ROM extension it wants
SR_CORES = {"Nes": "fceumm", "Snes": "snes9x", "GameBoy": "gambatte", "GbColor": "gambatte", "GbAdvance": "mgba",
            "PCEngine": "mednafen_pce_fast", "Atari2600": "stella", "Genesis": "genesis_plus_gx",
            "Sms": "genesis_plus_gx", "GameGear": "genesis_plus_gx"}
EXT = {"Nes": "nes", "Snes": "sfc", "GameBoy": "gb", "GbColor": "gbc", "GbAdvance": "gba", "PCEngine": "pce",
       "Atari2600": "a26", "Genesis": "md", "Sms": "sms", "GameGear": "gg"}
ROM = {"Atari2600": "test.a26", "GameBoy": "test.gb", "GbColor": "test.gbc", "GbAdvance": "test.gba",
       "GameGear": "test.gg", "Genesis": "test.md", "Nes": "test.nes", "PCEngine": "test.pce", "Sms": "test.sms",
       "Snes": "test.sfc"}
REFERENCES = sorted(f for f in os.listdir(MOVIE_DATA) if f.startswith("sr-") and f.endswith(".bk2"))


def read_masks(name):
    """The buttons stable-retro recorded in a reference movie (its .masks file): players, game, frames."""
    with open(os.path.join(MOVIE_DATA, name[:-4] + ".masks")) as f:
        system, players, game = f.readline().split()
        frames = [[int(v, 16) for v in line.split()] for line in f if line.strip()]
    return system, int(players), game, frames


def entries(path):
    with zipfile.ZipFile(path) as z:
        return {i.filename: z.read(i.filename) for i in z.infolist()}


def random_episode(env, seed, steps):
    """Plays seeded random actions; returns, per step (0: the reset), the observation, RAM, reward, terminated and
    info."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    trace = [(obs, env.get_ram(), 0.0, False, info)]
    action = None
    for t in range(steps):
        if t % 6 == 0:
            action = rng.integers(0, 2, env.action_space.shape)
        obs, reward, terminated, truncated, info = env.step(action)
        trace.append((obs, env.get_ram(), reward, terminated, info))
        if terminated or truncated:
            break
    return trace


# ---- retrogym.Movie ----

@pytest.mark.parametrize("name", REFERENCES)
def test_movie_reads_references(name):
    system, players, game, frames = read_masks(name)
    m = retrogym.Movie(os.path.join(MOVIE_DATA, name))
    assert (m.system, m.players, m.get_game(), m.frame_count) == (system, players, game, len(frames))
    assert m.format == "bk2" and not m.recording
    assert (len(m.get_state()) > 0) == ("nostate" not in name)
    got = []
    while m.step():
        got.append([sum(int(m.get_key(i, p)) << i for i in range(16)) for p in range(players)])
        assert [m.get_buttons(p) for p in range(players)] == got[-1]
    assert got == frames
    assert m.step() is False and m.position == len(frames)
    assert m.frame_buttons(0) == frames[0][0]
    with pytest.raises(IndexError):
        m.frame_buttons(len(frames))
    m.close()
    m.close()


def test_movie_record_like_stable_retro(tmp_path, env_factory):
    env = env_factory()
    path = tmp_path / "made.bk2"
    m = retrogym.Movie(str(path), True, 2)
    assert m.recording and m.system is None and m.players == 2
    m.configure(GAME, env)
    assert m.system == "Nes" and m.get_game() == GAME
    m.set_state(b"\x01\x02\x03")
    fed = []
    for t in range(20):
        for p in range(2):
            for i in range(9):
                m.set_key(i, (t * 7 + i + p) % 3 == 0, p)
        fed.append([m.get_buttons(p) for p in range(2)])
        assert m.step() is True
    m.close()
    assert path.exists()
    r = retrogym.Movie(path)
    assert (r.players, r.get_game(), r.get_state(), r.frame_count) == (2, GAME, b"\x01\x02\x03", 20)
    assert [[r.frame_buttons(f, p) for p in range(2)] for f in range(20)] == [[b & 0x1FD for b in x] for x in fed]
    assert "P2 Right" in entries(path)["Input Log.txt"].decode()


def test_movie_configure_takes_env_em_or_system_name(tmp_path, env_factory):
    env = env_factory()
    for i, emulator in enumerate([env.em, "Nes", env.unwrapped]):
        m = retrogym.Movie(tmp_path / f"{i}.bk2", record=True)
        m.configure("Game-Nes", emulator)
        assert m.system == "Nes"
        m.close()
    m = retrogym.Movie(tmp_path / "x.bk2", record=True)
    with pytest.raises(TypeError, match="emulator must be"):
        m.configure("Game-Nes", 42)
    with pytest.raises(FileNotFoundError):
        m.configure("Game-Nes", "NoSuchSystem")
    with pytest.warns(RuntimeWarning, match="not written.*no system"):  # dropped unconfigured: nothing to write
        del m
        gc.collect()
    assert not (tmp_path / "x.bk2").exists()


def test_movie_written_by_with_and_by_garbage_collection(tmp_path):
    with retrogym.Movie(tmp_path / "with.bk2", record=True) as m:
        m.configure("G-Nes", "Nes")
        m.set_key(0, True)
        m.step()
    assert retrogym.Movie(tmp_path / "with.bk2").frame_count == 1
    m = retrogym.Movie(tmp_path / "gc.bk2", record=True)
    m.configure("G-Nes", "Nes")
    m.step()
    del m
    gc.collect()
    assert retrogym.Movie(tmp_path / "gc.bk2").frame_count == 1  # stable-retro writes at destruction too


def test_movie_errors(tmp_path):
    with pytest.raises(FileNotFoundError):
        retrogym.Movie(tmp_path / "missing.bk2")
    (tmp_path / "junk.bk2").write_bytes(b"not a movie")
    with pytest.raises(ValueError) as e:
        retrogym.Movie(tmp_path / "junk.bk2")
    assert e.value.rg_error == "RG_ECORRUPT"
    with pytest.raises(FileNotFoundError):
        retrogym.Movie(tmp_path / "no" / "such" / "x.bk2", record=True)
    with pytest.raises(ValueError):
        retrogym.Movie(tmp_path / "x.bk2", True, 9)
    m = retrogym.Movie(os.path.join(MOVIE_DATA, "sr-Nes.bk2"))
    with pytest.raises(ValueError):
        m.get_key(0, 1)
    with pytest.raises(ValueError):
        m.get_key(16)
    with pytest.raises(RuntimeError):
        m.configure("G-Nes", "Nes")  # reading
    w = retrogym.Movie(tmp_path / "w.bk2", record=True)
    with pytest.raises(RuntimeError):
        w.step()  # no system yet
    with pytest.raises(RuntimeError):
        w.close()
    w.configure("G-Nes", "Nes")


def test_movie_round_trip(tmp_path):
    for name in REFERENCES:
        src = os.path.join(MOVIE_DATA, name)
        m = retrogym.Movie(src)
        m.save(tmp_path / "a.bk2")
        retrogym.Movie(tmp_path / "a.bk2").save(tmp_path / "b.bk2")
        want, a, b = entries(src), entries(tmp_path / "a.bk2"), entries(tmp_path / "b.bk2")
        assert a == want == b, name  # stable-retro's own bytes, entry by entry


# ---- recording from RetroEnv and playing back ----

def compare_playback(path, trace, frames_per_step=1, reset_frames=1, **kwargs):
    """Plays a movie back (image, then RAM observations) and checks it against a recorded trace at every step."""
    images = list(retrogym.playback_movie(path, **kwargs))
    rams = list(retrogym.playback_movie(path, obs_type=retrogym.Observations.RAM, **kwargs))
    assert len(images) == len(rams) == reset_frames - 1 + (len(trace) - 1) * frames_per_step or trace[-1][3]
    for s in range(1, len(trace)):
        last = reset_frames - 2 + s * frames_per_step
        if last >= len(images):  # the episode ended inside its last step
            last = len(images) - 1
        obs, _, _, _, info = images[last]
        assert np.array_equal(obs, trace[s][0]), f"step {s}: another frame"
        assert np.array_equal(rams[last][0], trace[s][1]), f"step {s}: other RAM"
        first = reset_frames - 1 + (s - 1) * frames_per_step
        reward = sum(images[f][1] for f in range(first, last + 1))
        assert np.float32(reward) == np.float32(trace[s][2]), f"step {s}"
        assert images[last][2] == trace[s][3]
        assert info == trace[s][4]


@pytest.mark.starcatcher
def test_record_and_play_back(tmp_path, env_factory):
    env = env_factory(record=str(tmp_path))
    assert env.movie_path == str(tmp_path) and env.movie_id == 0 and env.movie is None
    trace = random_episode(env, 3, 3000)
    assert sum(t[2] for t in trace) > 0, "the episode scored: rewards are compared"
    assert env.movie_id == 1
    first = tmp_path / f"{GAME}-Start-000000.bk2"
    if trace[-1][3]:
        assert first.exists() and env.movie is None  # written at the episode's end
    trace2 = random_episode(env, 4, 200)
    assert env.movie.path == str(tmp_path / f"{GAME}-Start-000001.bk2") and env.movie_id == 2
    assert env.movie.frame_count == len(trace2) and env.movie.get_game() == GAME
    assert len(env.movie.get_state()) > 0
    with pytest.raises(RuntimeError, match="stop_record"):
        env.movie.step()
    env.stop_record()
    assert env.movie is None and env.movie_path is None and env.movie_id == 0
    assert sorted(os.listdir(tmp_path)) == [f"{GAME}-Start-000000.bk2", f"{GAME}-Start-000001.bk2"]
    m = retrogym.Movie(first)
    assert m.frame_count == len(trace) and m.players == 1 and m.get_game() == GAME
    rewards = retrogym.movie.recorded_rewards(first)
    assert rewards.core == env.core and rewards.frames == len(trace) and rewards.first == 0
    compare_playback(str(first), trace)
    compare_playback(str(tmp_path / f"{GAME}-Start-000001.bk2"), trace2)


@pytest.mark.starcatcher
def test_record_frameskip_sticky_noops(tmp_path, env_factory):
    """A step of 4 frames writes 4 lines (the buttons held on each, sticky ones included); no-op starts are lines of
    the reset; the playback matches at the end of every step."""
    env = env_factory(frameskip=4, sticky_prob=0.25, noop_max=15)
    env.reset(seed=8)  # right after a reset the episode is recorded whole
    path = tmp_path / "one.bk2"
    env.record_movie(path)
    assert env.movie is not None and env.movie_path is None
    reset_frames = env.movie.frame_count
    assert reset_frames > 1
    rng = np.random.default_rng(1)
    trace = [(env.get_screen(), env.get_ram(), 0.0, False, env.data.lookup_all())]
    for t in range(150):
        obs, reward, terminated, truncated, info = env.step(rng.integers(0, 2, 9))
        trace.append((obs, env.get_ram(), reward, terminated, info))
        if terminated:
            break
    env.reset()  # the movie ends with its episode; recording stops
    assert path.exists() and env.movie is None
    assert retrogym.Movie(path).frame_count == reset_frames + 4 * (len(trace) - 1) or trace[-1][3]
    compare_playback(str(path), trace, frames_per_step=4, reset_frames=reset_frames)


@pytest.mark.starcatcher
def test_recording_changes_nothing(tmp_path, env_factory):
    a = env_factory(sticky_prob=0.3, noop_max=10, frameskip=2)
    b = env_factory(sticky_prob=0.3, noop_max=10, frameskip=2, record=str(tmp_path))
    ta, tb = random_episode(a, 9, 300), random_episode(b, 9, 300)
    assert len(ta) == len(tb)
    for x, y in zip(ta, tb):
        assert np.array_equal(x[0], y[0]) and np.array_equal(x[1], y[1]) and x[2:] == y[2:]
    assert a.clone_state() == b.clone_state()


@pytest.mark.starcatcher
def test_record_true_uses_the_current_folder(tmp_path, monkeypatch, env_factory):
    monkeypatch.chdir(tmp_path)
    env = env_factory(record=True, state=retrogym.State.NONE)
    env.reset(seed=0)
    env.step(env.action_space.sample())
    env.close()  # writes the movie
    assert os.listdir(tmp_path) == [f"{GAME}-none-000000.bk2"]
    assert retrogym.Movie(f"{GAME}-none-000000.bk2").get_state() == b""  # power-on: no Core.bin


@pytest.mark.starcatcher
def test_recorded_rewards_are_checked(tmp_path, env_factory):
    env = env_factory(max_episode_steps=400)
    path = tmp_path / "r.bk2"
    env.record_movie(path)
    trace = random_episode(env, 5, 1000)
    assert path.exists() and env.movie is None  # truncated at 400: written, recording over
    scored = [f for f in range(len(trace)) if trace[f][2] or trace[f][3]]
    data = entries(path)
    text = data["retrogym.txt"].decode().splitlines()
    assert text[:4] == ["retrogym-scores 1", f"core {env.core}", "players 1", "first 0"]
    assert [int(line.split()[0]) for line in text[5:]] == scored
    # A changed reward: playback_movie stops at that frame.
    frame = scored[0] if scored else 10
    lines = [line for line in text if not line.startswith(f"{frame} ")]
    lines.append(f"{frame} 99 0")
    lines = lines[:5] + sorted(lines[5:], key=lambda s: int(s.split()[0]))
    data["retrogym.txt"] = ("\n".join(lines) + "\n").encode()
    bad = tmp_path / "bad.bk2"
    with zipfile.ZipFile(bad, "w") as z:
        for name, content in data.items():
            z.writestr(name, content)
    with pytest.raises(ValueError, match=f"differs from the recording at frame {frame}"):
        for _ in retrogym.playback_movie(bad):
            pass
    assert len(list(retrogym.playback_movie(bad, verify=False))) == len(trace) - 1


# ---- stable-retro's reference movies ----

def make_reference_integration(root, system):
    game = f"MovieTest{system}-{system}"
    d = os.path.join(root, game)
    if os.path.isdir(d):
        return game
    os.makedirs(d)
    rom = os.path.join(d, "rom." + EXT[system])
    shutil.copy(os.path.join(SOURCE, "tests", "roms", "bin", ROM[system]), rom)
    with open(rom, "rb") as f:
        data = f.read()
    with open(os.path.join(d, "rom.sha"), "w") as f:
        f.write(hashlib.sha1(data[16:] if system == "Nes" else data).hexdigest() + "\n")
    # The test ROM's frame counter and pad copy as variables: info shows what each frame did.
    manifest = next(m for _, m in MANIFESTS if m["system"] == system)
    pad = manifest["pad"]
    pad_type = "|u1" if pad["bytes"] == 1 else ("<" if pad["endian"] == "little" else ">") + "u2"
    variables = {"counter": {"address": manifest["counter"]["addr"], "type": "|u1"},
                 "pad": {"address": pad["addr"], "type": pad_type}}
    with open(os.path.join(d, "data.json"), "w") as f:
        json.dump({"info": variables}, f)
    with open(os.path.join(d, "scenario.json"), "w") as f:
        json.dump({"reward": {"variables": {}}, "done": {"variables": {}}}, f)
    with open(os.path.join(d, "metadata.json"), "w") as f:
        json.dump({}, f)
    return game


# stable-retro plays a movie back the way its playback_movie script does; prints every step's picture hash and info.
SR_PLAYBACK = """
import hashlib, json, sys, stable_retro as retro
root, path = sys.argv[1:3]
retro.data.Integrations.add_custom_path(root)
m = retro.Movie(path)
m.step()
env = retro.make(game=m.get_game(), state=retro.State.NONE, use_restricted_actions=retro.Actions.ALL,
                 players=m.players, inttype=retro.data.Integrations.CUSTOM_ONLY, render_mode=None)
env.initial_state = m.get_state()
env.reset()
out = []
while m.step():
    keys = [m.get_key(i, p) for p in range(m.players) for i in range(env.num_buttons)]
    obs, _, _, _, info = env.step(keys)
    out.append([hashlib.sha1(obs.tobytes()).hexdigest(), info])
print(json.dumps(out))
"""
# Systems whose picture differs from stable-retro's on the same core whatever the input (a host matter, not the
# movie's): gambatte's Game Boy palette (grey 160 here, 168 there) and the PC Engine's height (240 here, 242 there).
# Their variables (the test ROM's frame counter and pad copy) are compared all the same.
PICTURE_DIFFERS = {"GameBoy", "PCEngine"}


@pytest.fixture(scope="module")
def reference_root(tmp_path_factory):
    return str(tmp_path_factory.mktemp("references"))


def sha1s(arrays):
    return [hashlib.sha1(a.tobytes()).hexdigest() for a in arrays]


@pytest.mark.parametrize("name", REFERENCES)
def test_reference_movies_play_back(name, reference_root, saved_data_settings):
    """Each reference movie plays back on stable-retro's core for its system; with stable-retro installed, its own
    playback of the movie gives the same variables (frame counter, pad copy) and picture at every step."""
    system, players, game, frames = read_masks(name)
    folder = _stable_retro_cores()
    core = os.path.join(folder, SR_CORES[system] + "_libretro.so") if folder else None
    path = os.path.join(MOVIE_DATA, name)
    power_on = not retrogym.Movie(path).get_state()
    if core is None or not os.path.exists(core):
        if not power_on:
            pytest.skip(f"stable-retro's {SR_CORES[system]} core is not installed")
        core = None  # a power-on movie plays on any installed core
        installed = {c["name"] for c in retrogym.data.list_cores()}
        if not set(retrogym.get_system_info(system)["cores"]) & installed:
            pytest.skip(f"no core for {system}")
    make_reference_integration(reference_root, system)
    retrogym.data.add_custom_path(reference_root)
    kwargs = {"core": core} if core else {}
    kwargs["inttype"] = retrogym.Integrations.CUSTOM_ONLY
    steps = list(retrogym.playback_movie(path, **kwargs))
    pictures, infos = sha1s(step[0] for step in steps), [step[4] for step in steps]
    assert len(steps) == len(frames) - 1
    assert len({i["counter"] for i in infos}) > 1, "the ROM runs"
    if core is None or power_on:
        return  # stable-retro cannot read a movie without Core.bin
    try:
        import stable_retro  # noqa: F401
    except ImportError:
        return
    out = subprocess.run([sys.executable, "-c", SR_PLAYBACK, reference_root, path], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    theirs = json.loads(out.stdout.strip().splitlines()[-1])
    assert len(theirs) == len(infos)
    differ = [i + 1 for i, (ours, t) in enumerate(zip(infos, theirs)) if ours != t[1]]
    assert not differ, f"{name}: stable-retro has other variables after frames {differ[:10]}"
    assert len({t[1]["pad"] for t in theirs}) > 2, "the buttons reach the ROM"
    if system not in PICTURE_DIFFERS:
        differ = [i + 1 for i, (ours, t) in enumerate(zip(pictures, theirs)) if ours != t[0]]
        assert not differ, f"{name}: stable-retro shows other pictures at frames {differ[:10]}"


# ---- errors ----

def test_playback_errors(tmp_path, env_factory):
    with pytest.raises(FileNotFoundError):
        next(retrogym.playback_movie(tmp_path / "missing.bk2"))
    (tmp_path / "junk.bk2").write_bytes(b"junk")
    with pytest.raises(ValueError):
        next(retrogym.playback_movie(tmp_path / "junk.bk2"))
    m = retrogym.Movie(tmp_path / "nogame.bk2", record=True)
    m.configure("NoSuchGame-Nes", "Nes")
    m.step()
    m.step()
    m.close()
    with pytest.raises(FileNotFoundError, match="NoSuchGame-Nes"):
        next(retrogym.playback_movie(tmp_path / "nogame.bk2"))
    with pytest.raises(TypeError, match="frame by frame"):
        next(retrogym.playback_movie(tmp_path / "nogame.bk2", frameskip=4))
    m = retrogym.Movie(tmp_path / "empty.bk2", record=True)
    m.configure("", "Nes")
    m.step()
    m.step()
    m.close()
    with pytest.raises(ValueError, match="names no game"):
        next(retrogym.playback_movie(tmp_path / "empty.bk2"))
    fm2 = tmp_path / "t.fm2"
    fm2.write_text("version 3\nromFilename x\nport0 1\nport1 0\nport2 0\n" + "|0|R.......|||\n" * 30)
    assert retrogym.Movie(fm2).format == "fm2" and retrogym.Movie(fm2).get_game() == ""
    with pytest.raises(ValueError, match="names no game"):
        next(retrogym.playback_movie(fm2))
    if "nestopia" in {c["name"] for c in retrogym.data.list_cores()}:
        assert len(list(retrogym.playback_movie(fm2, game=GAME))) == 29  # power-on start, no rewards to check
    with pytest.raises(ValueError, match="record must be"):
        retrogym.make(GAME, record=42)
    if "nestopia" not in {c["name"] for c in retrogym.data.list_cores()}:
        return
    m = retrogym.Movie(tmp_path / "snes.bk2", record=True)
    m.configure(GAME, "Snes")
    m.step()
    m.step()
    m.close()
    with pytest.raises(ValueError, match="the movie is for Snes"):
        next(retrogym.playback_movie(tmp_path / "snes.bk2"))
    m = retrogym.Movie(tmp_path / "state.bk2", record=True)
    m.configure(GAME, "Nes")
    m.set_state(b"not a nestopia state")
    m.step()
    m.step()
    m.close()
    with pytest.raises(ValueError, match="Core.bin"):
        next(retrogym.playback_movie(tmp_path / "state.bk2"))
    with pytest.raises(FileNotFoundError, match="no such folder"):
        retrogym.make(GAME, record=str(tmp_path / "nowhere"))
    env = env_factory()
    with pytest.raises(FileNotFoundError):
        env.record_movie(tmp_path / "nowhere" / "x.bk2")
    env.stop_record()  # not recording: nothing to do
    env.close()
    assert env.movie is None and env.movie_id == 0
    with pytest.raises(RuntimeError, match="closed"):
        env.record_movie(tmp_path / "x.bk2")
