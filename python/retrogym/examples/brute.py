"""Brute on our own game: ``python -m retrogym.examples.brute [--iterations N] [--out DIR] ...``

The Brute (Machado et al. 2018, "Revisiting the Arcade Learning Environment") is a search algorithm
that exploits a deterministic environment: the state is the sequence of actions taken since the start, so a trie
of action sequences is a complete model of everything seen. Each node of the trie stores the reward of the step
that led to it and the best return found below it; every iteration plays one episode from the start, choosing at
each node the action with the best estimated return (ties: the action tried first) or, with probability epsilon
(0.005, the paper's value), a uniformly random action; a node never seen before has no estimate and gets a random
action. At the end of the episode the returns are backed up along its path (a node's value is the maximum over its
children of reward + value, the Bellman backup of a deterministic tree). The greedy path from the root is then
the best episode found so far, so the best return can only go up.

Replaying the start of every episode costs as much emulation as it is long. Because the environment is
deterministic, the part of an episode that walks nodes already in the trie needs no emulation for its choices:
the walk is planned in the trie first, then the environment is restored from a whole-environment snapshot
(``env.unwrapped.clone_state()``) kept on the best path every ``--snapshot-every`` steps, replays the remaining few
known steps (their rewards are checked against the trie) and runs the new part. This changes no decision and no
number. An episode that never leaves the trie (no exploration step took it anywhere new) is known entirely and is
not emulated at all. ``--no-snapshots`` replays every episode from ``reset`` in full, as the paper describes, and
gives the same curve, only slower.

Defaults: StarCatcher-Nes, DISCRETE actions (36), frame skip 4, episodes of at most 2,500 steps (10,000 frames,
about the time an idle player needs to lose 3 lives). With ``--out DIR`` it writes ``DIR/best.gif`` (or
``best.mp4`` when ``ffmpeg`` is on PATH) of the best episode replayed, ``DIR/returns.png`` (episode return and
best so far against iterations), ``DIR/returns.csv`` and ``DIR/best_actions.txt``.
"""
import argparse
import os
import random
import sys
import time

import retrogym
from retrogym.examples import _media
from retrogym.examples._progress import Progress, format_duration

__all__ = ["Brute", "make_env", "replay", "main"]

GAME = "StarCatcher-Nes"


def make_env(game=GAME, state=retrogym.State.DEFAULT, frameskip=4, max_episode_steps=2500, render=False):
    """The environment Brute searches (RAM observations: it never looks at them) or, with ``render``, the same
    game and options with images, to film an episode."""
    return retrogym.make(
        game,
        state=state,
        use_restricted_actions=retrogym.Actions.DISCRETE,
        obs_type=retrogym.Observations.IMAGE if render else retrogym.Observations.RAM,
        render_mode="rgb_array" if render else None,
        frameskip=frameskip,
        max_episode_steps=max_episode_steps,
    )


class _Node:
    """A node of the trie: the action sequence from the root to it is its state."""

    __slots__ = ("children", "reward", "value", "best", "done", "snapshot")

    def __init__(self, reward=0.0, done=False):
        self.children = None  # {action: _Node}, created with the first child
        self.reward = reward  # reward of the step that led here
        self.value = float("-inf")  # best return found below (0 once the episode ends here)
        self.best = -1  # the child with that return (the first one found among equals)
        self.done = done  # the episode ends here (terminated or truncated)
        self.snapshot = None  # clone_state() bytes, on the best path every snapshot_every steps


class Brute:
    """``Brute(env, epsilon=0.005, seed=0)``; ``iterate()`` plays one episode and returns its return;
    ``best_return``, ``best_actions()``. ``env`` is a retrogym environment with a Discrete action space whose
    episodes are bounded (``max_episode_steps``) and which is deterministic (no sticky actions, no no-op
    starts)."""

    def __init__(self, env, epsilon=0.005, seed=0, snapshot_every=10, use_snapshots=True):
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon must be in [0, 1], not {epsilon}")
        self.env = env
        self.raw = env.unwrapped
        self.n_actions = int(env.action_space.n)
        self.epsilon = float(epsilon)
        self.seed = int(seed)
        self.rng = random.Random(self.seed)
        self.snapshot_every = max(1, int(snapshot_every))
        self.use_snapshots = bool(use_snapshots)
        self.root = _Node()
        self.nodes = 1
        self.iterations = 0
        self.steps = 0  # agent steps over all episodes (what the paper counts as experience)
        self.emulated_steps = 0  # steps actually emulated (replays included)
        self._best_path = [self.root]
        self.env.reset(seed=self.seed)
        if self.use_snapshots:
            self.root.snapshot = self.raw.clone_state()

    @property
    def best_return(self):
        return self.root.value

    def best_actions(self):
        """The action sequence of the best episode found (the greedy path from the root)."""
        actions, node = [], self.root
        while node.children:
            actions.append(node.best)
            node = node.children[node.best]
        return actions

    def _choose(self, node):
        # The same draws whether the node is known or new, so every mode of running gives the same choices.
        explore = self.rng.random() < self.epsilon
        if node.children and not explore:
            return node.best
        return self.rng.randrange(self.n_actions)

    def _step(self, action):
        _, reward, terminated, truncated, _ = self.env.step(action)
        self.emulated_steps += 1
        return float(reward), bool(terminated or truncated)

    def iterate(self):
        """Plays one episode from the start (epsilon-greedy in the trie, random below it), backs its return up
        and returns it."""
        # 1. Walk the trie as far as the choices stay in it.
        node, path, actions, total = self.root, [self.root], [], 0.0
        action = None
        while not node.done:
            action = self._choose(node)
            child = node.children.get(action) if node.children else None
            if child is None:
                break
            actions.append(action)
            total += child.reward
            node = child
            path.append(node)
            action = None

        # 2. Emulate from the deepest snapshot on that path (or from reset) to the end of the episode. Without
        # snapshots every episode is replayed from reset in full, even one that is known to its end.
        if action is not None or not self.use_snapshots:
            start = 0
            if self.use_snapshots:
                for i in range(len(path) - 1, -1, -1):
                    if path[i].snapshot is not None:
                        start = i
                        break
                self.raw.restore_state(path[start].snapshot)
            else:
                self.env.reset(seed=self.seed)
            for i in range(start, len(actions)):
                reward, done = self._step(actions[i])
                if reward != path[i + 1].reward or done != path[i + 1].done:
                    raise RuntimeError(
                        f"the environment is not deterministic: replaying step {i} gave reward {reward} "
                        f"(done={done}), the trie holds {path[i + 1].reward} (done={path[i + 1].done})")
            new = []
            while action is not None:
                reward, done = self._step(action)
                child = _Node(reward, done)
                if node.children is None:
                    node.children = {}
                node.children[action] = child
                self.nodes += 1
                actions.append(action)
                total += reward
                node = child
                path.append(node)
                new.append(node)
                if self.use_snapshots and (len(path) - 1) % self.snapshot_every == 0 and not done:
                    node.snapshot = self.raw.clone_state()
                if done:
                    break
                action = self._choose(node)

        # 3. Back up: value(node) = max over children of reward + value (only this path changed).
        old_best = self.root.value
        path[-1].value = 0.0
        for i in range(len(path) - 2, -1, -1):
            parent, child = path[i], path[i + 1]
            q = child.reward + child.value
            if q > parent.value:
                parent.value = q
                parent.best = actions[i]

        # 4. Snapshots live on the best path only.
        if self.use_snapshots and action is not None:
            if self.root.value > old_best:
                keep = set(map(id, path))
                for n in self._best_path:
                    if id(n) not in keep and n is not self.root:
                        n.snapshot = None
                self._best_path = path
            else:
                for n in new:
                    n.snapshot = None

        self.iterations += 1
        self.steps += len(actions)
        return total


def replay(env, actions, every=1, seed=0):
    """Plays an action sequence from reset in an environment with images; returns (return, frames: every
    ``every``-th observation, the first and the last included)."""
    obs, _ = env.reset(seed=seed)
    frames, total = [obs], 0.0
    for i, action in enumerate(actions):
        obs, reward, terminated, truncated, _ = env.step(action)
        total += reward
        if (i + 1) % every == 0 or i == len(actions) - 1:
            frames.append(obs)
        if terminated or truncated:
            break
    return total, frames


def write_outputs(out, returns, best, actions, args, episode_frames, fps, log):
    """The CSV, the action list, the PNG plot and the video; returns the paths written."""
    os.makedirs(out, exist_ok=True)
    written = []
    path = os.path.join(out, "returns.csv")
    with open(path, "w") as f:
        f.write("iteration,return,best\n")
        for i, (r, b) in enumerate(zip(returns, best), 1):
            f.write(f"{i},{r:g},{b:g}\n")
    written.append(path)
    path = os.path.join(out, "best_actions.txt")
    with open(path, "w") as f:
        f.write(f"# {args.game}, DISCRETE actions, frameskip {args.frameskip}, from reset; return {best[-1]:g}\n")
        f.write(" ".join(map(str, actions)) + "\n")
    written.append(path)
    if not _media.have_pillow():
        log("Pillow is not installed (pip install pillow): no PNG plot and no GIF")
        if _media.have_ffmpeg() and args.video in ("auto", "mp4"):
            written.append(_media.write_mp4(os.path.join(out, "best.mp4"), episode_frames, fps=fps))
        return written
    xs = list(range(1, len(returns) + 1))
    path = _media.plot_curves(
        os.path.join(out, "returns.png"),
        [
            {"x": xs, "y": returns, "label": "episode return", "color": (120, 170, 220), "width": 1,
             "dots": len(xs) <= 150},
            {"x": xs, "y": best, "label": "best so far", "color": (230, 110, 20), "width": 3, "step": True},
        ],
        title=f"Brute on {args.game} (epsilon {args.epsilon:g}, seed {args.seed}, "
              f"max {args.max_episode_steps} steps x {args.frameskip} frames)",
        xlabel="iteration (one episode each)",
        ylabel="return (score)",
    )
    written.append(path)
    if args.video != "none" and episode_frames:
        written.append(_media.write_video(os.path.join(out, "best"), episode_frames, fps=fps, kind=args.video))
    return written


def parse_args(argv=None):
    p = argparse.ArgumentParser(
        prog="python -m retrogym.examples.brute",
        description="Brute (Machado et al. 2018) on a deterministic game: a trie of action sequences, "
                    "epsilon-greedy on the best return below each node.")
    p.add_argument("--game", default=GAME, help="game (default %(default)s)")
    p.add_argument("--state", default=None, help="start state (default: the game's)")
    p.add_argument("--iterations", type=int, default=300, help="episodes to play (default %(default)s)")
    p.add_argument("--max-episode-steps", type=int, default=2500,
                   help="episode length limit in steps (default %(default)s = 10,000 frames)")
    p.add_argument("--frameskip", type=int, default=4, help="frames per step (default %(default)s)")
    p.add_argument("--epsilon", type=float, default=0.005, help="exploration probability (default %(default)s)")
    p.add_argument("--seed", type=int, default=0, help="seeds the choices and the environment (default 0)")
    p.add_argument("--snapshot-every", type=int, default=10,
                   help="steps between snapshots on the best path (default %(default)s)")
    p.add_argument("--no-snapshots", action="store_true",
                   help="replay every episode from reset (same results, slower)")
    p.add_argument("--time-limit", type=float, default=None,
                   help="stop early after this many seconds (the result then depends on the machine's speed)")
    p.add_argument("--out", default=None, help="folder for best.gif/.mp4, returns.png, returns.csv, "
                                               "best_actions.txt (default: write nothing)")
    p.add_argument("--video", choices=("auto", "gif", "mp4", "none"), default="auto",
                   help="auto: MP4 when ffmpeg is on PATH, else GIF (default %(default)s)")
    p.add_argument("--video-every", type=int, default=1,
                   help="keep every k-th step's frame in the video (default %(default)s)")
    p.add_argument("--print-every", type=int, default=0,
                   help="print a line of the return curve every N iterations (default: about 20 lines)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    args = p.parse_args(argv)
    if args.iterations < 1:
        p.error("--iterations must be at least 1")
    if args.max_episode_steps < 1:
        p.error("--max-episode-steps must be at least 1 (Brute needs bounded episodes)")
    if args.frameskip < 1 or args.video_every < 1 or args.snapshot_every < 1:
        p.error("--frameskip, --video-every and --snapshot-every must be at least 1")
    return args


def main(argv=None):
    args = parse_args(argv)
    state = retrogym.State.DEFAULT if args.state is None else args.state
    env = make_env(args.game, state, args.frameskip, args.max_episode_steps)
    try:
        brute = Brute(env, epsilon=args.epsilon, seed=args.seed, snapshot_every=args.snapshot_every,
                      use_snapshots=not args.no_snapshots)
        every = args.print_every or max(1, args.iterations // 20)
        print(f"Brute on {args.game}: {args.iterations} iterations, epsilon {args.epsilon:g}, seed {args.seed}, "
              f"{env.action_space.n} actions, frameskip {args.frameskip}, episodes of at most "
              f"{args.max_episode_steps} steps ({args.max_episode_steps * args.frameskip} frames)")
        header = f"{'iteration':>9} {'frames':>10} {'return':>8} {'mean':>8} {'best':>8}"
        returns, best = [], []
        start = time.monotonic()
        with Progress(args.iterations, desc="brute", enabled=not args.quiet) as bar:
            bar.write(header)
            for it in range(1, args.iterations + 1):
                ret = brute.iterate()
                improved = bool(best) and brute.best_return > best[-1]
                returns.append(ret)
                best.append(brute.best_return)
                elapsed = time.monotonic() - start
                fps = brute.emulated_steps * args.frameskip / max(elapsed, 1e-9)
                bar.update(1, ret=f"{ret:g}", best=f"{brute.best_return:g}", fps=f"{fps:.0f}")
                if it % every == 0 or it == 1 or it == args.iterations:
                    recent = returns[-every:]
                    bar.write(f"{it:9d} {brute.steps * args.frameskip:10d} {ret:8g} "
                              f"{sum(recent) / len(recent):8.1f} {brute.best_return:8g}")
                elif improved:
                    bar.write(f"{it:9d} {brute.steps * args.frameskip:10d} {ret:8g} {'':8} "
                              f"{brute.best_return:8g}  new best")
                if args.time_limit is not None and elapsed >= args.time_limit:
                    bar.write(f"time limit reached after {it} iterations")
                    break
        elapsed = time.monotonic() - start
        print()
        for line in _media.text_chart([best, returns], width=64, height=10,
                                      xlabel="iteration   (# best so far, . episode return)"):
            print(line)
        print()
        print(f"best return {brute.best_return:g} (first episode {returns[0]:g}) after {len(returns)} iterations, "
              f"{brute.steps * args.frameskip} frames of play, {brute.emulated_steps * args.frameskip} emulated, "
              f"{brute.nodes} trie nodes, {format_duration(elapsed)} "
              f"({brute.emulated_steps * args.frameskip / max(elapsed, 1e-9):.0f} frames/s)")
        actions = brute.best_actions()
    finally:
        env.close()

    if args.out:
        film = make_env(args.game, state, args.frameskip, args.max_episode_steps, render=True)
        try:
            total, frames = replay(film, actions, every=args.video_every, seed=args.seed)
            fps = film.metadata["render_fps"] / args.video_every
        finally:
            film.close()
        if total != brute.best_return:
            print(f"warning: the replayed best episode returned {total:g}, not {brute.best_return:g}",
                  file=sys.stderr)
        written = write_outputs(args.out, returns, best, actions, args, frames, fps, print)
        print(f"best episode replayed: return {total:g}, {len(actions)} steps; wrote " + ", ".join(written))
    return 0


if __name__ == "__main__":
    sys.exit(main())
