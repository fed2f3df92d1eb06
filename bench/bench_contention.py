"""The vector pool under CPU contention: how fast a pool steps, and how much of the CPU it gets, while other processes
keep every CPU busy, beside the same pool on an otherwise idle machine.

A pool of our Atari 2600 core on Pong through ``gym.make_vec("retrogym/Pong-v5", ...)`` (EnvPool's defaults: 84x84
gray, 4-frame stack, frame skip 4 with max-pool; ale-py's ROM imported into the data root, see docs/python.md)
steps random actions for --seconds in a fresh process, while --spinners busy processes (``while 1: pass``, one
thread each) compete for the CPUs. Reported per setting: env steps/s and the pool process's CPU share (its process CPU
time, every thread, / wall time / CPUs) beside its fair share: with T pool threads and S spinners on C CPUs each
runnable thread is owed C / max(C, T + S) of a CPU, so the pool T / max(C, T + S) of the machine; a pool whose threads
sleep while work is queued gets less. Also the context switches per batch (voluntary: a thread slept; involuntary:
the scheduler took its CPU).

--phases: where a batch's time goes instead, by perf (``perf record`` of the measuring process, only while it steps,
through perf's control fifo): the samples of each setting (--envs x --threads, no spinners) sorted into the phases of
a step by symbol (the core's frames, frame conversion and the env's max-pool, the pool's preprocessing, info
columns, the hand-over: pool waits, locks and the kernel's wake-ups and scheduling, Python and NumPy: the call and the
arrays, other), given as a share of the samples and as CPU us per env step (the share times the process CPU per
step), of the first --pkg build (pip strips the installed module: give a CMake build's, e.g. a folder with a
``retrogym`` package whose ``_retrogym`` module is build-py's). Needs perf (root, or perf_event_paranoid <= 1).

Several builds can be compared in one run (--pkg name=DIR: a folder holding a ``retrogym`` package, put first on
PYTHONPATH; ``installed``: the one in this interpreter): rounds alternate the builds' order, and the ratio column is
each build's steps/s over the first build's, the median of per-round ratios. Only ratios from alternating rounds of one
run mean much on a shared machine; the load is printed.

An older build's folder, e.g. of commit C (nothing in the working tree changes):
    git worktree add --detach /tmp/rg-old C
    cmake -S /tmp/rg-old -B /tmp/rg-old/build-py -DCMAKE_BUILD_TYPE=Release -DRG_BUILD_PYTHON=ON -DRG_BUILD_TESTS=OFF \
          -DRG_BUILD_CLI=OFF -DRG_BUILD_BENCH=OFF -DPython_EXECUTABLE=$PWD/.venv/bin/python
    cmake --build /tmp/rg-old/build-py -j2 --target _retrogym
    mkdir -p /tmp/pkg-old/retrogym && for f in /tmp/rg-old/python/retrogym/* /tmp/rg-old/data; do
        [ "${f##*/}" = _ext ] || ln -s "$f" /tmp/pkg-old/retrogym/; done
    cp /tmp/rg-old/build-py/python/_retrogym*.so /tmp/pkg-old/retrogym/
(and the same for the new build), then --pkg old=/tmp/pkg-old new=/tmp/pkg-new; git worktree remove when done.

usage: .venv/bin/python bench/bench_contention.py [--pkg NAME=DIR ...] [--spinners 0 2] [--envs 2 8]
                                                  [--threads 2] [--batch B] [--rounds R] [--seconds S]
       .venv/bin/python bench/bench_contention.py --phases [--envs 1 2 4 8 16] [--threads 2 4] [--seconds S]
"""
import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

SPIN = "while 1: pass"
# Phases of a step, by symbol (first match wins); [k] kernel symbols are the hand-over's (futex waits and wake-ups,
# scheduling) unless named otherwise.
PHASES = [
    ("core frames", r"a26_|tia|riot|m6502|paint|players_changed|rebuild|paddle|playfield|missile|ball_"),
    ("frame conversion + env max-pool", r"row_8888|convert|max_luma|max_rgb|maxpool|video_|gray_xrgb|write_gray"),
    ("preprocessing (pool)", r"rg__luma|rg__taps|rg__store_row|rg__vsum|rg__area|rg__pre_|gather|stack"),
    ("variables, scenario, info columns", r"gamedata|rg__info|info_write|lua|variable|rg_data|scenario|rg_env_|"
                                          r"addrspace|node_done|rg__gd_|run_frame|rg_emu_"),
    ("hand-over (pool waits, locks, wake-ups)", r"rg__pool_|pthread|futex|lll_lock|sched|schedule|switch|wake|"
                                                r"clock_gettime|cpu_relax|\[k\]"),
    ("Python + NumPy (call, arrays)", r"libpython|_multiarray|numpy|Py|_Py|dict|unicode|gc_|obmalloc|malloc|free"),
    ("copies (memmove/memcpy)", r"memmove|memcpy|memset"),
    ("OpenBLAS idle threads (NumPy's)", r"blas"),
]


def measure(n, threads, batch, seconds):
    import gymnasium as gym
    import numpy as np

    import retrogym  # noqa: F401  (registers the ids)
    env = gym.make_vec("retrogym/Pong-v5", num_envs=n, num_threads=threads, batch_size=batch or None)
    rng = np.random.default_rng(0)
    acts = rng.integers(0, env.single_action_space.n, size=(512, n))
    asynchronous = bool(batch) and batch < n
    if asynchronous:
        env.async_reset(seed=0)
        ids = None
        for i in range(20):
            *_, info = env.recv()
            ids = info["env_id"]
            env.send(acts[i][: len(ids)], ids)
    else:
        env.reset(seed=0)
        for i in range(20):
            env.step(acts[i])
    steps = batches = 0
    reward = 0.0
    ctl = os.environ.get("RG_BENCH_PERF_CTL")
    if ctl:  # --phases: perf samples the timed loop only
        ctl_fd = os.open(ctl, os.O_WRONLY)
        os.write(ctl_fd, b"enable\n")
    ru0 = resource.getrusage(resource.RUSAGE_SELF)
    cpu0, t0 = time.process_time(), time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        if asynchronous:
            _, r, _, _, info = env.recv()
            ids = info["env_id"]
            env.send(acts[batches % 512][: len(ids)], ids)
        else:
            _, r, _, _, _ = env.step(acts[batches % 512])
        reward += float(np.abs(r).sum())
        steps += len(r)
        batches += 1
    wall = time.perf_counter() - t0
    cpu = time.process_time() - cpu0
    if ctl:
        os.write(ctl_fd, b"disable\n")
        os.close(ctl_fd)
    ru = resource.getrusage(resource.RUSAGE_SELF)
    env.close()
    return dict(rate=steps / wall, share=cpu / wall / os.cpu_count(), cpu_us=1e6 * cpu / steps, reward=reward,
                vcsw=(ru.ru_nvcsw - ru0.ru_nvcsw) / batches, ivcsw=(ru.ru_nivcsw - ru0.ru_nivcsw) / batches)


def run_one(pkg, n, threads, batch, seconds):
    envv = dict(os.environ)
    if pkg:
        envv["PYTHONPATH"] = pkg + (os.pathsep + envv["PYTHONPATH"] if envv.get("PYTHONPATH") else "")
    cmd = [sys.executable, os.path.abspath(__file__), "--one", str(n), str(threads), str(batch), str(seconds)]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=envv)
    if out.returncode != 0:
        raise RuntimeError(f"{pkg or 'installed'} x{n}: {out.stderr.strip()[-800:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def fmt(values, scale=1.0, digits=0, width=7):
    v = [x * scale for x in values]
    return f"{statistics.median(v):{width}.{digits}f} ({min(v):.{digits}f}..{max(v):.{digits}f})"


def phases(args):
    if not shutil.which("perf"):
        raise SystemExit("--phases needs perf")
    cpus = os.cpu_count()
    print(f"{time.strftime('%Y-%m-%d %H:%M')}; {cpus} CPUs, load {os.getloadavg()[0]:.1f} before; Pong-v5, step(), "
          f"{args.seconds:g} s per setting under perf record -F 1999; CPU us per env step by phase (share of samples)")
    names = [name for name, _ in PHASES] + ["other"]
    print(f"{'envs':>4} {'thr':>3} {'steps/s':>7} {'us/step':>7} " + " ".join(f"{n[:18]:>18}" for n in names))
    for t in args.threads:
        for n in args.envs:
            tmp = tempfile.mkdtemp(prefix="rg-phases-")
            try:
                fifo = os.path.join(tmp, "ctl")
                os.mkfifo(fifo)
                data = os.path.join(tmp, "perf.data")
                envv = dict(os.environ, RG_BENCH_PERF_CTL=fifo)
                pkg = args.pkg[0].split("=", 1)[1]  # the first build (unstripped, for perf's symbols)
                if pkg:
                    envv["PYTHONPATH"] = pkg + (os.pathsep + envv["PYTHONPATH"] if envv.get("PYTHONPATH") else "")
                cmd = ["perf", "record", "-q", "-F", "1999", "-D", "-1", "--control", f"fifo:{fifo}", "-o", data,
                       "--", sys.executable, os.path.abspath(__file__), "--one", str(n), str(t), "0",
                       str(args.seconds)]
                out = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=envv)
                if out.returncode != 0:
                    raise RuntimeError(f"x{n}: {out.stderr.strip()[-800:]}")
                m = json.loads([line for line in out.stdout.splitlines() if line.startswith("{")][-1])
                rep = subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", "dso,sym", "--stdio",
                                      "-g", "none", "--percent-limit", "0"], capture_output=True, text=True,
                                     timeout=600).stdout
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
            share = {name: 0.0 for name in names}
            unsorted = []
            for line in rep.splitlines():
                f = re.match(r"\s*([0-9.]+)%\s+(\S+)\s+(.*)", line)
                if not f:
                    continue
                pct, what = float(f.group(1)), f.group(2) + " " + f.group(3)
                phase = next((name for name, rx in PHASES if re.search(rx, what)), "other")
                share[phase] += pct
                if phase == "other":
                    unsorted.append((pct, what))
            if args.verbose:
                print("  other:", "; ".join(f"{w} {p:.1f}%" for p, w in sorted(unsorted, reverse=True)[:8]))
            total = sum(share.values()) or 1.0
            print(f"{n:>4} {t:>3} {m['rate']:>7.0f} {m['cpu_us']:>7.0f} " +
                  " ".join(f"{m['cpu_us'] * share[k] / total:>9.0f} ({100 * share[k] / total:>4.1f}%)"
                           for k in names), flush=True)
    print(f"load {os.getloadavg()[0]:.1f} after")


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--one":
        n, threads, batch, seconds = sys.argv[2:6]
        print(json.dumps(measure(int(n), int(threads), int(batch), float(seconds))))
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("--pkg", nargs="*", default=["installed="])
    ap.add_argument("--spinners", type=int, nargs="*", default=[0, 2])
    ap.add_argument("--envs", type=int, nargs="*", default=[2, 8])
    ap.add_argument("--threads", type=int, nargs="*", default=[os.cpu_count()])
    ap.add_argument("--batch", type=int, default=0, help="rows per recv (async send/recv); 0: step() all")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--phases", action="store_true", help="perf profile by phase of a step (see above)")
    ap.add_argument("--verbose", action="store_true", help="--phases: the largest unsorted symbols")
    args = ap.parse_args()
    if args.phases:
        return phases(args)
    pkgs = [p.split("=", 1) for p in args.pkg]
    for name, path in pkgs:
        if path and not os.path.isdir(os.path.join(path, "retrogym")):
            raise SystemExit(f"{name}: no retrogym package in {path}")
    cpus = os.cpu_count()
    print(f"{time.strftime('%Y-%m-%d %H:%M')}; {cpus} CPUs, load {os.getloadavg()[0]:.1f} before; Pong-v5 "
          f"(84x84 gray, stack 4, frame skip 4 + max-pool), random actions, "
          f"{'send/recv batch ' + str(args.batch) if args.batch else 'step()'}; {args.rounds} alternating rounds of "
          f"{args.seconds:g} s; median (min..max); share = process CPU / wall / CPUs; fair = T / max(C, T + S)")
    print(f"{'spin':>4} {'envs':>4} {'thr':>3} {'build':>10} {'steps/s':>20} {'vs ' + pkgs[0][0]:>10} "
          f"{'CPU share %':>18} {'fair %':>6} {'CPU us/step':>18} {'vol/batch':>9} {'invol/batch':>11}")
    for s in args.spinners:
        spinners = [subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(s)]
        try:
            time.sleep(0.3 if s else 0)
            for t in args.threads:
                for n in args.envs:
                    res = {name: [] for name, _ in pkgs}
                    for r in range(args.rounds):
                        order = pkgs[r % len(pkgs):] + pkgs[:r % len(pkgs)]
                        for name, path in order:
                            res[name].append(run_one(path, n, t, args.batch, args.seconds))
                    base = res[pkgs[0][0]]
                    fair = min(t, n) / max(cpus, min(t, n) + s)
                    for name, _ in pkgs:
                        rows = res[name]
                        if sum(x["reward"] for x in rows) == 0:
                            raise SystemExit(f"{name} x{n}: no reward in any round: the game is not running")
                        ratio = statistics.median(x["rate"] / y["rate"] for x, y in zip(rows, base))
                        print(f"{s:>4} {n:>4} {t:>3} {name:>10} {fmt([x['rate'] for x in rows]):>20} "
                              f"{ratio:>9.2f}x {fmt([x['share'] for x in rows], 100, 1):>18} {100 * fair:>6.1f} "
                              f"{fmt([x['cpu_us'] for x in rows]):>18} "
                              f"{statistics.median(x['vcsw'] for x in rows):>9.1f} "
                              f"{statistics.median(x['ivcsw'] for x in rows):>11.1f}", flush=True)
        finally:
            for p in spinners:
                p.kill()
                p.wait()
    print(f"load {os.getloadavg()[0]:.1f} after")


if __name__ == "__main__":
    main()
