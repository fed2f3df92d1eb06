"""The game the UI plays: one environment, its buttons, pause/step/fast-forward, and a ring of snapshots for
rewind. Driven by the server's frame loop (``tick``) and by the page's commands; single-threaded (asyncio)."""
import collections
import gzip
import os

import numpy as np

import retrogym
from retrogym import data as _data
from retrogym.enums import Actions, State

from .integration import UIError, check_state_name

__all__ = ["Session"]

REWIND_SECONDS = 10     # how far back rewind reaches
SNAPSHOT_EVERY = 10     # frames between two snapshots of the ring
FAST_FORWARD = 4        # frames per tick when fast-forwarding


class Session:
    """One open game. ``frame`` counts the frames run since it was opened (rewind takes it back)."""

    def __init__(self, game, state=None):
        self.game = game
        self.env = None
        self.paused = False
        self.fast = False
        self.pending = 0          # frames asked by single-step / advance xN while paused
        self.frame = 0
        self.reward = 0.0
        self.done = False
        self.buttons = 0          # bit i: joypad id i held
        self.recording = None     # path of the movie being recorded
        self.playing = None       # [Movie, next frame] of the movie being played back
        self._open(state)

    # ---- opening ----

    def _open(self, state, keep_emulator=None):
        """Makes the environment; the one open before is closed only once the new one works."""
        arg = State.DEFAULT if state is None else (State.NONE if state == "" else state)
        try:
            env = retrogym.make(self.game, state=arg, use_restricted_actions=Actions.ALL,
                                inttype=_data.Integrations.ALL)
        except (ValueError, FileNotFoundError, RuntimeError, OSError, KeyError) as e:
            raise UIError(f"cannot open {self.game}: {e}") from None
        try:
            env.unwrapped.reset()
        except (ValueError, FileNotFoundError, RuntimeError, OSError, KeyError) as e:
            env.close()
            raise UIError(f"cannot start {self.game}: {e}") from None
        if self.env is not None:
            self.env.close()
        self.env = env
        self.u = env.unwrapped
        self.names = list(self.u.buttons)
        self.fps = float(self.u._c.fps)
        if keep_emulator is not None:
            self.u.em.set_state(keep_emulator)
            self.u.data.update_ram()
        self._ring = collections.deque(maxlen=max(1, int(REWIND_SECONDS * self.fps / SNAPSHOT_EVERY)))
        self.reward = 0.0
        self.done = False

    @property
    def state_name(self):
        return self.u.statename

    def reload(self):
        """Makes the environment again (after data.json or scenario.json changed), keeping the emulator where it is
        and the memory searches."""
        emu = self.u.em.get_state()
        start = self.u.initial_state
        saved = self._save_searches()
        try:
            self._open(self.u.statename or "", keep_emulator=emu)
            if start is not None:
                self.u.initial_state = start
            if saved:
                self.u.data.load_searches(saved)
        finally:
            if saved:
                os.unlink(saved)

    def _save_searches(self):
        if not hasattr(self.u.data, "searches") or not len(self.u.data.searches):
            return None
        import tempfile
        fd, path = tempfile.mkstemp(prefix="retrogym-ui-searches-", suffix=".json")
        os.close(fd)
        self.u.data.save_searches(path)
        return path

    # ---- memory search (env.data.search, docs/search.md) ----

    # The search panel's buttons as delta rounds: (op, sign of the amount).
    DELTAS = {"increased": ("greater-than", 0), "decreased": ("less-than", 0), "increased_by": ("equal", 1),
              "decreased_by": ("equal", -1), "changed": ("not-equal", 0), "unchanged": ("equal", 0)}

    def search(self, name, kind, value=0):
        if not hasattr(self.u.data, "search"):
            raise UIError("this retrogym has no memory search", 501)
        if isinstance(value, bool) or not isinstance(value, int) or abs(value) >= 1 << 62:
            raise UIError("search: the value is an integer")
        try:
            if kind == "is":
                self.u.data.search(name, value)
            elif kind in self.DELTAS:
                op, sign = self.DELTAS[kind]
                self.u.data.delta_search(name, op, sign * value)
            else:
                raise UIError(f"unknown search {kind!r}")
        except (ValueError, TypeError) as e:
            raise UIError(f"search {name!r}: {e}") from None
        except RuntimeError as e:
            raise UIError(f"search {name!r}: {e}") from None

    def searches(self, limit=50):
        """Every search: name, result count, rounds, types left, and its first results grouped by (address, mult,
        div, bias) with their types side by side, each with its current value in the first type."""
        if not hasattr(self.u.data, "searches"):
            return None
        out = []
        for name, srch in sorted(self.u.data.searches.items()):
            groups = {}
            for r in srch.results(min(srch.num_results(), limit * 12)):
                groups.setdefault((r.address, r.mult, r.div, r.bias), []).append(r.type)
                if len(groups) > limit:
                    break
            rows = [{"address": a, "mult": m, "div": d, "bias": b, "types": t}
                    for (a, m, d, b), t in list(groups.items())[:limit]]
            out.append({"name": name, "count": srch.num_results(), "rounds": srch.rounds, "types": srch.types,
                        "unique": srch.unique_result(), "results": rows, "memory": srch.memory_bytes})
        return out

    def remove_search(self, name):
        try:
            self.u.data.remove_search(name)
        except (KeyError, ValueError) as e:
            raise UIError(f"no search named {name!r}: {e}", 404) from None

    # ---- running ----

    def _action(self):
        bits = self.buttons
        if self.playing is not None:
            movie, index = self.playing
            bits = movie.frame_buttons(index, 0)
            self.playing[1] += 1
        return np.array([(bits >> i) & 1 for i in range(len(self.names))], dtype=np.uint8)

    def run_frame(self):
        if self.frame % SNAPSHOT_EVERY == 0:
            self._ring.append((self.frame, self.u.clone_state()))
        _, reward, terminated, truncated, _ = self.u.step(self._action())
        self.reward = float(reward)
        self.done = bool(terminated or truncated)
        self.frame += 1

    def tick(self):
        """One display tick: the frames to run now (0 while paused with nothing asked). Returns how many ran."""
        if self.paused:
            n, self.pending = min(self.pending, 600), max(0, self.pending - 600)
        else:
            n = FAST_FORWARD if self.fast else 1
        for i in range(n):
            if self.playing is not None and self.playing[1] >= self.playing[0].frame_count:
                self.playing = None  # the movie's end: paused there
                self.paused, self.pending = True, 0
                return i
            self.run_frame()
        return n

    def advance(self, n):
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 100000:
            raise UIError("frame advance: 1 to 100000 frames")
        self.paused = True
        self.pending += n

    def set_buttons(self, bits):
        if isinstance(bits, bool) or not isinstance(bits, int):
            raise UIError("buttons: an integer of button bits")
        self.buttons = bits & ((1 << len(self.names)) - 1)

    def _not_recording(self, what):
        if self.recording is not None:
            raise UIError(f"{what}: stop recording first (a movie runs from its start state without jumps)", 409)

    def reset(self):
        """Back to the start state (the scenario starts over); a movie being recorded is written first."""
        if self.recording is not None:
            self.stop_recording()
        self.playing = None
        self.u.reset()
        self.reward, self.done = 0.0, False
        self._ring.clear()
        self.frame = 0

    def power_on(self):
        """A power-on start (no state), keeping the start state for later resets."""
        self._not_recording("power-on")
        self.playing = None
        start = self.u.initial_state
        self.u.initial_state = None
        self.u.reset()
        if start is not None:
            self.u.initial_state = start
        self.reward, self.done = 0.0, False
        self._ring.clear()
        self.frame = 0

    def rewind(self, seconds):
        """Back about ``seconds`` (as far as the ring reaches); returns the seconds actually gone back."""
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 < seconds <= 3600:
            raise UIError("rewind: a number of seconds")
        self._not_recording("rewind")
        self.playing = None
        target = self.frame - max(1, int(float(seconds) * self.fps))
        snap = None
        while self._ring:  # the newest snapshot at or before the target, else the oldest there is
            snap = self._ring.pop()
            if snap[0] <= target:
                break
        if snap is None:
            return 0.0
        self.u.restore_state(snap[1])
        gone = (self.frame - snap[0]) / self.fps
        self.frame = snap[0]
        self.done = False
        return gone

    # ---- what the page shows ----

    def screen(self):
        return self.u.get_screen()

    def info(self):
        try:
            values = self.u.data.lookup_all()
        except Exception:  # a variable outside memory: the others still show
            values = {}
        return {
            "frame": self.frame, "timestep": int(self.u.episode_steps), "reward": self.reward,
            "total": float(self.u.data.total_reward()), "done": self.done, "paused": self.paused,
            "fast": self.fast, "values": {k: int(v) for k, v in values.items()},
            "recording": os.path.basename(self.recording) if self.recording else None,
            "playing": (f"{self.playing[1]}/{self.playing[0].frame_count}" if self.playing else None),
        }

    def describe(self):
        return {
            "game": self.game, "state": self.u.statename, "system": self.u.system, "buttons": self.names,
            "fps": self.fps, "resolution": list(self.u.em.get_resolution()),
            "states": _data.list_states(self.game, _data.Integrations.ALL),
            "default_state": _data.get_default_state(self.game, 1, _data.Integrations.ALL),
            "variables": {k: dict(v) for k, v in self.u.data.list_variables().items()},
            "scenario": self.scenario_doc(),
        }

    def scenario_doc(self):
        import json
        path = _data.get_file_path(self.game, "scenario.json", _data.Integrations.ALL)
        if path is None:
            return {}
        try:
            with open(path, "rb") as f:
                return json.loads(f.read())
        except (OSError, ValueError):
            return {}

    # ---- memory and variables ----

    def memory(self):
        return self.u.data.memory.blocks

    def write_memory(self, address, values):
        try:
            self.u.data.memory.write(int(address), bytes(values))
        except (IndexError, ValueError) as e:
            raise UIError(f"cannot write memory at {address:#x}: {e}") from None

    def set_variable(self, name, address, type_):
        size = int(type_[-1]) if type_[-1:].isdigit() else 1
        if not any(base <= address and address + size <= base + len(b) for base, b in self.memory().items()):
            raise UIError(f"variable {name}: address {address:#x} ({size} bytes) is outside the console's memory")
        try:
            self.u.data.vars[name] = {"address": int(address), "type": type_}
        except (ValueError, KeyError, IndexError) as e:
            raise UIError(f"variable {name}: {e}") from None

    def remove_variable(self, name):
        try:
            self.u.data.remove_variable(name)
        except KeyError:
            raise UIError(f"no variable named {name}", 404) from None

    def set_value(self, name, value):
        try:
            self.u.data.set_value(name, int(value))
        except (KeyError, ValueError, IndexError, OverflowError) as e:
            raise UIError(f"cannot set {name}: {e}") from None

    def data_doc(self):
        return {"info": {k: dict(v) for k, v in self.u.data.list_variables().items()}}

    # ---- states ----

    def raw_state(self):
        return self.u.em.get_state()

    def load_state(self, name):
        name = check_state_name(name)
        path = _data.get_file_path(self.game, name + ".state", _data.Integrations.ALL)
        if path is None:
            raise UIError(f"{self.game} has no state {name}", 404)
        self.load_state_file(path)

    def load_state_file(self, path):
        try:
            with open(path, "rb") as f:
                raw = f.read(64 << 20)
            if raw[:2] == b"\x1f\x8b":
                raw = gzip.decompress(raw)
        except (OSError, EOFError, gzip.BadGzipFile) as e:
            raise UIError(f"{os.path.basename(path)}: not a readable state ({e})") from None
        self.load_state_bytes(raw, os.path.basename(path))

    def load_state_bytes(self, raw, what="the state"):
        """Makes ``raw`` (a core state) the start state and resets to it; the core refusing it changes nothing."""
        if not raw:
            raise UIError(f"{what} is empty: refused")
        self._not_recording("loading a state")
        before = self.u.initial_state
        try:
            self.u.initial_state = raw
        except (ValueError, TypeError) as e:
            raise UIError(f"{what} is refused by the core: {e}") from None
        try:
            self.reset()
        except Exception as e:  # noqa: BLE001 - put the old start back, whatever went wrong
            self.u.initial_state = before
            self.reset()
            raise UIError(f"{what} cannot be started: {e}") from None

    # ---- movies ----

    def start_recording(self, path):
        """Records from the start state: the game is reset and every frame played goes into ``path`` (.bk2)."""
        self._not_recording("record")
        self.reset()
        try:
            self.u.record_movie(path)
        except (ValueError, OSError, RuntimeError) as e:
            raise UIError(f"cannot record {os.path.basename(path)}: {e}") from None
        self.recording = path

    def stop_recording(self):
        path, self.recording = self.recording, None
        if path is None:
            raise UIError("not recording")
        try:
            self.u.stop_record()
        except (ValueError, OSError, RuntimeError) as e:
            raise UIError(f"the movie {os.path.basename(path)} could not be written: {e}") from None
        return path

    def play_movie(self, path):
        """Plays a movie back from its start state with the scenario live (the keys do nothing until it ends)."""
        from retrogym.movie import Movie
        self._not_recording("playing a movie")
        try:
            movie = Movie(path)
        except (ValueError, OSError, RuntimeError) as e:
            raise UIError(f"{os.path.basename(path)}: not a movie this can read ({e})") from None
        if movie.get_game() and movie.get_game() != self.game:
            raise UIError(f"{os.path.basename(path)} is a movie of {movie.get_game()}, not of {self.game}")
        state = movie.get_state()
        if state:
            self.load_state_bytes(state, os.path.basename(path))
        else:
            self.power_on()
        self.playing = [movie, 1]
        self.paused = False

    def close(self):
        if self.recording is not None:
            try:
                self.stop_recording()
            except UIError:
                pass
        if self.env is not None:
            self.env.close()
            self.env = None
