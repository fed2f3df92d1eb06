"""The Integration UI against bad input (docs/ui.md, "Bad input"): hostile ROM, state and JSON uploads, oversized
requests, paths outside the data folders, a second tab. Each gets a clear error, nothing is overwritten without the
user confirming, and the server goes on serving (the game keeps running)."""
import asyncio
import gzip
import json
import os

import pytest

aiohttp = pytest.importorskip("aiohttp", reason="the UI needs aiohttp (pip install 'retrogym[ui]'; make venv)")
from aiohttp.test_utils import TestClient, TestServer  # noqa: E402

from retrogym import data as rdata  # noqa: E402
from retrogym.ui.server import UIServer, make_app  # noqa: E402

GAME = "StarCatcher-Nes"


@pytest.fixture(autouse=True)
def _keep_data_settings(saved_data_settings):
    """The UI adds its workspace as a custom path: the process-wide data settings are put back after each test."""
    yield


def rom_bytes():
    with open(rdata.get_romfile_path(GAME), "rb") as f:
        return f.read()


class UI:
    def __init__(self, tmp_path, target=GAME, max_request=None):
        self.root = str(tmp_path / "root")
        self.srv = UIServer(target, self.root)
        self.h = {"X-Token": self.srv.token}
        self.max_request = max_request

    async def __aenter__(self):
        app = make_app(self.srv) if self.max_request is None else make_app(self.srv, self.max_request)
        self.c = TestClient(TestServer(app))
        await self.c.start_server()
        return self

    async def __aexit__(self, *exc):
        await self.c.close()

    async def post(self, path, body=None, status=200, data=None, raw=None):
        if data is not None:
            r = await self.c.post(path, data=data, headers=self.h)
        elif raw is not None:
            r = await self.c.post(path, data=raw, headers={**self.h, "Content-Type": "application/json"})
        else:
            r = await self.c.post(path, json=body, headers=self.h)
        out = await r.json()
        assert r.status == status, out
        return out

    async def alive(self):
        """The server answers and the game still runs."""
        r = await self.c.get("/api/status", headers=self.h)
        assert r.status == 200
        st = await r.json()
        if self.srv.session is not None:
            f0 = self.srv.session.frame
            for _ in range(500):
                await asyncio.sleep(0.02)
                if self.srv.session.frame > f0:
                    break
            assert self.srv.session.frame > f0, "the game stopped"
        return st


def upload(field, filename, payload, **fields):
    form = aiohttp.FormData()
    form.add_field(field, payload, filename=filename)
    for k, v in fields.items():
        form.add_field(k, v)
    return form


def test_hostile_rom_uploads(tmp_path):
    async def body():
        async with UI(tmp_path) as ui:
            out = await ui.post("/api/integrate", data=upload("rom", "evil.nes", b"\x00" * 4096), status=400)
            assert "no iNES header" in out["error"]
            out = await ui.post("/api/integrate", data=upload("rom", "evil.exe", b"MZ" + b"\x00" * 100), status=400)
            assert "not a ROM of a known system" in out["error"]
            out = await ui.post("/api/integrate", data=upload("rom", "empty.nes", b""), status=400)
            assert "empty" in out["error"]
            out = await ui.post("/api/integrate", data=upload("rom", "x.nes", rom_bytes(), name="../../etc/evil-Nes"),
                                status=400)
            assert "not of the form" in out["error"]
            out = await ui.post("/api/integrate", data=upload("rom", "x.nes", rom_bytes(), name="Evil-Snes",
                                                              overwrite="1"), status=400)
            assert "must end in -Nes" in out["error"]
            # an iNES header over random bytes: integrated (a ROM is what the user says), and the core runs it or
            # the page says it cannot; either way the server goes on
            junk = b"NES\x1a\x02\x01\x00\x00" + b"\x00" * 8 + os.urandom(32768 + 8192)
            r = await ui.c.post("/api/integrate", data=upload("rom", "Junk.nes", junk), headers=ui.h)
            assert r.status in (200, 400), await r.text()
            assert not os.listdir(os.path.join(ui.root, "custom")) or os.listdir(os.path.join(ui.root, "custom")) \
                == ["Junk-Nes"]
            await ui.alive()
    asyncio.run(body())


def test_hostile_state_uploads(tmp_path):
    async def body():
        async with UI(tmp_path) as ui:
            s = ui.srv.session
            before = s.u.initial_state
            for name, payload, words in (
                ("random.state", os.urandom(5000), "refused"),
                ("empty.state", b"", "refused"),
                ("damaged.state", b"\x1f\x8b\x08\x00" + os.urandom(100), "damaged gzip"),
                ("short.state", gzip.compress(before[: len(before) // 2]), "refused"),
            ):
                out = await ui.post("/api/state/upload", data=upload("state", name, payload, name="Evil"), status=400)
                assert words in out["error"], (name, out)
                assert s.u.initial_state == before  # the start state is the one before
            assert not os.path.exists(os.path.join(ui.root, "custom", GAME, "Evil.state"))
            # a good state file loads, and is saved under a name only once
            good = gzip.compress(before)
            await ui.post("/api/state/upload", data=upload("state", "good.state", good, name="Good"))
            out = await ui.post("/api/state/upload", data=upload("state", "good.state", good, name="Good"), status=409)
            assert "confirm" in out["error"]
            await ui.alive()
    asyncio.run(body())


def test_hostile_json(tmp_path):
    async def body():
        async with UI(tmp_path) as ui:
            out = await ui.post("/api/control", raw=b"{not json", status=400)
            assert "not valid JSON" in out["error"]
            out = await ui.post("/api/control", raw=b"[1, 2]", status=400)
            assert "JSON object" in out["error"]
            out = await ui.post("/api/control", raw=b'{"cmd": "advance", "n": 1e99}', status=400)
            out = await ui.post("/api/control", raw=b'{"cmd": "advance", "n": "x"}', status=400)
            out = await ui.post("/api/variable", {"name": "v", "address": -1, "type": "|u1"}, status=400)
            assert "address" in out["error"]
            out = await ui.post("/api/variable", {"name": "v", "address": 0x20, "type": "u9"}, status=400)
            assert "type" in out["error"]
            out = await ui.post("/api/variable", {"name": "v", "address": 1 << 40, "type": "|u1"}, status=400)
            out = await ui.post("/api/memory", {"address": 0x20, "values": [256]}, status=400)
            out = await ui.post("/api/memory", {"address": 1 << 40, "values": [1]}, status=400)
            assert "cannot write memory" in out["error"]
            # a scenario the editor refuses, and one the library refuses: scenario.json is as it was
            folder = os.path.join(ui.root, "custom", GAME)
            good = {"reward": {"variables": {"score": {"reward": 2.0}}}, "done": {"variables": {"lives": {"op": "zero"}}}}
            await ui.post("/api/scenario/save", {"scenario": good})
            with open(os.path.join(folder, "scenario.json")) as f:
                assert json.load(f) == good
            out = await ui.post("/api/scenario/save", {"scenario": {"reward": {"variables": {"score": {"op": "rm -rf"}}}}},
                                status=400)
            assert "unknown op" in out["error"]
            out = await ui.post("/api/scenario/save", {"scenario": "text"}, status=400)
            r = await ui.c.post("/api/scenario/save", headers=ui.h,
                                json={"scenario": {"reward": {"variables": {"nosuchvariable": {"reward": 1}}}}})
            assert r.status == 400  # the library refuses it: the old file is back, the game goes on
            assert "not saved" in (await r.json())["error"] and "nosuchvariable" in (await r.json())["error"]
            with open(os.path.join(folder, "scenario.json")) as f:
                assert json.load(f) == good
            # more than 1 MiB of JSON
            out = await ui.post("/api/control", raw=b'{"cmd": "' + b"x" * (1 << 20) + b'"}', status=413)
            await ui.alive()
    asyncio.run(body())


def test_oversized_request(tmp_path):
    async def body():
        async with UI(tmp_path, max_request=1 << 16) as ui:
            out = await ui.post("/api/integrate", data=upload("rom", "big.nes", b"NES\x1a" + b"\x00" * (1 << 17)),
                                status=413)
            assert "too big" in out["error"]
            assert os.listdir(os.path.join(ui.root, "custom")) == []
            await ui.alive()
    asyncio.run(body())


def test_paths_outside_the_data_folders(tmp_path):
    async def body():
        async with UI(tmp_path) as ui:
            for name in ("../../../tmp/evil", "/tmp/evil", "a/b", "..", "Level1\x00x", ""):
                out = await ui.post("/api/state/save", {"name": name}, status=400)
                assert "no folders" in out["error"] or "text" in out["error"], name
                out = await ui.post("/api/state/load", {"name": name}, status=400)
                out = await ui.post("/api/state/default", {"name": name}, status=400)
            for game in ("../stable/StarCatcher-Nes", "/etc/passwd", 5):
                out = await ui.post("/api/open", {"game": game}, status=404)
                assert "no integration" in out["error"]
            out = await ui.post("/api/state/default", {"name": "NoSuchState"}, status=404)
            assert not os.path.exists(tmp_path / "evil.state") and not os.path.exists("/tmp/evil.state")
            # nothing was written outside the workspace (the package's own folder is copied, never written)
            with open(rdata.get_file_path(GAME, "metadata.json", rdata.Integrations.STABLE)) as f:
                assert json.load(f) == {"default_state": "Start"}
            await ui.alive()
    asyncio.run(body())


def test_second_tab(tmp_path):
    async def body():
        async with UI(tmp_path) as ui:
            q = {"token": ui.srv.token}
            first = await ui.c.ws_connect("/ws", params=q)
            second = await ui.c.ws_connect("/ws", params=q)
            msg = await second.receive(timeout=5)
            assert msg.type == aiohttp.WSMsgType.TEXT and json.loads(msg.data)["type"] == "busy"
            assert (await second.receive(timeout=5)).type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
            # the first tab still gets frames
            for _ in range(5):
                assert (await first.receive(timeout=5)).type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT)
            # taking over: the first is told and closed, the new one gets frames
            third = await ui.c.ws_connect("/ws", params={**q, "takeover": "1"})
            seen = set()
            while True:
                m = await first.receive(timeout=5)
                if m.type == aiohttp.WSMsgType.TEXT:
                    seen.add(json.loads(m.data)["type"])
                if m.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING):
                    break
            assert "taken" in seen
            assert (await third.receive(timeout=5)).type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT)
            await third.send_str("not json")
            for _ in range(20):
                m = await third.receive(timeout=5)
                if m.type == aiohttp.WSMsgType.TEXT and json.loads(m.data)["type"] == "error":
                    break
            else:
                pytest.fail("no error message for a bad WebSocket message")
            await third.close()
            await ui.alive()
    asyncio.run(body())
