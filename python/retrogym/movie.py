"""Movies (replays): ``retrogym.Movie`` (stable-retro's ``Movie``, in C), the movie an environment is recording
(``env.movie``), the rewards retrogym stores with its recordings, and ``playback_movie`` to play a movie back through
its game (stable-retro's ``playback_movie`` script as a generator)."""
from __future__ import annotations

import os
import tempfile
import zipfile
from typing import Any, Dict, Iterator, List, Optional, Tuple, Union

import numpy as np

from retrogym import _retrogym as _C
from retrogym import data as _data
from retrogym.enums import Actions, Observations, State

__all__ = ["Movie", "RecordingMovie", "RecordedRewards", "recorded_rewards", "playback_movie"]

Movie = _C.Movie

SCORES_ENTRY = "retrogym.txt"
SCORES_MAGIC = "retrogym-scores 1"


class RecordingMovie:
    """The movie an environment is recording (``env.movie``): read-only; ``close()`` stops the recording (the file
    is written), as ``env.stop_record()`` does. It describes the recording at the moment it is read."""

    def __init__(self, c_env: _C.Env) -> None:
        self._c = c_env

    def _info(self):
        info = self._c.movie_info()
        if info is None or info["path"] is None:
            raise RuntimeError("the environment is no longer recording this movie")
        return info

    @property
    def path(self) -> str:
        return self._info()["path"]

    @property
    def players(self) -> int:
        return self._info()["players"]

    @property
    def system(self) -> str:
        return self._info()["system"]

    @property
    def frame_count(self) -> int:
        """Frames recorded so far (0 until the episode's reset)."""
        return self._info()["frames"]

    @property
    def recording(self) -> bool:
        return True

    def get_game(self) -> str:
        return self._info()["game"]

    def get_state(self) -> bytes:
        """The start state (b'' for a power-on start); b'' until the episode's reset."""
        self._info()
        return self._c.movie_state() or b""

    def close(self) -> None:
        self._c.stop_record()

    def _refuse(self, *args, **kwargs):
        raise RuntimeError("the environment writes this movie itself; stop with env.stop_record()")

    step = set_key = set_state = configure = _refuse

    def __bool__(self) -> bool:
        return True

    def __repr__(self) -> str:
        info = self._c.movie_info()
        if info is None or info["path"] is None:
            return "<RecordingMovie (ended)>"
        return f"<RecordingMovie {info['path']!r}, {info['frames']} frames so far>"


class RecordedRewards:
    """The rewards and done a recording retrogym environment saw on every frame (the movie's ``retrogym.txt``).
    ``at(frame)`` -> (rewards per player, done), for frames ``first`` .. ``frames - 1``."""

    def __init__(self, text: str, path: Union[str, os.PathLike[str]]) -> None:
        lines = text.splitlines()
        if not lines or lines[0] != SCORES_MAGIC:
            raise ValueError(f"{path}: {SCORES_ENTRY} is not '{SCORES_MAGIC}'")
        self.core, self.players, self.first, self.frames = "", None, 0, None
        self._events = {}
        for number, line in enumerate(lines[1:], 2):
            fields = line.split()
            if not fields:
                continue
            try:
                if line[0].isdigit():
                    if self.players is None or self.frames is None:
                        raise ValueError("a frame before the players and frames lines")
                    if len(fields) != self.players + 2 or fields[-1] not in ("0", "1"):
                        raise ValueError("a frame line is '<frame> <reward per player> <done>'")
                    frame = int(fields[0])
                    if not self.first <= frame < self.frames:
                        raise ValueError(f"frame {frame} outside {self.first} .. {self.frames - 1}")
                    self._events[frame] = ([float(v) for v in fields[1:-1]], fields[-1] == "1")
                elif fields[0] == "core":
                    self.core = line[5:]
                elif fields[0] in ("players", "first", "frames"):
                    setattr(self, fields[0], int(fields[1]))
            except ValueError as e:
                raise ValueError(f"{path}: {SCORES_ENTRY} line {number}: {e}") from None
        if self.players is None or self.frames is None:
            raise ValueError(f"{path}: {SCORES_ENTRY} lacks its players or frames line")

    def at(self, frame: int) -> Tuple[List[float], bool]:
        if not self.first <= frame < self.frames:
            raise IndexError(f"frame {frame} has no recorded reward ({self.first} .. {self.frames - 1})")
        return self._events.get(frame, ([0.0] * self.players, False))


def recorded_rewards(path: Union[str, os.PathLike[str]]) -> Optional[RecordedRewards]:
    """The ``RecordedRewards`` of a movie file, or None when it has none (a movie not recorded by retrogym)."""
    try:
        with zipfile.ZipFile(os.fspath(path)) as z:
            if SCORES_ENTRY not in z.namelist():
                return None
            text = z.read(SCORES_ENTRY).decode("utf-8")
    except zipfile.BadZipFile as e:
        raise ValueError(f"{path}: not a zip archive ({e})") from None
    return RecordedRewards(text, path)


def _core_installed(name):
    return any(c["name"] == name for c in _data.list_cores())


def playback_movie(
    movie: Union[str, os.PathLike[str], _C.Movie, RecordingMovie],
    *,
    game: Optional[str] = None,
    scenario: Optional[str] = None,
    info: Optional[str] = None,
    inttype: Union[_data.Integrations, int] = _data.Integrations.ALL,
    core: Optional[str] = None,
    obs_type: Union[Observations, int] = Observations.IMAGE,
    verify: bool = True,
    **options: Any,
) -> Iterator[Tuple[np.ndarray, Union[float, List[float]], bool, bool, Dict[str, Any]]]:
    """Plays a movie back through its game (stable-retro's playback_movie): the game the movie names (or ``game``),
    its players, its start state (power-on without one), ``Actions.ALL``, one frame per step. Yields
    ``(obs, reward, terminated, truncated, info)`` for every frame after the first (the first is the reset), the
    reward a float, or a list per player when the movie has several. With ``verify`` (default) and a movie recorded
    by retrogym, each frame's reward and done are checked against the recording: ``ValueError`` at the first
    difference. ``core`` defaults to the core that recorded the movie when it is installed. ``options``: those of
    ``retrogym.make`` (frameskip and the like are not allowed: a movie is played frame by frame)."""
    from retrogym.env import make  # not at import time: env.py imports this module

    for name in ("frameskip", "sticky_prob", "repeat_action_probability", "noop_max", "max_pool"):
        if name in options:
            raise TypeError(f"playback_movie plays frame by frame: {name} cannot be set")
    path = movie.path if isinstance(movie, (Movie, RecordingMovie)) else os.fspath(movie)
    m = Movie(path)
    if m.frame_count == 0:
        raise ValueError(f"{path} holds no frames")
    scores = recorded_rewards(path) if verify and m.format == "bk2" else None
    if core is None and scores is not None and scores.core and _core_installed(scores.core):
        core = scores.core
    name = game or m.get_game()
    if not name:
        raise ValueError(f"{path} names no game (an FM2 movie?): pass game=")
    if core is not None:
        options["core"] = core
    state = m.get_state()
    with tempfile.TemporaryDirectory(prefix="retrogym-playback-") as tmp:
        start = State.NONE
        if state:
            start = os.path.join(tmp, "Core.bin")
            with open(start, "wb") as f:
                f.write(state)
        try:
            env = make(name, state=start, scenario=scenario, info=info, use_restricted_actions=Actions.ALL,
                       players=m.players, inttype=inttype, obs_type=obs_type, **options)
        except ValueError as e:
            if state and "state" in str(e).lower():
                raise ValueError(f"{path}: the movie's start state (Core.bin, {len(state)} bytes) does not load "
                                 f"into the core (recorded with another core?): {e}") from None
            raise
    try:
        if env.system != m.system:
            raise ValueError(f"{path}: the movie is for {m.system}, but game {name} is a {env.system} game")
        env.multi_rewards = m.players > 1
        players, buttons = m.players, env.num_buttons

        def check(frame, rewards, done):
            if scores is None or frame < scores.first:
                return
            want, want_done = scores.at(frame)
            same = all(np.float32(r) == np.float32(w) for r, w in zip(rewards, want))  # float32 in the file
            if not same or bool(done) != want_done:
                raise ValueError(f"{path}: the playback differs from the recording at frame {frame}: recorded "
                                 f"reward {want} done {want_done}, now {list(rewards)} done {bool(done)}")

        env.reset(seed=0)
        check(0, [env.data.current_reward(p) for p in range(players)], env.data.is_done())
        for frame in range(1, m.frame_count):
            action = [(m.frame_buttons(frame, p) >> i) & 1 for p in range(players) for i in range(buttons)]
            obs, reward, terminated, truncated, step_info = env.step(action)
            check(frame, reward if players > 1 else [reward], terminated)
            yield obs, reward, terminated, truncated, step_info
    finally:
        env.close()
