"""gym-super-mario-bros on nes-py's emulator and on retrogym.nes_py: the same fixed action sequence, the info streams
compared step by step (docs/python.md, "nes-py").

nes-py (8.2.1 from PyPI) pins old gym, pyglet<=1.5.21 and needs NumPy < 2, so it lives in a virtual environment of its
own; this script runs the nes-py side there as a child process:

    python3.11 -m venv /tmp/nespy-venv
    /tmp/nespy-venv/bin/pip install nes-py==8.2.1 gym-super-mario-bros==7.4.0 'numpy<2'
    .venv/bin/python bench/nes_py_compare.py --nes-py-python /tmp/nespy-venv/bin/python [--steps 2000] [--core fceumm]

``--emit ours|nes-py`` prints one side's stream as JSON (what the parent reads). The actions are drawn from
``random.Random(seed)``: runs of 1 to 24 steps of one of right, right+A, right+B, right+A+B, A, NOOP, left, so Mario
walks, jumps and dies; an episode that ends is reset and the stream goes on."""
import argparse
import json
import os
import random
import subprocess
import sys

# joypad bytes (nes-py's bits: A 0x01, B 0x02, right 0x80, left 0x40)
CHOICES = [0x80, 0x81, 0x82, 0x83, 0x01, 0x00, 0x40]
WEIGHTS = [5, 4, 3, 3, 1, 1, 1]


def actions(steps, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < steps:
        out += [rng.choices(CHOICES, WEIGHTS)[0]] * rng.randint(1, 24)
    return out[:steps]


def stream(steps, seed, ours, core=None):
    """[(reward, done, info), ...] of SuperMarioBros-v0 (the env class itself, no gym.make wrappers)."""
    if ours:
        if core:
            os.environ["RETROGYM_NES_CORE"] = core
        import retrogym.nes_py

        retrogym.nes_py.install()
    from gym_super_mario_bros import SuperMarioBrosEnv

    env = SuperMarioBrosEnv()
    env.reset()
    out = []
    for action in actions(steps, seed):
        result = env.step(action)
        reward, done, info = result[1], result[2], result[-1]
        out.append([float(reward), bool(done), {k: (v if isinstance(v, str) else int(v)) for k, v in info.items()}])
        if done:
            env.reset()
    env.close()
    return out


def compare(a, b, shift=0):
    """Agreement of two streams: steps equal in everything, per info key, and the first step that differs.
    ``shift``: compare ``a[i + shift]`` with ``b[i]`` (nes-py's frame ends one frame of game logic earlier than a
    libretro core's: its step i+1 shows what ours shows after step i); ``within_one_step`` counts the steps whose
    info (without the timer digits) equals the other side's at the same step or one step before or after."""
    a = a[shift:]
    n = min(len(a), len(b))
    same = [a[i] == b[i] for i in range(n)]
    first = next((i for i, s in enumerate(same) if not s), None)
    keys = sorted(a[0][2]) if n else []
    per_key = {k: sum(a[i][2][k] == b[i][2][k] for i in range(n)) for k in keys}
    per_key["reward"] = sum(a[i][0] == b[i][0] for i in range(n))
    per_key["done"] = sum(a[i][1] == b[i][1] for i in range(n))
    def game(row):
        return {k: v for k, v in row[2].items() if k != "time"}

    near = sum(any(0 <= i + d < n and game(a[i + d]) == game(b[i]) for d in (-1, 0, 1)) for i in range(n))
    first_key = {k: next((i for i in range(n) if a[i][2][k] != b[i][2][k]), None) for k in keys}
    return {"steps": n, "shift": shift, "equal_steps": sum(same), "first_difference": first, "per_key": per_key,
            "first_difference_per_key": first_key, "within_one_step": near,
            "at_first_difference": None if first is None else {"a": a[first], "b": b[first]}}


def nes_py_stream(python, steps, seed):
    """nes-py's stream, run by ``python`` (an interpreter with nes-py and gym-super-mario-bros) in a child."""
    cmd = [python, os.path.abspath(__file__), "--emit", "nes-py", "--steps", str(steps), "--seed", str(seed)]
    return json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--steps", type=int, default=2000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--core", default=None, help="retrogym's NES core (default: $RETROGYM_NES_CORE or the first)")
    p.add_argument("--emit", choices=["ours", "nes-py"], help="print one side's stream as JSON")
    p.add_argument("--nes-py-python", help="a Python with nes-py and gym-super-mario-bros installed")
    args = p.parse_args(argv)
    if args.emit:
        json.dump(stream(args.steps, args.seed, args.emit == "ours", args.core), sys.stdout)
        return 0
    if not args.nes_py_python:
        p.error("give --nes-py-python (or --emit)")
    theirs = nes_py_stream(args.nes_py_python, args.steps + 1, args.seed)
    mine = stream(args.steps, args.seed, True, args.core)
    for shift in (0, 1):
        result = compare(theirs, mine, shift)
        result.pop("at_first_difference")
        result["core"] = args.core or os.environ.get("RETROGYM_NES_CORE") or "default"
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
