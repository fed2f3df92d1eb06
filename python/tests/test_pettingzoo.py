"""retrogym.pettingzoo: two-player games as PettingZoo Parallel and AEC environments (issue 23, item 2).

Real game: stable-retro's Pong integration (its two-player start state Start.2P and per-player ``rewards``) with
ale-py's Pong ROM; skipped without pettingzoo, stable-retro or ale-py."""
import importlib.util
import json
import os
import shutil

import gymnasium as gym
import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo", reason="pettingzoo is not installed (pip install retrogym[pettingzoo])")
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test  # noqa: E402

import retrogym  # noqa: E402
from retrogym import pettingzoo as rpz  # noqa: E402

GAME = "Pong-Atari2600-v0"
A = retrogym.Actions
MODES = [A.DISCRETE, A.FILTERED, A.MULTI_DISCRETE, A.ALL]


def _package_dir(name):
    spec = importlib.util.find_spec(name)
    return os.path.dirname(spec.origin) if spec and spec.origin else None


@pytest.fixture(scope="module")
def pong_dir(tmp_path_factory):
    """A data root with stable-retro's Pong integration and ale-py's Pong ROM."""
    sr, ale = _package_dir("stable_retro"), _package_dir("ale_py")
    src = os.path.join(sr, "data", "stable", GAME) if sr else None
    rom = os.path.join(ale, "roms", "pong.bin") if ale else None
    if not (src and os.path.isdir(src) and rom and os.path.isfile(rom)):
        pytest.skip("stable-retro's Pong integration or ale-py's Pong ROM is missing (pip install stable-retro ale-py)")
    root = tmp_path_factory.mktemp("pz-root")
    shutil.copytree(src, root / "stable" / GAME)
    shutil.copy(rom, root / "stable" / GAME / "rom.a26")
    return root


@pytest.fixture(autouse=True)
def pong(pong_dir, saved_data_settings):
    saved_data_settings.set_path(str(pong_dir))
    saved_data_settings.clear_custom_paths()
    return pong_dir


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.name)
def test_parallel_and_aec_api(mode):
    env = rpz.parallel_env(GAME, use_restricted_actions=mode)
    assert env.possible_agents == ["first_0", "second_0"]
    single = retrogym.make(GAME, players=2, use_restricted_actions=mode)
    try:
        space = env.action_space("first_0")
        assert env.action_space("second_0") == space
        if mode is A.DISCRETE:  # 18 = 2 * 3 * 3 (Pong's groups); the joint env has 18 ** 2
            assert space.n == 18 and single.action_space.n == 324
        elif mode is A.MULTI_DISCRETE:
            assert list(space.nvec) == [2, 3, 3] and list(single.action_space.nvec) == [2, 3, 3] * 2
        else:
            assert space.n == 8 and single.action_space.n == 16
        assert env.observation_space("second_0") == single.observation_space
    finally:
        single.close()
    parallel_api_test(env, num_cycles=300)
    env.close()
    api_test(rpz.env(GAME, use_restricted_actions=mode), num_cycles=300)


@pytest.mark.parametrize("mode", [A.DISCRETE, A.MULTI_DISCRETE], ids=lambda m: m.name)
def test_seeded_runs_repeat(mode):
    parallel_seed_test(lambda: rpz.parallel_env(GAME, use_restricted_actions=mode, sticky_prob=0.25), num_cycles=100)
    seed_test(lambda: rpz.env(GAME, use_restricted_actions=mode, sticky_prob=0.25), num_cycles=100)

    # PettingZoo's parallel seed test stops after one step (it tests any() of a dict's keys): 300 steps here
    def run(seed):
        env = rpz.parallel_env(GAME, use_restricted_actions=mode, sticky_prob=0.25)
        obs, _ = env.reset(seed=seed)
        for a in env.possible_agents:
            env.action_space(a).seed(7)
        out = [obs["first_0"].tobytes()]
        for _ in range(300):
            obs, rew, term, trunc, info = env.step({a: env.action_space(a).sample() for a in env.agents})
            out.append((obs["first_0"].tobytes(), obs["second_0"].tobytes(), rew, term, trunc, info))
        env.close()
        return out

    assert run(3) == run(3)


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.name)
def test_agents_are_the_players_of_the_joint_env(mode):
    """Each step equals make(players=2)'s step with the joint action; each agent's action presses its player's
    buttons only; each agent's reward is its player's."""
    env = rpz.parallel_env(GAME, use_restricted_actions=mode)
    single = retrogym.make(GAME, players=2, use_restricted_actions=mode)
    single.multi_rewards = True
    try:
        obs, info = env.reset(seed=5)
        obs1, info1 = single.reset(seed=5)
        assert np.array_equal(obs["first_0"], obs1) and np.array_equal(obs["second_0"], obs1)
        assert info == {"first_0": info1, "second_0": info1}
        for a in env.possible_agents:
            env.action_space(a).seed(11)
        rewarded = ends = 0
        for t in range(400):
            if not env.agents:  # the episode ended for both: start both over
                ends += 1
                obs, info = env.reset(seed=t)
                obs1, info1 = single.reset(seed=t)
                assert np.array_equal(obs["first_0"], obs1) and info["second_0"] == info1
            actions = {a: env.action_space(a).sample() for a in env.agents}
            joint = env.joint_action(actions)
            masks = single.decode_action(joint)
            for p, a in enumerate(env.possible_agents):  # agent p's action alone presses player p's buttons only
                alone = env.joint_action({a: actions[a], **{b: _idle(env, b) for b in env.possible_agents if b != a}})
                decoded = single.decode_action(alone)
                assert decoded[p] == masks[p] and decoded[1 - p] == 0
            obs, rew, term, trunc, info = env.step(actions)
            obs1, rew1, term1, trunc1, info1 = single.step(joint)
            assert np.array_equal(obs["first_0"], obs1) and np.array_equal(obs["second_0"], obs1)
            assert rew == {"first_0": rew1[0], "second_0": rew1[1]}
            assert term == {"first_0": term1, "second_0": term1} and trunc == {"first_0": trunc1, "second_0": trunc1}
            assert info == {"first_0": info1, "second_0": info1}
            rewarded += rew["first_0"] != 0
            assert rew["first_0"] == -rew["second_0"]  # Pong's scenario: a point is +1 for one, -1 for the other
        assert rewarded or ends  # random play lets points through (ALL: presses RESET and SELECT too)
    finally:
        env.close()
        single.close()


def _idle(env, agent):
    space = env.action_space(agent)
    return 0 if isinstance(space, gym.spaces.Discrete) else np.zeros(space.shape, np.int64)


def test_second_agent_moves_its_paddle_and_rewards_follow_the_score():
    env = rpz.parallel_env(GAME, use_restricted_actions=A.DISCRETE)
    env.reset(seed=0)
    up = 2  # Discrete digit 2 = the second combination of the UP/DOWN group (UP) with BUTTON and LEFT/RIGHT off
    assert env.unwrapped_retro.get_action_meaning(env.joint_action({"first_0": 0, "second_0": up})) == [[], ["UP"]]
    _, _, _, _, info = env.step({"first_0": 0, "second_0": 0})
    start = info["second_0"]
    scores = (start["score1"], start["score2"])
    for _ in range(30):
        _, rew, _, _, info = env.step({"first_0": 0, "second_0": up})
    assert info["second_0"]["p2_pos"] != start["p2_pos"] and info["first_0"]["p1_pos"] == start["p1_pos"]
    points = 0
    for _ in range(300):
        _, rew, _, _, info = env.step({"first_0": 0, "second_0": 0})
        s1, s2 = info["first_0"]["score1"], info["first_0"]["score2"]
        d1, d2 = s1 - scores[0], s2 - scores[1]
        scores = (s1, s2)
        assert rew == {"first_0": float(d2 - d1), "second_0": float(d1 - d2)}  # scenario.json's rewards arrays
        points += d1 + d2
    assert points >= 1
    env.close()


def test_state_ram_render_and_episode_end():
    env = rpz.parallel_env(GAME, obs_type=retrogym.Observations.RAM, max_episode_steps=5, render_mode="rgb_array")
    obs, _ = env.reset(seed=1)
    assert obs["first_0"].shape == (128,) and env.observation_space("second_0").shape == (128,)
    assert np.array_equal(env.state(), obs["second_0"])
    assert env.render().shape == (210, 160, 3)
    for t in range(5):
        assert env.agents == ["first_0", "second_0"]
        _, _, term, trunc, _ = env.step({"first_0": np.zeros(8), "second_0": np.ones(8)})
    assert trunc == {"first_0": True, "second_0": True} and term == {"first_0": False, "second_0": False}
    assert env.agents == []
    with pytest.raises(RuntimeError, match="reset"):
        env.step({})
    env.reset()
    assert env.agents == ["first_0", "second_0"]
    env.close()


def test_per_player_crops(pong):
    path = pong / "stable" / GAME / "scenario.json"
    original = path.read_text()
    scenario = json.loads(original)
    scenario["crops"] = [[0, 34, 80, 160], [80, 34, 0, 160]]  # each player's half of the field
    path.write_text(json.dumps(scenario))
    try:
        env = rpz.parallel_env(GAME)
        assert env.observation_space("first_0").shape == (160, 80, 3)
        assert env.observation_space("second_0").shape == (160, 80, 3)
        obs, _ = env.reset(seed=0)
        for _ in range(20):
            obs, *_ = env.step({a: env.action_space(a).sample() for a in env.agents})
        screen = env.unwrapped_retro.em.get_screen()
        assert np.array_equal(obs["first_0"], screen[34:194, 0:80])
        assert np.array_equal(obs["second_0"], screen[34:194, 80:160])
        parallel_api_test(env, num_cycles=50)
        env.close()
    finally:
        path.write_text(original)


def test_single_reward_scenario_rewards_player_1_only(pong):
    path = pong / "stable" / GAME / "scenario.json"
    original = path.read_text()
    scenario = json.loads(original)
    scenario["reward"] = scenario.pop("rewards")[0]
    path.write_text(json.dumps(scenario))
    try:
        env = rpz.parallel_env(GAME, use_restricted_actions=A.DISCRETE)
        env.reset(seed=0)
        got = []
        for _ in range(120):  # idle: the serve passes player 1's paddle (score2 + 1: +1 for player 1)
            _, rew, _, _, _ = env.step({"first_0": 0, "second_0": 0})
            got += [rew] if any(rew.values()) else []
        assert got == [{"first_0": 1.0, "second_0": 0.0}]
        env.close()
    finally:
        path.write_text(original)


def test_bad_input():
    for players in (0, 5, True, "2"):
        with pytest.raises(ValueError, match="players"):
            rpz.parallel_env(GAME, players=players)
    with pytest.raises(ValueError, match="preprocessing"):
        rpz.parallel_env(GAME, resize=(84, 84))
    with pytest.raises(ValueError, match="render_mode"):
        rpz.parallel_env(GAME, render_mode="human")
    env = rpz.parallel_env(GAME, use_restricted_actions=A.DISCRETE)
    env.reset(seed=0)
    before = env.unwrapped_retro.episode_steps
    with pytest.raises(ValueError, match="no action for agent"):
        env.step({"first_0": 0})
    with pytest.raises(ValueError, match="unknown agent"):
        env.step({"first_0": 0, "second_0": 0, "third_0": 0})
    with pytest.raises(ValueError, match="outside Discrete"):
        env.step({"first_0": 18, "second_0": 0})
    with pytest.raises(ValueError, match="outside Discrete"):
        env.step({"first_0": -1, "second_0": 0})
    assert env.unwrapped_retro.episode_steps == before  # refused steps run nothing
    env.step({"first_0": 17, "second_0": 0})
    env.close()
    env = rpz.parallel_env(GAME, use_restricted_actions=A.FILTERED)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="shape"):
        env.step({"first_0": np.zeros(16), "second_0": np.zeros(8)})
    env.close()
    with pytest.raises(RuntimeError, match="closed"):
        env.step({"first_0": np.zeros(8), "second_0": np.zeros(8)})


@pytest.mark.parametrize("mode", [A.DISCRETE, A.FILTERED, A.MULTI_DISCRETE], ids=lambda m: m.name)
def test_vec_env_rows_are_the_agents_of_each_environment(mode):
    """vec_env(game, 3): 6 rows, row 2i + p = agent p of environment i, equal step by step to three parallel_envs
    (seeds 20, 21, 22: make_vec's seed + i) driven with the same actions."""
    n = 3
    vec = rpz.vec_env(GAME, n, use_restricted_actions=mode, sticky_prob=0.25, num_threads=2)
    envs = [rpz.parallel_env(GAME, use_restricted_actions=mode, sticky_prob=0.25) for _ in range(n)]
    try:
        assert vec.num_envs == 2 * n and vec.single_action_space == envs[0].action_space("first_0")
        assert vec.single_observation_space == envs[0].observation_space("second_0")
        obs, infos = vec.reset(seed=20)
        assert obs.shape == (2 * n, 210, 160, 3) and infos["score1"].shape == (2 * n,)
        for i, env in enumerate(envs):
            o, info = env.reset(seed=20 + i)
            for p, a in enumerate(env.possible_agents):
                assert np.array_equal(obs[2 * i + p], o[a]) and infos["ball_y"][2 * i + p] == info[a]["ball_y"]
        vec.action_space.seed(4)
        for _ in range(150):
            actions = vec.action_space.sample()
            obs, rew, term, trunc, infos = vec.step(actions)
            assert rew.dtype == np.float32 and rew.shape == (2 * n,)
            for i, env in enumerate(envs):
                o, r, te, tr, info = env.step({a: actions[2 * i + p] for p, a in enumerate(env.possible_agents)})
                for p, a in enumerate(env.possible_agents):
                    k = 2 * i + p
                    assert np.array_equal(obs[k], o[a])
                    assert (rew[k], term[k], trunc[k]) == (r[a], te[a], tr[a])
                    assert {name: int(infos[name][k]) for name in info[a]} == info[a]
    finally:
        vec.close()
        for env in envs:
            env.close()


def test_vec_env_bad_input():
    with pytest.raises(ValueError, match="players"):
        rpz.vec_env(GAME, 2, players=0)
    vec = rpz.vec_env(GAME, 2, use_restricted_actions=A.DISCRETE, num_threads=1)
    vec.reset(seed=0)
    steps = vec.unwrapped_pool.episode_steps()
    with pytest.raises(ValueError, match="shape"):
        vec.step(np.zeros(2, dtype=np.int64))  # one per environment, not one per agent
    with pytest.raises(ValueError, match="outside Discrete"):
        vec.step(np.array([0, 0, 18, 0]))
    with pytest.raises(ValueError, match="integers"):
        vec.step(np.zeros(4))
    assert list(vec.unwrapped_pool.episode_steps()) == list(steps)  # refused batches run nothing
    vec.step(np.array([17, 0, 0, 17]))
    vec.close()
    vec = rpz.vec_env(GAME, 2, num_threads=1)
    vec.reset(seed=0)
    with pytest.raises(ValueError, match="shape"):
        vec.step(np.zeros((2, 16), dtype=np.int8))
    vec.close()
