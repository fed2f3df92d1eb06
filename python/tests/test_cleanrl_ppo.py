"""The CleanRL-style PPO example (python/retrogym/examples/cleanrl_ppo.py) on our game: a few updates on a make_vec
pool (RAM and pixels), every loss and return finite, the policy's weights moved, episodes ended and were counted;
main() writes its CSV; without PyTorch (a child whose torch import fails) it exits 2 with the install hint."""
import importlib.util
import math
import subprocess
import sys

import numpy as np
import pytest

from retrogym.examples import cleanrl_ppo

needs_torch = pytest.mark.skipif(importlib.util.find_spec("torch") is None,
                                 reason="PyTorch is not installed (make venv installs the CPU wheel when it can)")


def tiny(*extra):
    return cleanrl_ppo.parse_args(["--timesteps", "256", "--envs", "4", "--num-steps", "32", "--minibatches", "2",
                                   "--epochs", "2", "--max-episode-steps", "40", "--seed", "1", "--quiet", *extra])


def check_run(stats, args, obs_shape, pixels):
    import torch

    torch.manual_seed(args.seed)  # train() seeds torch the same way before it builds its agent
    before = [p.detach().clone() for p in cleanrl_ppo.build_agent(obs_shape, 36, pixels).parameters()]
    rollout = args.envs * args.num_steps
    assert [r["steps"] for r in stats["updates"]] == [rollout * (i + 1) for i in range(args.timesteps // rollout)]
    for row in stats["updates"]:
        for key in ("loss", "policy_loss", "value_loss", "entropy"):
            assert math.isfinite(row[key]), (key, row)
        assert 0 < row["entropy"] <= math.log(36) + 1e-5
    assert all(math.isfinite(r) and r >= 0 for r in stats["episode_returns"])
    after = list(stats["agent"].parameters())
    assert len(after) == len(before)
    assert any(not torch.equal(a.detach(), b) for a, b in zip(after, before))  # the updates moved the policy
    assert all(torch.isfinite(p).all() for p in after)


@needs_torch
@pytest.mark.starcatcher
def test_a_few_updates_on_ram_are_finite_and_move_the_policy():
    args = tiny()
    stats = cleanrl_ppo.train(args, log=None)
    assert len(stats["updates"]) == 2
    check_run(stats, args, (2048,), False)
    # 64 steps per environment, episodes of at most 40: every environment finished at least one episode
    assert len(stats["episode_returns"]) >= 4


@needs_torch
@pytest.mark.starcatcher
def test_one_update_on_pixels_through_the_cnn_is_finite():
    args = cleanrl_ppo.parse_args(["--obs", "pixels", "--timesteps", "32", "--envs", "2", "--num-steps", "16",
                                   "--minibatches", "1", "--epochs", "1", "--torch-threads", "1", "--quiet"])
    stats = cleanrl_ppo.train(args, log=None)
    assert len(stats["updates"]) == 1
    check_run(stats, args, (4, 84, 84), True)


@needs_torch
@pytest.mark.starcatcher
def test_main_writes_the_returns_and_a_greedy_episode(tmp_path, capsys):
    argv = ["--timesteps", "128", "--envs", "4", "--num-steps", "32", "--max-episode-steps", "30", "--quiet",
            "--video", "none", "--out", str(tmp_path)]
    assert cleanrl_ppo.main(argv) == 0
    rows = (tmp_path / "returns.csv").read_text().splitlines()
    assert rows[0] == "episode,steps,return" and len(rows) >= 5
    assert all(np.isfinite(float(r.split(",")[2])) for r in rows[1:])
    assert "greedy episode: return" in capsys.readouterr().out


def test_bad_arguments_are_refused():
    with pytest.raises(SystemExit):
        cleanrl_ppo.parse_args(["--envs", "0"])


def test_without_torch_it_says_what_to_install_and_exits_2(tmp_path):
    # a child whose import of torch fails
    (tmp_path / "torch").mkdir()
    (tmp_path / "torch" / "__init__.py").write_text("raise ImportError('no torch here')\n")
    run = subprocess.run([sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[1]); "
                          "from retrogym.examples import cleanrl_ppo; sys.exit(cleanrl_ppo.main(['--timesteps', '8']))",
                          str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "retrogym[torch]" in run.stderr, run.stderr
