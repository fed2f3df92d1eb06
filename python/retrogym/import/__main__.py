"""python -m retrogym.import [--force GAME] [PATH...]: copies every file, folder member or zip member whose SHA-1
matches a game's rom.sha into that game's folder (for our own games and an installed stable-retro's, the same place
under the user root, ~/.local/share/retrogym), where `retrogym` and the package both look (default PATH: the
current folder). Files named like a game but of another dump are reported; --force GAME adopts one."""
import sys

import retrogym
from retrogym import data


def main(argv=None):
    args = list(sys.argv[1:] if argv is None else argv)
    if any(p in ("-h", "--help") for p in args):
        print(__doc__.strip())
        return 0
    force = None
    if "--force" in args:
        i = args.index("--force")
        if i + 1 >= len(args):
            print("retrogym.import: --force needs a game", file=sys.stderr)
            return 2
        force = args[i + 1]
        del args[i:i + 2]
    paths = args or ["."]
    try:
        report = data.import_roms(paths, force=force)
    except (FileNotFoundError, OSError, ValueError) as e:
        print(f"retrogym.import: {e}", file=sys.stderr)
        return 1
    for warning in report["warnings"]:
        print(f"warning: {warning}", file=sys.stderr)
    for game, candidate, sha in report["near"]:
        print(f"{candidate} is named like {game} but its SHA-1 {sha[:12]}... is not in the game's rom.sha (another "
              f"dump?); adopt it with: python -m retrogym.import --force {game} PATH", file=sys.stderr)
    for game, path in report["imported"]:
        print(f"Importing {game}")
    print(f"Imported {report['games']} games")
    if force and not report["forced"] and not report["games"]:
        print(f"retrogym.import: --force {force}: no candidate named like the game (or give its file alone)",
              file=sys.stderr)
        return 1
    retrogym.register_games()
    return 0


if __name__ == "__main__":
    sys.exit(main())
