"""A stable-baselines3 ``VecEnv`` over ``retrogym.make_vec`` (the environments stepped by worker threads in C).

    from retrogym.sb3 import RetrogymVecEnv
    from stable_baselines3 import PPO

    venv = RetrogymVecEnv("StarCatcher-Nes", 8, use_restricted_actions=retrogym.Actions.DISCRETE, frameskip=4)
    PPO("CnnPolicy", venv).learn(100_000)

stable-baselines3 is imported when ``RetrogymVecEnv`` is first used, so this module imports without it (the class
then raises ImportError saying how to install it).

SB3's semantics: an environment whose episode ends is reset in the same step (the vector environment runs in
Gymnasium's SAME_STEP mode); its ``infos[i]`` has the ended episode's last observation as
``"terminal_observation"`` and ``"TimeLimit.truncated"``; ``reset()`` returns the observations only (the infos go
to ``reset_infos``) and uses the seeds of ``seed()`` once. Observations are laid out for SB3's image policies:
grayscale ``(h, w)`` becomes ``(h, w, 1)``, stacked grayscale ``(k, h, w)`` stays channels-first, and stacked
colour ``(k, h, w, 3)`` becomes ``(h, w, 3k)``, channels last, oldest frame first (as SB3's VecFrameStack lays it).
"""
import numpy as np
import gymnasium as gym
from gymnasium.vector import AutoresetMode

__all__ = ["RetrogymVecEnv"]

_INSTALL = "retrogym.sb3 needs stable-baselines3: pip install stable-baselines3 (or `make venv-rl`)"
_cls = None


def _layout(venv):
    """(SB3's observation shape, function: batch -> batch in that layout) for a vector environment."""
    shape = venv.single_observation_space.shape
    pre = venv.preprocessing
    if pre["grayscale"] and pre["frame_stack"] == 1:  # (h, w) -> (h, w, 1)
        h, w = shape
        return (h, w, 1), lambda obs: obs.reshape(obs.shape[0], h, w, 1)
    if len(shape) == 4:  # stacked colour (k, h, w, c) -> (h, w, k * c)
        k, h, w, c = shape
        return (h, w, k * c), lambda obs: np.ascontiguousarray(obs.transpose(0, 2, 3, 1, 4)).reshape(
            obs.shape[0], h, w, k * c)
    return tuple(shape), lambda obs: obs


def _build():
    try:
        from stable_baselines3.common.vec_env import VecEnv
    except ImportError as e:
        raise ImportError(_INSTALL) from e

    from retrogym.vector import make_vec

    class RetrogymVecEnv(VecEnv):
        """``RetrogymVecEnv(game, num_envs, **make_vec_kwargs)``: ``retrogym.make_vec``'s arguments (the
        autoreset mode is SAME_STEP, as SB3 expects). ``venv`` is the Gymnasium vector environment underneath."""

        def __init__(self, game, num_envs=1, **kwargs):
            mode = kwargs.pop("autoreset_mode", AutoresetMode.SAME_STEP)
            if mode not in (AutoresetMode.SAME_STEP, "SameStep", "SAME_STEP", "same_step"):
                raise ValueError("stable-baselines3 resets ended episodes in the same step: autoreset_mode must be "
                                 "SAME_STEP (the default here)")
            self.venv = make_vec(game, num_envs, autoreset_mode=AutoresetMode.SAME_STEP, **kwargs)
            shape, self._convert = _layout(self.venv)
            obs_space = gym.spaces.Box(0, 255, shape=shape, dtype=np.uint8)
            self._actions = None
            super().__init__(self.venv.num_envs, obs_space, self.venv.single_action_space)

        # ---- SB3's VecEnv ----

        def reset(self):
            seeds = list(getattr(self, "_seeds", [None] * self.num_envs))
            obs, infos = self.venv.reset(seed=seeds)
            self.reset_infos = self._info_list(infos)
            if hasattr(self, "_reset_seeds"):
                self._reset_seeds()
            if hasattr(self, "_reset_options"):
                self._reset_options()
            return self._convert(obs)

        def step_async(self, actions):
            self._actions = actions

        def step_wait(self):
            if self._actions is None:
                raise RuntimeError("step_wait() without step_async()")
            actions, self._actions = self._actions, None
            obs, rewards, terminated, truncated, infos = self.venv.step(actions)
            dones = terminated | truncated
            out = self._info_list(infos)
            final = infos.get("final_obs")
            for i in range(self.num_envs):
                out[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
                if dones[i] and final is not None and final[i] is not None:
                    out[i]["terminal_observation"] = self._convert(final[i][None])[0]
            return self._convert(obs), rewards, dones, out

        def close(self):
            self.venv.close()

        def get_attr(self, attr_name, indices=None):
            """The vector environment's attribute, once per index (the environments share it)."""
            value = getattr(self.venv, attr_name)
            return [value for _ in self._get_indices(indices)]

        def set_attr(self, attr_name, value, indices=None):
            """Sets the vector environment's attribute (for every environment at once)."""
            setattr(self.venv, attr_name, value)

        def env_method(self, method_name, *method_args, indices=None, **method_kwargs):
            """Calls the vector environment's method once and gives its result for every index."""
            result = getattr(self.venv, method_name)(*method_args, **method_kwargs)
            return [result for _ in self._get_indices(indices)]

        def env_is_wrapped(self, wrapper_class, indices=None):
            return [False for _ in self._get_indices(indices)]

        # ---- helpers ----

        def _info_list(self, infos):
            """Gymnasium's dict of arrays as SB3's list of one dict per environment (the game variables)."""
            out = [{} for _ in range(self.num_envs)]
            for key, values in infos.items():
                if key.startswith("_") or key in ("final_obs", "final_info"):
                    continue
                mask = infos.get("_" + key)
                for i in range(self.num_envs):
                    if mask is None or mask[i]:
                        out[i][key] = values[i].item() if isinstance(values, np.ndarray) else values[i]
            return out

    return RetrogymVecEnv


def __getattr__(name):
    global _cls
    if name == "RetrogymVecEnv":
        if _cls is None:
            _cls = _build()
        return _cls
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
