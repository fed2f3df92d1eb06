"""API shapes and dtypes: make, spaces, reset/step results, render, the package surface."""
import gymnasium as gym
import numpy as np
import pytest

import retrogym
from conftest import GAME, SYSTEMS

pytestmark = pytest.mark.starcatcher


def test_package_surface():
    for name in ("make", "RetroEnv", "State", "Actions", "Observations", "Integrations", "data", "get_system_info",
                 "get_romfile_system", "register_games", "__version__"):
        assert hasattr(retrogym, name), name
    for name in ("list_games", "list_states", "list_scenarios", "get_romfile_path", "get_file_path",
                 "add_custom_path", "add_custom_integration", "Integrations", "DefaultIntegrations"):
        assert hasattr(retrogym.data, name), name
    assert retrogym.State.DEFAULT.value == -1 and retrogym.State.NONE.value == 0
    assert [a.value for a in retrogym.Actions] == [0, 1, 2, 3]
    assert [o.value for o in retrogym.Observations] == [0, 1]
    assert issubclass(retrogym.RetroEnv, gym.Env)


def test_make_returns_gymnasium_env(env_factory):
    env = env_factory()
    assert isinstance(env, gym.Env) and isinstance(env, retrogym.RetroEnv)
    assert env.unwrapped is env
    assert env.gamename == GAME and env.system == "Nes" and env.statename == "Start"
    assert env.buttons == ["B", None, "SELECT", "START", "UP", "DOWN", "LEFT", "RIGHT", "A"]
    assert env.num_buttons == 9 and env.players == 1
    assert env.action_space == gym.spaces.MultiBinary(9)
    assert env.observation_space == gym.spaces.Box(0, 255, (224, 256, 3), np.uint8)
    assert env.use_restricted_actions is retrogym.Actions.FILTERED
    assert env.render_mode is None and env.render() is None
    assert env.core == "nestopia"
    assert env.metadata["render_fps"] == pytest.approx(60.0, abs=0.2)


@pytest.mark.parametrize("obs_type", list(retrogym.Observations))
def test_reset_and_step_types(env_factory, obs_type):
    env = env_factory(obs_type=obs_type)
    obs, info = env.reset(seed=0)
    assert isinstance(obs, np.ndarray) and obs.dtype == np.uint8
    assert obs.shape == env.observation_space.shape and env.observation_space.contains(obs)
    assert obs.flags.c_contiguous and obs.flags.owndata and obs.flags.writeable
    assert isinstance(info, dict) and info["lives"] == 3 and info["score"] == 0
    obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
    assert env.observation_space.contains(obs)
    assert type(reward) is float and reward == 0.0
    assert terminated is False and truncated is False
    assert isinstance(info, dict) and all(type(v) is int for v in info.values())
    assert set(info) == {"game_state", "gameover", "hit_timer", "level", "lives", "play_frames", "player_x",
                         "score", "stars"}
    if obs_type is retrogym.Observations.RAM:
        assert obs.shape == (2048,) and np.array_equal(obs, env.get_ram())
        assert env.ram is obs
    else:
        assert env.img is obs


def test_observations_are_owned_copies(env_factory):
    env = env_factory(use_restricted_actions=retrogym.Actions.ALL)
    obs0, _ = env.reset(seed=0)
    keep = obs0.copy()
    right = np.zeros(9, np.int8)
    right[7] = 1
    frames = [env.step(right)[0] for _ in range(60)]
    assert np.array_equal(obs0, keep), "an earlier observation changed under a later step"
    assert not np.shares_memory(frames[0], frames[1])
    assert any(not np.array_equal(frames[0], f) for f in frames[1:]), "the screen never changed"
    frames[0][:] = 0  # writing into an observation touches nothing of the env
    assert np.array_equal(env.render() if env.render_mode else env.get_screen(), frames[-1])


@pytest.mark.parametrize("mode", list(retrogym.Actions))
def test_action_spaces(env_factory, mode):
    env = env_factory(use_restricted_actions=mode)
    combos = env.button_combos
    assert combos == [[0, 16, 32], [0, 64, 128], [0, 1, 256, 257]]  # UP/DOWN, LEFT/RIGHT, B/A (ascending masks)
    expected = {
        retrogym.Actions.ALL: gym.spaces.MultiBinary(9),
        retrogym.Actions.FILTERED: gym.spaces.MultiBinary(9),
        retrogym.Actions.DISCRETE: gym.spaces.Discrete(36),
        retrogym.Actions.MULTI_DISCRETE: gym.spaces.MultiDiscrete([3, 3, 4]),
    }[mode]
    assert env.action_space == expected
    env.reset(seed=0)
    for _ in range(5):
        env.step(env.action_space.sample())


def test_two_player_spaces(env_factory):
    env = env_factory(players=2, use_restricted_actions=retrogym.Actions.MULTI_DISCRETE)
    assert env.action_space == gym.spaces.MultiDiscrete([3, 3, 4, 3, 3, 4])
    env2 = env_factory(players=2, use_restricted_actions=retrogym.Actions.DISCRETE)
    assert env2.action_space == gym.spaces.Discrete(36 * 36)
    env3 = env_factory(players=2)
    assert env3.action_space == gym.spaces.MultiBinary(18)
    env3.reset(seed=0)
    _, reward, *_ = env3.step(env3.action_space.sample())
    assert type(reward) is float
    env3.multi_rewards = True
    _, rewards, *_ = env3.step(env3.action_space.sample())
    assert isinstance(rewards, list) and len(rewards) == 2


def test_render_rgb_array(env_factory):
    env = env_factory(render_mode="rgb_array")
    obs, _ = env.reset(seed=0)
    frame = env.render()
    assert frame.shape == (224, 256, 3) and frame.dtype == np.uint8 and np.array_equal(frame, obs)
    ram_env = env_factory(render_mode="rgb_array", obs_type=retrogym.Observations.RAM)
    ram_env.reset(seed=0)
    assert ram_env.render().shape == (224, 256, 3)


def test_get_screen_ram_and_em(env_factory):
    env = env_factory()
    env.reset(seed=0)
    assert env.get_screen().shape == (224, 256, 3)
    assert env.em.get_screen().shape == (224, 256, 3)
    assert env.em.get_resolution() == (256, 224)
    assert env.em.get_screen_rate() == pytest.approx(60.0, abs=0.2)
    ram = env.get_ram()
    assert ram.dtype == np.uint8 and ram.shape == (2048,)
    assert ram[35] == env.data["lives"] == 3
    assert env.data.memory.blocks.keys() == {0}
    assert env.data.memory.read(35, 1) == b"\x03"


def test_options_are_applied(env_factory):
    env = env_factory(frameskip=4, max_episode_steps=3, noop_max=5, sticky_prob=0.25, max_pool=True)
    assert env.frameskip == 4
    assert env.metadata["render_fps"] == pytest.approx(15.0, abs=0.1)
    env.reset(seed=1)
    before = env.data["play_frames"]
    results = [env.step(env.action_space.sample()) for _ in range(3)]
    assert env.data["play_frames"] - before == 12  # 4 frames a step
    assert [r[3] for r in results] == [False, False, True]  # truncated at max_episode_steps
    assert env.episode_steps == 3
    alias = env_factory(repeat_action_probability=0.5)
    alias.reset(seed=0)
    assert retrogym.env.OPTIONS["sticky_prob"]


def test_gymnasium_make(saved_data_settings):
    gid = "retrogym/StarCatcher-Nes-v0"
    assert gid in gym.registry
    env = gym.make(gid, max_episode_steps=5, render_mode="rgb_array")
    try:
        obs, _ = env.reset(seed=0)
        assert obs.shape == (224, 256, 3)
        for _ in range(5):
            _, _, terminated, truncated, _ = env.step(env.action_space.sample())
        assert truncated and not terminated
        assert env.unwrapped.gamename == GAME
        assert env.render().shape == (224, 256, 3)
    finally:
        env.close()
    env = gym.make("retrogym:" + gid, use_restricted_actions=retrogym.Actions.DISCRETE)
    try:
        assert env.action_space == gym.spaces.Discrete(36)
    finally:
        env.close()


def test_register_games_adds_custom_games(test_games, saved_data_settings):
    added = retrogym.register_games()
    names = {g.name for g in test_games.values()}
    registered = {gid for gid in gym.registry if gid.startswith("retrogym/")}
    assert {f"retrogym/{n}-v0" for n in names} <= registered
    assert retrogym.register_games() == []  # nothing twice
    assert set(added) <= registered


def test_systems_table():
    assert set(SYSTEMS) <= set(retrogym.data.EMU_INFO)
    nes = retrogym.get_system_info("Nes")
    assert nes["extensions"] == [".nes"] and "nestopia" in nes["cores"]
    assert retrogym.get_romfile_system("x/game.sfc") == "Snes"
    with pytest.raises(KeyError):
        retrogym.get_system_info("Dreamcast")
    with pytest.raises(ValueError):
        retrogym.get_romfile_system("game.xyz")
