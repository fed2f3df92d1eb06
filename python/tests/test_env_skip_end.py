"""The step whose episode ends inside its frame skip, on a real game: Breakout (stable-retro's integration, ale-py's ROM)
on our Atari core, which skips drawing the frames a step does not show. At frame skip 4 every step equals four steps
at frame skip 1 with the same action, the last step included, where the game ends on a frame the core first ran
undrawn (src/env/env_step.c draws it again): observation, reward, terminated, truncated, info and RAM. Skipped
without ale-py's ROMs or stable-retro's integrations. The same on our test ROMs for the Atari 2600, NES, SMS, Game
Gear and Genesis cores and the vector pool: CTest env_skip_end."""
import hashlib
import importlib.util
import os
import shutil

import numpy as np
import pytest

from retrogym import atari


def _package_dir(name):
    spec = importlib.util.find_spec(name)
    return os.path.dirname(spec.origin) if spec and spec.origin else None


ALE = _package_dir("ale_py")
SR = _package_dir("stable_retro")
ROM = os.path.join(ALE, "roms", "breakout.bin") if ALE else None
INTEGRATION = os.path.join(SR, "data", "stable", "Breakout-Atari2600-v0") if SR else None
pytestmark = pytest.mark.skipif(not (ROM and os.path.isfile(ROM) and INTEGRATION and os.path.isdir(INTEGRATION)),
                                reason="ale-py (with its ROMs) or stable-retro is not installed")

SKIP = 4
FRAME_COUNTS = ("episode_frame_number", "frame_number")  # count a step's frames by design (docs/compat.md)


@pytest.fixture
def breakout_root(saved_data_settings, tmp_path):
    dst = tmp_path / "stable" / "Breakout-Atari2600-v0"
    shutil.copytree(INTEGRATION, dst)
    with open(ROM, "rb") as f:
        assert hashlib.sha1(f.read()).hexdigest() == (dst / "rom.sha").read_text().split()[0]
    shutil.copy(ROM, dst / "rom.a26")
    saved_data_settings.set_path(str(tmp_path))
    saved_data_settings.clear_custom_paths()
    return tmp_path


def _episode(skipped, single, seed):
    """Plays one game in both envs; returns the frame of the last step the game ended on (0..SKIP-1) and whether
    that frame's picture differs from the step before's (the last one drawn before it)."""
    a, _ = skipped.reset(seed=seed)
    b, _ = single.reset(seed=seed)
    assert np.array_equal(a, b)
    rng = np.random.default_rng(seed)
    for step in range(3000):
        action = int(rng.integers(skipped.action_space.n))
        before = a
        a, ra, ta, ua, ia = skipped.step(action)
        rb = 0.0
        for f in range(SKIP):
            b, r, tb, ub, ib = single.step(action)
            rb += r
            if tb or ub:
                break
        where = f"seed {seed}, step {step}, frame {f} of the step"
        assert (ta, ua) == (tb, ub), where
        assert ra == rb, where
        assert np.array_equal(a, b), f"{where}: the observation differs{' (the end)' if ta else ''}"
        assert np.array_equal(skipped.get_ram(), single.get_ram()), where
        assert {k: v for k, v in ia.items() if k not in FRAME_COUNTS} == \
            {k: v for k, v in ib.items() if k not in FRAME_COUNTS}, where
        if ta or ua:
            assert ta, f"seed {seed}: truncated, not ended"
            return f, not np.array_equal(a, before)
    pytest.fail(f"seed {seed}: the game did not end in 3000 steps")


def test_breakout_ends_inside_the_skip_as_frame_by_frame(breakout_root):
    skipped = atari.AtariEnv("Breakout", frameskip=SKIP, repeat_action_probability=0.0, fire_reset=True)
    single = atari.AtariEnv("Breakout", frameskip=1, repeat_action_probability=0.0, fire_reset=True)
    try:
        # until a game ends on a frame the step did not show, with a picture other than the last one shown before
        # (what the step returned when that frame stayed undrawn)
        shown = False
        for seed in range(12):
            end, changed = _episode(skipped, single, seed)
            shown = shown or (end < SKIP - 1 and changed)
            if shown and seed >= 2:
                break
        assert shown, "no game ended inside a skip on a new picture"
    finally:
        skipped.close()
        single.close()
