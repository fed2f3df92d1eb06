"""Ray RLlib (retrogym.rllib, python/retrogym/examples/rllib_ppo.py): the env creators' argument checks, and PPO
trained on a real Ray cluster of two nodes on this machine (a head and a second node, each its own `ray start`
process tree on 127.0.0.1, with a private temp dir and auth token), one env runner placed on each node by a custom
resource, each runner stepping one make_vec pool; the samples' origins (node id and pid, counted by the
SampleOrigins callback) show both nodes sampled, the losses are finite. The cluster is always stopped: each
`ray start --block` runs in its own process group, which is ended by its id."""
import importlib.util
import json
import math
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

import numpy as np
import pytest

import retrogym
import retrogym.rllib as rr

_MISSING = [m for m in ("ray", "torch", "tree", "pyarrow", "scipy") if importlib.util.find_spec(m) is None]
needs_rllib = pytest.mark.skipif(bool(_MISSING), reason=f"Ray RLlib needs {', '.join(_MISSING)}, not installed "
                                                        "(make venv installs Ray, RLlib's dependencies and the CPU "
                                                        "torch wheel when it can)")

GAME = "StarCatcher-Nes"
RAY = os.path.join(os.path.dirname(sys.executable), "ray")


def test_make_kwargs_turns_names_into_enums_and_refuses_bad_ones():
    game, kw = rr.make_kwargs({"game": GAME, "obs_type": "ram", "use_restricted_actions": "discrete",
                               "state": "none", "frameskip": 4, "num_envs": 3, "worker_index": 1})
    assert game == GAME
    assert kw == {"obs_type": retrogym.Observations.RAM, "use_restricted_actions": retrogym.Actions.DISCRETE,
                  "state": retrogym.State.NONE, "frameskip": 4}
    with pytest.raises(ValueError, match="name the game"):
        rr.make_kwargs({"obs_type": "ram"})
    with pytest.raises(ValueError, match="obs_type"):
        rr.make_kwargs({"game": GAME, "obs_type": "pixels"})
    with pytest.raises(ValueError, match="use_restricted_actions"):
        rr.make_kwargs({"game": GAME, "use_restricted_actions": "some"})
    with pytest.raises(ValueError, match="NEXT_STEP"):
        rr.vec_env_creator({"game": GAME, "num_envs": 2, "autoreset_mode": "SAME_STEP"})


@needs_rllib
@pytest.mark.starcatcher
def test_creators_give_float_observations_of_the_same_game():
    env = rr.env_creator({"game": GAME, "obs_type": "ram", "use_restricted_actions": "discrete"})
    venv = rr.vec_env_creator({"game": GAME, "num_envs": 3, "obs_type": "ram", "use_restricted_actions": "discrete",
                               "num_threads": 1})
    raw = retrogym.make(GAME, obs_type=retrogym.Observations.RAM)
    try:
        obs, _ = env.reset(seed=0)
        vobs, _ = venv.reset(seed=0)
        robs, _ = raw.reset(seed=0)
        assert obs.dtype == np.float32 and env.observation_space.contains(obs)
        assert vobs.shape == (3, robs.size) and vobs.dtype == np.float32
        assert venv.single_observation_space.contains(vobs[0]) and venv.num_envs == 3
        np.testing.assert_array_equal(obs, robs.astype(np.float32) / 255)  # the same bytes, scaled
        np.testing.assert_array_equal(vobs[0], obs)
        vobs, rew, term, trunc, _ = venv.step(np.zeros(3, dtype=np.int64))
        assert vobs.shape == (3, robs.size) and rew.shape == (3,)
        assert venv.metadata["autoreset_mode"].name == "NEXT_STEP"
    finally:
        env.close()
        venv.close()
        raw.close()
    keep = rr.vec_env_creator({"game": GAME, "num_envs": 1, "obs_type": "ram", "float_obs": False})
    try:
        assert keep.reset(seed=0)[0].dtype == np.uint8
    finally:
        keep.close()


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """A head and a second node, each `ray start --block` in its own session (process group)."""

    def __init__(self):
        self.tmp = tempfile.mkdtemp(prefix="rg-ray-", dir="/tmp")  # short: Ray's socket paths are limited
        self.port = _free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.env = dict(os.environ, RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=secrets.token_hex(32),
                        RAY_USAGE_STATS_ENABLED="0", PYTHONUNBUFFERED="1")
        self.procs = []

    def start(self, head, timeout=90):
        common = ["--block", "--node-ip-address=127.0.0.1", "--num-cpus=1", '--resources={"rg_runner": 1}',
                  "--object-store-memory=80000000", "--disable-usage-stats"]
        if head:
            # the GCS and dashboard ports moved off their fixed defaults, so the test runs beside another Ray
            cmd = [RAY, "start", "--head", f"--port={self.port}", f"--temp-dir={self.tmp}",
                   "--include-dashboard=false", f"--dashboard-port={_free_port()}", *common]
        else:
            cmd = [RAY, "start", f"--address={self.address}", *common]
        log = open(os.path.join(self.tmp, f"start-{len(self.procs)}.log"), "w+")
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=self.env, start_new_session=True)
        self.procs.append((proc, log))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            log.seek(0)
            text = log.read()
            if "Ray runtime started" in text:
                return
            if proc.poll() is not None:
                raise AssertionError(f"ray start exited {proc.returncode}:\n{text[-3000:]}")
            time.sleep(0.5)
        raise AssertionError(f"ray start did not come up in {timeout}s:\n{text[-3000:]}")

    def stop(self):
        """SIGTERM to each `ray start --block` (which then stops what it started), 3 s of grace, then SIGKILL to
        each process group (the node's GCS, raylet, agents and workers all belong to it)."""
        for proc, _ in reversed(self.procs):
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        deadline = time.monotonic() + 3
        for proc, log in reversed(self.procs):
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait()
            log.close()
        # a process SIGKILLed a moment ago may still be on its way out (seen once in a clean-clone CI: one left
        # when alive() looked at once); give the kernel up to 5 s, after which alive() says who is left
        deadline = time.monotonic() + 5
        while self.alive() and time.monotonic() < deadline:
            time.sleep(0.05)
        shutil.rmtree(self.tmp, ignore_errors=True)

    def alive(self):
        """The processes still in the nodes' process groups (none after stop())."""
        groups = {proc.pid for proc, _ in self.procs}
        left = []
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) in groups and fields[0] != "Z":  # pgid, state (zombies hold nothing)
                left.append(int(pid))
        return left


@needs_rllib
@pytest.mark.starcatcher
def test_ppo_on_a_two_node_cluster_samples_on_both_nodes(tmp_path):
    report_path = tmp_path / "report.json"
    cluster = Cluster()
    try:
        cluster.start(head=True)
        cluster.start(head=False)
        cmd = [sys.executable, "-m", "retrogym.examples.rllib_ppo", "--address", cluster.address,
               "--iterations", "2", "--env-runners", "2", "--envs-per-runner", "4", "--threads-per-runner", "1",
               "--runner-resource", "rg_runner", "--rollout-length", "32", "--train-batch", "256",
               "--minibatch", "128", "--epochs", "1", "--max-episode-steps", "60", "--json", str(report_path)]
        run = subprocess.run(cmd, env=cluster.env, capture_output=True, text=True, timeout=150)
        assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-5000:]
    finally:
        cluster.stop()
    assert cluster.alive() == []
    report = json.loads(report_path.read_text())
    nodes = {n["node_id"] for n in report["nodes"]}
    assert len(nodes) == 2 and all(n["resources"].get("rg_runner") == 1 for n in report["nodes"])
    assert len(report["iterations"]) == 2
    for row in report["iterations"]:
        assert row["total_loss"] is not None and math.isfinite(row["total_loss"])
        origins = row["steps_by_origin"]
        # one runner per node (each needs the node's only rg_runner unit): two origins, on the two nodes
        assert len(origins) == 2, origins
        assert {key.split("/")[1] for key in origins} == {n[:8] for n in nodes}
        assert all(steps > 0 for steps in origins.values())
    assert report["iterations"][-1]["env_steps"] >= 2 * 256
    # episodes of 60 steps: some ended within the 512+ steps
    assert report["iterations"][-1]["episodes"] > 0


def test_example_exits_2_without_ray(tmp_path):
    # a child whose import of ray fails: the example says what to install and exits 2
    (tmp_path / "ray").mkdir()
    (tmp_path / "ray" / "__init__.py").write_text("raise ImportError('no ray here')\n")
    run = subprocess.run([sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[1]); "
                          "from retrogym.examples import rllib_ppo; sys.exit(rllib_ppo.main(['--iterations', '1']))",
                          str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "retrogym[rllib]" in run.stderr
