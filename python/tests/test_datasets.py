"""Minari datasets (retrogym.datasets): episodes recorded from make and make_vec and a .bk2 movie converted, read back
with minari.load_dataset and replayed in a fresh environment to the same observations, rewards and infos; the bad
inputs. Skipped without Minari and its HDF5 storage (h5py): `pip install 'minari[hdf5]'`."""
import sys

import numpy as np
import pytest

import retrogym
from conftest import GAME

minari = pytest.importorskip("minari", reason="Minari is not installed (pip install 'minari[hdf5]')")
pytest.importorskip("h5py", reason="h5py (Minari's HDF5 storage) is not installed")

from retrogym import datasets  # noqa: E402

pytestmark = pytest.mark.starcatcher

# The README's StarCatcher script: RIGHT from step 30 to 79, then nothing; the first star is caught at step 469.
SCORING_STEP = 469


def scripted(env):
    step = [0]

    def policy(obs):
        a = np.zeros(env.num_buttons, np.int8)
        if 30 <= step[0] < 80:
            a[env.buttons.index("RIGHT")] = 1
        step[0] += 1
        return a
    return policy


def check_replay(dataset, episode, env, seed=None, cut=False):
    """Replays a stored episode in env and compares everything it gives with what the dataset holds (``cut``: the
    recording, not the environment, ended the episode with its last step truncated)."""
    seen = datasets.replay(episode, env, datasets.episode_seed(dataset, episode) if seed is None else seed)
    assert seen["observations"].shape == episode.observations.shape
    assert np.array_equal(seen["observations"], episode.observations)
    assert np.array_equal(seen["rewards"], episode.rewards)
    assert np.array_equal(seen["terminations"], episode.terminations)
    if cut:
        assert episode.truncations[-1] and not seen["truncations"][-1]
        assert np.array_equal(seen["truncations"][:-1], episode.truncations[:-1])
    else:
        assert np.array_equal(seen["truncations"], episode.truncations)
    for key, values in episode.infos.items():
        assert [info[key] for info in seen["infos"]] == values.tolist(), key
    return seen


def test_record_images_and_replay(tmp_path, env_factory):
    env = env_factory(max_episode_steps=40)
    did = datasets.dataset_id(GAME, "random")
    assert did == f"retrogym/{GAME}/random-v0"
    datasets.record(env, did, 2, seed=7, root=tmp_path)
    assert (tmp_path / "retrogym" / GAME / "random-v0" / "data").is_dir()
    with pytest.MonkeyPatch.context() as mp:  # Minari's own loader finds it under the same root
        mp.setenv("MINARI_DATASETS_PATH", str(tmp_path))
        ds = minari.load_dataset(did)
    assert ds.total_episodes == 2 and ds.total_steps == 80
    assert ds.observation_space == env.observation_space and ds.action_space == env.action_space
    fresh = env_factory(max_episode_steps=40)
    for k, ep in enumerate(ds.iterate_episodes()):
        assert ep.observations.shape == (41, 224, 256, 3) and ep.observations.dtype == np.uint8
        assert ep.actions.shape == (40, env.num_buttons) and len(ep.rewards) == 40
        assert ep.truncations[-1] and not ep.truncations[:-1].any() and not ep.terminations.any()
        assert set(ep.infos) >= {"score", "lives", "player_x"} and len(ep.infos["lives"]) == 41
        assert datasets.episode_seed(ds, ep) == 7 + k
        check_replay(ds, ep, fresh)
    # the actions matter: another episode's actions do not reproduce this one's frames
    eps = list(ds.iterate_episodes())
    seen = datasets.replay(eps[1], fresh, 7)
    assert not np.array_equal(seen["observations"], eps[0].observations)


def test_scoring_episode_replays_to_the_same_rewards(tmp_path, env_factory):
    env = env_factory(obs_type=retrogym.Observations.RAM)
    did = datasets.dataset_id(GAME, "scripted")
    datasets.record(env, did, 1, policy=scripted(env), seed=0, max_steps=SCORING_STEP + 5, root=tmp_path)
    ds = datasets.load(did, root=tmp_path)
    ep = next(ds.iterate_episodes())
    assert len(ep) == SCORING_STEP + 5 and ep.truncations[-1]
    assert np.flatnonzero(ep.rewards).tolist() == [SCORING_STEP] and ep.rewards[SCORING_STEP] == 10.0
    assert ep.infos["score"][SCORING_STEP + 1] == 10  # infos: the reset's first
    fresh = env_factory(obs_type=retrogym.Observations.RAM)
    assert check_replay(ds, ep, fresh, cut=True)["rewards"].sum() == 10.0
    # other actions give other rewards: the replay check can fail
    idle = type(ep)(**{**ep.__dict__, "actions": np.zeros_like(ep.actions)})
    assert datasets.replay(idle, fresh, 0)["rewards"].sum() == 0.0


def test_record_vec_per_env_episodes(tmp_path, env_factory):
    venv = retrogym.make_vec(GAME, 2, max_episode_steps=25, seed=None)
    try:
        rng = np.random.default_rng(1)
        did = datasets.dataset_id(GAME, "vec")
        datasets.record_vec(venv, did, 3, seed=11, root=tmp_path,
                            policy=lambda obs: rng.integers(0, 2, venv.action_space.shape, dtype=np.int8))
    finally:
        venv.close()
    ds = datasets.load(did, root=tmp_path)
    assert ds.total_episodes == 3 and ds.total_steps == 75
    eps = list(ds.iterate_episodes())
    assert [datasets.episode_seed(ds, e) for e in eps] == [11, 12, None]  # env 0, env 1, env 0's second
    fresh = env_factory(max_episode_steps=25)
    for ep in eps:
        assert ep.observations.shape == (26, 224, 256, 3) and ep.truncations[-1]
        check_replay(ds, ep, fresh, seed=datasets.episode_seed(ds, ep) or 0)
    assert not np.array_equal(eps[0].actions, eps[1].actions)


def test_movie_to_dataset(tmp_path, env_factory):
    env = env_factory(obs_type=retrogym.Observations.RAM)
    movie = tmp_path / "scripted.bk2"
    env.record_movie(movie)
    policy = scripted(env)
    obs, info = env.reset(seed=0)
    trace = [(obs, 0.0, info)]
    for _ in range(SCORING_STEP + 3):
        obs, reward, _, _, info = env.step(policy(obs))
        trace.append((obs, reward, info))
    env.stop_record()
    did = datasets.dataset_id(GAME, "movie")
    ds = datasets.movie_to_dataset(movie, did, root=tmp_path, obs_type=retrogym.Observations.RAM)
    assert retrogym.Movie(movie).frame_count == len(trace)
    ds = datasets.load(did, root=tmp_path)
    assert ds.total_episodes == 1
    ep = next(ds.iterate_episodes())
    assert len(ep) == len(trace) - 1 and ep.truncations[-1] and not ep.terminations.any()
    assert np.array_equal(ep.observations, np.stack([t[0] for t in trace]))
    assert ep.rewards.tolist() == [t[1] for t in trace[1:]] and ep.rewards.sum() == 10.0
    assert ep.infos["score"].tolist() == [t[2]["score"] for t in trace]
    replay_env = env_factory(obs_type=retrogym.Observations.RAM, use_restricted_actions=retrogym.Actions.ALL)
    check_replay(ds, ep, replay_env, cut=True)
    # images too (the default observations)
    ds2 = datasets.movie_to_dataset(movie, datasets.dataset_id(GAME, "movie", 1), root=tmp_path)
    assert next(ds2.iterate_episodes()).observations.shape == (len(trace), 224, 256, 3)


def test_bad_input(tmp_path, env_factory, monkeypatch):
    env = env_factory(max_episode_steps=5)
    with pytest.raises(ValueError, match="no Minari dataset retrogym/Nope/none-v0"):
        datasets.load("retrogym/Nope/none-v0", root=tmp_path)
    for bad in ("no-version", "a/b/c/d-v0", ""):
        with pytest.raises(ValueError, match="Minari dataset id"):
            datasets.record(env, bad, 1, root=tmp_path)
    with pytest.raises(ValueError, match="a dataset name"):
        datasets.dataset_id(GAME, "with/slash")
    did = datasets.dataset_id(GAME, "once")
    datasets.record(env, did, 1, seed=0, root=tmp_path)
    with pytest.raises(ValueError, match="already exists"):  # and the first one is kept
        datasets.record(env, did, 2, root=tmp_path)
    assert datasets.load(did, root=tmp_path).total_episodes == 1
    # a movie of another game
    movie = tmp_path / "m.bk2"
    env.record_movie(movie)
    env.reset(seed=0)
    for _ in range(3):
        env.step(env.action_space.sample())
    env.stop_record()
    with pytest.raises(ValueError, match=f"is a movie of {GAME}, not of Airstriker-Genesis"):
        datasets.movie_to_dataset(movie, datasets.dataset_id(GAME, "wrong"), game="Airstriker-Genesis",
                                  root=tmp_path)
    with pytest.raises(TypeError, match="frameskip cannot be set"):
        datasets.movie_to_dataset(movie, datasets.dataset_id(GAME, "fs"), frameskip=4, root=tmp_path)
    with pytest.raises(Exception, match="garbage|movie|bk2|zip"):
        (tmp_path / "junk.bk2").write_bytes(b"garbage")
        datasets.movie_to_dataset(tmp_path / "junk.bk2", datasets.dataset_id(GAME, "junk"), root=tmp_path)
    assert not (tmp_path / "retrogym" / GAME / "wrong-v0").exists()
    assert not (tmp_path / "retrogym" / GAME / "junk-v0").exists()
    # without Minari: a clear ImportError naming the extra
    monkeypatch.setitem(sys.modules, "minari", None)
    with pytest.raises(ImportError, match=r"retrogym\[minari\]"):
        datasets.record(env, datasets.dataset_id(GAME, "none"), 1, root=tmp_path)
