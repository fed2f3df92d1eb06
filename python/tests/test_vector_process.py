"""make_vec(isolation="process") (issue 16): worker processes give the same observations, rewards, flags and infos
as worker threads, step by step; a core that crashes, aborts, exits or hangs (the fault cores of
tests/faults/fake_core.c, built by `make build`) costs only its worker's environments one failed row each
(infos["failure"] says why; the row is truncated) while the other environments go on exactly as before."""
import os

import numpy as np
import pytest

import retrogym
from conftest import SOURCE

CORES = os.path.join(SOURCE, "build", "fault-cores")


def fault_core(name):
    path = os.path.join(CORES, f"fault_{name}_libretro.so")
    if not os.path.isfile(path):
        pytest.skip("the fault cores are not built (make build)")
    return path


def _same(a, b):
    """Every part of two step results (obs, rewards, terminations, truncations, infos) is equal."""
    for x, y in zip(a[:4], b[:4]):
        assert x.dtype == y.dtype and x.shape == y.shape
        np.testing.assert_array_equal(x, y)
    ia, ib = a[4], b[4]
    assert sorted(ia) == sorted(ib)
    for k in ia:
        if k in ("final_obs", "final_info"):
            continue  # object arrays and dicts, compared below
        np.testing.assert_array_equal(ia[k], ib[k])
    if "final_obs" in ia:
        for x, y in zip(ia["final_obs"], ib["final_obs"]):
            assert (x is None) == (y is None)
            if x is not None:
                np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("mode", ["NEXT_STEP", "SAME_STEP"])
def test_processes_equal_threads(mode):
    kw = dict(use_restricted_actions=retrogym.Actions.DISCRETE, sticky_prob=0.25, max_episode_steps=40,
              autoreset_mode=mode, frame_stack=2, grayscale=True, num_threads=2)
    t = retrogym.make_vec("StarCatcher-Nes", 3, **kw)
    p = retrogym.make_vec("StarCatcher-Nes", 3, isolation="process", **kw)
    try:
        assert p.isolation == "process" and t.isolation == "threads"
        assert p.observation_space == t.observation_space and p.action_space == t.action_space
        ra, rb = t.reset(seed=11), p.reset(seed=11)
        np.testing.assert_array_equal(ra[0], rb[0])
        rng = np.random.default_rng(0)
        ended = 0
        for _ in range(100):
            act = rng.integers(0, 36, size=3)
            a, b = t.step(act), p.step(act)
            _same(a, b)
            ended += int(a[3].sum())
            assert "failure" not in b[4]
        assert ended >= 3  # episodes of 40 steps: autoresets happened in both
        np.testing.assert_array_equal(t.episode_steps(), p.episode_steps())
    finally:
        t.close()
        p.close()


@pytest.mark.parametrize("fault,reason", [("run_segv", "signal 11"), ("run_abort", "signal 6"),
                                          ("run_exit", "exited with status 3"),
                                          ("run_hang", "longer than 250 ms")])
def test_a_lost_worker_costs_its_envs_one_row(fault, reason, monkeypatch):
    bad, good = fault_core(fault), fault_core("good")
    monkeypatch.setenv("FAULT_FRAME", "25")
    timeout = 0.25 if fault == "run_hang" else None
    vec = retrogym.make_vec("StarCatcher-Nes", 3, num_threads=3, isolation="process", worker_timeout=timeout,
                            env_kwargs=[{"core": bad}, {"core": good}, {"core": good}])
    ref = retrogym.make_vec("StarCatcher-Nes", 3, num_threads=1, env_kwargs=[{"core": good}] * 3)
    try:
        vec.reset(seed=1)
        ref.reset(seed=1)
        act = np.zeros(vec.action_space.shape, dtype=vec.action_space.dtype)
        failed_steps = []
        for step in range(60):
            obs, rew, term, trunc, info = vec.step(act)
            robs, _, _, rtrunc, _ = ref.step(act)
            np.testing.assert_array_equal(obs[1:], robs[1:])  # the other workers' envs go on unchanged
            np.testing.assert_array_equal(trunc[1:], rtrunc[1:])
            if "failure" in info:
                assert list(info["_failure"]) == [True, False, False]
                assert reason in info["failure"][0] and "worker process 0" in info["failure"][0]
                assert info["failure"][1] is None
                assert trunc[0] and not term[0] and rew[0] == 0
                assert not obs[0].any()  # NEXT_STEP: the lost episode's last observation is empty
                failed_steps.append(step)
        assert failed_steps, "the faulty core never failed"
        assert failed_steps[0] + 1 not in failed_steps  # the row after a failed one is the env running again
    finally:
        vec.close()
        ref.close()


def test_bad_arguments():
    with pytest.raises(ValueError, match="isolation"):
        retrogym.make_vec("StarCatcher-Nes", 2, isolation="fork")
    with pytest.raises(ValueError, match="worker_timeout applies"):
        retrogym.make_vec("StarCatcher-Nes", 2, worker_timeout=1.0)
    with pytest.raises(ValueError, match="worker_timeout must"):
        retrogym.make_vec("StarCatcher-Nes", 2, isolation="process", worker_timeout=-1)
    with pytest.raises(ValueError, match="does not record"):
        retrogym.make_vec("StarCatcher-Nes", 2, isolation="process", record=True)
