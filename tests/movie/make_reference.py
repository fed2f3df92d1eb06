"""Makes the reference movies of tests/movie/data (run by hand; the results are committed).

For every system retrogym knows, one of our own test ROMs (tests/roms/bin) becomes a temporary stable-retro
integration with a start state made by stable-retro's core, and stable-retro's RetroEnv records an episode of seeded
random MultiBinary actions with record=DIR (the way users record): sr-<System>.bk2. Two-player episodes for Nes and
Genesis (sr-<System>-2p.bk2), and one movie written through stable_retro.Movie without a start state
(sr-Snes-nostate.bk2: no Core.bin). Next to each, <name>.masks holds the buttons stable-retro recorded (the actions
fed, minus the buttons it cannot record), checked by reading the movie back with stable_retro.Movie.

Then retrogym's writer (movie_tool) records movies that press the buttons stable-retro drops (Atari RESET, SMS
PAUSE, PC Engine I-VI and RUN): ours-<System>.bk2, checked the same way (stable-retro reads them, ignoring the
extension's columns).

usage: make_reference.py MOVIE_TOOL [OUT_DIR]      (MOVIE_TOOL: build-*/tests/movie_tool)
"""
import gzip
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
PYTHON = sys.executable
# system -> (test ROM, extension stable-retro wants, integration name)
SYSTEMS = {
    "Atari2600": "test.a26", "GameBoy": "test.gb", "GbColor": "test.gbc", "GbAdvance": "test.gba",
    "GameGear": "test.gg", "Genesis": "test.md", "Nes": "test.nes", "PCEngine": "test.pce", "Sms": "test.sms",
    "Snes": "test.sfc",
}
EXT = {"Nes": "nes", "Snes": "sfc", "GameBoy": "gb", "GbColor": "gbc", "GbAdvance": "gba", "PCEngine": "pce",
       "Atari2600": "a26", "Genesis": "md", "Sms": "sms", "GameGear": "gg"}
# The buttons stable-retro records (its mnemonic table; docs/compat.md, "Movies (.bk2)").
RECORDED = {"A", "B", "C", "X", "Y", "Z", "START", "SELECT", "MODE", "UP", "DOWN", "LEFT", "RIGHT", "L", "R",
            "BUTTON"}
STEPS = 90


def buttons_of(system):
    return json.load(open(os.path.join(SOURCE, "systems", system + ".json")))["buttons"]


def recorded_mask(system):
    return sum(1 << i for i, b in enumerate(buttons_of(system)) if b in RECORDED)


def run_py(code, *args):
    subprocess.run([PYTHON, "-c", code, *args], check=True)


STATE_CODE = """
import gzip, sys, stable_retro as retro
em = retro.RetroEmulator(sys.argv[1])
for _ in range(30):
    em.step()
open(sys.argv[2], "wb").write(gzip.compress(em.get_state()))
"""

RECORD_CODE = """
import json, sys, numpy as np, random, stable_retro as retro
root, game, players, steps, seed, masks_out, rec_dir = sys.argv[1:8]
players, steps = int(players), int(steps)
retro.data.Integrations.add_custom_path(root)
env = retro.make(game=game, state="Start", inttype=retro.data.Integrations.CUSTOM_ONLY, players=players,
                 use_restricted_actions=retro.Actions.ALL, render_mode=None, record=rec_dir)
rng = random.Random(int(seed))
n = env.num_buttons
env.reset()
fed = [[0] * players]
a = None
for t in range(steps):
    if t % 3 == 0:
        a = [rng.randint(0, 1) for _ in range(n * players)]
    env.step(np.array(a, dtype=np.int8))
    fed.append([sum(a[p * n + i] << i for i in range(n)) for p in range(players)])
env.stop_record()
env.close()
json.dump(fed, open(masks_out, "w"))
"""

NOSTATE_CODE = """
import json, sys, random, stable_retro as retro
rom, out, game, steps, seed, masks_out = sys.argv[1:7]
em = retro.RetroEmulator(rom)
m = retro.Movie(out, True, 1)
m.configure(game, em)
rng = random.Random(int(seed))
fed = []
for t in range(int(steps)):
    mask = rng.getrandbits(16)
    for i in range(16):
        m.set_key(i, bool(mask >> i & 1), 0)
    m.step()
    fed.append([mask])
m.close()
json.dump(fed, open(masks_out, "w"))
"""

# Reads a movie with stable-retro; prints players, game and every frame's masks as JSON.
READ_CODE = """
import json, sys, stable_retro as retro
m = retro.Movie(sys.argv[1])
frames = []
while m.step():
    frames.append([sum(int(m.get_key(i, p)) << i for i in range(16)) for p in range(m.players)])
print(json.dumps({"players": m.players, "game": m.get_game(), "state": len(m.get_state()), "frames": frames}))
"""


def read_with_stable_retro(path):
    out = subprocess.run([PYTHON, "-c", READ_CODE, path], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def write_masks(path, system, players, game, frames):
    with open(path, "w") as f:
        f.write(f"{system} {players} {game or '-'}\n")
        for fr in frames:
            f.write(" ".join(f"{m:04x}" for m in fr) + "\n")


def make_integration(root, system):
    game = f"MovieTest{system}-{system}"
    d = os.path.join(root, game)
    os.makedirs(d)
    rom = os.path.join(d, "rom." + EXT[system])
    shutil.copy(os.path.join(SOURCE, "tests", "roms", "bin", SYSTEMS[system]), rom)
    data = open(rom, "rb").read()
    open(os.path.join(d, "rom.sha"), "w").write(hashlib.sha1(data[16:] if system == "Nes" else data).hexdigest()
                                                + "\n")
    json.dump({"info": {}}, open(os.path.join(d, "data.json"), "w"))
    json.dump({"reward": {"variables": {}}, "done": {"variables": {}}}, open(os.path.join(d, "scenario.json"), "w"))
    json.dump({"default_state": "Start"}, open(os.path.join(d, "metadata.json"), "w"))
    run_py(STATE_CODE, rom, os.path.join(d, "Start.state"))
    return game, rom


def check(path, system, players, game, frames, state_expected):
    got = read_with_stable_retro(path)
    assert got["players"] == players, (path, got["players"])
    assert got["game"] == game, (path, got["game"])
    assert (got["state"] > 0) == state_expected, (path, got["state"])
    assert got["frames"] == frames, f"{path}: stable-retro reads other frames"


def main():
    tool = os.path.abspath(sys.argv[1])
    out = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else os.path.join(HERE, "data")
    os.makedirs(out, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, "custom")
        os.makedirs(root)
        cases = [(s, 1) for s in sorted(SYSTEMS)] + [("Nes", 2), ("Genesis", 2)]
        games = {}
        for seed, (system, players) in enumerate(cases, start=1):
            if system not in games:
                games[system] = make_integration(root, system)
            game, rom = games[system]
            rec = os.path.join(tmp, f"rec-{system}-{players}")
            os.makedirs(rec)
            fed_path = os.path.join(tmp, "fed.json")
            run_py(RECORD_CODE, root, game, str(players), str(STEPS), str(seed), fed_path, rec)
            (movie,) = os.listdir(rec)
            assert movie == f"{game}-Start-000000.bk2", movie
            keep = recorded_mask(system)
            frames = [[m & keep for m in fr] for fr in json.load(open(fed_path))]
            name = f"sr-{system}" + ("-2p" if players == 2 else "")
            shutil.copy(os.path.join(rec, movie), os.path.join(out, name + ".bk2"))
            write_masks(os.path.join(out, name + ".masks"), system, players, game, frames)
            check(os.path.join(out, name + ".bk2"), system, players, game, frames, True)
            print(f"{name}.bk2: {len(frames)} frames, {players} player(s), recorded by stable-retro")

        # No start state: Core.bin absent (stable-retro writes such files but cannot read them back).
        game, rom = games["Snes"]
        path = os.path.join(out, "sr-Snes-nostate.bk2")
        fed_path = os.path.join(tmp, "fed.json")
        if os.path.exists(path):
            os.unlink(path)  # stable-retro would update the old archive in place
        run_py(NOSTATE_CODE, rom, path, game, "40", "99", fed_path)
        keep = recorded_mask("Snes")
        write_masks(os.path.join(out, "sr-Snes-nostate.masks"), "Snes", 1, game,
                    [[m & keep] for (m,) in json.load(open(fed_path))])
        print("sr-Snes-nostate.bk2: recorded by stable-retro without a start state")

        # Our writer, pressing every button, the extension's included.
        rng = random.Random(7)
        for system in ("Atari2600", "Sms", "PCEngine"):
            allowed = sum(1 << i for i, b in enumerate(buttons_of(system)) if b)
            frames = [[rng.getrandbits(16) & allowed] for _ in range(60)]
            name = f"ours-{system}"
            write_masks(os.path.join(out, name + ".masks"), system, 1, games[system][0], frames)
            subprocess.run([tool, "write", os.path.join(out, name + ".masks"), os.path.join(out, name + ".bk2"),
                            os.path.join(out, f"sr-{system}.bk2")], check=True)
            keep = recorded_mask(system)
            check(os.path.join(out, name + ".bk2"), system, 1, games[system][0], [[m & keep for m in fr]
                                                                                  for fr in frames], True)
            print(f"{name}.bk2: written by retrogym with the extension's buttons; stable-retro reads the rest")


if __name__ == "__main__":
    main()
