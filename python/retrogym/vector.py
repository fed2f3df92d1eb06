"""Vector environments: N games stepped by worker threads in C (the rg_pool of include/retrogym/pool.h) behind
Gymnasium 1.x's ``VectorEnv`` API, plus EnvPool's asynchronous ``send``/``recv``. With ``isolation="process"`` the
workers are processes: a core that crashes, aborts, exits or hangs loses only its worker's environments.

    envs = retrogym.make_vec("StarCatcher-Nes", 8, use_restricted_actions=retrogym.Actions.DISCRETE, frameskip=4)
    obs, infos = envs.reset(seed=0)
    obs, rewards, terminations, truncations, infos = envs.step(envs.action_space.sample())

Every step is one call into C, which runs the steps on the workers without the GIL and returns new arrays (copies
of the pool's batch buffers, never views into them).
"""
import os

import numpy as np
import gymnasium as gym
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from retrogym import _logging
from retrogym import _retrogym as _C
from retrogym import data as _data
from retrogym.enums import Actions, Observations, State
from retrogym.env import action_space, c_env_kwargs

__all__ = ["RetroVectorEnv", "make_vec"]

_MODES = {
    AutoresetMode.NEXT_STEP: _C.AUTORESET_NEXT_STEP,
    AutoresetMode.SAME_STEP: _C.AUTORESET_SAME_STEP,
    AutoresetMode.DISABLED: _C.AUTORESET_DISABLED,
}

# make()'s arguments that make_vec() takes too (per environment through env_kwargs)
_MAKE_ARGS = ("state", "scenario", "info", "use_restricted_actions", "players", "inttype", "obs_type")


def _autoreset_mode(mode):
    """An AutoresetMode from the enum, its value ("NextStep") or its name ("NEXT_STEP", any case)."""
    if isinstance(mode, AutoresetMode):
        return mode
    if isinstance(mode, str):
        for m in AutoresetMode:
            if mode == m.value or mode.upper() == m.name:
                return m
    raise ValueError(f"autoreset_mode must be one of {[m.name for m in AutoresetMode]}, not {mode!r}")


def _positive_int(value, name, allow_none=True):
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name} must be a positive int{' or None' if allow_none else ''}, not {value!r}")
    return int(value)


def _reset_mask(options, num_envs):
    """options["reset_mask"] checked as gymnasium checks it (the caller's dict is left as it is)."""
    if not options or "reset_mask" not in options:
        return None
    mask = options["reset_mask"]
    if not isinstance(mask, np.ndarray):
        raise TypeError(f"`options['reset_mask']` must be a numpy array, got {type(mask)}")
    if mask.shape != (num_envs,):
        raise ValueError(f"`options['reset_mask']` must have shape `({num_envs},)`, got {mask.shape}")
    if mask.dtype != np.bool_:
        raise TypeError(f"`options['reset_mask']` must have `dtype=np.bool_`, got {mask.dtype}")
    if not mask.any():
        raise ValueError("`options['reset_mask']` must contain at least one True value")
    return mask


class RetroVectorEnv(VectorEnv):
    """``num_envs`` copies of a game (or one game per environment with ``env_kwargs``) as one Gymnasium
    ``VectorEnv``, stepped by ``num_threads`` worker threads in C. See ``make_vec``."""

    metadata = {"render_modes": ["rgb_array"], "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        game,
        num_envs,
        *,
        batch_size=None,
        num_threads=None,
        autoreset_mode=AutoresetMode.NEXT_STEP,
        grayscale=False,
        resize=None,
        frame_stack=1,
        reward_clip=None,
        seed=None,
        env_kwargs=None,
        isolation="threads",
        worker_timeout=None,
        state=State.DEFAULT,
        scenario=None,
        info=None,
        use_restricted_actions=Actions.FILTERED,
        players=1,
        inttype=_data.Integrations.DEFAULT,
        obs_type=Observations.IMAGE,
        render_mode=None,
        record=False,
        elapsed_step=False,
        **options,
    ):
        self._pool = None
        self._movie_folder = None
        self._env_attrs = {}  # set_attr()'s own attributes: name -> a tuple of num_envs values
        if not (record is False or record is None or record is True or isinstance(record, (str, os.PathLike))):
            raise ValueError(f"record must be False, True (the current folder) or a folder, not {record!r}")
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f'a vector environment renders with render_mode="rgb_array" (a tuple of every '
                             f'environment\'s frame) or None, not {render_mode!r}')
        num_envs = _positive_int(num_envs, "num_envs", allow_none=False)
        batch_size = _positive_int(batch_size, "batch_size")  # at most num_envs: rg_pool_create checks the limits
        num_threads = _positive_int(num_threads, "num_threads")
        if isolation not in ("threads", "process"):
            raise ValueError(f'isolation must be "threads" or "process", not {isolation!r}')
        timeout_ms = 0
        if worker_timeout is not None:
            if isolation != "process":
                raise ValueError('worker_timeout applies to isolation="process" (a thread cannot be killed)')
            try:
                seconds = float(worker_timeout)
            except (TypeError, ValueError):
                raise ValueError(f"worker_timeout must be a positive number of seconds or None, not "
                                 f"{worker_timeout!r}") from None
            if not seconds > 0:
                raise ValueError(f"worker_timeout must be a positive number of seconds, not {worker_timeout!r}")
            # its limit (RG_POOL_MAX_WORKER_TIMEOUT_MS, one day) is rg_pool_create's to check
            timeout_ms = max(1, round(min(seconds, 2.0**40) * 1000))
        if isolation == "process" and not (record is False or record is None):
            raise ValueError('a vector environment with isolation="process" does not record movies: record with '
                             'isolation="threads"')
        mode = _autoreset_mode(autoreset_mode)
        frame_stack = _positive_int(frame_stack, "frame_stack", allow_none=False)
        if reward_clip is not None:
            try:
                reward_clip = float(reward_clip)
            except (TypeError, ValueError):
                raise ValueError(f"reward_clip must be a positive number or None, not {reward_clip!r}") from None
            if not reward_clip > 0:
                raise ValueError(f"reward_clip must be a positive number or None, not {reward_clip!r}")
        if resize is not None:
            if (not isinstance(resize, (tuple, list)) or len(resize) != 2 or
                    any(isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1 for v in resize)):
                raise ValueError(f"resize must be (height, width) or None, not {resize!r}")
            resize = (int(resize[0]), int(resize[1]))
        if seed is None:
            seed = int(np.random.default_rng().integers(0, 2**63 - 1))
        elif isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise ValueError(f"seed must be an int or None, not {seed!r}")

        base = dict(state=state, scenario=scenario, info=info, use_restricted_actions=use_restricted_actions,
                    players=players, inttype=inttype, obs_type=obs_type, **options)
        if env_kwargs is None:
            per_env = [base]
        else:
            per_env = list(env_kwargs)
            if len(per_env) != num_envs or not all(isinstance(d, dict) for d in per_env):
                raise ValueError(f"env_kwargs must be a sequence of {num_envs} dicts (one per environment)")
            for i, d in enumerate(per_env):
                if "record" in d:
                    raise ValueError(f"env_kwargs[{i}] sets record: a vector environment records into one folder "
                                     "(make_vec(record=...); environment i into its subfolder env-<i>)")
            per_env = [dict(base, **d) for d in per_env]
        c_dicts = []
        for kw in per_env:
            kw = dict(kw)
            args = [kw.pop(name) for name in _MAKE_ARGS]
            c_dicts.append(c_env_kwargs(game if "game" not in kw else kw.pop("game"), *args, kw))
        obs_mode = c_dicts[0]["obs"]
        if obs_mode == Observations.RAM.value and (grayscale or resize is not None):
            raise ValueError("grayscale and resize apply to image observations (obs_type=Observations.IMAGE)")
        if obs_mode == Observations.RAM.value and render_mode is not None:
            raise ValueError('render_mode="rgb_array" shows the image observations: it needs '
                             "obs_type=Observations.IMAGE")

        self._pool = _C.Pool(
            c_dicts[0] if len(c_dicts) == 1 else c_dicts,
            num_envs,
            num_threads=num_threads or 0,
            batch_size=batch_size or 0,
            autoreset=_MODES[mode],
            seed=int(seed) & (2**64 - 1),
            grayscale=bool(grayscale),
            resize=resize,
            frame_stack=frame_stack,
            reward_clip=reward_clip or 0.0,
            log=_logging.forward,
            processes=isolation == "process",
            worker_timeout_ms=timeout_ms,
        )
        pool = self._pool
        desc = [pool.describe(i) for i in range(num_envs)]
        spaces = [action_space(d["action_mode"], d["discrete_count"], d["button_combos"], d["num_buttons"],
                               d["players"]) for d in desc]
        if any(s != spaces[0] for s in spaces[1:]) or any(d["players"] != desc[0]["players"] for d in desc):
            self.close()
            raise ValueError("every environment of a vector environment needs the same action space and players; "
                             f"got {sorted({str(s) for s in spaces})}")
        d0 = desc[0]
        self.num_envs = num_envs
        self.autoreset_mode = mode
        self.batch_size = pool.batch_size
        self.num_threads = num_threads
        self.isolation = isolation
        self.worker_timeout = worker_timeout
        self.gamename = d0["game"]
        self.system = d0["system"]
        self.statename = d0["state_name"] or None
        self.players = d0["players"]
        self.buttons = d0["buttons"]
        self.num_buttons = d0["num_buttons"]
        self.button_combos = d0["button_combos"]
        self.use_restricted_actions = Actions(d0["action_mode"])
        self.frameskip = c_dicts[0]["frameskip"]
        self.render_mode = render_mode
        self.elapsed_step = bool(elapsed_step)
        self._descriptions = desc
        self._frameskips = tuple(d["frameskip"] for d in (c_dicts if len(c_dicts) == num_envs else c_dicts * num_envs))
        self.preprocessing = dict(grayscale=bool(grayscale), resize=resize, frame_stack=frame_stack,
                                  reward_clip=reward_clip)
        self.metadata = dict(self.metadata, autoreset_mode=mode, render_fps=d0["fps"] / self.frameskip)
        self.single_action_space = spaces[0]
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.single_observation_space = gym.spaces.Box(0, 255, shape=pool.obs_shape, dtype=np.uint8)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self._last_obs = None
        self._pending = None  # async_reset()'s rows not received yet
        if record:
            try:  # before the first reset: its episodes are recorded
                self.auto_record(None if record is True else record)
            except BaseException:
                self.close()
                raise

    # ---- Gymnasium's VectorEnv ----

    def reset(self, *, seed=None, options=None):
        """Resets every environment, or those of ``options["reset_mask"]`` (a bool array; the other rows of the
        observation are those last returned). ``seed``: an int (environment i starts from seed + i, as
        Gymnasium's vector environments do), None (the generators go on), or a list of num_envs seeds that are
        None or seed, seed + 1, .... Returns (observations, infos)."""
        pool = self._check_open()
        seed = self._seed(seed)
        mask = _reset_mask(options, self.num_envs)
        self._pending = None
        if seed is not None:
            super().reset(seed=seed)
        if mask is None:
            obs, infos = pool.reset(seed=seed)
        else:
            if seed is not None:
                raise ValueError("a seed with options['reset_mask'] is not supported: the pool seeds every "
                                 "environment at once")
            ids = np.flatnonzero(mask)
            rows, infos = pool.reset(ids=ids)
            if self._last_obs is None:
                obs = np.zeros(self.observation_space.shape, dtype=np.uint8)
            else:
                obs = self._last_obs.copy()
            obs[ids] = rows
        self._last_obs = obs
        if self.elapsed_step:
            self._add_elapsed(infos, np.arange(self.num_envs))
        return obs, infos

    def step(self, actions):
        """Steps every environment (``actions``: the batched action space's shape, int-like). Returns
        (observations, rewards (float32), terminations, truncations, infos); infos hold every game variable
        (int64 arrays with their "_name" masks), in SAME_STEP mode "final_obs"/"_final_obs", and with
        isolation="process", when a worker process was lost, "failure"/"_failure" (why, for the rows it cost: they
        are truncated, and their environments reset)."""
        pool = self._check_open()
        self._pending = None
        obs, rewards, terminated, truncated, infos, final_obs, has_final = pool.step(actions)
        if has_final is not None:
            self._add_final(infos, final_obs, has_final)
        self._last_obs = obs
        if self.elapsed_step:
            self._add_elapsed(infos, np.arange(self.num_envs))
        return obs, rewards, terminated, truncated, infos

    def close_extras(self, **kwargs):
        pool = self._pool
        if pool is not None and not pool.closed:
            try:
                if self._movie_folder is not None and not pool.in_flight and not pool.interrupted:
                    pool.stop_record()  # a failed write is reported, not dropped
            finally:
                self._movie_folder = None
                pool.close()  # (with steps in flight, freeing the pool writes the movies)

    def render(self, env_id=None):
        """``render_mode="rgb_array"``: a tuple of every environment's frame (height x width x 3 uint8, what Gymnasium's
        vector ``RecordVideo`` tiles into its video), or environment ``env_id``'s frame alone. A frame is the
        environment's latest observation as an RGB picture: after the pool's preprocessing (grayscale repeated
        over three channels, the last frame of a stack, resized), so with ``grayscale``/``resize`` it is the agent's
        view, not the console's screen. None without a render mode."""
        if self.render_mode is None:
            return None
        self._check_open()
        if self._last_obs is None:
            raise RuntimeError("render() shows the latest observations: reset() first")
        if env_id is not None:
            i = int(env_id)
            if not 0 <= i < self.num_envs:
                raise IndexError(f"env_id must be in 0..{self.num_envs - 1}, not {env_id!r}")
            return self._frame(self._last_obs[i])
        return tuple(self._frame(row) for row in self._last_obs)

    def _frame(self, row):
        if self.preprocessing["frame_stack"] > 1:
            row = row[-1]
        if row.ndim == 2:
            row = np.repeat(row[:, :, None], 3, axis=2)
        return np.ascontiguousarray(row)

    # ---- Gymnasium's per-environment attributes (SyncVectorEnv's call/get_attr/set_attr) ----

    # Facts of each environment that the pool fixes when it is made: RetroEnv's attribute name -> describe()'s key.
    _FACTS = {"gamename": "game", "game": "game", "system": "system", "statename": "state_name",
              "players": "players", "buttons": "buttons", "num_buttons": "num_buttons",
              "button_combos": "button_combos", "core": "core", "fps": "fps", "discrete_count": "discrete_count",
              "action_length": "action_length"}

    def get_attr(self, name):
        """A tuple of environment i's value of ``name`` for each i. The environments are C handles, not Python
        objects, so the names are: RetroEnv's facts of each environment (gamename, system, statename, players,
        buttons, num_buttons, button_combos, core, fps, discrete_count, action_length, frameskip,
        use_restricted_actions), its spaces (action_space, observation_space: the single ones), render_mode,
        metadata, episode_steps/elapsed_step (steps since each environment's reset; no step may be in flight),
        multi_rewards, and the attributes given with set_attr(). Anything else: AttributeError."""
        if not isinstance(name, str):
            raise TypeError(f"an attribute name is a str, not {name!r}")
        if name in self._env_attrs:
            return self._env_attrs[name]
        n = self.num_envs
        if name in self._FACTS:
            self._check_open()
            key = self._FACTS[name]
            values = [d[key] for d in self._descriptions]
            if key == "state_name":
                values = [v or None for v in values]
            return tuple(values)
        if name == "frameskip":
            return self._frameskips
        if name == "use_restricted_actions":
            return tuple(Actions(d["action_mode"]) for d in self._descriptions)
        if name == "action_space":
            return (self.single_action_space,) * n
        if name == "observation_space":
            return (self.single_observation_space,) * n
        if name == "render_mode":
            return (self.render_mode,) * n
        if name == "metadata":
            return tuple(dict(self.metadata, render_fps=d["fps"] / k) for d, k in zip(self._descriptions,
                                                                                      self._frameskips))
        if name in ("episode_steps", "elapsed_step"):
            return tuple(int(v) for v in self._check_open().elapsed_steps(np.arange(n)))
        if name == "multi_rewards":
            return (self.multi_rewards,) * n
        raise AttributeError(f"the environments of a RetroVectorEnv have no attribute {name!r} (they run in C: see "
                             "RetroVectorEnv.get_attr for the names they have; set_attr() adds your own)")

    def set_attr(self, name, values):
        """Sets ``name`` for every environment: ``values`` is a list or tuple of num_envs values (one per environment)
        or one value for all. ``multi_rewards`` is the pool's own (one value for all); the facts get_attr() lists are
        fixed when the pool is made (AttributeError); any other name is kept here per environment and given back by
        get_attr() and call()."""
        if not isinstance(name, str):
            raise TypeError(f"an attribute name is a str, not {name!r}")
        if not isinstance(values, (list, tuple)):
            values = [values] * self.num_envs
        if len(values) != self.num_envs:
            raise ValueError(f"set_attr needs one value per environment ({self.num_envs}), got {len(values)}")
        self._check_open()
        if name == "multi_rewards":
            if any(bool(v) != bool(values[0]) for v in values):
                raise ValueError("multi_rewards is the pool's own: give every environment the same value")
            self.multi_rewards = bool(values[0])
            return
        fixed = set(self._FACTS) | {"frameskip", "use_restricted_actions", "action_space", "observation_space",
                                    "render_mode", "metadata", "episode_steps", "elapsed_step"}
        if name in fixed:
            raise AttributeError(f"{name!r} is fixed when the vector environment is made (make_vec's arguments)")
        self._env_attrs[name] = tuple(values)

    def call(self, name, *args, **kwargs):
        """Gymnasium's ``call``: a tuple of environment i's result for each i. ``render`` gives each environment's
        frame (see render()); any other name is get_attr()'s, called with the arguments when the value is
        callable."""
        if name == "render":
            if args or kwargs:
                raise TypeError("call('render') takes no arguments")
            frames = self.render()
            return (None,) * self.num_envs if frames is None else frames
        values = self.get_attr(name)
        return tuple(v(*args, **kwargs) if callable(v) else v for v in values)

    def _add_elapsed(self, infos, ids):
        """EnvPool's infos: "env_id" and "elapsed_step" (steps since the environment's reset), int32 per row."""
        ids = np.asarray(ids)
        infos["elapsed_step"] = self._pool.elapsed_steps(ids)
        infos["_elapsed_step"] = np.ones(len(ids), dtype=bool)
        if "env_id" not in infos:
            infos["env_id"] = ids.astype(np.int32)
            infos["_env_id"] = np.ones(len(ids), dtype=bool)

    # ---- EnvPool's asynchronous interface ----

    def async_reset(self, seed=None):
        """Resets every environment; the next recv() calls return the reset rows (batch_size at a time, in
        environment order), after which send() steps the environments received."""
        obs, infos = self.reset(seed=seed)
        n = self.num_envs
        self._pending = dict(obs=obs, rewards=np.zeros(n, np.float32), terminated=np.zeros(n, bool),
                             truncated=np.zeros(n, bool), infos=infos, next=0)

    def send(self, actions, env_ids=None):
        """Queues one step for each environment of ``env_ids`` (default: all), ``actions`` row k for
        ``env_ids[k]``, and returns at once. An environment may have one step in flight."""
        pool = self._check_open()
        ids = np.arange(self.num_envs, dtype=np.int32) if env_ids is None else env_ids
        pool.send(actions, ids)

    def recv(self):
        """Waits for the first ``batch_size`` environments to finish their steps and returns (observations,
        rewards, terminations, truncations, infos), rows in the order they finished; ``infos["env_id"]`` gives
        each row's environment."""
        pool = self._check_open()
        if self._pending is not None:
            return self._recv_pending()
        obs, rewards, terminated, truncated, infos, final_obs, has_final, ids = pool.recv()
        if has_final is not None:
            self._add_final(infos, final_obs, has_final)
        infos["env_id"] = ids
        if self.render_mode is not None and self._last_obs is not None and len(ids):
            last = self._last_obs.copy()  # (the array reset()/step() returned is the caller's)
            last[ids] = obs
            self._last_obs = last  # render() shows each environment's latest observation
        if self.elapsed_step:
            self._add_elapsed(infos, ids)
        return obs, rewards, terminated, truncated, infos

    # ---- movies (one folder; environment i records into its subfolder env-<i>, e.g. env-000) ----

    def auto_record(self, path=None):
        """Records every episode of every environment from now on: environment i into ``<path>/env-<i>`` (three
        digits at least: ``env-000``; made when missing, ``path`` itself must exist; default: the current folder), one
        ``<game>-<state>-<NNNNNN>.bk2`` per episode numbered from 0, as ``RetroEnv.auto_record`` names them. Before
        the first reset or right after a reset the current episodes are recorded whole, else each environment starts
        at its next reset. Movies being recorded are written first. No step may be in flight."""
        pool = self._check_open()
        folder = os.getcwd() if path is None else os.fspath(path)
        try:
            pool.record_dir(folder)
        except BaseException:
            # a folder that cannot be made leaves the recording as it was; a failed write stops every environment's
            idle = not pool.closed and not pool.in_flight
            if idle and all(pool.movie_info(i) is None for i in range(self.num_envs)):
                self._movie_folder = None
            raise
        self._movie_folder = folder

    def stop_record(self):
        """Stops recording; the movies being recorded are written (no step may be in flight)."""
        pool = self._check_open()
        if pool.in_flight:
            raise RuntimeError(f"{pool.in_flight} asynchronous steps are in flight: recv() them first")
        try:
            pool.stop_record()
        finally:  # every recording stops, even when a movie cannot be written
            self._movie_folder = None

    @property
    def movie_path(self):
        """The recording folder of ``record=`` / ``auto_record()`` (environment i writes into its subfolder
        ``env-<i>``), or None."""
        return self._movie_folder if self._pool is not None and not self._pool.closed else None

    @property
    def movie_ids(self):
        """Per environment, the number its next movie gets (0 when it does not record: not recording, or its movie
        could not be written). No step may be in flight."""
        pool = self._check_open()
        infos = [pool.movie_info(i) for i in range(self.num_envs)]
        return np.array([0 if m is None else m["movie_id"] for m in infos], dtype=np.int64)

    @property
    def movie_paths(self):
        """Per environment, the file of the movie it is recording, or None (not recording, or waiting for its next
        reset). No step may be in flight."""
        pool = self._check_open()
        infos = [pool.movie_info(i) for i in range(self.num_envs)]
        return [None if m is None else m["path"] for m in infos]

    # ---- attributes and helpers ----

    @property
    def multi_rewards(self):
        """False: rewards are player 1's, shape (num,); True (players > 1): every player's, (num, players)."""
        return self._check_open().multi_rewards

    @multi_rewards.setter
    def multi_rewards(self, value):
        self._check_open().multi_rewards = bool(value)

    def episode_steps(self):
        """Steps since each environment's last reset (no step may be in flight)."""
        return np.array(self._check_open().episode_steps(), dtype=np.int64)

    def _check_open(self):
        if self._pool is None or self._pool.closed:
            raise RuntimeError("the environment is closed")
        return self._pool

    def _seed(self, seed):
        if seed is None:
            return None
        if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
            return int(seed)
        if isinstance(seed, (list, tuple)):
            if len(seed) != self.num_envs:
                raise ValueError(f"If seeds are passed as a list the length must match num_envs={self.num_envs} "
                                 f"but got length={len(seed)}.")
            if all(s is None for s in seed):
                return None
            if (all(isinstance(s, (int, np.integer)) and not isinstance(s, bool) for s in seed)
                    and all(int(s) == int(seed[0]) + i for i, s in enumerate(seed))):
                return int(seed[0])
            raise ValueError("the seeds of a vector environment must be None or seed, seed + 1, ...: environment i "
                             "starts from seed + i")
        raise ValueError(f"seed must be an int, None or a list of num_envs seeds, not {seed!r}")

    def _add_final(self, infos, final_obs, has_final):
        """Gymnasium's SAME_STEP entries: an object array with the last observation of each ended episode."""
        out = np.full(len(has_final), None, dtype=object)
        for i in np.flatnonzero(has_final):
            out[i] = final_obs[i]
        infos["final_obs"] = out
        infos["_final_obs"] = has_final

    def _recv_pending(self):
        p = self._pending
        start, stop = p["next"], min(p["next"] + self.batch_size, self.num_envs)
        rows = slice(start, stop)
        infos = {k: v[rows].copy() for k, v in p["infos"].items()}
        infos["env_id"] = np.arange(start, stop, dtype=np.int32)
        if self.elapsed_step:
            infos["elapsed_step"] = np.zeros(stop - start, dtype=np.int32)
            infos["_elapsed_step"] = np.ones(stop - start, dtype=bool)
        p["next"] = stop
        if stop >= self.num_envs:
            self._pending = None
        return (p["obs"][rows].copy(), p["rewards"][rows].copy(), p["terminated"][rows].copy(),
                p["truncated"][rows].copy(), infos)

    def __repr__(self):
        if self._pool is None or self._pool.closed:
            return f"<RetroVectorEnv {getattr(self, 'gamename', '?')} (closed)>"
        return (f"<RetroVectorEnv {self.gamename} num_envs={self.num_envs} batch_size={self.batch_size} "
                f"autoreset_mode={self.autoreset_mode.name}>")


def make_vec(game, num_envs, *, batch_size=None, num_threads=None, autoreset_mode=AutoresetMode.NEXT_STEP,
             grayscale=False, resize=None, frame_stack=1, reward_clip=None, seed=None, env_kwargs=None,
             isolation="threads", worker_timeout=None, elapsed_step=False, **make_kwargs):
    """Makes a ``RetroVectorEnv`` (a ``gymnasium.vector.VectorEnv``) of ``num_envs`` copies of a game.

    ``make_kwargs`` are ``retrogym.make``'s (state, scenario, info, use_restricted_actions, obs_type, players,
    inttype, frameskip, sticky_prob, max_pool, noop_max, max_episode_steps, core, core_options, log_level);
    ``env_kwargs`` (a list of num_envs dicts) overrides them per environment. ``batch_size``: rows per recv()
    (default num_envs); ``num_threads``: worker threads (default one per CPU, at most num_envs);
    ``autoreset_mode``: ``gymnasium.vector.AutoresetMode`` (NEXT_STEP default, SAME_STEP, DISABLED); preprocessing
    in the workers: ``grayscale`` (luma, one channel: observations lose the channel axis), ``resize`` ((height,
    width), OpenCV INTER_AREA bytes when shrinking), ``frame_stack`` (last K observations on a new first axis),
    ``reward_clip`` (rewards clipped to [-c, c]); ``seed``: environment i's first reset uses seed + i (default: a
    random seed);
    ``record`` (make()'s: True for the current folder, or a folder): every episode as a movie, environment i's in the
    subfolder ``env-<i>`` (see ``RetroVectorEnv.auto_record``).

    ``isolation="process"``: the environments run in ``num_threads`` worker processes (forked after the environments
    are created here) that write into shared-memory batches; results are the same as with threads. A worker whose
    core crashes, aborts, exits, or runs one step longer than ``worker_timeout`` seconds (default None: no limit) is
    replaced; each of its environments gives one row with ``infos["failure"]`` set (truncated, zero observation and
    reward; in SAME_STEP mode already the reset observation) and starts a new episode, while the others go on. No
    movies in this mode, and custom variables that scripts add are not in the infos.

    ``elapsed_step=True``: the infos of reset(), step() and recv() also hold EnvPool's "env_id" and "elapsed_step"
    (int32 per row: steps since the environment's last reset, 0 on a reset row) with their "_" masks.
    ``render_mode="rgb_array"``: render() gives every environment's latest observation as a frame (for Gymnasium's
    vector ``RecordVideo``)."""
    return RetroVectorEnv(game, num_envs, batch_size=batch_size, num_threads=num_threads,
                          autoreset_mode=autoreset_mode, grayscale=grayscale, resize=resize, frame_stack=frame_stack,
                          reward_clip=reward_clip, seed=seed, env_kwargs=env_kwargs, isolation=isolation,
                          worker_timeout=worker_timeout, elapsed_step=elapsed_step, **make_kwargs)
