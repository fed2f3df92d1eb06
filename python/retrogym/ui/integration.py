"""Integration files the UI writes: a new game from a ROM, states, metadata.json, data.json, scenario.json.

Everything is written under one writable data root (the user root by default) in its ``custom`` folder
(``<root>/custom/<Game>/``); names are checked so that no request can reach a path outside it, JSON is checked
before it is written, and an existing file is replaced only when the caller says so (``overwrite=True``)."""
import gzip
import hashlib
import json
import os
import re
import tempfile

from retrogym import data as _data

__all__ = ["UIError", "propose_name", "rom_hash", "Workspace"]

CUSTOM_FOLDER = "custom"
MAX_ROM = 32 << 20      # the library refuses bigger ROMs
MAX_STATE = 16 << 20
MAX_JSON = 1 << 20

_GAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_]{0,99}-[A-Za-z0-9]{1,40}$")
_STATE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,99}$")
_MOVIE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,200}\.bk2$")
_TAGS = re.compile(r"\([^)]*\)|\[[^\]]*\]|\{[^}]*\}")


class UIError(Exception):
    """A request the UI refuses: ``status`` is the HTTP status, the message is shown on the page."""

    def __init__(self, message, status=400):
        super().__init__(message)
        self.status = status


def propose_name(filename, system):
    """``Star Catcher (USA) [!].nes`` on Nes -> ``StarCatcher-Nes``: tags in brackets dropped, words CamelCased."""
    base = os.path.basename(filename)
    stem = base.rsplit(".", 1)[0] if "." in base else base
    stem = _TAGS.sub(" ", stem)
    words = re.split(r"[^A-Za-z0-9]+", stem)
    name = "".join(w[:1].upper() + w[1:] for w in words if w)
    if not name:
        name = "Game"
    if not name[0].isalnum():
        name = "G" + name
    return f"{name[:100]}-{system}"


def rom_hash(filename, rom):
    """Gym Retro's ROM hash: SHA-1 of the bytes after the 16-byte iNES header for .nes, else of the whole file."""
    body = rom[16:] if filename.lower().endswith(".nes") else rom
    return hashlib.sha1(body).hexdigest()


def check_game_name(name):
    if not isinstance(name, str) or not _GAME.match(name):
        raise UIError(f"game name {name!r} is not of the form Name-System (letters, digits, underscore)")
    return name


def check_state_name(name):
    """``Level1`` or ``Level1.state`` -> ``Level1``; anything with a path in it is refused."""
    if not isinstance(name, str):
        raise UIError("a state name is text")
    if name.endswith(".state"):
        name = name[: -len(".state")]
    if not _STATE.match(name) or ".." in name:
        raise UIError(f"state name {name!r} may hold letters, digits, '_', '-' and '.' only (no folders)")
    return name


def _atomic_write(path, payload, overwrite):
    if os.path.exists(path) and not overwrite:
        raise UIError(f"{os.path.basename(path)} exists in {os.path.dirname(path)}: confirm to replace it", 409)
    folder = os.path.dirname(path)
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".ui-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(payload)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _json_bytes(obj):
    return (json.dumps(obj, indent=2, sort_keys=False) + "\n").encode()


_TYPE = re.compile(r"^[<>|=]?[iudnb][1-8]$|^[<>|=][iudnb][1-8]$")
_OPS = {"equal", "not-equal", "less-than", "greater-than", "less-or-equal", "greater-or-equal", "nonzero", "zero",
        "positive", "negative", "sign", "negative-equal", "negative-not-equal", "negative-less-than",
        "negative-greater-than", "negative-less-or-equal", "negative-greater-or-equal"}


def check_data_json(obj):
    """A data.json document: {"info": {name: {"address": int, "type": str[, "mask": int]}}}."""
    if not isinstance(obj, dict) or not isinstance(obj.get("info", {}), dict):
        raise UIError("data.json must be an object with an \"info\" object of variables")
    for name, spec in obj.get("info", {}).items():
        if not isinstance(name, str) or not name or len(name) > 100:
            raise UIError(f"variable name {name!r} is not valid")
        if not isinstance(spec, dict):
            raise UIError(f"variable {name}: must be an object with address and type")
        addr = spec.get("address")
        if isinstance(addr, bool) or not isinstance(addr, int) or addr < 0:
            raise UIError(f"variable {name}: address must be a non-negative integer")
        if not isinstance(spec.get("type"), str) or not _TYPE.match(spec["type"]):
            raise UIError(f"variable {name}: type {spec.get('type')!r} is not a data.json type such as |u1, >d3")
    return obj


def check_scenario_json(obj):
    """A scenario.json document as the editor writes it (reward/done variables, actions)."""
    if not isinstance(obj, dict):
        raise UIError("scenario.json must be an object")
    for part in ("reward", "done"):
        sec = obj.get(part, {})
        if not isinstance(sec, dict):
            raise UIError(f"scenario.json: \"{part}\" must be an object")
        variables = sec.get("variables", {})
        if not isinstance(variables, dict):
            raise UIError(f"scenario.json: {part}.variables must be an object")
        for name, spec in variables.items():
            if not isinstance(spec, dict):
                raise UIError(f"scenario.json: {part}.variables.{name} must be an object")
            op = spec.get("op")
            if op is not None and op not in _OPS:
                raise UIError(f"scenario.json: {part}.variables.{name}: unknown op {op!r}")
            for key in ("reward", "penalty", "reference"):
                v = spec.get(key)
                if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float))):
                    raise UIError(f"scenario.json: {part}.variables.{name}.{key} must be a number")
    if "actions" in obj and not isinstance(obj["actions"], list):
        raise UIError("scenario.json: \"actions\" must be a list of button groups")
    return obj


def parse_json(raw, what):
    if len(raw) > MAX_JSON:
        raise UIError(f"{what} is {len(raw)} bytes; at most {MAX_JSON} are accepted", 413)
    try:
        return json.loads(raw.decode("utf-8") if isinstance(raw, (bytes, bytearray)) else raw)
    except (UnicodeDecodeError, ValueError) as e:
        raise UIError(f"{what} is not valid JSON: {e}") from None


class Workspace:
    """The writable side: ``<root>/custom`` of one data root, registered as a custom integration folder."""

    def __init__(self, root=None):
        self.root = os.path.abspath(root if root is not None else _data.user_root())
        self.custom = os.path.join(self.root, CUSTOM_FOLDER)
        os.makedirs(self.custom, exist_ok=True)
        if self.custom not in _data._snapshot()[1]:
            _data.add_custom_path(self.custom)

    def folder(self, game):
        return os.path.join(self.custom, check_game_name(game))

    def has_game(self, game):
        return os.path.isfile(os.path.join(self.folder(game), "rom.sha"))

    @staticmethod
    def check_rom(filename, rom, name=None):
        """Checks an upload before anything is written: (name, system, extension)."""
        if not isinstance(rom, (bytes, bytearray)) or not rom:
            raise UIError("the ROM is empty")
        if len(rom) > MAX_ROM:
            raise UIError(f"the ROM is {len(rom)} bytes; at most {MAX_ROM} are accepted", 413)
        base = os.path.basename(filename or "")
        try:
            system = _data.get_romfile_system(base)
        except ValueError:
            raise UIError(f"{base!r}: not a ROM of a known system (extension one of "
                          f"{', '.join(sorted(_data.EMU_EXTENSIONS))})") from None
        ext = os.path.splitext(base)[1].lower()
        if ext == ".nes" and rom[:4] != b"NES\x1a":
            raise UIError(f"{base!r} has no iNES header: not a NES ROM")
        name = check_game_name(name or propose_name(base, system))
        if not name.endswith("-" + system):
            raise UIError(f"the name must end in -{system} (the ROM's system)")
        return name, system, ext

    def integrate(self, filename, rom, name=None, overwrite=False):
        """A new integration from a ROM: rom.<ext>, rom.sha, metadata.json, data.json, scenario.json. Returns the
        game's name."""
        name, _, ext = self.check_rom(filename, rom, name)
        base = os.path.basename(filename or "")
        folder = self.folder(name)
        if os.path.exists(folder) and not overwrite:
            raise UIError(f"{name} is already integrated in {folder}: open it, or confirm to replace its ROM", 409)
        _atomic_write(os.path.join(folder, "rom" + ext), bytes(rom), True)
        _atomic_write(os.path.join(folder, "rom.sha"), (rom_hash(base, rom) + "\n").encode(), True)
        for file, doc in (("metadata.json", {}), ("data.json", {"info": {}}),
                          ("scenario.json", {"done": {"variables": {}}, "reward": {"variables": {}}})):
            path = os.path.join(folder, file)
            if not os.path.exists(path):
                _atomic_write(path, _json_bytes(doc), False)
        return name

    def ensure_writable(self, game):
        """The game's folder in the workspace; a game found elsewhere (read-only package data) is copied here first
        (its JSON files, rom.sha and ROM), so that edits never touch the original."""
        folder = self.folder(game)
        if self.has_game(game):
            return folder
        src = _data.get_file_path(game, "rom.sha", _data.Integrations.ALL)
        if src is None:
            raise UIError(f"no integration named {game}", 404)
        src_dir = os.path.dirname(src)
        os.makedirs(folder, exist_ok=True)
        for entry in sorted(os.listdir(src_dir)):
            path = os.path.join(src_dir, entry)
            if os.path.isfile(path) and (entry.endswith((".json", ".sha", ".state")) or entry.startswith("rom.")):
                with open(path, "rb") as f:
                    _atomic_write(os.path.join(folder, entry), f.read(), True)
        return folder

    def save_state(self, game, name, raw_state, overwrite=False):
        name = check_state_name(name)
        if len(raw_state) > MAX_STATE:
            raise UIError("the state is too big", 413)
        path = os.path.join(self.ensure_writable(game), name + ".state")
        _atomic_write(path, gzip.compress(bytes(raw_state), mtime=0), overwrite)
        return path

    def set_default_state(self, game, name):
        name = check_state_name(name)
        folder = self.ensure_writable(game)
        if not os.path.isfile(os.path.join(folder, name + ".state")):
            raise UIError(f"{game} has no state {name} in {folder}", 404)
        meta_path = os.path.join(folder, "metadata.json")
        meta = {}
        if os.path.isfile(meta_path):
            with open(meta_path, "rb") as f:
                try:
                    meta = json.loads(f.read() or b"{}")
                except ValueError:
                    raise UIError(f"{meta_path} is not valid JSON; fix it first") from None
            if not isinstance(meta, dict):
                raise UIError(f"{meta_path} is not a JSON object; fix it first")
        meta["default_state"] = name
        _atomic_write(meta_path, _json_bytes(meta), True)
        return meta_path

    def movie_folder(self, game):
        """``<root>/movies/<Game>/``: the movies recorded in the UI (outside the integration folders)."""
        folder = os.path.join(self.root, "movies", check_game_name(game))
        os.makedirs(folder, exist_ok=True)
        return folder

    def movies(self, game):
        folder = os.path.join(self.root, "movies", check_game_name(game))
        return sorted(f for f in os.listdir(folder) if f.endswith(".bk2")) if os.path.isdir(folder) else []

    def next_movie(self, game, state):
        """``<Game>-<state>-NNNNNN.bk2`` with the first number not taken (stable-retro's names)."""
        folder = self.movie_folder(game)
        for i in range(1000000):
            path = os.path.join(folder, f"{game}-{state or 'None'}-{i:06d}.bk2")
            if not os.path.exists(path):
                return path
        raise UIError("too many movies")

    def movie_path(self, game, name):
        if not isinstance(name, str) or not _MOVIE.match(name) or ".." in name:
            raise UIError(f"movie name {name!r}: a file name ending in .bk2 (no folders)")
        path = os.path.join(self.movie_folder(game), name)
        if not os.path.isfile(path):
            raise UIError(f"no movie {name} in {os.path.dirname(path)}", 404)
        return path

    def write_json(self, game, file, obj, overwrite=True):
        if file == "data.json":
            check_data_json(obj)
        elif file == "scenario.json":
            check_scenario_json(obj)
        else:
            raise UIError(f"{file!r}: only data.json and scenario.json are written")
        path = os.path.join(self.ensure_writable(game), file)
        _atomic_write(path, _json_bytes(obj), overwrite)
        return path
