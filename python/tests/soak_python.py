"""The Python soak (docs/reliability.md, "Soak"): retrogym.make and make_vec environments of every system with a
core, stepped with random actions for N steps with resets, snapshots and restores, raw emulator states, state files,
every read-back the extension offers, movies, and whole environments created, closed or dropped now and then.
After a warm-up, the process must stay flat: resident memory, heap, Python's allocated blocks and tracked objects
(a reference leaked in the C extension keeps its object alive), descriptors, threads, mappings and temporary files.

usage: python python/tests/soak_python.py [--steps N] [--seed S] [--systems Atari2600,GameBoy,...]
exit: 0 flat, 1 a figure grew. Not collected by pytest (test_soak_short.py runs a short one).
"""
import argparse
import ctypes
import gc
import gzip
import json
import os
import shutil
import sys
import tempfile
import time

import numpy as np

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ROMS = os.path.join(SOURCE, "tests", "roms")
# system, core, test ROM folder under tests/roms (the same set as the C soak, tests/soak/soak_data.c)
SYSTEMS = [("Atari2600", "atari2600", "a26"), ("Nes", "nestopia", "nes"), ("GameBoy", "gambatte", "gb"),
           ("GbColor", "gambatte", "gbc"), ("Snes", "bsnes_mercury_performance", "snes"),
           ("GbAdvance", "mgba", "gba"), ("PCEngine", "mednafen_pce_fast", "pce")]
LOAD_LEAK_KIB = 64  # a core that leaves this much heap behind per load is kept out of create/close cycles

LUA = """data.prev = nil
trail = ''
function soak_reward()
  local r = 0
  if data.prev ~= nil then r = data.counter - data.prev end
  data.prev = data.counter
  trail = string.sub(tostring(data.counter) .. ',' .. trail, 1, 48)
  return r
end
function soak_done()
  return data.counter == 77
end
"""


class _Mallinfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks",
                 "keepcost")]


try:
    _libc = ctypes.CDLL(None)
    _libc.mallinfo2.restype = _Mallinfo2
except (OSError, AttributeError):
    _libc = None


def measure(tmpdir, out_dir):
    """The process figures. Python's own figures are taken after a full collection."""
    gc.collect()
    f = {}
    with open("/proc/self/statm") as fh:
        f["rss"] = int(fh.read().split()[1]) * (os.sysconf("SC_PAGE_SIZE") // 1024)
    if _libc is not None:
        mi = _libc.mallinfo2()
        f["heap"] = (mi.uordblks + mi.hblkhd) // 1024
    else:
        f["heap"] = -1
    f["blocks"] = sys.getallocatedblocks()
    f["objects"] = len(gc.get_objects())
    f["fds"] = len(os.listdir("/proc/self/fd")) - 1
    maps = cores = 0
    with open("/proc/self/maps") as fh:
        for line in fh:
            maps += 1
            cores += (tmpdir + "/") in line
    f["maps"], f["cores"] = maps, cores
    with open("/proc/self/status") as fh:
        f["threads"] = next(int(line.split()[1]) for line in fh if line.startswith("Threads:"))
    f["tmp"] = sum(len(dirs) + len(files) for _, dirs, files in os.walk(tmpdir))
    f["out"] = sum(len(dirs) + len(files) for _, dirs, files in os.walk(out_dir))
    return f


def build_games(root, retrogym, wanted):
    """One integration per system with a core (SoakPy<System>-<System>): the test ROM, its frame counter and pad
    byte, a scenario ending every 256 frames, a "long" one without done, a Lua one, and Start.state 40 frames
    after power-on. Returns {system: (game, core)}."""
    installed = {c["name"] for c in retrogym.data.list_cores()}
    games = {}
    for system, core, folder in SYSTEMS:
        if wanted and system not in wanted:
            continue
        if core not in installed:
            print(f"skipped: {system} (core {core} not installed)")
            continue
        with open(os.path.join(ROMS, folder, "rom.json")) as fh:
            manifest = json.load(fh)
        game = f"SoakPy{system}-{system}"
        d = os.path.join(root, game)
        os.makedirs(d)
        ext = retrogym.get_system_info(system)["extensions"][0]
        shutil.copy(os.path.join(ROMS, "bin", manifest["rom"]), os.path.join(d, "rom" + ext))
        variables = {"counter": {"address": manifest["counter"]["addr"], "type": "|u1"},
                     "pad": {"address": manifest["pad"]["addr"], "type": "|u1"}}
        reward = {"variables": {"counter": {"reward": 1}}}
        files = {
            "data.json": {"info": variables},
            "scenario.json": {"reward": reward,
                              "done": {"variables": {"counter": {"op": "equal", "reference": 200}}}},
            "long.json": {"reward": reward},
            "lua.json": {"reward": {"script": "lua:soak_reward"}, "done": {"script": "lua:soak_done"},
                         "scripts": ["soak.lua"]},
        }
        for name, content in files.items():
            with open(os.path.join(d, name), "w") as fh:
                json.dump(content, fh)
        with open(os.path.join(d, "soak.lua"), "w") as fh:
            fh.write(LUA)
        env = retrogym.make(game, state=retrogym.State.NONE, scenario="long", core=core,
                            inttype=retrogym.Integrations.CUSTOM_ONLY)
        env.reset(seed=0)
        for _ in range(40):
            env.step(np.zeros(env.action_space.shape, dtype=np.int64) if env.action_space.shape else 0)
        with open(os.path.join(d, "Start.state"), "wb") as fh:
            fh.write(gzip.compress(env.em.get_state()))
        env.close()
        with open(os.path.join(d, "metadata.json"), "w") as fh:
            json.dump({"default_state": "Start"}, fh)
        games[system] = (game, core)
    return games


def calibrate(retrogym, games):
    """Heap one load of each core leaves allocated (make from Start.state, 10 steps, close: 2 to warm up, 6
    measured). Some Debian
    cores leak on every load (nestopia ~1 MB, bsnes-mercury ~0.5 MB, beetle-pce-fast ~0.35 MB); those stay out of
    the create/close and power-on cycles. Returns {system: KiB per load}."""
    out = {}
    for system, (game, core) in games.items():
        def once():
            env = retrogym.make(game, core=core, inttype=retrogym.Integrations.CUSTOM_ONLY)
            env.reset(seed=0)
            for _ in range(10):
                env.step(env.action_space.sample())
            env.close()
        once(), once()
        gc.collect()
        before = _libc.mallinfo2() if _libc else None
        for _ in range(6):
            once()
        gc.collect()
        after = _libc.mallinfo2() if _libc else None
        kib = ((after.uordblks + after.hblkhd) - (before.uordblks + before.hblkhd)) // 1024 // 6 if _libc else 0
        out[system] = kib
        note = "" if kib < LOAD_LEAK_KIB else ": kept out of create/close and power-on cycles"
        print(f"  {system:10} {core:26} {kib:6} KiB per load{note}")
    return out


class Single:
    """One long-lived environment stepped in bursts, with periodic events keyed on its own step count."""

    PERIODS = dict(clone=211, restore=307, reset=401, read_back=503, state_file=1009, toggle=1201)

    def __init__(self, retrogym, label, game, core, burst, seed, out_dir, poweron_ok, scale=1.0, **kwargs):
        self.rg = retrogym
        # a short run has the same events, more often
        self.period = {k: max(7, int(v * scale)) for k, v in self.PERIODS.items()}
        self.label, self.burst, self.out_dir = label, burst, out_dir
        self.env = retrogym.make(game, core=core, inttype=retrogym.Integrations.CUSTOM_ONLY, render_mode="rgb_array",
                                 **kwargs)
        self.env.action_space.seed(seed)
        self.rng = np.random.default_rng(seed)
        self.steps = 0
        self.snap = None
        self.toggle = poweron_ok and kwargs.get("state", retrogym.State.DEFAULT) is retrogym.State.DEFAULT
        self.start_none = False
        self.env.reset(seed=seed)

    def run(self, counts):
        env = self.env
        for _ in range(self.burst):
            obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
            self.steps += 1
            counts["steps"] += 1
            if terminated or truncated:
                counts["episodes"] += 1
                env.reset()
            self.events(counts)

    def events(self, counts):
        env, k, period = self.env, self.steps, self.period
        if k % period["clone"] == 0:
            self.snap = env.unwrapped.clone_state()
            counts["clones"] += 1
        if k % period["restore"] == 0 and self.snap is not None:
            env.unwrapped.restore_state(self.snap)
            counts["restores"] += 1
        if k % period["reset"] == 0:
            env.reset(seed=int(self.rng.integers(0, 2**31)))
        if k % period["read_back"] == 0:
            # every read-back of the extension, results dropped
            env.get_ram(), env.get_screen(), env.render(), env.data.lookup_all(), env.data["counter"]
            env.data.lookup_delta("counter"), env.data.current_reward(), env.data.total_reward(), env.data.is_done()
            env.data.list_variables(), env.data.memory.blocks, env.data.crop_info(), env.compute_step()
            env.decode_action(env.action_space.sample()), env.get_action_meaning(env.action_space.sample())
            env.data.set_value("soak_custom", 7), env.data["soak_custom"], list(env.data.vars.items())
            raw = env.em.get_state()
            if not env.em.set_state(raw):
                raise RuntimeError(f"{self.label}: the core refused its own state")
            env.em.get_screen(), env.em.get_ram(), env.em.get_resolution(), env.em.get_screen_rate()
            repr(env), env.episode_steps, env.core
        if k % period["state_file"] == 0:
            path = os.path.join(self.out_dir, "soak.state")
            with open(path, "wb") as fh:
                fh.write(gzip.compress(env.em.get_state()))
            env.unwrapped.load_state(path)
            counts["state_files"] += 1
        if self.toggle and k % period["toggle"] == 0:
            if self.start_none:
                env.unwrapped.load_state("Start", self.rg.Integrations.CUSTOM_ONLY)
            else:
                env.unwrapped._c.set_start_state("")  # power-on resets from now on (RG_STATE_NONE)
            self.start_none = not self.start_none

    def close(self):
        self.env.close()


class Vector:
    """A make_vec environment: synchronous steps (with reset masks) or send/recv."""

    def __init__(self, retrogym, label, game, burst, async_, **kwargs):
        self.label, self.burst, self.async_ = label, burst, async_
        self.env = retrogym.make_vec(game, inttype=retrogym.Integrations.CUSTOM_ONLY, **kwargs)
        self.env.action_space.seed(kwargs.get("seed", 0))
        self.n = self.env.num_envs
        self.disabled = kwargs.get("autoreset_mode") == "Disabled"
        self.calls = 0
        self.env.reset()

    def run(self, counts):
        env = self.env
        if self.async_:
            env.send(env.action_space.sample())
            in_flight = self.n
            for _ in range(self.burst):
                obs, rewards, terminated, truncated, infos = env.recv()
                ids = infos["env_id"]
                counts["steps"] += len(ids)
                counts["episodes"] += int(np.sum(terminated | truncated))
                env.send(env.action_space.sample()[:len(ids)], ids)
            while in_flight:
                obs, rewards, terminated, truncated, infos = env.recv()
                in_flight -= len(infos["env_id"])
                counts["steps"] += len(infos["env_id"])
        else:
            for _ in range(self.burst):
                obs, rewards, terminated, truncated, infos = env.step(env.action_space.sample())
                counts["steps"] += self.n
                ended = terminated | truncated
                counts["episodes"] += int(np.sum(ended))
                if self.disabled and ended.any():
                    env.reset(options={"reset_mask": ended})
        self.calls += 1
        if self.calls % 25 == 0:
            mask = np.zeros(self.n, dtype=np.bool_)
            mask[self.calls // 25 % self.n] = True
            env.reset(options={"reset_mask": mask})
        if self.calls % 60 == 0:
            env.reset(seed=self.calls)
            env.episode_steps()

    def close(self):
        self.env.close()


class Soak:
    def __init__(self, args, retrogym, base):
        self.rg, self.args = retrogym, args
        self.tmp, self.data, self.out = (os.path.join(base, n) for n in ("tmp", "data", "out"))
        for d in (self.tmp, self.data, self.out):
            os.makedirs(d)
        with open(os.path.join(self.out, "soak.state"), "wb"):
            pass  # rewritten by the envs' state-file events: the folder's count stays the same
        os.environ["TMPDIR"] = self.tmp  # where the host copies cores (read at every load)
        tempfile.tempdir = None
        retrogym.data.add_custom_path(self.data)
        wanted = set(args.systems.split(",")) if args.systems else None
        self.games = build_games(self.data, retrogym, wanted)
        if "Atari2600" not in self.games:
            raise SystemExit("soak: the built-in atari2600 core is missing")
        print("heap one load of each core leaves allocated (a third-party leak when large):")
        self.leak = calibrate(retrogym, self.games)
        self.clean = [s for s in self.games if self.leak[s] < LOAD_LEAK_KIB]
        self.counts = dict(steps=0, episodes=0, clones=0, restores=0, state_files=0, creates=0, drops=0,
                           vector_creates=0, movies=0)
        self.churns = 0

    def open(self):
        rg, args_seed = self.rg, self.args.seed
        plan = [  # system, label, burst, make kwargs (power-on states only where the core does not leak per load)
            ("Atari2600", "a26-image", 48, dict(frameskip=4, sticky_prob=0.25, max_episode_steps=500)),
            ("Atari2600", "a26-ram-poweron", 48, dict(state=rg.State.NONE, scenario="lua", obs_type=rg.Observations.RAM,
                                                      use_restricted_actions=rg.Actions.DISCRETE)),
            ("Nes", "nes-ram", 16, dict(scenario="long", obs_type=rg.Observations.RAM, frameskip=2,
                                        use_restricted_actions=rg.Actions.MULTI_DISCRETE, max_episode_steps=700)),
            ("GameBoy", "gb-image-poweron", 32, dict(state=rg.State.NONE, use_restricted_actions=rg.Actions.ALL)),
            ("GbColor", "gbc-ram-lua", 24, dict(scenario="lua", obs_type=rg.Observations.RAM, frameskip=2, noop_max=5,
                                                sticky_prob=0.1)),
            ("Snes", "snes-image", 8, dict(use_restricted_actions=rg.Actions.DISCRETE, max_pool=True)),
            ("GbAdvance", "gba-ram", 8, dict(obs_type=rg.Observations.RAM,
                                             use_restricted_actions=rg.Actions.MULTI_DISCRETE)),
            ("PCEngine", "pce-image", 16, dict(scenario="long", frameskip=2, noop_max=3, max_episode_steps=400)),
        ]
        self.singles = []
        for i, (system, label, burst, kw) in enumerate(plan):
            if system not in self.games:
                continue
            game, core = self.games[system]
            clean = system in self.clean
            if not clean:
                kw.pop("state", None)
            self.singles.append(Single(rg, label, game, core, burst, args_seed + i, self.out, clean,
                                       scale=min(1.0, self.args.steps / 50000), **kw))
        a26 = self.games["Atari2600"][0]
        self.vectors = [
            Vector(rg, "vec-same-step", a26, 4, False, num_envs=4, num_threads=2, seed=args_seed + 100,
                   autoreset_mode="SameStep", grayscale=True, resize=(84, 84), frame_stack=4, reward_clip=1.0,
                   frameskip=2, max_episode_steps=300, use_restricted_actions=rg.Actions.DISCRETE),
            Vector(rg, "vec-async", a26, 12, True, num_envs=4, batch_size=2, num_threads=2, seed=args_seed + 200,
                   obs_type=rg.Observations.RAM, frameskip=2),
        ]
        if "GameBoy" in self.games:
            self.vectors.append(Vector(rg, "vec-disabled", self.games["GameBoy"][0], 4, False, num_envs=2,
                                       num_threads=1, seed=args_seed + 300, autoreset_mode="Disabled",
                                       use_restricted_actions=rg.Actions.DISCRETE, frameskip=2))

    def churn(self, k):
        """A whole environment made, used and closed (or dropped without close); now and then a whole make_vec."""
        rg = self.rg
        system = self.clean[k % len(self.clean)]
        game, core = self.games[system]
        kw = dict(obs_type=rg.Observations(k % 2), use_restricted_actions=[rg.Actions.ALL, rg.Actions.FILTERED,
                                                                           rg.Actions.DISCRETE,
                                                                           rg.Actions.MULTI_DISCRETE][k // 2 % 4],
                  scenario=[None, "long", "lua"][k // 3 % 3], frameskip=1 + k % 3)
        if k % 5 == 0:
            kw["state"] = rg.State.NONE
        env = rg.make(game, core=core, inttype=rg.Integrations.CUSTOM_ONLY, **kw)
        env.reset(seed=k)
        if k % 3 == 0:
            env.unwrapped.record_movie(os.path.join(self.out, "churn.bk2"))
            env.unwrapped.movie, env.unwrapped.movie_path, env.unwrapped.movie_id
            self.counts["movies"] += 1
        for _ in range(60):
            _, _, terminated, truncated, _ = env.step(env.action_space.sample())
            self.counts["steps"] += 1
            if terminated or truncated:
                env.reset()
        if k % 4 == 0:
            snap = env.unwrapped.clone_state()
            other = rg.make(game, core=core, inttype=rg.Integrations.CUSTOM_ONLY, **kw)
            other.reset()
            other.unwrapped.restore_state(snap)
            other.step(other.action_space.sample())
            self.counts["steps"] += 1
            self.counts["creates"] += 1
            del other  # dropped without close(): the type's dealloc must free everything
            gc.collect()
            self.counts["drops"] += 1
        env.close()
        self.counts["creates"] += 1
        if k % 8 == 1:
            venv = rg.make_vec(self.games["Atari2600"][0], 3, num_threads=2, seed=k,
                               autoreset_mode=["NextStep", "SameStep", "Disabled"][k // 8 % 3],
                               inttype=rg.Integrations.CUSTOM_ONLY, obs_type=rg.Observations(k // 8 % 2))
            venv.reset()
            for _ in range(20):
                venv.step(venv.action_space.sample())
                self.counts["steps"] += 3
            venv.close()
            self.counts["vector_creates"] += 1

    def run(self):
        total = self.args.steps
        warmup = max(total // 10, 20000) if total >= 50000 else total * 2 // 5
        churn_every = min(2000, max(200, total // 25))
        middle = (warmup + total) // 2
        print(f"soak: {total} steps, seed {self.args.seed}, {len(self.singles)} envs, {len(self.vectors)} vector "
              f"envs, warm-up {warmup} steps, an env made and closed every {churn_every} steps, TMPDIR {self.tmp}")
        cols = ["rss", "heap", "blocks", "objects", "fds", "maps", "cores", "threads", "tmp", "out"]
        print(f"{'point':7} {'steps':>8} {'wall s':>7} {'cpu s':>7} {'steps/s':>7} " +
              " ".join(f"{c:>8}" for c in cols))
        t0 = t_last = time.monotonic()
        cpu0 = time.process_time()
        steps_last, next_churn, phase = 0, churn_every, 0
        rows = []
        while phase < 3:
            for w in self.singles + self.vectors:
                w.run(self.counts)
            if self.counts["steps"] >= next_churn:
                self.churn(self.churns)
                self.churns += 1
                next_churn += churn_every
            if self.counts["steps"] < (warmup, middle, total)[phase]:
                continue
            f = measure(self.tmp, self.out)
            t = time.monotonic()
            f.update(point=("start", "middle", "end")[phase], steps=self.counts["steps"], wall=round(t - t0, 1),
                     cpu=round(time.process_time() - cpu0, 1),
                     rate=round((self.counts["steps"] - steps_last) / (t - t_last)))
            rows.append(f)
            print(f"{f['point']:7} {f['steps']:8} {f['wall']:7} {f['cpu']:7} {f['rate']:7} " +
                  " ".join(f"{f[c]:8}" for c in cols), flush=True)
            t_last, steps_last = t, self.counts["steps"]
            phase += 1
        return rows

    def check(self, rows):
        base, failures = rows[0], []
        rss_allowed = max(8192, base["rss"] // 50)
        heap_allowed = max(2048, base["heap"] // 100)
        blocks_allowed = max(self.args.blocks_tolerance, base["blocks"] // 200)
        objects_allowed = max(self.args.blocks_tolerance, base["objects"] // 200)
        end = rows[-1]
        for name, allowed in (("rss", rss_allowed), ("heap", heap_allowed), ("blocks", blocks_allowed),
                              ("objects", objects_allowed)):
            if end[name] > base[name] + allowed:
                failures.append(f"{name} grew from {base[name]} to {end[name]} after warm-up (allowed {allowed})")
        for row in rows[1:]:
            for name in ("fds", "threads", "tmp", "out", "cores"):
                if row[name] != base[name]:
                    failures.append(f"{name} at {row['point']} is {row[name]}, after warm-up {base[name]}")
            if abs(row["maps"] - base["maps"]) > 16:
                failures.append(f"maps at {row['point']} is {row['maps']}, after warm-up {base['maps']} (within 16)")
        c = self.counts
        print(f"did: {c['steps']} steps, {c['episodes']} episodes ended, {c['clones']} snapshots, {c['restores']} "
              f"restores, {c['state_files']} state files, {c['creates']} envs made and closed ({c['drops']} dropped "
              f"without close), {c['vector_creates']} vector envs, {c['movies']} movies")
        print(f"thresholds: after warm-up, RSS may grow {rss_allowed} KiB (max(8 MiB, 2%)), heap {heap_allowed} KiB "
              f"(max(2 MiB, 1%)), Python blocks {blocks_allowed} and tracked objects {objects_allowed} "
              f"(max({self.args.blocks_tolerance}, 0.5%)); fds, threads, core mappings, temporary entries and output "
              f"files equal; mappings within 16")
        return failures

    def close(self):
        for w in self.singles + self.vectors:
            w.close()
        gc.collect()
        left = sum(len(d) + len(f) for _, d, f in os.walk(self.tmp))
        self.rg.data.clear_custom_paths()
        return left


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--steps", type=int, default=200000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--systems", default="", help="comma-separated systems (Atari2600 is required); default: all")
    p.add_argument("--blocks-tolerance", type=int, default=2000,
                   help="Python blocks/objects a run may gain after warm-up (at least 0.5%% of the baseline)")
    p.add_argument("--json", help="write the measured rows here")
    p.add_argument("--verbose", action="store_true", help="let the cores print to standard output")
    args = p.parse_args(argv)
    if args.steps < 2000:
        p.error("--steps must be at least 2000")
    if not args.verbose:
        # cores print to standard output (gambatte, mednafen): the report goes to a copy of it, fd 1 to /dev/null
        sys.stdout.flush()
        report = os.fdopen(os.dup(1), "w", buffering=1)
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.close(null)
        sys.stdout = report
    import retrogym

    base = tempfile.mkdtemp(prefix="rg-soak-py-")
    try:
        soak = Soak(args, retrogym, os.path.realpath(base))
        soak.open()
        rows = soak.run()
        failures = soak.check(rows)
        left = soak.close()
        if left:
            failures.append(f"{left} entries left in TMPDIR after every env was closed")
        if args.json:
            with open(args.json, "w") as fh:
                json.dump({"rows": rows, "counts": soak.counts, "failures": failures, "load_kib": soak.leak}, fh,
                          indent=1)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    for line in failures:
        print("FAIL:", line)
    print("soak: FAIL" if failures else "soak: PASS (flat)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
