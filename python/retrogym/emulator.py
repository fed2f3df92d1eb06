"""``env.em``: the emulator of one environment, for code written against stable-retro's ``RetroEmulator``.
Running frames or loading states here bypasses the scenario; ``env.unwrapped.clone_state()`` and
``restore_state()`` are the whole-environment equivalents."""
import numpy as np

__all__ = ["Emulator"]


class Emulator:
    def __init__(self, c_env):
        self._c = c_env

    def get_state(self):
        """The core's raw serialized state (bytes, not gzip)."""
        return self._c.emu_get_state()

    def set_state(self, state):
        """Loads a raw state; False when the core refuses it (nothing changes then)."""
        return self._c.emu_set_state(bytes(state))

    def step(self):
        """Runs one frame with the buttons held."""
        self._c.emu_step()

    def set_button_mask(self, mask, player=0):
        """Holds buttons for a player: mask[i] non-zero presses button i (joypad id i)."""
        bits = 0
        for i, v in enumerate(np.asarray(mask).reshape(-1)):
            if v:
                bits |= 1 << i
        if bits >> 16:
            raise ValueError("a button mask has at most 16 entries")
        self._c.emu_set_buttons(bits, player)

    def get_screen(self):
        """The whole last frame as a (height, width, 3) uint8 array."""
        return self._c.get_screen()

    def get_resolution(self):
        """(width, height) of the last frame."""
        return self._c.emu_info()["resolution"]

    def get_screen_rate(self):
        return self._c.emu_info()["fps"]

    def get_audio_rate(self):
        return self._c.emu_info()["sample_rate"]

    def get_ram(self):
        return self._c.get_ram()
