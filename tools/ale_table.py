#!/usr/bin/env python3
"""Writes python/retrogym/ale_games.py: for every Atari integration of stable-retro whose ROM ale-py ships (matched
by SHA-1), the facts retrogym's ALE-style environments use (docs/python.md, "Atari (ALE conventions)"):

- ``rom``: ale-py's ROM name (``pong`` for ``pong.bin``);
- ``minimal``: ALE's minimal action set, as ALE action ids (``ale.getMinimalActionSet()``);
- ``reset``: the shape of ALE's reset sequence for the game, measured: ALE runs 60 no-op frames, holds the console's
  RESET switch for 4 frames, runs the game's mode selection (often another 4 RESET frames), 4 more RESET frames,
  then the game's starting actions, one frame each. ALE does not say how many frames that was, so the usual shapes
  are tried in our core until one leaves the RAM ALE's reset leaves (compared after one more no-op frame, since our
  reset runs one frame after its start state); ``exact`` says whether one did (else the closest is kept);
- ``lives``: the data.json variable that holds the lives, when the integration has one;
- ``ale_lives``: how ALE's ``lives()`` follows from the RAM, found by playing random minimal-set actions in ALE
  (3 episodes of up to 6,000 frames, frames after game over left out): ``{"const": n}``, or ``{"addr", "shift",
  "mask", "add"[, "max"]}`` meaning ``min(((ram[addr] >> shift) & mask) + add, max)``, the simplest rule that holds
  on every frame; None when no such rule holds (ALE's rule has other conditions).

Run by hand with ale-py and stable-retro installed and the retrogym package built (make python):

    .venv/bin/python tools/ale_table.py            # rewrites python/retrogym/ale_games.py
"""
import hashlib
import json
import os
import pprint
import shutil
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "python", "retrogym", "ale_games.py")

# our Atari2600 button masks (systems/Atari2600.json: BUTTON, -, SELECT, RESET, UP, DOWN, LEFT, RIGHT)
FIRE, SELECT, RESET, UP, DOWN, LEFT, RIGHT = 1, 4, 8, 16, 32, 64, 128
FILLS = {"NOOP": 0, "FIRE": FIRE, "UP": UP, "RIGHT": RIGHT, "LEFT": LEFT, "DOWN": DOWN}


def candidates():
    """(shape, masks) in the order tried: fewer extra frames first."""
    for extra in range(0, 7):
        for resets in (8, 4, 12):
            for fill in (FILLS if extra else ("NOOP",)):
                shape = {"noop": 60, "reset": resets, "fill": fill, "extra": extra}
                yield shape, [0] * 60 + [RESET] * resets + [FILLS[fill]] * extra


def ale_after_reset(rom):
    import ale_py
    ale = ale_py.ALEInterface()
    ale.setLoggerMode(ale_py.LoggerMode.Error)
    ale.setInt("random_seed", 0)
    ale.setFloat("repeat_action_probability", 0.0)
    ale.setInt("frame_skip", 1)
    ale.loadROM(rom)
    ale.reset_game()
    ale.act(ale_py.Action.NOOP)
    minimal = [int(a.value) for a in ale.getMinimalActionSet()]
    return bytes(ale.getRAM()), minimal


def lives_rule(rom, seeds=(0, 1, 2), frames=6000):
    """ALE's lives() as a rule over the RAM (see the module's docstring), or None."""
    import ale_py
    import numpy as np

    ale = ale_py.ALEInterface()
    ale.setLoggerMode(ale_py.LoggerMode.Error)
    ale.setInt("random_seed", 0)
    ale.setFloat("repeat_action_probability", 0.0)
    ale.loadROM(rom)
    acts = ale.getMinimalActionSet()
    rams, lives = [], []
    for seed in seeds:
        rng = np.random.default_rng(seed)
        ale.reset_game()
        rams.append(ale.getRAM().copy())
        lives.append(ale.lives())
        for i in range(frames):
            if i % 4 == 0:
                action = acts[rng.integers(len(acts))]
            ale.act(action)
            if ale.game_over():
                break
            rams.append(ale.getRAM().copy())
            lives.append(ale.lives())
    rams, lives = np.array(rams, dtype=np.int64), np.array(lives, dtype=np.int64)
    if (lives == lives[0]).all():
        return {"const": int(lives[0])}
    for cap in (None, int(lives.max())):
        for shift in range(8):
            for mask in (0xFF, 0x0F, 0x07, 0x03, 0x01):
                if shift and mask == 0xFF:
                    continue
                for add in (0, 1, -1, 2):
                    v = ((rams >> shift) & mask) + add
                    if cap is not None:
                        v = np.minimum(v, cap)
                    ok = np.flatnonzero((v == lives[:, None]).all(axis=0))
                    if len(ok):
                        rule = {"addr": 0x80 + int(ok[0]), "shift": shift, "mask": mask, "add": add}
                        if cap is not None:
                            rule["max"] = cap
                        return rule
    return None


def main():
    import ale_py
    import stable_retro
    import retrogym

    romdir = os.path.join(os.path.dirname(ale_py.__file__), "roms")
    srdata = os.path.join(os.path.dirname(stable_retro.__file__), "data", "stable")
    by_sha = {}
    for f in sorted(os.listdir(romdir)):
        if f.endswith(".bin"):
            with open(os.path.join(romdir, f), "rb") as fh:
                by_sha[hashlib.sha1(fh.read()).hexdigest()] = f[:-4]
    work = tempfile.mkdtemp(prefix="ale_table-")
    table = {}
    try:
        for game in sorted(os.listdir(srdata)):
            if "-Atari2600" not in game:
                continue
            src = os.path.join(srdata, game)
            with open(os.path.join(src, "rom.sha")) as fh:
                sha = fh.read().split()[0].strip()
            rom = by_sha.get(sha)
            if rom is None:
                continue
            dst = os.path.join(work, "stable", game)
            shutil.copytree(src, dst)
            shutil.copy(os.path.join(romdir, rom + ".bin"), os.path.join(dst, "rom.a26"))
            retrogym.data.set_path(work)
            ale_ram, minimal = ale_after_reset(os.path.join(romdir, rom + ".bin"))
            best = None
            for shape, masks in candidates():
                env = retrogym.make(game, state=retrogym.State.NONE, obs_type=retrogym.Observations.RAM,
                                    reset_sequence=masks)
                try:
                    env.reset(seed=0)
                    ram = bytes(env.get_ram())
                finally:
                    env.close()
                diff = sum(a != b for a, b in zip(ram, ale_ram))
                if best is None or diff < best[0]:
                    best = (diff, shape)
                if diff == 0:
                    break
            with open(os.path.join(src, "data.json")) as fh:
                info = json.load(fh).get("info", {})
            shape = dict(best[1], exact=best[0] == 0)
            table[game] = {"rom": rom, "minimal": minimal, "reset": shape,
                           "lives": "lives" if "lives" in info else None,
                           "ale_lives": lives_rule(os.path.join(romdir, rom + ".bin"))}
            print(f"{game:32s} {rom:20s} {len(minimal):2d} actions  reset {shape}"
                  + ("" if best[0] == 0 else f"  ({best[0]} RAM bytes differ)") + f"  lives {table[game]['ale_lives']}",
                  flush=True)
    finally:
        shutil.rmtree(work, True)
    with open(OUT, "w") as fh:
        fh.write('"""Generated by tools/ale_table.py (do not edit): per Atari integration whose ROM ale-py ships, '
                 'ale-py\'s ROM name,\nALE\'s minimal action set (ALE action ids), the shape of ALE\'s reset '
                 'sequence measured against ALE, the\ndata.json variable of the lives and ALE\'s lives() as a rule '
                 'over the RAM (docs/python.md, "Atari (ALE conventions)")."""\n\nGAMES = ')
        fh.write(pprint.pformat(table, width=118, sort_dicts=True))
        fh.write("\n")
    print(f"wrote {OUT} ({len(table)} games)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
