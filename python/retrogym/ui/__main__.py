"""``python -m retrogym.ui [GAME|ROM|MOVIE] [--host 127.0.0.1] [--port N] [--data-root DIR]``: prints the URL
(with the session's token) and serves until interrupted."""
import argparse
import sys


def main(argv=None):
    p = argparse.ArgumentParser(prog="retrogym ui", description="The Integration UI in the browser (docs/ui.md).")
    p.add_argument("target", nargs="?", help="a game name, a ROM file or a movie (.bk2)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=0, help="port (default: a free one)")
    p.add_argument("--data-root", help="writable data root (default: the user root); new games go in its custom/")
    args = p.parse_args(argv)
    try:
        from aiohttp import web
    except ImportError:
        print("retrogym ui: the UI needs aiohttp: pip install 'retrogym[ui]' (or pip install aiohttp)",
              file=sys.stderr)
        return 1
    import asyncio

    from .integration import UIError
    from .server import UIServer, make_app

    try:
        server = UIServer(args.target, args.data_root)
    except (UIError, OSError, ValueError) as e:
        print(f"retrogym ui: {e}", file=sys.stderr)
        return 1

    async def serve():
        runner = web.AppRunner(make_app(server))
        await runner.setup()
        site = web.TCPSite(runner, args.host, args.port)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]
        host = f"[{args.host}]" if ":" in args.host else args.host
        print(f"retrogym ui: open http://{host}:{port}/?token={server.token}", flush=True)
        try:
            await asyncio.Event().wait()
        finally:
            await runner.cleanup()

    try:
        asyncio.run(serve())
    except KeyboardInterrupt:
        pass
    except OSError as e:
        print(f"retrogym ui: cannot listen on {args.host}:{args.port}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
