"""Our Atari 2600 core against ALE's emulator (ale-py's ALEInterface) and Stella 3.9.3, per frame, in one run.

Three emulators on the same ROMs and the same input stream (a joystick direction and fire that change every 8
frames, as in bench/bench_a26.c), in three settings:
  raw   run frames, nothing else
  rgb   run a frame and take its RGB picture (an observation every frame)
  fs4   frame skip 4: take the picture of every 4th frame (we skip drawing the other 3; ALE and Stella draw them)
Rounds alternate: in each round every setting of every emulator runs one block, so the machine's noise hits them
alike; frames/s is the median over rounds, the spread the lowest and highest round; a ratio (ours/ALE, ours/Stella)
is the median of the ratios of each round's blocks, with the lowest and highest. Time is the thread's CPU time.

All three run in C or C++ child processes that time their own blocks (CPU time of the emulating thread) with no
Python in their loops: our core and Stella in bench_a26 --serve, ALE in bench/ale_emu_serve.cpp (built here with g++
against the ALE library inside ale-py's wheel, into build/bench/ale_emu_serve). ALE runs at frame skip 1 (act()
per frame) and takes its picture as ale-py's getScreenRGB does (its palette applied into a caller buffer). ALE
starts from reset_game() (it presses the console's Reset); our side holds Reset for 4 frames after 60 frames. When
ALE reports a game over, its clock stops, the game is reset and the clock goes on; our cores just run on.

  .venv/bin/python bench/bench_ale_emu.py [--rounds N] [--frames N] [--markdown] [--bench-a26 PATH] [ROM ...]

ROMs: ale-py's pong, breakout, montezuma_revenge, space_invaders, seaquest and the rest of bench_a26's list, plus
../shared/roms/automaton.a26 when present (ALE knows no automaton: its ALE columns stay empty). Stella comes from
stable-retro's wheel (RETROGYM_CORE_PATH is set to its cores folder when not set). bench_a26 is taken from build/
(--bench-a26 PATH: another build's copy).
"""
import argparse
import datetime
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAMES = ["pong", "breakout", "montezuma_revenge", "space_invaders", "seaquest", "ms_pacman", "pitfall", "enduro",
         "boxing", "robotank"]
MODES = ["raw", "rgb", "fs4"]


def build_ale_driver(ale_py):
    """build/bench/ale_emu_serve from bench/ale_emu_serve.cpp, linked against ale-py's extension module (which
    exports ALE's C++ API) and libpython (the module's Python references, unused here). Rebuilt when older than its
    source or the module."""
    import glob
    import sysconfig
    src = os.path.join(ROOT, "bench", "ale_emu_serve.cpp")
    mods = glob.glob(os.path.join(os.path.dirname(ale_py.__file__), "_ale_py*.so"))
    if not mods:
        sys.exit("ale-py's extension module not found next to %s" % ale_py.__file__)
    exe = os.path.join(ROOT, "build", "bench", "ale_emu_serve")
    if os.path.exists(exe) and os.path.getmtime(exe) > max(os.path.getmtime(src), os.path.getmtime(mods[0])):
        return exe
    libdir = sysconfig.get_config_var("LIBDIR") or ""
    # the runtime name (libpython3.X.so.1.0) is there without the -dev package's libpython3.X.so link
    names = [sysconfig.get_config_var(k) or "" for k in ("INSTSONAME", "LDLIBRARY")]
    ldlib = next((n for n in names if ".so" in n and os.path.exists(os.path.join(libdir, n))), None)
    if not sysconfig.get_config_var("Py_ENABLE_SHARED") or not ldlib:
        sys.exit("this Python has no shared libpython in %r (%s): the ALE driver cannot be linked" % (libdir, names))
    os.makedirs(os.path.dirname(exe), exist_ok=True)
    cmd = ["g++", "-O2", "-std=c++17", src, "-o", exe, mods[0], "-L" + libdir, "-l:" + ldlib,
           "-Wl,-rpath," + os.path.dirname(mods[0]) + ",-rpath," + libdir]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("building the ALE driver failed: %s\n%s" % (" ".join(cmd), r.stderr))
    return exe


class Server:
    """A child serving blocks on request: bench_a26 --serve (our core and Stella) or ale_emu_serve (ALE)."""

    def __init__(self, argv):
        env = dict(os.environ)
        if "RETROGYM_CORE_PATH" not in env:
            import stable_retro
            env["RETROGYM_CORE_PATH"] = os.path.join(os.path.dirname(stable_retro.__file__), "cores")
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                  env=env, bufsize=1)

    def cmd(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        return self.p.stdout.readline().strip()

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def spread(v):
    return "%.0f-%.0f" % (min(v), max(v))


def ratio(v):
    return "%.2fx (%.2f-%.2f)" % (statistics.median(v), min(v), max(v))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--frames", type=int, default=1200, help="frames per block (a multiple of 4)")
    ap.add_argument("--markdown", action="store_true", help="print the table as markdown")
    ap.add_argument("--bench-a26", default=os.path.join(ROOT, "build", "bench", "bench_a26"),
                    help="the bench_a26 binary that serves our core and Stella (default: build/'s; e.g. a copy of "
                         "an earlier build, to measure before and after a change)")
    ap.add_argument("roms", nargs="*")
    args = ap.parse_args()
    frames = max(4, args.frames // 4 * 4)
    try:
        import ale_py
    except ImportError:
        sys.exit("ale-py is not installed (make venv installs it)")
    romdir = os.path.join(os.path.dirname(ale_py.__file__), "roms")
    roms = args.roms or [os.path.join(romdir, g + ".bin") for g in GAMES]
    if not args.roms and os.path.exists(os.path.join(ROOT, "..", "shared", "roms", "automaton.a26")):
        roms.append(os.path.join(ROOT, "..", "shared", "roms", "automaton.a26"))
    ours = Server([args.bench_a26, "--serve"])
    ale = Server([build_ale_driver(ale_py)])
    load = os.getloadavg()
    print("# %s UTC, load %.2f %.2f %.2f, %d CPUs; ale-py %s; median of %d rounds of %d frames (lowest-highest); "
          "frames/s of CPU time" % (datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M"),
                                    *load, os.cpu_count(), ale_py.__version__, args.rounds, frames))
    hdr = ["ROM"] + ["%s %s" % (m, w) for m in MODES for w in ("ours", "ALE", "Stella", "/ALE", "/Stella")]
    if args.markdown:
        print("| " + " | ".join(hdr) + " |")
        print("|---|" + "---:|" * (len(hdr) - 1))
    else:
        print(" ".join("%-18s" % hdr[0] if i == 0 else "%10s" % h for i, h in enumerate(hdr)))
    for rom in roms:
        name = os.path.basename(rom).rsplit(".", 1)[0]
        r = ours.cmd("open " + rom)
        if r != "ok":
            print("%-18s skipped: %s" % (name, r))
            continue
        with_ale = os.path.abspath(os.path.dirname(rom)) == os.path.abspath(romdir)
        if with_ale:
            r = ale.cmd("open " + rom)
            if r != "ok":
                sys.exit("ALE: %s: %s" % (name, r))
        res = {k: {m: [] for m in MODES} for k in ("ours", "stella", "ale")}
        for _ in range(args.rounds):
            for m in MODES:
                o, s = (float(x) for x in ours.cmd("block %s %d" % (m, frames)).split())
                res["ours"][m].append(o)
                res["stella"][m].append(s)
                if with_ale:
                    res["ale"][m].append(float(ale.cmd("block %s %d" % (m, frames))))
        row = [name]
        for m in MODES:
            o, s, a = res["ours"][m], res["stella"][m], res["ale"][m]
            mo, ms = statistics.median(o), statistics.median(s)
            # the ratios per round (blocks run side by side), then their median: steadier than a ratio of medians
            # when the machine's speed drifts between rounds
            rs = [x / y for x, y in zip(o, s)]
            if with_ale:
                ra = [x / y for x, y in zip(o, a)]
                row += ["%.0f (%s)" % (mo, spread(o)), "%.0f (%s)" % (statistics.median(a), spread(a)),
                        "%.0f (%s)" % (ms, spread(s)), ratio(ra), ratio(rs)]
            else:
                row += ["%.0f (%s)" % (mo, spread(o)), "-", "%.0f (%s)" % (ms, spread(s)), "-", ratio(rs)]
        if args.markdown:
            print("| " + " | ".join(row) + " |")
        else:
            print(" ".join("%-18s" % x if i == 0 else "%10s" % x for i, x in enumerate(row)))
        sys.stdout.flush()
        ours.cmd("close")
        if with_ale:
            ale.cmd("close")
    ours.close()
    ale.close()
    print("# load at the end %.2f %.2f %.2f" % os.getloadavg())


if __name__ == "__main__":
    main()
