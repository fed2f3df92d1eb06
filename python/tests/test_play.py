"""Playing as a human, headless (SDL's dummy video driver) with synthetic key events posted to pygame's queue:
get_keys_to_action for gymnasium.utils.play.play, and retrogym.play.Player (pause, frame advance, save/load state,
the reward, .bk2 recording that plays back)."""
import glob
import importlib.util
import os
import subprocess

import numpy as np
import pytest

import retrogym
from conftest import GAME, SOURCE

pytestmark = [pytest.mark.starcatcher,
              pytest.mark.skipif(importlib.util.find_spec("pygame") is None, reason="pygame is not installed")]

DISCRETE = retrogym.Actions.DISCRETE
CLI = os.path.join(SOURCE, "build", "cli", "retrogym")


@pytest.fixture(autouse=True)
def headless(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    import pygame

    yield pygame
    pygame.quit()


def key_buttons(pygame, keys, buttons):
    """The set of button names that a tuple of key codes presses (BUTTON_KEYS read backwards)."""
    from retrogym.play import BUTTON_KEYS

    names = {getattr(pygame, BUTTON_KEYS[b]): b for b in buttons if b}
    return {names[k] for k in keys}


def post(pygame, kind, key):
    pygame.event.post(pygame.event.Event(kind, key=key, mod=0, unicode="", scancode=0))


def test_keys_to_action_discrete_and_multibinary(headless):
    pygame = headless
    for mode in (DISCRETE, retrogym.Actions.FILTERED, retrogym.Actions.MULTI_DISCRETE):
        with retrogym.make(GAME, use_restricted_actions=mode) as env:
            mapping = env.get_keys_to_action()
            assert mapping and all(keys == tuple(sorted(keys)) for keys in mapping)
            for keys, action in mapping.items():
                assert action in env.action_space
                pressed = {b for i, b in enumerate(env.buttons) if env.decode_action(action)[0] >> i & 1}
                if mode is retrogym.Actions.FILTERED:  # FILTERED drops combinations outside the action groups
                    assert pressed <= key_buttons(pygame, keys, env.buttons)
                else:
                    assert pressed == key_buttons(pygame, keys, env.buttons), keys
            named = [b for b in env.buttons if b]
            if mode is retrogym.Actions.FILTERED:  # every non-empty set of the 8 buttons
                assert len(mapping) == 2 ** len(named) - 1
            else:  # every combination of the groups (UP/DOWN x LEFT/RIGHT x B/A/both) but the no-button one
                assert len(mapping) == 3 * 3 * 4 - 1
    right = (pygame.K_RIGHT,)
    with retrogym.make(GAME, use_restricted_actions=DISCRETE) as env:
        assert env.get_action_meaning(env.get_keys_to_action()[right]) == ["RIGHT"]


def test_gymnasium_play_with_synthetic_keys(headless):
    from gymnasium.utils.play import play

    pygame = headless
    env = retrogym.make(GAME, use_restricted_actions=DISCRETE, render_mode="rgb_array")
    mapping = env.get_keys_to_action()
    right, left = mapping[(pygame.K_RIGHT,)], mapping[(pygame.K_LEFT,)]
    log = []

    def callback(prev_obs, obs, action, rew, terminated, truncated, info):
        log.append((int(action), info["player_x"]))
        n = len(log)
        if n == 1:
            post(pygame, pygame.KEYDOWN, pygame.K_RIGHT)
        elif n == 40:
            post(pygame, pygame.KEYUP, pygame.K_RIGHT)
            post(pygame, pygame.KEYDOWN, pygame.K_LEFT)
        elif n == 80:
            pygame.event.post(pygame.event.Event(pygame.QUIT))

    try:
        play(env, fps=1000, seed=0, callback=callback)
        actions = [a for a, _ in log]
        assert actions[0] == 0 and set(actions) == {0, right, left}
        assert actions[1:40] == [right] * 39 and actions[40:80] == [left] * 40
        xs = [x for _, x in log]
        assert xs[39] > xs[0] and xs[79] < xs[39]  # the ship went right, then left
        # the same actions replayed without play() give the same game
        with retrogym.make(GAME, use_restricted_actions=DISCRETE) as ref:
            ref.reset(seed=0)
            for a, x in log:
                assert ref.step(a)[4]["player_x"] == x
    finally:
        env.close()


def test_player_pause_advance_save_load(headless):
    from retrogym.play import Player

    pygame = headless
    env = retrogym.make(GAME)
    player = Player(env, scale=1, fps=0)
    try:
        post(pygame, pygame.KEYDOWN, pygame.K_RIGHT)
        for _ in range(20):
            assert player.tick()
        assert player.steps == 20 and list(player.action()) == [1 if b == "RIGHT" else 0 for b in env.buttons]
        post(pygame, pygame.KEYDOWN, pygame.K_p)  # pause: no step
        player.tick()
        player.tick()
        assert player.paused and player.steps == 20 and env.episode_steps == 20
        post(pygame, pygame.KEYDOWN, pygame.K_n)  # one step
        player.tick()
        player.tick()
        assert player.steps == 21 and env.episode_steps == 21
        post(pygame, pygame.KEYDOWN, pygame.K_F5)  # save
        player.tick()
        saved_ram, saved_steps = env.get_ram(), env.episode_steps
        post(pygame, pygame.KEYDOWN, pygame.K_p)  # go on
        for _ in range(15):
            player.tick()
        assert env.episode_steps == saved_steps + 15 and not np.array_equal(env.get_ram(), saved_ram)
        post(pygame, pygame.KEYDOWN, pygame.K_p)
        post(pygame, pygame.KEYDOWN, pygame.K_F9)  # load while paused: back to the saved moment
        player.tick()
        assert player.message == "state loaded" and player.paused
        assert env.episode_steps == saved_steps and np.array_equal(env.get_ram(), saved_ram)
        post(pygame, pygame.KEYUP, pygame.K_RIGHT)
        post(pygame, pygame.KEYDOWN, pygame.K_ESCAPE)
        assert not player.tick()
    finally:
        player.close()
        env.close()


def test_player_records_movies_that_play_back(headless, tmp_path):
    from retrogym.play import Player

    pygame = headless
    env = retrogym.make(GAME, record=str(tmp_path), max_episode_steps=30)
    player = Player(env, scale=1, fps=0)
    rewards = []
    try:
        post(pygame, pygame.KEYDOWN, pygame.K_LEFT)
        post(pygame, pygame.KEYDOWN, pygame.K_x)
        for _ in range(45):  # one whole episode of 30 steps, then 15 of the next
            player.tick()
            rewards.append(player.reward)
        assert player.episodes == 1 and player.steps == 45
        post(pygame, pygame.KEYDOWN, pygame.K_F5)
        post(pygame, pygame.KEYDOWN, pygame.K_F9)
        player.tick()
        assert player.message == "loading a state is off while recording" and env.episode_steps == 16
    finally:
        player.close()
        env.close()  # writes the second movie
    movies = sorted(glob.glob(str(tmp_path / "*.bk2")))
    assert [os.path.basename(m) for m in movies] == ["StarCatcher-Nes-Start-000000.bk2",
                                                     "StarCatcher-Nes-Start-000001.bk2"]
    frames = list(retrogym.playback_movie(movies[0]))  # verifies the recorded rewards and done
    assert len(frames) == 30
    assert all(movie_step[1] == reward for movie_step, reward in zip(frames, rewards[:30]))
    if os.access(CLI, os.X_OK):
        for movie in movies:
            out = subprocess.run([CLI, "playback", movie], capture_output=True, text=True, timeout=120)
            assert out.returncode == 0, out.stderr


def test_interactive_example_main(headless, tmp_path, capsys):
    from retrogym.examples import interactive  # noqa: F401  (the module python -m runs)
    from retrogym.play import main

    assert main([GAME, "--record", str(tmp_path / "movies"), "--max-steps", "12", "--fps", "0", "--scale", "1"]) == 0
    assert "12 steps" in capsys.readouterr().out
    movies = glob.glob(str(tmp_path / "movies" / "*.bk2"))
    assert len(movies) == 1 and len(list(retrogym.playback_movie(movies[0]))) == 12
    with pytest.raises(SystemExit):
        main([])  # the game is required


def test_player_refuses_discrete(headless):
    from retrogym.play import Player

    with retrogym.make(GAME, use_restricted_actions=DISCRETE) as env:
        with pytest.raises(ValueError, match="MultiBinary"):
            Player(env)


def test_player_gamepad_events(headless):
    from retrogym.play import Player

    pygame = headless
    with retrogym.make(GAME) as env:
        player = Player(env, scale=1, fps=0)
        try:
            pygame.event.post(pygame.event.Event(pygame.JOYHATMOTION, joy=0, instance_id=0, hat=0, value=(1, 1)))
            pygame.event.post(pygame.event.Event(pygame.JOYBUTTONDOWN, joy=0, instance_id=0, button=0))
            player.tick()
            held = {b for b, v in zip(env.buttons, player.action()) if v}
            assert held == {"RIGHT", "UP", "A"}
            pygame.event.post(pygame.event.Event(pygame.JOYHATMOTION, joy=0, instance_id=0, hat=0, value=(0, 0)))
            pygame.event.post(pygame.event.Event(pygame.JOYBUTTONUP, joy=0, instance_id=0, button=0))
            pygame.event.post(pygame.event.Event(pygame.JOYBUTTONDOWN, joy=0, instance_id=0, button=7))
            player.tick()
            assert {b for b, v in zip(env.buttons, player.action()) if v} == {"START"}
        finally:
            player.close()
