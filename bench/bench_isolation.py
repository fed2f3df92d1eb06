"""What isolation costs: make_vec(isolation="process") (worker processes, shared-memory batches, a watchdog) against
the default worker threads, side by side in one run, alternating rounds (threads first in even rounds, processes
first in odd ones), same game, seed, actions and settings, 4 frames per step.

Games: Pong on our own Atari 2600 core with the ALE preprocessing (84x84 grayscale, max-pool, 4 stacked frames: the
lightest emulation, where the hand-over costs most), StarCatcher-Nes on nestopia (RGB 224x256) and Airstriker-Genesis
on genesis_plus_gx (RGB 224x320, the heaviest), where present. Each round makes a vector env, resets it, steps it 20
times untimed, then for --seconds with random actions; steps/s are env steps (x4 frames). CPU per step, from the
reset to the last step, over all those steps: this process's CPU time (process_time: the caller and, with threads,
the workers) plus, with processes, the workers' CPU time over their lives (RUSAGE_CHILDREN: they are forked after the
environments are made and reaped by close()). Reported: medians over the
rounds with min..max, and the median of the per-round ratios. The workload is checked: rewards must be non-zero and
episodes must run (Pong's last several thousand frames).

usage: .venv/bin/python bench/bench_isolation.py [--rounds R] [--seconds S] [--envs N] [--threads T]
"""
import argparse
import os
import resource
import shutil
import statistics
import tempfile
import time

import numpy as np

import retrogym

GAMES = {
    "Pong-Atari2600-v0": dict(use_restricted_actions=retrogym.Actions.DISCRETE,
                              frameskip=4, max_pool=True, grayscale=True, resize=(84, 84), frame_stack=4,
                              core="atari2600"),
    "StarCatcher-Nes": dict(use_restricted_actions=retrogym.Actions.DISCRETE, frameskip=4),
    "Airstriker-Genesis-v0": dict(state="Level1", use_restricted_actions=retrogym.Actions.DISCRETE, frameskip=4),
}


def pong_root():
    """A data root with stable-retro's Pong integration and ale-py's ROM (as bench_atari_vec.py makes it), or None."""
    try:
        import ale_py
        import stable_retro
    except ImportError:
        return None
    rom = os.path.join(os.path.dirname(ale_py.__file__), "roms", "pong.bin")
    src = os.path.join(os.path.dirname(stable_retro.__file__), "data", "stable", "Pong-Atari2600-v0")
    if not (os.path.isfile(rom) and os.path.isdir(src)):
        return None
    root = tempfile.mkdtemp(prefix="retrogym-bench-")
    dst = os.path.join(root, "stable", "Pong-Atari2600-v0")
    shutil.copytree(src, dst)
    shutil.copy(rom, os.path.join(dst, "rom.a26"))
    return root


def runnable(game):
    try:
        retrogym.make(game).close()
        return True
    except (FileNotFoundError, ValueError, RuntimeError) as e:
        print(f"{game}: skipped ({str(e)[:100]})")
        return False


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def one_round(game, kwargs, isolation, envs, threads, seconds, seed):
    c_before = children_cpu()  # the workers' whole lives (forked after creation, reaped by close)
    vec = retrogym.make_vec(game, envs, num_threads=threads, isolation=isolation, seed=seed, **kwargs)
    rng = np.random.default_rng(seed)
    k = vec.single_action_space.n
    acts = rng.integers(0, k, size=(256, envs))
    cpu0 = time.process_time()
    vec.reset(seed=seed)
    for i in range(20):
        vec.step(acts[i])
    steps, reward, ends = 0, 0.0, 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        _, r, term, trunc, _ = vec.step(acts[steps % 256])
        reward += float(np.abs(r).sum())
        ends += int(term.sum() + trunc.sum())
        steps += 1
    wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    vec.close()
    cpu += children_cpu() - c_before
    # CPU per step over the reset, the 20 warm-up steps and the timed ones (all of a worker process's life)
    return dict(rate=steps * envs / wall, cpu_us=1e6 * cpu / ((steps + 21) * envs), reward=reward, ends=ends)


def fmt(values, unit=""):
    return f"{statistics.median(values):8.0f}{unit} ({min(values):.0f}..{max(values):.0f})"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--envs", type=int, default=8)
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--games", nargs="*", default=list(GAMES))
    args = ap.parse_args()
    root = pong_root()
    if root:
        os.environ["RETROGYM_DATA_PATH"] = root
    print(f"{os.cpu_count()} CPUs; {args.envs} envs on {args.threads} workers; 4 frames per step; {args.rounds} "
          f"alternating rounds of {args.seconds:g} s; env steps/s and CPU us per env step: median (min..max)")
    for game in args.games:
        if not runnable(game):
            continue
        res = {"threads": [], "process": []}
        for r in range(args.rounds):
            order = ("threads", "process") if r % 2 == 0 else ("process", "threads")
            for iso in order:
                res[iso].append(one_round(game, GAMES[game], iso, args.envs, args.threads, args.seconds, r))
        for iso in res:
            total = sum(x["reward"] for x in res[iso])
            if game != "StarCatcher-Nes" and total == 0:
                raise SystemExit(f"{game} ({iso}): no reward in any round: the game is not running")
        ratios = [p["rate"] / t["rate"] for t, p in zip(res["threads"], res["process"])]
        print(f"{game}:")
        for iso in res:
            rates = [x["rate"] for x in res[iso]]
            cpus = [x["cpu_us"] for x in res[iso]]
            print(f"  {iso:8} {fmt(rates, ' steps/s')}  {fmt(cpus, ' us CPU/step')}  |reward| "
                  f"{sum(x['reward'] for x in res[iso]):.0f}, episodes ended {sum(x['ends'] for x in res[iso])}")
        print(f"  processes / threads: {statistics.median(ratios):.3f} (per-round {min(ratios):.3f}.."
              f"{max(ratios):.3f})", flush=True)
    if root:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
