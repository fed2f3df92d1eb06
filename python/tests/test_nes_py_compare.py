"""gym-super-mario-bros on nes-py and on retrogym.nes_py, the same 2,000 steps of a fixed action sequence, info
streams compared (bench/nes_py_compare.py). nes-py cannot live in .venv (it pins old gym and pyglet<=1.5.21 and
fails under NumPy 2), so this runs only when $RETROGYM_NES_PY_PYTHON names a Python that has nes-py and
gym-super-mario-bros (docs/python.md, "nes-py"); it skips otherwise.

What agrees (docs/python.md): nes-py's frame ends one frame of game logic before a libretro core's, so its step i+1
shows what ours shows after step i; so shifted, position, score, coins, lives, world and stage agree step for step
through Mario's first life. The in-game clock ticks on other steps (the skip of the start screen stops at another
point of the clock's sub-counter) and after the first death the respawn lands on another frame, so the runs part."""
import importlib.util
import json
import os
import subprocess
import sys

import pytest

from conftest import SOURCE, core_for

SCRIPT = os.path.join(SOURCE, "bench", "nes_py_compare.py")
STEPS = 2000
GAME_KEYS = ["x_pos", "y_pos", "score", "coins", "life", "world", "stage", "status", "flag_get"]


def emit(python, side, steps, env=None):
    cmd = [python, SCRIPT, "--emit", side, "--steps", str(steps)]
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout)


def test_info_stream_agrees_with_nes_py():
    nes_py_python = os.environ.get("RETROGYM_NES_PY_PYTHON")
    if not nes_py_python or not os.access(nes_py_python, os.X_OK):
        pytest.skip("set RETROGYM_NES_PY_PYTHON to a Python with nes-py and gym-super-mario-bros installed")
    if importlib.util.find_spec("gym_super_mario_bros") is None:
        pytest.skip("gym-super-mario-bros is not installed (make venv installs it)")
    core = core_for("Nes")
    env = dict(os.environ)
    if core is not None:
        env["RETROGYM_NES_CORE"] = core
    theirs = emit(nes_py_python, "nes-py", STEPS + 1)
    ours = emit(sys.executable, "ours", STEPS, env)
    sys.path.insert(0, os.path.dirname(SCRIPT))
    from nes_py_compare import compare

    first_life = next(i for i in range(1, STEPS + 1) if theirs[i][2]["life"] != theirs[1][2]["life"]) - 1
    assert first_life > 300  # the sequence plays for a while before the first death
    for i in range(first_life):
        for key in GAME_KEYS:
            assert theirs[i + 1][2][key] == ours[i][2][key], (i, key, theirs[i + 1], ours[i])
    shifted = compare(theirs, ours, shift=1)
    assert shifted["per_key"]["done"] == STEPS  # episodes end on the same steps
    assert sum(t[1] for t in theirs[1:]) >= 1  # and one did end
    assert shifted["per_key"]["world"] == shifted["per_key"]["stage"] == STEPS
