"""A Master System or Game Gear start state saved by Genesis Plus GX (what stable-retro's Sms and GameGear
integrations ship) runs on our own core when no core is named, even with GPGX installed: our core comes first in the
system's list and converts GPGX's states (src/emu/state_core.c, docs/sms.md "State import"). From that state every
step equals GPGX's own run of it: observation bytes, RAM, reward, terminated, truncated and info."""
import gzip
import os

import numpy as np
import pytest

import retrogym
from test_sega_cores import OURS, _actions, _gpgx


@pytest.mark.parametrize("system", ["Sms", "GameGear"])
def test_a_gpgx_state_runs_on_our_core(test_games, system, monkeypatch):
    gpgx = _gpgx()
    if gpgx is None:
        pytest.skip("stable-retro's wheel (Genesis Plus GX) is not installed")
    monkeypatch.setenv("RETROGYM_CORE_PATH", os.path.dirname(gpgx))  # GPGX installed, as a user may have it
    game = test_games[system]
    saver = game.make(core=gpgx)
    try:
        saver.reset(seed=0)
        for action in _actions(saver, 90, seed=5):
            saver.step(action)
        state = saver.em.get_state()
    finally:
        saver.close()
    assert state[:10] == b"GENPLUS-GX"
    path = os.path.join(game.dir, "Gpgx.state")
    with gzip.open(path, "wb") as f:
        f.write(state)
    ours = theirs = None
    try:
        ours = retrogym.make(game.name, state="Gpgx", inttype=retrogym.Integrations.CUSTOM_ONLY)
        theirs = game.make(core=gpgx, state="Gpgx")
        assert ours.core == OURS[system] and theirs.core == "genesis_plus_gx"
        o1, i1 = ours.reset(seed=1)
        o2, i2 = theirs.reset(seed=1)
        assert np.array_equal(o1, o2) and i1 == i2
        assert i1["counter"] != 0  # the state is 90 frames into the game, not power-on
        for step, action in enumerate(_actions(ours, 150, seed=9)):
            r1, r2 = ours.step(action), theirs.step(action)
            where = f"{system}, step {step}"
            assert np.array_equal(r1[0], r2[0]), f"{where}: observations differ"
            assert np.array_equal(ours.get_ram(), theirs.get_ram()), f"{where}: RAM differs"
            assert r1[1:] == r2[1:], f"{where}: {r1[1:]} != {r2[1:]}"
            if r1[2] or r1[3]:
                assert np.array_equal(ours.reset()[0], theirs.reset()[0]), f"{where}: reset observations differ"
    finally:
        for env in (ours, theirs):
            if env is not None:
                env.close()
        os.remove(path)
