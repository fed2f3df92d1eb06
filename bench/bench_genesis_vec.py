"""make_vec on Airstriker-Genesis from its Level1 state, side by side in one run: retrogym on our Genesis core
(core="genesis"), retrogym on Genesis Plus GX (core=<stable-retro's genesis_plus_gx_libretro.so>), stable-retro's own
RetroEnv in Gymnasium's AsyncVectorEnv (one process per environment, Gymnasium's wrappers doing the preprocessing) and,
where .venv-turbo holds it, stable-retro-turbo's RetroVecEnv (its C++ pool with native preprocessing). Like for like:
84x84 grayscale, 4 stacked frames, frame skip 4 (the action repeated, rewards summed, the last frame kept, no
max-pool), area resize (Gymnasium's ResizeObservation is OpenCV's INTER_AREA; turbo's obs_resize_algorithm="area"),
random button presses seeded by the round (the same for every engine), threads = min(envs, CPUs). The ROM is stable-retro's (its wheel in .venv).

Every measurement runs in a fresh process (this script with --one): make the vector env, reset, 20 untimed steps,
then steps for --seconds; it reports env steps/s and CPU time per env step (its own process_time, which covers the C
and C++ worker threads, plus, for AsyncVectorEnv, its worker processes' CPU read from /proc), and checks the game
ran: summed |reward|, ended episodes and observation changes. Rounds rotate the engines' order; printed: median steps/s
(min..max), median CPU us per env step (min..max), and each engine against retrogym on our core (median of per-round
ratios) of steps/s ("vs genesis") and of CPU per step ("CPU/gen": how many times our core's CPU per step it spends).

usage: .venv/bin/python bench/bench_genesis_vec.py [--rounds 3] [--seconds 2] [--envs 1 2 4 8] [--engines ...]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

from bench_atari_vec import worker_cpu  # CPU seconds of live processes, from /proc

SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TURBO_PY = os.path.join(SOURCE, ".venv-turbo", "bin", "python")
GAME = "Airstriker-Genesis"
RETRO_GAME = "Airstriker-Genesis-v0"
STATE = "Level1"
ENGINES = ("genesis", "gpgx", "sr-async", "sr-turbo")


# ---- one measurement (a fresh process) ----

def make_retrogym(core, n, paths):
    import retrogym
    return retrogym.make_vec(GAME, n, num_threads=min(n, os.cpu_count()), state=STATE, grayscale=True,
                             resize=(84, 84), frame_stack=4, frameskip=4, core=core, seed=0), None


def make_sr_async(n, paths):
    import gymnasium as gym
    import numpy as np
    import stable_retro

    class Skip(gym.Wrapper):
        """The action held for `skip` frames, rewards summed, the last frame returned (retrogym's frameskip=4)."""

        def __init__(self, env, skip):
            super().__init__(env)
            self.skip = skip

        def step(self, action):
            total = 0.0
            for _ in range(self.skip):
                obs, r, term, trunc, info = self.env.step(action)
                total += float(r)
                if term or trunc:
                    break
            return obs, total, term, trunc, info

    def one():
        e = stable_retro.make(RETRO_GAME, state=STATE, render_mode=None)
        e = Skip(e, 4)
        e = gym.wrappers.GrayscaleObservation(e, keep_dim=False)
        e = gym.wrappers.ResizeObservation(e, (84, 84))
        return gym.wrappers.FrameStackObservation(e, 4)

    assert np  # imported for the workers' pickling of the observation space
    env = gym.vector.AsyncVectorEnv([one] * n)
    return env, [p.pid for p in env.processes]


def make_sr_turbo(n, paths):
    from stable_retro.vec_env import RetroVecEnv
    return RetroVecEnv(RETRO_GAME, state=STATE, num_envs=n, num_threads=min(n, os.cpu_count()), rom_path=paths["rom"],
                       render_mode=None, obs_grayscale=True, obs_resize=(84, 84), obs_resize_algorithm="area",
                       obs_layout="chw", frame_skip=4, frame_stack=4, use_fire_reset=False), None


def measure(engine, n, seconds, paths, seed):
    import numpy as np
    if engine == "genesis":
        env, pids = make_retrogym("genesis", n, paths)
    elif engine == "gpgx":
        env, pids = make_retrogym(paths["gpgx"], n, paths)
    elif engine == "sr-async":
        env, pids = make_sr_async(n, paths)
    else:
        env, pids = make_sr_turbo(n, paths)
    rng = np.random.default_rng(seed)
    space = env.single_action_space
    buttons = int(np.prod(space.shape))
    acts = rng.integers(0, 2, size=(512, n, buttons), dtype=np.int8)
    obs, _ = env.reset(seed=seed)
    for i in range(20):
        obs, *_ = env.step(acts[i])
    steps, reward, ends, changed = 0, 0.0, 0, 0
    prev = first = np.array(obs, copy=True)
    cpu0, w0, t0 = time.process_time(), worker_cpu(pids or []), time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        obs, r, term, trunc, _ = env.step(acts[steps % 512])
        reward += float(np.abs(r).sum())
        ends += int(np.sum(term) + np.sum(trunc))
        steps += 1
        if steps % 25 == 0:
            changed += int(not np.array_equal(obs, prev))
            prev = np.array(obs, copy=True)
    wall = time.perf_counter() - t0
    cpu = time.process_time() - cpu0 + worker_cpu(pids or []) - w0
    changed += int(not np.array_equal(obs, first))  # a run of under 25 steps (8 envs) is checked here
    shape = list(np.asarray(obs).shape)
    env.close()
    return dict(rate=steps * n / wall, cpu_us=1e6 * cpu / (steps * n), reward=reward, ends=ends, changed=changed,
                steps=steps * n, obs=shape)


# ---- the driver ----

FAILED = {}  # engine: runs that stopped on a StateError (retried with the next seed)


def run_one(engine, n, seconds, paths, seed):
    py = TURBO_PY if engine == "sr-turbo" else sys.executable
    for attempt in range(4):
        cmd = [py, os.path.abspath(__file__), "--one", engine, str(n), str(seconds), json.dumps(paths),
               str(seed + 1000 * attempt)]
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        if out.returncode == 0:
            return json.loads(out.stdout.strip().splitlines()[-1])
        if "StateError" not in out.stderr:
            break
        # 2026-11-27: our Genesis core saves, at some step boundaries of Airstriker's Level1, a state its own load
        # check refuses ("bad cpu cycles (not at the frame's start)"); an episode that ends inside a frame skip goes
        # back to such a mark and the step fails. Counted and printed, the run repeated with another seed.
        FAILED[engine] = FAILED.get(engine, 0) + 1
        print(f"  ({engine} x{n} seed {seed + 1000 * attempt}: {out.stderr.strip().splitlines()[-1][:160]})",
              flush=True)
    raise SystemExit(f"{engine} x{n}: {out.stderr.strip()[-1500:]}")


def fmt(values, width=7):
    return f"{statistics.median(values):{width}.0f} ({min(values):.0f}..{max(values):.0f})"


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--one":
        engine, n, seconds, paths, seed = sys.argv[2:7]
        print(json.dumps(measure(engine, int(n), float(seconds), json.loads(paths), int(seed))))
        return 0
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--envs", type=int, nargs="*", default=[1, 2, 4, 8])
    ap.add_argument("--engines", nargs="*", default=list(ENGINES))
    args = ap.parse_args()
    import importlib.util
    spec = importlib.util.find_spec("stable_retro")  # found, not imported
    if spec is None:
        print("skipped: stable-retro is not installed in .venv (make venv): no Airstriker ROM, no GPGX")
        return 0
    folder = os.path.dirname(spec.origin)
    paths = {"rom": os.path.join(folder, "data", "stable", RETRO_GAME, "rom.md"),
             "gpgx": os.path.join(folder, "cores", "genesis_plus_gx_libretro.so")}
    for what, path in paths.items():
        if not os.path.exists(path):
            print(f"skipped: stable-retro's wheel has no {what} ({path})")
            return 0
    engines = [e for e in args.engines if e != "sr-turbo" or os.path.exists(TURBO_PY)]
    if "sr-turbo" in args.engines and "sr-turbo" not in engines:
        print("sr-turbo: no .venv-turbo (make bench-genesis-vec makes it): its column is left out")
    print(f"{time.strftime('%Y-%m-%d %H:%M %Z')}; {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}; {GAME} "
          f"from {STATE}; 84x84 gray, stack 4, frame skip 4, random buttons; {args.rounds} rotating rounds of "
          f"{args.seconds:g} s; steps/s and CPU us per env step: median (min..max); ratios = engine / genesis, "
          f"median of per-round ratios")
    print(f"{'envs':>4} {'engine':>9} {'steps/s':>20} {'CPU us/step':>18} {'vs genesis':>11} {'CPU/gen':>8} "
          f"{'|reward|':>9} {'episodes':>8} {'changed':>7} obs")
    for n in args.envs:
        res = {e: [] for e in engines}
        for r in range(args.rounds):
            for e in engines[r % len(engines):] + engines[:r % len(engines)]:
                res[e].append(run_one(e, n, args.seconds, paths, r))
        for e in engines:
            rows = res[e]
            if sum(x["reward"] for x in rows) == 0 or min(x["changed"] for x in rows) == 0:
                raise SystemExit(f"{e} x{n}: no reward in any round or a still picture: the game is not running")
            base = res.get("genesis")
            ratios = [x["rate"] / y["rate"] for x, y in zip(rows, base)] if base else [float("nan")]
            cpu_ratios = [x["cpu_us"] / y["cpu_us"] for x, y in zip(rows, base)] if base else [float("nan")]
            print(f"{n:>4} {e:>9} {fmt([x['rate'] for x in rows]):>20} {fmt([x['cpu_us'] for x in rows]):>18} "
                  f"{statistics.median(ratios):>10.2f}x {statistics.median(cpu_ratios):>7.2f}x "
                  f"{sum(x['reward'] for x in rows):>9.0f} {sum(x['ends'] for x in rows):>8} "
                  f"{min(x['changed'] for x in rows):>7} {tuple(rows[0]['obs'][1:])}", flush=True)
    if FAILED:
        print("runs that failed on a StateError and were repeated with another seed:", FAILED)
    return 0


if __name__ == "__main__":
    sys.exit(main())
