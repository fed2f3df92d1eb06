"""Differential test against stable-retro itself: the same integration, core, ROM, state and input must give the
same reward and done on every step in stable-retro and in retrogym.

stable-retro's wheel ships libretro cores and one ROM (Airstriker-Genesis, with its stable integration). Besides
that game, each of our own test ROMs (tests/roms) becomes an integration made here: data.json with its frame counter
and pad byte(s), a scenario rewarding both and ending at a counter value, and a start state saved by retrogym with
stable-retro's core for that system. For each case this script plays a seeded random MultiBinary input (held 4
frames) through stable-retro's RetroEnv, writes the button masks, replays them with
`retrogym play --input --trace` on the same core, and compares step by step.

usage: stable_retro_diff.py RETROGYM_CLI [STEPS]     exit 0 = identical, 1 = different, 77 = stable-retro missing
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

try:
    import numpy as np
    import stable_retro as retro
except ImportError as e:  # the suite skips this test where stable-retro is not installed
    print(f"skipped: {e}")
    sys.exit(77)

CASES = [("Airstriker-Genesis-v0", "Level1", 1), ("Airstriker-Genesis-v0", "Level1", 2)]
SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# stable-retro's core for each system (its cores/*.json)
CORES = {"Nes": "fceumm", "Snes": "snes9x", "GameBoy": "gambatte", "GbColor": "gambatte", "GbAdvance": "mgba",
         "PCEngine": "mednafen_pce_fast", "Atari2600": "stella", "Genesis": "genesis_plus_gx",
         "Sms": "genesis_plus_gx", "GameGear": "genesis_plus_gx"}
EXT = {"Nes": "nes", "Snes": "sfc", "GameBoy": "gb", "GbColor": "gbc", "GbAdvance": "gba", "PCEngine": "pce",
       "Atari2600": "a26", "Genesis": "md", "Sms": "sms", "GameGear": "gg"}


def make_test_rom_games(cli, root):
    """One integration per test ROM under root/stable; returns the (game, state, seed) cases."""
    cases = []
    cores = os.path.join(os.path.dirname(retro.__file__), "cores")
    for folder in sorted(os.listdir(os.path.join(SOURCE, "tests", "roms"))):
        manifest = os.path.join(SOURCE, "tests", "roms", folder, "rom.json")
        if not os.path.exists(manifest):
            continue
        m = json.load(open(manifest))
        system = m["system"]
        if system not in CORES or not os.path.exists(os.path.join(cores, CORES[system] + "_libretro.so")):
            continue
        game = f"RetrogymTest{folder.capitalize()}-{system}"
        d = os.path.join(root, "stable", game)
        os.makedirs(d)
        rom = os.path.join(d, "rom." + EXT[system])
        shutil.copy(os.path.join(SOURCE, "tests", "roms", "bin", m["rom"]), rom)
        data = open(rom, "rb").read()
        open(os.path.join(d, "rom.sha"), "w").write(hashlib.sha1(data[16:] if system == "Nes" else data).hexdigest()
                                                     + "\n")
        pad = m["pad"]
        pad_type = "|u1" if pad["bytes"] == 1 else ("<" if pad["endian"] == "little" else ">") + "u2"
        json.dump({"info": {"counter": {"address": m["counter"]["addr"], "type": "|u1"},
                            "pad": {"address": pad["addr"], "type": pad_type}}}, open(os.path.join(d, "data.json"), "w"))
        json.dump({"reward": {"variables": {"counter": {"reward": 1, "penalty": 1},
                                            "pad": {"measurement": "absolute", "reward": 0.5}}},
                   "done": {"variables": {"counter": {"op": "equal", "reference": 200}}}},
                  open(os.path.join(d, "scenario.json"), "w"))
        json.dump({"default_state": "Start"}, open(os.path.join(d, "metadata.json"), "w"))
        env = dict(os.environ, RETROGYM_CORE_PATH=cores)
        subprocess.run([cli, "run", rom, "--core", CORES[system], "--frames", "90", "--quiet",
                        "--state-out", os.path.join(d, "Start.state")], env=env, check=True, capture_output=True)
        cases.append((game, "Start", 3, CORES[system]))
    return cases


def reference_trace(game, state, steps, seed, masks_path, inttype):
    env = retro.make(game=game, state=state, use_restricted_actions=retro.Actions.ALL, render_mode=None,
                     inttype=inttype)
    try:
        env.reset()
        rng = np.random.default_rng(seed)
        trace = []
        with open(masks_path, "w") as f:
            a = None
            for t in range(steps):
                if t % 4 == 0:
                    a = rng.integers(0, 2, size=env.num_buttons)
                    a = [int(a[i]) if env.buttons[i] is not None else 0 for i in range(env.num_buttons)]
                f.write(f"{sum(int(a[i]) << i for i in range(env.num_buttons))}\n")
                _, reward, terminated, _, info = env.step(np.array(a, dtype=np.int8))
                trace.append((t, float(reward), int(terminated)))
                if terminated:
                    break
        return trace, info
    finally:
        env.close()


def retrogym_trace(cli, game, state, masks_path, data_root, core):
    package = os.path.dirname(retro.__file__)
    env = dict(os.environ, RETROGYM_CORE_PATH=os.path.join(package, "cores"))
    args = [cli, "play", game, "--data-path", data_root, "--integrations", "all", "--state", state,
            "--input", masks_path, "--trace"] + (["--core", core] if core else [])
    out = subprocess.run(args, env=env, check=True, capture_output=True, text=True).stdout
    trace = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 4 and parts[0].isdigit():
            trace.append((int(parts[0]), float(parts[1]), int(parts[3])))
    return trace, out


def main():
    cli = sys.argv[1]
    steps = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    failed = False
    package_data = os.path.join(os.path.dirname(retro.__file__), "data")
    with tempfile.TemporaryDirectory() as tmp:
        ours_root = os.path.join(tmp, "data")
        os.makedirs(os.path.join(ours_root, "stable"))
        cases = [(g, s, seed, None, package_data, retro.data.Integrations.STABLE) for g, s, seed in CASES]
        retro.data.Integrations.add_custom_path(os.path.join(ours_root, "stable"))
        cases += [(g, s, seed, core, ours_root, retro.data.Integrations.CUSTOM_ONLY)
                  for g, s, seed, core in make_test_rom_games(cli, ours_root)]
        for game, state, seed, core, root, inttype in cases:
            masks = os.path.join(tmp, f"{game}-{seed}.txt")
            ref, info = reference_trace(game, state, steps, seed, masks, inttype)
            ours, text = retrogym_trace(cli, game, state, masks, root, core)
            total = sum(r for _, r, _ in ref)
            if ours != ref:
                failed = True
                first = next((i for i, (a, b) in enumerate(zip(ref, ours)) if a != b), min(len(ref), len(ours)))
                print(f"FAIL {game} {state} seed {seed}: {len(ref)} reference steps, {len(ours)} ours; first "
                      f"difference at step {first}: reference {ref[first] if first < len(ref) else None}, "
                      f"ours {ours[first] if first < len(ours) else None}")
            else:
                print(f"ok   {game} {state} seed {seed}: {len(ref)} steps identical, total reward {total:g}, "
                      f"final info {info}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
