"""PPO with Ray RLlib, each env runner stepping a ``make_vec`` pool: ``python -m retrogym.examples.rllib_ppo``

    python -m retrogym.examples.rllib_ppo --iterations 20 --env-runners 2 --envs-per-runner 8
    python -m retrogym.examples.rllib_ppo --address HEAD_IP:6379 --env-runners 8   # on a running Ray cluster

Optional: needs Ray with RLlib and PyTorch (``pip install "retrogym[rllib]"``); without them it says so and exits
with status 2. The game's env runners are RLlib's (new API stack), each creating ONE ``retrogym.make_vec`` pool of
``--envs-per-runner`` environments (``retrogym.rllib``'s ``"retrogym-vec"`` creator, ``vector_entry_point`` mode)
stepped by ``--threads-per-runner`` C threads; observations are the console's RAM as floats (RLlib's default MLP).
``--runner-resource NAME`` makes each runner need one unit of a custom resource NAME (give each node ``--resources
'{"NAME": k}'`` in ``ray start`` to put k runners there). Every iteration prints the return and, from the
``SampleOrigins`` callback, how many steps each machine/process sampled; ``--json FILE`` writes every iteration's
figures and the cluster's nodes.
"""
import argparse
import json
import math
import sys
import time

__all__ = ["main", "parse_args", "build_config"]

MISSING = ('Ray RLlib and PyTorch are not installed, so the RLlib example cannot run.\n'
           '  install them with `pip install "retrogym[rllib]"` (or `make venv` in the source tree)')


def parse_args(argv=None):
    p = argparse.ArgumentParser(prog="python -m retrogym.examples.rllib_ppo",
                                description="RLlib PPO on a retrogym game, one make_vec pool per env runner.")
    p.add_argument("--game", default="StarCatcher-Nes")
    p.add_argument("--address", default=None, help="a running Ray cluster (HEAD_IP:PORT, or 'auto'); default: "
                                                   "start a local one")
    p.add_argument("--iterations", type=int, default=10)
    p.add_argument("--env-runners", type=int, default=2)
    p.add_argument("--envs-per-runner", type=int, default=8)
    p.add_argument("--threads-per-runner", type=int, default=1, help="C threads of each runner's pool")
    p.add_argument("--cpus-per-runner", type=float, default=1)
    p.add_argument("--runner-resource", default=None, help="custom resource each env runner needs one unit of")
    p.add_argument("--rollout-length", type=int, default=64, help="steps per environment per sample() call")
    p.add_argument("--train-batch", type=int, default=2048, help="steps per training iteration")
    p.add_argument("--minibatch", type=int, default=256)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--max-episode-steps", type=int, default=1000)
    p.add_argument("--frameskip", type=int, default=4)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", default=None, help="write the iterations' figures and the cluster's nodes here")
    args = p.parse_args(argv)
    for name in ("iterations", "env_runners", "envs_per_runner", "threads_per_runner", "rollout_length",
                 "train_batch", "minibatch", "epochs", "max_episode_steps", "frameskip"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be at least 1")
    return args


def build_config(args):
    """The ``PPOConfig``: the ``"retrogym-vec"`` creator (registered here), one pool per env runner."""
    from ray.rllib.algorithms.ppo import PPOConfig

    import retrogym.rllib

    retrogym.rllib.register()
    env_config = {"game": args.game, "obs_type": "ram", "use_restricted_actions": "discrete",
                  "frameskip": args.frameskip, "max_episode_steps": args.max_episode_steps,
                  "num_threads": args.threads_per_runner}
    runners = dict(num_env_runners=args.env_runners, num_envs_per_env_runner=args.envs_per_runner,
                   gym_env_vectorize_mode="vector_entry_point", rollout_fragment_length=args.rollout_length,
                   num_cpus_per_env_runner=args.cpus_per_runner, sample_timeout_s=120.0)
    if args.runner_resource:
        runners["custom_resources_per_env_runner"] = {args.runner_resource: 1}
    return (PPOConfig()
            .environment(retrogym.rllib.VEC_ENV, env_config=env_config)
            .env_runners(**runners)
            .learners(num_learners=0)
            .training(train_batch_size_per_learner=args.train_batch, minibatch_size=args.minibatch,
                      num_epochs=args.epochs, lr=3e-4, gamma=0.99, entropy_coeff=0.01)
            .rl_module(model_config={"fcnet_hiddens": [128, 128]})
            .callbacks(retrogym.rllib.SampleOrigins)
            .debugging(seed=args.seed))


def _finite(value):
    return value if isinstance(value, (int, float)) and math.isfinite(value) else None


def main(argv=None):
    args = parse_args(argv)
    try:
        import ray
        import torch  # noqa: F401
        from ray.rllib.algorithms.ppo import PPOConfig  # noqa: F401
    except ImportError as e:
        print(f"{MISSING}\n  ({e})", file=sys.stderr)
        return 2

    start = time.monotonic()
    ray.init(address=args.address, include_dashboard=False, log_to_driver=False, configure_logging=False)
    algo = None
    report = {"nodes": [], "iterations": []}
    try:
        report["nodes"] = [{"node_id": n["NodeID"], "ip": n["NodeManagerAddress"], "resources": n["Resources"]}
                           for n in ray.nodes() if n["Alive"]]
        algo = build_config(args).build_algo()
        print(f"RLlib PPO on {args.game}: {args.env_runners} env runners x {args.envs_per_runner} environments "
              f"(one make_vec pool each), {len(report['nodes'])} Ray node(s), set up in "
              f"{time.monotonic() - start:.1f}s")
        for i in range(1, args.iterations + 1):
            result = algo.train()
            runners = result.get("env_runners", {})
            learner = result.get("learners", {}).get("default_policy", {})
            row = {"iteration": i, "env_steps": runners.get("num_env_steps_sampled_lifetime"),
                   "episode_return_mean": _finite(runners.get("episode_return_mean")),
                   "episodes": runners.get("num_episodes_lifetime"),
                   "total_loss": _finite(learner.get("total_loss")),
                   "steps_by_origin": {k: int(v) for k, v in runners.get("retrogym_steps_by_origin", {}).items()}}
            report["iterations"].append(row)
            ret = row["episode_return_mean"]
            print(f"iteration {i:3d}: {row['env_steps']} steps, return mean "
                  f"{'-' if ret is None else f'{ret:.1f}'}, loss {row['total_loss']}, steps by origin "
                  f"{row['steps_by_origin']}", flush=True)
    finally:
        if algo is not None:
            algo.stop()
        ray.shutdown()
        if args.json:
            report["seconds"] = time.monotonic() - start
            with open(args.json, "w") as f:
                json.dump(report, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
