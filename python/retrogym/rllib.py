"""Ray RLlib: retrogym games as RLlib environments (docs/python.md, "Ray RLlib").

    import retrogym.rllib
    from ray.rllib.algorithms.ppo import PPOConfig

    retrogym.rllib.register()                      # "retrogym" and "retrogym-vec" in Ray's env registry
    config = (PPOConfig()
              .environment("retrogym-vec", env_config={"game": "StarCatcher-Nes", "obs_type": "ram",
                                                       "use_restricted_actions": "discrete", "frameskip": 4})
              .env_runners(num_env_runners=2, num_envs_per_env_runner=8,
                           gym_env_vectorize_mode="vector_entry_point"))
    algo = config.build_algo()

Two env creators (RLlib's new API stack, Ray 2.40+):

- ``"retrogym"`` (``env_creator``): one ``retrogym.make`` environment; RLlib vectorises it itself
  (``gym_env_vectorize_mode`` "sync" or "async": one Python environment object per sub-environment).
- ``"retrogym-vec"`` (``vec_env_creator``): with ``gym_env_vectorize_mode="vector_entry_point"`` each env runner
  gets ONE ``retrogym.make_vec`` pool of ``num_envs_per_env_runner`` environments (RLlib passes that number as
  ``num_envs``), stepped by worker threads in C inside the runner's process (Gymnasium's NEXT_STEP autoreset, which
  the runners expect). ``num_threads`` in ``env_config`` bounds those threads (default: one per CPU of the machine,
  at most ``num_envs``): set it to the runner's ``num_cpus_per_env_runner``.

``env_config`` holds ``game`` and the keyword arguments of ``make``/``make_vec``; as it travels to the runners it
holds plain values: the enum arguments may be given by name (``obs_type``: "image"/"ram",
``use_restricted_actions``: "all"/"filtered"/"discrete"/"multi_discrete", ``state``: a state's name or "default"/
"none", ``inttype``: "stable"/"experimental"/"contrib"/"all"/"default" where the Integrations enum has it).

Observations reach the runners as float32 in [0, 1] (the bytes / 255: RLlib's default models take floats);
``"float_obs": False`` in ``env_config`` keeps the uint8 bytes for a model of your own.

``SampleOrigins`` is an RLlib callback that counts, per machine and process, the environment steps the runners
sampled (``result["env_runners"]["retrogym_steps_by_origin"]``, keys ``"<node ip>/<node id[:8]>/<pid>"``): the
check that a cluster's nodes all sampled.

Needs Ray with RLlib and PyTorch (``pip install "retrogym[rllib]"``); importing this module imports no Ray (without
it, ``register()`` and ``SampleOrigins`` raise ImportError saying what to install).
"""
import os

import retrogym
from retrogym.enums import Actions, Observations, State

__all__ = ["ENV", "VEC_ENV", "env_creator", "vec_env_creator", "make_kwargs", "register", "SampleOrigins",
           "origin"]

ENV = "retrogym"
VEC_ENV = "retrogym-vec"
_INSTALL = 'retrogym.rllib needs Ray with RLlib and PyTorch: pip install "retrogym[rllib]"'
# env_config keys that are RLlib's, not make()'s
_RLLIB_KEYS = {"num_envs", "worker_index", "num_workers", "vector_index", "remote", "float_obs"}


def _enum(enum, value, name):
    if isinstance(value, str) and value.upper() in enum.__members__:
        return enum[value.upper()]
    if isinstance(value, int) and not isinstance(value, bool):
        try:
            return enum(value)
        except ValueError:
            pass
    if isinstance(value, enum):
        return value
    raise ValueError(f"env_config[{name!r}] must be one of {sorted(m.lower() for m in enum.__members__)}, "
                     f"not {value!r}")


def make_kwargs(config):
    """(game, keyword arguments for make/make_vec) from an RLlib ``env_config`` (a dict or ``EnvContext``): enum
    names turned into the enums, RLlib's own keys dropped."""
    config = dict(config or {})
    game = config.pop("game", None)
    if not isinstance(game, str) or not game:
        raise ValueError('env_config must name the game: {"game": "StarCatcher-Nes", ...}')
    kwargs = {k: v for k, v in config.items() if k not in _RLLIB_KEYS}
    if "obs_type" in kwargs:
        kwargs["obs_type"] = _enum(Observations, kwargs["obs_type"], "obs_type")
    if "use_restricted_actions" in kwargs:
        kwargs["use_restricted_actions"] = _enum(Actions, kwargs["use_restricted_actions"], "use_restricted_actions")
    state = kwargs.get("state")
    if isinstance(state, str) and state.upper() in State.__members__:
        kwargs["state"] = State[state.upper()]
    inttype = kwargs.get("inttype")
    if isinstance(inttype, str):
        members = retrogym.data.Integrations.__members__
        if inttype.upper() not in members:
            raise ValueError(f"env_config['inttype'] must be one of {sorted(m.lower() for m in members)}, "
                             f"not {inttype!r}")
        kwargs["inttype"] = retrogym.data.Integrations[inttype.upper()]
    return game, kwargs


def _float_space(space):
    import gymnasium as gym
    import numpy as np

    return gym.spaces.Box(0.0, 1.0, shape=space.shape, dtype=np.float32)


def env_creator(config):
    """One ``retrogym.make`` environment for an RLlib env runner (the ``"retrogym"`` registration)."""
    game, kwargs = make_kwargs(config)
    env = retrogym.make(game, **kwargs)
    if dict(config or {}).get("float_obs", True):
        import gymnasium as gym
        import numpy as np

        env = gym.wrappers.TransformObservation(env, lambda o: o.astype(np.float32) / np.float32(255.0),
                                                _float_space(env.observation_space))
    return env


def vec_env_creator(config):
    """A ``retrogym.make_vec`` pool of ``config["num_envs"]`` environments (RLlib's ``num_envs_per_env_runner``, passed
    in ``vector_entry_point`` mode) for one env runner (the ``"retrogym-vec"`` registration)."""
    config = dict(config or {})
    num_envs = config.get("num_envs", 1)
    game, kwargs = make_kwargs(config)
    if "autoreset_mode" in kwargs and str(getattr(kwargs["autoreset_mode"], "name", kwargs["autoreset_mode"])
                                          ).upper() not in ("NEXT_STEP", "NEXTSTEP"):
        raise ValueError("RLlib's env runners expect Gymnasium's NEXT_STEP autoreset: leave autoreset_mode out")
    kwargs.pop("autoreset_mode", None)
    env = retrogym.make_vec(game, num_envs, **kwargs)
    if config.get("float_obs", True):
        import gymnasium as gym
        import numpy as np

        env = gym.wrappers.vector.TransformObservation(
            env, lambda o: o.astype(np.float32) / np.float32(255.0),
            gym.vector.utils.batch_space(_float_space(env.single_observation_space), env.num_envs),
            _float_space(env.single_observation_space))
    return env


def register(env=ENV, vec_env=VEC_ENV):
    """Registers both creators in Ray's env registry (``ray.tune.registry.register_env``) under these names. Call it
    in the driver before building the algorithm; RLlib ships the creators to the runners."""
    try:
        from ray.tune.registry import register_env
    except ImportError as e:
        raise ImportError(_INSTALL) from e
    register_env(env, env_creator)
    register_env(vec_env, vec_env_creator)
    return env, vec_env


def origin():
    """``"<node ip>/<node id[:8]>/<pid>"`` of the calling Ray process (the machine and process an env runner runs
    in)."""
    import ray

    ctx = ray.get_runtime_context()
    return f"{ray.util.get_node_ip_address()}/{ctx.get_node_id()[:8]}/{os.getpid()}"


_classes = {}


def __getattr__(name):
    """``SampleOrigins`` is made on first use (PEP 562), so importing this module imports no Ray."""
    if name != "SampleOrigins":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    if name not in _classes:
        try:
            from ray.rllib.callbacks.callbacks import RLlibCallback
        except ImportError as e:
            raise ImportError(_INSTALL) from e

        class SampleOrigins(RLlibCallback):
            """RLlib callback (``config.callbacks(retrogym.rllib.SampleOrigins)``): counts the environment steps each
            env runner sampled, by machine and process: the metric ``retrogym_steps_by_origin`` (a dict ``origin()
            -> steps``, summed over the training iteration) in ``result["env_runners"]``."""

            def on_sample_end(self, *, env_runner=None, metrics_logger=None, samples=None, **kwargs):
                if metrics_logger is None or not samples:
                    return
                steps = sum(len(episode) for episode in samples)
                metrics_logger.log_value(("retrogym_steps_by_origin", origin()), steps, reduce="sum")

        SampleOrigins.__module__ = __name__
        SampleOrigins.__qualname__ = "SampleOrigins"  # pickled by reference: retrogym.rllib.SampleOrigins
        _classes[name] = SampleOrigins
    return _classes[name]
