"""Vector environments (retrogym.make_vec, the C pool): batched results equal independent environments and
Gymnasium's own SyncVectorEnv in every autoreset mode, whatever the number of threads; EnvPool-style send/recv;
preprocessing against a NumPy reference; errors; the stable-baselines3 adapter."""
import importlib.util
import threading
import time

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import retrogym
from conftest import GAME

pytestmark = pytest.mark.starcatcher

DISCRETE = retrogym.Actions.DISCRETE
# sticky actions and no-op starts draw from each environment's generator: the seeds must reach the right env
KW = dict(use_restricted_actions=DISCRETE, frameskip=8, sticky_prob=0.25, noop_max=5)
HAS_SB3 = importlib.util.find_spec("stable_baselines3") is not None


def actions(step, n):
    return np.random.default_rng(1000 + step).integers(0, 36, size=n)


@pytest.fixture
def vec_factory():
    made = []

    def factory(num_envs, **kwargs):
        env = retrogym.make_vec(GAME, num_envs, **kwargs)
        made.append(env)
        return env

    yield factory
    for env in made:
        env.close()


def assert_infos_equal(ours, ref, n, skip=()):
    assert set(ours) == set(ref) - set(skip), (sorted(ours), sorted(ref))
    for key, value in ref.items():
        if key in skip:
            continue
        if key == "final_info":  # SAME_STEP: the ended episodes' infos, Gymnasium's nested layout
            assert_infos_equal(ours[key], value, n)
        elif key == "final_obs":
            for i in range(n):
                assert (ours[key][i] is None) == (value[i] is None)
                if value[i] is not None:
                    assert np.array_equal(ours[key][i], value[i])
        else:
            assert np.array_equal(ours[key], value), key


# ---- equality with independent environments ----

def test_equals_independent_envs_next_step(vec_factory):
    """Every row bit-identical to an independent env stepped alike (NEXT_STEP: the step after an end resets)."""
    n, seed = 3, 3
    per_env = [{}, {"noop_max": 0}, {"sticky_prob": 0.5}]
    vec = vec_factory(n, num_threads=2, max_episode_steps=60, env_kwargs=per_env, **KW)
    singles = [retrogym.make(GAME, **dict(KW, max_episode_steps=60, **per_env[i])) for i in range(n)]
    try:
        obs, infos = vec.reset(seed=seed)
        ended = [False] * n
        for i, env in enumerate(singles):
            o, info = env.reset(seed=seed + i)
            assert np.array_equal(obs[i], o)
            assert {k: infos[k][i] for k in info} == info and all(infos["_" + k][i] for k in info)
        total = 0.0
        for step in range(150):
            a = actions(step, n)
            obs, rewards, term, trunc, infos = vec.step(a)
            assert obs.dtype == np.uint8 and rewards.dtype == np.float32 and term.dtype == np.bool_
            for i, env in enumerate(singles):
                if ended[i]:
                    o, info = env.reset()
                    r, te, tr = 0.0, False, False
                else:
                    o, r, te, tr, info = env.step(a[i])
                ended[i] = te or tr
                assert np.array_equal(obs[i], o), (step, i)
                assert (rewards[i], term[i], trunc[i]) == (r, te, tr), (step, i)
                assert {k: infos[k][i] for k in info} == info, (step, i)
                total += r
        assert total > 0, "no reward in the run: pick other actions so that rewards are compared"
        assert sum(vec.episode_steps()) < 3 * 60  # episodes ended and restarted
    finally:
        for env in singles:
            env.close()


@pytest.mark.parametrize("mode", list(AutoresetMode))
def test_matches_gymnasium_sync_vector_env(vec_factory, mode):
    """Gymnasium's SyncVectorEnv over RetroEnvs is the reference of each autoreset mode (obs, rewards, flags,
    infos, final_obs; DISABLED: partial resets with options["reset_mask"])."""
    n, kw = 3, dict(KW, max_episode_steps=10)
    ref = gym.vector.SyncVectorEnv([lambda: retrogym.make(GAME, **kw) for _ in range(n)], autoreset_mode=mode)
    vec = vec_factory(n, num_threads=2, autoreset_mode=mode, **kw)
    assert vec.metadata["autoreset_mode"] is mode
    try:
        o1, i1 = ref.reset(seed=7)
        o2, i2 = vec.reset(seed=7)
        assert np.array_equal(o1, o2)
        assert_infos_equal(i2, i1, n)
        dones = 0
        for step in range(24):
            a = actions(step, n)
            ro, rr, rte, rtr, ri = ref.step(a)
            vo, vr, vte, vtr, vi = vec.step(a)
            assert np.array_equal(vo, ro), step
            assert np.array_equal(vr, rr) and np.array_equal(vte, rte) and np.array_equal(vtr, rtr), step
            assert_infos_equal(vi, ri, n)
            assert vec.observation_space.contains(vo)
            done = rte | rtr
            dones += done.sum()
            if mode is AutoresetMode.DISABLED and done.any():
                o1, i1 = ref.reset(options={"reset_mask": done.copy()})
                o2, i2 = vec.reset(options={"reset_mask": done.copy()})
                assert np.array_equal(o1, o2)
                assert_infos_equal(i2, i1, n)
        assert dones >= n * 2
    finally:
        ref.close()


def test_autoreset_details(vec_factory):
    kw = dict(use_restricted_actions=DISCRETE, max_episode_steps=10)
    right = np.full(2, 3)  # the ship moves: the last screen of an episode is not the start screen
    for mode in AutoresetMode:
        vec = vec_factory(2, autoreset_mode=mode, **kw)
        start, _ = vec.reset(seed=0)
        for step in range(10):
            obs, rewards, term, trunc, infos = vec.step(right)
        assert trunc.all() and not term.any()
        if mode is AutoresetMode.SAME_STEP:
            assert infos["_final_obs"].all() and infos["final_obs"].dtype == object
            assert not np.array_equal(infos["final_obs"][0], obs[0])
            assert np.array_equal(obs, start)  # already the next episode's first observation
            assert list(vec.episode_steps()) == [0, 0]
        else:
            assert "final_obs" not in infos
            assert list(vec.episode_steps()) == [10, 10]
        obs, rewards, term, trunc, infos = vec.step(right)
        if mode is AutoresetMode.NEXT_STEP:  # this step was the reset
            assert np.array_equal(obs, start) and not trunc.any() and not rewards.any()
            assert list(vec.episode_steps()) == [0, 0]
        elif mode is AutoresetMode.SAME_STEP:
            assert list(vec.episode_steps()) == [1, 1]
        else:  # the caller resets: the episode goes on and stays truncated
            assert trunc.all() and list(vec.episode_steps()) == [11, 11]
            last = obs
            obs, _ = vec.reset(options={"reset_mask": np.array([False, True])})
            assert np.array_equal(obs[0], last[0]) and np.array_equal(obs[1], start[1])
            assert list(vec.episode_steps()) == [11, 0]


def test_record_episode_statistics(vec_factory):
    for mode in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP):
        vec = gym.wrappers.vector.RecordEpisodeStatistics(
            vec_factory(2, autoreset_mode=mode, use_restricted_actions=DISCRETE, max_episode_steps=10))
        vec.reset(seed=0)
        lengths = []
        for step in range(25):
            _, _, _, _, infos = vec.step(np.zeros(2, int))
            if "episode" in infos:
                lengths += list(infos["episode"]["l"][infos["_episode"]])
        assert lengths == [10, 10, 10, 10]


def test_cleanrl_style_loop(vec_factory):
    """The loop of CleanRL's PPO (buffers from the single spaces, dones from both flags, episode stats)."""
    num_envs, num_steps = 4, 24
    envs = gym.wrappers.vector.RecordEpisodeStatistics(vec_factory(
        num_envs, use_restricted_actions=DISCRETE, frameskip=4, grayscale=True, resize=(84, 84), frame_stack=4,
        max_episode_steps=10))
    assert isinstance(envs.single_action_space, gym.spaces.Discrete)
    obs_buf = np.zeros((num_steps, num_envs) + envs.single_observation_space.shape, np.float32)
    rew_buf = np.zeros((num_steps, num_envs), np.float32)
    done_buf = np.zeros((num_steps, num_envs), np.float32)
    next_obs, _ = envs.reset(seed=1)
    next_done = np.zeros(num_envs)
    returns = []
    rng = np.random.default_rng(0)
    for step in range(num_steps):
        obs_buf[step] = next_obs / 255.0
        done_buf[step] = next_done
        action = rng.integers(0, envs.single_action_space.n, size=num_envs)
        next_obs, reward, terminations, truncations, infos = envs.step(action)
        next_done = np.logical_or(terminations, truncations)
        rew_buf[step] = reward.reshape(-1)
        if "episode" in infos:
            returns += list(infos["episode"]["r"][infos["_episode"]])
    assert obs_buf.shape == (num_steps, num_envs, 4, 84, 84) and len(returns) == 2 * num_envs
    assert done_buf.sum() == 2 * num_envs


def test_recv_same_step_final_obs(vec_factory):
    vec = vec_factory(2, batch_size=1, autoreset_mode=AutoresetMode.SAME_STEP, use_restricted_actions=DISCRETE,
                      max_episode_steps=2)
    start, _ = vec.reset(seed=0)
    finals = 0
    for step in range(4):
        vec.send(np.array([3, 3]))
        for _ in range(2):
            obs, rewards, term, trunc, infos = vec.recv()
            i = infos["env_id"][0]
            if step % 2 == 1:
                assert trunc[0] and infos["_final_obs"][0] and np.array_equal(obs[0], start[i])
                assert not np.array_equal(infos["final_obs"][0], obs[0])
                finals += 1
            else:
                assert "final_obs" not in infos
    assert finals == 4


# ---- threads ----

def stream(vec, steps=30):
    out = []
    obs, _ = vec.reset(seed=3)
    out.append(obs.tobytes())
    for step in range(steps):
        obs, rewards, term, trunc, infos = vec.step(actions(step, vec.num_envs))
        final = infos.get("final_obs")
        out.append((obs.tobytes(), rewards.tobytes(), term.tobytes(), trunc.tobytes(),
                    None if final is None else [None if f is None else f.tobytes() for f in final]))
    return out


def test_thread_count_independence(vec_factory):
    kw = dict(KW, max_episode_steps=12, autoreset_mode=AutoresetMode.SAME_STEP, grayscale=True, frame_stack=2)
    one = stream(vec_factory(4, num_threads=1, **kw))
    assert stream(vec_factory(4, num_threads=3, **kw)) == one
    assert stream(vec_factory(4, **kw)) == one  # one thread per CPU


def test_gil_is_released_while_stepping(vec_factory):
    vec = vec_factory(2, num_threads=2, frameskip=600, obs_type=retrogym.Observations.RAM)
    vec.reset(seed=0)
    ticks, stop = [], threading.Event()

    def ticker():
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    t = threading.Thread(target=ticker)
    t.start()
    time.sleep(0.02)
    start = time.perf_counter()
    vec.step(np.zeros((2, 9), np.int8))
    end = time.perf_counter()
    stop.set()
    t.join()
    during = [x for x in ticks if start <= x <= end]
    assert end - start > 0.05, "the step was too short to tell"
    assert len(during) >= 5, f"only {len(during)} ticks during a {end - start:.3f} s step: the GIL was held"


# ---- send / recv ----

def test_send_recv_streams_and_ids(vec_factory):
    n, k = 4, 15
    kw = dict(KW, max_episode_steps=9)
    sync = vec_factory(n, num_threads=1, **kw)
    obs, _ = sync.reset(seed=21)
    expected = {i: [] for i in range(n)}
    for step in range(k):
        obs, rewards, term, trunc, infos = sync.step(np.array([actions(step, n)[i] for i in range(n)]))
        for i in range(n):
            expected[i].append((obs[i].tobytes(), rewards[i], term[i], trunc[i], infos["play_frames"][i]))

    vec = vec_factory(n, num_threads=2, batch_size=2, **kw)
    assert vec.batch_size == 2
    vec.reset(seed=21)
    with pytest.raises(RuntimeError):
        vec.recv()  # nothing in flight
    vec.send(actions(0, n))  # every env
    with pytest.raises(RuntimeError):
        vec.send(actions(0, 1), [2])  # env 2 has a step in flight already
    with pytest.raises(RuntimeError):
        vec.step(actions(0, n))
    with pytest.raises(RuntimeError):
        vec.reset()
    got = {i: [] for i in range(n)}
    while True:
        obs, rewards, term, trunc, infos = vec.recv()
        ids = infos["env_id"]
        assert ids.dtype == np.int32 and len(ids) == 2 and ids[0] != ids[1] and obs.shape[0] == 2
        assert infos["play_frames"].shape == (2,)
        for row, i in enumerate(ids):
            got[i].append((obs[row].tobytes(), rewards[row], term[row], trunc[row], infos["play_frames"][row]))
        again = [i for i in ids if len(got[i]) < k]
        if again:
            vec.send(np.array([actions(len(got[i]), n)[i] for i in again]), again)
        if vec._pool.in_flight < 2:
            break
    for i in range(n):
        assert len(got[i]) >= k - 1
        assert got[i] == expected[i][:len(got[i])], i


def test_async_reset(vec_factory):
    vec = vec_factory(4, batch_size=2, use_restricted_actions=DISCRETE)
    vec.async_reset(seed=1)
    start, _ = vec_factory(4, use_restricted_actions=DISCRETE).reset(seed=1)
    for ids in ([0, 1], [2, 3]):
        obs, rewards, term, trunc, infos = vec.recv()
        assert list(infos["env_id"]) == ids and np.array_equal(obs, start[ids])
        assert not rewards.any() and not term.any() and not trunc.any()
    vec.send(np.zeros(2, int), [3, 1])
    obs, rewards, term, trunc, infos = vec.recv()
    assert sorted(infos["env_id"]) == [1, 3]


# ---- spaces, copies, preprocessing ----

def test_spaces(vec_factory):
    cases = [
        (dict(), (224, 256, 3), gym.spaces.Box(0, 1, (3, 9), np.int8)),  # batch_space(MultiBinary(9))
        (dict(use_restricted_actions=retrogym.Actions.MULTI_DISCRETE), (224, 256, 3), None),
        (dict(use_restricted_actions=DISCRETE, grayscale=True), (224, 256), gym.spaces.MultiDiscrete([36] * 3)),
        (dict(grayscale=True, resize=(84, 84), frame_stack=4), (4, 84, 84), None),
        (dict(resize=(84, 84), frame_stack=2), (2, 84, 84, 3), None),
        (dict(obs_type=retrogym.Observations.RAM, frame_stack=2), None, None),
    ]
    for kwargs, shape, batched_action in cases:
        vec = vec_factory(3, **kwargs)
        if shape is None:  # RAM: every memory block
            ram = retrogym.make(GAME, obs_type=retrogym.Observations.RAM)
            shape = (2, ram.observation_space.shape[0])
            ram.close()
        assert vec.single_observation_space == gym.spaces.Box(0, 255, shape, np.uint8)
        assert vec.observation_space.shape == (3, *shape)
        if batched_action is not None:
            assert vec.action_space == batched_action
        assert vec.num_envs == 3 and isinstance(vec, gym.vector.VectorEnv)
        obs, _ = vec.reset(seed=0)
        assert vec.observation_space.contains(obs)
        for _ in range(2):
            obs, *_ = vec.step(vec.action_space.sample())
            assert vec.observation_space.contains(obs)
    multi = vec_factory(2, use_restricted_actions=retrogym.Actions.MULTI_DISCRETE)
    assert multi.single_action_space == gym.spaces.MultiDiscrete([3, 3, 4])
    assert multi.action_space.shape == (2, 3)


def test_outputs_are_owned_copies(vec_factory):
    vec = vec_factory(2, use_restricted_actions=DISCRETE, frameskip=4)
    obs, infos = vec.reset(seed=0)
    first = obs.copy()
    results = vec.step(np.array([3, 3]))
    for a in (obs, *results[:4], infos["lives"]):
        assert a.flags.owndata and a.flags.writeable and a.base is None
    obs[:] = 0  # writing into a result changes nothing in the pool
    again, *_ = vec.step(np.array([3, 3]))
    assert not np.array_equal(again, first) and again.any()
    assert np.array_equal(first, vec_factory(2, use_restricted_actions=DISCRETE, frameskip=4).reset(seed=0)[0])


def luma(img):
    """The pool's grayscale of one frame: (299 R + 587 G + 114 B) / 1000, rounded half up."""
    s = img.astype(np.int64)
    return ((299 * s[..., 0] + 587 * s[..., 1] + 114 * s[..., 2] + 500) // 1000).astype(np.uint8)


def area(img, h, w):
    """OpenCV's INTER_AREA for sizes that divide the screen's (blocks of fy x fx): (s + 2) >> 2 for 2 x 2 blocks,
    else the sum times float32(1 / (fy fx)) rounded half to even (test_atari_preprocessing.py checks the bytes
    against cv2 itself)."""
    if img.ndim == 2:
        img = img[..., None]
    H, W = img.shape[:2]
    fy, fx = H // h, W // w
    s = img.astype(np.int64).reshape(h, fy, w, fx, -1).sum(axis=(1, 3))
    if fy == fx == 2:
        out = (s + 2) >> 2
    else:
        out = np.rint(s.astype(np.float32) * np.float32(1.0 / (fy * fx)))
    return out.astype(np.uint8).squeeze()


def gray_area(img, h, w):
    """Gray first, then the resize (as AtariPreprocessing: ALE's gray screen, then cv2.resize)."""
    return area(luma(img), h, w)


@pytest.mark.parametrize("pre, ref", [
    (dict(grayscale=True), lambda f: luma(f)),
    (dict(grayscale=True, resize=(112, 128), frame_stack=3), lambda f: gray_area(f, 112, 128)),
    (dict(resize=(56, 64), frame_stack=2), lambda f: area(f, 56, 64)),
])
def test_preprocessing_against_numpy(vec_factory, pre, ref):
    kw = dict(use_restricted_actions=DISCRETE, frameskip=8)
    stack = pre.get("frame_stack", 1)
    vec = vec_factory(2, reward_clip=4, **kw, **pre)
    single = retrogym.make(GAME, **kw)
    try:
        obs, _ = vec.reset(seed=0)
        frame, _ = single.reset(seed=0)
        frames = [ref(frame)] * stack  # a new episode fills the stack with its first frame
        clipped = 0
        for step in range(120):
            a = actions(step, 2)
            obs, rewards, *_ = vec.step(np.array([a[0], a[0]]))
            frame, r, *_ = single.step(a[0])
            frames = (frames + [ref(frame)])[-stack:]
            expect = np.stack(frames) if stack > 1 else frames[0]
            assert np.array_equal(obs[0], expect) and np.array_equal(obs[1], expect), step
            assert rewards[0] == np.clip(r, -4, 4)
            clipped += r > 4
        assert clipped, "no reward above the clip in the run"
    finally:
        single.close()


def test_ram_frame_stack(vec_factory):
    vec = vec_factory(2, obs_type=retrogym.Observations.RAM, frame_stack=3, use_restricted_actions=DISCRETE)
    single = retrogym.make(GAME, obs_type=retrogym.Observations.RAM, use_restricted_actions=DISCRETE)
    try:
        obs, _ = vec.reset(seed=0)
        ram, _ = single.reset(seed=0)
        assert all(np.array_equal(obs[0][k], ram) for k in range(3))
        prev = ram
        ram, *_ = single.step(5)
        obs, *_ = vec.step(np.array([5, 5]))
        assert np.array_equal(obs[1][2], ram) and np.array_equal(obs[1][1], prev) and np.array_equal(obs[1][0], prev)
    finally:
        single.close()


def test_gymnasium_make_vec_uses_the_pool():
    vec = gym.make_vec("retrogym/StarCatcher-Nes-v0", num_envs=2, use_restricted_actions=DISCRETE)
    sync = gym.make_vec("retrogym/StarCatcher-Nes-v0", num_envs=2, vectorization_mode="sync",
                        use_restricted_actions=DISCRETE)
    try:
        assert isinstance(vec, retrogym.RetroVectorEnv) and vec.spec.id == "retrogym/StarCatcher-Nes-v0"
        assert isinstance(sync, gym.vector.SyncVectorEnv)
        assert np.array_equal(vec.reset(seed=4)[0], sync.reset(seed=4)[0])
        assert np.array_equal(vec.step([1, 2])[0], sync.step([1, 2])[0])
    finally:
        vec.close()
        sync.close()


# ---- errors ----

def test_errors(vec_factory):
    vec = vec_factory(3, use_restricted_actions=DISCRETE)
    with pytest.raises(RuntimeError, match="reset"):
        vec.step(np.zeros(3, int))  # before reset
    vec.reset(seed=0)
    for bad in (np.zeros(2, int), np.zeros((3, 2), int), np.zeros((3, 1, 1), int), "left"):
        with pytest.raises(ValueError):
            vec.step(bad)
    with pytest.raises(ValueError, match="environment 1"):
        vec.step(np.array([0, 99, 0]))  # out of range for env 1
    vec.step(np.array([0, 1, 2]))  # the pool goes on
    with pytest.raises(ValueError):
        vec.send(np.zeros(2, int), [0, 0])  # twice the same env
    with pytest.raises(ValueError):
        vec.send(np.zeros(1, int), [3])
    with pytest.raises(ValueError):
        vec.reset(seed=[1, 5, 9])  # the pool seeds env i with seed + i
    assert vec.reset(seed=[1, 2, 3])[0].shape[0] == 3
    with pytest.raises(ValueError):
        vec.reset(seed=1, options={"reset_mask": np.array([True, False, False])})
    with pytest.raises(TypeError):
        vec.reset(options={"reset_mask": [True, False, False]})
    mb = vec_factory(2)
    mb.reset(seed=0)
    with pytest.raises(ValueError):
        mb.step(np.zeros((2, 8), np.int8))  # MultiBinary(9)
    vec.close()
    vec.close()  # idempotent
    for call in (lambda: vec.step(np.zeros(3, int)), lambda: vec.reset(), lambda: vec.recv(),
                 lambda: vec.send(np.zeros(3, int))):
        with pytest.raises(RuntimeError, match="closed"):
            call()
    assert vec.closed


@pytest.mark.parametrize("kwargs, exc", [
    (dict(num_envs=0), ValueError),
    (dict(batch_size=4), ValueError),
    (dict(num_threads=0), ValueError),
    (dict(resize=(84,)), ValueError),
    (dict(frame_stack=0), ValueError),
    (dict(reward_clip=-1), ValueError),
    (dict(autoreset_mode="sometimes"), ValueError),
    (dict(obs_type=retrogym.Observations.RAM, grayscale=True), ValueError),
    (dict(render_mode="human"), ValueError),
    (dict(colour=True), TypeError),
    (dict(frameskip=0), ValueError),
    (dict(env_kwargs=[{}, {"use_restricted_actions": DISCRETE}, {}]), ValueError),
    (dict(env_kwargs=[{}]), ValueError),
])
def test_bad_arguments(kwargs, exc):
    kwargs = dict(kwargs)
    num_envs = kwargs.pop("num_envs", 3)
    with pytest.raises(exc):
        retrogym.make_vec(GAME, num_envs, **kwargs)


def test_unknown_game():
    with pytest.raises(FileNotFoundError):
        retrogym.make_vec("NoSuchGame-Nes", 2)


# ---- stable-baselines3 ----

@pytest.mark.skipif(HAS_SB3, reason="stable-baselines3 is installed")
def test_sb3_module_imports_without_sb3():
    import retrogym.sb3

    with pytest.raises(ImportError, match="stable-baselines3"):
        retrogym.sb3.RetrogymVecEnv


@pytest.mark.skipif(not HAS_SB3, reason="stable-baselines3 is not installed")
def test_sb3_adapter_equals_dummy_vec_env():
    from stable_baselines3.common.vec_env import DummyVecEnv
    from retrogym.sb3 import RetrogymVecEnv

    n, kw = 3, dict(KW, max_episode_steps=10)
    ours = RetrogymVecEnv(GAME, n, num_threads=2, **kw)
    ref = DummyVecEnv([lambda: retrogym.make(GAME, **kw) for _ in range(n)])
    try:
        assert ours.observation_space == ref.observation_space and ours.action_space == ref.action_space
        ours.seed(5)
        ref.seed(5)
        assert np.array_equal(ours.reset(), ref.reset())
        assert ours.reset_infos == ref.reset_infos
        dones = 0
        for step in range(25):
            a = actions(step, n)
            o1, r1, d1, i1 = ours.step(a)
            o2, r2, d2, i2 = ref.step(a)
            assert np.array_equal(o1, o2) and np.array_equal(r1, r2) and np.array_equal(d1, d2)
            for i in range(n):
                assert set(i1[i]) == set(i2[i])
                assert i1[i]["TimeLimit.truncated"] == i2[i]["TimeLimit.truncated"]
                if d1[i]:  # the pool resets in the worker: the variables are the new episode's (docs/compat.md)
                    assert np.array_equal(i1[i]["terminal_observation"], i2[i]["terminal_observation"])
                else:
                    assert i1[i] == i2[i]
            dones += d1.sum()
        assert dones == 2 * n
        assert ours.get_attr("render_mode") == [None] * n
        assert ours.env_is_wrapped(gym.Wrapper) == [False] * n
    finally:
        ours.close()
        ref.close()
