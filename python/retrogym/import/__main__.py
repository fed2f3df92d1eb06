"""python -m retrogym.import [PATH...]: copies every file, folder member or zip member whose SHA-1 matches a
game's rom.sha into that game's folder (default PATH: the current folder)."""
import sys

import retrogym
from retrogym import data


def main(argv=None):
    paths = (sys.argv[1:] if argv is None else argv) or ["."]
    if any(p in ("-h", "--help") for p in paths):
        print(__doc__.strip())
        return 0
    report = data.import_roms(paths)
    for warning in report["warnings"]:
        print(f"warning: {warning}", file=sys.stderr)
    for game, path in report["imported"]:
        print(f"Importing {game}")
    print(f"Imported {report['games']} games")
    retrogym.register_games()
    return 0


if __name__ == "__main__":
    sys.exit(main())
