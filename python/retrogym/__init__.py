"""retrogym: classic console games as Gymnasium environments, over libretro emulator cores.

    import retrogym
    env = retrogym.make("StarCatcher-Nes")
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
    env.close()

    envs = retrogym.make_vec("StarCatcher-Nes", 8)    # a gymnasium.vector.VectorEnv stepped by threads in C

The names follow stable-retro's (``retro.make``, ``RetroEnv``, ``State``, ``Actions``, ``Observations``,
``data.list_games`` ...); docs/python.md lists the differences.
"""
import os as _os

from retrogym import _retrogym
from retrogym import data
from retrogym.data import Integrations, get_romfile_system, get_system_info
from retrogym.emulator import RetroEmulator
from retrogym.enums import Actions, Observations, State
from retrogym.errors import (BufferTooSmall, CoreError, CorruptData, Error, InvalidArgument, IOFailure, Misuse,
                             NotFound, OutOfMemory, OutOfRange, ScriptTimeout, StateError, TooBig, Unsupported)
from retrogym.env import RetroEnv, make
from retrogym.movie import Movie, playback_movie
from retrogym.registration import register_games
from retrogym.vector import RetroVectorEnv, make_vec

__version__: str = _retrogym.version()

__all__ = [
    "Actions",
    "BufferTooSmall",
    "CoreError",
    "CorruptData",
    "Error",
    "IOFailure",
    "InvalidArgument",
    "Misuse",
    "NotFound",
    "OutOfMemory",
    "OutOfRange",
    "ScriptTimeout",
    "StateError",
    "TooBig",
    "Unsupported",
    "Integrations",
    "Movie",
    "Observations",
    "RetroEmulator",
    "RetroEnv",
    "RetroVectorEnv",
    "State",
    "data",
    "get_romfile_system",
    "get_system_info",
    "make",
    "make_vec",
    "playback_movie",
    "register_games",
]

register_games()

if _os.environ.get("RETROGYM_ALIAS_RETRO", "") not in ("", "0"):
    from retrogym import compat as _compat

    _compat.install_alias()
