"""Playing as a human: the keyboard mapped onto a system's buttons (``RetroEnv.get_keys_to_action`` for
``gymnasium.utils.play.play``), and a pygame player with pause, frame advance, save/load state hotkeys, the reward on
screen and optional ``.bk2`` recording (``python -m retrogym.examples.interactive GAME``; pygame is the optional extra
``pip install 'retrogym[human]'``).

Keys (player 1): the arrows for the pad; x, z, s, a, q, w, c, d for A, B, X, Y, L, R, C, Z (the PC Engine's I, II,
III, IV, V, VI on x, z, a, s, q, w); Return for START/RUN/PAUSE, Tab for SELECT/MODE, Backspace for the Atari 2600's
RESET switch, x for its BUTTON. Hotkeys of the player: Escape quits, p pauses, n (or the period) runs one step while
paused, F5 saves the state into memory, F9 loads it, F2 resets (a new episode).
"""
import argparse
import itertools
import os
import sys

import numpy as np

__all__ = ["BUTTON_KEYS", "button_keys", "keys_to_action", "Player", "main"]

# A system button's name -> the pygame key constant's name that presses it.
BUTTON_KEYS = {
    "UP": "K_UP", "DOWN": "K_DOWN", "LEFT": "K_LEFT", "RIGHT": "K_RIGHT",
    "A": "K_x", "B": "K_z", "X": "K_s", "Y": "K_a", "L": "K_q", "R": "K_w", "C": "K_c", "Z": "K_d",
    "I": "K_x", "II": "K_z", "III": "K_a", "IV": "K_s", "V": "K_q", "VI": "K_w",
    "BUTTON": "K_x", "START": "K_RETURN", "RUN": "K_RETURN", "PAUSE": "K_RETURN",
    "SELECT": "K_TAB", "MODE": "K_TAB", "RESET": "K_BACKSPACE",
}

# Hotkeys of the player (pygame constant names); none of them presses a button.
HOTKEYS = {"quit": "K_ESCAPE", "pause": "K_p", "advance": ("K_n", "K_PERIOD"), "save": "K_F5", "load": "K_F9",
           "reset": "K_F2"}


def _pygame():
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        import pygame
    except ImportError:
        from gymnasium.error import DependencyNotInstalled

        raise DependencyNotInstalled("playing needs pygame: pip install 'retrogym[human]'") from None
    return pygame


def button_keys(buttons):
    """{button index: pygame key code} for a system's button list (``env.buttons``; None entries are unused)."""
    pygame = _pygame()
    return {i: getattr(pygame, BUTTON_KEYS[name]) for i, name in enumerate(buttons)
            if name is not None and name in BUTTON_KEYS}


def keys_to_action(env):
    """Gymnasium's keys-to-action mapping for player 1 of a RetroEnv: {sorted tuple of pygame key codes: action}.

    DISCRETE and MULTI_DISCRETE: every action of the action groups, keyed by the keys of the buttons it presses (the
    first action for a set of keys wins; the no-button action is play()'s ``noop``, 0). ALL and FILTERED: every
    non-empty set of the mapped buttons, as a MultiBinary array (players > 1: the other players' buttons 0)."""
    from retrogym.enums import Actions

    keys = button_keys(env.buttons)
    mode = env.use_restricted_actions
    out = {}
    if mode in (Actions.DISCRETE, Actions.MULTI_DISCRETE):
        groups = [g for g in env.button_combos if len(g)]
        sizes = [len(g) for g in env.button_combos]
        for choice in itertools.product(*[range(len(g)) for g in groups]):
            mask = 0
            for g, c in zip(groups, choice):
                mask |= g[c]
            combo = tuple(sorted({keys[i] for i in range(env.num_buttons) if mask >> i & 1 and i in keys}))
            if not combo or combo in out:
                continue
            if mode is Actions.DISCRETE:
                action = _discrete_index(env, mask)
                if action is None:
                    continue
            else:
                action, k = np.zeros(len(sizes) * env.players, dtype=np.int64), 0
                for j, g in enumerate(env.button_combos):
                    if len(g):
                        action[j] = choice[k]
                        k += 1
            out[combo] = action
        return out
    indices = sorted(keys)
    width = env.num_buttons * env.players
    for r in range(1, len(indices) + 1):
        for subset in itertools.combinations(indices, r):
            combo = tuple(sorted({keys[i] for i in subset}))
            if combo in out:
                continue  # two buttons on one key (none today)
            action = np.zeros(width, dtype=np.int8)
            action[list(subset)] = 1
            out[combo] = action
    return out


def _discrete_index(env, mask):
    """The DISCRETE action of player 1 that presses exactly ``mask`` (searched through the env's own decoding)."""
    cache = getattr(env, "_play_discrete", None)
    if cache is None:
        cache = {}
        for a in range(min(env.action_space.n, 1 << 16)):
            cache.setdefault(env.decode_action(a)[0], a)
        env._play_discrete = cache
    return cache.get(mask)


class Player:
    """A game in a pygame window under the keyboard (and the first gamepad, if any). One ``tick()`` handles the
    queued events and, unless paused, steps the environment once with the buttons held. The scenario's reward of
    the last step and of the episode are drawn under the picture.

    ``env``: a RetroEnv with ``Actions.ALL`` or ``FILTERED`` (MultiBinary) actions and image observations."""

    def __init__(self, env, scale=2, fps=None):
        from retrogym.enums import Actions
        from retrogym.rendering import check_display

        if env.use_restricted_actions not in (Actions.ALL, Actions.FILTERED):
            raise ValueError("Player needs MultiBinary actions (use_restricted_actions=Actions.ALL or FILTERED)")
        check_display()
        self.pg = pygame = _pygame()
        pygame.display.init()
        pygame.font.init()
        self.env = env
        self.scale = max(1, int(scale))
        self.fps = fps if fps is not None else env.metadata.get("render_fps", 60)
        self.keys = button_keys(env.buttons)  # button index -> key
        self.hot = {name: tuple(getattr(pygame, k) for k in ((v,) if isinstance(v, str) else v))
                    for name, v in HOTKEYS.items()}
        self.held = set()
        self.pad = set()  # button indices held on the gamepad
        self.running = True
        self.paused = False
        self.advance = 0
        self.saved = None
        self.message = ""
        self.steps = 0
        self.episodes = 0
        self.reward = 0.0
        self.total = 0.0
        self.obs, _ = env.reset()
        h, w = self.obs.shape[:2]
        self.hud = 22
        self.screen = pygame.display.set_mode((w * self.scale, h * self.scale + self.hud))
        pygame.display.set_caption(f"retrogym: {env.gamename}")
        self.font = pygame.font.Font(None, 20)
        self.clock = pygame.time.Clock()
        self.joystick = None
        pygame.joystick.init()
        if pygame.joystick.get_count():
            self.joystick = pygame.joystick.Joystick(0)
        self.draw()

    # ---- input ----

    def action(self):
        """The MultiBinary action of the buttons held now (keyboard and gamepad), player 1."""
        a = np.zeros(self.env.num_buttons * self.env.players, dtype=np.int8)
        for i, key in self.keys.items():
            if key in self.held or i in self.pad:
                a[i] = 1
        return a

    def _pad_buttons(self, event):
        """Gamepad: the hat as the pad; buttons 0..3 as A, B, X, Y (or the system's first face buttons), 6/7 as
        SELECT/START."""
        names = {0: ("A", "I", "BUTTON"), 1: ("B", "II"), 2: ("X", "III"), 3: ("Y", "IV"), 4: ("L", "V"),
                 5: ("R", "VI"), 6: ("SELECT", "MODE"), 7: ("START", "RUN", "PAUSE")}
        for name in names.get(event.button, ()):
            if name in self.env.buttons:
                return self.env.buttons.index(name)
        return None

    def handle(self, event):
        pygame = self.pg
        if event.type == pygame.QUIT:
            self.running = False
        elif event.type == pygame.KEYDOWN:
            key = event.key
            if key in self.hot["quit"]:
                self.running = False
            elif key in self.hot["pause"]:
                self.paused = not self.paused
                self.message = "paused (n: one step)" if self.paused else ""
            elif key in self.hot["advance"]:
                if self.paused:
                    self.advance += 1
            elif key in self.hot["save"]:
                self.saved = self.env.clone_state()
                self.message = "state saved"
            elif key in self.hot["load"]:
                self._load()
            elif key in self.hot["reset"]:
                self._new_episode()
            else:
                self.held.add(key)
        elif event.type == pygame.KEYUP:
            self.held.discard(event.key)
        elif event.type in (pygame.JOYBUTTONDOWN, pygame.JOYBUTTONUP):
            i = self._pad_buttons(event)
            if i is not None:
                (self.pad.add if event.type == pygame.JOYBUTTONDOWN else self.pad.discard)(i)
        elif event.type == pygame.JOYHATMOTION:
            x, y = event.value
            for name, on in (("LEFT", x < 0), ("RIGHT", x > 0), ("UP", y > 0), ("DOWN", y < 0)):
                if name in self.env.buttons:
                    i = self.env.buttons.index(name)
                    (self.pad.add if on else self.pad.discard)(i)

    def _load(self):
        if self.saved is None:
            self.message = "no saved state (F5 saves)"
        elif self.env.movie is not None or self.env.movie_path is not None:
            # a movie holds the buttons from its reset: a loaded state in the middle could not be played back
            self.message = "loading a state is off while recording"
        else:
            self.env.restore_state(self.saved)
            self.obs = self.env.get_screen()
            self.message = "state loaded"

    def _new_episode(self):
        self.obs, _ = self.env.reset()
        self.episodes += 1
        self.total = self.reward = 0.0

    # ---- loop ----

    def tick(self):
        """Handles the queued events, then steps once unless paused (or paused with a step asked for). Returns
        whether the player is still running."""
        for event in self.pg.event.get():
            self.handle(event)
        if not self.running:
            return False
        if not self.paused or self.advance:
            if self.advance:
                self.advance -= 1
            self.obs, reward, terminated, truncated, _ = self.env.step(self.action())
            self.steps += 1
            self.reward = float(reward)
            self.total += self.reward
            if terminated or truncated:
                self.message = f"episode over: {self.total:g}"
                self._new_episode()
        self.draw()
        if self.fps:
            self.clock.tick(self.fps)
        return True

    def draw(self):
        pygame = self.pg
        img = np.ascontiguousarray(np.asarray(self.obs, dtype=np.uint8).swapaxes(0, 1))
        surface = pygame.surfarray.make_surface(img)
        if self.scale != 1:
            surface = pygame.transform.scale(surface, (surface.get_width() * self.scale,
                                                       surface.get_height() * self.scale))
        self.screen.fill((0, 0, 0))
        self.screen.blit(surface, (0, 0))
        text = f"reward {self.reward:g}  total {self.total:g}  step {self.steps}"
        if self.message:
            text += f"  | {self.message}"
        self.screen.blit(self.font.render(text, True, (255, 255, 255)), (4, surface.get_height() + 3))
        pygame.display.flip()

    def run(self, max_steps=None):
        """Plays until the window closes, Escape, or ``max_steps`` steps."""
        while self.tick():
            if max_steps is not None and self.steps >= max_steps:
                break
        return self.total

    def close(self):
        self.pg.display.quit()


def main(argv=None):
    """``python -m retrogym.examples.interactive GAME [--state S] [--scenario S] [--record DIR] [--scale N]``."""
    import retrogym

    p = argparse.ArgumentParser(prog="python -m retrogym.examples.interactive",
                                description="Play a game with the keyboard (or a gamepad). " + __doc__.split("\n\n")[1])
    p.add_argument("game", help="a game name (e.g. StarCatcher-Nes) or a ROM file")
    p.add_argument("--state", default=None, help="start state (default: the game's; 'none' for power-on)")
    p.add_argument("--scenario", default=None)
    p.add_argument("--players", type=int, default=1)
    p.add_argument("--record", metavar="DIR", default=None,
                   help="record every episode as a .bk2 movie into DIR (check it with `retrogym playback`)")
    p.add_argument("--scale", type=int, default=2)
    p.add_argument("--fps", type=float, default=None, help="steps per second (default: the game's)")
    p.add_argument("--max-steps", type=int, default=None, help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    state = retrogym.State.DEFAULT if a.state is None else (retrogym.State.NONE if a.state == "none" else a.state)
    if a.record is not None:
        os.makedirs(a.record, exist_ok=True)
    env = retrogym.make(a.game, state=state, scenario=a.scenario, players=a.players,
                        use_restricted_actions=retrogym.Actions.FILTERED, record=a.record or False)
    player = None
    try:
        player = Player(env, scale=a.scale, fps=a.fps)
        total = player.run(max_steps=a.max_steps)
        print(f"{player.steps} steps, {player.episodes} episodes ended, last episode's reward {total:g}")
    finally:
        env.close()  # writes the movie being recorded
        if player is not None:
            player.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
