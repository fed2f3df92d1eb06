"""``env.data``: the game's variables and scenario of one environment (stable-retro's ``GameData`` as bound to an
environment). ``env.data["lives"]`` reads a data.json variable (or a custom variable), ``env.data["lives"] = 3``
writes it into the console's memory (or sets a custom variable, which lives until the next reset)."""

__all__ = ["EnvData", "Memory", "Variables"]


class Memory:
    """The console's memory as the game's variables see it."""

    def __init__(self, c_env):
        self._c = c_env

    @property
    def blocks(self):
        """{base address: bytes} copies of every memory block."""
        return self._c.memory_blocks()

    def read(self, address, length):
        """``length`` bytes at ``address``; IndexError where nothing is mapped."""
        return self._c.read_memory(address, length)

    def write(self, address, data):
        self._c.write_memory(address, bytes(data))


class Variables:
    """Dict-like view of the data.json variables: ``{name: {"address", "type"[, "mask"]}}``."""

    def __init__(self, c_env):
        self._c = c_env

    def __getitem__(self, name):
        return self._c.variables()[name]

    def __setitem__(self, name, spec):
        self._c.set_variable(name, int(spec["address"]), spec["type"], spec.get("mask"))

    def __delitem__(self, name):
        self._c.remove_variable(name)

    def __iter__(self):
        return iter(self._c.variables())

    def __len__(self):
        return len(self._c.variables())

    def __contains__(self, name):
        return name in self._c.variables()

    def items(self):
        return self._c.variables().items()


class EnvData:
    """Variables, scenario and memory of one environment."""

    def __init__(self, c_env):
        self._c = c_env

    def __getitem__(self, name):
        return self._c.lookup_value(name)

    def __setitem__(self, name, value):
        self._c.set_value(name, value)

    def __contains__(self, name):
        try:
            self._c.lookup_value(name)
        except KeyError:
            return False
        return True

    def lookup_value(self, name):
        """A data.json variable's value, else a custom variable's; KeyError when neither exists."""
        return self._c.lookup_value(name)

    def set_value(self, name, value):
        """Writes a data.json variable into memory, or sets a custom variable (until the next reset)."""
        self._c.set_value(name, value)

    def lookup_all(self):
        """Every readable variable and custom variable, as ints (the step's ``info``)."""
        return self._c.info()

    def lookup_delta(self, name):
        """The variable's change between the last two updates."""
        return self._c.delta(name)

    def get_variable(self, name):
        return self._c.variables()[name]

    def set_variable(self, name, spec):
        self.vars[name] = spec

    def remove_variable(self, name):
        self._c.remove_variable(name)

    def list_variables(self):
        return self._c.variables()

    @property
    def vars(self):
        return Variables(self._c)

    @property
    def memory(self):
        return Memory(self._c)

    def current_reward(self, player=0):
        """Reward of the last emulated frame."""
        return self._c.current_reward(player)

    def total_reward(self, player=0):
        """Sum of rewards since the last reset."""
        return self._c.total_reward(player)

    def is_done(self):
        return self._c.is_done()

    def crop_info(self, player=0):
        """The scenario's crop (x, y, w, h); 0 means to the edge."""
        return self._c.crop_info(player)

    def valid_actions(self):
        """The action groups in force: for each group, its combinations as button masks."""
        return self._c.button_combos

    def filter_action(self, mask):
        """The buttons of ``mask`` that FILTERED keeps."""
        return self._c.filter_action(mask)

    def reset(self):
        """Starts the scenario over: totals, custom variables, Lua scripts (env.reset() does this)."""
        self._c.scenario_reset()

    def update_ram(self):
        """One scenario update on the current memory: remember variables, done, reward."""
        self._c.update_ram()
