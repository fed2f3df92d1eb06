"""Steps per second of retrogym against stable-retro, side by side in one run, on the same core and ROM.

stable-retro's wheel ships its libretro cores and one ROM, Airstriker-Genesis, with its integration; retrogym's host
loads those very cores, so the emulator work is identical and the difference is each library's own per-step cost.
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

GAME, STATE = "Airstriker-Genesis-v0", "Level1"
SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def actions(n_buttons, frames, seed=5):
    rng = np.random.default_rng(seed)
    out = []
    a = None
    for t in range(frames):
        if t % 4 == 0:
            a = rng.integers(0, 2, size=n_buttons).astype(np.int8)
        out.append(a)
    return out


def run_stable_retro(obs_type, frameskip, acts):
    env = stable_retro.make(GAME, state=STATE, obs_type=obs_type, use_restricted_actions=stable_retro.Actions.ALL,
                            render_mode=None)
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


def run_retrogym(obs_type, frameskip, acts):
    env = retrogym.make(GAME, state=STATE, obs_type=obs_type, use_restricted_actions=retrogym.Actions.ALL,
                        frameskip=frameskip)
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


def raw_core_fps(frames):
    """Frames/s of the bare core on the same ROM: retrogym's C benchmark (input + rg_emu_run only)."""
    exe = os.path.join(SOURCE, "build", "bench", "bench_host")
    rom = os.path.join(PACKAGE, "data", "stable", GAME, "rom.md")
    if not os.path.exists(exe):
        return None
    out = subprocess.run([exe, "--rounds", "5", "--frames", str(frames), rom], capture_output=True, text=True,
                         env=dict(os.environ)).stdout
    for line in out.splitlines():
        if line.startswith("rom.md"):
            return float(line.split()[2])
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--frames", type=int, default=2400)
    args = ap.parse_args()
    acts = actions(12, args.frames)
    print(f"retrogym vs stable-retro {stable_retro.__version__ if hasattr(stable_retro, '__version__') else ''}: "
          f"{GAME} {STATE}, core genesis_plus_gx (stable-retro's), {args.frames} frames per run, "
          f"median of {args.rounds} alternating rounds")
    raw = raw_core_fps(args.frames)
    print(f"raw core: {raw:.0f} frames/s" if raw else "raw core: (build/bench/bench_host missing)")
    print(f"{'obs':5} {'skip':>4} {'stable-retro':>13} {'retrogym':>10} {'speed-up':>9} {'frames/s':>9} "
          f"{'over raw':>9}")
    for obs_name, sr_obs, rg_obs in [("rgb", stable_retro.Observations.IMAGE, retrogym.Observations.IMAGE),
                                     ("ram", stable_retro.Observations.RAM, retrogym.Observations.RAM)]:
        for skip in (1, 4):
            sr, rg = [], []
            for _ in range(args.rounds):
                sr.append(run_stable_retro(sr_obs, skip, acts))
                rg.append(run_retrogym(rg_obs, skip, acts))
            s, g = statistics.median(sr), statistics.median(rg)
            fps = g * skip
            over = f"{(raw / fps - 1) * 100:+.1f}%" if raw else "-"
            print(f"{obs_name:5} {skip:>4} {s:>13.0f} {g:>10.0f} {g / s:>8.2f}x {fps:>9.0f} {over:>9}")


if __name__ == "__main__":
    main()
