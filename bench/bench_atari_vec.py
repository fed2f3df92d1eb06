"""Atari vector environments: retrogym's pool on our own Atari 2600 core against ale-py's AtariVectorEnv (C++
threads, Stella inside), side by side in one run, same ROM, same preprocessing (84x84 grayscale, 4 stacked frames,
frame skip 4 with max-pool of the last two frames, reward clipping), random actions from the minimal action set,
for num_envs in {1, 2, 4, 8, 16}. Steps/s (x4 = frames/s).

retrogym uses the game's stable-retro integration (data.json, scenario.json) with the ROM from ale-py, starting
from power-on (State.NONE). ale-py additionally presses FIRE at reset and starts with up to 30 no-ops; both are
per-episode costs, negligible over the measured seconds.

usage: .venv/bin/python bench/bench_atari_vec.py [--seconds S] [--max-envs N] [--game breakout]
"""
import argparse
import os
import shutil
import tempfile
import time

import numpy as np


def timed(step, sample, seconds):
    for _ in range(20):
        step(sample())
    steps, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        step(sample())
        steps += 1
    return steps / (time.perf_counter() - t0)


def bench_ale(game, n, seconds):
    from ale_py.vector_env import AtariVectorEnv
    env = AtariVectorEnv(game, n, num_threads=min(n, os.cpu_count()), noop_max=30, reward_clipping=True)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    k = env.single_action_space.n
    rate = timed(env.step, lambda: rng.integers(0, k, size=n), seconds) * n
    env.close()
    return rate


def data_root(game_name, rom):
    """A data root holding a copy of stable-retro's integration of the game plus ale-py's ROM."""
    import stable_retro
    src = os.path.join(os.path.dirname(stable_retro.__file__), "data", "stable", game_name)
    root = tempfile.mkdtemp(prefix="retrogym-bench-")
    dst = os.path.join(root, "stable", game_name)
    shutil.copytree(src, dst)
    shutil.copy(rom, os.path.join(dst, "rom.a26"))
    return root


def bench_retrogym(name, n, seconds):
    import retrogym
    env = retrogym.make_vec(name, n, num_threads=min(n, os.cpu_count()), state=retrogym.State.NONE,
                            use_restricted_actions=retrogym.Actions.DISCRETE, frameskip=4, max_pool=True,
                            grayscale=True, resize=(84, 84), frame_stack=4, reward_clip=1.0, core="atari2600")
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    k = env.single_action_space.n
    rate = timed(env.step, lambda: rng.integers(0, k, size=n), seconds) * n
    env.close()
    return rate


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--max-envs", type=int, default=16)
    ap.add_argument("--game", default="breakout", help="ale-py ROM name (its stable-retro integration must exist)")
    args = ap.parse_args()
    import ale_py
    rom = os.path.join(os.path.dirname(ale_py.__file__), "roms", args.game + ".bin")
    name = "".join(p.capitalize() for p in args.game.split("_")) + "-Atari2600-v0"
    root = data_root(name, rom)
    os.environ["RETROGYM_DATA_PATH"] = root
    try:
        print(f"{args.game}: 84x84 gray, stack 4, frame skip 4 + max-pool, clipped rewards; {os.cpu_count()} CPUs; "
              f"{args.seconds:g} s per measurement; steps/s")
        print(f"{'envs':>4} {'ale-py':>9} {'retrogym':>9} {'ratio':>7}")
        n = 1
        while n <= args.max_envs:
            a = bench_ale(args.game, n, args.seconds)
            r = bench_retrogym(name, n, args.seconds)
            print(f"{n:>4} {a:>9.0f} {r:>9.0f} {r / a:>6.2f}x", flush=True)
            n *= 2
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
