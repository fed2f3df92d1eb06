"""Our Atari 2600 core against ALE's emulator (ale-py's ALEInterface) and Stella 3.9.3, per frame, in one run.

Three emulators on the same ROMs and the same input stream (a joystick direction and fire that change every 8
frames, as in bench/bench_a26.c), in three settings:
  raw   run frames, nothing else
  rgb   run a frame and take its RGB picture (an observation every frame)
  fs4   frame skip 4: take the picture of every 4th frame (we skip drawing the other 3; ALE and Stella draw them)
Rounds alternate: in each round every setting of every emulator runs one block, so the machine's noise hits them
alike; frames/s is the median over rounds, the spread the lowest and highest round. Time is the thread's CPU time.

Our core and Stella run in C (bench_a26 --serve, a child process timed by itself, with no Python in its loop).
ALE runs in this process through Python, with its frame skip set inside ALE (setInt("frame_skip")), so one act()
runs 1 or 4 frames. The cost of a Python call into ALE is taken off: with t1 and t4 the median CPU time of one act()
at frame skip 1 and 4 (same ROM, same run), a call costs c = (4*t1 - t4) / 3 beyond its frames (floored at 0); ALE's
raw frames/s is 4 / (t4 - c), rgb 1 / (t_rgb - c), fs4 4 / (t_fs4 - c). c is printed (it is well under 1% of a frame).
The getScreenRGB call's own Python cost (about 0.1 us) is left in. Before timing each ALE instance is reset
(reset_game: ALE presses the console's Reset); our side holds Reset for 4 frames after 60 frames. When ALE reports a
game over, the clock stops, the game is reset and the clock goes on (the frames after it are emulated, not counted
twice); our cores just run on.

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
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAMES = ["pong", "breakout", "montezuma_revenge", "space_invaders", "seaquest", "ms_pacman", "pitfall", "enduro",
         "boxing", "robotank"]
MODES = ["raw", "rgb", "fs4"]

# bench_a26's joystick bits (libretro ids UP 4, DOWN 5, LEFT 6, RIGHT 7) as ALE actions, without and with fire.
ALE_DIR = [(0, 1), (2, 10), (5, 13), (4, 12), (3, 11)]  # none, up, down, left, right


def ale_action(i):
    k = (((i // 8) * 2654435761) & 0xFFFFFFFF) >> 7
    return ALE_DIR[k % 5][(k >> 4) & 1]


class Ale:
    """One ALEInterface with a fixed frame skip."""

    def __init__(self, ale_py, rom, skip):
        import numpy as np
        a = ale_py.ALEInterface()
        a.setLoggerMode(ale_py.LoggerMode.Error)
        a.setInt("random_seed", 0)
        a.setFloat("repeat_action_probability", 0.0)
        a.setInt("frame_skip", skip)
        a.loadROM(rom)
        a.reset_game()
        self.a, self.skip, self.tick = a, skip, 0
        self.acts = list(ale_py.Action)
        h, w = a.getScreenDims()  # 210x160 for most games; ALE gives a few more lines (King Kong: 250)
        self.buf = np.empty((h, w, 3), np.uint8)

    def block(self, frames, screen):
        """CPU seconds per act() call over frames // skip calls (game-over resets not timed)."""
        a, acts, buf, skip = self.a, self.acts, self.buf, self.skip
        calls = frames // skip
        spent = 0.0
        t0 = time.thread_time()
        for _ in range(calls):
            a.act(acts[ale_action(self.tick)])
            if screen:
                a.getScreenRGB(buf)
            self.tick += skip
            if a.game_over():
                spent += time.thread_time() - t0
                a.reset_game()
                t0 = time.thread_time()
        spent += time.thread_time() - t0
        return spent / calls


class Ours:
    """bench_a26 --serve: our core and Stella in C."""

    def __init__(self, exe):
        env = dict(os.environ)
        if "RETROGYM_CORE_PATH" not in env:
            import stable_retro
            env["RETROGYM_CORE_PATH"] = os.path.join(os.path.dirname(stable_retro.__file__), "cores")
        self.p = subprocess.Popen([exe, "--serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
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
    ours = Ours(args.bench_a26)
    load = os.getloadavg()
    print("# %s UTC, load %.2f %.2f %.2f, %d CPUs; ale-py %s; median of %d rounds of %d frames (lowest-highest); "
          "frames/s of CPU time" % (datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M"),
                                    *load, os.cpu_count(), ale_py.__version__, args.rounds, frames))
    hdr = ["ROM"] + ["%s %s" % (m, w) for m in MODES for w in ("ours", "ALE", "Stella", "/ALE", "/Stella")] + \
        ["ALE call us"]
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
        ale = None
        if os.path.abspath(os.path.dirname(rom)) == os.path.abspath(romdir):
            ale = {1: Ale(ale_py, rom, 1), 4: Ale(ale_py, rom, 4)}
        res = {k: [] for k in ("ours", "stella", "t1", "t4", "trgb", "tfs4")}
        for _ in range(args.rounds):
            for m in MODES:
                o, s = (float(x) for x in ours.cmd("block %s %d" % (m, frames)).split())
                res["ours"].append((m, o))
                res["stella"].append((m, s))
                if ale:
                    if m == "raw":
                        res["t1"].append(ale[1].block(frames, False))
                        res["t4"].append(ale[4].block(frames, False))
                    elif m == "rgb":
                        res["trgb"].append(ale[1].block(frames, True))
                    else:
                        res["tfs4"].append(ale[4].block(frames, True))
        row = [name]
        if ale:
            t1, t4 = statistics.median(res["t1"]), statistics.median(res["t4"])
            c = max(0.0, (4 * t1 - t4) / 3)
            alefps = {"raw": [4 / (t - c) for t in res["t4"]], "rgb": [1 / (t - c) for t in res["trgb"]],
                      "fs4": [4 / (t - c) for t in res["tfs4"]]}
        for m in MODES:
            o = [v for k, v in res["ours"] if k == m]
            s = [v for k, v in res["stella"] if k == m]
            mo, ms = statistics.median(o), statistics.median(s)
            if ale:
                ma = statistics.median(alefps[m])
                row += ["%.0f (%s)" % (mo, spread(o)), "%.0f (%s)" % (ma, spread(alefps[m])),
                        "%.0f (%s)" % (ms, spread(s)), "%.2fx" % (mo / ma), "%.2fx" % (mo / ms)]
            else:
                row += ["%.0f (%s)" % (mo, spread(o)), "-", "%.0f (%s)" % (ms, spread(s)), "-", "%.2fx" % (mo / ms)]
        row.append("%.2f" % (c * 1e6) if ale else "-")
        if args.markdown:
            print("| " + " | ".join(row) + " |")
        else:
            print(" ".join("%-18s" % x if i == 0 else "%10s" % x for i, x in enumerate(row)))
        sys.stdout.flush()
        ours.cmd("close")
    ours.close()
    print("# load at the end %.2f %.2f %.2f" % os.getloadavg())


if __name__ == "__main__":
    main()
