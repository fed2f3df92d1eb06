"""Memory search through env.data (docs/search.md) on our own game StarCatcher-Nes: find the score and the lives from
scratch by value and delta searches as a user would (play until the number on screen changes, search, narrow), and
check the addresses found are those of data.json; saving and resuming searches; the errors."""
import json

import numpy as np
import pytest

import retrogym
from retrogym.gamedata import SearchResult

pytestmark = pytest.mark.starcatcher

# The README's script: rewards of 10 at steps 469, 1237 and 2069.
SCRIPT = {30: ["RIGHT"], 80: [], 500: ["LEFT"], 600: [], 1200: ["A", "RIGHT"], 1230: [], 2500: ["LEFT"]}


def actions(env, steps):
    held = []
    for step in range(steps):
        held = SCRIPT.get(step, held)
        a = np.zeros(env.num_buttons, np.int8)
        for name in held:
            a[env.buttons.index(name)] = 1
        yield a


def data_json():
    with open(retrogym.data.get_file_path("StarCatcher-Nes", "data.json")) as f:
        return json.load(f)["info"]


def last_byte(r):
    return r.address + int(r.type[-1]) - 1


def test_find_the_score(env_factory):
    env = env_factory(obs_type=retrogym.Observations.RAM)
    env.reset(seed=0)
    d = env.data
    d.search("score", 0)  # the screen shows 0
    d.delta_search("score_up", "equal", 0)  # a delta search from here
    first = d.get_search("score").num_results()
    assert first > 1000
    score, rounds = 0, 0
    for a in actions(env, 2100):
        _, reward, _, _, _ = env.step(a)
        if reward:  # the score on screen went up
            score += int(reward)
            d.search("score", score)
            d.delta_search("score_up", "equal", int(reward))  # "increased by"
            rounds += 1
    assert rounds == 3 and score == 30
    score_var = data_json()["score"]
    assert score_var["type"] == ">d3"
    end = score_var["address"] + 2
    for name in ("score", "score_up"):
        s = d.searches[name]
        results = s.results()
        assert 0 < len(results) < 40 < first
        assert all(isinstance(r, SearchResult) for r in results)
        # every big-endian BCD candidate is the score's digits: it ends at the data.json score's last byte
        bcd = [r for r in results if r.type in ("|d1", ">d2", ">d4", ">d6", ">d8")]
        assert bcd and all(last_byte(r) == end for r in bcd), bcd
        assert SearchResult(end, "|d1", 1, 1, 0) in results
        assert SearchResult(end - 1, ">d2", 1, 1, 0) in results
        # a 6-digit big-endian BCD score ending there starts at data.json's address
        assert end - 3 + 1 == score_var["address"]
        assert ">d2" in s.types and "|u1" not in s.types
        typed = dict(s.typed_results())
        assert "|d1" in typed[(end, 1, 1, 0)]
    # the rest are the digits the game shows (one per byte, low nybble), never the score's bytes
    assert all(r.type[-2] == "n" for r in d.searches["score"].results() if last_byte(r) != end)


def test_find_the_lives(env_factory):
    env = env_factory(use_restricted_actions=retrogym.Actions.DISCRETE, obs_type=retrogym.Observations.RAM)
    env.reset(seed=0)
    d = env.data
    d.search("lives", 3)
    d.delta_search("lost", "equal", 0)
    lives, drops = 3, 0
    for step in range(3300):
        _, _, _, _, info = env.step(0)
        if info["lives"] != lives:  # the lives counter on screen dropped
            lives = info["lives"]
            d.search("lives", lives)
            d.delta_search("lost", "negative-equal", 1)  # "decreased by 1"
            drops += 1
        elif step % 250 == 0:
            d.delta_search("lost", "equal", 0)  # "unchanged"
    assert drops == 2 and lives == 1
    lives_var = data_json()["lives"]
    assert lives_var["type"] == "|u1"
    single = {}
    for name in ("lives", "lost"):
        results = d.get_search(name).results()
        assert 0 < len(results) < 120
        single[name] = {r.address for r in results if r.type == "|u1"}
        assert lives_var["address"] in single[name]
    # the value search alone has it; the delta search also keeps the lives digit the game shows (785)
    assert single["lives"] == {lives_var["address"]}
    assert single["lives"] & single["lost"] == {lives_var["address"]}
    # the value search's binary candidates are all the lives byte, widened with the zero bytes after it
    assert all(r.address == lives_var["address"] for r in d.get_search("lives").results() if r.type[-2] == "u")
    assert d.get_search("lives").rounds == 3
    assert set(d.list_searches()) == {"lives", "lost"}


def test_save_resume_and_errors(env_factory, tmp_path):
    env = env_factory(obs_type=retrogym.Observations.RAM)
    env.reset(seed=0)
    d = env.data
    d.search("score", 0)
    d.delta_search("any", "equal", 0)
    n0 = d.searches["score"].num_results()
    assert d.searches["score"].memory_bytes < 1 << 20
    path = tmp_path / "searches.json"
    d.save_searches(path)
    saved = json.loads(path.read_text())
    assert saved["format"] == "retrogym-searches" and [s["name"] for s in saved["searches"]] == ["any", "score"]

    # a second environment resumes the searches where they were
    env.close()
    env2 = env_factory(obs_type=retrogym.Observations.RAM)
    env2.reset(seed=0)
    env2.data.load_searches(path)
    assert sorted(env2.data.searches) == ["any", "score"]
    assert env2.data.searches["score"].num_results() == n0
    for a in actions(env2, 470):
        env2.step(a)
    env2.data.searches["score"].search(10)
    env2.data.searches["any"].delta("equal", 10)
    for name in ("score", "any"):
        assert SearchResult(34, "|d1", 1, 1, 0) in env2.data.searches[name].results()

    # a bad file: ValueError, nothing changes
    bad = tmp_path / "bad.json"
    saved["searches"][0]["blocks"][0]["memory"] = "zz"
    bad.write_text(json.dumps(saved))
    before = env2.data.searches["score"].num_results()
    with pytest.raises(ValueError, match="hex digits"):
        env2.data.load_searches(bad)
    assert env2.data.searches["score"].num_results() == before
    with pytest.raises(FileNotFoundError):
        env2.data.load_searches(tmp_path / "missing.json")

    with pytest.raises(KeyError):
        env2.data.get_search("nothing")
    with pytest.raises(KeyError):
        env2.data.remove_search("nothing")
    with pytest.raises(ValueError, match="unknown delta search operation"):
        env2.data.delta_search("score", "bigger", 1)
    with pytest.raises(ValueError):
        env2.data.search("", 1)
    del env2.data.searches["any"]
    assert list(env2.data.searches) == ["score"]
    env2.data.remove_search("score")
    assert env2.data.list_searches() == {}
