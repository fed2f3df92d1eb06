"""ALE's conventions on retrogym's Atari 2600 environments (docs/python.md, "Atari (ALE conventions)").

``AtariEnv`` is a RetroEnv that starts the game from power-on the way ALE does (its reset sequence: no-op frames,
then the console's RESET switch held, then the game's starting actions; measured per game against ALE, see
``retrogym.ale_games``), takes ALE's action ids (the game's minimal set, or the full 18 with
``full_action_space=True``), names them with ``get_action_meanings()``, reports ``lives`` in info and takes ALE v5's
keyword arguments (``frameskip``, ``repeat_action_probability``, ``max_num_frames_per_episode``, ``obs_type``), plus
``episodic_life``, ``fire_reset`` and ``noop_max``. It exposes an ``ale`` object with the few methods Gymnasium's
``AtariPreprocessing`` calls, so ``AtariPreprocessing(gym.make("retrogym/Pong-v5", frameskip=1))`` works.

``make_vec`` is ``retrogym.make_vec`` with EnvPool's Atari defaults (84x84 grayscale, 4-frame stack, frame skip 4
with max-pool, up to 30 no-op frames, fire reset, a 27,000-step cap) and ALE's action ids.

The Gymnasium ids ``retrogym/<Game>-v5`` (``retrogym.registration``) make these two.
"""
import json
import math
import os
import tempfile

import gymnasium as gym
import numpy as np
from gymnasium.utils.ezpickle import EzPickle

from retrogym import data as _data
from retrogym.ale_games import GAMES
from retrogym.enums import Actions, Observations, State
from retrogym.env import RetroEnv
from retrogym.vector import RetroVectorEnv

__all__ = ["ACTION_MEANINGS", "AtariEnv", "make_vec", "game_name", "action_set", "reset_sequence", "ale_ids"]

# ALE's 18 joystick actions, in the order of its action ids (ale_py.Action).
ACTION_MEANINGS = ["NOOP", "FIRE", "UP", "RIGHT", "LEFT", "DOWN", "UPRIGHT", "UPLEFT", "DOWNRIGHT", "DOWNLEFT",
                   "UPFIRE", "RIGHTFIRE", "LEFTFIRE", "DOWNFIRE", "UPRIGHTFIRE", "UPLEFTFIRE", "DOWNRIGHTFIRE",
                   "DOWNLEFTFIRE"]

# Our Atari2600 buttons (systems/Atari2600.json): BUTTON, -, SELECT, RESET, UP, DOWN, LEFT, RIGHT.
_BUTTONS = ["BUTTON", None, "SELECT", "RESET", "UP", "DOWN", "LEFT", "RIGHT"]
_BIT = {name: 1 << i for i, name in enumerate(_BUTTONS) if name}
_FILL = {"NOOP": 0, "FIRE": _BIT["BUTTON"], "UP": _BIT["UP"], "RIGHT": _BIT["RIGHT"], "LEFT": _BIT["LEFT"],
         "DOWN": _BIT["DOWN"]}


def _mask(meaning):
    """The button mask of an ALE action name."""
    m = 0
    rest = meaning
    if rest.endswith("FIRE"):
        m |= _BIT["BUTTON"]
        rest = rest[:-4]
    for part in ("UP", "DOWN", "RIGHT", "LEFT"):
        if part in rest:
            m |= _BIT[part]
    return m


MASKS = [_mask(name) for name in ACTION_MEANINGS]

# The data.json variable a vector environment adds for ALE's lives (removed from the infos it returns).
_LIVES_RAW = "_ale_lives_ram"


def ale_ids():
    """``{"Pong": "Pong-Atari2600-v0", ...}``: the ALE game names retrogym makes v5 environments for."""
    return {game.split("-")[0]: game for game in GAMES}


def game_name(game):
    """The integration of a game named as ALE (``Pong``, ``pong``) or as retrogym (``Pong-Atari2600-v0``)."""
    if game in GAMES:
        return game
    for name, facts in GAMES.items():
        if game in (name.split("-")[0], name.rsplit("-v", 1)[0], facts["rom"]):
            return name
    raise ValueError(f"{game!r} is not an Atari game with ALE conventions; known: {sorted(ale_ids())}")


def action_set(game, full_action_space=False):
    """ALE's action ids an environment of the game takes: the minimal set, or all 18."""
    return list(range(18)) if full_action_space else list(GAMES[game_name(game)]["minimal"])


def reset_sequence(game, fire_reset=False):
    """ALE's reset sequence of the game as button masks, one per frame (60 no-op frames, RESET held, the game's
    starting actions); ``fire_reset`` adds one frame of FIRE when the game's minimal set has FIRE."""
    facts = GAMES[game_name(game)]
    shape = facts["reset"]
    seq = [0] * shape["noop"] + [_BIT["RESET"]] * shape["reset"] + [_FILL[shape["fill"]]] * shape["extra"]
    if fire_reset and 1 in facts["minimal"]:
        seq.append(_BIT["BUTTON"])
    return seq


def _gray(rgb, out=None):
    """ALE's grayscale: round(0.299 R + 0.587 G + 0.114 B)."""
    g = np.rint(rgb[..., 0] * 0.299 + rgb[..., 1] * 0.587 + rgb[..., 2] * 0.114)
    if out is None:
        return g.astype(np.uint8)
    out[...] = g
    return out


class _AleView:
    """The part of ale_py.ALEInterface that Gymnasium's AtariPreprocessing uses, over an AtariEnv."""

    def __init__(self, env):
        self._env = env

    def lives(self):
        """ALE's lives() of the current RAM."""
        return self._env._read_lives(self._env._last_info)

    def getScreenRGB(self, out=None):
        img = self._env.get_screen()
        if out is None:
            return img.copy()
        out[...] = img
        return out

    def getScreenGrayscale(self, out=None):
        env = self._env
        env._check_open()
        if tuple(env._c.crop_info(0)) == (0, 0, 0, 0) and (out is None or (
                isinstance(out, np.ndarray) and out.dtype == np.uint8 and out.ndim == 2 and out.flags.c_contiguous
                and out.flags.writeable)):
            return env._c.get_screen_gray(out)  # in C: the same bytes as _gray of the whole screen
        return _gray(env.get_screen(), out)

    def getRAM(self):
        return self._env.get_ram()

    def getMinimalActionSet(self):
        return list(self._env._action_set)

    def game_over(self):
        return self._env._game_over


class AtariEnv(RetroEnv):
    """An Atari 2600 game with ALE v5's interface and defaults (see the module's docstring).

    ``game``: ALE's name (``"Pong"``) or the integration (``"Pong-Atari2600-v0"``); ``obs_type``: ``"rgb"``
    (210x160x3), ``"grayscale"`` (210x160) or ``"ram"`` (128 bytes); ``frameskip``: frames per step (an int);
    ``repeat_action_probability``: sticky actions per frame; ``full_action_space``: the 18 actions instead of the
    game's minimal set; ``max_num_frames_per_episode``: truncated after this many frames (rounded up to steps);
    ``episodic_life``: a lost life ends the episode (``terminated``), and the next reset goes on from there (one
    no-op step) unless the game is over; ``fire_reset``: FIRE for one frame after ALE's reset sequence; ``noop_max``:
    up to this many no-op frames after it. ``mode`` and ``difficulty`` take only None (the game's defaults)."""

    def __init__(self, game, obs_type="rgb", frameskip=4, repeat_action_probability=0.25, full_action_space=False,
                 max_num_frames_per_episode=108000, mode=None, difficulty=None, episodic_life=False,
                 fire_reset=False, noop_max=0, render_mode=None, **options):
        integration = game_name(game)
        if obs_type not in ("rgb", "grayscale", "ram"):
            raise ValueError(f'obs_type must be "rgb", "grayscale" or "ram", not {obs_type!r}')
        if isinstance(frameskip, bool) or not isinstance(frameskip, (int, np.integer)) or frameskip < 1:
            raise ValueError(f"frameskip must be a positive int (a stochastic (low, high) frame skip is not "
                             f"supported), not {frameskip!r}")
        if mode is not None or difficulty is not None:
            raise ValueError("mode and difficulty other than the game's defaults (None) are not supported")
        if max_num_frames_per_episode is not None and (
                isinstance(max_num_frames_per_episode, bool) or max_num_frames_per_episode < 0):
            raise ValueError(f"max_num_frames_per_episode must be a non-negative int or None, not "
                             f"{max_num_frames_per_episode!r}")
        frames = int(max_num_frames_per_episode or 0)
        # grayscale: the env observes RAM (no RGB24 frame per step) and the gray comes from the core's frame in C
        # (Env.get_screen_gray: ALE's formula, the same bytes), unless the scenario crops the screen (then the gray
        # of the cropped RGB observation, in NumPy)
        super().__init__(integration, state=State.NONE, use_restricted_actions=Actions.ALL,
                         obs_type=Observations.IMAGE if obs_type == "rgb" else Observations.RAM,
                         render_mode=render_mode, frameskip=int(frameskip),
                         repeat_action_probability=repeat_action_probability,
                         max_episode_steps=math.ceil(frames / int(frameskip)) if frames else 0, noop_max=noop_max,
                         reset_sequence=reset_sequence(integration, fire_reset), **options)
        EzPickle.__init__(self, game, obs_type, frameskip, repeat_action_probability, full_action_space,
                          max_num_frames_per_episode, mode, difficulty, episodic_life, fire_reset, noop_max,
                          render_mode, **options)
        self.game = integration
        self._obs_kind = obs_type
        self._frameskip = int(frameskip)
        self.repeat_action_probability = float(repeat_action_probability)
        self.full_action_space = bool(full_action_space)
        self.max_num_frames_per_episode = frames
        self.episodic_life = bool(episodic_life)
        self.fire_reset = bool(fire_reset)
        self._action_set = action_set(integration, full_action_space)
        self._arrays = [np.array([(MASKS[a] >> i) & 1 for i in range(len(_BUTTONS))], dtype=np.int64)
                        for a in self._action_set]
        self._lives_var = GAMES[integration]["lives"]
        self._lives_rule = GAMES[integration]["ale_lives"]
        self._lives = 0
        self._last_info = {}
        self._game_over = True
        self._episode_frames = 0
        self._frames = 0
        self.action_space = gym.spaces.Discrete(len(self._action_set))
        self._c_gray = obs_type == "grayscale" and tuple(self._c.crop_info(0)) == (0, 0, 0, 0)
        if obs_type == "grayscale":
            w, h = self._c.emu_info()["resolution"]
            x, y, cw, ch = self._c.crop_info(0)  # stable-retro's crop rules (get_screen)
            bottom, right = h if not ch or y + ch > h else y + ch, w if not cw or x + cw > w else x + cw
            shape = (max(0, bottom - y), max(0, right - x))
            self.observation_space = gym.spaces.Box(0, 255, shape=shape, dtype=np.uint8)
        self.ale = _AleView(self)

    def get_action_meanings(self):
        """ALE's names of the actions, in action-id order (``["NOOP", "FIRE", "RIGHT", ...]`` for Pong)."""
        return [ACTION_MEANINGS[a] for a in self._action_set]

    def _read_lives(self, info):
        """ALE's lives(): its rule over the RAM when one was found (retrogym.ale_games), else the integration's
        lives variable, else 0."""
        rule = self._lives_rule
        if rule is None:
            return int(info.get(self._lives_var, 0)) if self._lives_var else 0
        if "const" in rule:
            return rule["const"]
        v = ((self._c.read_memory(rule["addr"], 1)[0] >> rule["shift"]) & rule["mask"]) + rule["add"]
        return min(v, rule["max"]) if "max" in rule else v

    def _info(self, info):
        self._last_info = info
        self._lives = self._read_lives(info)
        info["lives"] = self._lives
        info["episode_frame_number"] = self._episode_frames
        info["frame_number"] = self._frames
        return info

    def _obs(self, obs):
        if self._obs_kind != "grayscale":
            return obs
        if self._c_gray:  # every reset and step runs frames: the core's frame is the step's observation
            return self._c.get_screen_gray()
        return _gray(self.get_screen())  # a scenario that crops the screen: the gray of the crop, in NumPy

    def reset(self, seed=None, options=None):
        """ALE's reset (its reset sequence, then the no-op frames), unless ``episodic_life`` ended the last episode
        on a lost life with the game still running: then one no-op step goes on from there."""
        if self.episodic_life and not self._game_over and seed is None:
            obs, _, terminated, truncated, info = self.step(0)
            if not (terminated or truncated) or not self._game_over:
                return obs, info
        obs, info = super().reset(seed=seed, options=options)
        self._game_over = False
        self._episode_frames = 0
        return self._obs(obs), self._info(info)

    def step(self, action):
        """One step of an ALE action id (an index into the action set)."""
        a = int(action)
        if not 0 <= a < len(self._arrays):
            raise ValueError(f"action {action!r} is not in [0, {len(self._arrays)})")
        lives = self._lives
        obs, reward, terminated, truncated, info = super().step(self._arrays[a])
        frames = self._frameskip  # (fewer when the episode ended early: ALE counts those, here the step's)
        self._episode_frames += frames
        self._frames += frames
        info = self._info(info)
        self._game_over = bool(terminated or truncated)
        if self.episodic_life and 0 < self._lives < lives:
            terminated = True
        return self._obs(obs), reward, terminated, truncated, info


class AtariVectorEnv(RetroVectorEnv):
    """``retrogym.make_vec`` over an Atari game with ALE's action ids and ALE's ``lives`` in the infos (see
    ``make_vec``)."""

    def __init__(self, game, num_envs, *, full_action_space=False, fire_reset=True, **kwargs):
        integration = game_name(game)
        self._lives_rule = rule = GAMES[integration]["ale_lives"]
        self._lives_var = GAMES[integration]["lives"]
        data_json = None
        if rule and "addr" in rule and "info" not in kwargs:
            data_json = _data.get_file_path(integration, "data.json", kwargs.get("inttype", _data.Integrations.DEFAULT))
        if data_json is None:
            if rule and "addr" in rule:
                self._lives_rule = None  # the caller's own data.json: its variables as they are
            super().__init__(integration, num_envs, state=State.NONE, use_restricted_actions=Actions.ALL,
                             reset_sequence=reset_sequence(integration, fire_reset), **kwargs)
        else:
            # The integration's variables plus the byte ALE's lives come from, read by the workers with the rest;
            # the file is read while the environments are created.
            with open(data_json) as f:
                spec = json.load(f)
            spec.setdefault("info", {})[_LIVES_RAW] = {"address": rule["addr"], "type": "|u1"}
            with tempfile.TemporaryDirectory(prefix="retrogym-ale-") as tmp:
                path = os.path.join(tmp, "data.json")
                with open(path, "w") as f:
                    json.dump(spec, f)
                super().__init__(integration, num_envs, state=State.NONE, use_restricted_actions=Actions.ALL,
                                 reset_sequence=reset_sequence(integration, fire_reset), info=path, **kwargs)
        self._action_set = action_set(integration, full_action_space)
        self._table = np.array([[(MASKS[a] >> i) & 1 for i in range(len(_BUTTONS))] for a in self._action_set],
                               dtype=np.int64)
        self.full_action_space = bool(full_action_space)
        self.single_action_space = gym.spaces.Discrete(len(self._action_set))
        self.action_space = gym.vector.utils.batch_space(self.single_action_space, num_envs)

    def get_action_meanings(self):
        return [ACTION_MEANINGS[a] for a in self._action_set]

    def _buttons(self, actions):
        a = np.asarray(actions)
        # one pass: as unsigned, a negative id is out of range too
        if a.dtype.kind not in "iu" or (a.size and a.astype(np.uint64, copy=False).max() >= len(self._table)):
            raise ValueError(f"actions must be ints in [0, {len(self._table)})")
        return self._table[a]

    def _lives(self, infos, rows):
        """infos["lives"]: ALE's lives of each row (see AtariEnv)."""
        rule = self._lives_rule
        rows = next((len(v) for v in infos.values() if isinstance(v, np.ndarray)), rows)  # masked resets: fewer
        raw = infos.pop(_LIVES_RAW, None)
        infos.pop("_" + _LIVES_RAW, None)
        if rule is not None and "const" in rule:
            lives = np.full(rows, rule["const"], dtype=np.int64)
        elif rule is not None and raw is not None:
            lives = ((np.asarray(raw, dtype=np.int64) >> rule["shift"]) & rule["mask"]) + rule["add"]
            if "max" in rule:
                lives = np.minimum(lives, rule["max"])
        elif self._lives_var and self._lives_var in infos:
            lives = np.asarray(infos[self._lives_var], dtype=np.int64)
        else:
            lives = np.zeros(rows, dtype=np.int64)
        infos["lives"] = lives
        infos["_lives"] = np.ones(rows, dtype=bool)
        return infos

    def reset(self, *, seed=None, options=None):
        obs, infos = super().reset(seed=seed, options=options)
        return obs, self._lives(infos, len(obs))

    def step(self, actions):
        obs, rewards, terminated, truncated, infos = super().step(self._buttons(actions))
        return obs, rewards, terminated, truncated, self._lives(infos, len(obs))

    def send(self, actions, env_ids=None):
        return super().send(self._buttons(actions), env_ids)

    def recv(self):
        obs, rewards, terminated, truncated, infos = super().recv()
        return obs, rewards, terminated, truncated, self._lives(infos, len(obs))


def make_vec(game, num_envs=1, *, num_threads=None, frameskip=4, repeat_action_probability=0.0, noop_max=30,
             fire_reset=True, grayscale=True, resize=(84, 84), frame_stack=4, max_pool=True,
             max_episode_steps=27000, full_action_space=False, reward_clip=1.0, **kwargs):
    """A vector environment of an Atari game with EnvPool's Atari defaults: observations (num_envs, 4, 84, 84)
    (grayscale, area resize, 4-frame stack), frame skip 4 with the max-pool of the last two frames, up to 30 no-op
    frames and one FIRE frame after ALE's reset sequence, truncation after 27,000 steps (108,000 frames), sticky
    actions off, rewards clipped to [-1, 1] (EnvPool's reward_clip=True; None or 0 keeps them), ALE's minimal action
    ids. Other keyword arguments are ``retrogym.make_vec``'s."""
    sticky = kwargs.pop("sticky_prob", repeat_action_probability)
    return AtariVectorEnv(game, num_envs, num_threads=num_threads, frameskip=frameskip, sticky_prob=sticky,
                          noop_max=noop_max, fire_reset=fire_reset, grayscale=grayscale, resize=resize,
                          frame_stack=frame_stack, max_pool=max_pool, max_episode_steps=max_episode_steps,
                          full_action_space=full_action_space, reward_clip=reward_clip or None, **kwargs)
