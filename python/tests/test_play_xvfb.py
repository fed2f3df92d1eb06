"""The human player under a real X server: Xvfb (a virtual display), `python -m retrogym.examples.interactive` in its
own process drawing its window there through SDL's X11 driver, and key presses synthesised through the X server
(xdotool, XTEST) into that window: Right held, then x (the NES's A), then Escape. The .bk2 movie it records holds
those buttons, and plays back (the recorded rewards and done checked, by retrogym.playback_movie and the CLI's
`retrogym playback`), with the player moved right. Skipped where Xvfb, xdotool or pygame is missing (`make test`
installs Debian's xvfb and xdotool)."""
import glob
import importlib.util
import os
import shutil
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import retrogym
from conftest import GAME, SOURCE

CLI = os.path.join(SOURCE, "build", "cli", "retrogym")
_missing = [tool for tool in ("Xvfb", "xdotool") if shutil.which(tool) is None]
pytestmark = [
    pytest.mark.starcatcher,
    pytest.mark.skipif(bool(_missing), reason=f"{' and '.join(_missing)} not installed (Debian: apt-get install "
                                              "xvfb xdotool; make test installs them)"),
    pytest.mark.skipif(importlib.util.find_spec("pygame") is None, reason="pygame is not installed"),
]


@pytest.fixture
def display():
    """A fresh Xvfb display (its number chosen by the server: -displayfd), stopped after the test."""
    read, write = os.pipe()
    proc = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "640x560x24", "-nolisten", "tcp"],
                            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    os.close(write)
    try:
        number = b""
        deadline = time.monotonic() + 20
        while not number.endswith(b"\n") and time.monotonic() < deadline:
            chunk = os.read(read, 16)
            if not chunk:
                break
            number += chunk
        assert number.strip().isdigit(), f"Xvfb did not start (got {number!r})"
        yield f":{number.strip().decode()}"
    finally:
        os.close(read)
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def xdotool(env, *args, timeout=20):
    out = subprocess.run(["xdotool", *args], env=env, capture_output=True, text=True, timeout=timeout)
    assert out.returncode == 0, (args, out.stderr)
    return out.stdout


def test_human_keys_through_x_are_recorded_and_play_back(display, tmp_path):
    movies = tmp_path / "movies"
    env = dict(os.environ, DISPLAY=display, SDL_VIDEODRIVER="x11", SDL_AUDIODRIVER="dummy")
    # 60 steps a second; --max-steps bounds the run should a key go astray
    player = subprocess.Popen([sys.executable, "-m", "retrogym.examples.interactive", GAME, "--record", str(movies),
                               "--scale", "1", "--max-steps", "3000"],
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # the player's window (found by its _NET_WM_PID, which SDL sets)
        window, deadline = None, time.monotonic() + 30
        while window is None and time.monotonic() < deadline:
            assert player.poll() is None, player.communicate()[1][-3000:]
            found = subprocess.run(["xdotool", "search", "--pid", str(player.pid)], env=env,
                                   capture_output=True, text=True, timeout=20).stdout.split()
            window = found[0] if found else time.sleep(0.2)
        assert window is not None, "no player window within 30 s"
        xdotool(env, "windowfocus", "--sync", window)
        time.sleep(0.3)
        xdotool(env, "keydown", "Right")
        time.sleep(1.0)
        xdotool(env, "keyup", "Right")
        xdotool(env, "keydown", "x")
        time.sleep(0.3)
        xdotool(env, "keyup", "x")
        time.sleep(0.2)
        xdotool(env, "key", "Escape")
        out, err = player.communicate(timeout=60)
    finally:
        if player.poll() is None:
            player.kill()
            player.communicate()
    assert player.returncode == 0, err[-3000:]
    steps = int(out.split(" steps,")[0].split()[-1])
    assert 30 < steps < 3000, out  # Escape ended it, not --max-steps

    recorded = sorted(glob.glob(str(movies / "*.bk2")))
    assert len(recorded) == 1, recorded
    # Python's playback checks every frame's recorded reward and done
    xs = [info["player_x"] for _, _, _, _, info in retrogym.playback_movie(recorded[0])]
    assert len(xs) == steps
    assert max(xs) > xs[0], "holding Right moved the player right"

    with retrogym.make(GAME) as game:
        buttons = game.buttons
    if not os.access(CLI, os.X_OK):
        pytest.skip(f"the CLI is not built ({CLI}): the buttons and `retrogym playback` are not checked")
    npz = tmp_path / "movie.npz"
    run = subprocess.run([CLI, "playback", recorded[0], "--npz", str(npz)], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr  # the rewards and done of every frame as recorded
    actions = np.load(npz)["actions"]
    assert actions.shape == (steps, len(buttons))
    right, a = actions[:, buttons.index("RIGHT")], actions[:, buttons.index("A")]
    # Right was held about a second (~60 steps at 60 per second), then x (A) about 0.3 s, never both at once
    assert 20 <= right.sum() <= 120 and 5 <= a.sum() <= 60, (right.sum(), a.sum())
    assert np.flatnonzero(right).max() < np.flatnonzero(a).min()
    held = np.flatnonzero(right)
    assert (np.diff(held) == 1).all(), "Right was one continuous press"
