"""Integration data: where games are found, listing, and the system table (stable-retro's ``retro.data``).

Games are found in data roots, searched in this order (docs/integrations.md, "Data roots"): the folder given to
:func:`set_path` alone when one is given; otherwise each folder of ``$RETROGYM_DATA_PATH`` (':'-separated), the
user's writable root (``$XDG_DATA_HOME/retrogym``, else ``~/.local/share/retrogym``; ``python -m retrogym.import``
writes there), the package's own ``retrogym/data`` (our integrations) and an installed stable-retro's data folder.
stable-retro is found with the import machinery without importing it, and its folder is passed to the C library (and
to child processes) in ``$RETROGYM_STABLE_RETRO``, from which its cores are searched too; set that variable empty
to leave stable-retro out. Custom integration folders and the default integrations are kept here, per process, as
in stable-retro; every call passes them to the C library explicitly.
"""
from __future__ import annotations

import enum
import importlib.util
import json
import os
import subprocess
import sys
import threading
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from retrogym import _retrogym as _C

__all__ = [
    "Integrations",
    "DefaultIntegrations",
    "path",
    "set_path",
    "add_custom_path",
    "clear_custom_paths",
    "add_custom_integration",
    "add_integrations",
    "get_file_path",
    "get_romfile_path",
    "list_games",
    "list_states",
    "list_scenarios",
    "get_system_info",
    "get_romfile_system",
    "get_game_system",
    "list_cores",
    "import_roms",
    "roots",
    "user_root",
    "game_folder",
    "find_stable_retro",
    "library",
    "library_summary",
    "core_install_hint",
    "EMU_INFO",
    "EMU_EXTENSIONS",
]

PACKAGE_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
STABLE_RETRO_ENV = "RETROGYM_STABLE_RETRO"
# rg_integration_origin values (include/retrogym/integration.h)
_ORIGIN_ENV, _ORIGIN_USER, _ORIGIN_OWN, _ORIGIN_STABLE_RETRO = 1, 2, 3, 4


def find_stable_retro() -> Optional[str]:
    """The folder of an installed stable-retro (or stable-retro-turbo) package, holding ``data/`` and ``cores/``,
    or None. Found with ``importlib.util.find_spec`` (the package is not imported), else from the installed
    distribution's files."""
    try:
        spec = importlib.util.find_spec("stable_retro")
    except (ImportError, ValueError):
        spec = None
    if spec is not None and spec.submodule_search_locations:
        for folder in spec.submodule_search_locations:
            if os.path.isdir(os.path.join(folder, "data")) or os.path.isdir(os.path.join(folder, "cores")):
                return folder
    try:
        import importlib.metadata as metadata
    except ImportError:  # Python < 3.8
        return None
    for dist in ("stable-retro", "stable-retro-turbo"):
        try:
            init = metadata.distribution(dist).locate_file("stable_retro/__init__.py")
        except metadata.PackageNotFoundError:
            continue
        folder = os.path.dirname(str(init))
        if os.path.isdir(folder):
            return folder
    return None


def stable_retro_folder() -> Optional[str]:
    """The stable-retro folder in use (``$RETROGYM_STABLE_RETRO``), or None."""
    return os.environ.get(STABLE_RETRO_ENV) or None


def _discover():
    """Sets ``$RETROGYM_STABLE_RETRO`` from the Python installation unless it is set (even empty)."""
    if STABLE_RETRO_ENV not in os.environ:
        os.environ[STABLE_RETRO_ENV] = find_stable_retro() or ""


_discover()

_lock = threading.Lock()
_root: Optional[str] = None  # set_path()
_custom: List[str] = []  # custom integration folders, in insertion order
_default = 1  # Integrations.STABLE


class Integrations(enum.IntFlag):
    """Which integration folders are searched (Gym Retro's flags and values). ``DEFAULT`` is the process default,
    initially ``STABLE``; see :func:`add_integrations` and :class:`DefaultIntegrations`."""

    DEFAULT = 0
    STABLE = 1
    EXPERIMENTAL_ONLY = 2
    CONTRIB_ONLY = 4
    CUSTOM_ONLY = 8
    EXPERIMENTAL = 3
    CONTRIB = 5
    CUSTOM = 9
    ALL = 15

    @property
    def paths(self) -> List[str]:
        """The folders searched, in priority order: contrib, experimental, custom paths, stable."""
        root, custom = _snapshot()
        return _C.data_dirs(root, custom, resolve(self))

    @classmethod
    def add_custom_path(cls, folder: Union[str, os.PathLike[str]]) -> None:
        add_custom_path(folder)

    @classmethod
    def clear_custom_paths(cls) -> None:
        clear_custom_paths()

    def __str__(self) -> str:
        value = int(self)
        if value == 0:
            return "default"
        if value == 15:
            return "all"
        names = [n for n, bit in (("stable", 1), ("experimental", 2), ("contrib", 4), ("custom", 8)) if value & bit]
        return "|".join(names)


class DefaultIntegrations:
    """The process-wide default integrations (what ``Integrations.DEFAULT`` means)."""

    @classmethod
    def get(cls) -> Integrations:
        return Integrations(_default)

    @classmethod
    def add(cls, extra: Union[Integrations, int]) -> None:
        add_integrations(extra)

    @classmethod
    def reset(cls) -> None:
        """Back to STABLE; custom paths remain."""
        global _default
        with _lock:
            _default = 1


def resolve(inttype: Union[Integrations, int, None]) -> int:
    """An Integrations value (or int) as the flags to search; DEFAULT becomes the process default."""
    if inttype is None:
        inttype = 0
    value = int(inttype)
    if value < 0 or value > 15:
        raise ValueError(f"integration flags {value} are not in 0..15")
    return value or _default


def default_roots() -> Tuple[Tuple[str, int], ...]:
    """The default data roots as ``(path, origin)`` pairs, in priority order (origin values of the C library)."""
    roots = []
    for folder in (os.environ.get(_C.DATA_PATH_ENV) or "").split(":"):
        if folder:
            roots.append((folder, _ORIGIN_ENV))
    try:
        roots.append((_C.user_root(), _ORIGIN_USER))
    except FileNotFoundError:
        pass
    if os.path.isdir(PACKAGE_DATA):
        roots.append((PACKAGE_DATA, _ORIGIN_OWN))
    sr = stable_retro_folder()
    if sr and os.path.isdir(os.path.join(sr, "data")):
        roots.append((os.path.join(sr, "data"), _ORIGIN_STABLE_RETRO))
    return tuple(roots)


def _snapshot():
    with _lock:
        root = _root
        custom = tuple(_custom)
    if root is None:
        root = default_roots()
        if not any(origin == _ORIGIN_OWN for _, origin in root):
            root = None  # the C library's default (with the source tree's data)
    return root, custom


def path() -> str:
    """The data root in use: the first of :func:`roots`."""
    return _C.data_root(_snapshot()[0])


def roots() -> List[Tuple[str, str]]:
    """The data roots searched, in priority order, as ``(path, origin)`` pairs; origin is "given" (set_path),
    "env var", "user", "own" or "stable-retro"."""
    return _C.data_roots(_snapshot()[0])


def user_root() -> str:
    """The user's writable data root (``$XDG_DATA_HOME/retrogym`` or ``~/.local/share/retrogym``)."""
    return _C.user_root()


def game_folder(game: str, inttype: Union[Integrations, int] = Integrations.DEFAULT) -> str:
    """The name of a game's folder: ``game`` itself, or its other form (``Airstriker-Genesis`` ->
    ``Airstriker-Genesis-v0`` as stable-retro 1.x names it, and back). FileNotFoundError names the roots searched."""
    root, custom = _snapshot()
    return _C.game_folder(root, custom, game, resolve(inttype))


def set_path(root: Union[str, os.PathLike[str], None] = None) -> None:
    """Uses this data root alone (None: back to the default roots, see :func:`roots`)."""
    global _root
    if root is not None:
        root = os.fspath(root)
        if not os.path.isdir(root):
            raise FileNotFoundError(f"data root {root} is not a folder")
    with _lock:
        _root = root


def add_custom_path(folder: Union[str, os.PathLike[str]]) -> None:
    """Appends a custom integration folder (absolute, or relative to the data root)."""
    folder = os.fspath(folder)
    with _lock:
        _custom.append(folder)


def clear_custom_paths() -> None:
    with _lock:
        _custom.clear()


def add_custom_integration(folder: Union[str, os.PathLike[str]]) -> None:
    """Adds a custom folder and includes CUSTOM_ONLY in the default integrations."""
    add_custom_path(folder)
    add_integrations(Integrations.CUSTOM_ONLY)


def add_integrations(flags: Union[Integrations, int]) -> None:
    """ORs flags into the default integrations."""
    global _default
    value = int(flags)
    if value < 0 or value > 15:
        raise ValueError(f"integration flags {value} are not in 0..15")
    with _lock:
        _default |= value


def get_file_path(
    game: str, file: Union[str, os.PathLike[str]], inttype: Union[Integrations, int] = Integrations.DEFAULT
) -> Optional[str]:
    """The first ``<root>/<folder>/<game>/<file>`` that exists, or None."""
    root, custom = _snapshot()
    return _C.file_path(root, custom, game, os.fspath(file), resolve(inttype))


def get_romfile_path(game: str, inttype: Union[Integrations, int] = Integrations.DEFAULT) -> str:
    """The game's ROM (``rom.<ext>``); FileNotFoundError when there is none. ``RetroEnv``/``make`` look this
    function up here at each call, so code that replaces it (stable-retro's tests do) decides the ROM used."""
    root, custom = _snapshot()
    return _C.rom_path(root, custom, game, resolve(inttype))


def verify_hash(game: str, inttype: Union[Integrations, int] = Integrations.DEFAULT) -> List[Tuple[str, str]]:
    """stable-retro's check that the game's ROM is one its rom.sha lists: a list of ``(game, message)`` errors,
    empty when it is (``"ROM file missing"`` without a ROM, where stable-retro raises FileNotFoundError)."""
    from retrogym.testing import tools

    return tools.verify_hash(game, inttype)[1]


def list_games(inttype: Union[Integrations, int] = Integrations.DEFAULT) -> List[str]:
    """Sorted names of the games (folders with a rom.sha) of those integrations."""
    root, custom = _snapshot()
    return _C.list_games(root, custom, resolve(inttype))


def list_states(game: str, inttype: Union[Integrations, int] = Integrations.DEFAULT) -> List[str]:
    """Sorted names of the game's states (without ``.state``, leaving out names starting with ``_``)."""
    root, custom = _snapshot()
    return _C.list_states(root, custom, game, resolve(inttype))


def list_scenarios(game: str, inttype: Union[Integrations, int] = Integrations.DEFAULT) -> List[str]:
    """Sorted names of the game's scenario files (without ``.json``)."""
    root, custom = _snapshot()
    return _C.list_scenarios(root, custom, game, resolve(inttype))


def get_default_state(
    game: str, players: int = 1, inttype: Union[Integrations, int] = Integrations.DEFAULT
) -> Optional[str]:
    """The state metadata.json names for that many players, or None."""
    root, custom = _snapshot()
    return _C.default_state(root, custom, game, players, resolve(inttype))


EMU_INFO = _C.systems()
EMU_EXTENSIONS = {ext: name for name, info in EMU_INFO.items() for ext in info["extensions"]}


def get_system_info(system: str) -> Dict[str, Any]:
    """A system's description: name, title, extensions, cores, buttons, actions (default groups), rambase."""
    try:
        return EMU_INFO[system]
    except KeyError:
        raise KeyError(f"Unsupported system type: {system}") from None


def get_romfile_system(rom_path: Union[str, os.PathLike[str]]) -> str:
    """The system of a ROM file from its extension; ValueError for an unknown one."""
    try:
        return _C.system_for_path(os.fspath(rom_path))
    except FileNotFoundError as e:
        raise ValueError(f"Unsupported rom type at path: {rom_path}") from e


def get_game_system(game: str) -> str:
    """The system of a game from its ``-<System>`` suffix."""
    try:
        return _C.game_system(game)
    except FileNotFoundError as e:
        raise ValueError(str(e)) from None


def list_cores() -> List[Dict[str, Any]]:
    """The libretro cores found on the search path (``$RETROGYM_CORE_PATH``, then the usual folders)."""
    return _C.cores()


def import_roms(
    paths: Union[str, os.PathLike[str], Iterable[Union[str, os.PathLike[str]]]], force: Optional[str] = None
) -> Dict[str, Any]:
    """Imports ROMs whose SHA-1 matches a game's rom.sha from files, folders and zips (``python -m
    retrogym.import``). A game of our own data or of an installed stable-retro gets its ROM under the user root
    (:func:`user_root`). Returns a dict: ``imported`` [(game, path)], ``warnings``, ``near`` [(game, candidate,
    sha1)] for files named like a game whose hash is not in its rom.sha (another dump), and counts (``games``,
    ``forced`` ...). ``force="Game"`` adopts such a file for that game (or the one file given), whatever its
    hash."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    root, custom = _snapshot()
    return _C.import_roms(root, custom, [os.fspath(p) for p in paths], force)


_CHECK_SCRIPT = r"""
import json, sys
request = json.loads(sys.argv[1])
import retrogym
from retrogym import data
if request["root"] is not None:
    data.set_path(request["root"])
for folder in request["custom"]:
    data.add_custom_path(folder)
try:
    env = retrogym.make(request["game"], inttype=request["flags"])
    env.reset(seed=0)
    action = env.action_space.sample() * 0
    for _ in range(request["frames"]):
        _, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            env.reset()
    print(json.dumps({"ok": True, "core": env.core}))
    env.close()
except Exception as e:
    print(json.dumps({"ok": False, "error": f"{type(e).__name__}: {e}"}))
"""


def _check_start(game, flags, frames, timeout):
    """Starts a game from its default state in a child Python and runs frames: {"ok", "core" or "error"}."""
    with _lock:
        root = _root
        custom = list(_custom)
    request = json.dumps({"game": game, "flags": flags, "frames": frames, "root": root, "custom": custom})
    try:
        out = subprocess.run([sys.executable, "-c", _CHECK_SCRIPT, request], capture_output=True, text=True,
                             timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"ok": False, "error": f"timeout after {timeout} s"}
    for line in reversed(out.stdout.splitlines()):
        if line.startswith("{"):
            try:
                return json.loads(line)
            except ValueError:
                break
    return {"ok": False, "error": f"the check stopped without a result (exit status {out.returncode})"}


def library(
    inttype: Union[Integrations, int] = Integrations.ALL,
    check: bool = False,
    frames: int = 30,
    timeout: float = 30.0,
    system: Optional[str] = None,
) -> List[Dict[str, Any]]:
    """Every integration of the data roots (``retrogym library``), sorted by name, as dicts: ``game``, ``system``
    ("" when unknown), ``integration`` (the folder, "stable" ...), ``root`` and ``origin`` (the data root holding
    its rom.sha and where it comes from), ``rom`` (path or None), ``state`` (default state or None), ``core``,
    ``core_path``, ``core_origin`` (the core it would run on: "own", "Debian", "RetroArch", "stable-retro",
    "env var"; None when there is none) and ``hint`` (the command that installs a core, when none).

    With ``check=True`` each game that has a ROM and a core is started from its default state and run ``frames``
    steps in a child process (at most ``timeout`` seconds): ``start`` is "ok" or the error, and ``core``/
    ``core_origin`` name the core it ended up on (a refused start state moves to the system's next core)."""
    root, custom = _snapshot()
    flags = resolve(inttype)
    games = _C.library(root, custom, flags)
    if system is not None:
        get_system_info(system)
        games = [g for g in games if g["system"] == system]
    for g in games:
        g["start"] = None
        if check and g["rom"] and g["core"]:
            result = _check_start(g["game"], flags, int(frames), timeout)
            g["start"] = "ok" if result.get("ok") else result.get("error", "failed")
            used = result.get("core")
            if result.get("ok") and used and used != g["core"]:
                g["core"] = used
                try:
                    g["core_path"] = _C.core_path(used)
                    g["core_origin"] = _C.core_origin(g["core_path"])
                except FileNotFoundError:
                    g["core_path"], g["core_origin"] = "(built in)", "own"
    return games


def library_summary(games: Sequence[Dict[str, Any]]) -> List[Tuple[str, str, int, int, Optional[int]]]:
    """Rows ``(system, core origin, integrations, with ROM, that start)`` of :func:`library`'s games, sorted;
    "that start" is None unless the games were checked."""
    rows = {}
    checked = any(g.get("start") is not None for g in games)
    for g in games:
        key = (g["system"] or "?", g["core_origin"] or "none")
        row = rows.setdefault(key, [0, 0, 0])
        row[0] += 1
        row[1] += g["rom"] is not None
        row[2] += g.get("start") == "ok"
    return [(s, o, n, r, st if checked else None) for (s, o), (n, r, st) in sorted(rows.items())]


def core_install_hint(system: str) -> str:
    """The one command that installs a core for a system (e.g. ``pip install "retrogym[cores]"``)."""
    return _C.core_install_hint(system)
