"""ALE's conventions on our Atari env (retrogym.atari, issue 17): ALE's reset sequence from power-on, minimal action
sets and their names, lives, the ``retrogym/<Game>-v5`` ids for gymnasium.make / make_vec, and Gymnasium's
AtariPreprocessing over our env. Real games: stable-retro's Pong and Breakout integrations with ale-py's ROMs (skipped
without either wheel)."""
import hashlib
import importlib.util
import os
import shutil

import gymnasium as gym
import numpy as np
import pytest

import retrogym
from retrogym import atari
from retrogym.ale_games import GAMES


def _package_dir(name):
    spec = importlib.util.find_spec(name)
    return os.path.dirname(spec.origin) if spec and spec.origin else None


ALE = _package_dir("ale_py")
SR = _package_dir("stable_retro")
ROMS = os.path.join(ALE, "roms") if ALE else None
SR_STABLE = os.path.join(SR, "data", "stable") if SR else None
pytestmark = pytest.mark.skipif(not (ROMS and os.path.isdir(ROMS) and SR_STABLE and os.path.isdir(SR_STABLE)),
                                reason="ale-py (with its ROMs) or stable-retro is not installed")


@pytest.fixture
def ale_root(saved_data_settings, tmp_path):
    """A data root holding stable-retro's Atari integrations of the table with ale-py's ROMs (rom.sha checked)."""
    for game in GAMES:
        dst = tmp_path / "stable" / game
        shutil.copytree(os.path.join(SR_STABLE, game), dst)
        rom = os.path.join(ROMS, GAMES[game]["rom"] + ".bin")
        with open(rom, "rb") as f:
            assert hashlib.sha1(f.read()).hexdigest() == (dst / "rom.sha").read_text().split()[0]
        shutil.copy(rom, dst / "rom.a26")
    saved_data_settings.set_path(str(tmp_path))
    saved_data_settings.clear_custom_paths()
    return tmp_path


def _ale_env(name, **kwargs):
    import ale_py

    gym.register_envs(ale_py)
    return gym.make(f"ALE/{name}-v5", **kwargs)


def _play(env, steps, seed):
    """Random actions until the episode ends: (steps taken, non-zero rewards, terminated)."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    nonzero = 0
    for t in range(steps):
        _, reward, terminated, truncated, _ = env.step(int(rng.integers(env.action_space.n)))
        nonzero += reward != 0
        if terminated or truncated:
            return t + 1, nonzero, terminated
    return steps, nonzero, False


@pytest.mark.parametrize("name", ["Pong", "Breakout"])
def test_ale_reset_sequence_scores_and_ends_episodes(ale_root, name):
    env = gym.make(f"retrogym/{name}-v5")
    try:
        scored = 0
        for seed in range(3):  # a random Breakout player may score nothing in one episode; not in three
            steps, nonzero, terminated = _play(env, 5000, seed)
            assert terminated and 50 < steps < 5000, (seed, steps, nonzero)
            scored += nonzero
        assert scored > 0
    finally:
        env.close()


def test_power_on_without_reset_sequence_never_starts(ale_root):
    """The contrast: from a plain power-on nobody presses RESET, Breakout shows 0 lives and its scenario ends the
    episode at the first step, every time; after ALE's reset sequence it has 5 lives and runs."""
    plain = retrogym.make("Breakout-Atari2600-v0", state=retrogym.State.NONE, frameskip=4,
                          use_restricted_actions=retrogym.Actions.DISCRETE)
    ale = gym.make("retrogym/Breakout-v5", repeat_action_probability=0.0)
    try:
        for seed in range(3):
            plain.reset(seed=seed)
            _, _, terminated, _, info = plain.step(plain.action_space.sample())
            assert terminated and info["lives"] == 0
        _, info = ale.reset(seed=0)
        assert info["lives"] == 5
        assert not any(ale.step(1)[2] for _ in range(50))
    finally:
        plain.close()
        ale.close()


def test_defaults_are_ale_v5(ale_root):
    env = gym.make("retrogym/Pong-v5")
    try:
        u = env.unwrapped
        assert isinstance(u, atari.AtariEnv)
        assert u._frameskip == 4 and u.frameskip == 4 and u.repeat_action_probability == 0.25
        assert u.max_num_frames_per_episode == 108000 and u.episode_steps == 0
        assert env.observation_space.shape == (210, 160, 3) and env.action_space == gym.spaces.Discrete(6)
        obs, info = env.reset(seed=0)
        assert obs.shape == (210, 160, 3) and info["lives"] == 0 and info["episode_frame_number"] == 0
        _, _, _, _, info = env.step(0)
        assert info["episode_frame_number"] == 4
    finally:
        env.close()
    full = gym.make("retrogym/Breakout-v5", full_action_space=True, obs_type="grayscale")
    try:
        assert full.action_space == gym.spaces.Discrete(18)
        assert full.unwrapped.get_action_meanings() == atari.ACTION_MEANINGS
        obs, _ = full.reset(seed=0)
        assert obs.shape == (210, 160) == full.observation_space.shape
    finally:
        full.close()


def test_action_meanings_and_minimal_sets_equal_ale(ale_root):
    for name in ("Pong", "Breakout"):
        ours, theirs = gym.make(f"retrogym/{name}-v5"), _ale_env(name)
        try:
            assert ours.unwrapped.get_action_meanings() == theirs.unwrapped.get_action_meanings()
            assert ours.action_space.n == theirs.action_space.n
        finally:
            ours.close()
            theirs.close()
    import ale_py

    assert atari.ACTION_MEANINGS == [a.name for a in ale_py.Action][:18]
    for game, facts in GAMES.items():  # the whole table against ALE's own minimal sets
        ale = ale_py.ALEInterface()
        ale.setLoggerMode(ale_py.LoggerMode.Error)
        ale.loadROM(os.path.join(ROMS, facts["rom"] + ".bin"))
        assert atari.action_set(game) == [a.value for a in ale.getMinimalActionSet()], game


def test_lives_equal_ale_breakout(ale_root):
    """Breakout's lives in info equal ale-py's over 2,000 random steps (no sticky actions), our RAM made ALE's after
    the reset: ALE's reset leaves 2 RAM bytes otherwise than ours, which changes the game's course (docs/compat.md).
    The step at which either episode ends is left out (ALE's lives() after game over follows other rules)."""
    ours = gym.make("retrogym/Breakout-v5", repeat_action_probability=0.0)
    theirs = _ale_env("Breakout", repeat_action_probability=0.0)
    try:
        _, a = ours.reset(seed=0)
        _, b = theirs.reset(seed=0)
        ours.unwrapped.data.memory.write(0x80, bytes(theirs.unwrapped.ale.getRAM()))
        got, want = [a["lives"]], [b["lives"]]
        rng = np.random.default_rng(0)
        for _ in range(2000):
            action = int(rng.integers(ours.action_space.n))
            _, _, ta, tra, a = ours.step(action)
            _, _, tb, trb, b = theirs.step(action)
            if ta or tb or tra or trb:
                break
            got.append(a["lives"])
            want.append(b["lives"])
        assert got == want and len(set(got)) > 1  # lives were lost on the way
    finally:
        ours.close()
        theirs.close()


def test_lives_rules_equal_ale_on_ales_ram(ale_root):
    """Every game whose lives ALE reads by a rule the table holds (30 of 32): ALE's RAM written into ours after each
    of 300 random ALE steps, our env's lives (env.unwrapped.ale.lives(), info["lives"]'s rule) equal ALE's."""
    import ale_py

    ruled = sorted(g for g, f in GAMES.items() if f["ale_lives"] is not None)
    assert len(ruled) >= 30
    changed = 0
    for game in ruled:
        ours = atari.AtariEnv(game, repeat_action_probability=0.0)
        ale = ale_py.ALEInterface()
        ale.setLoggerMode(ale_py.LoggerMode.Error)
        ale.setFloat("repeat_action_probability", 0.0)
        ale.loadROM(os.path.join(ROMS, GAMES[game]["rom"] + ".bin"))
        try:
            ours.reset(seed=0)
            ale.reset_game()
            acts = ale.getMinimalActionSet()
            rng = np.random.default_rng(1)
            seen = set()
            for _ in range(300):
                action = acts[rng.integers(len(acts))]
                for _ in range(4):
                    ale.act(action)
                if ale.game_over():
                    break
                ours.data.memory.write(0x80, bytes(ale.getRAM()))
                assert ours.ale.lives() == ale.lives(), game
                seen.add(ale.lives())
            changed += len(seen) > 1
        finally:
            ours.close()
    assert changed >= 5  # not only constants


def test_fire_reset_launches_breakout(ale_root):
    """Breakout waits for FIRE to launch the ball: with fire_reset the idle player loses lives, without it none."""
    def lives_after_noops(**kwargs):
        env = atari.AtariEnv("Breakout", repeat_action_probability=0.0, **kwargs)
        try:
            _, info = env.reset(seed=0)
            for _ in range(300):
                _, _, terminated, _, info = env.step(0)
                if terminated:
                    break
            return info["lives"]
        finally:
            env.close()

    assert lives_after_noops() == 5
    assert lives_after_noops(fire_reset=True) < 5
    assert atari.reset_sequence("Breakout", fire_reset=True) == atari.reset_sequence("Breakout") + [1]
    assert atari.reset_sequence("Pong", fire_reset=True)[-1] == 1  # Pong's minimal set has FIRE
    assert atari.reset_sequence("Freeway", fire_reset=True) == atari.reset_sequence("Freeway")  # no FIRE there


def test_episodic_life(ale_root):
    """A lost life ends the episode; reset() goes on from there (one no-op step) until the game is over, then it
    starts a new game."""
    env = atari.AtariEnv("Breakout", repeat_action_probability=0.0, episodic_life=True, fire_reset=True)
    try:
        _, info = env.reset(seed=0)
        lives = [info["lives"]]
        assert lives == [5]
        rng = np.random.default_rng(0)
        for _ in range(6):  # at most 5 lives: the sixth episode is a new game
            for _ in range(5000):
                _, _, terminated, truncated, info = env.step(int(rng.integers(4)))
                if terminated or truncated:
                    break
            assert terminated and info["lives"] == lives[-1] - 1
            _, info = env.reset()
            lives.append(info["lives"])
            if lives[-1] == 5:
                break
        assert lives[:5] == [5, 4, 3, 2, 1] and lives[-1] == 5
    finally:
        env.close()


def test_atari_preprocessing_wraps_our_env(ale_root):
    env = gym.wrappers.AtariPreprocessing(gym.make("retrogym/Breakout-v5", frameskip=1), terminal_on_life_loss=True)
    try:
        obs, _ = env.reset(seed=0)
        assert obs.shape == (84, 84) and obs.dtype == np.uint8
        assert env.lives == 5
        for _ in range(50):
            obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
            assert obs.shape == (84, 84)
            if terminated or truncated:
                break
        # its frames are ours: the grayscale screen it reads is ALE's formula on our RGB screen
        rgb = env.unwrapped.ale.getScreenRGB()
        gray = np.zeros(rgb.shape[:2], np.uint8)
        env.unwrapped.ale.getScreenGrayscale(gray)
        want = np.rint(rgb @ np.array([0.299, 0.587, 0.114])).astype(np.uint8)
        assert np.array_equal(gray, want)
    finally:
        env.close()


def test_make_vec_gives_envpool_defaults(ale_root):
    envs = gym.make_vec("retrogym/Pong-v5", num_envs=3, num_threads=2)
    try:
        assert isinstance(envs, atari.AtariVectorEnv)
        assert envs.single_action_space == gym.spaces.Discrete(6) and envs.num_threads == 2
        obs, _ = envs.reset(seed=0)
        assert obs.shape == (3, 4, 84, 84) and obs.dtype == np.uint8
        total = np.zeros(3)
        for _ in range(300):
            obs, rewards, _, _, _ = envs.step(envs.action_space.sample())
            total += rewards != 0
        assert obs.shape == (3, 4, 84, 84) and total.sum() > 0  # the games run and score
        with pytest.raises(ValueError, match="actions must be ints"):
            envs.step(np.array([6, 0, 0]))
        with pytest.raises(ValueError, match="actions must be ints"):  # negative ids too (checked as unsigned)
            envs.step(np.array([0, -1, 0]))
        with pytest.raises(ValueError, match="actions must be ints"):
            envs.step(np.array([0, 1, -128], dtype=np.int8))
    finally:
        envs.close()


def test_make_vec_lives_are_ales(ale_root):
    """The vector env's infos["lives"] follow ALE's rule (Breakout: 5, then lost to an idle player once FIRE
    launched the ball); the byte it reads is not left in the infos."""
    envs = gym.make_vec("retrogym/Breakout-v5", num_envs=2, num_threads=1, noop_max=0)
    try:
        _, infos = envs.reset(seed=0)
        assert list(infos["lives"]) == [5, 5] and infos["_lives"].all()
        assert not any(k.startswith("_ale") or k.startswith("__ale") for k in infos)
        seen = set()
        for _ in range(300):
            _, _, _, _, infos = envs.step(np.zeros(2, dtype=np.int64))
            seen.update(int(v) for v in infos["lives"])
        assert min(seen) < 5
    finally:
        envs.close()
    pong = gym.make_vec("retrogym/Pong-v5", num_envs=2, num_threads=1)
    try:
        _, infos = pong.reset(seed=0)
        assert list(infos["lives"]) == [0, 0]
    finally:
        pong.close()


def test_make_vec_clips_rewards_as_envpool(ale_root):
    """EnvPool's reward_clip=True: Seaquest's kills (20 points each) come as 1; reward_clip=None keeps them."""
    for clip, top in ((1.0, 1.0), (None, 20.0)):
        envs = gym.make_vec("retrogym/Seaquest-v5", num_envs=2, num_threads=1, reward_clip=clip)
        try:
            envs.reset(seed=0)
            rng = np.random.default_rng(0)
            rewards = [envs.step(rng.integers(0, 18, size=2))[1] for _ in range(1500)]
            assert np.abs(rewards).max() == top, (clip, np.abs(rewards).max())
        finally:
            envs.close()


def test_bad_input_is_refused(ale_root):
    with pytest.raises(ValueError, match="not an Atari game"):
        atari.AtariEnv("NoSuchGame")
    with pytest.raises(ValueError, match="stochastic"):
        atari.AtariEnv("Pong", frameskip=(2, 5))
    with pytest.raises(ValueError, match="obs_type"):
        atari.AtariEnv("Pong", obs_type="rgb_array")
    with pytest.raises(ValueError, match="mode and difficulty"):
        atari.AtariEnv("Pong", mode=1)
    env = atari.AtariEnv("Pong")
    try:
        env.reset(seed=0)
        with pytest.raises(ValueError, match=r"not in \[0, 6\)"):
            env.step(6)
    finally:
        env.close()
    with pytest.raises(ValueError, match="power-on"):  # a reset sequence with the integration's Start state
        retrogym.make("Pong-Atari2600-v0", reset_sequence=[0, 8])
    with pytest.raises(ValueError, match="button mask"):
        retrogym.make("Pong-Atari2600-v0", state=retrogym.State.NONE, reset_sequence=[70000])
    with pytest.raises(ValueError, match="reset_sequence"):
        retrogym.make("Pong-Atari2600-v0", state=retrogym.State.NONE, reset_sequence=["x"])


def test_user_path_import_then_ids(tmp_path):
    """A user's path, in a child Python with stable-retro discovered: importing ale-py's ROM folder into the user
    root (by hash) covers every v5 game, and gym.make / gym.make_vec of an id then run with no other setup."""
    import subprocess
    import sys
    import json

    env = {k: v for k, v in os.environ.items() if k not in ("RETROGYM_STABLE_RETRO", "RETROGYM_DATA_PATH")}
    env["XDG_DATA_HOME"] = str(tmp_path / "xdg")
    code = f"""
import json, gymnasium as gym, retrogym
from retrogym.ale_games import GAMES
report = retrogym.data.import_roms({ROMS!r})
imported = sorted(game for game, _ in report["imported"])
env = gym.make("retrogym/Seaquest-v5")
obs, info = env.reset(seed=0)
vec = gym.make_vec("retrogym/Seaquest-v5", num_envs=2, num_threads=1)
vobs, _ = vec.reset(seed=0)
print(json.dumps({{"missing": sorted(set(GAMES) - set(imported)), "shape": list(obs.shape),
                  "vshape": list(vobs.shape), "lives": info["lives"], "n": int(env.action_space.n)}}))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got == {"missing": [], "shape": [210, 160, 3], "vshape": [2, 4, 84, 84], "lives": 4, "n": 18}
