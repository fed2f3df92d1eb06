"""retrogym.make(..., grayscale/resize/frame_stack/reward_clip) (issue 17): a single environment whose preprocessing
runs in C (a vector environment of one, autoreset off) gives, step by step, the observations, rewards, flags and
infos of make_vec(..., 1) with the same settings, and of a RetroEnv whose frames are reduced the same way."""
import numpy as np
import pytest

import retrogym

KW = dict(use_restricted_actions=retrogym.Actions.DISCRETE, frameskip=4, max_episode_steps=30, sticky_prob=0.25)
PRE = dict(grayscale=True, resize=(56, 64), frame_stack=3, reward_clip=1.0)


def test_equals_a_vector_env_of_one():
    env = retrogym.make("StarCatcher-Nes", **KW, **PRE)
    vec = retrogym.make_vec("StarCatcher-Nes", 1, num_threads=1, autoreset_mode="DISABLED", **KW, **PRE)
    try:
        assert isinstance(env, retrogym.preprocessed.PreprocessedEnv)
        assert env.observation_space.shape == (3, 56, 64) == vec.single_observation_space.shape
        assert env.action_space == vec.single_action_space
        o1, i1 = env.reset(seed=5)
        o2, i2 = vec.reset(seed=5)
        np.testing.assert_array_equal(o1, o2[0])
        assert i1 and all(i1[k] == i2[k][0] for k in i1)
        rng = np.random.default_rng(1)
        ends = 0
        for _ in range(70):
            a = int(rng.integers(0, env.action_space.n))
            s1 = env.step(a)
            s2 = vec.step(np.array([a]))
            np.testing.assert_array_equal(s1[0], s2[0][0])
            assert s1[1] == s2[1][0] and isinstance(s1[1], float)
            assert (s1[2], s1[3]) == (bool(s2[2][0]), bool(s2[3][0]))
            assert all(s1[4][k] == s2[4][k][0] for k in s1[4])
            if s1[2] or s1[3]:
                ends += 1
                np.testing.assert_array_equal(env.reset()[0], vec.reset()[0][0])
        assert ends >= 2  # episodes of 30 steps ended and were reset by the caller
        assert env.episode_steps() == vec.episode_steps()[0]
    finally:
        env.close()
        vec.close()


def test_gray_observation_is_the_frame_reduced():
    """Stack of one, no resize: the observation is the luma of RetroEnv's frame (299 R + 587 G + 114 B, rounded)."""
    env = retrogym.make("StarCatcher-Nes", grayscale=True, use_restricted_actions=retrogym.Actions.DISCRETE)
    ref = retrogym.make("StarCatcher-Nes", use_restricted_actions=retrogym.Actions.DISCRETE)
    try:
        g, _ = env.reset(seed=2)
        rgb, _ = ref.reset(seed=2)
        for a in [3, 3, 7, 0, 12]:
            g = env.step(a)[0]
            rgb = ref.step(a)[0].astype(np.int64)
        luma = (299 * rgb[..., 0] + 587 * rgb[..., 1] + 114 * rgb[..., 2] + 500) // 1000
        np.testing.assert_array_equal(g, luma.astype(np.uint8))
    finally:
        env.close()
        ref.close()


def test_refused_together():
    with pytest.raises(ValueError, match="record"):
        retrogym.make("StarCatcher-Nes", grayscale=True, record=True)
    with pytest.raises(ValueError, match="does not render"):
        retrogym.make("StarCatcher-Nes", grayscale=True, render_mode="rgb_array")
