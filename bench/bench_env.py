"""Steps per second of retrogym against stable-retro, side by side in one run, on the same core and ROM.

stable-retro's wheel ships its libretro cores and one ROM, Airstriker-Genesis, with its integration; retrogym's host
loads those very cores, so the emulator work is identical and the difference is each library's own per-step cost.
Besides Airstriker (a heavy core, genesis_plus_gx), our own test ROMs run as integrations made on the fly (as in
tests/compat) on stable-retro's lighter cores: stella, fceumm, gambatte, snes9x.
Both run the same seeded random MultiBinary input (held 4 frames) from the same state, in alternating rounds (the
machine's noise hits both alike), for RGB and RAM observations, at frame skip 1 and 4 (stable-retro has no frame
skip: its step is called 4 times per agent step, summing rewards, as a frame-skip wrapper does). The raw core's
frames/s (retrogym's bench_host, `rg_emu_run` with input only) gives our overhead per step above the core.

usage: .venv/bin/python bench/bench_env.py [--rounds N] [--frames N]       (make bench-env)
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

import numpy as np

try:
    import stable_retro
except ImportError:
    sys.exit("bench_env: stable-retro is not installed (make venv)")

PACKAGE = os.path.dirname(stable_retro.__file__)
# retrogym must find stable-retro's integration and cores: both come from stable-retro's package.
os.environ["RETROGYM_DATA_PATH"] = os.path.join(PACKAGE, "data")
os.environ["RETROGYM_CORE_PATH"] = os.path.join(PACKAGE, "cores")
import retrogym  # noqa: E402  (after the environment variables)

SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(SOURCE, "tests", "compat"))
import stable_retro_diff  # noqa: E402  (builds the test-ROM integrations)

LIGHT = ("Atari2600", "Nes", "GameBoy", "Snes")


def actions(n_buttons, frames, seed=5):
    rng = np.random.default_rng(seed)
    out = []
    a = None
    for t in range(frames):
        if t % 4 == 0:
            a = rng.integers(0, 2, size=n_buttons).astype(np.int8)
        out.append(a)
    return out


def run_stable_retro(game, state, inttype, obs_type, frameskip, acts):
    env = stable_retro.make(game, state=state, obs_type=obs_type, use_restricted_actions=stable_retro.Actions.ALL,
                            render_mode=None, inttype=inttype)
    try:
        env.reset(seed=0)
        steps = len(acts) // frameskip
        t0 = time.perf_counter()
        for s in range(steps):
            a = acts[s * frameskip]
            for _ in range(frameskip):
                _, r, term, trunc, _ = env.step(a)
                if term:
                    env.reset()
                    break
        return steps / (time.perf_counter() - t0)
    finally:
        env.close()


def run_retrogym(game, state, core, obs_type, frameskip, acts):
    env = retrogym.make(game, state=state, obs_type=obs_type, use_restricted_actions=retrogym.Actions.ALL,
                        frameskip=frameskip, inttype=retrogym.Integrations.ALL, **({"core": core} if core else {}))
    try:
        env.reset(seed=0)
        steps = len(acts) // frameskip
        t0 = time.perf_counter()
        for s in range(steps):
            _, r, term, trunc, _ = env.step(acts[s * frameskip])
            if term or trunc:
                env.reset()
        return steps / (time.perf_counter() - t0)
    finally:
        env.close()


def raw_core_fps(rom, frames):
    """Frames/s of the bare core on the same ROM: retrogym's C benchmark (input + rg_emu_run only)."""
    exe = os.path.join(SOURCE, "build", "bench", "bench_host")
    if not os.path.exists(exe):
        return None
    out = subprocess.run([exe, "--rounds", "5", "--frames", str(frames), rom], capture_output=True, text=True,
                         env=dict(os.environ)).stdout
    for line in out.splitlines():
        parts = line.split()
        if line.startswith(os.path.basename(rom)) and len(parts) > 2 and parts[2].isdigit():
            return float(parts[2])
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--frames", type=int, default=2400)
    args = ap.parse_args()
    import tempfile
    tmp = tempfile.mkdtemp(prefix="bench-env-")
    root = os.path.join(tmp, "data")
    os.makedirs(os.path.join(root, "stable"))
    cli = os.path.join(SOURCE, "build", "cli", "retrogym")
    stable_retro_diff.retro = stable_retro
    made = {g.split("-")[1]: (g, s, core) for g, s, _, core in stable_retro_diff.make_test_rom_games(cli, root)}
    stable_retro.data.Integrations.add_custom_path(os.path.join(root, "stable"))
    retrogym.data.add_custom_path(os.path.join(root, "stable"))
    games = [("Airstriker-Genesis-v0", "Level1", None, stable_retro.data.Integrations.STABLE,
              os.path.join(PACKAGE, "data", "stable", "Airstriker-Genesis-v0", "rom.md"))]
    for system in LIGHT:
        if system in made:
            g, s, core = made[system]
            ext = stable_retro_diff.EXT[system]
            games.append((g, s, core, stable_retro.data.Integrations.CUSTOM_ONLY,
                          os.path.join(root, "stable", g, "rom." + ext)))
    print(f"retrogym vs stable-retro: same cores (stable-retro's), same ROMs and states, {args.frames} frames per "
          f"run, median of {args.rounds} alternating rounds; steps/s")
    print(f"{'game':32} {'obs':4} {'skip':>4} {'stable-retro':>12} {'retrogym':>9} {'speed-up':>8} "
          f"{'raw core fps':>12} {'ours over raw':>13}")
    for game, state, core, inttype, rom in games:
        raw = raw_core_fps(rom, args.frames)
        for obs_name, sr_obs, rg_obs in [("rgb", stable_retro.Observations.IMAGE, retrogym.Observations.IMAGE),
                                         ("ram", stable_retro.Observations.RAM, retrogym.Observations.RAM)]:
            for skip in (1, 4):
                buttons = retrogym.get_system_info(game.split("-")[1])["buttons"]
                acts = [a * np.array([b is not None for b in buttons], dtype=np.int8)
                        for a in actions(len(buttons), args.frames)]
                sr, rg = [], []
                for _ in range(args.rounds):
                    sr.append(run_stable_retro(game, state, inttype, sr_obs, skip, acts))
                    rg.append(run_retrogym(game, state, core, rg_obs, skip, acts))
                s, g = statistics.median(sr), statistics.median(rg)
                over = f"{(raw / (g * skip) - 1) * 100:+.1f}%" if raw else "-"
                print(f"{game:32} {obs_name:4} {skip:>4} {s:>12.0f} {g:>9.0f} {g / s:>7.2f}x "
                      f"{raw or 0:>12.0f} {over:>13}", flush=True)


if __name__ == "__main__":
    main()
