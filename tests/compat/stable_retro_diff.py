"""Differential test against stable-retro itself: the same integration, core, ROM, state and actions must give the
same observation (shape and bytes), RAM, reward, terminated, truncated and info on every step, in every action mode,
in stable-retro's RetroEnv and in retrogym's (`retrogym.make`), stepped side by side in this process; every 64 steps
also render(), em.get_screen() and em.get_resolution().

Suites (each skipped cleanly when what it needs is not installed):
  airstriker  stable-retro's own game and ROM (Airstriker-Genesis, every state), its own data folder
  testroms    each of our test ROMs (tests/roms, md/modes: the Genesis switching between 320 and 256 pixels, and
              snes/modes: the SNES switching between 256 and 512 pixels and 224 and 239 lines, pce/modes: the PC Engine
              switching its dot clock) as an
              integration made here: data.json with the frame counter and pad, a scenario rewarding both and ending
              at counter 200, a start state saved by retrogym with stable-retro's core
  smb         SuperMarioBros-Nes (stable-retro's data and states) with the ROM of the gym-super-mario-bros wheel
  atari       ale-py's Atari ROMs matched to stable-retro's Atari2600 integrations by SHA-1, on stable-retro's Stella
Both sides run stable-retro's cores (retrogym is given the core's path). Actions are seeded random values of the
env's action space, each held 4 steps; after a terminated step both envs are reset and compared again.

usage: stable_retro_diff.py RETROGYM_CLI [--steps N] [--suite NAME ...] [--verbose]
exit 0 = identical, 1 = different, 77 = stable-retro or retrogym missing
"""
import argparse
import gc
import glob
import gzip
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

try:
    import numpy as np
    import stable_retro as retro
    import retrogym
except ImportError as e:  # the suite skips this test where stable-retro or retrogym is not installed
    print(f"skipped: {e}")
    sys.exit(77)

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SITE = os.path.dirname(os.path.dirname(retro.__file__))
SR_DATA = os.path.join(os.path.dirname(retro.__file__), "data")
SR_CORES = os.path.join(os.path.dirname(retro.__file__), "cores")
MODES = ["FILTERED", "DISCRETE", "MULTI_DISCRETE", "ALL"]
HOLD = 4
# stable-retro's core for each system (its cores/*.json)
CORES = {"Nes": "fceumm", "Snes": "snes9x", "GameBoy": "gambatte", "GbColor": "gambatte", "GbAdvance": "mgba",
         "PCEngine": "mednafen_pce_fast", "Atari2600": "stella", "Genesis": "genesis_plus_gx",
         "Sms": "genesis_plus_gx", "GameGear": "genesis_plus_gx"}
EXT = {"Nes": "nes", "Snes": "sfc", "GameBoy": "gb", "GbColor": "gbc", "GbAdvance": "gba", "PCEngine": "pce",
       "Atari2600": "a26", "Genesis": "md", "Sms": "sms", "Gamegear": "gg", "GameGear": "gg"}


def core_path(system):
    path = os.path.join(SR_CORES, CORES[system] + "_libretro.so")
    return path if os.path.exists(path) else None


class Case:
    """One game and state, compared in the given action modes for `steps` steps each."""

    def __init__(self, suite, game, state, system, root, sr_inttype, modes, steps, seed):
        self.suite, self.game, self.state, self.system = suite, game, state, system
        self.root, self.sr_inttype, self.modes, self.steps, self.seed = root, sr_inttype, modes, steps, seed


def rom_sha(path, system):
    data = open(path, "rb").read()
    return hashlib.sha1(data[16:] if system == "Nes" else data).hexdigest()


def test_rom_cases(cli, stable, steps):
    """One integration per test ROM (plus md/modes) under stable/."""
    cases = []
    roms = []
    for folder in sorted(os.listdir(os.path.join(SOURCE, "tests", "roms"))):
        manifest = os.path.join(SOURCE, "tests", "roms", folder, "rom.json")
        if os.path.exists(manifest):
            m = json.load(open(manifest))
            roms.append((folder, m, os.path.join(SOURCE, "tests", "roms", "bin", m["rom"])))
            # the size-switching ROMs keep their system's contract: Genesis 320/256 pixels, SNES 256/512 x 224/239,
            # PC Engine 5.37/7.16 MHz dot clock
            if m["system"] == "Genesis":
                roms.append(("modes", m, os.path.join(SOURCE, "tests", "roms", "bin", "md", "modes.md")))
            if m["system"] == "Snes":
                roms.append(("snesmodes", m, os.path.join(SOURCE, "tests", "roms", "bin", "snes", "modes.sfc")))
            if m["system"] == "PCEngine":
                roms.append(("pcemodes", m, os.path.join(SOURCE, "tests", "roms", "bin", "pce", "modes.pce")))
    for folder, m, image in roms:
        system = m["system"]
        core = core_path(system) if system in CORES else None
        if not core or not os.path.exists(image):
            continue
        game = f"RetrogymTest{folder.capitalize()}-{system}"
        d = os.path.join(stable, game)
        os.makedirs(d)
        rom = os.path.join(d, "rom." + EXT[system])
        shutil.copy(image, rom)
        open(os.path.join(d, "rom.sha"), "w").write(rom_sha(rom, system) + "\n")
        pad = m["pad"]
        pad_type = "|u1" if pad["bytes"] == 1 else ("<" if pad["endian"] == "little" else ">") + "u2"
        json.dump({"info": {"counter": {"address": m["counter"]["addr"], "type": "|u1"},
                            "pad": {"address": pad["addr"], "type": pad_type}}}, open(os.path.join(d, "data.json"), "w"))
        json.dump({"reward": {"variables": {"counter": {"reward": 1, "penalty": 1},
                                            "pad": {"measurement": "absolute", "reward": 0.5}}},
                   "done": {"variables": {"counter": {"op": "equal", "reference": 200}}}},
                  open(os.path.join(d, "scenario.json"), "w"))
        json.dump({"default_state": "Start"}, open(os.path.join(d, "metadata.json"), "w"))
        env = dict(os.environ, RETROGYM_CORE_PATH=SR_CORES)
        subprocess.run([cli, "run", rom, "--core", CORES[system], "--frames", "90", "--quiet",
                        "--state-out", os.path.join(d, "Start.state")], env=env, check=True, capture_output=True)
        cases.append(Case("testroms", game, "Start", system, None, retro.data.Integrations.CUSTOM_ONLY, MODES, steps,
                          len(cases) + 1))
    return cases


def airstriker_cases(steps):
    game = "Airstriker-Genesis-v0"
    folder = os.path.join(SR_DATA, "stable", game)
    if not os.path.isdir(folder) or not core_path("Genesis"):
        print("skipped airstriker: stable-retro's Airstriker or its Genesis core is missing")
        return []
    states = sorted(os.path.basename(p)[:-6] for p in glob.glob(os.path.join(folder, "*.state")))
    return [Case("airstriker", game, s, "Genesis", SR_DATA, retro.data.Integrations.STABLE, MODES, steps, 7)
            for s in states]


def copy_integration(src, dst, rom, ext, system):
    os.makedirs(dst)
    for f in os.listdir(src):
        if f.endswith((".json", ".state", ".lua")):
            shutil.copy(os.path.join(src, f), dst)
    shutil.copy(rom, os.path.join(dst, "rom." + ext))
    open(os.path.join(dst, "rom.sha"), "w").write(rom_sha(rom, system) + "\n")


def smb_cases(stable, steps):
    rom = os.path.join(SITE, "gym_super_mario_bros", "_roms", "super-mario-bros.nes")
    src = os.path.join(SR_DATA, "stable", "SuperMarioBros-Nes-v0")
    if not os.path.exists(rom) or not os.path.isdir(src) or not core_path("Nes"):
        print("skipped smb: the gym-super-mario-bros wheel, stable-retro's SuperMarioBros-Nes or fceumm is missing")
        return []
    game = "SuperMarioBros-Nes-v0"
    copy_integration(src, os.path.join(stable, game), rom, "nes", "Nes")
    states = sorted(os.path.basename(p)[:-6] for p in glob.glob(os.path.join(src, "*.state")))
    # Every state in one action mode each (in turn); the first state in all four.
    return [Case("smb", game, s, "Nes", None, retro.data.Integrations.CUSTOM_ONLY,
                 MODES if i == 0 else [MODES[i % 4]], steps, 100 + i) for i, s in enumerate(states)]


def atari_cases(stable, steps):
    roms_dir = os.path.join(SITE, "ale_py", "roms")
    if not os.path.isdir(roms_dir) or not core_path("Atari2600"):
        print("skipped atari: ale-py's ROMs or stable-retro's Stella is missing")
        return []
    by_sha = {}
    for rom in sorted(glob.glob(os.path.join(roms_dir, "*.bin"))):
        by_sha.setdefault(hashlib.sha1(open(rom, "rb").read()).hexdigest(), rom)
    cases = []
    for kind in ("stable", "contrib", "experimental"):
        for src in sorted(glob.glob(os.path.join(SR_DATA, kind, "*-Atari2600*"))):
            sha = os.path.join(src, "rom.sha")
            if not os.path.exists(sha):
                continue
            shas = [line.strip().lower() for line in open(sha) if line.strip()]
            rom = next((by_sha[s] for s in shas if s in by_sha), None)
            game = os.path.basename(src)
            if not rom or os.path.exists(os.path.join(stable, game)):
                continue
            meta = os.path.join(src, "metadata.json")
            state = json.load(open(meta)).get("default_state") if os.path.exists(meta) else None
            if not state or not os.path.exists(os.path.join(src, state + ".state")):
                continue
            copy_integration(src, os.path.join(stable, game), rom, "a26", "Atari2600")
            i = len(cases)
            cases.append(Case("atari", game, state, "Atari2600", None, retro.data.Integrations.CUSTOM_ONLY,
                              [MODES[i % 4]], steps, 200 + i))
    return cases


def sample(space, rng, buttons):
    if space.__class__.__name__ == "Discrete":
        return int(rng.integers(space.n))
    if space.__class__.__name__ == "MultiDiscrete":
        return rng.integers(0, space.nvec).astype(np.int64)
    a = rng.integers(0, 2, size=space.n).astype(np.int8)
    # Buttons the console lacks (None in the system's button list) stay released: retrogym never passes them to
    # the core (docs/compat.md), stable-retro does.
    for i, b in enumerate(buttons):
        if b is None:
            a[i] = 0
    return a


def space_desc(space):
    name = space.__class__.__name__
    if name == "Discrete":
        return (name, int(space.n))
    if name == "MultiDiscrete":
        return (name, tuple(int(v) for v in space.nvec))
    return (name, tuple(space.shape), str(space.dtype))


class Tally:
    def __init__(self):
        self.steps = 0
        self.mismatches = 0
        self.known = 0
        self.first = None

    def check(self, where, what, ok, detail=""):
        if not ok:
            self.mismatches += 1
            if self.first is None:
                self.first = f"{where}: {what} differs {detail}"


# Rows of the screen below the frame the core hands over, which stable-retro reads from the core's buffer past that
# frame and retrogym shows black (docs/compat.md): mednafen_pce_fast draws 240 of its 242 rows.
KNOWN_ROWS = {"PCEngine": 240}


def obs_check(tally, where, a, b, what="observation", system=None):
    if a.shape != b.shape or a.dtype != b.dtype:
        tally.check(where, what + " shape", False, f"(stable-retro {a.shape} {a.dtype}, retrogym {b.shape} {b.dtype})")
        return
    rows = KNOWN_ROWS.get(system)
    if rows is not None and a.ndim == 3:
        if not np.array_equal(a[rows:], b[rows:]):
            tally.known += 1
            if b[rows:].any():
                tally.check(where, what + " rows below the frame", False, "(not black)")
        a, b = a[:rows], b[:rows]
    if not np.array_equal(a, b):
        diff = np.argwhere(a != b)
        tally.check(where, what + " bytes", False, f"({len(diff)} values, first at {tuple(int(v) for v in diff[0])})")


def run_mode(case, mode, tally):
    """Both envs side by side for case.steps steps; returns False when the envs could not be made."""
    retrogym.data.set_path(case.root)
    gc.collect()
    sr = retro.make(game=case.game, state=case.state, use_restricted_actions=getattr(retro.Actions, mode),
                    inttype=case.sr_inttype, render_mode="rgb_array")
    try:
        rg = retrogym.make(case.game, state=case.state, use_restricted_actions=getattr(retrogym.Actions, mode),
                           inttype=retrogym.data.Integrations.STABLE, render_mode="rgb_array",
                           core=core_path(case.system))
    except Exception:
        sr.close()
        raise
    where = f"{case.game} {case.state} {mode}"
    try:
        tally.check(where, "observation space", space_desc(sr.observation_space) == space_desc(rg.observation_space),
                    f"({space_desc(sr.observation_space)} vs {space_desc(rg.observation_space)})")
        tally.check(where, "action space", space_desc(sr.action_space) == space_desc(rg.action_space),
                    f"({space_desc(sr.action_space)} vs {space_desc(rg.action_space)})")

        def compare_reset(t):
            o1, i1 = sr.reset()
            o2, i2 = rg.reset()
            at = f"{where} reset before step {t}"
            obs_check(tally, at, o1, o2, system=case.system)
            obs_check(tally, at, np.asarray(sr.get_ram()), np.asarray(rg.get_ram()), "RAM")
            # stable-retro's reset returns {}; retrogym's the variables (docs/compat.md), which must be stable-retro's
            want = dict(sr.data.lookup_all())
            tally.check(at, "info", i1 == {} and dict(i2) == want, f"({i1}, variables {want} vs {i2})")

        compare_reset(0)
        rng = np.random.default_rng(case.seed)
        a = None
        for t in range(case.steps):
            if t % HOLD == 0:
                a = sample(sr.action_space, rng, sr.buttons)
            o1, r1, te1, tr1, i1 = sr.step(a)
            o2, r2, te2, tr2, i2 = rg.step(a)
            tally.steps += 1
            at = f"{where} step {t}"
            before = tally.mismatches
            obs_check(tally, at, o1, o2, system=case.system)
            obs_check(tally, at, np.asarray(sr.get_ram()), np.asarray(rg.get_ram()), "RAM")
            tally.check(at, "reward", type(r1) is type(r2) and r1 == r2, f"({r1!r} vs {r2!r})")
            tally.check(at, "terminated", type(te1) is type(te2) and te1 == te2, f"({te1!r} vs {te2!r})")
            tally.check(at, "truncated", type(tr1) is type(tr2) and tr1 == tr2, f"({tr1!r} vs {tr2!r})")
            tally.check(at, "info", dict(i1) == dict(i2), f"({i1} vs {i2})")
            if t % 64 == 63:
                obs_check(tally, at, sr.render(), rg.render(), "render()", case.system)
                obs_check(tally, at, sr.em.get_screen(), rg.em.get_screen(), "em.get_screen()", case.system)
                tally.check(at, "em.get_resolution()", tuple(sr.em.get_resolution()) == tuple(rg.em.get_resolution()),
                            f"({sr.em.get_resolution()} vs {rg.em.get_resolution()})")
            if tally.mismatches > before:
                break  # the envs have parted: what follows says nothing more
            if te1 or tr1:
                compare_reset(t + 1)
    finally:
        sr.close()
        rg.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cli")
    ap.add_argument("--steps", type=int, default=600, help="steps per action mode (Atari and SMB: a quarter)")
    ap.add_argument("--suite", action="append", choices=["airstriker", "testroms", "smb", "atari"])
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    suites = args.suite or ["airstriker", "testroms", "smb", "atari"]
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        ours_root = os.path.join(tmp, "data")
        stable = os.path.join(ours_root, "stable")
        os.makedirs(stable)
        retro.data.Integrations.add_custom_path(stable)
        cases = []
        if "airstriker" in suites:
            cases += airstriker_cases(args.steps)
        if "testroms" in suites:
            cases += test_rom_cases(args.cli, stable, args.steps)
        if "smb" in suites:
            cases += smb_cases(stable, max(args.steps // 2, 1))
        if "atari" in suites:
            cases += atari_cases(stable, max(args.steps // 4, 1))
        for c in cases:
            if c.root is None:
                c.root = ours_root
        totals = {}
        for case in cases:
            start = time.monotonic()
            tally = Tally()
            for mode in case.modes:
                run_mode(case, mode, tally)
            s = totals.setdefault(case.suite, [0, 0, 0, 0, 0.0])
            s[0] += 1
            s[1] += tally.steps
            s[2] += tally.mismatches
            s[3] += tally.known
            s[4] += time.monotonic() - start
            if tally.mismatches:
                failed = True
                print(f"FAIL {case.suite} {case.game} {case.state}: {tally.mismatches} mismatches in {tally.steps} "
                      f"steps; first: {tally.first}")
            elif args.verbose:
                print(f"ok   {case.suite} {case.game} {case.state} {'/'.join(case.modes)}: {tally.steps} steps")
        for suite, (n, steps, mism, known, secs) in totals.items():
            extra = f", {known} observations with the known PCE bottom-row difference" if known else ""
            print(f"{suite}: {n} cases, {steps} steps compared, {mism} mismatches{extra} ({secs:.1f} s)")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
