"""A core that crashes (SIGSEGV in retro_run) inside Gymnasium's AsyncVectorEnv, one process per environment, over
retrogym.make(core=PATH): the worker dies, the parent gets an exception instead of dying, and goes on (closes the
vector env, makes new environments in-process and in a new vector env). Exit status 77: skipped (no retrogym or
gymnasium in this Python, or the fault cores are not built).

usage: async_vector_crash.py FAULT_CORE_DIR DATA_ROOT
"""
import os
import signal
import sys

GAME = "StarCatcher-Nes"
CRASH_FRAME = 40  # the crashing core runs this many frames, then faults (creation and reset run a few)


def main():
    core_dir, data_root = sys.argv[1], sys.argv[2]
    os.environ["RETROGYM_DATA_PATH"] = data_root
    try:
        import gymnasium as gym
        import numpy as np

        import retrogym
    except ImportError as e:
        print(f"skipped: {e}")
        return 77
    good = os.path.join(core_dir, "fault_good_libretro.so")
    crash = os.path.join(core_dir, "fault_run_segv_libretro.so")
    if not (os.path.isfile(good) and os.path.isfile(crash)):
        print("skipped: the fault cores are not built")
        return 77
    os.environ["FAULT_FRAME"] = str(CRASH_FRAME)  # read by the fault cores at retro_init (inherited by workers)
    tmp = os.environ.get("TMPDIR") or "/tmp"
    instances_before = {n for n in os.listdir(tmp) if n.startswith("retrogym-")}

    def maker(core):
        return lambda: retrogym.make(GAME, core=core)

    # The core is chosen from Python: a path given as core=.
    probe = retrogym.make(GAME, core=good)
    assert probe.core == good or probe.core.endswith("fault_good"), probe.core
    probe.close()

    vec = gym.vector.AsyncVectorEnv([maker(good), maker(crash)])
    vec.reset(seed=1)
    actions = np.zeros(vec.action_space.shape, dtype=vec.action_space.dtype)
    failure = None
    steps = 0
    try:
        for steps in range(1, 4 * CRASH_FRAME):
            vec.step(actions)
    except Exception as e:  # the worker's death, as the parent sees it
        failure = e
    if failure is None:
        print(f"FAIL: {4 * CRASH_FRAME} steps ran although one worker's core crashes at frame {CRASH_FRAME}")
        return 1
    print(f"worker crash seen by the parent after {steps} steps: {type(failure).__name__}: {failure}")
    vec.processes[1].join(timeout=30)  # the crashing core's worker
    codes = [p.exitcode for p in vec.processes]
    print(f"worker exit codes: {codes}")
    # close() would wait forever for the dead worker's step: terminate=True kills the healthy worker too.
    try:
        vec.close(terminate=True)
    except Exception as e:  # closing a vector env with a dead worker may complain; it must not kill us
        print(f"close: {type(e).__name__}: {e}")
    if codes[1] != -signal.SIGSEGV or codes[0] is not None:
        print("FAIL: the second worker (only) should have died by SIGSEGV")
        return 1

    # The parent goes on: an in-process environment, and a new vector env of healthy cores.
    env = retrogym.make(GAME, core=good)
    env.reset(seed=3)
    for _ in range(50):
        env.step(env.action_space.sample())
    env.close()
    vec = gym.vector.AsyncVectorEnv([maker(good), maker(good)])
    vec.reset(seed=2)
    for _ in range(2 * CRASH_FRAME):
        vec.step(actions)
    vec.close()

    # Not contained: a killed process cannot remove its instance's private folder (the core's copy in it was
    # already unlinked: only its lock file and the empty system/ and save/ folders remain): one for the crashed
    # worker, one for the healthy worker killed by close(terminate=True). A later process's first instance sweeps
    # them once their locks are free and a minute old (faults_stale_tmp); here they are checked, then removed.
    left = sorted({n for n in os.listdir(tmp) if n.startswith("retrogym-")} - instances_before)
    print(f"left behind by the killed workers: {left}")
    if not 1 <= len(left) <= 2:
        print("FAIL: expected one or two instance folders left behind")
        return 1
    for name in left:
        inside = sorted(os.listdir(os.path.join(tmp, name)))
        if inside != [".lock", "save", "system"]:
            print(f"FAIL: {name} holds {inside}")
            return 1
        for sub in inside:
            (os.remove if sub == ".lock" else os.rmdir)(os.path.join(tmp, name, sub))
        os.rmdir(os.path.join(tmp, name))
    print("OK: the crash stayed in its worker process")
    return 0


if __name__ == "__main__":
    sys.exit(main())
