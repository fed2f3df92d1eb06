"""PPO on our own game, with stable-baselines3: ``python -m retrogym.examples.ppo [--timesteps N] [--out DIR]``

Optional: needs ``stable-baselines3`` (``pip install stable-baselines3``, which pulls in PyTorch, about a
gigabyte and more with its CUDA libraries; ``make venv-rl`` installs it into the project's .venv). Without it the
example says so and exits with status 2; ``python -m retrogym.examples.brute`` needs nothing more than Pillow.

StarCatcher-Nes with DISCRETE actions (36), frame skip 4, episodes of at most ``--max-episode-steps`` steps. The
policy sees the console's 2 KiB of RAM scaled to [0, 1] (a small MLP learns from that on a CPU in minutes;
pixels would need a CNN and far more time). ``--envs`` environments run side by side (a DummyVecEnv). Every
finished training episode is recorded with its actions; as for Brute, the environment is deterministic, so the best
one is replayed from reset to film it. With ``--out DIR``: ``DIR/best.gif`` (or ``.mp4`` with ffmpeg),
``DIR/returns.png`` (episode returns and the best so far against training steps), ``DIR/returns.csv``.
"""
import argparse
import os
import sys
import time

import gymnasium as gym
import numpy as np

import retrogym
from retrogym.examples import _media
from retrogym.examples._progress import Progress, format_duration

__all__ = ["main", "have_sb3"]

GAME = "StarCatcher-Nes"
MISSING = (
    "stable-baselines3 is not installed, so the PPO example cannot run.\n"
    "  install it with `make venv-rl` (into the project's .venv) or `pip install stable-baselines3`\n"
    "  (it pulls in PyTorch, a large download); the Brute example needs nothing more:\n"
    "  python -m retrogym.examples.brute --out build/demo"
)


def have_sb3():
    try:
        import stable_baselines3  # noqa: F401
    except ImportError:
        return False
    return True


class ScaledRam(gym.ObservationWrapper):
    """RAM bytes as float32 in [0, 1], for an MLP policy."""

    def __init__(self, env):
        super().__init__(env)
        self.observation_space = gym.spaces.Box(0.0, 1.0, shape=env.observation_space.shape, dtype=np.float32)

    def observation(self, observation):
        return observation.astype(np.float32) / 255.0


class EpisodeRecorder(gym.Wrapper):
    """Keeps the actions of the running episode; at its end calls ``sink(return, actions)``."""

    def __init__(self, env, sink):
        super().__init__(env)
        self.sink = sink
        self.actions = []
        self.total = 0.0

    def reset(self, **kwargs):
        self.actions, self.total = [], 0.0
        return self.env.reset(**kwargs)

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        self.actions.append(int(action))
        self.total += float(reward)
        if terminated or truncated:
            self.sink(self.total, self.actions)
            self.actions, self.total = [], 0.0
        return obs, reward, terminated, truncated, info


class History:
    """Every finished training episode's return and the step count when it ended; the best one's actions."""

    def __init__(self):
        self.returns, self.at, self.best = [], [], []
        self.best_actions = []
        self.timesteps = 0

    def add(self, total, actions):
        if not self.best or total > self.best[-1]:
            self.best_actions = list(actions)
        self.returns.append(total)
        self.at.append(self.timesteps)
        self.best.append(max(total, self.best[-1]) if self.best else total)


def make_env(max_episode_steps, frameskip=4, sink=None, render=False):
    env = retrogym.make(
        GAME,
        use_restricted_actions=retrogym.Actions.DISCRETE,
        obs_type=retrogym.Observations.IMAGE if render else retrogym.Observations.RAM,
        render_mode="rgb_array" if render else None,
        frameskip=frameskip,
        max_episode_steps=max_episode_steps,
    )
    if render:
        return env
    return EpisodeRecorder(ScaledRam(env), sink)


def parse_args(argv=None):
    p = argparse.ArgumentParser(prog="python -m retrogym.examples.ppo",
                                description="PPO (stable-baselines3) on StarCatcher-Nes's RAM.")
    p.add_argument("--timesteps", type=int, default=100_000, help="training steps in all (default %(default)s)")
    p.add_argument("--envs", type=int, default=4, help="environments side by side (default %(default)s)")
    p.add_argument("--max-episode-steps", type=int, default=1000, help="episode length limit (default %(default)s)")
    p.add_argument("--frameskip", type=int, default=4, help="frames per step (default %(default)s)")
    p.add_argument("--seed", type=int, default=0, help="seeds PyTorch, NumPy and the environments (default 0)")
    p.add_argument("--out", default=None, help="folder for best.gif/.mp4, returns.png, returns.csv")
    p.add_argument("--video", choices=("auto", "gif", "mp4", "none"), default="auto",
                   help="auto: MP4 when ffmpeg is on PATH, else GIF (default %(default)s)")
    p.add_argument("--video-every", type=int, default=1, help="keep every k-th step's frame (default 1)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    args = p.parse_args(argv)
    if args.timesteps < 1 or args.envs < 1 or args.max_episode_steps < 1 or args.frameskip < 1:
        p.error("--timesteps, --envs, --max-episode-steps and --frameskip must be at least 1")
    return args


def main(argv=None):
    args = parse_args(argv)
    try:
        from stable_baselines3 import PPO
        from stable_baselines3.common.callbacks import BaseCallback
        from stable_baselines3.common.vec_env import DummyVecEnv
        import torch
    except ImportError as e:
        print(f"{MISSING}\n  ({e})", file=sys.stderr)
        return 2

    torch.set_num_threads(max(1, min(4, os.cpu_count() or 1)))
    history = History()
    venv = DummyVecEnv([lambda: make_env(args.max_episode_steps, args.frameskip, history.add)
                        for _ in range(args.envs)])
    n_steps = 256
    rollout = n_steps * args.envs
    rollouts = -(-args.timesteps // rollout)  # PPO always finishes a rollout
    print_every = max(1, rollouts // 20)
    model = PPO("MlpPolicy", venv, n_steps=n_steps, batch_size=256, n_epochs=4, learning_rate=3e-4, gamma=0.99,
                gae_lambda=0.95, ent_coef=0.01, clip_range=0.2, policy_kwargs={"net_arch": [128, 128]},
                seed=args.seed, device="cpu", verbose=0)
    print(f"PPO on {GAME}: {args.timesteps} steps, {args.envs} environments, RAM observations, "
          f"{venv.action_space.n} actions, frameskip {args.frameskip}, episodes of at most "
          f"{args.max_episode_steps} steps, seed {args.seed}")
    start = time.monotonic()
    bar = Progress(rollouts * rollout, desc="ppo", enabled=not args.quiet)

    class Report(BaseCallback):
        """Advances the bar every step and prints a line of the return curve after each rollout."""

        def __init__(self):
            super().__init__()
            self.rollouts = 0

        def _on_step(self):
            history.timesteps = self.num_timesteps
            bar.update(self.num_timesteps - bar.n, episodes=len(history.returns),
                       best=f"{history.best[-1]:g}" if history.best else "-")
            return True

        def _on_rollout_end(self):
            self.rollouts += 1
            if self.rollouts % print_every and self.rollouts != rollouts:
                return
            recent = history.returns[-20:]
            mean = f"{sum(recent) / len(recent):8.1f}" if recent else f"{'-':>8}"
            last = f"{history.returns[-1]:8g}" if recent else f"{'-':>8}"
            best = f"{history.best[-1]:8g}" if history.best else f"{'-':>8}"
            bar.write(f"{self.num_timesteps:9d} {len(history.returns):9d} {last} {mean} {best}")

    bar.write(f"{'steps':>9} {'episodes':>9} {'return':>8} {'mean 20':>8} {'best':>8}")
    try:
        model.learn(total_timesteps=args.timesteps, callback=Report())
    finally:
        bar.close()
    elapsed = time.monotonic() - start

    # The trained policy, greedy, on one episode.
    env = make_env(args.max_episode_steps, args.frameskip, lambda *a: None)
    obs, _ = env.reset(seed=args.seed)
    greedy, done = 0.0, False
    while not done:
        action, _ = model.predict(obs, deterministic=True)
        obs, reward, terminated, truncated, _ = env.step(int(action))
        greedy += reward
        done = terminated or truncated
    env.close()
    venv.close()

    print()
    if history.returns:
        for line in _media.text_chart([history.best, history.returns], width=64, height=10,
                                      xlabel="episode   (# best so far, . episode return)"):
            print(line)
        print()
        print(f"{len(history.returns)} training episodes: first {history.returns[0]:g}, best {history.best[-1]:g}, "
              f"mean of the last 20 {np.mean(history.returns[-20:]):.1f}; greedy policy after training: "
              f"{greedy:g}; {format_duration(elapsed)} ({args.timesteps * args.frameskip / elapsed:.0f} frames/s)")
    else:
        print(f"no training episode finished; greedy policy after training: {greedy:g}")

    if args.out and history.returns:
        os.makedirs(args.out, exist_ok=True)
        written = []
        path = os.path.join(args.out, "returns.csv")
        with open(path, "w") as f:
            f.write("episode,steps,return,best\n")
            for i, (t, r, b) in enumerate(zip(history.at, history.returns, history.best), 1):
                f.write(f"{i},{t},{r:g},{b:g}\n")
        written.append(path)
        film = make_env(args.max_episode_steps, args.frameskip, render=True)
        try:
            obs, _ = film.reset(seed=args.seed)
            frames, total = [obs], 0.0
            for i, action in enumerate(history.best_actions):
                obs, reward, terminated, truncated, _ = film.step(action)
                total += reward
                if (i + 1) % args.video_every == 0 or i == len(history.best_actions) - 1:
                    frames.append(obs)
            fps = film.metadata["render_fps"] / args.video_every
        finally:
            film.close()
        if total != history.best[-1]:
            print(f"warning: the replayed best episode returned {total:g}, not {history.best[-1]:g}", file=sys.stderr)
        if _media.have_pillow():
            written.append(_media.plot_curves(
                os.path.join(args.out, "returns.png"),
                [
                    {"x": history.at, "y": history.returns, "label": "episode return", "color": (90, 150, 210),
                     "width": 1, "dots": True, "line": False},
                    {"x": history.at, "y": [float(np.mean(history.returns[max(0, i - 19): i + 1]))
                                            for i in range(len(history.returns))],
                     "label": "mean of the last 20 episodes", "color": (40, 150, 70), "width": 2},
                    {"x": history.at, "y": history.best, "label": "best so far", "color": (230, 110, 20),
                     "width": 3, "step": True},
                ],
                title=f"PPO on {GAME} (RAM, {args.envs} envs, seed {args.seed}, "
                      f"max {args.max_episode_steps} steps x {args.frameskip} frames)",
                xlabel="training steps",
                ylabel="return (score)",
            ))
        else:
            print("Pillow is not installed (pip install pillow): no PNG plot and no GIF")
        if args.video != "none" and (_media.have_pillow() or _media.have_ffmpeg()):
            written.append(_media.write_video(os.path.join(args.out, "best"), frames, fps=fps, kind=args.video))
        print(f"best episode replayed: return {total:g}, {len(history.best_actions)} steps; wrote "
              + ", ".join(written))
    return 0


if __name__ == "__main__":
    sys.exit(main())
