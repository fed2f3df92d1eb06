"""Cross-check of retrogym's movie writer and reader against stable-retro itself, on every system.

For each system, with 1 and 2 players, seeded random buttons (every button of the system, the extension's included)
are written by retrogym (movie_tool write); stable-retro's Movie must read them back as those buttons minus the ones
it cannot record, and retrogym must read them back whole. Then stable-retro writes the stable-retro-recordable part through
its own Movie API and retrogym's writer must produce the same Input Log.txt and Header.txt, byte for byte.

usage: check_stable_retro.py MOVIE_TOOL     exit 0 = all agree, 1 = a difference, 77 = stable-retro missing
"""
import json
import os
import random
import subprocess
import sys
import tempfile
import zipfile

try:
    import stable_retro  # noqa: F401
except ImportError as e:
    print(f"skipped: {e}")
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
ROMS = {"Atari2600": "test.a26", "GameBoy": "test.gb", "GbColor": "test.gbc", "GbAdvance": "test.gba",
        "GameGear": "test.gg", "Genesis": "test.md", "Nes": "test.nes", "PCEngine": "test.pce", "Sms": "test.sms",
        "Snes": "test.sfc"}
RECORDED = {"A", "B", "C", "X", "Y", "Z", "START", "SELECT", "MODE", "UP", "DOWN", "LEFT", "RIGHT", "L", "R",
            "BUTTON"}

READ = """
import json, sys, stable_retro as retro
m = retro.Movie(sys.argv[1])
frames = []
while m.step():
    frames.append([sum(int(m.get_key(i, p)) << i for i in range(16)) for p in range(m.players)])
print(json.dumps({"players": m.players, "game": m.get_game(), "frames": frames}))
"""

WRITE = """
import json, sys, stable_retro as retro
rom, out, game, masks = sys.argv[1], sys.argv[2], sys.argv[3], json.load(open(sys.argv[4]))
em = retro.RetroEmulator(rom)
m = retro.Movie(out, True, len(masks[0]))
m.configure(game, em)
for frame in masks:
    for p, mask in enumerate(frame):
        for i in range(16):
            m.set_key(i, bool(mask >> i & 1), p)
    m.step()
m.close()
"""


def main():
    tool = sys.argv[1]
    failed = False
    rng = random.Random(11)
    with tempfile.TemporaryDirectory() as tmp:
        for system, rom in sorted(ROMS.items()):
            buttons = json.load(open(os.path.join(SOURCE, "systems", system + ".json")))["buttons"]
            every = sum(1 << i for i, b in enumerate(buttons) if b)
            kept = sum(1 << i for i, b in enumerate(buttons) if b in RECORDED)
            for players in (1, 2):
                bad = []
                game = f"Check{system}-{system}"
                frames = [[rng.getrandbits(16) & every for _ in range(players)] for _ in range(50)]
                masks = os.path.join(tmp, "m.masks")
                with open(masks, "w") as f:
                    f.write(f"{system} {players} {game}\n")
                    f.writelines(" ".join(f"{m:04x}" for m in fr) + "\n" for fr in frames)
                ours = os.path.join(tmp, f"ours-{system}-{players}.bk2")
                # stable-retro reads only movies with a Core.bin: borrow the reference movie's state.
                state_from = os.path.join(HERE, "data", f"sr-{system}.bk2")
                subprocess.run([tool, "write", masks, ours, state_from], check=True)
                got = json.loads(subprocess.run([sys.executable, "-c", READ, ours], check=True,
                                                capture_output=True, text=True).stdout)
                want = [[m & kept for m in fr] for fr in frames]
                if got["players"] != players or got["game"] != game or got["frames"] != want:
                    bad.append("stable-retro reads retrogym's movie differently")
                dump = subprocess.run([tool, "dump", ours], check=True, capture_output=True, text=True).stdout
                if dump.splitlines()[1:] != [" ".join(f"{m:04x}" for m in fr) for fr in frames]:
                    bad.append("retrogym reads its own movie differently")

                # stable-retro writes the recordable part; so does retrogym; the texts must be identical.
                theirs = os.path.join(tmp, f"theirs-{system}-{players}.bk2")
                fed = os.path.join(tmp, "fed.json")
                json.dump(want, open(fed, "w"))
                subprocess.run([sys.executable, "-c", WRITE, os.path.join(SOURCE, "tests", "roms", "bin", rom),
                                theirs, game, fed], check=True, capture_output=True)
                with open(masks, "w") as f:
                    f.write(f"{system} {players} {game}\n")
                    f.writelines(" ".join(f"{m:04x}" for m in fr) + "\n" for fr in want)
                ours2 = os.path.join(tmp, f"ours2-{system}-{players}.bk2")
                subprocess.run([tool, "write", masks, ours2], check=True)
                a, b = zipfile.ZipFile(theirs), zipfile.ZipFile(ours2)
                for entry in ("Input Log.txt", "Header.txt"):
                    if a.read(entry) != b.read(entry):
                        bad.append(f"{entry} differs from stable-retro's")
                if [i.filename for i in a.infolist()] != [i.filename for i in b.infolist()]:
                    bad.append("entry order differs")
                failed = failed or bool(bad)
                print(f"{'FAIL' if bad else 'ok  '} {system} {players}P" + (": " + "; ".join(bad) if bad else ""))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
