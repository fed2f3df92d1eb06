"""Vector-environment throughput: retrogym's C pool against stable-retro under gymnasium's AsyncVectorEnv and
stable-baselines3's SubprocVecEnv (one subprocess per environment; SB3 only when installed, `make venv-rl`) and
against stable-retro-turbo's native RetroVecEnv, side by side in one run, on
the same core and ROM (Airstriker-Genesis on stable-retro's genesis_plus_gx), for num_envs in {1, 2, 4, 8, 16}.

stable-retro-turbo installs a module named `stable_retro` too, so it lives in its own environment (.venv-turbo,
`make bench-pool` makes it); this script runs itself there with --turbo for those rows.

Every library gets the same random MultiBinary actions; frames/s = env steps/s (one frame per step, RGB
observations, no preprocessing). "limit" is the raw core's frames/s times the cores in use, min(num_envs, CPUs):
the physical limit. The raw core is measured by bench_lanes (retro_run with the host's callbacks only) in rounds that
alternate with retrogym's pool, so that both see the same machine: "raw" is one instance on one thread, "lanes" the
same num_envs instances free-running on min(num_envs, CPUs) threads (what the cores deliver together right now);
retrogym's rate and both raw rates are medians over the rounds, "of limit" and "of lanes" the medians of the
per-round ratios, and the two "best" columns the ratios of the best blocks of each (noise on a shared machine only
ever slows a block down, so the best block is the closest to the undisturbed speed; a synchronous pool loses more to
a preempted thread than free-running lanes do). Memory: resident set growth per environment of retrogym's pool.

With --system GameBoy (or Nes, Snes, Atari2600) the game is instead our own test ROM of that system made into an
integration for both libraries on the fly (as bench_env.py and the differential test do), on stable-retro's core for
it (gambatte, fceumm, snes9x, stella): a light core shows the engines' own cost, a heavy one (genesis_plus_gx) hides
it behind the emulation. stable-retro-turbo is run on Airstriker only.

usage: .venv/bin/python bench/bench_pool.py [--seconds S] [--max-envs N] [--system NAME]
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import time

import numpy as np

SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAME, STATE = "Airstriker-Genesis-v0", "Level1"
CORE, INTTYPE, ROM = None, None, None  # set by --system


def package_dir():
    import stable_retro
    return os.path.dirname(stable_retro.__file__)


def timed(step, n_envs, seconds, n_buttons):
    rng = np.random.default_rng(0)
    acts = rng.integers(0, 2, size=(64, n_envs, n_buttons)).astype(np.int8)
    for k in range(20):  # warm-up
        step(acts[k % 64])
    steps, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        step(acts[steps % 64])
        steps += 1
    return steps * n_envs / (time.perf_counter() - t0)


def bench_turbo(n, seconds, rom):
    import shutil
    import stable_retro as retro
    # stable-retro-turbo's wheel carries Airstriker's integration but not its ROM: take stable-retro's copy.
    target = os.path.join(os.path.dirname(retro.__file__), "data", "stable", GAME, "rom.md")
    if not os.path.exists(target):
        shutil.copy(rom, target)
    env = retro.RetroVecEnv(GAME, state=STATE, num_envs=n, num_threads=min(n, os.cpu_count()),
                            render_mode="rgb_array", use_restricted_actions=retro.Actions.ALL)
    env.reset(seed=0)
    nb = env.single_action_space.shape[0]
    rate = timed(lambda a: env.step(a), n, seconds, nb)
    env.close()
    return rate


def bench_stable_retro(n, seconds):
    import gymnasium
    import stable_retro as retro

    def make():
        return retro.make(GAME, state=STATE, use_restricted_actions=retro.Actions.ALL, render_mode=None,
                          **({"inttype": INTTYPE} if INTTYPE is not None else {}))
    env = gymnasium.vector.AsyncVectorEnv([make] * n) if n > 1 else gymnasium.vector.SyncVectorEnv([make])
    env.reset(seed=0)
    nb = env.single_action_space.shape[0]
    rate = timed(lambda a: env.step(a), n, seconds, nb)
    env.close()
    return rate


def bench_sb3(n, seconds):
    """stable-retro under stable-baselines3's SubprocVecEnv (None when SB3 is not installed: `make venv-rl`)."""
    try:
        from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv
    except ImportError:
        return None
    import stable_retro as retro

    def make():
        return retro.make(GAME, state=STATE, use_restricted_actions=retro.Actions.ALL, render_mode=None,
                          **({"inttype": INTTYPE} if INTTYPE is not None else {}))
    env = SubprocVecEnv([make] * n, start_method="fork") if n > 1 else DummyVecEnv([make])
    env.seed(0)
    env.reset()
    nb = env.action_space.shape[0]
    rate = timed(lambda a: env.step(a), n, seconds, nb)
    env.close()
    return rate


def rss_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def lanes_fps(n, threads, seconds):
    """The raw core's total frames/s with n instances on `threads` threads (bench_lanes), or None."""
    exe = os.path.join(SOURCE, "build", "bench", "bench_lanes")
    rom = ROM or os.path.join(package_dir(), "data", "stable", GAME, "rom.md")
    out = subprocess.run([exe, "--instances", str(n), "--threads", str(threads), "--seconds", str(seconds), rom],
                         capture_output=True, text=True)
    try:
        return float(out.stdout.strip().splitlines()[-1].split()[0])
    except (ValueError, IndexError):
        sys.stderr.write(out.stderr)
        return None


def median(xs):
    xs = sorted(x for x in xs if x is not None)
    return xs[len(xs) // 2] if xs else None


def async_stepper(env, n, nb):
    """EnvPool's loop on a pool of n envs with batch_size n/2: receive a batch, send its actions back. Returns a
    step function for timed() (which counts n env steps per call: two recv/send rounds)."""
    rng = np.random.default_rng(0)
    acts = rng.integers(0, 2, size=(64, env.batch_size, nb)).astype(np.int8)
    state = {"k": 0}

    def step(_):
        for _ in range(2):
            _, _, _, _, info = env.recv()
            env.send(acts[state["k"] % 64], info["env_id"])
            state["k"] += 1
    return step


def bench_retrogym(n, seconds, rounds, frameskip=1, use_async=False):
    """retrogym's pool in `rounds` blocks, each right after a block of the raw core on n instances and the pool's
    threads ("lanes") and one of the raw core alone (one instance, one thread). Returns the medians of the pool's
    frames/s, of the raw rates, and of the per-round ratios pool/limit and pool/lanes (adjacent blocks see the same
    machine: on a shared machine the ratio of neighbours is steadier than the ratio of medians), and the pool's
    resident growth per environment."""
    import retrogym
    before = rss_kib()
    threads = min(n, os.cpu_count())
    env = retrogym.make_vec(GAME, n, num_threads=threads, state=STATE, seed=0, frameskip=frameskip,
                            batch_size=n // 2 if use_async else None, use_restricted_actions=retrogym.Actions.ALL,
                            **({"core": CORE, "inttype": retrogym.Integrations.ALL} if CORE else {}))
    nb = env.single_action_space.shape[0]
    if use_async:
        env.async_reset(seed=0)
        stepper = async_stepper(env, n, nb)
    else:
        env.reset(seed=0)
        stepper = lambda a: env.step(a)  # noqa: E731
    grown = rss_kib() - before
    pool, raw, lanes, of_limit, of_lanes = [], [], [], [], []
    for _ in range(rounds):
        ln = lanes_fps(n, threads, seconds)
        rate = timed(stepper, n, seconds, nb) * frameskip
        r1 = lanes_fps(1, 1, seconds)
        pool.append(rate)
        raw.append(r1)
        lanes.append(ln)
        of_limit.append(rate / (r1 * threads) if r1 else None)
        of_lanes.append(rate / ln if ln else None)
    env.close()
    best = (max(pool), max(raw), max(lanes))
    return dict(pool=median(pool), raw=median(raw), lanes=median(lanes), of_limit=median(of_limit),
                of_lanes=median(of_lanes), best_of_limit=best[0] / (best[1] * threads), best_of_lanes=best[0] / best[2],
                kib=grown / n)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--max-envs", type=int, default=16)
    ap.add_argument("--system", help="our test ROM of this system instead of Airstriker-Genesis")
    ap.add_argument("--rounds", type=int, default=3, help="alternating blocks of raw core and pool per size")
    ap.add_argument("--only-retrogym", action="store_true", help="skip the other libraries (the limit columns only)")
    ap.add_argument("--async", dest="use_async", action="store_true",
                    help="retrogym through EnvPool's send/recv (batch_size num_envs/2, from 2 envs; --only-retrogym)")
    ap.add_argument("--frameskip", type=int, default=1,
                    help="frames per step of retrogym's pool (with --only-retrogym; the limit columns are frames/s)")
    ap.add_argument("--turbo", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--rom", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if (args.frameskip != 1 or args.use_async) and not args.only_retrogym:
        sys.exit("bench_pool: --frameskip and --async need --only-retrogym (the other libraries step one frame, "
                 "synchronously)")
    if args.turbo:  # running inside .venv-turbo
        print(json.dumps({"rate": bench_turbo(args.turbo, args.seconds, args.rom)}))
        return
    pkg = package_dir()
    os.environ["RETROGYM_DATA_PATH"] = os.path.join(pkg, "data")
    os.environ["RETROGYM_CORE_PATH"] = os.path.join(pkg, "cores")
    turbo_py = os.path.join(SOURCE, ".venv-turbo", "bin", "python")
    core_name = "genesis_plus_gx"
    if args.system:
        global GAME, STATE, CORE, INTTYPE, ROM
        import tempfile
        import stable_retro
        import retrogym
        sys.path.insert(0, os.path.join(SOURCE, "tests", "compat"))
        import stable_retro_diff
        root = os.path.join(tempfile.mkdtemp(prefix="bench-pool-"), "data")
        os.makedirs(os.path.join(root, "stable"))
        stable_retro_diff.retro = stable_retro
        made = {g.split("-")[1]: (g, s, c) for g, s, _, c in
                stable_retro_diff.make_test_rom_games(os.path.join(SOURCE, "build", "cli", "retrogym"), root)}
        if args.system not in made:
            sys.exit(f"bench_pool: no test-ROM game for {args.system} (have {sorted(made)})")
        GAME, STATE, CORE = made[args.system]
        core_name = CORE
        INTTYPE = stable_retro.data.Integrations.CUSTOM_ONLY
        ROM = os.path.join(root, "stable", GAME, "rom." + stable_retro_diff.EXT[args.system])
        stable_retro.data.Integrations.add_custom_path(os.path.join(root, "stable"))
        retrogym.data.add_custom_path(os.path.join(root, "stable"))
        turbo_py = "/nonexistent"  # turbo's own package would not see the custom integration
    cpus = os.cpu_count()
    print(f"{GAME} {STATE} on {core_name} (stable-retro's core); RGB observations, {args.frameskip} frame(s) per step"
          f"{', retrogym through send/recv with batch_size num_envs/2' if args.use_async else ''}; "
          f"{args.seconds:g} s per measurement, {args.rounds} rounds; {cpus} CPUs; retrogym in steps/s, raw, limit and "
          f"lanes in frames/s")
    print(f"{'envs':>4} {'stable-retro Async':>18} {'SB3 Subproc':>11} {'turbo':>8} {'retrogym':>9} {'vs Async':>9} "
          f"{'vs SB3':>7} {'vs turbo':>9} {'raw':>7} {'limit':>7} {'of limit':>8} {'best':>6} {'lanes':>7} "
          f"{'of lanes':>8} {'best':>6} "
          f"{'KiB/env':>8}")
    n = 1
    while n <= args.max_envs:
        sr = sb = tb = None
        if not args.only_retrogym:
            sr = bench_stable_retro(n, args.seconds)
            sb = bench_sb3(n, args.seconds)
            if os.path.exists(turbo_py):
                out = subprocess.run([turbo_py, __file__, "--turbo", str(n), "--seconds", str(args.seconds),
                                      "--rom", os.path.join(pkg, "data", "stable", GAME, "rom.md")],
                                     capture_output=True, text=True)
                try:
                    tb = json.loads(out.stdout.strip().splitlines()[-1])["rate"]
                except (ValueError, IndexError, KeyError):
                    tb = None
        if args.use_async and n < 2:
            n *= 2
            continue
        r = bench_retrogym(n, args.seconds, args.rounds, args.frameskip, args.use_async)
        rg = r["pool"] / args.frameskip  # steps/s, as the other libraries'
        limit = r["raw"] * min(n, cpus) if r["raw"] else None

        def num(x):
            return "-" if x is None else f"{x:.0f}"

        def ratio(a, b):
            return "-" if not a or not b else f"{a / b:.2f}x"

        def pct(x):
            return "-" if x is None else f"{x * 100:.0f}%"
        print(f"{n:>4} {num(sr):>18} {num(sb):>11} {num(tb):>8} {num(rg):>9} {ratio(rg, sr):>9} {ratio(rg, sb):>7} "
              f"{ratio(rg, tb):>9} {num(r['raw']):>7} {num(limit):>7} {pct(r['of_limit']):>8} "
              f"{pct(r['best_of_limit']):>6} {num(r['lanes']):>7} {pct(r['of_lanes']):>8} {pct(r['best_of_lanes']):>6} "
              f"{r['kib']:>8.0f}", flush=True)
        n *= 2

if __name__ == "__main__":
    main()
