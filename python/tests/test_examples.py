"""The examples (python/retrogym/examples): Brute improves on our game and never loses its best return, snapshots
change none of its numbers, its outputs (GIF, PNG, CSV) are written and valid; the random agent runs; the PPO
example exits cleanly without stable-baselines3; the media and progress helpers."""
import io
import os
import sys

import numpy as np
import pytest

from retrogym.examples import _media, brute, ppo, random_agent
from retrogym.examples._progress import Progress, format_duration

PIL = pytest.importorskip("PIL", reason="the examples' pictures need Pillow")
from PIL import Image  # noqa: E402

# Brute with these numbers improves on its first episode within the first few iterations: seed 0 goes from 0 to 20
# at iteration 7 (of seeds 0-9, nine improve within 25 iterations, at iterations 2 to 11). The search is
# deterministic, so a seed always gives the same curve.
STEPS, ITERATIONS, SEED = 150, 25, 0


def run_brute(iterations=ITERATIONS, steps=STEPS, seed=SEED, **kwargs):
    env = brute.make_env(max_episode_steps=steps)
    try:
        b = brute.Brute(env, seed=seed, **kwargs)
        returns, best = [], []
        for _ in range(iterations):
            returns.append(b.iterate())
            best.append(b.best_return)
        return b, returns, best
    finally:
        env.close()


@pytest.mark.starcatcher
def test_brute_best_return_never_decreases_and_improves():
    b, returns, best = run_brute()
    assert all(later >= earlier for earlier, later in zip(best, best[1:]))
    assert all(bst == max(returns[: i + 1]) for i, bst in enumerate(best))
    assert best[-1] > returns[0]
    assert b.iterations == ITERATIONS and b.steps <= ITERATIONS * STEPS
    # exploiting determinism: less is emulated than played
    assert b.emulated_steps < b.steps


@pytest.mark.starcatcher
def test_brute_snapshots_change_no_number():
    with_snapshots, returns, best = run_brute(iterations=12, steps=100, seed=3)
    without, returns2, best2 = run_brute(iterations=12, steps=100, seed=3, use_snapshots=False)
    assert returns == returns2 and best == best2
    assert with_snapshots.best_actions() == without.best_actions()
    assert with_snapshots.emulated_steps < without.emulated_steps == without.steps


@pytest.mark.starcatcher
def test_brute_best_actions_replay_to_the_best_return():
    b, _, best = run_brute(iterations=8, steps=120, seed=1)
    actions = b.best_actions()
    assert 0 < len(actions) <= 120
    env = brute.make_env(max_episode_steps=120, render=True)
    try:
        total, frames = brute.replay(env, actions, every=5)
    finally:
        env.close()
    assert total == best[-1]
    assert len(frames) == 1 + (len(actions) + 4) // 5
    assert frames[0].shape == (224, 256, 3) and frames[0].dtype == np.uint8


def test_brute_checks_its_arguments():
    with pytest.raises(SystemExit):
        brute.parse_args(["--iterations", "0"])
    with pytest.raises(SystemExit):
        brute.parse_args(["--max-episode-steps", "0"])


@pytest.mark.starcatcher
def test_brute_main_writes_a_gif_a_png_and_the_curve(tmp_path, capsys):
    out = tmp_path / "demo"
    assert brute.main(["--iterations", "6", "--max-episode-steps", "100", "--seed", "2", "--out", str(out),
                       "--video", "gif", "--video-every", "2", "--quiet"]) == 0
    printed = capsys.readouterr().out
    assert "iteration" in printed and "best return" in printed and "# best so far" in printed
    with Image.open(out / "best.gif") as gif:
        assert gif.format == "GIF" and gif.size == (256, 224)
        assert gif.n_frames > 10
        gif.seek(gif.n_frames - 1)
        last = np.asarray(gif.convert("RGB")).reshape(-1, 3)
        assert len(np.unique(last, axis=0)) > 3  # a picture, not a blank frame
    with Image.open(out / "returns.png") as png:
        assert png.format == "PNG" and png.size == (800, 450)
        png.load()
    lines = (out / "returns.csv").read_text().splitlines()
    assert lines[0] == "iteration,return,best" and len(lines) == 7
    best = [float(line.split(",")[2]) for line in lines[1:]]
    assert best == sorted(best)
    actions = (out / "best_actions.txt").read_text().splitlines()[1].split()
    assert all(0 <= int(a) < 36 for a in actions)


@pytest.mark.starcatcher
def test_random_agent_runs_n_steps(capsys):
    result = random_agent.run(steps=400, seed=0, max_episode_steps=150, log=lambda *a: None)
    assert result["steps"] == 400
    assert len(result["episodes"]) >= 2  # episodes of at most 150 steps
    assert all(length <= 150 and ret >= 0 for ret, length in result["episodes"])
    again = random_agent.run(steps=400, seed=0, max_episode_steps=150, log=lambda *a: None)
    assert again["episodes"] == result["episodes"]
    assert random_agent.main(["--steps", "200", "--quiet"]) == 0
    assert "frames/s" in capsys.readouterr().out


def test_ppo_exits_cleanly_without_stable_baselines3(monkeypatch, capsys):
    # None in sys.modules makes `import stable_baselines3` raise ImportError, as when it is not installed.
    monkeypatch.setitem(sys.modules, "stable_baselines3", None)
    assert not ppo.have_sb3()
    assert ppo.main(["--timesteps", "100"]) == 2
    err = capsys.readouterr().err
    assert "stable-baselines3 is not installed" in err and "retrogym.examples.brute" in err


def test_gif_exact_palette_and_quantized(tmp_path):
    rng = np.random.default_rng(0)
    few = [np.zeros((20, 30, 3), np.uint8) for _ in range(3)]
    for i, f in enumerate(few):
        f[:, : 10 * (i + 1)] = (200, 30 * i, 7)
    _media.write_gif(str(tmp_path / "few.gif"), few, fps=15)
    with Image.open(tmp_path / "few.gif") as gif:
        assert gif.n_frames == 3
        for i in range(3):
            gif.seek(i)
            assert np.array_equal(np.asarray(gif.convert("RGB")), few[i])  # no colour lost
    many = [rng.integers(0, 256, (16, 16, 3), dtype=np.uint8) for _ in range(2)]
    _media.write_gif(str(tmp_path / "many.gif"), many, fps=10, scale=2)
    with Image.open(tmp_path / "many.gif") as gif:
        assert gif.n_frames == 2 and gif.size == (32, 32)
    with pytest.raises(ValueError):
        _media.write_gif(str(tmp_path / "none.gif"), [])


@pytest.mark.skipif(not _media.have_ffmpeg(), reason="ffmpeg is not on PATH")
def test_mp4_through_ffmpeg(tmp_path):
    frames = [np.full((224, 256, 3), i * 20, np.uint8) for i in range(10)]
    path = _media.write_video(str(tmp_path / "v"), frames, fps=15, kind="auto")
    assert path.endswith(".mp4") and os.path.getsize(path) > 0


def test_plot_and_text_chart(tmp_path):
    xs = list(range(1, 51))
    ys = [float(x % 7) * 10 for x in xs]
    best = list(np.maximum.accumulate(ys))
    path = _media.plot_curves(str(tmp_path / "p.png"), [
        {"x": xs, "y": ys, "label": "episode return", "dots": True},
        {"x": xs, "y": best, "label": "best so far", "color": (230, 110, 20), "width": 3, "step": True},
    ], title="t", xlabel="iteration", ylabel="return", size=(640, 360))
    with Image.open(path) as png:
        assert png.size == (640, 360)
        pixels = np.asarray(png.convert("RGB"))
    assert (np.abs(pixels.astype(int) - (230, 110, 20)).sum(axis=2) < 40).sum() > 200  # the orange line is drawn
    lines = _media.text_chart([best, ys], width=40, height=8)
    assert len(lines) == 10 and lines[0].startswith("60 |") and "#" in lines[0]
    assert _media.text_chart([]) == []


def test_progress_bar():
    err, out = io.StringIO(), io.StringIO()
    with Progress(20, desc="x", stream=err, out=out) as bar:  # not a terminal: a line every tenth
        for _ in range(20):
            bar.update(1, best=3)
        bar.write("a line")
    lines = err.getvalue().splitlines()
    assert len(lines) == 10 and lines[-1].startswith("x 100%|") and "20/20" in lines[-1] and "best=3" in lines[-1]
    assert out.getvalue() == "a line\n"

    class Tty(io.StringIO):
        def isatty(self):
            return True

    tty = Tty()
    with Progress(3, stream=tty, out=out, min_interval=0) as bar:
        bar.update(2)
        bar.write("between")
    text = tty.getvalue()
    assert "\r" in text and "2/3" in text and text.endswith("\n") and "\n" not in text[:-1]
    assert Progress(5, enabled=False, stream=err).line().startswith("  0%|")
    assert format_duration(42) == "42s" and format_duration(185) == "3m05s" and format_duration(3720) == "1h02m"
