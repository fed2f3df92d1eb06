"""``env.data``: the game's variables and scenario of one environment (stable-retro's ``GameData`` as bound to an
environment). ``env.data["lives"]`` reads a data.json variable (or a custom variable), ``env.data["lives"] = 3``
writes it into the console's memory (or sets a custom variable, which lives until the next reset)."""

from __future__ import annotations

import collections
import os
from typing import Any, Dict, ItemsView, Iterator, List, Optional, Tuple, Union

from retrogym import _retrogym as _C

__all__ = ["EnvData", "Memory", "Search", "SearchResult", "Searches", "Variables"]

SearchResult = collections.namedtuple("SearchResult", "address type mult div bias")
SearchResult.__doc__ = """One memory search candidate: the bytes at ``address`` decoded with ``type`` give the value as
``decoded / mult * div - bias``."""


class Search:
    """A named memory search of an environment (stable-retro's ``Search``; docs/search.md)."""

    def __init__(self, data: EnvData, name: str) -> None:
        self._data = data
        self.name = name

    def _info(self) -> Dict[str, Any]:
        return _C.search_info(self._data._sset, self.name)

    def search(self, value: int) -> None:
        """Value round: keeps the candidates whose memory represents ``value`` now."""
        self._data.search(self.name, value)

    def delta(self, op: str, ref: int) -> None:
        """Delta round: keeps the candidates where ``op(now - at the last round, ref)`` holds."""
        self._data.delta_search(self.name, op, ref)

    def num_results(self) -> int:
        return self._info()["count"]

    def has_unique_result(self) -> bool:
        return self._info()["unique"]

    def unique_result(self) -> Optional[Dict[str, Any]]:
        """``{"address", "type"}`` of the first candidate when the result is unique, else None."""
        info = self._info()
        if not info["unique"]:
            return None
        first = info["first"]
        return {"address": first[0], "type": first[1]}

    def results(self, limit: Optional[int] = None) -> List[SearchResult]:
        """The candidates as SearchResult tuples (address order), at most ``limit`` of them."""
        n = self.num_results() if limit is None else int(limit)
        return [SearchResult(*r) for r in _C.search_results(self._data._sset, self.name, 0, n)]

    def typed_results(self) -> List[Tuple[Tuple[int, int, int, int], List[str]]]:
        """stable-retro's form: ``[((address, mult, div, bias), [types]), ...]``."""
        out = {}
        for r in self.results():
            out.setdefault((r.address, r.mult, r.div, r.bias), []).append(r.type)
        return list(out.items())

    @property
    def types(self) -> List[str]:
        """The types that still have candidates."""
        return self._info()["types"]

    @property
    def rounds(self) -> int:
        return self._info()["rounds"]

    @property
    def memory_bytes(self) -> int:
        """Bytes the search holds (memory copy, candidate bitmaps or list)."""
        return self._info()["memory"]

    def __repr__(self) -> str:
        return f"<Search {self.name!r}: {self.num_results()} results>"


class Searches:
    """Dict-like view of the named searches: ``data.searches["score"].search(1200)``."""

    def __init__(self, data: EnvData) -> None:
        self._data = data

    def __getitem__(self, name: str) -> Search:
        if name not in self:
            raise KeyError(name)
        return Search(self._data, name)

    def __delitem__(self, name: str) -> None:
        self._data.remove_search(name)

    def __contains__(self, name: object) -> bool:
        return name in _C.search_names(self._data._sset)

    def __iter__(self) -> Iterator[str]:
        return iter(_C.search_names(self._data._sset))

    def __len__(self) -> int:
        return len(_C.search_names(self._data._sset))

    def keys(self) -> List[str]:
        return _C.search_names(self._data._sset)

    def items(self) -> List[Tuple[str, Search]]:
        return [(n, Search(self._data, n)) for n in self.keys()]



class Memory:
    """The console's memory as the game's variables see it."""

    def __init__(self, c_env: _C.Env) -> None:
        self._c = c_env

    @property
    def blocks(self) -> Dict[int, bytes]:
        """{base address: bytes} copies of every memory block."""
        return self._c.memory_blocks()

    def read(self, address: int, length: int) -> bytes:
        """``length`` bytes at ``address``; IndexError where nothing is mapped."""
        return self._c.read_memory(address, length)

    def write(self, address: int, data: Union[bytes, bytearray, memoryview]) -> None:
        self._c.write_memory(address, bytes(data))


class Variables:
    """Dict-like view of the data.json variables: ``{name: {"address", "type"[, "mask"]}}``."""

    def __init__(self, c_env: _C.Env) -> None:
        self._c = c_env

    def __getitem__(self, name: str) -> Dict[str, Any]:
        return self._c.variables()[name]

    def __setitem__(self, name: str, spec: Dict[str, Any]) -> None:
        self._c.set_variable(name, int(spec["address"]), spec["type"], spec.get("mask"))

    def __delitem__(self, name: str) -> None:
        self._c.remove_variable(name)

    def __iter__(self) -> Iterator[str]:
        return iter(self._c.variables())

    def __len__(self) -> int:
        return len(self._c.variables())

    def __contains__(self, name: object) -> bool:
        return name in self._c.variables()

    def items(self) -> ItemsView[str, Dict[str, Any]]:
        return self._c.variables().items()


class EnvData:
    """Variables, scenario and memory of one environment."""

    def __init__(self, c_env: _C.Env) -> None:
        self._c = c_env

    def __getitem__(self, name: str) -> Union[int, float]:
        return self._c.lookup_value(name)

    def __setitem__(self, name: str, value: Union[int, float]) -> None:
        self._c.set_value(name, value)

    def __contains__(self, name: str) -> bool:
        try:
            self._c.lookup_value(name)
        except KeyError:
            return False
        return True

    def lookup_value(self, name: str) -> Union[int, float]:
        """A data.json variable's value, else a custom variable's; KeyError when neither exists."""
        return self._c.lookup_value(name)

    def set_value(self, name: str, value: Union[int, float]) -> None:
        """Writes a data.json variable into memory, or sets a custom variable (until the next reset)."""
        self._c.set_value(name, value)

    def lookup_all(self) -> Dict[str, int]:
        """Every readable variable and custom variable, as ints (the step's ``info``)."""
        return self._c.info()

    def lookup_delta(self, name: str) -> int:
        """The variable's change between the last two updates."""
        return self._c.delta(name)

    def get_variable(self, name: str) -> Dict[str, Any]:
        return self._c.variables()[name]

    def set_variable(self, name: str, spec: Dict[str, Any]) -> None:
        self.vars[name] = spec

    def remove_variable(self, name: str) -> None:
        self._c.remove_variable(name)

    def list_variables(self) -> Dict[str, Dict[str, Any]]:
        return self._c.variables()

    @property
    def vars(self) -> Variables:
        return Variables(self._c)

    @property
    def memory(self) -> Memory:
        return Memory(self._c)

    def current_reward(self, player: int = 0) -> float:
        """Reward of the last emulated frame."""
        return self._c.current_reward(player)

    def total_reward(self, player: int = 0) -> float:
        """Sum of rewards since the last reset."""
        return self._c.total_reward(player)

    def is_done(self) -> bool:
        return self._c.is_done()

    def crop_info(self, player: int = 0) -> Tuple[int, int, int, int]:
        """The scenario's crop (x, y, w, h); 0 means to the edge."""
        return self._c.crop_info(player)

    def valid_actions(self) -> List[List[int]]:
        """The action groups in force: for each group, its combinations as button masks."""
        return self._c.button_combos

    def filter_action(self, mask: int) -> int:
        """The buttons of ``mask`` that FILTERED keeps."""
        return self._c.filter_action(mask)

    def reset(self) -> None:
        """Starts the scenario over: totals, custom variables, Lua scripts (env.reset() does this)."""
        self._c.scenario_reset()

    def update_ram(self) -> None:
        """One scenario update on the current memory: remember variables, done, reward."""
        self._c.update_ram()

    # ---- memory search (docs/search.md) ----

    @property
    def _sset(self) -> Any:
        sset = self.__dict__.get("_search_set")
        if sset is None:
            sset = self.__dict__["_search_set"] = _C.search_set_new()
        return sset

    def search(self, name: str, value: int) -> None:
        """Value search round of the search ``name`` (created on first use) over the console's memory."""
        _C.search_value(self._sset, self._c, name, int(value))

    def delta_search(self, name: str, op: str, ref: int) -> None:
        """Delta search round: ``op`` is a scenario operation name (``equal``, ``negative-equal``, ``not-equal``,
        ``less-than``, ``greater-than``, ``less-or-equal``, ``greater-or-equal``, ``nonzero``, ``zero``,
        ``positive``, ``negative``, ``sign``) applied to (value now - value at the last round, ``ref``)."""
        _C.search_delta(self._sset, self._c, name, op, int(ref))

    def get_search(self, name: str) -> Search:
        """The search ``name``; KeyError when there is none."""
        return self.searches[name]

    def remove_search(self, name: str) -> None:
        _C.search_remove(self._sset, name)

    def list_searches(self) -> Dict[str, Search]:
        """``{name: Search}``."""
        return dict(self.searches.items())

    @property
    def searches(self) -> Searches:
        return Searches(self)

    def save_searches(self, path: Union[str, os.PathLike[str]]) -> None:
        """Writes every search as JSON (ours; docs/search.md) so that it can be resumed."""
        _C.search_save(self._sset, str(path))

    def load_searches(self, path: Union[str, os.PathLike[str]]) -> None:
        """Replaces every search with those of a saved file; on a bad file nothing changes (ValueError)."""
        _C.search_load(self._sset, str(path))
