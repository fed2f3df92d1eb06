"""clone_state/restore_state: the whole environment (emulator, scenario, random generator, step count) comes back,
and the same actions then give the same stream. Also stable-retro's raw emulator states through env.em."""
import numpy as np
import pytest

import retrogym
from conftest import SYSTEMS

pytestmark = pytest.mark.starcatcher


def run(env, acts):
    out = []
    for a in acts:
        obs, reward, terminated, truncated, info = env.step(a)
        out.append((obs.tobytes(), reward, terminated, truncated, info))
    return out


def random_actions(n, seed):
    rng = np.random.default_rng(seed)
    return [rng.integers(0, 2, size=9, dtype=np.int8) for _ in range(n)]


def test_clone_restore_replays(env_factory):
    env = env_factory(sticky_prob=0.3, frameskip=2)
    env.reset(seed=5)
    run(env, random_actions(300, 1))
    snap = env.clone_state()
    assert isinstance(snap, bytes) and len(snap) > 0
    steps = env.episode_steps
    acts = random_actions(400, 2)
    first = run(env, acts)
    env.restore_state(snap)
    assert env.episode_steps == steps
    assert run(env, acts) == first
    assert env.clone_state() != snap


def test_restore_into_another_env(env_factory):
    a = env_factory(sticky_prob=0.3)
    b = env_factory(sticky_prob=0.3)
    a.reset(seed=1)
    b.reset(seed=2)
    run(a, random_actions(500, 3))
    snap = a.clone_state()
    b.restore_state(snap)
    acts = random_actions(300, 4)
    assert run(a, acts) == run(b, acts)
    assert a.data.total_reward() == b.data.total_reward()


def test_restore_keeps_custom_variables_and_totals(env_factory):
    from test_starcatcher import script_actions

    env = env_factory(use_restricted_actions=retrogym.Actions.ALL)
    env.reset(seed=0)
    run(env, script_actions(env, 500))
    env.data["mine"] = 7
    assert env.data.total_reward() == 10.0
    snap = env.clone_state()
    env.reset(seed=0)
    assert env.data.total_reward() == 0.0
    with pytest.raises(KeyError):
        env.data["mine"]
    env.restore_state(snap)
    assert env.data.total_reward() == 10.0 and env.data["mine"] == 7 and env.data["score"] == 10


def test_restore_rejects_garbage(env_factory):
    env = env_factory()
    env.reset(seed=0)
    good = env.clone_state()
    for bad in (b"", b"not a snapshot", good[: len(good) // 2], bytes(len(good))):
        with pytest.raises(ValueError) as e:
            env.restore_state(bad)
        assert e.value.rg_error in ("RG_ECORRUPT", "RG_ESTATE")
    env.restore_state(bytearray(good))  # any bytes-like object
    with pytest.raises(TypeError):
        env.restore_state("text")


def test_snapshot_of_another_game_is_refused(test_games, env_factory):
    game = test_games["Nes"]
    other = env_factory(game)
    other.reset(seed=0)
    env = env_factory()
    env.reset(seed=0)
    with pytest.raises(ValueError):
        env.restore_state(other.clone_state())


def test_emulator_states(env_factory):
    env = env_factory(use_restricted_actions=retrogym.Actions.ALL)
    env.reset(seed=0)
    raw = env.em.get_state()
    assert isinstance(raw, bytes) and len(raw) > 1000
    frames = [env.step(np.ones(9, np.int8))[0] for _ in range(30)]
    assert env.em.set_state(raw) is True
    env.em.step()
    assert env.em.set_state(b"garbage") is False
    assert env.em.set_state(raw) is True
    again = [env.step(np.ones(9, np.int8))[0] for _ in range(30)]
    assert all(np.array_equal(x, y) for x, y in zip(frames, again))


@pytest.mark.parametrize("system", SYSTEMS)
def test_clone_restore_every_system(test_games, env_factory, system):
    env = test_games[system]
    env = env_factory(env, use_restricted_actions=retrogym.Actions.ALL)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    acts = [rng.integers(0, 2, size=env.num_buttons, dtype=np.int8) for _ in range(120)]
    run(env, acts[:60])
    snap = env.clone_state()
    first = run(env, acts[60:])
    env.restore_state(snap)
    assert run(env, acts[60:]) == first
