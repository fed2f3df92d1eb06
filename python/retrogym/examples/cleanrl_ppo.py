"""PPO in one file (CleanRL's style: the whole algorithm readable top to bottom) on ``retrogym.make_vec``.

    python -m retrogym.examples.cleanrl_ppo [--game StarCatcher-Nes] [--timesteps N] [--envs 8] [--obs ram|pixels]

Optional: needs PyTorch (``pip install "retrogym[torch]"``; ``make venv`` installs the CPU wheel into the project's
.venv when it can). Without it the example says so and exits with status 2.

The environments are one ``make_vec`` pool (stepped by worker threads in C) in Gymnasium's SAME_STEP autoreset
mode: the observation after a finished episode is already the next episode's first, as this loop expects. ``--obs
ram`` (default): the console's RAM scaled to [0, 1] and an MLP (trains on a CPU in minutes); ``--obs pixels``: 84x84
grayscale, 4 frames stacked (done in the pool's workers) and the Nature CNN. DISCRETE actions, frame skip 4.
With ``--out DIR``: ``DIR/returns.csv``, ``DIR/returns.png`` and ``DIR/best.gif`` (``.mp4`` with ffmpeg): one
greedy episode of the trained policy.

``train(args)`` returns a dict of the run's statistics (losses, episode returns) for tests and notebooks.
"""
import argparse
import os
import sys
import time

import numpy as np

import retrogym
from retrogym.examples import _media
from retrogym.examples._progress import format_duration

__all__ = ["main", "parse_args", "train", "have_torch"]

MISSING = (
    "PyTorch is not installed, so the CleanRL-style PPO example cannot run.\n"
    "  install it with `pip install \"retrogym[torch]\"` (the CPU wheel is enough:\n"
    "  --index-url https://download.pytorch.org/whl/cpu) or `make venv` in the source tree;\n"
    "  the Brute example needs nothing more: python -m retrogym.examples.brute"
)


def have_torch():
    try:
        import torch  # noqa: F401
    except ImportError:
        return False
    return True


def parse_args(argv=None):
    p = argparse.ArgumentParser(prog="python -m retrogym.examples.cleanrl_ppo",
                                description="Single-file PPO (PyTorch) on a retrogym make_vec pool.")
    p.add_argument("--game", default="StarCatcher-Nes")
    p.add_argument("--state", default=None, help="save state (default: the game's default)")
    p.add_argument("--obs", choices=("ram", "pixels"), default="ram")
    p.add_argument("--timesteps", type=int, default=100_000, help="environment steps in all (default %(default)s)")
    p.add_argument("--envs", type=int, default=8, help="environments in the pool (default %(default)s)")
    p.add_argument("--num-steps", type=int, default=128, help="steps per environment per rollout")
    p.add_argument("--max-episode-steps", type=int, default=1000)
    p.add_argument("--frameskip", type=int, default=4)
    p.add_argument("--lr", type=float, default=2.5e-4)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--minibatches", type=int, default=4)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--clip", type=float, default=0.1)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--vf-coef", type=float, default=0.5)
    p.add_argument("--max-grad-norm", type=float, default=0.5)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--torch-threads", type=int, default=0,
                   help="PyTorch's threads (default: 1 for RAM, up to 4 for pixels)")
    p.add_argument("--out", default=None, help="folder for returns.csv, returns.png and best.gif/.mp4")
    p.add_argument("--video", choices=("auto", "gif", "mp4", "none"), default="auto")
    p.add_argument("--quiet", action="store_true", help="no line per rollout")
    args = p.parse_args(argv)
    for name in ("timesteps", "envs", "num_steps", "max_episode_steps", "frameskip", "minibatches", "epochs"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be at least 1")
    return args


def make_envs(args):
    kwargs = dict(use_restricted_actions=retrogym.Actions.DISCRETE, frameskip=args.frameskip,
                  max_episode_steps=args.max_episode_steps, seed=args.seed, autoreset_mode="SAME_STEP")
    if args.state:
        kwargs["state"] = args.state
    if args.obs == "ram":
        kwargs["obs_type"] = retrogym.Observations.RAM
    else:
        kwargs.update(grayscale=True, resize=(84, 84), frame_stack=4)
    return retrogym.make_vec(args.game, args.envs, **kwargs)


def build_agent(obs_shape, n_actions, pixels):
    import torch.nn as nn

    def layer(m, std=np.sqrt(2), bias=0.0):
        nn.init.orthogonal_(m.weight, std)
        nn.init.constant_(m.bias, bias)
        return m

    class Agent(nn.Module):
        def __init__(self):
            super().__init__()
            if pixels:  # (4, 84, 84) uint8 -> the Nature CNN
                self.body = nn.Sequential(
                    layer(nn.Conv2d(obs_shape[0], 32, 8, stride=4)), nn.ReLU(),
                    layer(nn.Conv2d(32, 64, 4, stride=2)), nn.ReLU(),
                    layer(nn.Conv2d(64, 64, 3, stride=1)), nn.ReLU(),
                    nn.Flatten(), layer(nn.Linear(64 * 7 * 7, 512)), nn.ReLU())
                width = 512
            else:  # RAM bytes -> an MLP
                self.body = nn.Sequential(layer(nn.Linear(int(np.prod(obs_shape)), 128)), nn.Tanh(),
                                          layer(nn.Linear(128, 128)), nn.Tanh())
                width = 128
            self.actor = layer(nn.Linear(width, n_actions), std=0.01)
            self.critic = layer(nn.Linear(width, 1), std=1.0)

        def hidden(self, x):
            return self.body(x.float() / 255.0)

        def value(self, x):
            return self.critic(self.hidden(x)).squeeze(-1)

        def act(self, x, action=None):
            from torch.distributions import Categorical
            h = self.hidden(x)
            dist = Categorical(logits=self.actor(h))
            if action is None:
                action = dist.sample()
            return action, dist.log_prob(action), dist.entropy(), self.critic(h).squeeze(-1)

    return Agent()


def train(args, log=print):
    import torch
    import torch.nn as nn
    import torch.optim as optim

    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    threads = args.torch_threads or (1 if args.obs == "ram" else max(1, min(4, os.cpu_count() or 1)))
    torch.set_num_threads(threads)  # a small MLP is fastest on one thread
    envs = make_envs(args)
    n, steps = args.envs, args.num_steps
    obs_shape = envs.single_observation_space.shape
    agent = build_agent(obs_shape, envs.single_action_space.n, args.obs == "pixels")
    optimizer = optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)

    obs_buf = torch.zeros((steps, n) + obs_shape, dtype=torch.uint8)
    actions = torch.zeros((steps, n), dtype=torch.long)
    logprobs = torch.zeros((steps, n))
    rewards = torch.zeros((steps, n))
    dones = torch.zeros((steps, n))
    values = torch.zeros((steps, n))

    batch = n * steps
    minibatch = max(1, batch // args.minibatches)
    updates = max(1, args.timesteps // batch)
    stats = {"updates": [], "episode_returns": [], "episode_steps_at": [], "best_episode_return": None}
    running = np.zeros(n)
    global_step, start = 0, time.monotonic()
    next_obs = torch.as_tensor(envs.reset(seed=args.seed)[0])
    next_done = torch.zeros(n)
    try:
        for update in range(1, updates + 1):
            frac = 1.0 - (update - 1.0) / updates  # learning rate annealed to 0
            optimizer.param_groups[0]["lr"] = frac * args.lr
            for t in range(steps):
                global_step += n
                obs_buf[t], dones[t] = next_obs, next_done
                with torch.no_grad():
                    action, logprob, _, value = agent.act(next_obs)
                values[t], actions[t], logprobs[t] = value, action, logprob
                obs, reward, terminated, truncated, _ = envs.step(action.numpy())
                rewards[t] = torch.as_tensor(reward, dtype=torch.float32)
                running += reward
                done = np.logical_or(terminated, truncated)
                for i in np.flatnonzero(done):
                    stats["episode_returns"].append(float(running[i]))
                    stats["episode_steps_at"].append(global_step)
                    running[i] = 0.0
                next_obs, next_done = torch.as_tensor(obs), torch.as_tensor(done, dtype=torch.float32)

            with torch.no_grad():  # generalised advantage estimation
                next_value = agent.value(next_obs)
                advantages = torch.zeros_like(rewards)
                last = torch.zeros(n)
                for t in reversed(range(steps)):
                    if t == steps - 1:
                        nonterminal, nextv = 1.0 - next_done, next_value
                    else:
                        nonterminal, nextv = 1.0 - dones[t + 1], values[t + 1]
                    delta = rewards[t] + args.gamma * nextv * nonterminal - values[t]
                    last = delta + args.gamma * args.gae_lambda * nonterminal * last
                    advantages[t] = last
                returns = advantages + values

            b_obs = obs_buf.reshape((-1,) + obs_shape)
            b_actions, b_logprobs = actions.reshape(-1), logprobs.reshape(-1)
            b_adv, b_returns, b_values = advantages.reshape(-1), returns.reshape(-1), values.reshape(-1)
            order = np.arange(batch)
            for _ in range(args.epochs):
                np.random.shuffle(order)
                for lo in range(0, batch, minibatch):
                    mb = torch.as_tensor(order[lo:lo + minibatch])
                    _, newlogprob, entropy, newvalue = agent.act(b_obs[mb], b_actions[mb])
                    ratio = (newlogprob - b_logprobs[mb]).exp()
                    adv = b_adv[mb]
                    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                    pg_loss = torch.max(-adv * ratio, -adv * ratio.clamp(1 - args.clip, 1 + args.clip)).mean()
                    v_clipped = b_values[mb] + (newvalue - b_values[mb]).clamp(-args.clip, args.clip)
                    v_loss = 0.5 * torch.max((newvalue - b_returns[mb]) ** 2,
                                             (v_clipped - b_returns[mb]) ** 2).mean()
                    ent = entropy.mean()
                    loss = pg_loss - args.ent_coef * ent + args.vf_coef * v_loss
                    optimizer.zero_grad()
                    loss.backward()
                    nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                    optimizer.step()
            recent = stats["episode_returns"][-20:]
            row = {"update": update, "steps": global_step, "loss": loss.item(), "policy_loss": pg_loss.item(),
                   "value_loss": v_loss.item(), "entropy": ent.item(),
                   "mean_return_20": float(np.mean(recent)) if recent else None,
                   "steps_per_s": global_step / (time.monotonic() - start)}
            stats["updates"].append(row)
            if log and not args.quiet:
                mean = f"{row['mean_return_20']:9.1f}" if recent else f"{'-':>9}"
                log(f"update {update:4d}/{updates} steps {global_step:8d} episodes {len(stats['episode_returns']):5d} "
                    f"mean20 {mean} loss {row['loss']:8.4f} entropy {row['entropy']:.3f} "
                    f"{row['steps_per_s']:6.0f} steps/s")
    finally:
        envs.close()
    if stats["episode_returns"]:
        stats["best_episode_return"] = max(stats["episode_returns"])
    stats["agent"] = agent
    stats["seconds"] = time.monotonic() - start
    return stats


def greedy_episode(args, agent):
    """One episode of the trained policy, greedy: (return, frames, fps). RAM: one ``make`` environment filmed on the
    console's screen; pixels: a pool of one with the same preprocessing, filmed as the agent sees it."""
    import torch

    state = {"state": args.state} if args.state else {}
    common = dict(use_restricted_actions=retrogym.Actions.DISCRETE, frameskip=args.frameskip,
                  max_episode_steps=args.max_episode_steps, render_mode="rgb_array", **state)
    if args.obs == "ram":
        env = retrogym.make(args.game, obs_type=retrogym.Observations.RAM, **common)
        batch = lambda o: o[None]  # noqa: E731
        frame = env.render
    else:
        env = retrogym.make_vec(args.game, 1, grayscale=True, resize=(84, 84), frame_stack=4,
                                autoreset_mode="DISABLED", **common)
        batch = lambda o: o  # noqa: E731
        frame = lambda: env.render(0)  # noqa: E731
    try:
        obs, _ = env.reset(seed=args.seed)
        frames, total, done = [np.asarray(frame())], 0.0, False
        while not done:
            with torch.no_grad():
                action = agent.actor(agent.hidden(torch.as_tensor(batch(obs)))).argmax(-1).numpy()
            if args.obs == "ram":
                obs, reward, terminated, truncated, _ = env.step(int(action[0]))
            else:
                obs, reward, terminated, truncated, _ = env.step(action)
            total += float(np.sum(reward))
            done = bool(np.any(terminated) or np.any(truncated))
            frames.append(np.asarray(frame()))
        return total, frames, env.metadata["render_fps"]
    finally:
        env.close()


def main(argv=None):
    args = parse_args(argv)
    if not have_torch():
        print(MISSING, file=sys.stderr)
        return 2
    print(f"CleanRL-style PPO on {args.game}: {args.timesteps} steps, {args.envs} environments in one make_vec "
          f"pool, {args.obs} observations, frameskip {args.frameskip}, seed {args.seed}")
    stats = train(args)
    returns = stats["episode_returns"]
    greedy, frames, fps = greedy_episode(args, stats["agent"])
    if returns:
        print(f"{len(returns)} training episodes: first {returns[0]:g}, best {max(returns):g}, mean of the last 20 "
              f"{np.mean(returns[-20:]):.1f}; greedy policy after training: {greedy:g}; "
              f"{format_duration(stats['seconds'])}")
    else:
        print(f"no training episode finished; greedy policy after training: {greedy:g}")
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        written = [os.path.join(args.out, "returns.csv")]
        with open(written[0], "w") as f:
            f.write("episode,steps,return\n")
            for i, (t, r) in enumerate(zip(stats["episode_steps_at"], returns), 1):
                f.write(f"{i},{t},{r:g}\n")
        if _media.have_pillow() and returns:
            best = list(np.maximum.accumulate(returns))
            written.append(_media.plot_curves(
                os.path.join(args.out, "returns.png"),
                [{"x": stats["episode_steps_at"], "y": returns, "label": "episode return", "color": (90, 150, 210),
                  "width": 1, "dots": True, "line": False},
                 {"x": stats["episode_steps_at"], "y": best, "label": "best so far", "color": (230, 110, 20),
                  "width": 3, "step": True}],
                title=f"CleanRL-style PPO on {args.game} ({args.obs}, {args.envs} envs, seed {args.seed})",
                xlabel="training steps", ylabel="return"))
        if args.video != "none" and (_media.have_pillow() or _media.have_ffmpeg()):
            written.append(_media.write_video(os.path.join(args.out, "best"), frames, fps=fps, kind=args.video))
        print(f"greedy episode: return {greedy:g}, {len(frames) - 1} steps; wrote " + ", ".join(written))
    return 0


if __name__ == "__main__":
    sys.exit(main())
