"""Clear errors for hostile integration files (issue 16) through retrogym.make: a damaged metadata.json, more
action groups than DISCRETE actions can number, a FIFO in place of data.json (an error, never a wait). A real
integration of our Atari test ROM on our own Atari core."""
import json
import os
import signal

import pytest

import retrogym
from retrogym import Actions, State

GAME = "Test-Atari2600"


@pytest.fixture
def game_dir(a26_game_dir):
    return a26_game_dir


def make(**kw):
    return retrogym.make(GAME, core="atari2600", **kw)


def test_damaged_metadata_is_an_error(game_dir):
    make().close()  # no metadata.json: power-on
    (game_dir / "metadata.json").write_text('{"default_state": ')
    with pytest.raises(ValueError, match="metadata.json"):
        make()
    (game_dir / "metadata.json").write_text('{"default_state": 5}')
    with pytest.raises(ValueError, match="default_state must be a string"):
        make()
    make(state=State.NONE).close()  # an explicit start does not read it


def test_discrete_action_overflow_names_the_limit(game_dir):
    buttons = [b for b in retrogym.data.get_system_info("Atari2600")["buttons"] if b]
    groups = [[[], [a], [b]] for i, a in enumerate(buttons) for b in buttons[i + 1:]]
    groups += [[[], [a], [b], [c]] for i, a in enumerate(buttons) for j, b in enumerate(buttons[i + 1:], i + 1)
               for c in buttons[j + 1:]]
    scen = {"reward": {"variables": {"byte": {"reward": 1}}}, "actions": groups}
    (game_dir / "scenario.json").write_text(json.dumps(scen))
    with pytest.raises(ValueError, match="more combinations than the limit of 9223372036854775807"):
        make(use_restricted_actions=Actions.DISCRETE)
    env = make(use_restricted_actions=Actions.MULTI_DISCRETE)
    try:
        assert len(env.action_space.nvec) == len(groups)
        env.reset(seed=1)
        env.step(env.action_space.sample())
    finally:
        env.close()
    with pytest.raises(ValueError, match="limit of 9223372036854775807"):
        retrogym.env.action_space(Actions.DISCRETE.value, 0, groups, 8, 1)


def test_fifo_data_json_is_refused_at_once(game_dir):
    os.rename(game_dir / "data.json", game_dir / "data.json.aside")
    os.mkfifo(game_dir / "data.json")

    def hung(signum, frame):
        raise AssertionError("make waited on a FIFO")

    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(10)
    try:
        with pytest.raises(OSError, match="not a regular file"):
            make()
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
