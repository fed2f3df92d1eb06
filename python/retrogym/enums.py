"""The choices of RetroEnv's constructor, with Gym Retro's names and values."""
from enum import Enum


class State(Enum):
    """Start state. A string names a ``.state`` file of the game (or a path) instead."""

    DEFAULT = -1  #: the game's default state from metadata.json (power-on when it names none)
    NONE = 0  #: power-on: every reset turns the console off and on again


class Actions(Enum):
    """How actions are given (the action space)."""

    ALL = 0  #: MultiBinary(buttons x players), every button as given
    FILTERED = 1  #: MultiBinary, then combinations outside the game's action groups dropped (default)
    DISCRETE = 2  #: Discrete(prod(group sizes) ** players): one integer for all players
    MULTI_DISCRETE = 3  #: MultiDiscrete(group sizes x players): a combination index per group


class Observations(Enum):
    """What an observation is."""

    IMAGE = 0  #: (height, width, 3) uint8 RGB screen, cropped as the scenario says
    RAM = 1  #: (bytes,) uint8, every memory block of the console concatenated
