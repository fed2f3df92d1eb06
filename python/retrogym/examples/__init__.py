"""Examples on our own game StarCatcher-Nes (run them with ``python -m``):

- ``retrogym.examples.random_agent``: a random agent, episode returns and speed.
- ``retrogym.examples.brute``: the Brute (Machado et al. 2018), a search that exploits determinism; the main job of
  ``make demo``: progress bar, return curve, a video of the best episode and a PNG plot of the returns.
- ``retrogym.examples.ppo``: PPO from stable-baselines3 (optional: ``pip install stable-baselines3``).
- ``retrogym.examples.interactive``: play any game yourself in a pygame window (keyboard or gamepad, pause, frame
  advance, save/load state, ``--record DIR`` for .bk2 movies; ``retrogym.play``).

Pictures need Pillow (``pip install pillow``); MP4 videos need the ``ffmpeg`` program (else GIF).
"""
