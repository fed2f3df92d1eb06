"""Integration data: where games are found, listing, and the system table (stable-retro's ``retro.data``).

The data root is, in this order: the folder given to :func:`set_path`, ``$RETROGYM_DATA_PATH``, the package's own
``retrogym/data`` (our integrations, installed with the package), else the C library's default (the source tree's
``data/``). Custom integration folders and the default integrations are kept here, per process, as in stable-retro;
every call passes them to the C library explicitly.
"""
import enum
import os
import threading

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
    "EMU_INFO",
    "EMU_EXTENSIONS",
]

PACKAGE_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")

_lock = threading.Lock()
_root = None  # set_path()
_custom = []  # custom integration folders, in insertion order
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
    def paths(self):
        """The folders searched, in priority order: contrib, experimental, custom paths, stable."""
        root, custom = _snapshot()
        return _C.data_dirs(root, custom, resolve(self))

    @classmethod
    def add_custom_path(cls, folder):
        add_custom_path(folder)

    @classmethod
    def clear_custom_paths(cls):
        clear_custom_paths()

    def __str__(self):
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
    def get(cls):
        return Integrations(_default)

    @classmethod
    def add(cls, extra):
        add_integrations(extra)

    @classmethod
    def reset(cls):
        """Back to STABLE; custom paths remain."""
        global _default
        with _lock:
            _default = 1


def resolve(inttype):
    """An Integrations value (or int) as the flags to search; DEFAULT becomes the process default."""
    if inttype is None:
        inttype = 0
    value = int(inttype)
    if value < 0 or value > 15:
        raise ValueError(f"integration flags {value} are not in 0..15")
    return value or _default


def _snapshot():
    with _lock:
        root = _root
        custom = tuple(_custom)
    if root is None:
        env = os.environ.get(_C.DATA_PATH_ENV)
        if env:
            root = env
        elif os.path.isdir(PACKAGE_DATA):
            root = PACKAGE_DATA
    return root, custom


def path():
    """The data root in use."""
    return _C.data_root(_snapshot()[0])


def set_path(root=None):
    """Uses another data root (None: back to ``$RETROGYM_DATA_PATH`` or the package's data)."""
    global _root
    if root is not None:
        root = os.fspath(root)
        if not os.path.isdir(root):
            raise FileNotFoundError(f"data root {root} is not a folder")
    with _lock:
        _root = root


def add_custom_path(folder):
    """Appends a custom integration folder (absolute, or relative to the data root)."""
    folder = os.fspath(folder)
    with _lock:
        _custom.append(folder)


def clear_custom_paths():
    with _lock:
        _custom.clear()


def add_custom_integration(folder):
    """Adds a custom folder and includes CUSTOM_ONLY in the default integrations."""
    add_custom_path(folder)
    add_integrations(Integrations.CUSTOM_ONLY)


def add_integrations(flags):
    """ORs flags into the default integrations."""
    global _default
    value = int(flags)
    if value < 0 or value > 15:
        raise ValueError(f"integration flags {value} are not in 0..15")
    with _lock:
        _default |= value


def get_file_path(game, file, inttype=Integrations.DEFAULT):
    """The first ``<root>/<folder>/<game>/<file>`` that exists, or None."""
    root, custom = _snapshot()
    return _C.file_path(root, custom, game, os.fspath(file), resolve(inttype))


def get_romfile_path(game, inttype=Integrations.DEFAULT):
    """The game's ROM (``rom.<ext>``); FileNotFoundError when there is none. ``RetroEnv``/``make`` look this
    function up here at each call, so code that replaces it (stable-retro's tests do) decides the ROM used."""
    root, custom = _snapshot()
    return _C.rom_path(root, custom, game, resolve(inttype))


def verify_hash(game, inttype=Integrations.DEFAULT):
    """stable-retro's check that the game's ROM is one its rom.sha lists: a list of ``(game, message)`` errors,
    empty when it is (``"ROM file missing"`` without a ROM, where stable-retro raises FileNotFoundError)."""
    from retrogym.testing import tools

    return tools.verify_hash(game, inttype)[1]


def list_games(inttype=Integrations.DEFAULT):
    """Sorted names of the games (folders with a rom.sha) of those integrations."""
    root, custom = _snapshot()
    return _C.list_games(root, custom, resolve(inttype))


def list_states(game, inttype=Integrations.DEFAULT):
    """Sorted names of the game's states (without ``.state``, leaving out names starting with ``_``)."""
    root, custom = _snapshot()
    return _C.list_states(root, custom, game, resolve(inttype))


def list_scenarios(game, inttype=Integrations.DEFAULT):
    """Sorted names of the game's scenario files (without ``.json``)."""
    root, custom = _snapshot()
    return _C.list_scenarios(root, custom, game, resolve(inttype))


def get_default_state(game, players=1, inttype=Integrations.DEFAULT):
    """The state metadata.json names for that many players, or None."""
    root, custom = _snapshot()
    return _C.default_state(root, custom, game, players, resolve(inttype))


EMU_INFO = _C.systems()
EMU_EXTENSIONS = {ext: name for name, info in EMU_INFO.items() for ext in info["extensions"]}


def get_system_info(system):
    """A system's description: name, title, extensions, cores, buttons, actions (default groups), rambase."""
    try:
        return EMU_INFO[system]
    except KeyError:
        raise KeyError(f"Unsupported system type: {system}") from None


def get_romfile_system(rom_path):
    """The system of a ROM file from its extension; ValueError for an unknown one."""
    try:
        return _C.system_for_path(os.fspath(rom_path))
    except FileNotFoundError as e:
        raise ValueError(f"Unsupported rom type at path: {rom_path}") from e


def get_game_system(game):
    """The system of a game from its ``-<System>`` suffix."""
    try:
        return _C.game_system(game)
    except FileNotFoundError as e:
        raise ValueError(str(e)) from None


def list_cores():
    """The libretro cores found on the search path (``$RETROGYM_CORE_PATH``, then the usual folders)."""
    return _C.cores()


def import_roms(paths):
    """Imports ROMs whose SHA-1 matches a game's rom.sha from files, folders and zips (``python -m
    retrogym.import``). Returns a dict: ``imported`` [(game, path)], ``warnings`` and counts."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    root, custom = _snapshot()
    return _C.import_roms(root, custom, [os.fspath(p) for p in paths])
