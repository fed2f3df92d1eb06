"""The UI's web server (aiohttp): the page, a JSON API, and one WebSocket that carries the screen (binary frames)
and the live scenario information (JSON), both at the core's frame rate. Every request needs the session's token."""
import asyncio
import base64
import gzip
import hmac
import json
import os
import secrets
import struct
import zlib

from aiohttp import web

from retrogym import data as _data

from .integration import MAX_ROM, MAX_STATE, UIError, Workspace, parse_json, propose_name, rom_hash
from .session import Session

__all__ = ["UIServer", "make_app"]

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
MAX_REQUEST = MAX_ROM + (1 << 20)
UI_KEY = web.AppKey("ui", object) if hasattr(web, "AppKey") else "ui"
INFO_EVERY = 4          # frames between two scenario-information messages
FRAME_MAGIC = b"RGF1"   # binary frame: magic, width u16, height u16, frame u32 (little-endian), then RGB bytes


class UIServer:
    """State of one UI process: the workspace, the open session, the WebSocket that drives it."""

    def __init__(self, target=None, root=None, token=None):
        self.token = token or secrets.token_urlsafe(18)
        self.workspace = Workspace(root)
        self.session = None
        self.pending_rom = None     # (filename, bytes) of a ROM given at start that no integration knows
        self.message = None
        self.ws = None
        self.task = None
        self._info_at = 0
        if target:
            self._open_target(target)

    # ---- start-up target: a game name, a ROM path, a movie ----

    def _open_target(self, target):
        if os.path.isfile(target):
            lower = target.lower()
            if lower.endswith((".bk2", ".fm2")):
                from retrogym.movie import Movie
                movie = Movie(target)
                self.session = Session(movie.get_game())
                state = movie.get_state()
                if state:
                    self.session.load_state_bytes(state, os.path.basename(target))
                return
            with open(target, "rb") as f:
                rom = f.read(MAX_ROM + 1)
            game = self._known_game(os.path.basename(target), rom)
            if game:
                self.session = Session(game)
            else:
                self.pending_rom = (os.path.basename(target), rom)
            return
        if target in _data.list_games(_data.Integrations.ALL):
            self.session = Session(target)
            return
        raise UIError(f"{target}: not an integrated game (`retrogym games` lists them) nor a ROM or movie file")

    @staticmethod
    def _known_game(filename, rom):
        try:
            system = _data.get_romfile_system(filename)
        except ValueError:
            return None
        digest = rom_hash(filename, rom)
        for game in _data.list_games(_data.Integrations.ALL):
            if not game.endswith("-" + system):
                continue
            path = _data.get_file_path(game, "rom.sha", _data.Integrations.ALL)
            try:
                with open(path) as f:
                    if digest in f.read().lower().split():
                        return game
            except OSError:
                continue
        return None

    def need_session(self):
        if self.session is None:
            raise UIError("no game is open: integrate a ROM or open a game first", 409)
        return self.session

    def open(self, game, state=None):
        old = self.session
        new = Session(game, state)
        if old is not None:
            old.close()
        self.session = new

    # ---- frame loop ----

    async def loop(self):
        clock = asyncio.get_running_loop()
        next_at = clock.time()
        while True:
            s = self.session
            period = 1.0 / (s.fps if s else 30.0)
            ran = 0
            if s is not None:
                try:
                    ran = s.tick()
                except Exception as e:  # noqa: BLE001 - a core error pauses the game, the server goes on
                    s.paused, s.pending = True, 0
                    await self.send_json({"type": "error", "message": f"the game stopped: {e}"})
            if ran and self.ws is not None:
                await self.send_frame()
                self._info_at += ran
                if self._info_at >= INFO_EVERY or s.paused:
                    self._info_at = 0
                    await self.send_json({"type": "info", **s.info()})
            next_at += period
            delay = next_at - clock.time()
            if delay < -0.25:  # far behind (a slow machine): start the schedule over
                next_at = clock.time()
                delay = 0
            await asyncio.sleep(max(0.0, delay))

    async def send_frame(self):
        ws, s = self.ws, self.session
        if ws is None or ws.closed or s is None:
            return
        img = s.screen()
        h, w = img.shape[:2]
        header = FRAME_MAGIC + struct.pack("<HHI", w, h, s.frame & 0xFFFFFFFF)
        try:
            await ws.send_bytes(header + img.tobytes())
        except (ConnectionError, RuntimeError):
            pass

    async def send_json(self, obj):
        ws = self.ws
        if ws is None or ws.closed:
            return
        try:
            await ws.send_str(json.dumps(obj))
        except (ConnectionError, RuntimeError):
            pass

    async def refresh(self):
        """After a command: the screen and information now (also while paused)."""
        if self.session is not None:
            await self.send_frame()
            await self.send_json({"type": "info", **self.session.info()})


# ---- HTTP ----

def _error(message, status):
    return web.json_response({"error": message}, status=status)


@web.middleware
async def _guard(request, handler):
    srv = request.app[UI_KEY]
    given = request.query.get("token") or request.headers.get("X-Token") or ""
    if not hmac.compare_digest(given.encode(), srv.token.encode()):
        return _error("this request has no valid token: open the URL that `retrogym ui` printed", 403)
    try:
        return await handler(request)
    except UIError as e:
        return _error(str(e), e.status)
    except web.HTTPRequestEntityTooLarge as e:
        return _error(f"the request is too big ({e.text}); ROMs up to {MAX_ROM >> 20} MiB are accepted", 413)
    except web.HTTPException:
        raise
    except Exception as e:  # noqa: BLE001 - one failed request never stops the server
        return _error(f"internal error: {type(e).__name__}: {e}", 500)


async def _json_body(request):
    raw = await request.read()
    obj = parse_json(raw, "the request")
    if not isinstance(obj, dict):
        raise UIError("the request must be a JSON object")
    return obj


async def _form(request):
    """A multipart form as {name: str} plus {"<name>.file": (filename, bytes)} for its files."""
    if not request.content_type.startswith("multipart/"):
        raise UIError("expected a file upload (multipart/form-data)")
    out = {}
    reader = await request.multipart()
    async for part in reader:
        data = await part.read(decode=False)
        if part.filename is not None:
            out[part.name + ".file"] = (part.filename, bytes(data))
        else:
            out[part.name] = bytes(data).decode("utf-8", "replace")
    return out


def _flag(v):
    return v in (True, 1, "1", "true", "yes", "on")


async def index(request):
    with open(os.path.join(STATIC, "index.html"), encoding="utf-8") as f:
        page = f.read().replace("{{TOKEN}}", request.app[UI_KEY].token)
    return web.Response(text=page, content_type="text/html", headers={"Cache-Control": "no-store"})


async def static(request):
    name = request.match_info["name"]
    if name not in ("app.js", "style.css"):
        raise UIError("no such file", 404)
    ctype = "text/javascript" if name.endswith(".js") else "text/css"
    with open(os.path.join(STATIC, name), encoding="utf-8") as f:
        return web.Response(text=f.read(), content_type=ctype)


async def get_status(request):
    srv = request.app[UI_KEY]
    out = {"games": _data.list_games(_data.Integrations.ALL), "workspace": srv.workspace.custom,
           "session": None, "pending_rom": None}
    if srv.pending_rom:
        name, rom = srv.pending_rom
        try:
            proposal = propose_name(name, _data.get_romfile_system(name))
        except ValueError:
            proposal = None
        out["pending_rom"] = {"filename": name, "size": len(rom), "proposal": proposal}
    if srv.session is not None:
        out["session"] = {**srv.session.describe(), **srv.session.info(),
                          "movies": srv.workspace.movies(srv.session.game)}
    return web.json_response(out)


async def get_propose(request):
    filename = request.query.get("filename", "")
    try:
        system = _data.get_romfile_system(os.path.basename(filename))
    except ValueError:
        raise UIError(f"{filename!r}: not a ROM of a known system") from None
    return web.json_response({"name": propose_name(filename, system), "system": system})


async def post_open(request):
    srv = request.app[UI_KEY]
    body = await _json_body(request)
    game = body.get("game")
    if not isinstance(game, str) or game not in _data.list_games(_data.Integrations.ALL):
        raise UIError(f"no integration named {game!r}", 404)
    state = body.get("state")
    srv.open(game, state if isinstance(state, str) and state else None)
    await srv.refresh()
    return await get_status(request)


async def post_integrate(request):
    """A new integration: the ROM uploaded (field ``rom``) or the one given at start; ``name`` (optional),
    ``overwrite``."""
    srv = request.app[UI_KEY]
    if request.content_type.startswith("multipart/"):
        form = await _form(request)
        if "rom.file" not in form:
            raise UIError("no ROM file in the upload")
        filename, rom = form["rom.file"]
    else:
        form = await _json_body(request)
        if not srv.pending_rom:
            raise UIError("no ROM to integrate: choose a ROM file")
        filename, rom = srv.pending_rom
    srv.workspace.check_rom(filename, rom, form.get("name") or None)
    known = srv._known_game(os.path.basename(filename), rom)
    if known and not _flag(form.get("overwrite")):
        raise UIError(f"this ROM is already integrated as {known}: open it, or confirm to integrate it again", 409)
    game = srv.workspace.integrate(filename, rom, form.get("name") or None, _flag(form.get("overwrite")))
    srv.pending_rom = None
    srv.open(game, "")
    await srv.refresh()
    return await get_status(request)


async def post_control(request):
    srv = request.app[UI_KEY]
    s = srv.need_session()
    body = await _json_body(request)
    cmd = body.get("cmd")
    result = {}
    if cmd == "pause":
        s.paused, s.pending = True, 0
    elif cmd == "resume":
        s.paused = False
    elif cmd == "step":
        s.advance(1)
    elif cmd == "advance":
        s.advance(body.get("n", 1))
    elif cmd == "fast":
        s.fast = _flag(body.get("on"))
    elif cmd == "reset":
        s.reset()
    elif cmd == "power_on":
        s.power_on()
    elif cmd == "rewind":
        result["seconds"] = s.rewind(body.get("seconds", 1))
    elif cmd == "buttons":
        s.set_buttons(body.get("bits", 0))
    else:
        raise UIError(f"unknown command {cmd!r}")
    await srv.refresh()
    return web.json_response({"ok": True, **result, **s.info()})


async def post_state_save(request):
    srv = request.app[UI_KEY]
    s = srv.need_session()
    body = await _json_body(request)
    path = srv.workspace.save_state(s.game, body.get("name"), s.raw_state(), _flag(body.get("overwrite")))
    if _flag(body.get("default")):
        srv.workspace.set_default_state(s.game, body.get("name"))
    return web.json_response({"ok": True, "path": path, "states": _data.list_states(s.game, _data.Integrations.ALL)})


async def post_state_load(request):
    srv = request.app[UI_KEY]
    s = srv.need_session()
    body = await _json_body(request)
    s.load_state(body.get("name"))
    await srv.refresh()
    return web.json_response({"ok": True, **s.describe()})


async def post_state_default(request):
    srv = request.app[UI_KEY]
    s = srv.need_session()
    body = await _json_body(request)
    path = srv.workspace.set_default_state(s.game, body.get("name"))
    return web.json_response({"ok": True, "path": path})


async def post_state_upload(request):
    """A state file uploaded (field ``state``): loaded when the core accepts it, saved as ``name`` when given."""
    srv = request.app[UI_KEY]
    s = srv.need_session()
    form = await _form(request)
    if "state.file" not in form:
        raise UIError("no state file in the upload")
    filename, raw = form["state.file"]
    if len(raw) > MAX_STATE:
        raise UIError("the state file is too big", 413)
    if raw[:2] == b"\x1f\x8b":
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError, zlib.error) as e:
            raise UIError(f"{filename}: a damaged gzip file ({e})") from None
    s.load_state_bytes(raw, filename)
    out = {"ok": True}
    if form.get("name"):
        out["path"] = srv.workspace.save_state(s.game, form["name"], raw, _flag(form.get("overwrite")))
    await srv.refresh()
    return web.json_response(out)


async def get_memory(request):
    s = request.app[UI_KEY].need_session()
    blocks = s.memory()
    return web.json_response({"blocks": [{"base": base, "size": len(b), "data": base64.b64encode(b).decode()}
                                         for base, b in sorted(blocks.items())]})


async def post_memory(request):
    srv = request.app[UI_KEY]
    s = srv.need_session()
    body = await _json_body(request)
    values = body.get("values")
    if not isinstance(values, list) or not values or not all(isinstance(v, int) and 0 <= v <= 255 for v in values):
        raise UIError("values must be a list of bytes (0-255)")
    address = body.get("address")
    if isinstance(address, bool) or not isinstance(address, int) or address < 0:
        raise UIError("address must be a non-negative integer")
    s.write_memory(address, values)
    await srv.refresh()
    return web.json_response({"ok": True})


async def post_variable(request):
    srv = request.app[UI_KEY]
    s = srv.need_session()
    body = await _json_body(request)
    name = body.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > 100:
        raise UIError("a variable needs a name")
    if body.get("remove"):
        s.remove_variable(name)
    elif "value" in body and "address" not in body:
        s.set_value(name, body["value"])
    else:
        from .integration import check_data_json
        check_data_json({"info": {name: {"address": body.get("address"), "type": body.get("type")}}})
        s.set_variable(name, body["address"], body["type"])
    await srv.refresh()
    return web.json_response({"ok": True, "variables": s.data_doc()["info"], "values": s.info()["values"]})


def _write_and_reload(srv, file, doc, overwrite):
    """Writes data.json or scenario.json and makes the environment again with it; when the library refuses the
    new file the old one is put back (nothing lost) and the game goes on as it was."""
    s = srv.need_session()
    folder = srv.workspace.ensure_writable(s.game)
    target = os.path.join(folder, file)
    old = None
    if os.path.isfile(target):
        with open(target, "rb") as f:
            old = f.read()
    path = srv.workspace.write_json(s.game, file, doc, overwrite=overwrite)
    try:
        s.reload()
    except UIError as e:
        if old is None:
            os.unlink(target)
        else:
            with open(target, "wb") as f:
                f.write(old)
        raise UIError(f"{file} not saved: the game does not load with it ({e})") from None
    return path


async def post_data_save(request):
    srv = request.app[UI_KEY]
    s = srv.need_session()
    body = await _json_body(request)
    path = _write_and_reload(srv, "data.json", s.data_doc(), _flag(body.get("overwrite", True)))
    return web.json_response({"ok": True, "path": path})


async def post_scenario_save(request):
    srv = request.app[UI_KEY]
    srv.need_session()
    body = await _json_body(request)
    path = _write_and_reload(srv, "scenario.json", body.get("scenario"), _flag(body.get("overwrite", True)))
    await srv.refresh()
    return web.json_response({"ok": True, "path": path})


async def websocket(request):
    srv = request.app[UI_KEY]
    ws = web.WebSocketResponse(heartbeat=30, max_msg_size=1 << 16)
    await ws.prepare(request)
    if srv.ws is not None and not srv.ws.closed:
        if request.query.get("takeover") != "1":
            await ws.send_str(json.dumps({"type": "busy", "message":
                                          "this UI is open in another tab or window; take over here to use it"}))
            await ws.close()
            return ws
        old = srv.ws
        try:
            await old.send_str(json.dumps({"type": "taken", "message": "another tab took over this UI"}))
            await old.close()
        except (ConnectionError, RuntimeError):
            pass
    srv.ws = ws
    await srv.refresh()
    try:
        async for msg in ws:
            if msg.type != web.WSMsgType.TEXT:
                continue
            try:
                obj = json.loads(msg.data)
                if srv.session is not None and isinstance(obj, dict) and obj.get("type") == "buttons":
                    srv.session.set_buttons(int(obj.get("bits", 0)))
            except (ValueError, TypeError):
                await ws.send_str(json.dumps({"type": "error", "message": "a message the server does not read"}))
    finally:
        if srv.ws is ws:
            srv.ws = None
            if srv.session is not None:
                srv.session.set_buttons(0)
    return ws


async def post_movie(request):
    """``{"cmd": "record"}``, ``{"cmd": "stop"}``, ``{"cmd": "play", "name"}``, ``{"cmd": "export", "name"}``."""
    srv = request.app[UI_KEY]
    s = srv.need_session()
    body = await _json_body(request)
    cmd = body.get("cmd")
    out = {"ok": True}
    if cmd == "record":
        path = srv.workspace.next_movie(s.game, s.state_name)
        s.start_recording(path)
        out["path"] = path
    elif cmd == "stop":
        out["path"] = s.stop_recording()
    elif cmd == "play":
        s.play_movie(srv.workspace.movie_path(s.game, body.get("name")))
    elif cmd == "export":
        path = srv.workspace.movie_path(s.game, body.get("name"))
        out["path"] = await asyncio.to_thread(export_video, path, path[:-4] + ".mp4", _flag(body.get("overwrite")))
    else:
        raise UIError(f"unknown movie command {cmd!r}")
    out["movies"] = srv.workspace.movies(s.game)
    await srv.refresh()
    return web.json_response(out)


def export_video(movie, out, overwrite=False):
    """The movie played back (retrogym.playback_movie) into an H.264 MP4 by ffmpeg (no sound)."""
    import shutil
    import subprocess

    from retrogym.movie import playback_movie
    ffmpeg = shutil.which("ffmpeg")
    if ffmpeg is None:
        raise UIError("video export needs ffmpeg (apt-get install ffmpeg)", 501)
    if os.path.exists(out) and not overwrite:
        raise UIError(f"{os.path.basename(out)} exists: confirm to replace it", 409)
    frames = playback_movie(movie, verify=False)
    proc = None
    try:
        for obs, *_ in frames:
            if proc is None:
                h, w = obs.shape[:2]
                proc = subprocess.Popen([ffmpeg, "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", "rgb24",
                                         "-s", f"{w}x{h}", "-r", "60", "-i", "-", "-c:v", "libx264", "-pix_fmt",
                                         "yuv420p", out], stdin=subprocess.PIPE, stderr=subprocess.PIPE)
            proc.stdin.write(obs.tobytes())
    except (ValueError, OSError) as e:
        raise UIError(f"cannot export {os.path.basename(movie)}: {e}") from None
    finally:
        frames.close()
        if proc is not None:
            proc.stdin.close()
            err = proc.stderr.read().decode(errors="replace")
            if proc.wait() != 0:
                raise UIError(f"ffmpeg failed: {err.strip()[-300:]}")
    if proc is None:
        raise UIError(f"{os.path.basename(movie)} holds no frames to export")
    return out


async def get_validate(request):
    """`retrogym validate` on the folder of the game being edited: [{file, severity, message}]."""
    from retrogym import _retrogym as _C
    srv = request.app[UI_KEY]
    s = srv.need_session()
    if srv.workspace.has_game(s.game):
        folder = srv.workspace.folder(s.game)
    else:
        folder = os.path.dirname(_data.get_file_path(s.game, "rom.sha", _data.Integrations.ALL))
    findings = [{"file": os.path.basename(f), "severity": sev, "message": msg}
                for f, sev, msg in _C.validate_dir(folder)]
    return web.json_response({"folder": folder, "findings": findings})


async def get_searches(request):
    s = request.app[UI_KEY].need_session()
    return web.json_response({"searches": s.searches()})


async def post_search(request):
    """``{"name", "kind": is|increased|decreased|increased_by|decreased_by|changed|unchanged, "value"}``, or
    ``{"name", "remove": true}``."""
    s = request.app[UI_KEY].need_session()
    body = await _json_body(request)
    name = body.get("name")
    if not isinstance(name, str):
        raise UIError("a search needs a name")
    if body.get("remove"):
        s.remove_search(name)
    else:
        s.search(name, body.get("kind"), body.get("value", 0))
    return web.json_response({"searches": s.searches()})


def make_app(server, max_request=MAX_REQUEST):
    app = web.Application(middlewares=[_guard], client_max_size=max_request)
    app[UI_KEY] = server
    app.router.add_get("/", index)
    app.router.add_get("/static/{name}", static)
    app.router.add_get("/ws", websocket)
    app.router.add_get("/api/status", get_status)
    app.router.add_get("/api/propose", get_propose)
    app.router.add_post("/api/open", post_open)
    app.router.add_post("/api/integrate", post_integrate)
    app.router.add_post("/api/control", post_control)
    app.router.add_post("/api/state/save", post_state_save)
    app.router.add_post("/api/state/load", post_state_load)
    app.router.add_post("/api/state/default", post_state_default)
    app.router.add_post("/api/state/upload", post_state_upload)
    app.router.add_get("/api/memory", get_memory)
    app.router.add_post("/api/memory", post_memory)
    app.router.add_post("/api/variable", post_variable)
    app.router.add_post("/api/data/save", post_data_save)
    app.router.add_post("/api/movie", post_movie)
    app.router.add_get("/api/validate", get_validate)
    app.router.add_get("/api/searches", get_searches)
    app.router.add_post("/api/search", post_search)
    app.router.add_post("/api/scenario/save", post_scenario_save)

    async def start_loop(app):
        server.task = asyncio.create_task(server.loop())

    async def stop_loop(app):
        if server.task:
            server.task.cancel()
            try:
                await server.task
            except (asyncio.CancelledError, Exception):  # noqa: BLE001
                pass
        if server.session is not None:
            server.session.close()

    app.on_startup.append(start_loop)
    app.on_cleanup.append(stop_loop)
    return app
