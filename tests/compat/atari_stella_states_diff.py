"""Differential test of our Atari 2600 core started from Stella 3.9.3 states: stable-retro's Atari integrations
(their own Start.state, saved by Stella) on our core against the same integrations in stable-retro itself (its
Stella core, through its RetroEnv).

For each Atari integration of stable-retro's data whose ROM ale-py ships (matched by the integration's rom.sha
against the SHA-1 of ale_py/roms/*.bin), a temporary data root gets the integration's files plus the ROM as
rom.a26. Both environments are made from the Start state with FILTERED actions, reset, and stepped with the same
seeded random MultiBinary input (named buttons only); every step compares the observation (shape and bytes), the
RAM, the reward, terminated, truncated and info (at reset: the observation and the RAM; stable-retro's reset info
is empty, ours holds the variables, a documented difference). retrogym must run the game on its own core (`atari2600`).

Then movies: for MOVIE_GAMES, an episode recorded by retrogym on its own core must hold the integration's Stella state
itself as Core.bin (byte for byte, as stable-retro records it) and replay in stable-retro (its Stella, the Gym Retro
docs' playback loop) with the rewards retrogym got at every step.

usage: atari_stella_states_diff.py [STEPS] [GAME ...]
  STEPS defaults to 5000; no GAME: the quick set below, or every matching game with RETROGYM_ATARI_ALL=1.
  exit 0 = identical, 1 = different, 77 = stable-retro, ale-py or retrogym missing
"""
import glob
import gzip
import hashlib
import os
import shutil
import sys
import tempfile
import zipfile

try:
    import ale_py
    import numpy as np
    import stable_retro as retro
    import retrogym
except ImportError as e:  # the suite skips this test where a package is missing
    print(f"skipped: {e}")
    sys.exit(77)

# The quick set run by `make test`: one game per cartridge layout among the matching games (2K, 4K, F8, F8SC, F6,
# E0, FE); Adventure's start state was saved after a 312-line frame.
QUICK = ["Pong-Atari2600-v0", "Adventure-Atari2600-v0", "Asteroids-Atari2600-v0", "ElevatorAction-Atari2600-v0",
         "Solaris-Atari2600-v0", "MontezumaRevenge-Atari2600-v0", "Robotank-Atari2600-v0"]
SEED = 7
MOVIE_GAMES = ["Pong-Atari2600-v0", "Asteroids-Atari2600-v0"]
MOVIE_STEPS = 1500


def matching_games():
    """(game, integration folder, ROM path) for every stable-retro Atari integration whose ROM ale-py ships."""
    roms = {}
    for path in glob.glob(os.path.join(os.path.dirname(ale_py.__file__), "roms", "*.bin")):
        with open(path, "rb") as f:
            roms[hashlib.sha1(f.read()).hexdigest()] = path
    out = []
    stable = os.path.join(os.path.dirname(retro.__file__), "data", "stable")
    for folder in sorted(glob.glob(os.path.join(stable, "*-Atari2600*"))):
        sha = os.path.join(folder, "rom.sha")
        if not os.path.exists(sha):
            continue
        with open(sha) as f:
            words = f.read().split()
        digest = words[0].lower() if words else ""
        if digest in roms:
            out.append((os.path.basename(folder), folder, roms[digest]))
    return out


def make_root(tmp, game, folder, rom):
    root = os.path.join(tmp, game)
    dest = os.path.join(root, "stable", game)
    os.makedirs(dest)
    for name in os.listdir(folder):
        if os.path.isfile(os.path.join(folder, name)):
            shutil.copy(os.path.join(folder, name), dest)
    shutil.copy(rom, os.path.join(dest, "rom.a26"))
    return root


def first_difference(ours, ref):
    """The name of the first field that differs between two step results, or None."""
    names = ["observation", "ram", "reward", "terminated", "truncated", "info"]
    for name, a, b in zip(names, ours, ref):
        if name in ("observation", "ram"):
            a, b = np.asarray(a), np.asarray(b)
            if a.shape != b.shape:
                return f"{name} shape {a.shape} vs {b.shape}"
            if not np.array_equal(a, b):
                n = int(np.count_nonzero(a != b))
                return f"{name} ({n} values differ)"
        elif name == "reward":
            if float(a) != float(b):
                return f"reward {a} vs {b}"
        elif name == "info":
            if {k: int(v) for k, v in a.items()} != {k: int(v) for k, v in b.items()}:
                diff = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
                return f"info {', '.join(diff)}"
        elif bool(a) != bool(b):
            return f"{name} {a} vs {b}"
    return None


def run_game(tmp, game, folder, rom, steps):
    """(steps identical, None) or (step of the first difference, what differs); step -1 is the reset."""
    root = make_root(tmp, game, folder, rom)
    retro.data.Integrations.clear_custom_paths()
    retro.data.Integrations.add_custom_path(os.path.join(root, "stable"))
    retrogym.data.set_path(root)
    ref_env = retro.make(game=game, state="Start", inttype=retro.data.Integrations.CUSTOM_ONLY, render_mode=None)
    our_env = retrogym.make(game, state="Start", inttype=retrogym.data.Integrations.STABLE, render_mode=None)
    try:
        if our_env.core != "atari2600":
            return -1, f"retrogym runs it on {our_env.core}, not on its own core"
        ref_obs, _ = ref_env.reset(seed=SEED)
        our_obs, _ = our_env.reset(seed=SEED)
        # reset's info is not compared: stable-retro returns {} there, we return the variables (docs/compat.md)
        what = first_difference((our_obs, our_env.get_ram(), 0, False, False, {}),
                                (ref_obs, ref_env.get_ram(), 0, False, False, {}))
        if what:
            return -1, what
        rng = np.random.default_rng(SEED)
        named = np.array([b is not None for b in ref_env.buttons], dtype=np.int8)
        for t in range(steps):
            action = rng.integers(0, 2, size=len(named), dtype=np.int8) * named
            ref = ref_env.step(action)
            ours = our_env.step(action)
            what = first_difference((ours[0], our_env.get_ram(), *ours[1:]), (ref[0], ref_env.get_ram(), *ref[1:]))
            if what:
                return t, what
            if ref[2] or ref[3]:
                ref_env.reset(seed=SEED)
                our_env.reset(seed=SEED)
        return steps, None
    finally:
        ref_env.close()
        our_env.close()
        retrogym.data.set_path(None)


def movie_roundtrip(tmp, game, folder, rom, steps):
    """None when a movie recorded by retrogym on its own core holds the Start.state file's bytes as Core.bin and
    stable-retro replays it with the same reward at every step; else what differs."""
    root = make_root(os.path.join(tmp, "movie"), game, folder, rom)
    retro.data.Integrations.clear_custom_paths()
    retro.data.Integrations.add_custom_path(os.path.join(root, "stable"))
    retrogym.data.set_path(root)
    movies = os.path.join(tmp, "movies-" + game)
    os.makedirs(movies)
    try:
        env = retrogym.make(game, state="Start", record=movies, render_mode=None)
        if env.core != "atari2600":
            return f"retrogym runs it on {env.core}, not on its own core"
        env.reset(seed=SEED)
        rng = np.random.default_rng(SEED)
        named = np.array([b is not None for b in env.buttons], dtype=np.int8)
        want = []
        for _ in range(steps):
            _, reward, terminated, truncated, _ = env.step(rng.integers(0, 2, size=len(named), dtype=np.int8) * named)
            want.append(reward)
            if terminated or truncated:
                break
        env.close()
        paths = sorted(glob.glob(os.path.join(movies, "*.bk2")))
        if len(paths) != 1:
            return f"{len(paths)} movies recorded"
        with zipfile.ZipFile(paths[0]) as z, gzip.open(os.path.join(folder, "Start.state"), "rb") as f:
            if z.read("Core.bin") != f.read():
                return "Core.bin is not the Start.state file's bytes"
        # the Gym Retro docs' playback loop, on stable-retro's Stella
        movie = retro.Movie(paths[0])
        movie.step()
        ref = retro.make(game=movie.get_game(), state=retro.State.NONE, use_restricted_actions=retro.Actions.ALL,
                         players=movie.players, inttype=retro.data.Integrations.CUSTOM_ONLY, render_mode=None)
        ref.initial_state = movie.get_state()
        ref.reset()
        got = []
        while movie.step():
            keys = [movie.get_key(i, p) for p in range(movie.players) for i in range(ref.num_buttons)]
            got.append(ref.step(keys)[1])
        ref.close()
        if got != want:
            first = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
            return f"stable-retro's replay differs at step {first} ({len(got)} vs {len(want)} steps)"
        if not any(want):
            return "no reward in the recorded episode: the replay check would prove nothing"
        return None
    finally:
        retrogym.data.set_path(None)


def main():
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    wanted = sys.argv[2:] or (None if os.environ.get("RETROGYM_ATARI_ALL") else QUICK)
    games = [g for g in matching_games() if wanted is None or g[0] in wanted]
    if not games:
        print("skipped: no stable-retro Atari integration has a ROM that ale-py ships")
        sys.exit(77)
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for game, folder, rom in games:
            done, what = run_game(tmp, game, folder, rom, steps)
            if what is None:
                print(f"ok   {game}: {done} steps identical")
            else:
                failed += 1
                where = "reset" if done < 0 else f"step {done}"
                print(f"FAIL {game}: first difference at {where}: {what}")
        for game, folder, rom in games:
            if game not in MOVIE_GAMES:
                continue
            what = movie_roundtrip(tmp, game, folder, rom, MOVIE_STEPS)
            if what is None:
                print(f"ok   {game}: a movie of ours holds the Stella state and stable-retro replays it")
            else:
                failed += 1
                print(f"FAIL {game} movie: {what}")
    print(f"{len(games) - failed} of {len(games)} games identical over {steps} steps")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
