"""Each action mode maps to the right buttons: decode_action / get_action_meaning against an independent decoding
from the action groups (docs/formats.md, "Action groups"), and the buttons really reach the console (the test ROMs copy the pad
into RAM)."""
import itertools

import numpy as np
import pytest

import retrogym
from conftest import SYSTEMS

A = retrogym.Actions
NES = ["B", None, "SELECT", "START", "UP", "DOWN", "LEFT", "RIGHT", "A"]


def bits(names, buttons=NES):
    return sum(1 << buttons.index(n) for n in names)


def multibinary(names, buttons=NES):
    a = np.zeros(len(buttons), np.int8)
    for n in names:
        a[buttons.index(n)] = 1
    return a


def expected_filter(mask, combos):
    """FILTERED per docs/formats.md: per group keep the pressed bits when they form one of its combos."""
    out = 0
    for group in combos:
        group_mask = 0
        for c in group:
            group_mask |= c
        pressed = mask & group_mask
        if pressed in group:
            out |= pressed
    return out


def expected_discrete(action, combos, players):
    out = []
    for _ in range(players):
        m = 0
        for group in combos:
            m |= group[action % len(group)]
            action //= len(group)
        out.append(m)
    return out


@pytest.mark.starcatcher
class TestStarCatcher:
    def test_all_passes_every_button(self, env_factory):
        env = env_factory(use_restricted_actions=A.ALL)
        assert env.decode_action(multibinary(["UP", "DOWN", "START"])) == [bits(["UP", "DOWN", "START"])]
        assert env.get_action_meaning(multibinary(["UP", "DOWN", "START"])) == ["START", "UP", "DOWN"]
        assert env.decode_action([2, 0, 0, 0, 0, 0, 0, 0, 1]) == [bits(["B", "A"])]  # any non-zero value presses

    def test_filtered_drops_what_the_groups_do_not_allow(self, env_factory):
        env = env_factory(use_restricted_actions=A.FILTERED)
        assert env.decode_action(multibinary(["UP", "DOWN", "LEFT"])) == [bits(["LEFT"])]
        assert env.decode_action(multibinary(["START", "SELECT"])) == [0]
        assert env.get_action_meaning(multibinary(["A", "B", "RIGHT"])) == ["B", "RIGHT", "A"]
        combos = env.button_combos
        for mask in range(1 << 9):
            a = [(mask >> i) & 1 for i in range(9)]
            assert env.decode_action(a) == [expected_filter(mask, combos)], mask
            assert env.data.filter_action(mask) == expected_filter(mask, combos)

    def test_discrete(self, env_factory):
        env = env_factory(use_restricted_actions=A.DISCRETE)
        combos = env.button_combos
        for action in range(env.action_space.n):
            assert env.decode_action(action) == expected_discrete(action, combos, 1)
            assert env.decode_action(np.int64(action)) == expected_discrete(action, combos, 1)
        assert env.get_action_meaning(1) == ["UP"]
        assert env.get_action_meaning(3) == ["LEFT"]
        assert env.get_action_meaning(9 * 3) == ["B", "A"]

    def test_discrete_two_players(self, env_factory):
        env = env_factory(use_restricted_actions=A.DISCRETE, players=2)
        combos = env.button_combos
        for action in (0, 1, 35, 36, 37, 36 * 35 + 7, 36 * 36 - 1):
            assert env.decode_action(action) == expected_discrete(action, combos, 2)
        assert env.get_action_meaning(36 * 2) == [[], ["DOWN"]]

    def test_multi_discrete(self, env_factory):
        env = env_factory(use_restricted_actions=A.MULTI_DISCRETE)
        combos = env.button_combos
        for ids in itertools.product(*(range(len(g)) for g in combos)):
            want = 0
            for g, i in enumerate(ids):
                want |= combos[g][i]
            assert env.decode_action(list(ids)) == [want]

    def test_multi_discrete_two_players_uses_each_players_slice(self, env_factory):
        env = env_factory(use_restricted_actions=A.MULTI_DISCRETE, players=2)
        assert env.decode_action([1, 0, 0, 0, 2, 3]) == [bits(["UP"]), bits(["RIGHT", "B", "A"])]
        assert env.get_action_meaning([0, 0, 2, 2, 0, 0]) == [["A"], ["DOWN"]]

    def test_two_player_multibinary(self, env_factory):
        env = env_factory(use_restricted_actions=A.ALL, players=2)
        a = np.concatenate([multibinary(["A"]), multibinary(["LEFT", "B"])])
        assert env.decode_action(a) == [bits(["A"]), bits(["LEFT", "B"])]
        assert [list(x) for x in env.action_to_array(a)] == [list(multibinary(["A"])),
                                                             list(multibinary(["LEFT", "B"]))]


@pytest.mark.parametrize("system", SYSTEMS)
def test_buttons_reach_the_console(test_games, env_factory, system):
    """Every named button of every system, pressed through ALL, shows in the ROM's pad copy after the step."""
    game = test_games[system]
    env = env_factory(game, use_restricted_actions=A.ALL)
    env.reset(seed=0)
    for _ in range(8):
        env.step(np.zeros(env.num_buttons, np.int8))
    for name, ram_bits in game.pad_bits.items():
        a = np.zeros(env.num_buttons, np.int8)
        a[env.buttons.index(name)] = 1
        assert env.get_action_meaning(a) == [name]
        _, _, _, _, info = env.step(a)
        assert info["pad"] & ram_bits == ram_bits, f"{system} {name}: pad {info['pad']:#x}"
        assert info["pad"] & ~ram_bits == 0, f"{system} {name}: pad {info['pad']:#x}"
        _, _, _, _, info = env.step(np.zeros(env.num_buttons, np.int8))
        assert info["pad"] & ram_bits == 0, f"{system} {name} released: pad {info['pad']:#x}"


@pytest.mark.parametrize("system", SYSTEMS)
def test_discrete_actions_reach_the_console(test_games, env_factory, system):
    """Each DISCRETE action of player 1 presses what the groups say (checked on the ROM's pad copy)."""
    game = test_games[system]
    env = env_factory(game, use_restricted_actions=A.DISCRETE)
    env.reset(seed=0)
    for _ in range(8):  # past the ROM's warm-up frames
        env.step(0)
    combos = env.button_combos
    for action in range(min(env.action_space.n, 64)):
        mask = expected_discrete(action, combos, 1)[0]
        assert env.decode_action(action) == [mask]
        _, _, _, _, info = env.step(action)
        want = 0
        for i, name in enumerate(env.buttons):
            if mask >> i & 1 and name in game.pad_bits:
                want |= game.pad_bits[name]
        got = info["pad"] & sum(game.pad_bits.values())
        assert got == want, f"{system} action {action}: pad {info['pad']:#x}, want {want:#x}"
