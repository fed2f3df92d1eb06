"""Movies from vector environments (make_vec(record=...), RetroVectorEnv.auto_record/stop_record, the C
rg_pool_record_dir): one subfolder per environment, one movie per episode across autoresets, each playing back to
the rewards the vector environment returned and equal to what a single RetroEnv records; recording calls while steps
are in flight, folders that cannot be made or written, and bad arguments."""
import os
import zipfile

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import retrogym
from conftest import GAME

pytestmark = pytest.mark.starcatcher

# sticky actions and no-op starts draw from each environment's generator; episodes long enough for the game to score
KW = dict(use_restricted_actions=retrogym.Actions.DISCRETE, frameskip=4, sticky_prob=0.25, noop_max=5)
LENGTHS = (100, 80)  # max_episode_steps of environments 0 and 1
SEED = 5


def action_of(i, step):
    return (i * 7 + step // 3 * 11) % 36


def movie_name(k):
    return f"{GAME}-Start-{k:06d}.bk2"


def entries(path):
    with zipfile.ZipFile(path) as z:
        return [(info.filename, z.read(info.filename)) for info in z.infolist()]


def run(env, steps, mode):
    """Steps the vector environment; returns each environment's episodes' total rewards (episode k: movie k)."""
    n = env.num_envs
    episodes = [[0.0] for _ in range(n)]
    ended = [False] * n
    for s in range(steps):
        _, rewards, term, trunc, infos = env.step(np.array([action_of(i, s) for i in range(n)]))
        for i in range(n):
            if ended[i]:  # NEXT_STEP: this step was the reset
                assert rewards[i] == 0 and not term[i] and not trunc[i]
                episodes[i].append(0.0)
                ended[i] = False
                continue
            episodes[i][-1] += float(rewards[i])
            if term[i] or trunc[i]:
                if mode == AutoresetMode.NEXT_STEP:
                    ended[i] = True
                else:
                    assert infos["_final_obs"][i]
                    episodes[i].append(0.0)
    return episodes


def single_recording(folder, i, steps, mode):
    """Environment i of the vector environment as a RetroEnv recording into folder (the same seed and actions)."""
    env = retrogym.make(GAME, record=folder, max_episode_steps=LENGTHS[i], **KW)
    env.reset(seed=SEED + i)
    ended = False
    for s in range(steps):
        if ended:
            env.reset()
            ended = False
            continue
        _, _, term, trunc, _ = env.step(action_of(i, s))
        if term or trunc:
            if mode == AutoresetMode.NEXT_STEP:
                ended = True
            else:
                env.reset()
    env.close()


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_record_plays_back_like_single_envs(tmp_path, mode):
    folder = tmp_path / "movies"
    folder.mkdir()
    steps = 260
    env = retrogym.make_vec(GAME, 2, num_threads=2, autoreset_mode=mode, seed=SEED, record=folder,
                            env_kwargs=[dict(max_episode_steps=n) for n in LENGTHS], **KW)
    assert env.movie_path == str(folder) and list(env.movie_ids) == [0, 0]
    assert env.movie_paths == [None, None]  # waiting for the first reset
    env.reset()
    assert env.movie_paths == [str(folder / f"env-{i:03d}" / movie_name(0)) for i in range(2)]
    episodes = run(env, steps, mode)
    assert [len(e) for e in episodes] == [3, 4]  # the last one unfinished
    assert list(env.movie_ids) == [3, 4]
    env.close()  # writes the unfinished episodes' movies
    assert env.movie_path is None
    assert sorted(os.listdir(folder)) == ["env-000", "env-001"]
    scored = False
    for i in range(2):
        sub = folder / f"env-{i:03d}"
        assert sorted(os.listdir(sub)) == [movie_name(k) for k in range(len(episodes[i]))]
        for k, want in enumerate(episodes[i]):
            path = sub / movie_name(k)
            # verify=True: each frame's reward and done also equal those recorded with the movie
            played = list(retrogym.playback_movie(path))
            assert len(played) == retrogym.Movie(path).frame_count - 1
            got = sum(p[1] for p in played)
            assert np.float32(got) == np.float32(want), (i, k)
            scored |= got != 0
        single = tmp_path / f"single-{i}"
        single.mkdir()
        single_recording(single, i, steps, mode)
        assert sorted(os.listdir(single)) == sorted(os.listdir(sub))
        for name in os.listdir(sub):  # the same movie, entry by entry (the zip timestamps are the writing time)
            assert entries(sub / name) == entries(single / name), (i, name)
    assert scored, "some episode scored: the rewards are compared"


def test_auto_record_stop_record_and_async(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    env = retrogym.make_vec(GAME, 2, seed=1, max_episode_steps=20, **KW)
    assert env.movie_path is None and env.movie_paths == [None, None] and list(env.movie_ids) == [0, 0]
    env.async_reset()
    env.recv()
    env.auto_record()  # right after the reset: the current episodes are recorded whole, into the current folder
    assert env.movie_path == str(tmp_path)
    assert env.movie_paths == [str(tmp_path / f"env-{i:03d}" / movie_name(0)) for i in range(2)]
    env.send(np.array([3, 4]))
    with pytest.raises(RuntimeError, match="in flight"):
        env.auto_record(tmp_path)
    with pytest.raises(RuntimeError, match="in flight"):
        env.stop_record()
    with pytest.raises(RuntimeError, match="in flight"):
        env.movie_paths
    for _ in range(45):  # two episodes end, the third begins
        _, _, _, _, infos = env.recv()
        env.send(np.array([3, 4])[infos["env_id"]], infos["env_id"])
    env.recv()
    assert list(env.movie_ids) == [3, 3]
    env.stop_record()
    assert env.movie_path is None and env.movie_paths == [None, None] and list(env.movie_ids) == [0, 0]
    for i in range(2):
        assert sorted(os.listdir(tmp_path / f"env-{i:03d}")) == [movie_name(k) for k in range(3)]
    env.stop_record()  # not recording: nothing to do
    # a new folder; mid-episode, each environment starts at its next reset; close() writes what was begun
    other = tmp_path / "other"
    other.mkdir()
    env.auto_record(str(other))
    assert env.movie_paths == [None, None] and env.movie_path == str(other)
    env.step(np.array([1, 2]))
    env.reset(seed=9)  # a seeded reset reseeds the environments in place: recording goes on
    assert env.movie_paths == [str(other / f"env-{i:03d}" / movie_name(0)) for i in range(2)]
    env.step(np.array([1, 2]))
    env.close()
    for i in range(2):
        assert os.listdir(other / f"env-{i:03d}") == [movie_name(0)]
        assert retrogym.Movie(other / f"env-{i:03d}" / movie_name(0)).frame_count >= 2


def test_record_arguments_checked(tmp_path):
    for bad in (1, 2.5, ["x"], b"dir"):
        with pytest.raises(ValueError, match="record must be False, True"):
            retrogym.make_vec(GAME, 2, record=bad)
    with pytest.raises(ValueError, match=r"env_kwargs\[1\] sets record"):
        retrogym.make_vec(GAME, 2, env_kwargs=[{}, dict(record=str(tmp_path))])
    with pytest.raises(FileNotFoundError, match="no such folder"):
        retrogym.make_vec(GAME, 2, record=tmp_path / "missing")
    (tmp_path / "env-001").write_bytes(b"x")  # in the way of environment 1's subfolder
    with pytest.raises(OSError, match="env-001"):
        retrogym.make_vec(GAME, 2, record=tmp_path)
    env = retrogym.make_vec(GAME, 2, record=False)
    with pytest.raises(OSError, match="env-001"):
        env.auto_record(tmp_path)
    assert env.movie_path is None and env.movie_paths == [None, None]
    env.close()
    with pytest.raises(RuntimeError, match="closed"):
        env.auto_record(tmp_path)


def test_unwritable_folder_during_recording(tmp_path):
    env = retrogym.make_vec(GAME, 2, seed=3, record=tmp_path, max_episode_steps=15, **KW)
    env.reset()
    sub = tmp_path / "env-001"
    sub.rmdir()  # nothing written yet
    sub.write_bytes(b"x")  # a file where the folder was: the movie cannot be written when its episode ends
    a = np.array([1, 2])
    with pytest.raises(OSError, match="environment 1") as err:
        for _ in range(15):
            env.step(a)
    assert "env-001" in str(err.value) and err.value.rg_error == "RG_EIO"
    assert env.movie_path == str(tmp_path) and env.movie_paths[1] is None and env.movie_ids[1] == 0
    for _ in range(20):  # the vector environment goes on; environment 0 still records
        env.step(a)
    env.close()
    assert len(os.listdir(tmp_path / "env-000")) == 3
