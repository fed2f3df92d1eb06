"""RetroEnv: a Gymnasium environment over one retrogym environment (the C ``rg_env``), with stable-retro's names."""
from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple, Type, Union

import gymnasium as gym
import numpy as np
from gymnasium.utils.ezpickle import EzPickle

from retrogym import _logging
from retrogym import _retrogym as _C
from retrogym import data as _data
from retrogym.emulator import Emulator
from retrogym.enums import Actions, Observations, State
from retrogym.gamedata import EnvData
from retrogym.movie import RecordingMovie
from retrogym.rendering import render_modes as _render_modes

if TYPE_CHECKING:
    import numpy.typing as npt

    from retrogym.preprocessed import PreprocessedEnv

__all__ = ["RetroEnv", "make", "OPTIONS"]

# What the arguments of make() and RetroEnv accept (annotations only).
_Game = Union[str, "os.PathLike[str]"]
_StateArg = Union[State, int, str, "os.PathLike[str]", None]
_Inttype = Union[_data.Integrations, int]
_Record = Union[bool, str, "os.PathLike[str]", None]

# The **options of make()/RetroEnv and what each means (all map to rg_env_options).
OPTIONS = {
    "frameskip": "frames per step (rewards summed); default 1",
    "sticky_prob": "per frame, the previous frame's buttons are kept with this probability; default 0",
    "repeat_action_probability": "alias of sticky_prob (ALE's name)",
    "max_pool": "image observation = per-pixel max of the step's last two frames; default False",
    "noop_max": "reset runs a random number in [0, noop_max] of no-op frames; default 0",
    "max_episode_steps": "truncated after this many steps; default 0 (never)",
    "core": "libretro core name or path; default: the system's preferred installed core",
    "core_options": "dict of core option values overriding the core's defaults",
    "log_level": "core and library messages forwarded to the 'retrogym' logger: debug, info, warn (default), "
    "error, none",
    "reset_sequence": "player 1's button masks, one per frame, run after a power-on reset (state=State.NONE), e.g. "
    "ALE's reset on the Atari 2600 (retrogym.atari); default None",
}


def _enum_value(value: Any, enum_type: Type[Any], what: str) -> int:
    if isinstance(value, enum_type):
        return value.value
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        if int(value) in {m.value for m in enum_type}:
            return int(value)
    raise ValueError(f"{what} must be one of {[m.name for m in enum_type]}, not {value!r}")


def _state_arg(state: _StateArg) -> Optional[str]:
    """State.DEFAULT -> None (C: metadata default), State.NONE -> "" (power-on), a name or path as is."""
    if state is State.DEFAULT or (isinstance(state, int) and not isinstance(state, bool) and state == -1):
        return None
    if state is State.NONE or state is None or (isinstance(state, int) and not isinstance(state, bool) and state == 0):
        return ""
    if isinstance(state, os.PathLike):
        state = os.fspath(state)
    if not isinstance(state, str):
        raise ValueError(f"state must be State.DEFAULT, State.NONE, a state name or a path, not {state!r}")
    return state


def _int_option(options: Dict[str, Any], name: str, default: int, low: int = 0) -> int:
    value = options.pop(name, default)
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be an int, not {value!r}")
    if value < low:
        raise ValueError(f"{name} must be at least {low}, not {value}")
    return int(value)


def _c_options(options: Dict[str, Any]) -> Dict[str, Any]:
    """Checks the **options and returns the C constructor's keyword arguments."""
    options = dict(options)
    out = {}
    if "repeat_action_probability" in options:
        if "sticky_prob" in options:
            raise ValueError("give sticky_prob or repeat_action_probability, not both")
        options["sticky_prob"] = options.pop("repeat_action_probability")
    out["frameskip"] = _int_option(options, "frameskip", 1, low=1)
    out["noop_max"] = _int_option(options, "noop_max", 0)
    steps = options.pop("max_episode_steps", 0)
    out["max_episode_steps"] = 0 if steps is None else _int_option({"max_episode_steps": steps}, "max_episode_steps", 0)
    sticky = options.pop("sticky_prob", 0.0)
    try:
        sticky = float(sticky)
    except (TypeError, ValueError):
        raise ValueError(f"sticky_prob must be a number in [0, 1], not {sticky!r}") from None
    out["sticky_prob"] = sticky  # its range, [0, 1], is rg_env_create's to check
    out["max_pool"] = bool(options.pop("max_pool", False))
    core = options.pop("core", None)
    if core is not None:
        core = os.fspath(core)
        if not isinstance(core, str) or not core:
            raise ValueError(f"core must be a core name or path, not {core!r}")
    out["core"] = core
    core_options = options.pop("core_options", None)
    if core_options is not None:
        if not isinstance(core_options, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in core_options.items()
        ):
            raise ValueError("core_options must be a dict of str to str")
    out["core_options"] = core_options
    level = options.pop("log_level", "warn")
    if isinstance(level, str):
        if level.lower() not in _logging.LEVEL_NUMBERS:
            raise ValueError(f"log_level must be one of {sorted(_logging.LEVEL_NUMBERS)}, not {level!r}")
        level = _logging.LEVEL_NUMBERS[level.lower()]
    out["log_level"] = int(level)
    seq = options.pop("reset_sequence", None)
    if seq is not None:
        try:
            seq = [int(m) for m in seq]
        except (TypeError, ValueError):
            raise ValueError("reset_sequence must be a sequence of button masks (ints) or None") from None
        out["reset_sequence"] = seq
    if options:
        raise TypeError(f"unknown option(s) {sorted(options)}; known: {sorted(OPTIONS)}")
    return out


MAX_DISCRETE_ACTIONS = 2**63 - 1  # RG_ACTIONS_MAX_DISCRETE


def action_space(
    actions: int, discrete_count: int, button_combos: Sequence[Sequence[int]], num_buttons: int, players: int
) -> gym.Space[Any]:
    """The action space of an action mode: Discrete(count), MultiDiscrete(group sizes * players) or
    MultiBinary(buttons * players)."""
    if actions == Actions.DISCRETE.value:
        if not 0 < discrete_count <= MAX_DISCRETE_ACTIONS:  # the C env refuses these first; never a wrapped count
            raise ValueError(f"DISCRETE actions: {sum(len(g) > 0 for g in button_combos)} action groups for "
                             f"{players} player(s) make more combinations than the limit of {MAX_DISCRETE_ACTIONS} "
                             "(2**63-1, an int64 action id); use MULTI_DISCRETE, FILTERED or ALL actions")
        return gym.spaces.Discrete(discrete_count)
    if actions == Actions.MULTI_DISCRETE.value:
        return gym.spaces.MultiDiscrete([len(g) for g in button_combos] * players)
    return gym.spaces.MultiBinary(num_buttons * players)


def rom_file(game: Any) -> Optional[str]:
    """The ROM file that ``game`` names, as an absolute path, or None when ``game`` is a game name: a ``PathLike``, or
    a str with a folder separator or a ROM extension of a known system (``.nes``, ``.md``, ...). FileNotFoundError
    when that file does not exist, ValueError when its extension is no system's."""
    if isinstance(game, os.PathLike):
        path = os.fspath(game)
    elif isinstance(game, str) and (os.sep in game or (os.altsep and os.altsep in game) or
                                    os.path.splitext(game)[1].lower() in _data.EMU_EXTENSIONS):
        path = game
    else:
        return None
    if not isinstance(path, str):
        raise ValueError(f"a ROM path must be a str path, not {game!r}")
    if not os.path.isfile(path):
        raise FileNotFoundError(f"no ROM file {path!r} (a game is a name such as 'StarCatcher-Nes' or the path of a "
                                "ROM file)")
    _data.get_romfile_system(path)  # ValueError naming the known extensions
    return os.path.abspath(path)


def c_env_kwargs(
    game: _Game,
    state: _StateArg,
    scenario: Optional[str],
    info: Optional[str],
    use_restricted_actions: Union[Actions, int],
    players: int,
    inttype: _Inttype,
    obs_type: Union[Observations, int],
    options: Dict[str, Any],
) -> Dict[str, Any]:
    """Checks make()'s arguments (``options``: a dict of the **options) and returns the keyword arguments of the C
    ``Env`` (and of each environment of a C ``Pool``), the data root and custom paths of this moment included.
    ``game`` may be a ROM file (``rom_file``): the C environment then runs that file with no integration (its
    ``game`` is ``<the file's path without extension>-<System>``: a path names no integration folder, and the system
    suffix lets the C library pick the core a start state was saved by), the options ``data`` (an alias of
    ``info``) and ``scenario`` giving the integration files when wanted."""
    options = dict(options)
    if "data" in options:
        if info is not None:
            raise ValueError("give info or data (its alias), not both")
        info = options.pop("data")
    rom = rom_file(game)
    if rom is not None:
        game = f"{os.path.splitext(rom)[0]}-{_data.get_romfile_system(rom)}"
    if not isinstance(game, str) or not game:
        raise ValueError(f"game must be a game name such as 'StarCatcher-Nes', not {game!r}")
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)):
        raise ValueError(f"players must be an int, not {players!r}")
    players = int(players)  # its range, 1 .. MAX_PLAYERS, is rg_env_create's to check
    actions = _enum_value(use_restricted_actions, Actions, "use_restricted_actions")
    obs = _enum_value(obs_type, Observations, "obs_type")
    c_state = _state_arg(state)
    for name, value in (("scenario", scenario), ("info", info)):
        if value is not None and not isinstance(value, (str, os.PathLike)):
            raise ValueError(f"{name} must be a name, a path ending in .json, or None, not {value!r}")
    kwargs = _c_options(options)
    if rom is not None:
        kwargs["rom"] = rom
    root, custom = _data._snapshot()
    return dict(
        game=game,
        state=c_state,
        scenario=None if scenario is None else os.fspath(scenario),
        info=None if info is None else os.fspath(info),
        actions=actions,
        obs=obs,
        players=int(players),
        data_root=root,
        custom_paths=custom,
        integrations=_data.resolve(inttype),
        **kwargs,
    )


_VERSION = re.compile(r"-v\d+$")


def _game_name(game: Any, inttype: _Inttype) -> Any:
    """The game as named, or its other form (``Airstriker-Genesis`` <-> ``Airstriker-Genesis-v0``, stable-retro
    1.0.1's folder names) when only that one has a folder."""
    if not isinstance(game, str) or not game:
        return game
    try:
        if _data.get_file_path(game, "rom.sha", inttype):
            return game
        other = _VERSION.sub("", game) if _VERSION.search(game) else game + "-v0"
        if _data.get_file_path(other, "rom.sha", inttype):
            return other
    except (OSError, ValueError):
        pass
    return game


def _rom_path(game: str, inttype: _Inttype) -> Optional[str]:
    """The ROM through ``retrogym.data.get_romfile_path``, looked up at call time so that code replacing it (as
    stable-retro's tests do) is obeyed; None when it finds none (the C library then says how to import one)."""
    try:
        rom = _data.get_romfile_path(game, inttype)
    except FileNotFoundError:
        return None
    return None if rom is None else os.fspath(rom)


class RetroEnv(gym.Env, EzPickle):
    """A game as a Gymnasium environment (docs/formats.md, "Environment").

    Each instance owns its emulator (any number of instances, of any systems, may live in one process and run on
    different threads). Observations are new arrays at every step. ``close()`` frees everything; using the
    environment afterwards raises RuntimeError.
    """

    # "human" only where pygame is importable (rendering.render_modes); asking for it without pygame still gets
    # check_display's error naming the extra to install.
    metadata = {"render_modes": _render_modes(), "render_fps": 60}

    def __init__(
        self,
        game: _Game,
        state: _StateArg = State.DEFAULT,
        scenario: Optional[str] = None,
        info: Optional[str] = None,
        use_restricted_actions: Union[Actions, int] = Actions.FILTERED,
        record: _Record = False,
        players: int = 1,
        inttype: _Inttype = _data.Integrations.DEFAULT,
        obs_type: Union[Observations, int] = Observations.IMAGE,
        render_mode: Optional[str] = None,
        **options: Any,
    ) -> None:
        EzPickle.__init__(
            self, game, state, scenario, info, use_restricted_actions, record, players, inttype, obs_type,
            render_mode, **options
        )
        self._c = None
        self.viewer = None
        if not (record is False or record is None or record is True or isinstance(record, (str, os.PathLike))):
            raise ValueError(f"record must be False, True (the current folder) or a folder, not {record!r}")
        if render_mode not in (None, "human") and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or one of {self.metadata['render_modes']}, not {render_mode!r}")
        game = _game_name(game, inttype)
        kwargs = c_env_kwargs(game, state, scenario, info, use_restricted_actions, players, inttype, obs_type, options)
        self.rom_path = kwargs.get("rom")  # a ROM file made without an integration (make(rom_path)), else None
        if self.rom_path is None:
            kwargs["rom"] = _rom_path(game, inttype)
        else:
            game = os.path.splitext(os.path.basename(self.rom_path))[0]
        if render_mode == "human":
            from retrogym.rendering import check_display

            check_display()
        self._c = _C.Env(log=_logging.forward, **kwargs)
        actions, obs = kwargs["actions"], kwargs["obs"]
        self._seeded = False
        self.gamename = game
        self.statename = self._c.state_name or None
        self.system = self._c.system
        self.players = int(players)
        self.buttons = self._c.buttons
        self.num_buttons = self._c.num_buttons
        self.button_combos = self._c.button_combos
        self.use_restricted_actions = Actions(actions)
        self._obs_type = Observations(obs)
        self.multi_rewards = False
        self.render_mode = render_mode
        self.frameskip = kwargs["frameskip"]
        self.img = None
        self.ram = None
        self.data = EnvData(self._c)
        self.em = Emulator(self._c)
        self.metadata = dict(self.metadata, render_fps=self._c.fps / self.frameskip)

        self.action_space = action_space(actions, self._c.discrete_count, self.button_combos, self.num_buttons,
                                         self.players)
        self.observation_space = gym.spaces.Box(0, 255, shape=self._c.obs_shape, dtype=np.uint8)
        if record is True:
            self.auto_record()
        elif record:
            self.auto_record(record)

    # ---- episodes ----

    def reset(
        self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[npt.NDArray[np.uint8], Dict[str, Any]]:
        """Loads the start state (or powers the console on), runs one frame and starts the scenario over.
        A seed reseeds the environment's random generator (sticky actions, no-op starts); without one the
        generator goes on (the first reset draws a seed from ``np_random``). Returns (observation, info)."""
        super().reset(seed=seed)
        self._check_open()
        if seed is not None:
            c_seed = int(seed)
        elif not self._seeded:
            c_seed = int(self.np_random.integers(0, 2**63 - 1))
        else:
            c_seed = None
        self._seeded = True
        obs, info = self._c.reset(c_seed)
        self._keep(obs)
        if self.render_mode == "human":
            self.render()
        return obs, info

    def step(self, action: Any) -> Tuple[npt.NDArray[np.uint8], Any, bool, bool, Dict[str, Any]]:
        """Runs ``frameskip`` frames with the action's buttons. Returns (observation, reward, terminated,
        truncated, info); reward is player 1's (a list of every player's when ``multi_rewards`` is set)."""
        self._check_open()
        obs, rewards, terminated, truncated, info = self._c.step(action)
        self._keep(obs)
        reward = list(rewards) if self.players > 1 and self.multi_rewards else rewards[0]
        if self.render_mode == "human":
            self.render()
        return obs, reward, terminated, truncated, info

    def _keep(self, obs: npt.NDArray[np.uint8]) -> None:
        if self._obs_type is Observations.RAM:
            self.ram = obs
        else:
            self.img = obs

    def _check_open(self) -> None:
        if self._c is None or self._c.closed:
            raise RuntimeError("the environment is closed")

    def compute_step(self) -> Tuple[Union[float, List[float]], bool, Dict[str, int]]:
        """(reward, done, info) of the last step, as stable-retro computes them."""
        self._check_open()
        if self.players > 1 and self.multi_rewards:
            reward = [self.data.current_reward(p) for p in range(self.players)]
        else:
            reward = self.data.current_reward()
        return reward, self.data.is_done(), self.data.lookup_all()

    # ---- rendering ----

    def render(self) -> Optional[npt.NDArray[np.uint8]]:
        """``rgb_array``: the screen (the last image observation, or the whole screen with RAM observations);
        ``human``: shows it in a window (pygame) and returns None (Gymnasium's rule; ``env.viewer.isopen`` tells
        whether the window is still open); no render mode: None."""
        if self.render_mode is None:
            return None
        self._check_open()
        img = self.img if self.img is not None else self.get_screen()
        if self.render_mode == "rgb_array":
            return img.copy()
        if self.viewer is None:
            from retrogym.rendering import SimpleImageViewer

            self.viewer = SimpleImageViewer(caption=f"retrogym: {self.gamename}")
        self.viewer.imshow(img)
        return None

    def close(self) -> None:
        """Frees the emulator and everything else (idempotent)."""
        if self.viewer is not None:
            self.viewer.close()
            self.viewer = None
        if self._c is not None:
            try:
                if not self._c.closed and self._c.movie_info() is not None:
                    self._c.stop_record()  # a failed write is reported, not dropped
            finally:
                self._c.close()

    # ---- actions ----

    def decode_action(self, action: Any) -> List[int]:
        """The buttons an action presses, one mask per player (bit i = button i), exactly as step() decodes and
        filters it."""
        self._check_open()
        return self._c.decode_action(action)

    def get_action_meaning(self, action: Any) -> Union[List[Optional[str]], List[List[Optional[str]]]]:
        """Names of the buttons an action presses (a list per player when players > 1)."""
        masks = self.decode_action(action)
        names = [[self.buttons[i] for i in range(self.num_buttons) if mask >> i & 1] for mask in masks]
        return names[0] if self.players == 1 else names

    def get_keys_to_action(self) -> Dict[Tuple[int, ...], Any]:
        """Player 1's keyboard for ``gymnasium.utils.play.play``: {sorted tuple of pygame key codes: action}, the
        arrows for the pad and x/z/s/a/q/w/Return/Tab for the other buttons (``retrogym.play``; needs pygame)."""
        from retrogym.play import keys_to_action

        self._check_open()
        return keys_to_action(self)

    def action_to_array(self, action: Any) -> List[npt.NDArray[np.uint8]]:
        """Per player, a uint8 array of num_buttons 0/1 values (stable-retro's helper)."""
        return [np.array([(m >> i) & 1 for i in range(self.num_buttons)], dtype=np.uint8)
                for m in self.decode_action(action)]

    # ---- observations and data ----

    def get_ram(self) -> npt.NDArray[np.uint8]:
        """Every memory block, concatenated (a new uint8 array)."""
        self._check_open()
        return self._c.get_ram()

    def get_screen(self, player: int = 0) -> npt.NDArray[np.uint8]:
        """The screen cropped as the scenario says for a player (stable-retro's rules: a zero or too large
        width/height reaches the edge)."""
        self._check_open()
        img = self._c.get_screen()
        x, y, w, h = self._c.crop_info(player)
        height, width = img.shape[:2]
        right = width if not w or x + w > width else x + w
        bottom = height if not h or y + h > height else y + h
        if x == 0 and y == 0 and right == width and bottom == height:
            return img
        return img[y:bottom, x:right].copy()

    def set_value(self, name: str, value: Union[int, float]) -> None:
        self.data.set_value(name, value)

    @property
    def initial_state(self) -> Optional[bytes]:
        """The start state later resets load, as the raw core state (bytes), or None for a power-on start
        (stable-retro's attribute). Assigning raw state bytes (e.g. ``movie.get_state()``) makes them the start of
        later resets; None or ``b""`` makes resets power-on starts. The core must accept the bytes (ValueError
        otherwise, and the previous start state stays)."""
        if self._c is None or self._c.closed:
            return None
        return self._c.start_state()

    @initial_state.setter
    def initial_state(self, state: Union[bytes, bytearray, memoryview, None]) -> None:
        self._check_open()
        if state is not None and not isinstance(state, (bytes, bytearray, memoryview)):
            raise TypeError(f"initial_state must be bytes of a raw core state or None, not {type(state).__name__}")
        data = bytes(state) if state else None
        try:
            self._c.set_start_state_data(data)
        except ValueError as e:
            if data is not None and data[:2] == b"\x1f\x8b":
                raise ValueError(f"{e} (these bytes are gzip-compressed, as a .state file is: assign "
                                 "gzip.decompress(data), or use load_state(path))") from None
            raise
        self.statename = self._c.state_name or None

    def load_state(self, statename: _Game, inttype: _Inttype = _data.Integrations.DEFAULT) -> None:
        """Uses a state of the game (name, ``.state`` optional) or a path for later resets."""
        self._check_open()
        name = os.fspath(statename)
        if os.sep in name or os.path.isabs(name):
            path = name
        else:
            file = name if name.endswith(".state") else name + ".state"
            path = _data.get_file_path(self.gamename, file, inttype)
            if path is None:
                raise FileNotFoundError(f"game {self.gamename} has no state {name!r} (see "
                                        f"retrogym.data.list_states({self.gamename!r}))")
        self._c.set_start_state(path)
        self.statename = self._c.state_name or None

    # ---- movies (docs/formats.md, "Movies") ----

    def auto_record(self, path: Union[str, os.PathLike[str], None] = None) -> None:
        """Records every episode from now on into its own movie in the folder ``path`` (default: the current
        folder), named ``<game>-<state>-<NNNNNN>.bk2`` with ``movie_id`` counting from 0. The current episode is
        included when no step was taken since its reset, else recording starts at the next reset."""
        self._check_open()
        folder = os.getcwd() if path is None else os.fspath(path)
        self._c.record_dir(folder, 0)

    def record_movie(self, path: Union[str, os.PathLike[str]]) -> None:
        """Records one episode into the file ``path``: the current one when no step was taken since its reset,
        else the next one. The file is written when the episode ends (terminated or truncated), at the next reset,
        at ``stop_record()`` or at ``close()``; recording then stops."""
        self._check_open()
        self._c.record_movie(os.fspath(path))

    def stop_record(self) -> None:
        """Stops recording; the movie being recorded is written."""
        self._check_open()
        self._c.stop_record()

    @property
    def movie(self) -> Optional[RecordingMovie]:
        """The movie being recorded (a read-only ``RecordingMovie``), or None."""
        if self._c is None or self._c.closed:
            return None
        info = self._c.movie_info()
        return RecordingMovie(self._c) if info is not None and info["path"] is not None else None

    @property
    def movie_path(self) -> Optional[str]:
        """The folder of ``record=`` / ``auto_record()``, or None (stable-retro's attribute)."""
        if self._c is None or self._c.closed:
            return None
        info = self._c.movie_info()
        return info["folder"] if info is not None else None

    @property
    def movie_id(self) -> int:
        """The number the next movie in the recording folder gets (0 when not recording into a folder)."""
        if self._c is None or self._c.closed:
            return 0
        info = self._c.movie_info()
        return info["movie_id"] if info is not None else 0

    # ---- whole-environment snapshots ----

    def clone_state(self) -> bytes:
        """A snapshot of the whole environment (emulator, scenario totals and scripts, random generator, step
        count) as bytes."""
        self._check_open()
        return self._c.clone_state()

    def restore_state(self, snapshot: Union[bytes, bytearray, memoryview]) -> None:
        """Puts the environment back where clone_state() was taken (same game, core and options)."""
        self._check_open()
        self._c.restore_state(snapshot)
        self._keep(self._c.observe())  # render() shows the snapshot's screen until the next step

    @property
    def core(self) -> str:
        """The libretro core in use."""
        self._check_open()
        return self._c.core

    @property
    def episode_steps(self) -> int:
        self._check_open()
        return self._c.episode_steps

    def __repr__(self) -> str:
        if self._c is None or self._c.closed:
            return f"<RetroEnv {getattr(self, 'gamename', '?')} (closed)>"
        return f"<RetroEnv {self.gamename} state={self.statename} core={self._c.core}>"


def make(
    game: _Game,
    state: _StateArg = State.DEFAULT,
    scenario: Optional[str] = None,
    info: Optional[str] = None,
    use_restricted_actions: Union[Actions, int] = Actions.FILTERED,
    record: _Record = False,
    players: int = 1,
    inttype: _Inttype = _data.Integrations.DEFAULT,
    obs_type: Union[Observations, int] = Observations.IMAGE,
    render_mode: Optional[str] = None,
    check_state: Union[bool, float] = False,
    **options: Any,
) -> Union[RetroEnv, PreprocessedEnv]:
    """Makes a RetroEnv (a ``gymnasium.Env``) for a game. ``options``: see ``retrogym.env.OPTIONS``.
    ``check_state``: True (or a timeout in seconds, default 30) first makes the env, resets it and runs 10 steps in a
    child process, raising RuntimeError when the state crashes the core there and TimeoutError when it hangs it
    (docs/reliability.md, "Damaged save states"); False (the default) loads the state in-process at once.
    ``grayscale``, ``resize``, ``frame_stack``, ``reward_clip`` (make_vec's): the preprocessing runs in C and the
    result is a ``retrogym.preprocessed.PreprocessedEnv`` over a vector environment of one."""
    if check_state:
        from . import state_check

        state_check.check(game, state, scenario, players, inttype, options,
                          timeout=30.0 if check_state is True else float(check_state))
    from .preprocessed import PREPROCESSING, PreprocessedEnv
    if any(name in options for name in PREPROCESSING):  # C preprocessing: a vector environment of one
        if record:
            raise ValueError("C preprocessing (grayscale, resize, frame_stack, reward_clip) and record do not go "
                             "together in make(): use make_vec(..., record=) or record without them")
        return PreprocessedEnv(game, state=state, scenario=scenario, info=info,
                               use_restricted_actions=use_restricted_actions, players=players, inttype=inttype,
                               obs_type=obs_type, render_mode=render_mode, **options)
    return RetroEnv(
        game,
        state=state,
        scenario=scenario,
        info=info,
        use_restricted_actions=use_restricted_actions,
        record=record,
        players=players,
        inttype=inttype,
        obs_type=obs_type,
        render_mode=render_mode,
        **options,
    )
