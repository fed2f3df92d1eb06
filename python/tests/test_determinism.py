"""Determinism: the same seed and actions give identical streams; seeds matter only where randomness is asked for
(sticky actions, no-op starts)."""
import numpy as np
import pytest

import retrogym

pytestmark = pytest.mark.starcatcher


def actions(n, seed, size=9):
    rng = np.random.default_rng(seed)
    return [rng.integers(0, 2, size=size, dtype=np.int8) for _ in range(n)]


def play(env, seed, acts):
    obs, info = env.reset(seed=seed)
    stream = [(obs.tobytes(), 0.0, False, info)]
    for a in acts:
        obs, reward, terminated, truncated, info = env.step(a)
        stream.append((obs.tobytes(), reward, terminated, info))
    return stream


@pytest.mark.parametrize("obs_type", list(retrogym.Observations))
def test_same_seed_same_stream(env_factory, obs_type):
    acts = actions(400, 7)
    a = env_factory(obs_type=obs_type, sticky_prob=0.25, noop_max=30)
    b = env_factory(obs_type=obs_type, sticky_prob=0.25, noop_max=30)
    first = play(a, 123, acts)
    assert play(b, 123, acts) == first
    assert play(a, 123, acts) == first  # and again on a used env


def test_different_seeds_differ_with_sticky_actions(env_factory):
    acts = actions(300, 3)
    env = env_factory(sticky_prob=0.5)
    one = play(env, 1, acts)
    two = play(env, 2, acts)
    assert one != two
    assert play(env, 1, acts) == one


def test_seed_has_no_effect_without_randomness(env_factory):
    acts = actions(200, 5)
    env = env_factory()
    assert play(env, 1, acts) == play(env, 99, acts)


def test_noop_starts_depend_on_seed(env_factory):
    env = env_factory(noop_max=60, obs_type=retrogym.Observations.RAM)
    frames = set()
    for seed in range(8):
        env.reset(seed=seed)
        frames.add(env.data["play_frames"])
    assert len(frames) > 1
    assert all(1 <= f <= 61 for f in frames)


def test_unseeded_resets_continue_the_generator(env_factory):
    acts = actions(100, 11)
    env = env_factory(sticky_prob=0.5)
    env.reset(seed=42)
    first = [env.step(a)[0].tobytes() for a in acts]
    env.reset()  # no seed: the generator goes on, so the stream differs
    second = [env.step(a)[0].tobytes() for a in acts]
    assert first != second


def test_reward_sum_with_frameskip(env_factory):
    """Frameskip sums the rewards of its frames: the README's script (all changes on even frames) scores 30 with
    one frame a step and with two."""
    from test_starcatcher import script_actions

    one = env_factory(use_restricted_actions=retrogym.Actions.ALL)
    two = env_factory(use_restricted_actions=retrogym.Actions.ALL, frameskip=2)
    one.reset(seed=0)
    two.reset(seed=0)
    acts = script_actions(one, 3600)
    total1 = sum(one.step(a)[1] for a in acts)
    total2 = sum(two.step(a)[1] for a in acts[::2])
    assert total1 == total2 == 30.0
    assert one.data["score"] == two.data["score"] == 30
    assert one.data["play_frames"] == two.data["play_frames"]
