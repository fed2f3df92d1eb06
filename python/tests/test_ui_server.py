"""The Integration UI's server (retrogym.ui, docs/ui.md) through aiohttp's test client: the token, the screen over
the WebSocket, play controls, rewind, integrating StarCatcher's ROM from nothing, states, metadata.json, memory,
variables (data.json) and the scenario (scenario.json), each read back with retrogym.make."""
import asyncio
import gzip
import json
import os
import struct

import numpy as np
import pytest

aiohttp = pytest.importorskip("aiohttp", reason="the UI needs aiohttp (pip install 'retrogym[ui]'; make venv)")
from aiohttp.test_utils import TestClient, TestServer  # noqa: E402

import retrogym  # noqa: E402
from retrogym import data as rdata  # noqa: E402
from retrogym.ui.integration import propose_name  # noqa: E402
from retrogym.ui.server import UIServer, make_app  # noqa: E402

GAME = "StarCatcher-Nes"


@pytest.fixture(autouse=True)
def _keep_data_settings(saved_data_settings):
    """The UI adds its workspace as a custom path: the process-wide data settings are put back after each test."""
    yield
START = 0x08  # NES joypad id 3: START


def rom_bytes():
    with open(rdata.get_romfile_path(GAME), "rb") as f:
        return f.read()


async def until(cond, what, timeout=10.0):
    """Waits for the server's frame loop to get somewhere (the machine may be busy)."""
    for _ in range(int(timeout / 0.02)):
        if cond():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def run(coro):
    return asyncio.run(coro)


class UI:
    """A server on a fresh writable root, its client, and helpers that raise on an unexpected status."""

    def __init__(self, tmp_path, target=None):
        self.root = str(tmp_path / "root")
        self.srv = UIServer(target, self.root)
        self.h = {"X-Token": self.srv.token}

    async def __aenter__(self):
        self.c = TestClient(TestServer(make_app(self.srv)))
        await self.c.start_server()
        return self

    async def __aexit__(self, *exc):
        await self.c.close()

    async def call(self, path, body=None, status=200, data=None):
        if data is not None:
            r = await self.c.post(path, data=data, headers=self.h)
        elif body is None:
            r = await self.c.get(path, headers=self.h)
        else:
            r = await self.c.post(path, json=body, headers=self.h)
        out = await r.json()
        assert r.status == status, out
        return out

    def folder(self, game):
        return os.path.join(self.root, "custom", game)


def test_propose_name():
    assert propose_name("Star Catcher (USA) [!].nes", "Nes") == "StarCatcher-Nes"
    assert propose_name("/x/super mario_world (Europe) (Rev 1).sfc", "Snes") == "SuperMarioWorld-Snes"
    assert propose_name("[b] (J).gb", "GameBoy") == "Game-GameBoy"


def test_token_required(tmp_path):
    async def body():
        async with UI(tmp_path, GAME) as ui:
            for path in ("/", "/api/status", "/static/app.js", "/ws"):
                r = await ui.c.get(path)
                assert r.status == 403, path
                assert "token" in (await r.json())["error"]
            r = await ui.c.get("/api/status", headers={"X-Token": ui.srv.token[:-1] + "x"})
            assert r.status == 403
            r = await ui.c.get("/", params={"token": ui.srv.token})
            assert r.status == 200 and ui.srv.token in await r.text()
            r = await ui.c.get("/static/app.js", params={"token": ui.srv.token})
            assert r.status == 200 and "WebSocket" in await r.text()
            r = await ui.c.get("/static/../server.py", params={"token": ui.srv.token})
            assert r.status in (403, 404)
    run(body())


def test_screen_and_controls(tmp_path):
    async def body():
        async with UI(tmp_path, GAME) as ui:
            s = ui.srv.session
            ws = await ui.c.ws_connect("/ws", params={"token": ui.srv.token})
            msg = await ws.receive(timeout=5)
            assert msg.type == aiohttp.WSMsgType.BINARY
            magic, (w, h, frame) = msg.data[:4], struct.unpack("<HHI", msg.data[4:12])
            assert magic == b"RGF1" and (w, h) == (256, 224) and len(msg.data) == 12 + w * h * 3
            assert np.array_equal(np.frombuffer(msg.data[12:], np.uint8).reshape(h, w, 3), s.screen()) or frame > 0
            # it runs: frames and info messages arrive
            kinds = set()
            for _ in range(40):
                m = await ws.receive(timeout=5)
                kinds.add(m.type)
                if m.type == aiohttp.WSMsgType.TEXT:
                    info = json.loads(m.data)
                    assert info["type"] == "info" and info["values"]["lives"] == 3
            assert kinds == {aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT}
            out = await ui.call("/api/control", {"cmd": "pause"})
            f0 = out["frame"]
            await asyncio.sleep(0.2)
            assert s.frame == f0 and s.paused
            await ui.call("/api/control", {"cmd": "step"})
            await until(lambda: s.frame == f0 + 1, "one frame")
            await ui.call("/api/control", {"cmd": "advance", "n": 30})
            await until(lambda: s.frame == f0 + 31, "30 frames")
            await asyncio.sleep(0.1)
            assert s.frame == f0 + 31
            # buttons from the WebSocket: RIGHT held moves the saucer
            x0 = s.info()["values"]["player_x"]
            await ws.send_str(json.dumps({"type": "buttons", "bits": 1 << 7}))
            await until(lambda: s.buttons == 1 << 7, "the buttons message")
            await ui.call("/api/control", {"cmd": "advance", "n": 10})
            await until(lambda: s.frame == f0 + 41, "10 frames")
            assert s.info()["values"]["player_x"] == x0 + 20
            # rewind: back to a snapshot, the saucer where it was then
            back = await ui.call("/api/control", {"cmd": "rewind", "seconds": 0.1})
            assert back["seconds"] > 0 and back["frame"] <= f0 + 35
            # where the saucer was then: 2 pixels a frame to the right from frame f0 + 31 on
            assert back["values"]["player_x"] == x0 + 2 * max(0, back["frame"] - (f0 + 31))
            assert s.u.get_ram()[0x25] == back["values"]["player_x"]
            # reset: frame 0, the start state's values
            out = await ui.call("/api/control", {"cmd": "reset"})
            assert out["frame"] == 0 and out["values"]["player_x"] == 120
            await ui.call("/api/control", {"cmd": "fast", "on": True})
            await ui.call("/api/control", {"cmd": "resume"})
            await until(lambda: s.frame >= 40, "fast-forward")
            assert s.fast
            out = await ui.call("/api/control", {"cmd": "jump"}, status=400)
            assert "unknown command" in out["error"]
            await ws.close()
    run(body())


def test_integrate_rom_from_nothing(tmp_path):
    """The guide's flow: a ROM no integration knows -> proposed name -> folder with ROM and rom.sha -> state saved as
    Level1 and made default -> variables -> scenario -> the files load with retrogym.make and score the same."""
    rom = rom_bytes()
    path = tmp_path / "Star Catcher (World) [!].nes"
    path.write_bytes(rom[:16] + rom[16:])

    async def body():
        # a root where the ROM is not known: only the workspace and the package data; rename our copy so that the
        # package's own StarCatcher-Nes (same hash) does not claim it: integrate the upload under a new name
        async with UI(tmp_path) as ui:
            st = await ui.call("/api/status")
            assert st["session"] is None
            prop = await ui.call("/api/propose?filename=" + "Star%20Catcher%20(World)%20%5B!%5D.nes")
            assert prop == {"name": "StarCatcher-Nes", "system": "Nes"}
            form = aiohttp.FormData()
            form.add_field("rom", rom, filename="Star Catcher (World) [!].nes")
            form.add_field("name", "MyCatcher-Nes")
            out = await ui.call("/api/integrate", data=form, status=409)  # the package already knows this ROM
            assert "already integrated as StarCatcher-Nes" in out["error"]
            form = aiohttp.FormData()
            form.add_field("rom", rom, filename="Star Catcher (World) [!].nes")
            form.add_field("name", "MyCatcher-Nes")
            form.add_field("overwrite", "1")
            st = await ui.call("/api/integrate", data=form)
            folder = ui.folder("MyCatcher-Nes")
            assert st["session"]["game"] == "MyCatcher-Nes"
            with open(os.path.join(folder, "rom.nes"), "rb") as f:
                assert f.read() == rom
            with open(os.path.join(folder, "rom.sha")) as f:
                assert f.read().strip() == open(rdata.get_file_path(GAME, "rom.sha")).read().strip()
            s = ui.srv.session
            # to the first playable moment: START on the title screen
            await ui.call("/api/control", {"cmd": "pause"})
            await ui.call("/api/control", {"cmd": "reset"})
            await ui.call("/api/control", {"cmd": "advance", "n": 30})
            await until(lambda: s.frame == 30, "the title screen")
            s.set_buttons(START)
            await ui.call("/api/control", {"cmd": "advance", "n": 5})
            await until(lambda: s.frame == 35, "START")
            s.set_buttons(0)
            await ui.call("/api/control", {"cmd": "advance", "n": 60})
            await until(lambda: s.frame == 95, "the first playable moment")
            assert s.info()["values"] == {}  # no variables yet
            assert s.u.data.memory.read(0x14, 1) == b"\x01"  # StarCatcher's game_state: playing
            saved = await ui.call("/api/state/save", {"name": "Level1.state", "default": True})
            assert saved["states"] == ["Level1"]
            raw = s.raw_state()
            with gzip.open(os.path.join(folder, "Level1.state")) as f:
                assert f.read() == raw
            with open(os.path.join(folder, "metadata.json")) as f:
                assert json.load(f) == {"default_state": "Level1"}
            # saving again asks first, and keeps the file as it was
            await ui.call("/api/control", {"cmd": "advance", "n": 10})
            await until(lambda: s.frame == 105, "10 frames")
            out = await ui.call("/api/state/save", {"name": "Level1"}, status=409)
            assert "confirm" in out["error"]
            with gzip.open(os.path.join(folder, "Level1.state")) as f:
                assert f.read() == raw
            # variables: score (BCD, 3 bytes big-endian at $20) and lives ($23)
            await ui.call("/api/variable", {"name": "score", "address": 0x20, "type": ">d3"})
            out = await ui.call("/api/variable", {"name": "lives", "address": 0x23, "type": "|u1"})
            assert out["variables"] == {"score": {"address": 32, "type": ">d3"}, "lives": {"address": 35, "type": "|u1"}}
            await ui.call("/api/data/save", {})
            scenario = {"reward": {"variables": {"score": {"reward": 1.0}}},
                        "done": {"variables": {"lives": {"op": "zero"}}}}
            await ui.call("/api/scenario/save", {"scenario": scenario})
            with open(os.path.join(folder, "scenario.json")) as f:
                assert json.load(f) == scenario
            # memory write through the UI shows in the variable
            await ui.call("/api/memory", {"address": 0x23, "values": [7]})
            assert s.info()["values"]["lives"] == 7
            blocks = (await ui.call("/api/memory"))["blocks"]
            assert blocks[0]["base"] == 0 and blocks[0]["size"] == 2048
            # the score is 0 after the state; play with RIGHT held until a reward shows in the info
            await ui.call("/api/state/load", {"name": "Level1"})
            return folder

    folder = run(body())
    # the files written load with retrogym.make and score as the game's own integration
    rdata.add_custom_path(os.path.dirname(folder))
    mine = retrogym.make("MyCatcher-Nes", inttype=rdata.Integrations.ALL)
    ref = retrogym.make(GAME, state=os.path.join(folder, "Level1.state"))
    assert mine.unwrapped.statename == "Level1"
    o1, i1 = mine.reset(seed=0)
    o2, i2 = ref.reset(seed=0)
    assert np.array_equal(o1, o2)
    rng = np.random.default_rng(1)
    total = 0.0
    for _ in range(1500):
        a = rng.integers(0, 2, size=mine.action_space.shape, dtype=np.int8)
        r1 = mine.step(a)
        r2 = ref.step(a)
        assert np.array_equal(r1[0], r2[0]) and r1[1] == r2[1] and r1[2] == r2[2]
        assert r1[4]["score"] == r2[4]["score"] and r1[4]["lives"] == r2[4]["lives"]
        total += r1[1]
    # the UI's scenario rewards the score: 10 points more in memory is a reward of 10 (in both)
    for env in (mine, ref):
        env.unwrapped.data.set_value("score", env.unwrapped.data["score"] + 10)
    r1, r2 = mine.step(np.zeros(9, np.int8)), ref.step(np.zeros(9, np.int8))
    assert r1[1] == r2[1] == 10.0
    assert total == mine.unwrapped.data.total_reward() - 10.0
    mine.close()
    ref.close()


def test_rom_given_at_start_and_known(tmp_path):
    """A ROM path whose hash an integration has opens that game; an unknown one waits to be integrated."""
    known = tmp_path / "whatever.nes"
    known.write_bytes(rom_bytes())
    srv = UIServer(str(known), str(tmp_path / "r1"))
    assert srv.session.game == GAME and srv.pending_rom is None
    srv.session.close()
    rom = bytearray(rom_bytes())
    rom[-1] ^= 0xFF  # another ROM: no integration has its hash
    other = tmp_path / "Other Game (USA).nes"
    other.write_bytes(bytes(rom))

    async def body():
        async with UI(tmp_path, str(other)) as ui:
            st = await ui.call("/api/status")
            assert st["session"] is None
            assert st["pending_rom"] == {"filename": "Other Game (USA).nes", "size": len(rom), "proposal": "OtherGame-Nes"}
            st = await ui.call("/api/integrate", {})
            assert st["session"]["game"] == "OtherGame-Nes"
            assert os.path.isfile(os.path.join(ui.folder("OtherGame-Nes"), "rom.sha"))
    run(body())


def test_search_panel_finds_the_score(tmp_path):
    """The search panel's rounds as a user plays: Is 0 at the start, play until a star is caught, Increased, Is
    <score>: StarCatcher's score bytes remain (3 BCD bytes at $20, the last at $22), and one becomes a variable."""
    async def body():
        async with UI(tmp_path, GAME) as ui:
            s = ui.srv.session
            await ui.call("/api/control", {"cmd": "pause"})
            out = await ui.call("/api/search", {"name": "points", "kind": "is", "value": 0})
            first = out["searches"][0]
            assert first["name"] == "points" and first["rounds"] == 1 and first["count"] > 1000
            score = lambda: s.info()["values"]["score"]  # noqa: E731 - the test's eyes on the screen
            rounds = 0
            while rounds < 2:
                before = score()
                for _ in range(200):  # play (idle) until a star lands on the saucer
                    await ui.call("/api/control", {"cmd": "advance", "n": 120})
                    target = s.frame + 120
                    await until(lambda: s.frame >= target or not s.pending, "frames")
                    if score() != before:
                        break
                assert score() > before, "no star caught"
                await ui.call("/api/search", {"name": "points", "kind": "increased"})
                out = await ui.call("/api/search", {"name": "points", "kind": "is", "value": score()})
                rounds += 1
            found = out["searches"][0]
            assert found["rounds"] == 5
            addresses = {r["address"] for r in found["results"]}
            assert addresses & {0x20, 0x21, 0x22}, found
            assert found["count"] < 50, found["count"]
            row = next(r for r in found["results"] if r["address"] == 0x22)
            assert any(t.endswith("d1") for t in row["types"])
            # make variable from a result; a bad round is refused and changes nothing
            out = await ui.call("/api/variable", {"name": "points", "address": 0x22, "type": "|d1"})
            assert out["variables"]["points"] == {"address": 0x22, "type": "|d1"}
            err = await ui.call("/api/search", {"name": "points", "kind": "bogus"}, status=400)
            assert "unknown search" in err["error"]
            err = await ui.call("/api/search", {"name": "", "kind": "is", "value": 1}, status=400)
            assert "name" in err["error"]
            err = await ui.call("/api/search", {"name": "x", "kind": "is", "value": "12"}, status=400)
            assert (await ui.call("/api/searches"))["searches"][0]["count"] == found["count"]
            # a scenario save makes the environment again: the searches stay
            await ui.call("/api/scenario/save", {"scenario": {"reward": {"variables": {"score": {"reward": 1}}}}})
            after = (await ui.call("/api/searches"))["searches"]
            assert [(x["name"], x["count"], x["rounds"]) for x in after] == [("points", found["count"], 5)]
            await ui.call("/api/search", {"name": "points", "remove": True})
            assert (await ui.call("/api/searches"))["searches"] == []
    run(body())


def test_movie_given_at_start(tmp_path):
    """A movie opens its game from the movie's start state."""
    movie = str(tmp_path / "m.bk2")
    env = retrogym.make(GAME)
    env.reset()
    start = env.unwrapped.initial_state
    env.unwrapped.record_movie(movie)
    for _ in range(20):
        env.step(env.action_space.sample())
    env.close()
    srv = UIServer(movie, str(tmp_path / "root"))
    try:
        assert srv.session.game == GAME and srv.session.frame == 0
        assert srv.session.u.initial_state == start
    finally:
        srv.session.close()


def test_movies_record_play_export(tmp_path):
    """Record what is played (from the start state), play it back with the scenario live: the same frames, the same
    memory and cumulative reward at its end; export it as MP4 with ffmpeg."""
    async def body():
        async with UI(tmp_path, GAME) as ui:
            s = ui.srv.session
            await ui.call("/api/control", {"cmd": "pause"})
            out = await ui.call("/api/movie", {"cmd": "record"})
            name = os.path.basename(out["path"])
            assert name == "StarCatcher-Nes-Start-000000.bk2"
            for bits in (1 << 7, 1 << 6 | 1 << 8, 0, 1 << 7):
                s.set_buttons(bits)
                target = s.frame + 150
                await ui.call("/api/control", {"cmd": "advance", "n": 150})
                await until(lambda: s.frame == target, "frames")
            out = await ui.call("/api/control", {"cmd": "rewind", "seconds": 1}, status=409)
            assert "stop recording first" in out["error"]
            ram, total, frames = s.u.get_ram().copy(), s.info()["total"], s.frame
            out = await ui.call("/api/movie", {"cmd": "stop"})
            assert out["movies"] == [name] and os.path.getsize(out["path"]) > 0
            s.set_buttons(0)
            await ui.call("/api/movie", {"cmd": "play", "name": name})
            await until(lambda: s.playing is None and s.paused, "the movie's end", timeout=30)
            assert s.frame == frames
            assert np.array_equal(s.u.get_ram(), ram)
            assert s.info()["total"] == total
            for bad in ("../x.bk2", "nope.bk2", "x.txt", None):
                err = await ui.call("/api/movie", {"cmd": "play", "name": bad}, status=404 if bad == "nope.bk2" else 400)
                assert "movie" in err["error"]
            import shutil
            if shutil.which("ffmpeg"):
                out = await ui.call("/api/movie", {"cmd": "export", "name": name})
                assert out["path"].endswith(".mp4") and os.path.getsize(out["path"]) > 1000
                await ui.call("/api/movie", {"cmd": "export", "name": name}, status=409)
    run(body())


def test_validate_the_game_being_edited(tmp_path):
    """The validate panel: no findings on StarCatcher as shipped; after a default state that does not exist is set
    by hand in the workspace copy, it is reported."""
    async def body():
        async with UI(tmp_path, GAME) as ui:
            out = await ui.call("/api/validate")
            assert out["findings"] == []
            await ui.call("/api/state/save", {"name": "Level1", "default": True})
            folder = ui.folder(GAME)
            assert out["folder"] != folder and (await ui.call("/api/validate"))["folder"] == folder
            assert (await ui.call("/api/validate"))["findings"] == []
            with open(os.path.join(folder, "metadata.json"), "w") as f:
                json.dump({"default_state": "Nowhere"}, f)
            out = await ui.call("/api/validate")
            assert out["findings"] == [{"file": "metadata.json", "severity": "error",
                                        "message": "invalid default state Nowhere"}]
    run(body())


def test_cli_command(tmp_path):
    """`retrogym ui GAME --port 0` (the C CLI, when built) runs the Python server: it prints the URL with the token,
    the token opens the API, a request without it is refused."""
    import subprocess
    import sys
    import urllib.error
    import urllib.request

    cli = os.path.join(os.path.dirname(__file__), "..", "..", "build", "cli", "retrogym")
    if not os.access(cli, os.X_OK):
        pytest.skip("the C CLI is not built (make build)")
    env = dict(os.environ, RETROGYM_PYTHON=sys.executable, RETROGYM_STABLE_RETRO="")
    help_text = subprocess.run([cli, "ui", "--help"], capture_output=True, text=True, env=env, timeout=30).stdout
    assert help_text.startswith("usage: retrogym ui [GAME|ROM|MOVIE]")
    p = subprocess.Popen([cli, "ui", GAME, "--port", "0", "--data-root", str(tmp_path / "root")],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = p.stdout.readline()
        assert line.startswith("retrogym ui: open http://127.0.0.1:"), (line, p.stderr.read() if p.poll() else "")
        url = line.split("open ", 1)[1].strip()
        base, token = url.split("/?token=")
        with urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=10) as r:
            assert json.load(r)["session"]["game"] == GAME
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(f"{base}/api/status", timeout=10)
        assert e.value.code == 403
    finally:
        p.terminate()
        p.wait(10)
    bad = subprocess.run([cli, "ui", "NoSuchGame-Nes", "--port", "0", "--data-root", str(tmp_path / "root")],
                         capture_output=True, text=True, env=env, timeout=60)
    assert bad.returncode == 1 and "NoSuchGame-Nes" in bad.stderr
