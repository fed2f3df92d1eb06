"""Multi-player games as PettingZoo environments (docs/python.md, "PettingZoo").

``parallel_env(game, players=2, ...)`` is a ``pettingzoo.ParallelEnv`` over one ``retrogym.make`` environment with
``players`` pads; ``env(...)`` is its AEC form (PettingZoo's ``parallel_to_aec``). Agents are named as PettingZoo's
Atari suite names them: ``first_0``, ``second_0``, ``third_0``, ``fourth_0`` (player 1 .. 4).

- Actions: each agent gets one player's share of the action space ``make`` would give (``Discrete(prod(group
  sizes))``, ``MultiDiscrete(group sizes)`` or ``MultiBinary(num_buttons)``); the agents' actions are joined into the
  joint action the C environment decodes player by player.
- Rewards: each agent gets its player's reward from the scenario (its ``rewards`` array; with a single ``reward``
  instead, player 1 gets it and the other players 0).
- Observations: the shared observation (screen or RAM, as ``make`` gives it), or, for image observations where the
  scenario crops each player's view differently (``crops``), that player's crop of the same frame (player 1's is the
  environment's observation, max-pooled where ``max_pool`` is on; the others' are the last frame). ``state()`` is the
  environment's observation.
- The episode ends for every agent at once (the scenario's ``done`` or ``max_episode_steps``); ``infos`` give each
  agent the step's info (every data.json and custom variable).

``vec_env(game, num_envs, players=2, ...)`` is the vectorised form on the C pool (``make_vec``): a Gymnasium
``VectorEnv`` of ``num_envs * players`` rows, row ``i * players + p`` being agent p of environment i (SuperSuit's
layout for parameter-shared self-play), all stepped in one batch.

Needs the ``pettingzoo`` package (``pip install retrogym[pettingzoo]``).
"""
import gymnasium as gym
import numpy as np
from pettingzoo import ParallelEnv
from pettingzoo.utils.conversions import parallel_to_aec

import retrogym
from retrogym.enums import Actions, Observations

AGENT_NAMES = ("first_0", "second_0", "third_0", "fourth_0")
PREPROCESSING = ("grayscale", "resize", "frame_stack", "reward_clip")  # make's, which return another env class

__all__ = ["AGENT_NAMES", "RetroMultiAgentVectorEnv", "RetroParallelEnv", "env", "parallel_env", "raw_env", "vec_env"]


class RetroParallelEnv(ParallelEnv):
    """A retrogym game with ``players`` pads as a PettingZoo ``ParallelEnv`` (made by ``parallel_env``)."""

    metadata = {"name": "retrogym_v0", "render_modes": ["rgb_array"], "is_parallelizable": True}

    def __init__(self, game, players=2, **make_kwargs):
        if isinstance(players, bool) or not isinstance(players, (int, np.integer)):
            raise ValueError(f"players must be an int, not {players!r}")
        if not 1 <= players <= len(AGENT_NAMES):
            raise ValueError(f"players must be 1..{len(AGENT_NAMES)}, not {players}")
        pre = sorted(k for k in PREPROCESSING if k in make_kwargs)
        if pre:
            raise ValueError(f"parallel_env does not take make's preprocessing arguments {pre}; wrap the agents' "
                             "observations instead (e.g. SuperSuit)")
        if make_kwargs.get("render_mode") not in (None, "rgb_array"):
            raise ValueError(f"render_mode must be None or 'rgb_array', not {make_kwargs['render_mode']!r}")
        self._env = retrogym.make(game, players=int(players), **make_kwargs)
        self._env.multi_rewards = True
        self.render_mode = self._env.render_mode
        self.metadata = dict(self.metadata, render_fps=self._env.metadata["render_fps"])
        self.possible_agents = list(AGENT_NAMES[:players])
        self.agents = []
        self._mode = self._env.use_restricted_actions
        self._combos = [g for g in self._env.button_combos]
        # Player p's digit of a DISCRETE action: the C env consumes the joint id player by player, each taking
        # (id % per_player) and passing id // per_player on (player 1 the lowest digit).
        self._per_player = int(np.prod([len(g) if len(g) else 1 for g in self._combos], dtype=object))
        self._width = {Actions.MULTI_DISCRETE: len(self._combos)}.get(self._mode, self._env.num_buttons)
        space = self._agent_action_space()
        self.action_spaces = {a: space for a in self.possible_agents}
        # The environment's observation is player 1's crop (the whole screen without one); the other players see
        # theirs of the same frame (get_screen(p)) when the scenario crops per player.
        crops = [self._crop(p) for p in range(players)]
        self._per_player_obs = any(c != crops[0] for c in crops)
        full = self._env.observation_space
        self.observation_spaces = {}
        for p, a in enumerate(self.possible_agents):
            crop = crops[p]
            if not self._per_player_obs or p == 0:
                shape = full.shape
            elif crop is None:
                shape = self._env.em.get_screen().shape
            else:
                shape = (crop[3] - crop[1], crop[2] - crop[0], 3)
            self.observation_spaces[a] = gym.spaces.Box(0, 255, shape=shape, dtype=np.uint8)
        self.state_space = full

    # ---- spaces ----

    def _agent_action_space(self):
        if self._mode is Actions.DISCRETE:
            return gym.spaces.Discrete(self._per_player)
        if self._mode is Actions.MULTI_DISCRETE:
            return gym.spaces.MultiDiscrete([len(g) for g in self._combos])
        return gym.spaces.MultiBinary(self._env.num_buttons)

    def _crop(self, player):
        """Player p's crop of the screen (left, top, right, bottom), or None where it is the whole screen or the
        observations are not images."""
        if self._env._obs_type is not Observations.IMAGE:
            return None
        height, width = self._env.em.get_screen().shape[:2]
        x, y, w, h = self._env._c.crop_info(player)
        right = width if not w or x + w > width else x + w
        bottom = height if not h or y + h > height else y + h
        if x == 0 and y == 0 and right == width and bottom == height:
            return None
        return (x, y, right, bottom)

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # ---- episodes ----

    def _observations(self, obs):
        if not self._per_player_obs:
            return {a: obs for a in self.possible_agents}
        return {a: obs if p == 0 else self._env.get_screen(p) for p, a in enumerate(self.possible_agents)}

    def joint_action(self, actions):
        """The single-environment action (``make(..., players=N)``'s action space) the agents' actions make."""
        missing = [a for a in self.agents if a not in actions]
        if missing:
            raise ValueError(f"no action for agent(s) {missing}")
        unknown = [a for a in actions if a not in self.possible_agents]
        if unknown:
            raise ValueError(f"unknown agent(s) {unknown}; the agents are {self.possible_agents}")
        if self._mode is Actions.DISCRETE:
            joint = 0
            for p in reversed(range(len(self.possible_agents))):
                a = self.possible_agents[p]
                v = actions.get(a, 0)
                v = int(np.asarray(v).reshape(-1)[0]) if np.ndim(v) else int(v)
                if not 0 <= v < self._per_player:
                    raise ValueError(f"action {v} of {a} outside Discrete({self._per_player})")
                joint = joint * self._per_player + v
            return joint
        dtype = np.int64 if self._mode is Actions.MULTI_DISCRETE else np.int8
        parts = []
        for a in self.possible_agents:
            v = actions.get(a)
            if v is None:
                parts.append(np.zeros(self._width, dtype=dtype))
                continue
            v = np.asarray(v)
            if v.shape != (self._width,):
                raise ValueError(f"action of {a} must have shape ({self._width},), not {v.shape}")
            parts.append(v.astype(dtype))
        return np.concatenate(parts)

    def reset(self, seed=None, options=None):
        obs, info = self._env.reset(seed=seed, options=options)
        self.agents = self.possible_agents[:]
        return self._observations(obs), {a: dict(info) for a in self.agents}

    def step(self, actions):
        if not self.agents:
            raise RuntimeError("step() after the episode ended; call reset()")
        obs, rewards, terminated, truncated, info = self._env.step(self.joint_action(actions))
        agents = self.agents
        observations = self._observations(obs)
        out = (
            {a: observations[a] for a in agents},
            {a: float(rewards[self.possible_agents.index(a)]) for a in agents},
            {a: bool(terminated) for a in agents},
            {a: bool(truncated) for a in agents},
            {a: dict(info) for a in agents},
        )
        if terminated or truncated:
            self.agents = []
        return out

    def state(self):
        """The whole observation of the last reset or step (the screen, or RAM with RAM observations)."""
        obs = self._env.ram if self._env._obs_type is Observations.RAM else self._env.img
        if obs is None:
            raise RuntimeError("state() before reset()")
        return obs

    def render(self):
        return self._env.render()

    def close(self):
        self._env.close()

    @property
    def unwrapped_retro(self):
        """The underlying ``RetroEnv`` (players pads, joint actions)."""
        return self._env


def parallel_env(game, players=2, **make_kwargs):
    """A ``pettingzoo.ParallelEnv`` of a game with ``players`` pads; ``make_kwargs`` are ``retrogym.make``'s."""
    return RetroParallelEnv(game, players=players, **make_kwargs)


def raw_env(game, players=2, **make_kwargs):
    """The AEC form of ``parallel_env`` (PettingZoo's ``parallel_to_aec``)."""
    return parallel_to_aec(parallel_env(game, players=players, **make_kwargs))


env = raw_env


def _agent_action_space(use_restricted_actions, button_combos, num_buttons):
    """One player's share of make's action space, and its DISCRETE radix (0 for the other modes)."""
    if use_restricted_actions is Actions.DISCRETE:
        n = int(np.prod([len(g) if len(g) else 1 for g in button_combos], dtype=object))
        return gym.spaces.Discrete(n), n
    if use_restricted_actions is Actions.MULTI_DISCRETE:
        return gym.spaces.MultiDiscrete([len(g) for g in button_combos]), 0
    return gym.spaces.MultiBinary(num_buttons), 0


def _repeat_rows(x, n, players):
    """Each of the n rows of x (arrays, dicts of them, as in vector infos) repeated for every player."""
    if isinstance(x, dict):
        return {k: _repeat_rows(v, n, players) for k, v in x.items()}
    if isinstance(x, np.ndarray) and x.ndim >= 1 and x.shape[0] == n:
        return np.repeat(x, players, axis=0)
    return x


class RetroMultiAgentVectorEnv(gym.vector.VectorEnv):
    """``num_envs`` copies of a ``players``-player game on the C pool as a VectorEnv of ``num_envs * players`` rows
    (made by ``vec_env``): row ``i * players + p`` is player p of environment i, with one player's action space,
    the environment's (shared) observation, its player's reward, the environment's flags and infos."""

    def __init__(self, game, num_envs, players=2, **make_vec_kwargs):
        from retrogym.vector import make_vec

        if isinstance(players, bool) or not isinstance(players, (int, np.integer)):
            raise ValueError(f"players must be an int, not {players!r}")
        if not 1 <= players <= len(AGENT_NAMES):
            raise ValueError(f"players must be 1..{len(AGENT_NAMES)}, not {players}")
        if "batch_size" in make_vec_kwargs and make_vec_kwargs["batch_size"] not in (None, num_envs):
            raise ValueError("vec_env steps every environment at once: batch_size must be None or num_envs")
        self._pool = make_vec(game, num_envs, players=int(players), **make_vec_kwargs)
        self._pool.multi_rewards = True
        self.envs_per_batch = self._pool.num_envs
        self.players = int(players)
        self.num_envs = self.envs_per_batch * self.players
        self.metadata = dict(self._pool.metadata)
        self.render_mode = self._pool.render_mode
        self.possible_agents = list(AGENT_NAMES[:players])
        self._mode = self._pool.use_restricted_actions
        self.single_action_space, self._radix = _agent_action_space(
            self._mode, self._pool.button_combos, self._pool.num_buttons)
        self.action_space = gym.vector.utils.batch_space(self.single_action_space, self.num_envs)
        self.single_observation_space = self._pool.single_observation_space
        self.observation_space = gym.vector.utils.batch_space(self.single_observation_space, self.num_envs)

    @property
    def unwrapped_pool(self):
        """The underlying ``RetroVectorEnv`` (joint actions, one row per environment)."""
        return self._pool

    def joint_actions(self, actions):
        """The pool's batch of joint actions for rows of agents' actions (``(num_envs * players, ...)``)."""
        n, p = self.envs_per_batch, self.players
        a = np.asarray(actions)
        if self._mode is Actions.DISCRETE:
            if a.shape not in ((n * p,), (n * p, 1)):
                raise ValueError(f"actions must have shape ({n * p},), not {a.shape}")
            if not np.issubdtype(a.dtype, np.integer):
                raise ValueError(f"DISCRETE actions must be integers, not {a.dtype}")
            a = a.reshape(n, p).astype(np.int64)
            if a.min(initial=0) < 0 or a.max(initial=0) >= self._radix:
                raise ValueError(f"an action is outside Discrete({self._radix})")
            joint = np.zeros(n, dtype=np.int64)
            for q in reversed(range(p)):
                joint = joint * self._radix + a[:, q]
            return joint
        width = self.single_action_space.shape[0]
        if a.shape != (n * p, width):
            raise ValueError(f"actions must have shape ({n * p}, {width}), not {a.shape}")
        return a.reshape(n, p * width)

    def reset(self, *, seed=None, options=None):
        obs, infos = self._pool.reset(seed=seed, options=options)
        n = self.envs_per_batch
        return np.repeat(obs, self.players, axis=0), _repeat_rows(infos, n, self.players)

    def step(self, actions):
        obs, rewards, terminated, truncated, infos = self._pool.step(self.joint_actions(actions))
        n, p = self.envs_per_batch, self.players
        return (np.repeat(obs, p, axis=0), np.asarray(rewards, dtype=np.float32).reshape(n * p),
                np.repeat(terminated, p), np.repeat(truncated, p), _repeat_rows(infos, n, p))

    def render(self):
        return self._pool.render()

    def close_extras(self, **kwargs):
        self._pool.close()


def vec_env(game, num_envs, players=2, **make_vec_kwargs):
    """``num_envs`` environments of ``players`` agents each on the C pool, as one Gymnasium ``VectorEnv`` of
    ``num_envs * players`` rows (``RetroMultiAgentVectorEnv``); ``make_vec_kwargs`` are ``retrogym.make_vec``'s."""
    return RetroMultiAgentVectorEnv(game, num_envs, players=players, **make_vec_kwargs)
