"""nes-py's API on retrogym's emulator: ``NESEnv`` (a Gymnasium environment for one NES game, written by
subclassing) and ``wrappers.JoypadSpace``; ``install()`` makes ``import nes_py`` give this package, so that
gym-super-mario-bros runs on it unchanged. docs/python.md, "nes-py"."""
import importlib.util
import sys

from retrogym.nes_py import wrappers
from retrogym.nes_py.nes_env import CORE_ENV, RAM, NESEnv
from retrogym.nes_py.wrappers import JoypadSpace

__all__ = ["NESEnv", "JoypadSpace", "RAM", "CORE_ENV", "install", "uninstall", "wrappers"]

_saved = {}  # the sys.modules entries install() replaced (None: there was none), for uninstall()


def _put(name, module):
    if name not in _saved:
        _saved[name] = sys.modules.get(name)
    sys.modules[name] = module


def install(gym="auto"):
    """Makes ``import nes_py`` (and ``nes_py.nes_env``, ``nes_py.wrappers``, ``nes_py.wrappers.joypad_space``)
    give retrogym's modules, so code written for nes-py (gym-super-mario-bros) runs on retrogym's emulator.
    ``gym``: ``"auto"`` also makes ``import gym`` give a small stand-in built from Gymnasium's names when old gym is
    not installed; True always does (it then hides an installed gym); False never does. Call it before the
    nes-py code is imported. Idempotent; ``uninstall()`` undoes it."""
    smb = sys.modules.get("gym_super_mario_bros.smb_env")
    if smb is not None and getattr(smb, "NESEnv", NESEnv) is not NESEnv:
        raise RuntimeError("gym_super_mario_bros was imported before retrogym.nes_py.install(): call install() "
                           "first (its environments subclass the NESEnv they imported)")
    if gym not in ("auto", True, False):
        raise ValueError(f"gym must be 'auto', True or False, not {gym!r}")
    this = sys.modules[__name__]
    _put("nes_py", this)
    _put("nes_py.nes_env", sys.modules["retrogym.nes_py.nes_env"])
    _put("nes_py.wrappers", wrappers)
    _put("nes_py.wrappers.joypad_space", sys.modules["retrogym.nes_py.wrappers.joypad_space"])
    if gym is True or (gym == "auto" and _no_real_gym()):
        from retrogym.nes_py import _gym_shim

        if not getattr(sys.modules.get("gym"), "__retrogym_shim__", False):
            for name, module in _gym_shim.modules().items():
                _put(name, module)


def _no_real_gym():
    current = sys.modules.get("gym")
    if current is not None:
        return getattr(current, "__retrogym_shim__", False)
    return importlib.util.find_spec("gym") is None


def uninstall():
    """Puts back the ``sys.modules`` entries ``install()`` replaced (modules already imported keep what they
    imported)."""
    for name, module in _saved.items():
        if module is None:
            sys.modules.pop(name, None)
        else:
            sys.modules[name] = module
    _saved.clear()
