"""Steps per second of gym-super-mario-bros' SuperMarioBros-v0 on retrogym.nes_py (per NES core) and on nes-py's own
emulator: one environment, the class itself (no gym.make wrappers), the fixed action sequence of
bench/nes_py_compare.py (reset when an episode ends), rounds alternating between the sides, each round in a fresh
child process (the environment is made and reset before the clock starts). Prints the median and the spread of
steps/s and of CPU time per step, and checks that the game runs (Mario's x_pos grows).

    .venv/bin/python bench/bench_nes_py.py [--steps 3000] [--rounds 5] [--cores fceumm,nestopia]
        [--nes-py-python /tmp/nespy-venv/bin/python]

nes-py needs old gym, pyglet<=1.5.21 and NumPy < 2: install it in a venv of its own (bench/nes_py_compare.py)."""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def child(side, steps, seed):
    """One round in this process: JSON with wall and CPU seconds for ``steps`` steps and the x_pos reached."""
    sys.path.insert(0, HERE)
    from nes_py_compare import actions

    if side != "nes-py":
        os.environ["RETROGYM_NES_CORE"] = side
        import retrogym.nes_py

        retrogym.nes_py.install()
    from gym_super_mario_bros import SuperMarioBrosEnv

    env = SuperMarioBrosEnv()
    env.reset()
    acts = actions(steps, seed)
    max_x, start_x = 0, env._x_position
    wall, cpu = time.perf_counter(), time.process_time()
    for a in acts:
        result = env.step(a)
        info = result[-1]
        if info["x_pos"] > max_x:
            max_x = info["x_pos"]
        if result[2]:
            env.reset()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    core = getattr(env, "core", "nes-py")
    env.close()
    json.dump({"wall": wall, "cpu": cpu, "start_x": int(start_x), "max_x": int(max_x), "core": core}, sys.stdout)


def run_round(python, side, steps, seed):
    cmd = [python, os.path.abspath(__file__), "--child", side, "--steps", str(steps), "--seed", str(seed)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--steps", type=int, default=3000)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--cores", default="fceumm,nestopia", help="retrogym NES cores (names or paths), comma-separated")
    p.add_argument("--nes-py-python", help="a Python with nes-py and gym-super-mario-bros (omit: ours only)")
    p.add_argument("--child", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        child(args.child, args.steps, args.seed)
        return 0
    sides = [(c, sys.executable) for c in args.cores.split(",") if c]
    if args.nes_py_python:
        sides.append(("nes-py", args.nes_py_python))
    results = {side: [] for side, _ in sides}
    for _ in range(args.rounds):
        for side, python in sides:
            results[side].append(run_round(python, side, args.steps, args.seed))
    print(f"SuperMarioBros-v0, {args.steps} steps x {args.rounds} rounds, one env, rounds alternating")
    print(f"{'side':>10} {'core':>10} {'steps/s median':>15} {'min-max':>15} {'CPU us/step':>12} {'min-max':>13} "
          f"{'x_pos':>10}")
    medians = {}
    for side, rounds in results.items():
        rates = [args.steps / r["wall"] for r in rounds]
        cpus = [1e6 * r["cpu"] / args.steps for r in rounds]
        medians[side] = statistics.median(rates)
        x = rounds[0]
        assert all(r["max_x"] > r["start_x"] + 100 for r in rounds), f"{side}: Mario did not move: {rounds}"
        print(f"{side:>10} {x['core']:>10} {medians[side]:>15.0f} {min(rates):>7.0f}-{max(rates):<7.0f} "
              f"{statistics.median(cpus):>12.0f} {min(cpus):>6.0f}-{max(cpus):<6.0f} {x['start_x']:>4}->{x['max_x']}")
    if "nes-py" in medians:
        for side in medians:
            if side != "nes-py":
                print(f"{side} / nes-py: {medians[side] / medians['nes-py']:.2f}x steps/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
