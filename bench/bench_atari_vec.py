"""Atari vector environments against the field, side by side in one run: retrogym's pool on our Atari 2600 core,
ale-py's AtariVectorEnv (C++ threads, ALE's emulator), EnvPool (C++ threads, ALE's emulator; in its own venv,
.venv-envpool, which `make bench-atari-vec` makes) and Gymnasium's AsyncVectorEnv over ale-py (one process per
environment, AtariPreprocessing + FrameStackObservation), and with one env the single environments a user would
wrap instead (rg-make-wrap: gym.make("retrogym/<Game>-v5", frameskip=1) under Gymnasium's AtariPreprocessing +
FrameStackObservation; ale-make-wrap: the same over ALE/<Game>-v5) or make with the C preprocessing (rg-make-c:
retrogym.make(<game>, grayscale=True, resize=(84, 84), frame_stack=4, ...)), like for like: the same ROMs (ale-py's), 84x84 grayscale,
4 stacked frames, frame skip 4 with max-pool of the last two frames, up to 30 no-op starts, FIRE at reset, clipped
rewards, the minimal action set, random actions, sticky actions (repeat_action_probability) 0.25 or 0, threads = min
(envs, CPUs).

Every measurement runs in a fresh process (this script with --one): make the vector env, reset, 20 untimed steps, then
steps for --seconds; it reports env steps/s and CPU time per env step (its own process_time, which covers the C++
and C worker threads, plus, for AsyncVectorEnv, its workers' CPU read from /proc), and checks the game ran: summed
|reward| and ended episodes. Rounds alternate the engines' order; reported: median steps/s with min..max, median CPU
us per step with min..max, and each engine's ratios to retrogym (median of per-round ratios): of steps/s ("vs
retrogym") and of CPU per step ("CPU/rg": how many times retrogym's CPU per step the engine spends).

retrogym runs through `gym.make_vec("retrogym/<Game>-v5", ...)` (ALE's conventions and EnvPool's defaults) when that
id is registered; otherwise through make_vec on stable-retro's integration with the ROM from ale-py, from its "Start"
state (the game already started).

usage: .venv/bin/python bench/bench_atari_vec.py [--rounds R] [--seconds S] [--envs 1 2 4 8 16]
                                                  [--games pong breakout ...] [--sticky 0.25 0] [--engines ...]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENVPOOL_PY = os.path.join(SOURCE, ".venv-envpool", "bin", "python")
GAMES = {  # ale-py ROM name: (ALE/EnvPool id stem, stable-retro game)
    "pong": ("Pong", "Pong-Atari2600-v0"),
    "breakout": ("Breakout", "Breakout-Atari2600-v0"),
    "montezuma_revenge": ("MontezumaRevenge", "MontezumaRevenge-Atari2600-v0"),
    "space_invaders": ("SpaceInvaders", "SpaceInvaders-Atari2600-v0"),
    "seaquest": ("Seaquest", "Seaquest-Atari2600-v0"),
}
ENGINES = ("retrogym", "ale-py", "envpool", "gym-async", "rg-make-c", "rg-make-wrap", "ale-make-wrap")
SINGLE = ("rg-make-c", "rg-make-wrap", "ale-make-wrap")  # single environments: measured with 1 env only
CAP = 27000  # steps per episode (108,000 frames), EnvPool's and ale-py's default


def worker_cpu(pids):
    """CPU seconds (user + system) of live processes, from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
        except (OSError, IndexError, ValueError):
            pass
    return total


# ---- one measurement (a fresh process) ----

def make_retrogym(game, n, sticky):
    import gymnasium as gym

    import retrogym  # noqa: F401  (registers the ids)
    stem, retro_game = GAMES[game]
    threads = min(n, os.cpu_count())
    gid = f"retrogym/{stem}-v5"
    if gid in gym.registry:
        return gym.make_vec(gid, num_envs=n, num_threads=threads, repeat_action_probability=sticky), None
    return retrogym.make_vec(retro_game, n, num_threads=threads, use_restricted_actions=retrogym.Actions.DISCRETE,
                             frameskip=4, max_pool=True, grayscale=True, resize=(84, 84), frame_stack=4,
                             reward_clip=1.0, noop_max=30, sticky_prob=sticky, max_episode_steps=CAP,
                             core="atari2600"), None


def make_ale(game, n, sticky):
    from ale_py.vector_env import AtariVectorEnv
    return AtariVectorEnv(game, n, num_threads=min(n, os.cpu_count()), repeat_action_probability=sticky,
                          noop_max=30, use_fire_reset=True, reward_clipping=True,
                          max_num_frames_per_episode=CAP * 4), None


def make_envpool(game, n, sticky):
    import envpool
    env = envpool.make(f"{GAMES[game][0]}-v5", env_type="gymnasium", num_envs=n, batch_size=n,
                       num_threads=min(n, os.cpu_count()), repeat_action_probability=sticky, noop_max=30,
                       use_fire_reset=True, reward_clip=True, max_episode_steps=CAP)
    return env, None


def make_gym_async(game, n, sticky):
    import ale_py
    import gymnasium as gym
    gym.register_envs(ale_py)
    stem = GAMES[game][0]

    def one():
        e = gym.make(f"ALE/{stem}-v5", frameskip=1, repeat_action_probability=sticky,
                     max_num_frames_per_episode=CAP * 4)
        e = gym.wrappers.AtariPreprocessing(e, noop_max=30, frame_skip=4, screen_size=84, grayscale_obs=True)
        e = gym.wrappers.TransformReward(e, lambda r: float(max(-1.0, min(1.0, r))))
        return gym.wrappers.FrameStackObservation(e, 4)

    env = gym.vector.AsyncVectorEnv([one] * n)
    return env, [p.pid for p in env.processes]


class _Single:
    """A single gymnasium.Env stepped as a vector of one (reset when its episode ends), for measure()."""

    def __init__(self, env):
        self.env, self.single_action_space = env, env.action_space

    def reset(self, seed=None):
        return self.env.reset(seed=seed)

    def step(self, actions):
        import numpy as np
        obs, r, term, trunc, info = self.env.step(int(actions[0]))
        if term or trunc:
            self.env.reset()
        return obs[None], np.array([r]), np.array([term]), np.array([trunc]), info

    def close(self):
        self.env.close()


def wrap_single(env):
    """Gymnasium's Atari wrappers, as a single-env user stacks them over a frameskip=1 env."""
    import gymnasium as gym
    env = gym.wrappers.AtariPreprocessing(env, noop_max=30, frame_skip=4, screen_size=84, grayscale_obs=True)
    env = gym.wrappers.TransformReward(env, lambda r: float(max(-1.0, min(1.0, r))))
    return _Single(gym.wrappers.FrameStackObservation(env, 4))


def make_rg_make_wrap(game, n, sticky):
    """retrogym.make's single env (gym.make("retrogym/<Game>-v5", frameskip=1)) under Gymnasium's wrappers."""
    import gymnasium as gym

    import retrogym  # noqa: F401  (registers the ids)
    assert n == 1
    return wrap_single(gym.make(f"retrogym/{GAMES[game][0]}-v5", frameskip=1, repeat_action_probability=sticky,
                                max_num_frames_per_episode=CAP * 4)), None


def make_rg_make_c(game, n, sticky):
    """retrogym.make's single env with the C preprocessing (grayscale=, resize=, frame_stack=: a PreprocessedEnv) and
    the settings of the v5 ids' make_vec (ALE's reset sequence with FIRE, 30 no-ops, clipped rewards, the cap), but
    stable-retro's DISCRETE button combinations for actions (the v5 ids' minimal sets are make_vec's)."""
    import retrogym
    from retrogym.atari import ale_ids, game_name, reset_sequence
    assert n == 1
    stem, retro_game = GAMES[game]
    if stem not in ale_ids():  # no v5 id: stable-retro's integration from its start state
        return _Single(retrogym.make(retro_game, use_restricted_actions=retrogym.Actions.DISCRETE, frameskip=4,
                                     max_pool=True, grayscale=True, resize=(84, 84), frame_stack=4, reward_clip=1.0,
                                     noop_max=30, sticky_prob=sticky, max_episode_steps=CAP, core="atari2600")), None
    integration = game_name(stem)
    return _Single(retrogym.make(integration, state=retrogym.State.NONE,
                                 use_restricted_actions=retrogym.Actions.DISCRETE,
                                 reset_sequence=reset_sequence(integration, True), frameskip=4, max_pool=True,
                                 grayscale=True, resize=(84, 84), frame_stack=4, reward_clip=1.0, noop_max=30,
                                 sticky_prob=sticky, max_episode_steps=CAP)), None


def make_ale_make_wrap(game, n, sticky):
    """ale-py's single env under the same wrappers (what a single-env ALE user runs)."""
    import ale_py
    import gymnasium as gym
    gym.register_envs(ale_py)
    assert n == 1
    return wrap_single(gym.make(f"ALE/{GAMES[game][0]}-v5", frameskip=1, repeat_action_probability=sticky,
                                max_num_frames_per_episode=CAP * 4)), None


MAKERS = {"rg-make-c": make_rg_make_c, "rg-make-wrap": make_rg_make_wrap, "ale-make-wrap": make_ale_make_wrap, "retrogym": make_retrogym, "ale-py": make_ale, "envpool": make_envpool, "gym-async": make_gym_async}


def measure(engine, game, n, sticky, seconds, rom_root):
    import numpy as np
    if rom_root:
        os.environ["RETROGYM_DATA_PATH"] = rom_root
    env, pids = MAKERS[engine](game, n, sticky)
    rng = np.random.default_rng(0)
    space = env.single_action_space
    acts = rng.integers(0, space.n, size=(512, n))
    env.reset(seed=0)
    for i in range(20):
        env.step(acts[i])
    steps, reward, ends, obs_shape = 0, 0.0, 0, None
    cpu0, w0, t0 = time.process_time(), worker_cpu(pids or []), time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        obs, r, term, trunc, _ = env.step(acts[steps % 512])
        reward += float(np.abs(r).sum())
        ends += int(np.sum(term) + np.sum(trunc))
        steps += 1
    wall = time.perf_counter() - t0
    cpu = time.process_time() - cpu0 + worker_cpu(pids or []) - w0
    obs_shape = list(obs.shape)
    env.close()
    return dict(rate=steps * n / wall, cpu_us=1e6 * cpu / (steps * n), reward=reward, ends=ends, steps=steps * n,
                obs=obs_shape, actions=int(space.n))


# ---- the driver ----

def rom_root_for(games):
    """A data root with stable-retro's integrations of the games and ale-py's ROMs, for retrogym's fallback."""
    import ale_py
    import stable_retro
    root = tempfile.mkdtemp(prefix="retrogym-bench-")
    for game in games:
        src = os.path.join(os.path.dirname(stable_retro.__file__), "data", "stable", GAMES[game][1])
        dst = os.path.join(root, "stable", GAMES[game][1])
        shutil.copytree(src, dst)
        shutil.copy(os.path.join(os.path.dirname(ale_py.__file__), "roms", game + ".bin"),
                    os.path.join(dst, "rom.a26"))
    return root


def run_one(engine, game, n, sticky, seconds, rom_root):
    py = ENVPOOL_PY if engine == "envpool" else sys.executable
    cmd = [py, os.path.abspath(__file__), "--one", engine, game, str(n), str(sticky), str(seconds),
           rom_root or ""]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        raise RuntimeError(f"{engine} {game} x{n}: {out.stderr.strip()[-600:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def fmt(values, width=7):
    return f"{statistics.median(values):{width}.0f} ({min(values):.0f}..{max(values):.0f})"


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--one":
        engine, game, n, sticky, seconds, root = sys.argv[2:8]
        print(json.dumps(measure(engine, game, int(n), float(sticky), float(seconds), root or None)))
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--envs", type=int, nargs="*", default=[1, 2, 4, 8, 16])
    ap.add_argument("--games", nargs="*", default=list(GAMES))
    ap.add_argument("--sticky", type=float, nargs="*", default=[0.25, 0.0])
    ap.add_argument("--engines", nargs="*", default=list(ENGINES))
    args = ap.parse_args()
    engines = [e for e in args.engines if e != "envpool" or os.path.exists(ENVPOOL_PY)]
    if "envpool" in args.engines and "envpool" not in engines:
        print("envpool: no .venv-envpool (make bench-atari-vec makes it): its column is left out")
    root = rom_root_for(args.games)
    load = os.getloadavg()[0]
    print(f"{time.strftime('%Y-%m-%d %H:%M')}; {os.cpu_count()} CPUs, load {load:.1f}; 84x84 gray, stack 4, frame skip "
          f"4 + max-pool, 30 no-ops, FIRE reset, clipped rewards, minimal actions, random; {args.rounds} alternating "
          f"rounds of {args.seconds:g} s; steps/s and CPU us per env step: median (min..max); ratio = engine / "
          f"retrogym, median of per-round ratios")
    try:
        for game in args.games:
            for sticky in args.sticky:
                print(f"\n{game}, repeat_action_probability {sticky:g}")
                print(f"{'envs':>4} {'engine':>13} {'steps/s':>20} {'CPU us/step':>18} {'vs retrogym':>12} "
                      f"{'CPU/rg':>7} {'|reward|':>9} {'episodes':>8} {'actions':>7} obs")
                for n in args.envs:
                    here = [e for e in engines if n == 1 or e not in SINGLE]
                    res = {e: [] for e in here}
                    for r in range(args.rounds):
                        order = here[r % len(here):] + here[:r % len(here)]
                        for e in order:
                            res[e].append(run_one(e, game, n, sticky, args.seconds, root))
                    for e in here:
                        rows = res[e]
                        if game != "montezuma_revenge" and sum(x["reward"] for x in rows) == 0:
                            raise SystemExit(f"{e} {game} x{n}: no reward in any round: the game is not running")
                        ratios = [x["rate"] / y["rate"] for x, y in zip(rows, res["retrogym"])] \
                            if "retrogym" in res else [float("nan")]
                        # CPU per step against retrogym's in the same round (how many times retrogym's it costs)
                        cpu_ratios = [x["cpu_us"] / y["cpu_us"] for x, y in zip(rows, res["retrogym"])] \
                            if "retrogym" in res else [float("nan")]
                        print(f"{n:>4} {e:>13} {fmt([x['rate'] for x in rows]):>20} "
                              f"{fmt([x['cpu_us'] for x in rows]):>18} {statistics.median(ratios):>11.2f}x "
                              f"{statistics.median(cpu_ratios):>6.2f}x "
                              f"{sum(x['reward'] for x in rows):>9.0f} {sum(x['ends'] for x in rows):>8} "
                              f"{rows[0]['actions']:>7} {tuple(rows[0]['obs'][1:])}", flush=True)
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
