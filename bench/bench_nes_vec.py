"""make_vec on Super Mario Bros. per NES core: our core (core="nes") against FCEUmm (core="fceumm"), the same
preprocessing as the Atari benchmarks (84x84 grayscale, 4 stacked frames, frame skip 4), seeded random actions.

The ROM is gym-super-mario-bros' (its wheel in .venv), imported as SuperMarioBros-Nes's ROM into a temporary data
root (python -m retrogym.import --force, as python/tests/test_library.py does). Every measurement runs in a fresh
process (this script with --one): make the vector env, reset, 20 untimed steps, then steps for --seconds; it reports
env steps/s and CPU time per env step (process_time: the C worker threads included) and checks the game ran
(observations changed). Rounds alternate the cores' order; printed: median steps/s [min-max], median CPU us per step
[min-max], and ours over FCEUmm (median of per-round ratios).

usage: .venv/bin/python bench/bench_nes_vec.py [--rounds 5] [--seconds 5] [--envs 1 2]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

CORES = ("nes", "fceumm")


def one(core, envs, seconds):
    import numpy as np
    import retrogym

    env = retrogym.make_vec("SuperMarioBros-Nes", envs, grayscale=True, resize=(84, 84), frame_stack=4,
                            frameskip=4, core=core, seed=0)
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=0)
    first = obs.copy()
    space = env.single_action_space
    n_act = int(np.prod(space.shape)) if space.shape else 1

    def actions():
        return rng.integers(0, 2, size=(envs, n_act), dtype=np.int8) if space.shape else rng.integers(
            0, space.n, size=envs)

    for _ in range(20):
        obs, *_ = env.step(actions())
    steps, changed = 0, 0
    prev = obs.copy()
    c0, t0 = time.process_time(), time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for _ in range(25):
            obs, *_ = env.step(actions())
            steps += 1
        changed += int(not np.array_equal(obs, prev))
        prev = obs.copy()
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    env.close()
    return {"steps_s": steps * envs / wall, "cpu_us": cpu / (steps * envs) * 1e6, "changed": changed,
            "obs": list(first.shape)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--envs", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--one", nargs=2, metavar=("CORE", "ENVS"))
    a = ap.parse_args()
    if a.one:
        print(json.dumps(one(a.one[0], int(a.one[1]), a.seconds)))
        return 0
    import importlib.util

    spec = importlib.util.find_spec("gym_super_mario_bros")  # found, not imported (it needs nes_py)
    if spec is None:
        print("skipped: gym-super-mario-bros is not installed in .venv (make venv)")
        return 0
    rom = os.path.join(os.path.dirname(spec.origin), "_roms", "super-mario-bros.nes")
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, XDG_DATA_HOME=tmp)
        out = subprocess.run([sys.executable, "-m", "retrogym.import", "--force", "SuperMarioBros-Nes", rom],
                             capture_output=True, text=True, env=env)
        if out.returncode:
            print("import failed:", out.stderr)
            return 1
        print(f"make_vec SuperMarioBros-Nes, 84x84 grayscale, 4 stacked, frame skip 4; {a.rounds} rounds of "
              f"{a.seconds:g} s, load {os.getloadavg()[0]:.1f}")
        for envs in a.envs:
            res = {c: [] for c in CORES}
            for r in range(a.rounds):
                order = CORES if r % 2 == 0 else CORES[::-1]
                for core in order:
                    p = subprocess.run([sys.executable, __file__, "--one", core, str(envs), "--seconds",
                                        str(a.seconds)], capture_output=True, text=True, env=env)
                    if p.returncode:
                        print(core, "failed:", p.stderr[-2000:])
                        return 1
                    got = json.loads(p.stdout.strip().splitlines()[-1])
                    if got["changed"] == 0:
                        print(core, "the game did not run (observations unchanged)")
                        return 1
                    res[core].append(got)
            for core in CORES:
                s = sorted(x["steps_s"] for x in res[core])
                u = sorted(x["cpu_us"] for x in res[core])
                print(f"  envs={envs} {core:8s} steps/s {statistics.median(s):8.0f} [{s[0]:.0f}-{s[-1]:.0f}]  "
                      f"CPU us/step {statistics.median(u):7.0f} [{u[0]:.0f}-{u[-1]:.0f}]")
            ratio = statistics.median(x["steps_s"] / y["steps_s"] for x, y in zip(res["nes"], res["fceumm"]))
            print(f"  envs={envs} ours/fceumm {ratio:.2f}x (median of per-round ratios)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
