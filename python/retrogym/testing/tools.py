"""Integration checks with stable-retro's names (``retro.testing.tools``), run by retrogym's C validators
(``rg_validate_*``, docs/integrations.md "Validation"; the same checks as ``retrogym validate``).

Each ``verify_*`` returns ``(warnings, errors)``, two lists of ``(file, message)`` tuples; ``file`` is
``<integrations>/<game>/<name>`` for a finding about a file (``str(Integrations)`` of the flags given, e.g.
``stable/Airstriker-Genesis-v0/data.json``) and the game's name for a finding about the game (ROM, hash).
Warnings listed in the game's ``metadata.json`` ``whitelist`` are dropped; a whitelisted warning that does not occur
is an error (``missing warning "..."``), as in stable-retro. ``raw`` arguments check JSON text instead of the file.

``python -m retrogym.testing.tools [--integrations all]`` prints every finding over all games and exits 1 on errors.
"""
import json
import os
import shutil
import sys
import tempfile

from retrogym import _retrogym as _C
from retrogym import data as _data

__all__ = [
    "load_whitelist",
    "scan_missing",
    "verify_data",
    "verify_scenario",
    "verify_default_state",
    "verify_hash",
    "verify_hash_collisions",
    "verify_genesis",
    "verify_extension",
    "verify_rom",
    "verify_json",
    "verify_roms",
    "verify_all",
    "main",
]

_ALL = _data.Integrations.ALL
_STABLE = _data.Integrations.STABLE


def _flags(inttype):
    return _data.Integrations(_data.resolve(inttype))


def _label(inttype, game, name):
    return os.path.join(str(_data.Integrations(int(inttype))), game, name)


def _split(findings, inttype, game):
    """C findings -> (warnings, errors) of (file, message); a file path of the game's folder becomes its label."""
    warnings, errors = [], []
    for file, severity, message in findings:
        if game is not None and file and os.sep in file:
            file = _label(inttype, game, os.path.basename(file))
        (errors if severity == "error" else warnings).append((file, message))
    return warnings, errors


def _run(check, game, inttype, scenario=None, custom_first=None):
    root, custom = _data._snapshot()
    flags = _data.resolve(inttype)
    if custom_first is not None:  # a scratch copy of the game folder, searched before everything else
        custom = (custom_first,) + tuple(custom)
        flags = int(_data.Integrations.CUSTOM_ONLY)
    try:
        return _C.validate(check, root, custom, game, flags, scenario)
    except FileNotFoundError:
        return None  # no folder of that game in those integrations


def _with_raw(game, inttype, replace, check, scenario=None):
    """Runs a check on a scratch copy of the game's folder whose files ``replace`` ({name: text}) are replaced."""
    folder = None
    for name in ("rom.sha", "metadata.json", "data.json", "scenario.json"):
        path = _data.get_file_path(game, name, inttype)
        if path:
            folder = os.path.dirname(path)
            break
    with tempfile.TemporaryDirectory(prefix="retrogym-verify-") as tmp:
        game_dir = os.path.join(tmp, game)
        os.mkdir(game_dir)
        if folder:
            for name in os.listdir(folder):
                src = os.path.join(folder, name)
                if os.path.isfile(src) and not name.startswith("rom."):
                    shutil.copyfile(src, os.path.join(game_dir, name))
        for name, text in replace.items():
            with open(os.path.join(game_dir, name), "w", encoding="utf-8") as f:
                f.write(text if isinstance(text, str) else text.decode("utf-8"))
        found = _run(check, game, inttype, scenario, custom_first=tmp)
    return found


def _verify(check, game, inttype, raw_files=None, scenario=None):
    inttype = _flags(inttype)
    found = _with_raw(game, inttype, raw_files, check, scenario) if raw_files else _run(check, game, inttype, scenario)
    if found is None:
        return [], []
    return _split(found, inttype, game)


def load_whitelist(game, inttype):
    """(the ``whitelist`` object of the game's metadata.json, errors): ``({}, [])`` without one; ``(None,
    [(file, "fail decode")])`` or ``(None, [(file, "fail I/O")])`` when it cannot be read."""
    inttype = _flags(inttype)
    path = _data.get_file_path(game, "metadata.json", inttype | _STABLE)
    if not path:
        return {}, []
    try:
        with open(path, encoding="utf-8") as f:
            whitelist = json.load(f).get("whitelist", {})
    except (json.JSONDecodeError, UnicodeDecodeError, AttributeError):
        return None, [(path, "fail decode")]
    except OSError:
        return None, [(path, "fail I/O")]
    return whitelist, []


def scan_missing():
    """[(game, file)] for each game of every integration that lacks data.json, scenario.json, metadata.json, a
    state (``*.state``) or rom.sha."""
    found = _run("missing", None, _ALL) or []
    out = []
    for game, _severity, message in found:
        out.append((game, message[len("missing "):] if message.startswith("missing ") else message))
    return out


def verify_data(game, inttype, raw=None):
    """data.json: info present, each variable with an integer address and a valid type; suspicious types warned."""
    return _verify("data", game, inttype, {"data.json": raw} if raw else None)


def verify_scenario(game, inttype, scenario="scenario", raw=None, dataraw=None):
    """A scenario: reward and done present, their variables exist in data.json and are complete, ``all`` has two
    checks, ``negative`` is not used on unsigned values."""
    name = scenario if scenario.endswith(".json") else scenario + ".json"
    files = {}
    if raw:
        files[name] = raw
    if dataraw:
        files["data.json"] = dataraw
    return _verify("scenario", game, inttype, files or None, scenario=name)


def verify_default_state(game, inttype, raw=None):
    """metadata.json names a default state that exists (and default_player_state entries that exist)."""
    return _verify("default_state", game, inttype, {"metadata.json": raw} if raw else None)


def verify_hash(game, inttype=_data.Integrations.DEFAULT):
    """The ROM's SHA-1 (NES: without its 16-byte header) is listed in rom.sha; a missing ROM is an error."""
    return _verify("hash", game, inttype)


def verify_hash_collisions():
    """Each SHA-1 in rom.sha belongs to one game: [(game, "sha duplicate")] errors for the others."""
    seen = {}
    for game in _data.list_games(_ALL):
        path = _data.get_file_path(game, "rom.sha", _ALL)
        if not path:
            continue
        try:
            with open(path, encoding="utf-8") as f:
                shas = {line.strip().lower() for line in f if line.strip()}
        except (OSError, UnicodeDecodeError):
            continue
        for sha in shas:
            seen.setdefault(sha, []).append(game)
    errors = [(game, "sha duplicate") for games in seen.values() if len(games) > 1 for game in games]
    return [], errors


def verify_rom(game, inttype):
    """The ROM exists, its extension belongs to the game's system, and a Genesis ROM carries "SEGA" at 0x100
    (unless whitelisted as ``rom.md``)."""
    return _verify("rom", game, inttype)


def verify_genesis(game, inttype):
    """verify_rom for a Genesis game."""
    return verify_rom(game, inttype)


def verify_extension(game, inttype):
    """verify_rom for a game of another system."""
    return verify_rom(game, inttype)


def _games(inttype):
    return _data.list_games(_flags(inttype))


def verify_json(inttype=_ALL):
    """verify_data, verify_scenario (every scenario file) and verify_default_state over all games."""
    warnings, errors = [], []
    for game in _games(inttype):
        scenarios = _data.list_scenarios(game, _flags(inttype)) or ["scenario"]
        checks = [verify_data(game, inttype), verify_default_state(game, inttype)]
        checks += [verify_scenario(game, inttype, s) for s in scenarios]
        for w, e in checks:
            warnings += w
            errors += e
    return warnings, errors


def verify_roms(inttype=_ALL):
    """verify_hash and verify_rom over the games that have a ROM."""
    warnings, errors = [], []
    for game in _games(inttype):
        try:
            _data.get_romfile_path(game, _flags(inttype))
        except FileNotFoundError:
            continue
        for w, e in (verify_hash(game, inttype), verify_rom(game, inttype)):
            warnings += w
            errors += e
    return warnings, errors


def verify_all(inttype=_ALL):
    """Everything: missing files (as errors), verify_json, verify_roms and hash collisions."""
    warnings = []
    errors = [(game, f"missing {file}") for game, file in scan_missing()]
    for w, e in (verify_json(inttype), verify_roms(inttype), verify_hash_collisions()):
        warnings += w
        errors += e
    return warnings, errors


def main(argv=None):
    import argparse

    parser = argparse.ArgumentParser(prog="python -m retrogym.testing.tools",
                                     description="Checks every integration (stable-retro's testing tools).")
    parser.add_argument("--integrations", default="all", choices=["stable", "experimental", "contrib", "custom", "all"])
    args = parser.parse_args(argv)
    flags = {"stable": _STABLE, "experimental": _data.Integrations.EXPERIMENTAL,
             "contrib": _data.Integrations.CONTRIB, "custom": _data.Integrations.CUSTOM, "all": _ALL}[args.integrations]
    warnings, errors = verify_all(flags)
    for file, message in errors:
        print(f"error: {file}: {message}")
    for file, message in warnings:
        print(f"warning: {file}: {message}")
    print(f"{len(errors)} errors, {len(warnings)} warnings")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
