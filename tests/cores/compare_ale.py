#!/usr/bin/env python3
"""Compare an Atari 2600 core with ALE (ale-py) RAM for RAM, frame by frame, on ALE's own ROMs.

Run by hand (not a CTest); prints one table row per game. Needs ale-py importable (a throwaway venv or
`pip install --target DIR ale-py` plus PYTHONPATH=DIR) and a built retrogym tree.

    PYTHONPATH=/tmp/alepkg .venv/bin/python tests/cores/compare_ale.py --build build [--core atari2600] [GAME...]

For each game the script
  1. loads the ROM in ALE (sticky actions off, frame skip 1, seed 0) and notes how many frames ALE's reset
     sequence ran and the RAM it left: power-on, 60 no-op frames, RESET held 4 frames, the game's setMode (often
     one more soft reset: RESET 4 frames, sometimes SELECT presses), RESET 4 frames, then per-game starting actions;
  2. finds the input sequence that gives ALE's RAM in our core (ALE does not count its reset frames, so the usual
     shapes of its sequence are tried, see reset_candidates); games whose setMode writes RAM directly (or whose
     power-on differs) match none: then the closest sequence is used and ALE's RAM is written into ours after it
     ("+RAM(n)": n bytes were synced);
  3. plays the same random minimal-set actions (seeded) in both, one frame each, and compares the 128 bytes of RAM
     after every frame until the first difference, ALE's game over, or --frames.

Our side runs through a tiny C driver over the public API (rg_emu_open with the given core name or .so path),
compiled on the fly against the build folder, so any core the host can load can be compared, Stella 3.9.3
included (--core stella with RETROGYM_CORE_PATH pointing at stable-retro's cores).
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

DRIVER_C = r"""
#include "retrogym/retrogym.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* a26drive ROM CORE MASKS OUT [@N:FILE] [key=value ...]: MASKS holds 2 bytes per frame (port 0, port 1 joypad
 * masks); OUT receives the 128 bytes of RAM after each frame; @N:FILE writes FILE's 128 bytes into RAM after
 * frame N. */
int main(int argc, char **argv) {
    if (argc < 5) { fprintf(stderr, "usage: a26drive ROM CORE MASKS OUT [key=value...]\n"); return 2; }
    rg_core_option opts[8]; char kv[8][128]; size_t n = 0;
    long poke_at = -1; unsigned char poke[128];
    for (int i = 5; i < argc && n < 8; i++) {
        if (argv[i][0] == '@') {
            char *colon = strchr(argv[i], ':');
            FILE *pf = colon ? fopen(colon + 1, "rb") : NULL;
            if (!pf || fread(poke, 1, 128, pf) != 128) { fprintf(stderr, "bad %s\n", argv[i]); return 2; }
            fclose(pf);
            poke_at = strtol(argv[i] + 1, NULL, 10);
            continue;
        }
        snprintf(kv[n], sizeof kv[n], "%s", argv[i]);
        char *eq = strchr(kv[n], '=');
        if (!eq) continue;
        *eq = 0; opts[n].key = kv[n]; opts[n].value = eq + 1; n++;
    }
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.core = argv[2]; o.system = "Atari2600"; o.core_options = opts; o.n_core_options = n;
    rg_emu *emu;
    if (rg_emu_open(&emu, argv[1], &o) != RG_OK) { fprintf(stderr, "open: %s\n", rg_error_last()); return 1; }
    FILE *in = fopen(argv[3], "rb"), *out = fopen(argv[4], "wb");
    if (!in || !out) { perror("files"); return 1; }
    rg_emu_set_av_enable(emu, 0, 0);
    unsigned char m[2], ram[128];
    long frame = 0;
    while (fread(m, 1, 2, in) == 2) {
        rg_emu_set_buttons(emu, 0, m[0]); rg_emu_set_buttons(emu, 1, m[1]);
        if (rg_emu_run(emu) != RG_OK) { fprintf(stderr, "run: %s\n", rg_error_last()); return 1; }
        if (++frame == poke_at && rg_emu_mem_write(emu, 0x80, poke, 128) != RG_OK) {
            fprintf(stderr, "poke: %s\n", rg_error_last()); return 1;
        }
        if (rg_emu_ram_copy(emu, ram, sizeof ram) != RG_OK) { fprintf(stderr, "ram: %s\n", rg_error_last()); return 1; }
        fwrite(ram, 1, 128, out);
    }
    fclose(in); fclose(out); rg_emu_free(emu);
    return 0;
}
"""

# libretro joypad ids: B=0 fire, SELECT=2, START=3 (console Reset), UP=4, DOWN=5, LEFT=6, RIGHT=7
FIRE, SELECT, RESET, UP, DOWN, LEFT, RIGHT = 1, 4, 8, 16, 32, 64, 128
# ALE's 18 actions (Action enum order) as joystick masks
ALE_MASKS = [0, FIRE, UP, RIGHT, LEFT, DOWN, UP | RIGHT, UP | LEFT, DOWN | RIGHT, DOWN | LEFT, UP | FIRE,
             RIGHT | FIRE, LEFT | FIRE, DOWN | FIRE, UP | RIGHT | FIRE, UP | LEFT | FIRE, DOWN | RIGHT | FIRE,
             DOWN | LEFT | FIRE]


def build_driver(build, workdir):
    exe = os.path.join(workdir, "a26drive")
    src = os.path.join(workdir, "a26drive.c")
    with open(src, "w") as f:
        f.write(DRIVER_C)
    lib = os.path.join(build, "libretrogym.a")
    libs = ["-ljansson", "-llua5.1", "-lzip", "-lnettle", "-lz", "-lpthread", "-ldl", "-lm"]
    subprocess.run(["cc", "-O2", "-I", os.path.join(ROOT, "include"), src, lib, "-o", exe] + libs, check=True)
    return exe


def run_ours(exe, rom, core, masks, workdir, options, poke=None):
    """RAM after each frame of masks in our core; poke = (frame, 128 bytes) overwrites RAM after that frame."""
    mpath = os.path.join(workdir, "masks.bin")
    opath = os.path.join(workdir, "ram.bin")
    with open(mpath, "wb") as f:
        f.write(bytes(b for m in masks for b in (m & 0xFF, 0)))
    extra = []
    if poke:
        ppath = os.path.join(workdir, "poke.bin")
        with open(ppath, "wb") as f:
            f.write(poke[1])
        extra = ["@%d:%s" % (poke[0], ppath)]
    p = subprocess.run([exe, rom, core, mpath, opath] + extra + options, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(p.stderr.strip() or "driver failed")
    data = open(opath, "rb").read()
    return [data[i:i + 128] for i in range(0, len(data), 128)]


def reset_candidates():
    """Input sequences shaped like ALE's reset (see the module docstring): ALE does not count these frames, so the
    shapes are tried in order until one leaves ALE's RAM."""
    names = {0: "noop", FIRE: "fire", UP: "up", RIGHT: "right", LEFT: "left", DOWN: "down", SELECT: "select"}
    base = [0] * 60
    for extra in range(0, 7):
        for resets in (8, 4, 12):
            for fill in (0, FIRE, UP, RIGHT, LEFT, DOWN) if extra else (0,):
                yield ("noop60 reset%d %s%d" % (resets, names[fill], extra) if extra else "noop60 reset%d" % resets,
                       base + [RESET] * resets + [fill] * extra)


def ale_child(rom, seed, frames, out):
    """Runs in a child process (ALE exits the process on ROMs it has no settings for)."""
    import ale_py
    ale = ale_py.ALEInterface()
    ale.setLoggerMode(ale_py.LoggerMode.Error)
    ale.setInt("random_seed", 0)
    ale.setFloat("repeat_action_probability", 0.0)
    ale.setInt("frame_skip", 1)
    ale.loadROM(rom)
    rng = random.Random(seed)
    acts = list(ale.getMinimalActionSet())
    seq, rams = [], [bytes(ale.getRAM())]
    hold = acts[0]
    for i in range(frames):
        if ale.game_over():
            break
        if i % 4 == 0:  # an agent with frame skip 4
            hold = rng.choice(acts)
        ale.act(hold)
        seq.append(int(getattr(hold, "value", hold)))
        rams.append(bytes(ale.getRAM()))
    with open(out, "wb") as f:
        f.write(bytes(seq))
        f.write(b"".join(rams))


def ale_run(rom, seed, frames, workdir):
    """ALE's RAM after its reset, the actions played and the RAM after each; raises RuntimeError if ALE fails."""
    out = os.path.join(workdir, "ale.bin")
    if os.path.exists(out):
        os.unlink(out)
    p = subprocess.run([sys.executable, os.path.abspath(__file__), "--ale-child", rom, str(seed), str(frames), out],
                       capture_output=True, text=True)
    if p.returncode != 0 or not os.path.exists(out):
        lines = [l for l in (p.stdout + p.stderr).splitlines() if l.strip() and "A.L.E" not in l and "Powered" not in l]
        raise RuntimeError(lines[0] if lines else "ALE failed")
    data = open(out, "rb").read()
    n = (len(data) - 128) // 129
    seq = list(data[:n])
    rams = [data[n + 128 * i:n + 128 * (i + 1)] for i in range(n + 1)]
    return rams[0], seq, rams[1:]


def diff_bytes(a, b):
    return [i for i in range(128) if a[i] != b[i]]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games", nargs="*", help="ALE ROM names (default: all)")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"), help="retrogym build folder")
    ap.add_argument("--core", default="atari2600", help="core name or .so path for our side")
    ap.add_argument("--frames", type=int, default=2000, help="frames to compare after the reset sequence")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--option", action="append", default=[], help="core option key=value for our side")
    if len(sys.argv) == 6 and sys.argv[1] == "--ale-child":
        ale_child(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
        return 0
    args = ap.parse_args()
    try:
        import ale_py
    except ImportError:
        print("ale-py is not importable; install it into a throwaway venv or --target folder", file=sys.stderr)
        return 77
    romdir = os.path.join(os.path.dirname(ale_py.__file__), "roms")
    games = args.games or sorted(f[:-4] for f in os.listdir(romdir) if f.endswith(".bin"))
    work = tempfile.mkdtemp(prefix="compare_ale-")
    exe = build_driver(os.path.abspath(args.build), work)
    print("%-20s %-30s %6s  %s" % ("game", "reset sequence (+RAM synced)", "equal", "first RAM difference"))
    totals = {"match": 0, "games": 0}
    for g in games:
        rom = os.path.join(romdir, g + ".bin")
        try:
            ram0, seq, rams = ale_run(rom, args.seed, args.frames, work)
        except RuntimeError as e:
            print("%-20s ALE: %s" % (g, e))
            continue
        totals["games"] += 1
        chosen, best = None, None
        try:
            for name, cand in reset_candidates():
                ours = run_ours(exe, rom, args.core, cand, work, args.option)
                d = diff_bytes(ours[-1], ram0)
                if best is None or len(d) < len(best[1]):
                    best = (name, d, cand)
                if not d:
                    chosen = (name, cand)
                    break
        except RuntimeError as e:
            print("%-20s %s" % (g, "ours: " + str(e)))
            continue
        poke = None
        if chosen is None:
            # ALE's setMode pokes RAM in some games; take its RAM after the reset and go on from there.
            name, d, cand = best
            name = "%s +RAM(%d)" % (name, len(d))
            poke = (len(cand), ram0)
        else:
            name, cand = chosen
        ours = run_ours(exe, rom, args.core, cand + [ALE_MASKS[a] for a in seq], work, args.option,
                        poke)[len(cand):]
        first = None
        for i, (a, b) in enumerate(zip(rams, ours)):
            d = diff_bytes(a, b)
            if d:
                first = (i, d)
                break
        if first is None:
            totals["match"] += 1
            print("%-20s %-30s %6d  none%s" % (g, name, len(rams),
                                              " (ALE game over)" if len(rams) < args.frames else ""))
        else:
            i, d = first
            print("%-20s %-30s %6d  frame %d: %s" % (g, name, i, i, " ".join("%02X" % (0x80 + k) for k in d[:8])))
    print("%d of %d games equal on every compared frame" % (totals["match"], totals["games"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
