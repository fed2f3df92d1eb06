"""Determinism (docs/determinism.md): the same seed and actions give identical streams; seeds matter only where
randomness is asked for (sticky actions, no-op starts). On our game, and on every system with a core: the stream of
a seeded env (sticky actions, frame skip, no-op starts, truncation and resets inside it) is the same in another
process, and make_vec gives each env's stream whatever the number of threads, also in another process."""
import hashlib
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import retrogym
from conftest import SYSTEMS, core_for

HERE = os.path.dirname(os.path.abspath(__file__))


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


@pytest.mark.starcatcher
@pytest.mark.parametrize("obs_type", list(retrogym.Observations))
def test_same_seed_same_stream(env_factory, obs_type):
    acts = actions(400, 7)
    a = env_factory(obs_type=obs_type, sticky_prob=0.25, noop_max=30)
    b = env_factory(obs_type=obs_type, sticky_prob=0.25, noop_max=30)
    first = play(a, 123, acts)
    assert play(b, 123, acts) == first
    assert play(a, 123, acts) == first  # and again on a used env


@pytest.mark.starcatcher
def test_different_seeds_differ_with_sticky_actions(env_factory):
    acts = actions(300, 3)
    env = env_factory(sticky_prob=0.5)
    one = play(env, 1, acts)
    two = play(env, 2, acts)
    assert one != two
    assert play(env, 1, acts) == one


@pytest.mark.starcatcher
def test_seed_has_no_effect_without_randomness(env_factory):
    acts = actions(200, 5)
    env = env_factory()
    assert play(env, 1, acts) == play(env, 99, acts)


@pytest.mark.starcatcher
def test_noop_starts_depend_on_seed(env_factory):
    env = env_factory(noop_max=60, obs_type=retrogym.Observations.RAM)
    frames = set()
    for seed in range(8):
        env.reset(seed=seed)
        frames.add(env.data["play_frames"])
    assert len(frames) > 1
    assert all(1 <= f <= 61 for f in frames)


@pytest.mark.starcatcher
def test_unseeded_resets_continue_the_generator(env_factory):
    acts = actions(100, 11)
    env = env_factory(sticky_prob=0.5)
    env.reset(seed=42)
    first = [env.step(a)[0].tobytes() for a in acts]
    env.reset()  # no seed: the generator goes on, so the stream differs
    second = [env.step(a)[0].tobytes() for a in acts]
    assert first != second


@pytest.mark.starcatcher
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


# ---- every system, across processes and thread counts ----
#
# A "spec" says how to make the game's envs in any process: the game, keyword arguments for retrogym.make /
# make_vec (core, start state as a path, options) and the custom integration folder to add first. Episodes from the
# start state end after about 50 frames (15-17 steps after 0-8 no-op starts) or are truncated after 15 steps, so
# streams hold resets of both kinds.

STEPS = 34
NUM_ENVS = 4
SEED = 500
OPTIONS = dict(use_restricted_actions=retrogym.Actions.ALL, frameskip=3, sticky_prob=0.25, noop_max=8,
               max_episode_steps=15)


def step_actions(step, n_envs, n_buttons):
    """Seeded random buttons: a new combination every second step."""
    rng = np.random.default_rng(7919 * (step // 2) + 17)
    return rng.integers(0, 3, size=(n_envs, n_buttons)) == 0


def row(obs, reward, terminated, truncated, info):
    return (obs.tobytes(), float(reward), bool(terminated), bool(truncated), tuple(sorted(info.items())))


def single_rows(env, seed, env_index, steps=STEPS):
    """One env stepped as the pool's NEXT_STEP autoreset steps it (the step after an end resets). Rows: obs bytes,
    reward, terminated, truncated, info items."""
    obs, info = env.reset(seed=seed)
    rows = [row(obs, 0.0, False, False, info)]
    ended = False
    for step in range(1, steps + 1):
        action = step_actions(step, NUM_ENVS, env.num_buttons)[env_index].astype(np.int8)
        if ended:
            obs, info = env.reset()
            rows.append(row(obs, 0.0, False, False, info))
            ended = False
            continue
        obs, reward, terminated, truncated, info = env.step(action)
        rows.append(row(obs, reward, terminated, truncated, info))
        ended = terminated or truncated
    return rows


def vec_rows(vec, steps=STEPS):
    """Per env, its rows of a make_vec stream (infos taken apart by their masks)."""
    def split(obs, rewards, terminated, truncated, infos):
        for i in range(vec.num_envs):
            info = {k: int(v[i]) for k, v in infos.items() if not k.startswith("_") and infos["_" + k][i]}
            out[i].append(row(obs[i], rewards[i], terminated[i], truncated[i], info))

    out = [[] for _ in range(vec.num_envs)]
    obs, infos = vec.reset(seed=SEED)
    split(obs, np.zeros(vec.num_envs), np.zeros(vec.num_envs, bool), np.zeros(vec.num_envs, bool), infos)
    for step in range(1, steps + 1):
        split(*vec.step(step_actions(step, vec.num_envs, vec.num_buttons).astype(np.int8)))
    return out


def digest(rows):
    h = hashlib.sha256()
    h.update(repr(rows).encode())
    return h.hexdigest()


def streams(spec, threads=(1,)):
    """Digests of: one single env (seed SEED), and each thread count's make_vec stream of NUM_ENVS envs."""
    env = retrogym.make(spec["game"], **spec["kwargs"])
    try:
        singles = [single_rows(env, SEED + i, i) for i in range(NUM_ENVS)]
    finally:
        env.close()
    if spec["custom"]:  # the test ROMs' games: both kinds of autoreset happen
        ends = [sum(r[k] for rows in singles for r in rows) for k in (2, 3)]
        assert ends[0] >= 1 and ends[1] >= 1, f"episodes terminated/truncated: {ends}"
    out = {"single": digest(singles)}
    for t in threads:
        vec = retrogym.make_vec(spec["game"], NUM_ENVS, num_threads=t, **spec["kwargs"])
        try:
            rows = vec_rows(vec)
        finally:
            vec.close()
        for i in range(NUM_ENVS):
            assert rows[i] == singles[i], f"env {i} of make_vec on {t} threads differs from a single env"
        out[f"vec{t}"] = digest(rows)
    return out


def child(spec, threads):
    """In another process: the digests of streams() there."""
    if spec["custom"]:
        retrogym.data.add_custom_path(spec["custom"])
    return streams(spec, tuple(threads))


def in_another_process(spec, threads):
    code = ("import json, sys; sys.path.insert(0, sys.argv[1]); import test_determinism as t; "
            "print(json.dumps(t.child(json.loads(sys.argv[2]), json.loads(sys.argv[3]))))")
    done = subprocess.run([sys.executable, "-c", code, HERE, json.dumps(spec), json.dumps(list(threads))],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])  # cores may print before


@pytest.fixture(scope="module")
def start_states(test_games, tmp_path_factory):
    """{system: path of a start state}: the game's core 150 frames after boot (made on first use)."""
    folder = tmp_path_factory.mktemp("det-states")
    made = {}

    def get(system):
        if system not in made:
            game = test_games[system]
            env = game.make(use_restricted_actions=retrogym.Actions.ALL)
            try:
                env.reset(seed=0)
                for _ in range(150):
                    env.step(np.zeros(env.num_buttons, np.int8))
                path = str(folder / f"{system}.state")
                with open(path, "wb") as f:
                    f.write(env.em.get_state())
            finally:
                env.close()
            made[system] = path
        return made[system]

    return get


def system_spec(test_games, start_states, system):
    game = test_games[system]
    core = core_for(system)  # skips without a core
    kwargs = dict(OPTIONS, state=start_states(system), inttype=retrogym.Integrations.CUSTOM_ONLY)
    if core is not None:
        kwargs["core"] = core
    return {"game": game.name, "custom": os.path.dirname(game.dir), "kwargs": kwargs}


def jsonable(kwargs):
    return {k: (v.value if hasattr(v, "value") else v) for k, v in kwargs.items()}


@pytest.mark.parametrize("system", SYSTEMS)
def test_streams_across_processes_and_threads(test_games, start_states, system):
    spec = system_spec(test_games, start_states, system)
    here = streams(spec, threads=(1, 2, 4))
    assert here["vec1"] == here["vec2"] == here["vec4"]
    spec["kwargs"] = jsonable(spec["kwargs"])
    there = in_another_process(spec, threads=(2,))
    assert there["single"] == here["single"], "a single env's stream differs in another process"
    assert there["vec2"] == here["vec2"], "make_vec's stream differs in another process"


@pytest.mark.parametrize("system", SYSTEMS)
def test_power_on_streams_repeat(test_games, env_factory, system):
    """Without a start state every reset is a power-on (a fresh copy of the core): the same stream each time, in
    the same env and in another one."""
    game = test_games[system]
    kwargs = dict(OPTIONS, max_episode_steps=20)
    env, other = env_factory(game, **kwargs), env_factory(game, **kwargs)
    first = single_rows(env, 3, 0, steps=40)
    assert sum(r[3] for r in first) >= 1  # a truncation, then a power-on reset inside the stream
    assert single_rows(env, 3, 0, steps=40) == first
    assert single_rows(other, 3, 0, steps=40) == first


@pytest.mark.starcatcher
def test_our_game_across_processes():
    spec = {"game": "StarCatcher-Nes", "custom": None,
            "kwargs": dict(OPTIONS, max_episode_steps=15, use_restricted_actions=retrogym.Actions.ALL.value)}
    here = streams(spec, threads=(1, 3))
    assert here["vec1"] == here["vec3"]
    there = in_another_process(spec, threads=(1,))
    assert there["single"] == here["single"] and there["vec1"] == here["vec1"]
