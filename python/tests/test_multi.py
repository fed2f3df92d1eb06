"""Many environments per process, of any systems, alive together and on threads; close() frees everything."""
import gc
import os
import threading
import time

import numpy as np
import pytest

import retrogym
from conftest import GAME, SYSTEMS, core_for


def stream(env, seed, n=150):
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    out = [obs.tobytes()]
    for _ in range(n):
        obs, reward, terminated, _, info = env.step(rng.integers(0, 2, size=env.action_space.n, dtype=np.int8))
        out.append((obs.tobytes(), reward, terminated, tuple(sorted(info.items()))))
    return out


def available_games(test_games):
    games = []
    for system in SYSTEMS:
        try:
            core_for(system)
        except pytest.skip.Exception:
            continue
        games.append(test_games[system])
    return games


def test_many_systems_alive_together(test_games, env_factory):
    games = available_games(test_games)
    if len(games) < 2:
        pytest.skip("fewer than two systems have a core")
    alone = {}
    for game in games:  # each alone, closed before the next
        env = game.make(use_restricted_actions=retrogym.Actions.ALL)
        alone[game.system] = stream(env, 1)
        env.close()
    envs = {game.system: env_factory(game, use_restricted_actions=retrogym.Actions.ALL) for game in games}
    for system, env in envs.items():  # all alive, interleaved through their episodes
        assert stream(env, 1) == alone[system], system
    more = [env_factory(games[0], use_restricted_actions=retrogym.Actions.ALL) for _ in range(3)]
    for env in more:
        assert stream(env, 1) == alone[games[0].system]


def test_threads(test_games):
    games = available_games(test_games)
    if not games:
        pytest.skip("no system has a core")
    jobs = [games[i % len(games)] for i in range(6)]
    expected = []
    for game in jobs:
        env = game.make(use_restricted_actions=retrogym.Actions.ALL)
        expected.append(stream(env, 2))
        env.close()
    results = [None] * len(jobs)
    errors = []

    def work(i):
        try:
            env = jobs[i].make(use_restricted_actions=retrogym.Actions.ALL)
            try:
                results[i] = stream(env, 2)
            finally:
                env.close()
        except Exception as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert results == expected


@pytest.mark.starcatcher
def test_gil_is_released_while_emulating(env_factory):
    """A long step (many frames) must let another Python thread run meanwhile."""
    env = env_factory(frameskip=1000, obs_type=retrogym.Observations.RAM)
    env.reset(seed=0)
    ticks = []
    stop = threading.Event()

    def ticker():
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    t = threading.Thread(target=ticker)
    t.start()
    time.sleep(0.02)
    start = time.perf_counter()
    env.step(np.zeros(9, np.int8))
    end = time.perf_counter()
    stop.set()
    t.join()
    during = [x for x in ticks if start <= x <= end]
    assert end - start > 0.05, "the step was too short to tell"
    assert len(during) >= 5, f"only {len(during)} ticks during a {end - start:.3f} s step: the GIL was held"


@pytest.mark.starcatcher
def test_same_env_from_two_threads_is_refused_not_corrupted(env_factory):
    env = env_factory(frameskip=1000, obs_type=retrogym.Observations.RAM)
    env.reset(seed=0)
    errors = []
    started = threading.Event()

    def long_step():
        started.set()
        env.step(np.zeros(9, np.int8))

    t = threading.Thread(target=long_step)
    t.start()
    started.wait()
    deadline = time.perf_counter() + 5
    refused = None
    while t.is_alive() and time.perf_counter() < deadline:
        try:
            env.step(np.zeros(9, np.int8))
        except RuntimeError as e:
            refused = e
            break
        except Exception as e:
            errors.append(e)
            break
    t.join()
    assert not errors
    if refused is None:
        pytest.skip("the other thread's step finished before this one could try")
    assert "another thread" in str(refused)
    with pytest.raises(RuntimeError, match="closed"):
        env.close()
        env.step(np.zeros(9, np.int8))


def _fd_count():
    return len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else 0


def _retrogym_tmpdirs(root):
    return len([d for d in os.listdir(root) if d.startswith("retrogym-")])


@pytest.mark.starcatcher
def test_close_frees_everything(tmp_path, monkeypatch):
    # The library makes an instance's private folder under $TMPDIR: here a folder of this test's own, so that other
    # test processes (pytest -n) making and removing theirs in /tmp at the same time do not count.
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    dirs = _retrogym_tmpdirs(tmp_path)
    env = retrogym.make(GAME)
    env.reset(seed=0)
    assert _retrogym_tmpdirs(tmp_path) == dirs + 1  # the folder this test watches is the one in use
    env.close()
    gc.collect()
    fds = _fd_count()
    assert _retrogym_tmpdirs(tmp_path) == dirs
    for _ in range(20):
        env = retrogym.make(GAME)
        env.reset(seed=0)
        env.step(np.zeros(9, np.int8))
        env.close()
        env.close()  # idempotent
    gc.collect()
    assert _fd_count() <= fds
    assert _retrogym_tmpdirs(tmp_path) == dirs
    for _ in range(10):  # dropped without close(): freed by the garbage collector
        retrogym.make(GAME).reset(seed=0)
    gc.collect()
    assert _retrogym_tmpdirs(tmp_path) == dirs
