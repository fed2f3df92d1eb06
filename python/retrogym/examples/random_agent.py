"""A random agent on our own game: ``python -m retrogym.examples.random_agent [--steps N] [--seed S] ...``

Plays ``--steps`` steps of StarCatcher-Nes with uniformly random DISCRETE actions (frame skip 4), starting a new
episode whenever one ends, and prints every finished episode's return and length, then the speed. The actions
come from the action space seeded with ``--seed``, so a run is repeatable.
"""
import argparse
import sys
import time

import retrogym
from retrogym.examples._progress import Progress

__all__ = ["run", "main"]

GAME = "StarCatcher-Nes"


def run(steps=2000, seed=0, game=GAME, frameskip=4, max_episode_steps=2500, progress=None, log=print):
    """Plays ``steps`` random steps; returns a dict: ``steps``, ``episodes`` (a list of (return, length) of the
    finished ones), ``partial`` (return of the unfinished last one), ``seconds``, ``frames_per_second``."""
    env = retrogym.make(game, use_restricted_actions=retrogym.Actions.DISCRETE, obs_type=retrogym.Observations.RAM,
                        frameskip=frameskip, max_episode_steps=max_episode_steps)
    try:
        env.action_space.seed(seed)
        env.reset(seed=seed)
        episodes, total, length = [], 0.0, 0
        start = time.monotonic()
        for _ in range(steps):
            _, reward, terminated, truncated, info = env.step(env.action_space.sample())
            total += reward
            length += 1
            if progress is not None:
                progress.update(1, episodes=len(episodes), ret=f"{total:g}")
            if terminated or truncated:
                episodes.append((total, length))
                log(f"episode {len(episodes)}: return {total:g} in {length} steps "
                    f"({'game over' if terminated else 'time limit'}; score {info.get('score')}, "
                    f"level {info.get('level', 0) + 1})")
                env.reset()
                total, length = 0.0, 0
        seconds = time.monotonic() - start
    finally:
        env.close()
    return {"steps": steps, "episodes": episodes, "partial": total, "seconds": seconds,
            "frames_per_second": steps * frameskip / max(seconds, 1e-9)}


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m retrogym.examples.random_agent",
                                description="Random DISCRETE actions on a game; episode returns and speed.")
    p.add_argument("--game", default=GAME, help="game (default %(default)s)")
    p.add_argument("--steps", type=int, default=5000, help="steps to play in all (default %(default)s)")
    p.add_argument("--seed", type=int, default=0, help="seeds the actions and the environment (default 0)")
    p.add_argument("--frameskip", type=int, default=4, help="frames per step (default %(default)s)")
    p.add_argument("--max-episode-steps", type=int, default=2500, help="episode length limit (default %(default)s)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    args = p.parse_args(argv)
    if args.steps < 1:
        p.error("--steps must be at least 1")
    print(f"random agent on {args.game}: {args.steps} steps, frameskip {args.frameskip}, seed {args.seed}")
    with Progress(args.steps, desc="random", enabled=not args.quiet) as bar:
        result = run(args.steps, args.seed, args.game, args.frameskip, args.max_episode_steps, progress=bar,
                     log=bar.write)
    episodes = result["episodes"]
    if episodes:
        returns = [r for r, _ in episodes]
        print(f"{len(episodes)} episodes: mean return {sum(returns) / len(returns):.1f}, "
              f"min {min(returns):g}, max {max(returns):g}")
    else:
        print(f"no episode finished (return so far {result['partial']:g})")
    print(f"{result['steps']} steps in {result['seconds']:.2f}s: {result['frames_per_second']:.0f} frames/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
