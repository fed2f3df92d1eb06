"""Emulators for code written against stable-retro's ``RetroEmulator``.

``RetroEmulator(rom_path)`` is one emulator of its own (any number per process, unlike stable-retro's one).
``env.em`` is the emulator of one environment: running frames or loading states there bypasses the scenario;
``env.unwrapped.clone_state()`` and ``restore_state()`` are the whole-environment equivalents."""
from __future__ import annotations

import os
from typing import TYPE_CHECKING, Sequence, Tuple, Union

import numpy as np

from retrogym import _retrogym as _C

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["Emulator", "RetroEmulator"]


def _mask_bits(mask: Union[int, Sequence[int], np.ndarray]) -> int:
    bits = 0
    for i, v in enumerate(np.asarray(mask).reshape(-1)):
        if v:
            bits |= 1 << i
    if bits >> 16:
        raise ValueError("a button mask has at most 16 entries")
    return bits


class RetroEmulator:
    """A ROM in an emulator (stable-retro's ``RetroEmulator``): the system from the ROM's extension, the core
    from the system's preference list (or ``core``, a name or a path). Frames run with the buttons held; nothing of
    an integration (variables, scenario) is involved. ``close()`` unloads it (also done when it is collected)."""

    def __init__(
        self, rom_path: Union[str, os.PathLike[str]], core: Union[str, os.PathLike[str], None] = None
    ) -> None:
        self._c = _C.Emu(os.fspath(rom_path), None if core is None else os.fspath(core))

    def step(self) -> None:
        """Runs one frame."""
        self._c.run()

    def set_button_mask(self, mask: Union[int, Sequence[int], np.ndarray], player: int = 0) -> None:
        """Holds buttons for a player from the next frame on: ``mask[i]`` non-zero presses joypad id i."""
        self._c.set_buttons(_mask_bits(mask), int(player))

    def get_screen(self) -> npt.NDArray[np.uint8]:
        """The last frame as a (height, width, 3) uint8 array."""
        return self._c.screen()

    def get_resolution(self) -> Tuple[int, int]:
        """(width, height) of the screen, fixed at load (as stable-retro's)."""
        return self._c.resolution()

    def get_screen_rate(self) -> float:
        return self._c.info()["fps"]

    def get_audio_rate(self) -> float:
        return self._c.info()["sample_rate"]

    def get_audio(self) -> npt.NDArray[np.int16]:
        """The last frame's audio: a (samples, 2) int16 array."""
        return self._c.audio()

    def get_ram(self) -> npt.NDArray[np.uint8]:
        """Every memory block, ascending by address, concatenated (a new uint8 array)."""
        return self._c.ram()

    def get_state(self) -> bytes:
        """The core's raw serialized state (bytes, not gzip)."""
        return self._c.get_state()

    def set_state(self, state: Union[bytes, bytearray, memoryview]) -> bool:
        """Loads a raw state; False when the core refuses it (nothing changes then)."""
        return self._c.set_state(bytes(state))

    def get_save_ram(self) -> npt.NDArray[np.uint8]:
        """The cartridge's backup (battery) RAM as the core keeps it, a new uint8 array; empty when the game has
        none. A retrogym extension: stable-retro has no such call."""
        return self._c.get_save_ram()

    def set_save_ram(self, data: Union[bytes, bytearray, memoryview, np.ndarray]) -> None:
        """Writes the backup RAM: exactly ``len(get_save_ram())`` bytes, else ValueError and nothing changes. Write a
        save before the frames that read it (a game usually reads its saves at start-up or in a menu)."""
        self._c.set_save_ram(data)

    @property
    def system(self) -> str:
        return self._c.info()["system"]

    @property
    def core(self) -> str:
        return self._c.info()["core"]

    def configure_data(self, data: object) -> None:
        raise NotImplementedError("retrogym has no standalone GameData: make an environment (retrogym.make) and "
                                  "use env.data, whose variables are bound to env.em")

    def add_cheat(self, code: str) -> None:
        raise NotImplementedError("cheats are not supported by retrogym")

    def clear_cheats(self) -> None:
        raise NotImplementedError("cheats are not supported by retrogym")

    def close(self) -> None:
        self._c.close()

    def __repr__(self) -> str:
        if self._c.closed:
            return "<RetroEmulator (closed)>"
        info = self._c.info()
        return f"<RetroEmulator {info['system']} core={info['core']}>"


class Emulator:
    def __init__(self, c_env: _C.Env) -> None:
        self._c = c_env

    def get_state(self) -> bytes:
        """The core's raw serialized state (bytes, not gzip)."""
        return self._c.emu_get_state()

    def set_state(self, state: Union[bytes, bytearray, memoryview]) -> bool:
        """Loads a raw state; False when the core refuses it (nothing changes then)."""
        return self._c.emu_set_state(bytes(state))

    def step(self) -> None:
        """Runs one frame with the buttons held."""
        self._c.emu_step()

    def set_button_mask(self, mask: Union[int, Sequence[int], np.ndarray], player: int = 0) -> None:
        """Holds buttons for a player: mask[i] non-zero presses button i (joypad id i)."""
        self._c.emu_set_buttons(_mask_bits(mask), player)

    def get_screen(self) -> npt.NDArray[np.uint8]:
        """The whole last frame as a (height, width, 3) uint8 array."""
        return self._c.get_screen()

    def get_resolution(self) -> Tuple[int, int]:
        """(width, height) of the screen, fixed at load (as stable-retro's)."""
        return self._c.emu_info()["resolution"]

    def get_screen_rate(self) -> float:
        return self._c.emu_info()["fps"]

    def get_audio_rate(self) -> float:
        return self._c.emu_info()["sample_rate"]

    def get_ram(self) -> npt.NDArray[np.uint8]:
        return self._c.get_ram()

    def get_save_ram(self) -> npt.NDArray[np.uint8]:
        """The cartridge's backup (battery) RAM, a new uint8 array; empty when the game has none (a retrogym
        extension)."""
        return self._c.emu_get_save_ram()

    def set_save_ram(self, data: Union[bytes, bytearray, memoryview, np.ndarray]) -> None:
        """Writes the backup RAM: exactly ``len(get_save_ram())`` bytes, else ValueError and nothing changes."""
        self._c.emu_set_save_ram(data)
