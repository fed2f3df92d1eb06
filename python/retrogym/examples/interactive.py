"""Play a game with the keyboard (or a gamepad) in a pygame window, optionally recording .bk2 movies:

    python -m retrogym.examples.interactive StarCatcher-Nes
    python -m retrogym.examples.interactive StarCatcher-Nes --record movies/   # then: retrogym playback movies/*.bk2

Arrows: the pad; x, z, s, a, q, w: A, B, X, Y, L, R; Return: START; Tab: SELECT. Escape quits, p pauses, n steps
once while paused, F5 saves the state, F9 loads it, F2 starts a new episode. The scenario's reward of the last step
and of the episode are shown under the picture. Needs pygame (``pip install 'retrogym[human]'``) and a display.
The player itself is ``retrogym.play.Player``.
"""
import sys

from retrogym.play import main

if __name__ == "__main__":
    sys.exit(main())
