"""A scenario script's globals in snapshots through the Python front (issue 16), on a real integration of our Atari
test ROM on our own Atari core: a 12 MiB string in a global made every clone_state() 12 MB; now clone_state()
raises a ValueError naming the size and the limit, the env steps on, and normal scripts' snapshots stay small."""

import numpy as np
import pytest

import retrogym

GAME = "Test-Atari2600"


@pytest.fixture
def game_dir(a26_game_dir):
    (a26_game_dir / "scenario.json").write_text('{"reward": {"script": "lua:reward"}, "scripts": ["script.lua"]}')
    return a26_game_dir


def run(script_dir, script, check):
    (script_dir / "script.lua").write_text(script)
    env = retrogym.make(GAME, core="atari2600")
    try:
        env.reset(seed=1)
        noop = np.zeros(env.action_space.shape, dtype=env.action_space.dtype)
        env.step(noop)
        check(env, noop)
    finally:
        env.close()


def test_large_global_refused_by_clone_state(game_dir):
    def check(env, noop):
        with pytest.raises(ValueError, match=r"12\.0 MiB in a snapshot, more than its limit of 1024 KiB"):
            env.clone_state()
        assert env.step(noop)[1] == 12 * 1024  # the env goes on

    run(game_dir, "big = string.rep('x', 12 * 1024 * 1024)\nfunction reward() return #big / 1024 end\n", check)


def test_normal_and_local_data_snapshots_stay_small(game_dir):
    sizes = []

    def check(env, noop):
        snap = env.clone_state()
        tail = [env.step(noop)[1] for _ in range(4)]
        env.restore_state(snap)
        assert [env.step(noop)[1] for _ in range(4)] == tail
        # beyond the emulator state and the observation it holds only the game layer's few hundred bytes
        sizes.append(len(snap) - len(env.em.get_state()) - int(np.prod(env.observation_space.shape)))

    run(game_dir, "n = 0\nname = 'x'\nfunction reward() n = n + 1 name = 'at ' .. n return n end\n", check)
    run(game_dir, "local big = string.rep('x', 12 * 1024 * 1024)\nfunction reward() return #big end\n", check)
    assert 0 < sizes[0] < 1024 and 0 < sizes[1] < 1024, sizes
