"""nes-py's wrappers: JoypadSpace."""
from retrogym.nes_py.wrappers.joypad_space import JoypadSpace

__all__ = ["JoypadSpace"]
