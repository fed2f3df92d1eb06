"""make_vec's vector environment as Gymnasium's wrappers and EnvPool users expect it: per-environment
get_attr/set_attr/call, render() for the vector RecordVideo, EnvPool's "elapsed_step"/"env_id" infos."""
import importlib.util
import os

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import retrogym
from conftest import GAME

pytestmark = pytest.mark.starcatcher

DISCRETE = retrogym.Actions.DISCRETE
HAS_MOVIEPY = importlib.util.find_spec("moviepy") is not None


@pytest.fixture
def vec():
    made = []

    def factory(n, **kwargs):
        kwargs.setdefault("use_restricted_actions", DISCRETE)
        env = retrogym.make_vec(GAME, n, **kwargs)
        made.append(env)
        return env

    yield factory
    for env in made:
        env.close()


# ---- elapsed_step / env_id ----

def test_elapsed_step_counts_and_resets_next_step(vec):
    envs = vec(2, elapsed_step=True, max_episode_steps=4, frameskip=2)
    obs, infos = envs.reset(seed=1)
    assert infos["elapsed_step"].dtype == np.int32 and list(infos["elapsed_step"]) == [0, 0]
    assert list(infos["env_id"]) == [0, 1] and infos["_elapsed_step"].all()
    seen = []
    for _ in range(6):
        obs, rew, term, trunc, infos = envs.step(np.array([3, 5]))
        seen.append((list(infos["elapsed_step"]), list(trunc)))
    # steps 1..4, truncated at 4; the next step is the autoreset (0), then the new episode counts again
    assert seen == [([1, 1], [False, False]), ([2, 2], [False, False]), ([3, 3], [False, False]),
                    ([4, 4], [True, True]), ([0, 0], [False, False]), ([1, 1], [False, False])]
    assert envs.get_attr("elapsed_step") == (1, 1)
    assert list(envs.episode_steps()) == [1, 1]


def test_elapsed_step_same_step_and_masked_reset(vec):
    envs = vec(3, elapsed_step=True, max_episode_steps=3, autoreset_mode=AutoresetMode.SAME_STEP)
    envs.reset(seed=2)
    for k in range(1, 4):
        _, _, _, trunc, infos = envs.step(np.zeros(3, dtype=np.int64))
    # the episode ended and the pool reset it within the step: the row's counter is the new episode's
    assert trunc.all() and list(infos["elapsed_step"]) == [0, 0, 0]
    envs.step(np.zeros(3, dtype=np.int64))
    _, infos = envs.reset(options={"reset_mask": np.array([False, True, False])})
    assert list(infos["elapsed_step"]) == [1, 0, 1]


def test_elapsed_step_with_send_recv(vec):
    envs = vec(4, elapsed_step=True, batch_size=2)
    envs.async_reset(seed=3)
    for _ in range(2):  # the reset rows
        _, _, _, _, infos = envs.recv()
        assert list(infos["elapsed_step"]) == [0, 0]
        envs.send(np.zeros(2, dtype=np.int64), infos["env_id"])
    counts = {}
    for _ in range(8):
        _, _, _, _, infos = envs.recv()
        for i, e in zip(infos["env_id"], infos["elapsed_step"]):
            assert e == counts.get(int(i), 0) + 1  # one more step than the last row of that environment
            counts[int(i)] = int(e)
        envs.send(np.zeros(2, dtype=np.int64), infos["env_id"])
    assert sum(counts.values()) == 16  # 8 batches of 2 rows after the resets, each row one step
    with pytest.raises(RuntimeError, match="in flight"):
        envs._pool.elapsed_steps(np.arange(4))  # some are in flight: refused, not read under a worker
    with pytest.raises(IndexError, match="not in 0..3"):
        envs._pool.elapsed_steps(np.array([4]))
    with pytest.raises(ValueError):
        envs._pool.elapsed_steps(np.zeros((2, 2), dtype=np.int64))


def test_no_envpool_infos_by_default(vec):
    envs = vec(2)
    _, infos = envs.reset(seed=0)
    assert "elapsed_step" not in infos and "env_id" not in infos
    _, _, _, _, infos = envs.step(np.zeros(2, dtype=np.int64))
    assert "elapsed_step" not in infos and "env_id" not in infos


# ---- get_attr / set_attr / call ----

def test_get_attr_per_environment(vec):
    one = retrogym.make(GAME, use_restricted_actions=DISCRETE)
    try:
        # from power-on on the core the start state runs on (with no core named it would be the system's first,
        # our `nes`, whose picture is FCEUmm's 240 wide where nestopia's is 256: a pool needs one size)
        envs = vec(3, env_kwargs=[{}, {"frameskip": 2}, {"state": retrogym.State.NONE, "core": one.core}])
        assert envs.get_attr("gamename") == (GAME,) * 3
        assert envs.get_attr("buttons") == (one.buttons,) * 3
        assert envs.get_attr("statename") == (one.statename, one.statename, None)
        assert envs.get_attr("frameskip") == (1, 2, 1)
        assert envs.get_attr("action_space") == (one.action_space,) * 3
        assert envs.get_attr("observation_space") == (one.observation_space,) * 3
        assert envs.get_attr("use_restricted_actions") == (DISCRETE,) * 3
        assert [m["render_fps"] for m in envs.get_attr("metadata")] == [one.metadata["render_fps"] / k
                                                                       for k in (1, 2, 1)]
        assert envs.get_attr("render_mode") == (None,) * 3
        with pytest.raises(AttributeError, match="no attribute 'ale'"):
            envs.get_attr("ale")
        with pytest.raises(TypeError):
            envs.get_attr(3)
    finally:
        one.close()


def test_set_attr_and_call(vec):
    envs = vec(2, players=1)
    envs.set_attr("label", ["left", "right"])
    assert envs.get_attr("label") == ("left", "right")
    envs.set_attr("weight", 0.5)  # one value for every environment
    assert envs.get_attr("weight") == (0.5, 0.5)
    envs.set_attr("scale", [lambda x: x * 2, lambda x: x * 3])
    assert envs.call("scale", 7) == (14, 21)
    assert envs.call("gamename") == (GAME, GAME)  # not callable: the values
    with pytest.raises(ValueError, match="one value per environment"):
        envs.set_attr("label", ["a", "b", "c"])
    with pytest.raises(AttributeError, match="fixed"):
        envs.set_attr("buttons", [[], []])
    assert envs.get_attr("buttons")[0][0] == "B"  # unchanged
    envs.set_attr("multi_rewards", True)
    assert envs.multi_rewards and envs.get_attr("multi_rewards") == (True, True)
    with pytest.raises(ValueError, match="same value"):
        envs.set_attr("multi_rewards", [True, False])
    assert envs.multi_rewards
    envs.close()
    with pytest.raises(RuntimeError, match="closed"):
        envs.set_attr("label", ["a", "b"])


# ---- render ----

def test_render_frames_are_the_observations(vec):
    envs = vec(3, render_mode="rgb_array")
    assert envs.render_mode == "rgb_array" and "rgb_array" in envs.metadata["render_modes"]
    with pytest.raises(RuntimeError, match="reset"):
        envs.render()
    obs, _ = envs.reset(seed=4)
    frames = envs.render()
    assert isinstance(frames, tuple) and len(frames) == 3
    for i in range(3):
        assert frames[i].shape == obs[i].shape and np.array_equal(frames[i], obs[i])
    for _ in range(30):
        obs, *_ = envs.step(np.array([1, 2, 3]))
    assert np.array_equal(envs.render(env_id=2), obs[2])
    assert all(np.array_equal(f, o) for f, o in zip(envs.call("render"), obs))
    with pytest.raises(IndexError):
        envs.render(env_id=3)


def test_render_preprocessed_and_errors(vec):
    envs = vec(2, render_mode="rgb_array", grayscale=True, frame_stack=2, resize=(84, 84))
    obs, _ = envs.reset(seed=5)
    frame = envs.render()[1]
    assert frame.shape == (84, 84, 3) and all(np.array_equal(frame[:, :, c], obs[1, -1]) for c in range(3))
    with pytest.raises(ValueError, match="rgb_array"):
        retrogym.make_vec(GAME, 2, render_mode="human")
    with pytest.raises(ValueError, match="IMAGE"):
        retrogym.make_vec(GAME, 2, render_mode="rgb_array", obs_type=retrogym.Observations.RAM)
    assert vec(1).render() is None  # no render mode: None, as before


def test_record_episode_statistics_vector(vec):
    envs = gym.wrappers.vector.RecordEpisodeStatistics(vec(2, max_episode_steps=6, elapsed_step=True))
    envs.reset(seed=6)
    total = np.zeros(2)
    for k in range(6):
        _, rew, term, trunc, infos = envs.step(np.array([4, 4]))
        total += rew
    assert trunc.all() and "episode" in infos
    assert list(infos["episode"]["l"]) == [6, 6] and np.allclose(infos["episode"]["r"], total)


@pytest.mark.skipif(not HAS_MOVIEPY, reason="moviepy is not installed (Gymnasium's RecordVideo writes with it)")
def test_record_video_vector(vec, tmp_path):
    envs = gym.wrappers.vector.RecordVideo(vec(4, render_mode="rgb_array", max_episode_steps=20, frameskip=4),
                                           str(tmp_path / "videos"), episode_trigger=lambda e: e == 0)
    envs.reset(seed=7)
    for _ in range(25):
        envs.step(np.array([1, 2, 3, 4]))
    envs.close()
    videos = sorted(os.listdir(tmp_path / "videos"))
    assert videos == ["rl-video-episode-0.mp4"]
    path = tmp_path / "videos" / videos[0]
    assert path.stat().st_size > 1000
    from moviepy import VideoFileClip

    clip = VideoFileClip(str(path))
    try:  # four 224x256 screens tiled 2 x 2; the reset frame and 20 steps
        assert tuple(clip.size) == (512, 448)
        assert 20 <= round(clip.duration * clip.fps) <= 22
    finally:
        clip.close()
