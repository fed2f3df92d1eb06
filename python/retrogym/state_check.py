"""``retrogym.make(..., check_state=True)``: the start state is first loaded in a child process (a fresh Python
running the same make, a reset and a few steps), so that a damaged state that crashes or hangs a third-party core
takes down the child, not the caller (docs/reliability.md, "Damaged save states"). Opt-in: without it ``make``
loads the state in-process at once, as it always did. The child is started with ``subprocess`` (fork and exec), safe
from a threaded process."""
import json
import signal
import subprocess
import sys

from . import data as _data
from .enums import State

_CHILD = r"""
import json, sys
a = json.loads(sys.argv[1])
import retrogym
from retrogym import data
from retrogym.enums import State
if a["root"] is not None:
    data.set_path(a["root"])
for folder in a["custom"]:
    data.add_custom_path(folder)
data.add_integrations(a["default"])
state = {"DEFAULT": State.DEFAULT, "NONE": State.NONE}.get(a["state"], a["state"])
try:
    env = retrogym.make(a["game"], state=state, scenario=a["scenario"], players=a["players"], inttype=a["inttype"],
                        obs_type=retrogym.Observations.RAM, **a["options"])
    env.reset(seed=0)
    for _ in range(a["frames"]):
        env.step(env.action_space.sample() * 0)
    env.close()
except Exception as e:
    sys.stderr.write(str(e))
    sys.exit(3)
"""


def check(game, state, scenario, players, inttype, options, timeout=30.0, frames=10):
    """Makes the env in a child process first. Raises RuntimeError when the child died of a signal (the core
    crashed), TimeoutError when it ran past ``timeout`` seconds (killed); returns when it worked or was refused (the
    caller's make then gives that error itself)."""
    if isinstance(state, State):
        state = state.name
    with _data._lock:
        root, custom, default = _data._root, list(_data._custom), _data._default
    args = {
        "game": game, "state": state, "scenario": scenario, "players": players,
        "inttype": int(_data.resolve(inttype)), "root": root, "custom": custom, "default": default,
        "options": {k: v for k, v in options.items() if k in ("core", "core_options")}, "frames": frames,
    }
    try:
        run = subprocess.run([sys.executable, "-c", _CHILD, json.dumps(args)], capture_output=True, text=True,
                             timeout=timeout)
    except subprocess.TimeoutExpired:
        raise TimeoutError(f"check_state: making {game} from state {state} did not finish in {timeout} s in a child "
                           "process (killed); the core hangs on it") from None
    if run.returncode < 0:
        try:
            name = signal.Signals(-run.returncode).name
        except ValueError:
            name = f"signal {-run.returncode}"
        raise RuntimeError(f"check_state: state {state} of {game} crashed the core in a child process ({name}); "
                           "the env was not made")
    if run.returncode not in (0, 3):
        raise RuntimeError(f"check_state: state {state} of {game} ended the child process with exit status "
                           f"{run.returncode} (the core exited); the env was not made")
