"""A module to stand in for old OpenAI ``gym`` where code imports it only for ``Env``, ``spaces``, ``make`` and
``envs.registration.register`` (gym-super-mario-bros does): each name is Gymnasium's, so environments it registers
are made by ``gymnasium.make`` and are Gymnasium environments. Installed by ``retrogym.nes_py.install()``."""
import types

import gymnasium


def modules():
    """The modules to put in ``sys.modules``: ``gym``, ``gym.envs``, ``gym.envs.registration``, ``gym.spaces``."""
    registration = types.ModuleType("gym.envs.registration", "Gymnasium's registry under old gym's name")
    registration.register = gymnasium.register
    registration.make = gymnasium.make
    registration.registry = gymnasium.registry
    registration.EnvSpec = gymnasium.envs.registration.EnvSpec
    envs = types.ModuleType("gym.envs", "Gymnasium's registry under old gym's name")
    envs.registration = registration
    envs.register = gymnasium.register
    envs.make = gymnasium.make
    envs.registry = gymnasium.registry
    gym = types.ModuleType("gym", __doc__)
    gym.__path__ = []  # a package, so that `import gym.envs.registration` finds the submodules in sys.modules
    envs.__path__ = []
    gym.Env = gymnasium.Env
    gym.Wrapper = gymnasium.Wrapper
    gym.ObservationWrapper = gymnasium.ObservationWrapper
    gym.ActionWrapper = gymnasium.ActionWrapper
    gym.RewardWrapper = gymnasium.RewardWrapper
    gym.Space = gymnasium.Space
    gym.spaces = gymnasium.spaces
    gym.error = gymnasium.error
    gym.make = gymnasium.make
    gym.register = gymnasium.register
    gym.envs = envs
    gym.__retrogym_shim__ = True
    return {
        "gym": gym,
        "gym.envs": envs,
        "gym.envs.registration": registration,
        "gym.spaces": gymnasium.spaces,
    }
