"""NESEnv: nes-py's NES environment class on retrogym's emulator (docs/python.md, "nes-py").

A game environment subclasses ``NESEnv`` and overrides the life-cycle hooks (``_will_reset``, ``_did_reset``,
``_did_step``, ``_get_reward``, ``_get_done``, ``_get_info``); it reads and writes the console's 2 KiB of RAM through
``self.ram`` and skips frames with ``self._frame_advance(action)``. The emulator is a retrogym ``Emu`` (any libretro
NES core, or our own core ``nes``) chosen by the ``core`` argument, else ``$RETROGYM_NES_CORE``, else the NES
system's first installed core."""
import itertools
import os

import gymnasium as gym
import numpy as np

from retrogym import _retrogym as _C

__all__ = ["NESEnv", "SCREEN_HEIGHT", "SCREEN_WIDTH", "RAM_SIZE", "CORE_ENV"]

SCREEN_HEIGHT = 240
SCREEN_WIDTH = 256
RAM_SIZE = 0x800  # the console's work RAM, CPU addresses 0x0000-0x07FF
CORE_ENV = "RETROGYM_NES_CORE"

# Every NES core we know shows the whole 256x240 picture at NTSC timing with these (a core ignores other cores'
# keys): FCEUmm and Nestopia crop the overscan by default, and Nestopia may pick PAL timing for a ROM.
_CORE_OPTIONS = {
    "fceumm_overscan": "disabled",
    "nestopia_overscan_v": "disabled",
    "nestopia_overscan_h": "disabled",
    "nestopia_favored_system": "ntsc",
}

# nes-py's joypad byte: bit 0 A, 1 B, 2 select, 3 start, 4 up, 5 down, 6 left, 7 right (the order the NES
# controller shifts its buttons out). libretro joypad ids: B 0, select 2, start 3, up 4, down 5, left 6, right 7,
# A 8; so bit 0 moves to id 8, bit 1 to id 0, and bits 2-7 keep their place.
_JOYPAD_TO_LIBRETRO = {}
for _byte in range(256):
    _JOYPAD_TO_LIBRETRO[_byte] = (_byte & 0xFC) | ((_byte & 1) << 8) | ((_byte >> 1) & 1)
del _byte


# A core without a full-frame option sends FCEUmm's default picture: 8 pixels cropped on each side, 240x224. It goes
# in the middle of a black 256x240 frame. (Our own core "nes" takes fceumm_overscan as FCEUmm does.)
_CROPPED = (SCREEN_WIDTH - 16, SCREEN_HEIGHT - 16)


def _uncrop(frame):
    if frame.shape[:2] != (_CROPPED[1], _CROPPED[0]):
        raise RuntimeError(f"the NES core sent a {frame.shape[1]}x{frame.shape[0]} frame, not {SCREEN_WIDTH}x"
                           f"{SCREEN_HEIGHT} (or {_CROPPED[0]}x{_CROPPED[1]})")
    out = np.zeros((SCREEN_HEIGHT, SCREEN_WIDTH, 3), np.uint8)
    out[8:-8, 8:-8] = frame
    return out


class RAM(np.ndarray):
    """The console's RAM: a writable uint8 view of the core's own memory (a write changes the emulated RAM at once).
    Reading one byte gives a Python ``int`` rather than a ``numpy.uint8``, so arithmetic written for NumPy 1 (e.g.
    gym-super-mario-bros' ``ram[0x6d] * 0x100``) neither overflows nor raises under NumPy 2; slices and everything
    else are ordinary arrays over the same memory.

    Iterating gives Python ints as well. Games read single bytes many times a step, so the environment's own RAM
    array answers an int index through a memoryview of the same memory (``_bytes``; a view taken from it answers
    through NumPy)."""

    def __getitem__(self, key, _get=np.ndarray.__getitem__, _int=int, _u8=np.uint8):
        if type(key) is _int:
            memory = self.__dict__.get("_bytes")
            if memory is not None:
                return memory[key]
        value = _get(self, key)
        return int(value) if type(value) is _u8 else value

    def __iter__(self):
        """Python ints too (gym-super-mario-bros reads its score digits as ``map(str, ram[a:b])``)."""
        return iter(self.tolist()) if self.ndim == 1 else np.ndarray.__iter__(self)


def _ram(array):
    """``array`` (the 2 KiB, uint8) as the RAM class, with its memoryview for single-byte reads."""
    ram = array.view(RAM)
    ram._bytes = memoryview(ram)
    return ram


def _check_rom(rom_path):
    """Clear errors for what nes-py refuses: a missing file, a file that is not iNES, a ROM without PRG banks."""
    path = os.fspath(rom_path)
    if not isinstance(path, str):
        raise TypeError(f"rom_path must be a str or path, not {type(rom_path).__name__}")
    if not os.path.isfile(path):
        raise FileNotFoundError(f"no ROM file at {path}")
    with open(path, "rb") as f:
        header = f.read(16)
    if len(header) < 16 or header[:4] != b"NES\x1a":
        raise ValueError(f"{path} is not an iNES ROM (its first bytes are not 'NES\\x1a')")
    if header[4] == 0:
        raise ValueError(f"{path}: the iNES header gives the ROM no PRG-ROM banks")
    return path


class NESEnv(gym.Env):
    """nes-py's ``NESEnv(rom_path)`` as a ``gymnasium.Env``: ``reset()`` -> ``(obs, info)``, ``step(action)`` ->
    ``(obs, reward, terminated, truncated, info)`` with ``truncated`` always False; the action is a joypad byte in
    nes-py's bit order (``Discrete(256)``); the observation is the screen, ``(240, 256, 3)`` uint8.

    ``core``: a core name (``"fceumm"``, ``"nestopia"``, ``"nes"``) or path; None: ``$RETROGYM_NES_CORE``, else the
    NES system's first installed core. ``render_mode``: None (``render()`` then shows a window, as nes-py's default
    ``mode='human'``), ``"rgb_array"`` or ``"human"``."""

    metadata = {
        "render_modes": ["rgb_array", "human"],
        "render_fps": 60,
        "render.modes": ["rgb_array", "human"],  # nes-py's (old gym's) keys
        "video.frames_per_second": 60,
    }
    reward_range = (-float("inf"), float("inf"))
    observation_space = gym.spaces.Box(low=0, high=255, shape=(SCREEN_HEIGHT, SCREEN_WIDTH, 3), dtype=np.uint8)
    action_space = gym.spaces.Discrete(256)

    def __init__(self, rom_path, core=None, render_mode=None):
        path = _check_rom(rom_path)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or one of {self.metadata['render_modes']}, not "
                             f"{render_mode!r}")
        if core is None:
            core = os.environ.get(CORE_ENV) or None
        self._rom_path = path
        self._emu = _C.Emu(path, None if core is None else os.fspath(core), _CORE_OPTIONS, False)
        width, height = self._emu.resolution()
        if (width, height) not in ((0, 0), (SCREEN_WIDTH, SCREEN_HEIGHT), _CROPPED):
            info = self._emu.info()
            self._emu.close()
            raise RuntimeError(f"NES core {info['core']!r} shows {width}x{height} pixels, not nes-py's "
                               f"{SCREEN_WIDTH}x{SCREEN_HEIGHT}")
        self.render_mode = render_mode
        self.viewer = None
        self.done = True
        self._has_backup = False
        self._backup_state = None
        self._backup_screen = None
        self.ram = _ram(self._emu.ram_view(0, RAM_SIZE))
        # nes-py's console powers on with its RAM cleared; FCEUmm fills it with 0xFF, which games' start-up code
        # (and gym-super-mario-bros' start-screen skip, reading the timer digits) would see
        self.ram[:] = 0
        # the console as loaded: what reset() restores until a backup exists (nes-py's hardware reset)
        self._power_on = self._emu.get_state()
        self._screen = np.zeros(self.observation_space.shape, np.uint8)
        self._screen_stale = False

    # ---- the emulator ----

    def _live(self):
        if self._emu is None:
            raise RuntimeError("the environment is closed")
        return self._emu

    @property
    def core(self):
        """The name of the core running the game."""
        return self._live().info()["core"]

    @property
    def screen(self):
        """The last frame, ``(240, 256, 3)`` uint8 (a new array after each frame; read lazily)."""
        if self._screen_stale:
            frame = self._live().screen()
            if frame.shape[:2] != (SCREEN_HEIGHT, SCREEN_WIDTH):
                frame = _uncrop(frame)
            self._screen = frame
            self._screen_stale = False
        return self._screen

    def _frame_advance(self, action):
        """Runs one frame with the joypad byte ``action`` held on controller 1 (no reward, done or info)."""
        try:
            mask = _JOYPAD_TO_LIBRETRO[action]
        except (KeyError, TypeError):
            raise ValueError(f"an NES action is a joypad byte, an int in [0, 255], not {action!r}") from None
        emu = self._emu
        if emu is None:
            raise RuntimeError("the environment is closed")
        emu.set_buttons(mask, 0)
        emu.run()
        self._screen_stale = True

    def _backup(self):
        """Keeps the emulator's state (and screen); later resets restore it instead of powering on."""
        self._backup_state = self._live().get_state()
        self._backup_screen = self.screen.copy()
        self._has_backup = True

    def _restore(self):
        """Loads the state kept by ``_backup()``."""
        if not self._has_backup:
            raise RuntimeError("_restore() needs a state kept by _backup() first")
        self._load(self._backup_state, self._backup_screen)

    def _load(self, state, screen):
        if not self._live().set_state(state):
            raise RuntimeError(f"the core {self.core!r} refused its own state")
        self._screen = screen.copy()
        self._screen_stale = False

    # ---- Gymnasium API ----

    def seed(self, seed=None):
        """nes-py's ``seed``: seeds ``np_random``; returns ``[seed]`` (``[]`` for None)."""
        if seed is None:
            return []
        super().reset(seed=seed)
        return [seed]

    def reset(self, seed=None, options=None, return_info=None):
        """Calls ``_will_reset()``, restores the backup (or the power-on state when there is none), calls
        ``_did_reset()``; returns ``(screen, {})``. ``options`` and nes-py's ``return_info`` are ignored."""
        super().reset(seed=seed)
        self._will_reset()
        if self._has_backup:
            self._restore()
        else:
            self._load(self._power_on, np.zeros(self.observation_space.shape, np.uint8))
        self._did_reset()
        self.done = False
        if self.render_mode == "human":
            self.render()
        return self.screen, {}

    def step(self, action):
        """One frame with the joypad byte ``action``, then ``_get_reward``, ``_get_done``, ``_get_info`` and
        ``_did_step(done)``; the reward is clipped to ``reward_range``. ValueError once done (call ``reset``)."""
        if self.done:
            raise ValueError("cannot step in a done environment! call `reset`")
        self._frame_advance(action)
        reward = float(self._get_reward())
        self.done = bool(self._get_done())
        info = self._get_info()
        self._did_step(self.done)
        low, high = self.reward_range
        if reward < low:
            reward = float(low)
        elif reward > high:
            reward = float(high)
        if self.render_mode == "human":
            self.render()
        return self.screen, reward, self.done, False, info

    def render(self, mode=None):
        """``mode`` (nes-py's argument), else ``render_mode``, else ``"human"``: ``"rgb_array"`` returns the
        screen; ``"human"`` shows it in a pygame window (retrogym.rendering) and returns None."""
        if mode is None:
            mode = getattr(self, "render_mode", None) or "human"
        if mode == "rgb_array":
            return self.screen
        if mode != "human":
            raise NotImplementedError(f"valid render modes are: 'rgb_array', 'human', not {mode!r}")
        if self.viewer is None:
            from retrogym.rendering import SimpleImageViewer

            spec = getattr(self, "spec", None)
            caption = spec.id if spec is not None else os.path.basename(getattr(self, "_rom_path", "nes"))
            self.viewer = SimpleImageViewer(caption=caption)
        self.viewer.imshow(self.screen)
        return None

    def close(self):
        """Unloads the core (and closes a window). ValueError when already closed, as nes-py."""
        if self._emu is None:
            raise ValueError("env has already been closed.")
        emu, self._emu = self._emu, None
        self.ram = _ram(np.array(self.ram, dtype=np.uint8))  # the last values; the core's memory goes now
        emu.close()
        if self.viewer is not None:
            self.viewer.close()
            self.viewer = None

    def __getstate__(self):
        raise TypeError("an NESEnv cannot be pickled (it holds a running emulator)")

    # ---- the hooks a game overrides ----

    def _will_reset(self):
        """Called before a reset restores the backup (or powers on)."""

    def _did_reset(self):
        """Called after a reset, before its observation is taken."""

    def _did_step(self, done):
        """Called after a step has computed reward, done and info."""

    def _get_reward(self):
        return 0

    def _get_done(self):
        return False

    def _get_info(self):
        return {}

    # ---- nes-py's helpers ----

    def get_keys_to_action(self):
        """Keyboard keys (sorted tuples of ``ord`` codes) to joypad bytes: d right, a left, s down, w up, Enter
        start, Space select, p B, o A (nes-py's keys)."""
        keys = {7: ord("d"), 6: ord("a"), 5: ord("s"), 4: ord("w"), 3: ord("\r"), 2: ord(" "), 1: ord("p"),
                0: ord("o")}
        out = {}
        for pressed in itertools.product((0, 1), repeat=8):
            byte = sum(bit << i for i, bit in enumerate(pressed))
            out[tuple(sorted(keys[i] for i, bit in enumerate(pressed) if bit))] = byte
        return out

    def get_action_meanings(self):
        return ["NOOP"]
