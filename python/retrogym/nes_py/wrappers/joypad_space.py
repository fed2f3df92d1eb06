"""JoypadSpace: nes-py's action wrapper from a list of named button combinations to joypad bytes."""
import gymnasium as gym

__all__ = ["JoypadSpace"]


class JoypadSpace(gym.Wrapper):
    """``JoypadSpace(env, [['NOOP'], ['right'], ['right', 'A']])``: action ``i`` of ``Discrete(len(actions))``
    presses the buttons of ``actions[i]`` (one joypad byte, nes-py's bit order). Button names: ``right``, ``left``,
    ``down``, ``up``, ``start``, ``select``, ``B``, ``A`` and ``NOOP`` (nothing)."""

    # nes-py's names and bits: A is bit 0 ... right is bit 7
    _button_map = {
        "right": 1 << 7,
        "left": 1 << 6,
        "down": 1 << 5,
        "up": 1 << 4,
        "start": 1 << 3,
        "select": 1 << 2,
        "B": 1 << 1,
        "A": 1 << 0,
        "NOOP": 0,
    }

    @classmethod
    def buttons(cls):
        """The button names, ``NOOP`` last."""
        return list(cls._button_map)

    def __init__(self, env, actions):
        super().__init__(env)
        if isinstance(actions, (str, bytes)) or not len(actions):
            raise ValueError("actions must be a non-empty list of button-name lists, e.g. [['NOOP'], ['right']]")
        self._action_map = {}
        self._action_meanings = {}
        for index, names in enumerate(actions):
            if isinstance(names, str):
                raise ValueError(f"action {index} must be a list of button names, not the string {names!r}")
            byte = 0
            for name in names:
                if name not in self._button_map:
                    raise ValueError(f"action {index}: unknown button {name!r}; the buttons are {self.buttons()}")
                byte |= self._button_map[name]
            self._action_map[index] = byte
            self._action_meanings[index] = " ".join(names)
        self.action_space = gym.spaces.Discrete(len(self._action_map))

    def step(self, action):
        try:
            byte = self._action_map[action]
        except (KeyError, TypeError):
            raise ValueError(f"action must be an int in [0, {len(self._action_map) - 1}], not {action!r}") from None
        return self.env.step(byte)

    def reset(self, **kwargs):
        return self.env.reset(**kwargs)

    def get_keys_to_action(self):
        """Keyboard keys to this wrapper's actions (those of the environment's map that are one of ours)."""
        ours = {byte: action for action, byte in self._action_map.items()}
        out = {}
        for keys, byte in self.env.unwrapped.get_keys_to_action().items():
            if byte in ours:
                out[keys] = ours[byte]
        return out

    def get_action_meanings(self):
        """The name of each action: its buttons joined by spaces (``'right A'``)."""
        return [self._action_meanings[i] for i in range(len(self._action_meanings))]
